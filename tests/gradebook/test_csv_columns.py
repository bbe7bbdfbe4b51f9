"""A forms CSV's columns: the variant found under its Korean headings or --variant-column; every
other column used or named once as unused; a header problem said once, not once per row; only a
real gradebook skipped as one.

Through the command line, each case a table row.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import SET

from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve import engine
from attn_tutor.variants.generate import regenerate

VARIANT = 42005


def _right(seed: int | None) -> dict[str, str]:
    """Every asked cell of the grade set, right, for the variant ``seed`` (None: the set itself)."""
    problem_set = load_problem_set(str(SET))
    if seed is not None:
        problem_set = regenerate(problem_set, seed)
    cells = {}
    for problem in problem_set.problems:
        solution = engine.solve(problem)
        for token in problem.asked_rows:
            for stage in problem.asked_stages:
                values = solution.stage_row(stage, problem.row_index(token))
                cells[f"{problem.id}/{token}/{stage}"] = " ".join(repr(float(v)) for v in values)
    return cells


def _form(tmp_path: Path, heading: str, extra: dict[str, str] | None = None) -> Path:
    right = _right(VARIANT)
    extra = extra or {}
    header = ["이름", heading, *extra, *right]
    rows = [["김민지", str(VARIANT), *extra.values(), *right.values()], ["박서준", str(VARIANT), *extra.values(), *right.values()]]
    text = io.StringIO()
    csv.writer(text).writerows([header, *rows])
    path = tmp_path / "form.csv"
    path.write_text(text.getvalue(), "utf-8")
    return path


def _book(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8-sig"), newline="")))


# (the variant column's heading, --variant-column if any)
HEADINGS = [
    ("variant", None),
    ("Variant", None),
    ("변형", None),
    ("변형 번호", None),
    ("변형번호", None),
    (" 변형  번호 ", None),
    ("Variant number", None),
    ("VARIANT NO.", None),  # the heading's words, whatever separates them
    ("variant_number", None),
    ("Variant #", None),
    ("변형(번호)", None),
    ("변형 No.", None),
    ("변형 번호 (variant number)", None),
    ("[변형 번호]", None),
    ("변형 코드", None),
    ("내 문제 번호", "내 문제 번호"),
    ("seed", "SEED"),
]


# headings that are not the variant's: named as unused, the student marked on the set itself
NOT_VARIANT = ["invariant", "Variant of the week's quiz", "번호", "seed"]


@pytest.mark.parametrize("heading", NOT_VARIANT)
def test_a_heading_that_only_looks_like_a_variant_is_named_as_unused(run_cli, tmp_path, heading):
    form = _form(tmp_path, heading)
    result = run_cli("grade", str(form), "--problems", str(SET))
    assert f"not used: '{heading}'" in flat(result.output)


@pytest.mark.parametrize(("heading", "option"), HEADINGS)
def test_the_variant_column_is_found_under_its_natural_headings(run_cli, tmp_path, heading, option):
    form = _form(tmp_path, heading)
    book = tmp_path / "book.csv"
    args = ["grade", str(form), "--problems", str(SET), "--csv", str(book)]
    result = run_cli(*args, *(["--variant-column", option] if option else []))
    assert result.exit_code == 0, result.output
    rows = _book(book)
    assert [(row["student"], row["variant"], row["percent"]) for row in rows] == [("김민지", "42005", "100.0"), ("박서준", "42005", "100.0")]
    assert "not used" not in result.output


def test_a_variant_column_named_but_missing_is_said_with_the_columns(run_cli, tmp_path):
    form = _form(tmp_path, "변형")
    result = run_cli("grade", str(form), "--problems", str(SET), "--variant-column", "버전")
    assert result.exit_code == 1
    assert "there is no column '버전' (named by --variant-column); the columns are: 이름, 변형" in flat(result.output)


# (extra columns of the form, the sentence naming them once)
UNUSED = [
    ({"Timestamp": "2026-11-30 09:00"}, "not used: 'Timestamp'"),
    ({"Timestamp": "t", "이메일 주소": "a@b.kr", "점수": "3"}, "not used: 'Timestamp', '이메일 주소', '점수'"),
    ({"max_score": "8", "percent": "100"}, "not used: 'max_score', 'percent'"),  # a form, not a gradebook
    ({"": "1 6 4"}, "not used: what is in the columns without a heading (column number 3)"),  # no heading, something in it
]


def test_an_empty_column_without_a_heading_is_not_named(run_cli, tmp_path):
    form = _form(tmp_path, "변형 번호", {"": ""})  # a spreadsheet's trailing comma: nothing to say
    result = run_cli("grade", str(form), "--problems", str(SET))
    assert result.exit_code == 0 and "not used" not in result.output


@pytest.mark.parametrize(("extra", "sentence"), UNUSED)
def test_every_unused_column_is_named_once(run_cli, tmp_path, extra, sentence):
    form = _form(tmp_path, "변형 번호", extra)
    book = tmp_path / "book.csv"
    result = run_cli("grade", str(form), "--problems", str(SET), "--csv", str(book), "--lang", "en")
    assert result.exit_code == 0, result.output  # a column a form adds is no student's problem
    assert flat(result.output).count(sentence) == 1
    assert [row["percent"] for row in _book(book)] == ["100.0", "100.0"]
    korean = run_cli("grade", str(form), "--problems", str(SET), "--lang", "ko")
    assert flat(korean.output).count("쓰지 않은 열:") == 1


# (the header's problem, what is said)
HEADER_PROBLEMS = [
    ("bad/column", "column 'bad/column' is not problem/row/stage"),
    ("cat-fish/먹었다/scores", "column 'cat-fish/먹었다/scores' appears more than once; neither is used"),
]


@pytest.mark.parametrize(("column", "sentence"), HEADER_PROBLEMS)
def test_a_header_problem_is_said_once_not_once_per_row(run_cli, tmp_path, column, sentence):
    right = _right(None)
    header = ["student", *right, column]
    rows = [[f"s{i}", *right.values(), ""] for i in range(5)]
    text = io.StringIO()
    csv.writer(text).writerows([header, *rows])
    form = tmp_path / "form.csv"
    form.write_text(text.getvalue(), "utf-8")
    book, reports = tmp_path / "book.csv", tmp_path / "r.json"
    result = run_cli("grade", str(form), "--problems", str(SET), "--csv", str(book), "--json", str(reports), "--feedback", str(tmp_path / "sheets"))
    assert result.exit_code == 1  # the file has a problem, said once
    assert flat(result.output).count(sentence) == 1
    rows = _book(book)
    assert sum(sentence in row["errors"] for row in rows) == 1  # one row of the file's own, line 1
    assert [row["file"] for row in rows if row["errors"]] == [f"{form}:1"]
    students = json.loads(reports.read_text("utf-8"))["students"]
    assert sum(sentence in " ".join(s["errors"]) for s in students) == 1
    sheets = sorted(p.name for p in (tmp_path / "sheets").iterdir())
    assert sheets == [f"s{i}.html" for i in range(5)]  # no sheet for the header's row, none mentions it
    assert not any(sentence in (tmp_path / "sheets" / name).read_text("utf-8") for name in sheets)
    said = flat(result.output)  # the header's row is the file's, no student: the class is the five
    assert "Class (5 students)" in said and "Score distribution (5 students)" in said
    assert "all 5 students marked" in said and "1 file with problems of its own" in said
    assert [row["problem_set"] for row in rows if row["errors"]] == [""]  # marked against no set


# (the language, what the summary says of a class of two with a header problem)
HEADER_COUNTS = [
    ("en", ["Class (2 students)", "all 2 students marked", "1 file with problems of its own, not of a student"]),
    ("ko", ["학급 (학생 2명)", "학생 2명 모두 채점했습니다", "학생이 아닌 파일 자체에 문제가 있는 파일 1개"]),
]


@pytest.mark.parametrize(("lang", "sentences"), HEADER_COUNTS)
def test_a_header_problem_row_is_not_counted_as_a_student(run_cli, tmp_path, monkeypatch, lang, sentences):
    monkeypatch.chdir(tmp_path)
    form = tmp_path / "form.csv"
    form.write_text("student,problem_set,bad/col\r\nkim,set.yaml,1\r\nlee,set.yaml,1\r\n", "utf-8")
    (tmp_path / "set.yaml").write_text(SET.read_text("utf-8"), "utf-8")
    result = run_cli("grade", "form.csv", "--lang", lang)
    assert result.exit_code == 1, result.output
    for sentence in sentences:
        assert sentence in flat(result.output)
    only = tmp_path / "only.csv"  # a header's problem and no student: no "all 0 students marked"
    only.write_text("student,problem_set,bad/col\r\n", "utf-8")
    result = run_cli("grade", "only.csv", "--lang", lang)
    assert result.exit_code == 1 and sentences[2] in flat(result.output)
    assert "all 0" not in result.output and "0명 모두" not in result.output and "Traceback" not in result.output


def test_a_real_gradebook_in_a_folder_is_skipped_and_said(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    form = _form(tmp_path, "변형")
    first = run_cli("grade", str(form), "--problems", str(SET), "--csv", "book.csv")
    assert first.exit_code == 0
    Path("answers").mkdir()
    Path("book.csv").rename("answers/book.csv")
    form.rename("answers/form.csv")
    again = run_cli("grade", "answers", "--problems", str(SET), "--csv", "book2.csv")
    assert again.exit_code == 0, again.output
    assert "not marked: answers/book.csv (a gradebook attn-tutor wrote, not answers)" in flat(again.output)
    assert len(_book(Path("book2.csv"))) == 2


# (a CSV whose header cannot be used, the option if any, what is said): the file's own error, no student
WHOLE_FILE = [
    (b"", (), "form.csv: the file is empty"),
    (b"Timestamp,problem_set\r\nt,../set.yaml\r\n", (), "form.csv:1: the first row must name the columns"),
    ("학번,problem_set\r\n1,set.yaml\r\n".encode(), (), "form.csv:1: the first row must name the columns"),
    (b"student,problem_set\r\nkim,set.yaml\r\n", ("--variant-column", "v"), "there is no column 'v' (named by --variant-column)"),
    (b"\xff\xfes\x00t\x00", (), "form.csv: not UTF-8 text"),
]


@pytest.mark.parametrize(("data", "option", "sentence"), WHOLE_FILE)
def test_a_csv_that_cannot_be_read_is_the_files_error_not_a_student(run_cli, tmp_path, monkeypatch, data, option, sentence):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "set.yaml").write_text(SET.read_text("utf-8"), "utf-8")
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / "lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    (tmp_path / "answers" / "form.csv").write_bytes(data)
    result = run_cli("grade", "answers", "--csv", "book.csv", *option)
    assert result.exit_code == 1, result.output
    said = flat(result.output)
    assert sentence in said and "Class (1 student)" in said and "1 file with problems of its own" in said
    assert "Traceback" not in result.output


@pytest.mark.parametrize("option", ["--variant-column", "--name-column"])
@pytest.mark.parametrize(("lang", "sentence"), [("en", "needs a column's heading"), ("ko", "빈 값을 주었습니다")])
def test_an_empty_column_option_is_a_usage_error(run_cli, tmp_path, option, lang, sentence):
    form = _form(tmp_path, "변형")
    result = run_cli("grade", str(form), "--problems", str(SET), option, " ", "--csv", str(tmp_path / "book.csv"), "--lang", lang)
    assert result.exit_code == 2 and sentence in flat(result.output)
    assert not (tmp_path / "book.csv").exists()


# (the name column's heading, found?): a form's natural headings for the student's name
NAME_HEADINGS = [
    ("학생 이름", True), ("Student Name", True), ("성명(Name)", True), ("Full name", True), ("이름 (Name)", True), ("본인 이름", True),
    ("Student ID", False), ("First name", False), ("학번", False), ("Username", False),
]


@pytest.mark.parametrize(("heading", "found"), NAME_HEADINGS)
def test_the_name_column_is_found_under_its_natural_headings(run_cli, tmp_path, heading, found):
    form = tmp_path / "form.csv"
    right = _right(None)
    text = io.StringIO()
    csv.writer(text).writerows([[heading, *right], ["김민지", *right.values()]])
    form.write_text(text.getvalue(), "utf-8")
    book = tmp_path / "book.csv"
    result = run_cli("grade", str(form), "--problems", str(SET), "--csv", str(book))
    assert result.exit_code == (0 if found else 1), result.output
    if found:
        assert [(row["student"], row["percent"]) for row in _book(book)] == [("김민지", "100.0")]
    else:
        assert "the first row must name the columns" in flat(result.output)
