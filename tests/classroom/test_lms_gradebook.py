"""`grade --roster R --csv-layout canvas|moodle --csv OUT`: the grade column in the LMS's import layout.

Each output is read back with the csv module the way the LMS's importer reads it:
Canvas's looks for ``Student`` and ``ID`` first and ``Section`` closing the student
columns, then ``Name (id)`` assignment columns and a ``Points Possible`` row;
Moodle's needs a column of a user field for every row (it stops the whole import
at a user it cannot find) and a grade column.
"""

from __future__ import annotations

import csv
import io
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from helpers.grading import grade
from helpers.output import said
from helpers.paths import TESTS
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.classroom import lms_gradebook as lms_csv
from attn_tutor.classroom import roster

FIXTURES = TESTS / "fixtures" / "grade"
CLASS = FIXTURES / "class"

CANVAS = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Attention by hand (4242),Quiz 1 (4243),Current Score\n"
    "    Points Possible,,,,,10.00,5.00,(read only)\n"
    '"김, 민지",101,20230001,minji.kim@uni.ac.kr,AI-01,,,\n'
    '"박, 서준",102,20230002,seojun.park@uni.ac.kr,AI-01,,,\n'
    '"이, 하은",103,20230003,haeun.lee@uni.ac.kr,AI-02,,,\n'
    '"Absent, Alex",104,20230004,alex@uni.ac.kr,AI-02,,,\n'
)
MOODLE = (
    '"First name","Last name","ID number","Email address","Assignment: Attention by hand (Real)"\n'
    "민지,김,20230001,minji.kim@uni.ac.kr,\n"
    "서준,박,20230002,seojun.park@uni.ac.kr,\n"
    "하은,이,20230003,haeun.lee@uni.ac.kr,\n"
    "Alex,Absent,20230004,alex@uni.ac.kr,\n"
)
THREE = ("01-correct.yaml", "02-not-scaled.yaml", "03-divided-by-d.yaml")  # 김민지 8/8, 박서준 3/8, 이하은 3/8


def read_back(data: bytes) -> list[list[str]]:
    assert data.startswith("\ufeff".encode())  # Excel shows Korean; both importers skip the mark
    assert b"\r\n" in data
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def canvas_header_ok(header: list[str]) -> bool:
    """Canvas's GradebookImporter#header? for a header with SIS columns."""
    return (
        len(header) > 3
        and "Student" in header[0]
        and "ID" in header[1]
        and "SIS User ID" in header[2]
        and "SIS Login ID" in header[3]
        and "Section" in header[4]
    )


