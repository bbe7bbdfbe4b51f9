"""A class's answer files as forms export them: the student column, one student twice, a quote left open."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import SET


def read_gradebook(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))


# --- 3. nothing ambiguous passes silently --------------------------------------------------


def test_the_same_student_twice_marks_both_rows(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, tmp_path / "set.yaml")
    (tmp_path / "a.yaml").write_text(answer("김민지", "set.yaml"), "utf-8")
    (tmp_path / "form.csv").write_text("student,problem_set,cat-fish/먹었다/scores\r\n박서준,set.yaml,1 6 4\r\n김민지,set.yaml,1 6 4\r\n", "utf-8")
    result = run_cli("grade", "a.yaml", "form.csv", "--csv", "book.csv", "--json", "r.json")
    assert result.exit_code == 1
    assert "3 students marked; 2 with problems" in flat(result.output)
    reports = json.loads((tmp_path / "r.json").read_text("utf-8"))["students"]
    assert [len([e for e in s["errors"] if "appears more than once" in e]) for s in reports] == [1, 0, 1]
    rows = read_gradebook(tmp_path / "book.csv")
    kim = [row for row in rows if row["student"] == "김민지"]
    assert len(kim) == 2
    for row in kim:
        assert "the student '김민지' appears more than once: a.yaml, form.csv:3" in row["errors"]
    assert [row["errors"] for row in rows if row["student"] == "박서준"] == [""]
    # The reports went into r.json's own temporary file as they came; the repeat's errors needed a
    # second one, and neither is left behind.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.yaml", "book.csv", "form.csv", "r.json", "set.yaml"]


def test_an_unclosed_quote_in_a_csv_is_an_error_naming_its_line(run_cli, tmp_path):
    path = tmp_path / "form.csv"
    path.write_text('student,cat-fish/먹었다/scores\r\nkim,"1 6 4\r\nlee,1 6 4\r\npark,"1 6 4"\r\n', "utf-8")
    result = run_cli("grade", str(path), "--problems", str(SET))
    assert result.exit_code == 1
    assert f"{path}:2:2: the cell in column 2 runs over 3 lines (to line 4)" in flat(result.stderr)
    assert "a quote is probably not closed" in flat(result.stderr)


# --- forms-friendly CSV -----------------------------------------------------------------


@pytest.mark.parametrize("column", ["student", "Name", "이름", "성명"])
def test_a_forms_csv_may_name_the_student_column_as_forms_do(run_cli, tmp_path, column):
    path = tmp_path / "form.csv"
    path.write_text(f"{column},cat-fish/먹었다/scores\r\n김민지,1 6 4\r\n", "utf-8-sig")
    result = run_cli("grade", str(path), "--problems", "ch13")
    assert result.exit_code == 0, result.output
    assert "김민지" in result.output and "1 student marked" in result.output
    assert "Class (1 student)" in result.output


def test_name_column_names_any_column(run_cli, tmp_path):
    path = tmp_path / "form.csv"
    path.write_text("타임스탬프,학번,cat-fish/먹었다/scores\r\n2026-03-02,20261234,1 6 4\r\n", "utf-8")
    result = run_cli("grade", str(path), "--problems", "ch13", "--name-column", "학번")
    assert result.exit_code == 0 and "20261234" in result.output
    wrong = run_cli("grade", str(path), "--problems", "ch13", "--name-column", "반")
    assert wrong.exit_code == 1 and "there is no column '반'" in wrong.output and "학번" in wrong.output


def test_a_header_problem_is_reported_once_with_its_column(run_cli, tmp_path):
    rows = "".join(f"학생{n},1 6 4,x\r\n" for n in range(30))
    path = tmp_path / "form.csv"
    path.write_text("이름,cat-fish/먹었다/scores,cat-fish/먹었다\r\n" + rows, "utf-8")
    result = run_cli("grade", str(path), "--problems", "ch13")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if "is not problem/row/stage" in line]
    assert errors == [f"error: {path}:1:3: column 'cat-fish/먹었다' is not problem/row/stage"]
