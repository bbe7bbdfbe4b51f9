"""Which problem set marks a student (attn_tutor.problems.choice): the teacher's, never what an answer file names.

A set outside the working directory is refused and never read; two sets in one class are
flagged; ``--problems`` marks everyone against the teacher's set.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import GRADE as FIXTURES
from helpers.paths import SET

SECRET = "TOP-SECRET-4f1c"  # the contents of a file that is not a problem set


def read_gradebook(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))


def everything(result, *paths: Path) -> str:
    """All a user could read after a run: the terminal and every output file."""
    texts = [result.output, result.stderr]
    texts += [p.read_text("utf-8", "replace") for p in paths if p.exists()]
    return "\n".join(texts)


@pytest.fixture
def classroom(tmp_path, monkeypatch):
    """A teacher's directory: the set, an answers folder, and a secret file outside it."""
    room = tmp_path / "room"
    (room / "answers").mkdir(parents=True)
    shutil.copy(SET, room / "set.yaml")
    outside = tmp_path / "secret.yaml"
    outside.write_text(f"problems:\n  - id: x\n    tokens: [a]\n    Q: [[1]]\n    K: [[1]]\n    {SECRET}: 1\n", "utf-8")
    monkeypatch.chdir(room)
    return room


# --- 1. the teacher decides what marks each student ----------------------------------------


@pytest.mark.parametrize(
    "named",
    [
        "ABSOLUTE",  # an absolute path elsewhere
        "../../secret.yaml",  # ../ out of the working directory
        "LINK",  # a symlink inside that points out
        "/etc/shadow",
        "/dev/zero",
    ],
)
def test_a_problem_set_outside_the_working_directory_is_refused_and_never_read(run_cli, classroom, named, monkeypatch):
    if named == "ABSOLUTE":
        named = str(classroom.parent / "secret.yaml")
    if named == "LINK":
        os.symlink(classroom.parent / "secret.yaml", classroom / "mine.yaml")
        named = "../mine.yaml"
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", named), "utf-8")
    (classroom / "answers" / "lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    out, report = classroom.parent / "book.csv", classroom.parent / "reports.json"
    opened = []  # every file the run opens: a file never opened is never read (nor waited on)
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *args, **kwargs: opened.append(Path(path).resolve()) or real_open(path, *args, **kwargs))
    result = run_cli("grade", "answers", "--csv", str(out), "--json", str(report))
    outside = {(classroom.parent / "secret.yaml").resolve(), Path("/etc/shadow"), Path("/dev/zero")}
    assert outside.isdisjoint(opened) and (classroom / "set.yaml").resolve() in opened
    assert result.exit_code == 1
    rows = {row["student"]: row for row in read_gradebook(out)}
    assert rows["kim"]["score"] == "" and "is neither a packaged set nor a file under" in rows["kim"]["errors"]
    assert rows["lee"]["score"] == "8" and rows["lee"]["problem_set"] == "set.yaml"
    assert SECRET not in everything(result, out, report)


def test_a_cheating_set_inside_the_directory_is_flagged_in_the_summary(run_cli, classroom):
    (classroom / "mine.yaml").write_text("problems:\n  - id: cat-fish\n    tokens: [먹었다]\n    Q: [[1]]\n    K: [[1]]\n    V: [[1]]\n", "utf-8")
    (classroom / "answers" / "kim.yaml").write_text(
        "student: kim\nproblem_set: ../mine.yaml\nanswers:\n  cat-fish:\n    먹었다: {scores: [1], scaled: [1], weights: [1], output: [1]}\n",
        "utf-8",
    )
    (classroom / "answers" / "lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    result = run_cli("grade", "answers", "--csv", "book.csv")
    assert result.exit_code == 1  # two sets for one class: the teacher must look
    text = flat(result.output)
    assert "the students were marked against 2 different problem sets:" in text
    assert "mine.yaml: kim" in text and "set.yaml: lee" in text
    rows = {row["student"]: row for row in read_gradebook(classroom / "book.csv")}
    assert (rows["kim"]["problem_set"], rows["lee"]["problem_set"]) == ("mine.yaml", "set.yaml")
    assert rows["kim"]["file"] == "answers/kim.yaml"


def test_problems_option_marks_everyone_against_it_and_flags_other_names(run_cli, classroom):
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", "../../secret.yaml"), "utf-8")
    (classroom / "answers" / "lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    result = run_cli("grade", "answers", "--problems", "set.yaml", "--csv", "book.csv")
    assert result.exit_code == 1
    rows = {row["student"]: row for row in read_gradebook(classroom / "book.csv")}
    assert rows["kim"]["score"] == "8"  # marked against the teacher's set all the same
    assert "names the problem set '../../secret.yaml', but it was marked against --problems set.yaml" in rows["kim"]["errors"]
    assert rows["lee"]["errors"] == ""  # the same file, named another way
    assert SECRET not in everything(result, classroom / "book.csv")


def test_a_named_set_that_is_not_a_problem_set_quotes_nothing_from_it(run_cli, classroom):
    (classroom / "notes.yaml").write_text(f"{SECRET}: [1, 2]\npassword: {SECRET}\n", "utf-8")
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", "../notes.yaml"), "utf-8")
    result = run_cli("grade", "answers", "--csv", "book.csv", "--json", "r.json")
    assert result.exit_code == 1
    assert "this answer names is not a valid problem set, so nothing was marked; attn-tutor validate notes.yaml" in flat(result.stderr)
    assert SECRET not in everything(result, classroom / "book.csv", classroom / "r.json")


def test_a_named_set_that_does_not_exist_says_so(run_cli, classroom):
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", "ch99"), "utf-8")
    result = run_cli("grade", "answers")
    assert result.exit_code == 1
    assert "the problem set 'ch99' this answer names does not exist (packaged sets: ch13, ch14)" in flat(result.stderr)


def test_a_csv_without_a_problem_set_column_needs_the_option(run_cli, classroom):
    shutil.copy(FIXTURES / "class.csv", classroom / "answers" / "form.csv")
    result = run_cli("grade", "answers/form.csv")
    assert result.exit_code == 2
    assert "has no problem_set column; say which set marks it with --problems SET" in flat(result.stderr)
    assert run_cli("grade", "answers/form.csv", "--problems", "set.yaml").exit_code == 0