@pytest.fixture
def three(tmp_path, monkeypatch) -> Path:
    """Three students' files beside a copy of their problem set, graded from that directory
    (a problem_set path is only followed under the directory grade runs in)."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "class"
    folder.mkdir()
    for name in THREE:
        shutil.copy(CLASS / name, folder / name)
    shutil.copy(FIXTURES / "set.yaml", tmp_path / "set.yaml")
    return folder


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def canvas_grade(run_cli, three: Path, tmp_path: Path, *args: str, roster: str = CANVAS):
    """``grade THREE --roster r.csv --csv-layout canvas --csv canvas.csv ARGS``, ``roster`` the
    text of r.csv: the result and the path of the gradebook."""
    out = tmp_path / "canvas.csv"
    result = run_cli("grade", str(three), "--roster", str(write(tmp_path, "r.csv", roster)), "--csv-layout", "canvas", "--csv", str(out), *args)
    return result, out


def test_canvas_layout_fills_the_rosters_assignment_scaled_to_its_points(run_cli, three, tmp_path):
    result, out = canvas_grade(run_cli, three, tmp_path, "--assignment", "Attention by hand")
    assert result.exit_code == 0, result.output
    rows = read_back(out.read_bytes())
    assert canvas_header_ok(rows[0])
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Attention by hand (4242)"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]
    assert rows[2:] == [
        ["김, 민지", "101", "20230001", "minji.kim@uni.ac.kr", "AI-01", "10"],
        ["박, 서준", "102", "20230002", "seojun.park@uni.ac.kr", "AI-01", "3.75"],  # 3 of 8 as 10 points
        ["이, 하은", "103", "20230003", "haeun.lee@uni.ac.kr", "AI-02", "3.75"],
    ]
    assert "Absent, Alex" in said(result)  # listed as without an answer file, not written
    assert "Grades → Import" in said(result)
    assert "name" in said(result)  # how each matched


def test_canvas_out_of_overrides_and_a_new_assignment_gets_its_points(run_cli, three, tmp_path):
    result, out = canvas_grade(run_cli, three, tmp_path, "--assignment", "손계산 시험", "--out-of", "100")
    assert result.exit_code == 0, result.output
    rows = read_back(out.read_bytes())
    assert rows[0][-1] == "손계산 시험"  # not in the roster: Canvas offers to create it
    assert rows[1][-1] == "100"
    assert [row[-1] for row in rows[2:]] == ["100", "37.5", "37.5"]


def test_out_of_against_the_rosters_points_possible_is_pointed_out(run_cli, three, tmp_path):
    result, out = canvas_grade(run_cli, three, tmp_path, "--assignment", "Attention by hand", "--out-of", "20")
    assert result.exit_code == 0, result.output
    assert "gives 'Attention by hand (4242)' 10 points possible; the file says 20" in said(result)
    assert [row[-1] for row in read_back(out.read_bytes())[1:]] == ["20", "20", "7.5", "7.5"]


def test_moodle_layout_identifies_users_by_email(run_cli, three, tmp_path):
    out = tmp_path / "moodle.csv"
    result = run_cli(
        "grade", str(three), "--roster", str(write(tmp_path, "m.csv", MOODLE)), "--csv-layout", "moodle",
        "--csv", str(out), "--lang", "ko",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = read_back(out.read_bytes())
    assert rows[0] == ["First name", "Last name", "ID number", "Email address", "Assignment: Attention by hand (Real)"]
    assert rows[1:] == [
        ["민지", "김", "20230001", "minji.kim@uni.ac.kr", "8"],
        ["서준", "박", "20230002", "seojun.park@uni.ac.kr", "3"],
        ["하은", "이", "20230003", "haeun.lee@uni.ac.kr", "3"],
    ]
    identifier = rows[0].index("Email address")
    assert all(row[identifier] for row in rows[1:])  # Moodle would stop the import at an empty one
    assert "'Email address'" in said(result) and "Alex" in said(result)


def test_moodle_falls_back_to_the_id_number_when_an_email_is_missing():
    text = MOODLE.replace("seojun.park@uni.ac.kr", "")
    book = grade([CLASS / name for name in THREE])
    people = roster.read_roster_text(text, "m.csv")
    students = [roster.Graded.of(row) for row in book.rows]
    matching = roster.match([s.student for s in students], people)
    made = lms_csv.moodle_csv(students, matching, people, assignment="x")
    assert made.identifier == "ID number"
    assert made.written == 3


def test_an_unmatched_student_is_listed_not_written_and_the_exit_status_is_1(run_cli, three, tmp_path):
    shutil.copy(CLASS / "04-no-exp.yaml", three / "04-no-exp.yaml")  # 최도윤: not in the roster
    result, out = canvas_grade(run_cli, three, tmp_path, "--assignment", "Attention by hand")
    assert result.exit_code == 1
    assert "04-no-exp.yaml: '최도윤' is not in the roster" in said(result)
    assert "(not written to the LMS file)" in said(result)
    assert [row[0] for row in read_back(out.read_bytes())[2:]] == ["김, 민지", "박, 서준", "이, 하은"]


def test_an_ambiguous_name_is_not_guessed(run_cli, three, tmp_path):
    text = CANVAS + '"이, 하은",105,20230005,haeun2@uni.ac.kr,AI-03,,,\n'
    result, out = canvas_grade(run_cli, three, tmp_path, "--assignment", "Attention by hand", roster=text)
    assert result.exit_code == 1
    assert "fits several roster students" in said(result) and "r.csv:5" in said(result) and "r.csv:7" in said(result)
    assert "이, 하은" not in [row[0] for row in read_back(out.read_bytes())]


def test_the_only_assignment_of_a_roster_is_the_default(run_cli, three, tmp_path):
    text = "\n".join(line.rsplit(",", 2)[0] for line in CANVAS.splitlines()) + "\n"  # drop Quiz 1 and the total
    result, out = canvas_grade(run_cli, three, tmp_path, roster=text)
    assert result.exit_code == 0, result.output
    assert read_back(out.read_bytes())[0][-1] == "Attention by hand (4242)"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--csv-layout", "canvas", "--csv", "o.csv"], "--csv-layout canvas needs --roster"),
        (["--roster", "m.csv", "--csv-layout", "canvas", "--csv", "o.csv", "--assignment", "x"], "exported from Canvas"),
        (["--roster", "r.csv", "--csv-layout", "canvas", "--csv", "o.csv"], "--assignment NAME"),
        (["--roster", "r.csv", "--csv-layout", "moodle"], "needs --csv FILE"),
        (["--roster", "r.csv", "--assignment", "x"], "go with --csv-layout"),
    ],
)
def test_options_that_do_not_fit_are_usage_errors_before_any_work(run_cli, three, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "r.csv", CANVAS)
    write(tmp_path, "m.csv", MOODLE)
    result = run_cli("grade", str(three), *args)
    assert result.exit_code == 2, result.output
    assert message in said(result)
    assert not (tmp_path / "o.csv").exists()


def test_a_roster_that_is_not_there_is_bad_input(run_cli, three, tmp_path):
    result = run_cli("grade", str(three), "--roster", str(tmp_path / "nowhere.csv"))
    assert result.exit_code == 1 and "nowhere.csv does not exist" in said(result)


def test_a_roster_that_is_no_class_list_is_bad_input(run_cli, three, tmp_path):
    result = run_cli("grade", str(three), "--roster", str(write(tmp_path, "r.csv", "Timestamp,Score\n1,2\n")))
    assert result.exit_code == 1
    assert "r.csv:1: the roster has no name, ID or email column" in said(result)


def test_names_that_look_like_formulas_are_neutralised_but_identifiers_are_kept():
    text = "Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n\"=cmd|' /C calc'!A0\",101,-5,x@y,=S,\n"
    people = roster.read_roster_text(text, "r.csv")
    book = grade([CLASS / "01-correct.yaml"])
    matching = roster.match(["101"], people)
    students = [roster.Graded.of(row) for row in book.rows]
    rows = read_back(lms_csv.canvas_csv(students, matching, people, assignment="A").data)
    assert rows[-1][:5] == ["'=cmd|' /C calc'!A0", "101", "-5", "x@y", "'=S"]


def test_the_same_class_and_roster_give_the_same_bytes(run_cli, three, tmp_path):
    r = write(tmp_path, "r.csv", CANVAS)
    outs = []
    for n in (1, 2):
        out = tmp_path / f"c{n}.csv"
        run_cli("grade", str(three), "--roster", str(r), "--csv-layout", "canvas", "--csv", str(out), "--assignment", "Attention by hand")
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_without_an_lms_file_the_roster_only_checks_and_says_how(run_cli, three, tmp_path):
    shutil.copy(CLASS / "04-no-exp.yaml", three / "04-no-exp.yaml")
    result = run_cli("grade", str(three), "--roster", str(write(tmp_path, "r.csv", CANVAS)))
    assert result.exit_code == 1  # an unmatched student is a problem to fix before importing
    assert "'최도윤' is not in the roster" in said(result) and "LMS file" not in said(result)
    assert "Roster matching (3 of 4 answer files)" in said(result)
    assert "in the roster but no answer file: Absent, Alex (6)" in said(result)


def test_any_number_of_jobs_gives_the_same_classroom_files(run_cli, tmp_path):
    made = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        out.mkdir()
        result = run_cli(
            "grade", str(CLASS), "--jobs", jobs, "--roster", str(write(tmp_path, "r.csv", CANVAS)), "--csv-layout", "canvas",
            "--csv", str(out / "c.csv"), "--assignment", "Attention by hand", "--feedback", str(out / "sheets"),
            "--class-report", str(out / "report.html"),
        )  # fmt: skip
        assert result.exit_code == 1  # ten of the class are not in the roster
        files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        made.append((files, result.stderr.replace(f"j{jobs}", "jN")))
    assert made[0] == made[1]
    assert len(made[0][0]) == 2 + 13


@given(st.one_of(st.text(max_size=12), st.from_regex(r"\A[-+]?[0-9.,eE]{1,10}\Z"), st.decimals(allow_nan=True).map(str)))
def test_points_possible_is_a_number_of_points_or_a_sentence_never_a_traceback(text):
    from attn_tutor.core.errors import AttnTutorError, Location

    try:
        points = lms_csv.parse_points(text, "A (1)", Location("r.csv", 2))
    except AttnTutorError as error:
        assert error.problems[0].key in ("lms.points_not_a_number", "lms.points_ambiguous")
        assert str(error).startswith("r.csv:2: ")
        return
    if points is None:
        assert not text.strip()
        return
    assert points.is_finite() and 0 < points <= 1_000_000
    digits = text.strip().replace(",", "").replace(".", "")
    assert digits.isdigit() and digits.isascii()  # only digits and separators make a number
    if "," not in text:
        assert points == Decimal(text.strip())  # a plain decimal is what it says
