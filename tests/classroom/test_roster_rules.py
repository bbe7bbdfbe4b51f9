"""`grade --roster`: the rules of issue 18, each table-driven through the CLI.

A grade lands on its student or nowhere (conflicts, --match); nothing is dropped
without a sentence (absent students in both layouts, Canvas's test student, Moodle's
totals, a roster nobody is in); the roster goes through the safe reader (file kinds,
the size cap, every encoding and delimiter Excel writes, with a Korean roster); and
every cell of the LMS file is as the LMS shows it (formulas neutralised, numbers
strict, no duplicate identifier, no row without a Canvas ID).

Each case writes a small class from the fixture files (01: 8 of 8, 02: 3 of 8) under
the ``student`` given, grades it with a roster and reads the LMS file back.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import shutil
from pathlib import Path

import pytest
from helpers.output import said
from helpers.paths import TESTS

FIXTURES = TESTS / "fixtures" / "grade"
RIGHT, SLIP = FIXTURES / "class" / "01-correct.yaml", FIXTURES / "class" / "02-not-scaled.yaml"

CANVAS = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Attention by hand (4242),Current Score\n"
    "    Points Possible,,,,,10.00,(read only)\n"
    '"김, 민지",101,20231234,minji@uni.ac.kr,AI-01,,\n'
    '"박, 서준",102,20231235,seojun@uni.ac.kr,AI-01,,\n'
    '"이, 하은",103,20231236,haeun@uni.ac.kr,AI-02,,\n'
    '"이, 하은",104,20231237,haeun2@uni.ac.kr,AI-02,,\n'
)
MOODLE = (
    "First name,Last name,ID number,Email address,Quiz: Attention by hand (Real),Course total (Real),"
    "Last downloaded from this course\n"
    "민지,김,20231234,minji@uni.ac.kr,,,1733011200\n"
    "서준,박,20231235,seojun@uni.ac.kr,,,1733011200\n"
    "하은,이,20231236,haeun@uni.ac.kr,,,1733011200\n"
)


def make_class(tmp_path: Path, students: list[tuple[str, Path]]) -> Path:
    """One answer file per (student, fixture), the student's line replaced; graded from tmp_path."""
    folder = tmp_path / "class"
    folder.mkdir(exist_ok=True)
    shutil.copy(FIXTURES / "set.yaml", tmp_path / "set.yaml")
    for number, (student, source) in enumerate(students, start=1):
        text = source.read_text(encoding="utf-8").split("\n", 1)[1]
        quoted = student.replace("\\", "\\\\").replace('"', '\\"')
        (folder / f"{number:02d}.yaml").write_text(f'student: "{quoted}"\n{text}', encoding="utf-8")
    return folder


def grade(run_cli, tmp_path, monkeypatch, students, roster: str | bytes, *args, layout="canvas", name="r.csv"):
    monkeypatch.chdir(tmp_path)
    folder = make_class(tmp_path, students)
    path = tmp_path / name
    path.write_bytes(roster if isinstance(roster, bytes) else roster.encode("utf-8"))
    out = tmp_path / "lms.csv"
    layout_args = ["--csv-layout", layout, "--csv", out.name] if layout else []
    result = run_cli("grade", folder.name, "--roster", name, *layout_args, *args)  # as typed in tmp_path
    rows = list(csv.reader(io.StringIO(out.read_bytes().decode("utf-8-sig"), newline=""))) if out.exists() else None
    return result, rows


def grades(rows) -> dict[str, str]:
    """Student cell -> grade, the Points Possible row left out ({} when no file was written)."""
    return {} if rows is None else {row[0]: row[-1] for row in rows[1:] if row[0] != "Points Possible"}


# --- 1. conflicts: a grade lands on its student or nowhere -----------------------------------

# (students as the answer files write them, --match file or None) -> (exit, grades written, words said)
CONFLICTS = [
    pytest.param(
        [("김민지 20231235", RIGHT), ("박서준", SLIP)], None, 1, {},
        ["'김민지 20231235' names different roster students", "박, 서준 (r.csv:4) by SIS User ID in the name",
         "김, 민지 (r.csv:3) by name", "--match FILE", "'박서준' is roster student 박, 서준 (r.csv:4), whom"],
        id="her name, his 학번: neither gets a grade",
    ),
    pytest.param(
        [("김민지 20231235", RIGHT)], None, 1, {}, ["names different roster students"],
        id="a conflict with nobody else in the class",
    ),
    pytest.param(
        [("김민지 20231234", RIGHT), ("박서준", SLIP)], None, 0, {"김, 민지": "10", "박, 서준": "3.75"}, [],
        id="name and 학번 agree",
    ),
    pytest.param(
        [("이하은 20231237", RIGHT)], None, 0, {"이, 하은": "10"}, [],
        id="the 학번 picks one of two of that name",
    ),
    pytest.param(
        [("이하은", RIGHT)], None, 1, {}, ["fits several roster students", "r.csv:5", "r.csv:6", "--match file"],
        id="one name, two roster students: ambiguous",
    ),
    pytest.param(
        [("20231234 seojun@uni.ac.kr", RIGHT)], None, 1, {}, ["names different roster students"],
        id="a 학번 and an e-mail of two students",
    ),
    pytest.param(
        [("박서준 minji@uni.ac.kr", RIGHT)], None, 1, {}, ["김, 민지 (r.csv:3) by SIS Login ID in the name", "박, 서준 (r.csv:4) by name"],
        id="an e-mail in the name that is someone else's",
    ),
    pytest.param(
        [("101", RIGHT), ("20231234", SLIP)], None, 1, {}, ["is the same roster student as"],
        id="Canvas ID and 학번 of one student in two files: a duplicate",
    ),
    pytest.param(
        [("김민지 20231235", RIGHT), ("박서준", SLIP)], "student,id\n김민지 20231235,20231234\n", 0,
        {"김, 민지": "10", "박, 서준": "3.75"}, [],
        id="--match settles it",
    ),
    pytest.param(
        [("김민지 20231235", RIGHT), ("박서준", SLIP)], "student,id\n김민지 20231235,minji@uni.ac.kr\n", 0,
        {"김, 민지": "10", "박, 서준": "3.75"}, [],
        id="--match by e-mail",
    ),
    pytest.param(
        [("김민지 20231235", RIGHT), ("Mystery", SLIP)], "student,id\n김민지 20231235,20231234\nmystery,20231236\n", 0,
        {"김, 민지": "10", "이, 하은": "3.75"}, [],
        id="--match places a student the roster does not name, compared folded",
    ),
    pytest.param(
        [("이하은", RIGHT)], "'이하은': '20231236'\n", 0, {"이, 하은": "10"}, [],
        id="--match as YAML settles an ambiguous name",
    ),
    pytest.param(
        [("김민지", RIGHT)], "student,id\n김민지,20231234\n최도윤,20231235\n", 1, {"김, 민지": "10"},
        ["m.csv:3: no answer file's student is '최도윤'"],
        id="a --match line no answer file uses is said",
    ),
]


@pytest.mark.parametrize("students, match, status, written, words", CONFLICTS)
def test_conflicts_give_no_grade_until_resolved(run_cli, tmp_path, monkeypatch, students, match, status, written, words):
    args = []
    if match is not None:
        name = "m.yaml" if match.startswith("'") else "m.csv"
        (tmp_path / name).write_text(match, encoding="utf-8")
        args = ["--match", name]
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, CANVAS, "--assignment", "Attention by hand", *args)
    assert result.exit_code == status, result.output
    assert grades(rows) == written
    for word in words:
        assert word in said(result)


def test_a_conflict_is_said_in_korean(run_cli, tmp_path, monkeypatch):
    students = [("김민지 20231235", RIGHT), ("박서준", SLIP)]
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, CANVAS, "--assignment", "Attention by hand", "--lang", "ko")
    assert result.exit_code == 1
    assert "가리키는 명단의 학생이 서로 다릅니다" in said(result) and "충돌" in said(result)
    assert grades(rows) == {}


# --match file -> (where, words): every problem with file:line:column, before any marking
MATCH_ERRORS = [
    ("m.csv", "student,id\n김민지 20231235,99999999\n", "m.csv:2:14", "'99999999' is no ID or e-mail in the roster"),
    ("m.csv", "student,id\n김민지 20231235,\n", "m.csv:2:14", "no roster ID for '김민지 20231235'"),
    ("m.csv", "student,id\n,20231234\n", "m.csv:2:1", "the student is empty"),
    ("m.csv", "student;id\nx;20231234\nX;20231235\n", "m.csv:3:1", "'X' is mapped already at m.csv:2"),
    ("m.csv", "name,who\nx,y\n", "m.csv:1:1", "needs the columns 'student'"),
    ("m.csv", "", "m.csv", "the --match file is empty"),
    ("m.csv", 'student,id\n"x,1\n', "m.csv:", "the --match file is not valid CSV"),
    ("m.yaml", "- a\n- b\n", "m.yaml:1:1", "must map each student to a roster ID"),
    ("m.yaml", "a: [1, 2]\n", "m.yaml:1:4", "single values here"),
    ("m.yaml", "a: : b\n", "m.yaml:1", "not valid YAML"),
    ("m.csv", "student,id\n김".encode() + b"\xb1,1\n", "m.csv:2", "not text in UTF-8, UTF-16 or CP949"),
]


@pytest.mark.parametrize("name, text, where, words", MATCH_ERRORS, ids=[c[3] for c in MATCH_ERRORS])
def test_a_bad_match_file_is_refused_with_its_place(run_cli, tmp_path, monkeypatch, name, text, where, words):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], CANVAS, "--assignment", "Attention by hand", "--match", name)
    assert result.exit_code == 1, result.output
    assert f"{where}" in said(result) and words in said(result)
    assert rows is None  # nothing written
    assert "Traceback" not in result.output


def test_an_id_two_roster_students_share_cannot_be_a_match(run_cli, tmp_path, monkeypatch):
    roster = CANVAS + '"최, 도윤",105,20231234,doyun@uni.ac.kr,AI-02,,\n'
    (tmp_path / "m.csv").write_text("student,id\nx,20231234\n", encoding="utf-8")
    result, _ = grade(run_cli, tmp_path, monkeypatch, [("x", RIGHT)], roster, "--assignment", "A", "--match", "m.csv")
    assert result.exit_code == 1
    assert "m.csv:2:3: '20231234' is the ID of several roster students (r.csv lines 3, 7)" in said(result)


def test_match_needs_a_roster_and_a_directory_is_refused(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = make_class(tmp_path, [("김민지", RIGHT)])
    result = run_cli("grade", str(folder), "--match", "m.csv")
    assert result.exit_code == 2 and "--match goes with --roster" in said(result)
    (tmp_path / "dir").mkdir()
    result, _ = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], CANVAS, "--assignment", "A", "--match", "dir")
    assert result.exit_code == 1 and "is a directory; give a --match file" in said(result)


# --- 2. nothing silently dropped -------------------------------------------------------------

CANVAS_WITH_TEST = CANVAS + '"Student, Test",999,,,AI-01,,\n'
ABSENT = [
    pytest.param("canvas", CANVAS_WITH_TEST, ["in the roster but no answer file: 이, 하은 (5), 이, 하은 (6)"], id="canvas"),
    pytest.param("moodle", MOODLE, ["in the roster but no answer file: 이하은 (4)"], id="moodle"),
    pytest.param(None, CANVAS_WITH_TEST, ["in the roster but no answer file: 이, 하은 (5), 이, 하은 (6)"], id="no layout"),
]


@pytest.mark.parametrize("layout, roster, words", ABSENT)
def test_every_roster_student_without_answers_is_listed_in_every_layout(run_cli, tmp_path, monkeypatch, layout, roster, words):
    students = [("김민지", RIGHT), ("박서준", SLIP)]
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, roster, layout=layout)
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in said(result)
    if "Student, Test" in roster:
        assert said(result).count("Canvas's test student ('Student, Test', r.csv line 7)") == 1
        assert "Student, Test (7)" not in said(result)


@pytest.mark.parametrize(
    "totals",
    [
        "Course total (Real)",
        "Homework total (Real)",
        "Last downloaded from this course",
        "Quiz: Attention by hand (Feedback)",
        "Quiz: Attention by hand (Percentage)",
        "강좌 총점 (실수)",
        "City/town",
    ],
)
def test_moodle_summary_columns_are_never_offered_and_the_default_is_said(run_cli, tmp_path, monkeypatch, totals):
    roster = f"First name,Last name,Email address,Quiz: Attention by hand (Real),{totals}\n민지,김,minji@uni.ac.kr,,\n"
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], roster, layout="moodle")
    assert result.exit_code == 0, result.output
    assert rows[0][-1] == "Quiz: Attention by hand (Real)"
    assert "grade column: 'Quiz: Attention by hand (Real)', the roster's only grade column" in said(result)


def test_moodle_with_several_grade_items_names_them(run_cli, tmp_path, monkeypatch):
    roster = "First name,Last name,Email address,Quiz: A (Real),Quiz: B (Real),Course total (Real)\n민지,김,m@u.kr,,,\n"
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], roster, layout="moodle")
    assert result.exit_code == 2 and "Quiz: A (Real), Quiz: B (Real))" in said(result)
    assert rows is None


NOBODY = [
    pytest.param("canvas", "Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n\"Kim, Minji\",1,s1,kim,X,\n", id="canvas"),
    pytest.param("moodle", "First name,Last name,Email address\nMinji,Kim,kim@u.kr\n", id="moodle"),
]


@pytest.mark.parametrize("layout, roster", NOBODY)
def test_a_roster_that_matches_nobody_writes_no_lms_file(run_cli, tmp_path, monkeypatch, layout, roster):
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT), ("박서준", SLIP)], roster, "--assignment", "A", layout=layout)
    assert result.exit_code == 1
    assert rows is None
    assert "none of the 2 answer files' students is in the roster r.csv, so no LMS file was written" in said(result)
    assert "학번 (ID number) or e-mail in 'student'" in said(result)
    assert "Grades → Import" not in said(result)


# --- 3. the roster through the safe reader ---------------------------------------------------

KOREAN = [
    ["First name", "Last name", "ID number", "Email address", "Quiz: 손계산 (Real)"],
    ["민지", "김", "20231234", "minji@uni.ac.kr", ""],
    ["서준", "박", "20231235", "seojun@uni.ac.kr", ""],
    ["하은", "이", "20231236", "haeun@uni.ac.kr", ""],
]


def encoded(delimiter: str, encoding: str, bom: bytes = b"") -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(KOREAN)
    return bom + out.getvalue().encode(encoding)


ENCODINGS = [
    ("utf-8", b""),
    ("utf-8", codecs.BOM_UTF8),
    ("cp949", b""),
    ("euc-kr", b""),
    ("utf-16-le", codecs.BOM_UTF16_LE),
    ("utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-16-le", b""),
]


@pytest.mark.parametrize("delimiter", [",", "\t", ";"], ids=["comma", "tab", "semicolon"])
@pytest.mark.parametrize("encoding, bom", ENCODINGS, ids=[f"{e}{'+bom' if b else ''}" for e, b in ENCODINGS])
def test_every_encoding_and_delimiter_excel_writes_reads_the_korean_roster(run_cli, tmp_path, monkeypatch, encoding, bom, delimiter):
    data = encoded(delimiter, encoding, bom)
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT), ("박서준", SLIP)], data, layout="moodle")
    assert result.exit_code == 0, result.output
    assert rows[0][-1] == "Quiz: 손계산 (Real)"
    assert rows[1:] == [["민지", "김", "20231234", "minji@uni.ac.kr", "8"], ["서준", "박", "20231235", "seojun@uni.ac.kr", "3"]]
    assert "이하은 (4)" in said(result)


def test_text_in_no_encoding_excel_writes_is_a_sentence_with_its_line(run_cli, tmp_path, monkeypatch):
    data = "First name,Last name\n민지,김\n".encode() + b"\xff\xfe\xff\n"
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], data, layout=None)
    assert result.exit_code == 1
    assert "r.csv:3: the roster is not text in UTF-8, UTF-16 or CP949 (EUC-KR) (byte 32 cannot be read)" in said(result)


@pytest.mark.parametrize(
    "kind, words",
    [
        ("fifo", "is a FIFO (a named pipe), not a regular file"),
        ("device", "is a device, not a regular file"),
        ("directory", "is a directory; give the class list file your LMS exported"),
        ("too large", "the roster is larger than 1,000 bytes"),
    ],
)
def test_a_roster_that_is_no_regular_file_or_too_large_is_refused_before_any_work(run_cli, tmp_path, monkeypatch, kind, words):
    monkeypatch.chdir(tmp_path)
    folder = make_class(tmp_path, [("김민지", RIGHT)])
    path = tmp_path / "r.csv"
    if kind == "fifo":
        os.mkfifo(path)  # opened without a writer, a plain read would wait forever
    elif kind == "device":
        path = Path("/dev/zero")  # read whole, it would eat the memory
    elif kind == "directory":
        path.mkdir()
    else:
        from attn_tutor.classroom import roster_file

        monkeypatch.setattr(roster_file, "ROSTER_BYTES_MAX", 1000)
        path.write_text(CANVAS + '"Kim, Minji",200,x,y,A,,\n' * 40, encoding="utf-8")
    out = tmp_path / "lms.csv"
    result = run_cli("grade", str(folder), "--roster", str(path), "--csv-layout", "canvas", "--csv", str(out), "--assignment", "A")
    assert result.exit_code == 1, result.output
    assert words in said(result)
    assert not out.exists()


# --- 4. LMS cells as the LMS shows them -------------------------------------------------------


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"], ids=["equals", "plus", "minus", "at", "tab", "cr"])
def test_every_text_cell_that_starts_like_a_formula_is_neutralised(run_cli, tmp_path, monkeypatch, start):
    roster = (
        "Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n"
        f'"{start}HYPERLINK(1)",101,"{start}x","{start}y","{start}S",\n'
        '"박, 서준",102,-5,-7.5,AI,\n'
    )
    result, rows = grade(
        run_cli, tmp_path, monkeypatch, [("101", RIGHT), ("박서준", SLIP)], roster, "--assignment", f"{start}cmd|' /C calc'!A0"
    )
    assert result.exit_code == 0, result.output
    assert rows[0][-1] == f"'{start}cmd|' /C calc'!A0"  # the grade column's header from --assignment
    quote = "'" + start if start in "=+-@" else ""  # a roster cell's tab or CR is white space, stripped as read
    assert rows[2][:5] == [f"{quote}HYPERLINK(1)", "101", f"{quote}x", f"{quote}y", f"{quote}S"]
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row if cell not in ("-5", "-7.5"))
    assert rows[3][2:4] == ["-5", "-7.5"]  # real negative numbers stay numbers


# the roster's Points Possible for the column -> (exit, the points written, words)
POINTS = [
    ("10.00", 0, "10", None),
    ("12.5", 0, "12.5", None),
    ("1,000.00", 0, "1000", None),
    ("1,000,000", 0, "1000000", None),
    ("12,5", 0, "12.5", None),
    ("1.000,5", 0, "1000.5", None),
    ("1,000", 1, None, "is '1,000', which reads as 1000 or as 1"),
    ("1e400", 1, None, "is '1e400', not a number of points"),
    ("nan", 1, None, "is 'nan', not a number of points"),
    ("inf", 1, None, "is 'inf', not a number of points"),
    ("-5", 1, None, "is '-5', not a number of points"),
    ("0", 1, None, "is '0', not a number of points"),
    ("ten", 1, None, "is 'ten', not a number of points"),
    ("2000000", 1, None, "is '2000000', not a number of points"),
]


@pytest.mark.parametrize("points, status, written, words", POINTS, ids=[c[0] for c in POINTS])
def test_points_possible_is_read_strictly(run_cli, tmp_path, monkeypatch, points, status, written, words):
    roster = f'Student,ID,SIS User ID,SIS Login ID,Section,A (1)\nPoints Possible,,,,,"{points}"\n"김, 민지",101,1,k,S,\n'
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], roster, "--assignment", "A")
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    if written is None:
        assert rows is None and f"r.csv:2: the roster's Points Possible for 'A (1)' {words}" in said(result)
    else:
        assert rows[1] == ["Points Possible", "", "", "", "", written] and rows[2][-1] == written


def test_out_of_does_not_need_the_rosters_points(run_cli, tmp_path, monkeypatch):
    roster = 'Student,ID,SIS User ID,SIS Login ID,Section,A (1)\nPoints Possible,,,,,1e400\n"김, 민지",101,1,k,S,\n'
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], roster, "--assignment", "A", "--out-of", "20")
    assert result.exit_code == 0, result.output
    assert rows[1][-1] == "20"


def test_a_student_named_points_possible_does_not_take_over_that_row(run_cli, tmp_path, monkeypatch):
    roster = (
        "Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n"
        "Points Possible,,,,,10\n"
        '"Points Possible",101,20231234,pp,S,\n'
        '"박, 서준",102,20231235,sj,S,\n'
    )
    students = [("Points Possible 20231234", RIGHT), ("박서준", SLIP)]
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, roster, "--assignment", "A")
    assert result.exit_code == 0, result.output
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]  # the roster's points, not a student's
    assert rows[2] == ["", "101", "20231234", "pp", "S", "10"]  # Canvas finds them by ID; its importer takes "Points Possible" rows for points
    assert sum(row[0] == "Points Possible" for row in rows) == 1
    assert "written with an empty Student cell" in said(result)


def test_a_points_possible_row_among_students_is_a_student_when_it_has_an_id(run_cli, tmp_path, monkeypatch):
    roster = 'Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n"김, 민지",101,1,k,S,\n"Points Possible",102,2,pp,S,\n'
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT), ("102", SLIP)], roster, "--assignment", "A")
    assert result.exit_code == 0, result.output
    assert [row[1] for row in rows[2:]] == ["101", "102"]


# Moodle: written rows -> the column to identify users by, or the refusal
IDENTIFIERS = [
    ("m@u.kr,20231234\ns@u.kr,20231235", "Email address", None),
    ("same@u.kr,20231234\nsame@u.kr,20231235", "ID number", None),  # a shared e-mail is never the identifier
    ("SAME@u.kr,20231234\nsame@u.kr,20231235", "ID number", None),  # Moodle compares e-mail without case
    ("=evil@u.kr,20231234\ns@u.kr,20231235", "ID number", None),  # a cell that would be neutralised cannot match
    ("same@u.kr,1\nsame@u.kr,1", None, "lines 2, 3"),
    (",1\n,", None, "empty for"),
]


@pytest.mark.parametrize("cells, identifier, words", IDENTIFIERS)
def test_moodle_never_identifies_users_by_a_duplicated_column(run_cli, tmp_path, monkeypatch, cells, identifier, words):
    lines = cells.split("\n")
    roster = "First name,Last name,Email address,ID number\n" + f"민지,김,{lines[0]}\n서준,박,{lines[1]}\n"
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT), ("박서준", SLIP)], roster, "--assignment", "A", layout="moodle")
    if identifier is None:
        assert result.exit_code == 1 and rows is None
        assert "Moodle needs one to find each student" in said(result) and words in said(result)
    else:
        assert result.exit_code == 0, result.output
        assert f"identifying users by '{identifier}'" in said(result)
        column = rows[0].index(identifier)
        assert len({row[column].casefold() for row in rows[1:]}) == len(rows) - 1


@pytest.mark.parametrize(
    "row, words",
    [
        ('"박, 서준",,20231235,sj,S,', "'박, 서준' has no Canvas ID in the roster"),
        ('"박, 서준",101,20231235,sj,S,', "lines 2, 3 share the ID '101'"),
    ],
    ids=["no ID", "a shared ID"],
)
def test_canvas_rows_without_their_own_id_are_reported_not_written(run_cli, tmp_path, monkeypatch, row, words):
    roster = f'Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n"김, 민지",101,20231234,k,S,\n{row}\n"이, 하은",103,20231236,h,S,\n'
    students = [("김민지", RIGHT), ("박서준", SLIP), ("이하은", SLIP)]
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, roster, "--assignment", "A")
    assert result.exit_code == 1
    assert words in said(result)
    written = [r[0] for r in rows[1:] if r[0] != "Points Possible"]
    assert "박, 서준" not in written and "이, 하은" in written


def test_a_match_file_and_roster_inside_the_graded_folder_are_not_answer_files(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = make_class(tmp_path, [("김민지 20231235", RIGHT), ("박서준", SLIP)])
    (folder / "r.csv").write_text(CANVAS, encoding="utf-8")
    (folder / "m.csv").write_text("student,id\n김민지 20231235,20231234\n", encoding="utf-8")
    result = run_cli(
        "grade", "class", "--problems", "set.yaml", "--roster", "class/r.csv", "--match", "class/m.csv",
        "--csv-layout", "canvas", "--csv", "lms.csv", "--assignment", "Attention by hand",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Class (2 students)" in said(result)


@pytest.mark.parametrize(
    "students, roster, args, words",
    [
        ([("김민지", RIGHT)], NOBODY[0].values[1], ["--assignment", "A"], "명단 r.csv에 없어 LMS 파일을 쓰지 않았습니다"),
        ([("김민지", RIGHT)], CANVAS, ["--assignment", "A", "--match", "m.csv"], "m.csv:2:5: '1'에 해당하는 ID나 이메일이 명단 r.csv에 없습니다"),
        ([("이하은", RIGHT)], CANVAS, ["--assignment", "A"], "--match 파일로 한 명에게 짝지으세요"),
        ([("김민지", RIGHT)], CANVAS.replace("10.00", "1e400"), ["--assignment", "Attention by hand"], "Points Possible 값 '1e400': 점수가 아닙니다"),
    ],
    ids=["nobody", "match file", "ambiguous", "points"],
)
def test_the_new_sentences_are_korean_in_korean_mode(run_cli, tmp_path, monkeypatch, students, roster, args, words):
    (tmp_path / "m.csv").write_text("student,id\n김민지,1\n", encoding="utf-8")
    result, _ = grade(run_cli, tmp_path, monkeypatch, students, roster, *args, "--lang", "ko")
    assert result.exit_code == 1
    assert words in said(result)


# --- review: the words of a run with one student or no LMS file; an ambiguous name holds its candidates

# (students, layout) -> (exit, words said, words never said)
WORDING = [
    pytest.param(
        [("김민지", RIGHT)], "canvas", 0, ["Canvas gradebook (1 student, column", "Roster matching (1 of 1 answer file)"],
        ["1 students", "1 answer files"], id="canvas: one student written",
    ),
    pytest.param(
        [("김민지", RIGHT)], "moodle", 0, ["Moodle grades (1 student, column"], ["1 students"], id="moodle: one student written",
    ),
    pytest.param(
        [("김민지", RIGHT), ("박서준", SLIP)], "canvas", 0, ["Canvas gradebook (2 students, column", "(2 of 2 answer files)"], [],
        id="two students: plural",
    ),
    pytest.param(
        [("Nobody Here", RIGHT)], "canvas", 1, ["the answer file's student is not in the roster r.csv, so no LMS file was written"],
        ["not written to the LMS file", "1 answer files"], id="one student, nobody matched: no LMS file, no suffix",
    ),
    pytest.param(
        [("김민지 20231235", RIGHT), ("박서준", SLIP)], "canvas", 1, ["names different roster students", "no LMS file was written"],
        ["not written to the LMS file"], id="a conflict and its held file: no LMS file, no suffix",
    ),
    pytest.param(
        [("김민지 20231235", RIGHT), ("이하은 20231236", SLIP)], "canvas", 1,
        ["names different roster students", "(not written to the LMS file)", "Canvas gradebook (1 student,"], [],
        id="a conflict beside a written student: the suffix says it",
    ),
    pytest.param(
        [("김민지", RIGHT), ("Nobody Here", SLIP)], None, 1, ["'Nobody Here' is not in the roster"], ["not written to the LMS file"],
        id="no LMS layout: no suffix",
    ),
]


@pytest.mark.parametrize("students, layout, status, words, never", WORDING)
def test_lms_sentences_count_right_and_say_not_written_only_beside_a_file(run_cli, tmp_path, monkeypatch, students, layout, status, words, never):
    roster = MOODLE if layout == "moodle" else CANVAS
    args = ["--assignment", "Attention by hand"] if layout else []
    result, _ = grade(run_cli, tmp_path, monkeypatch, students, roster, *args, layout=layout)
    assert result.exit_code == status, result.output
    for word in words:
        assert word in said(result)
    for word in never:
        assert word not in said(result)


# (students) -> (exit, grades written, words said): two 이, 하은 on the roster (lines 5 and 6)
AMBIGUOUS = [
    pytest.param(
        [("이하은", RIGHT), ("이하은 20231237", SLIP)], 1, {},
        ["'이하은' fits several roster students", "'이하은 20231237' is roster student 이, 하은 (r.csv:6), whom class/01.yaml may also be"],
        id="the other file's 이하은 is doubted, not graded",
    ),
    pytest.param(
        [("이하은 20231237", SLIP), ("이하은", RIGHT)], 1, {}, ["whom class/02.yaml may also be"], id="in the other order",
    ),
    pytest.param(
        [("이하은", RIGHT), ("이하은 20231237", SLIP), ("김민지", RIGHT)], 1, {"김, 민지": "10"}, ["may also be"],
        id="a student the name does not fit is graded",
    ),
    pytest.param(
        [("이하은 20231236", RIGHT), ("이하은 20231237", SLIP)], 0, {"이, 하은": "3.75"}, [],
        id="both write their 학번: both graded",
    ),
]


@pytest.mark.parametrize("students, status, written, words", AMBIGUOUS)
def test_an_ambiguous_name_holds_every_roster_student_it_may_be(run_cli, tmp_path, monkeypatch, students, status, written, words):
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, CANVAS, "--assignment", "Attention by hand")
    assert result.exit_code == status, result.output
    assert grades(rows) == written
    for word in words:
        assert word in said(result)


def test_a_doubted_file_is_said_in_korean(run_cli, tmp_path, monkeypatch):
    students = [("이하은", RIGHT), ("이하은 20231237", SLIP)]
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, CANVAS, "--assignment", "Attention by hand", "--lang", "ko")
    assert result.exit_code == 1 and rows is None
    assert "이 학생일 수 있습니다(같은 이름의 학생이 여럿)" in said(result)


# --- review: a real Canvas export's totals and custom columns are no grade columns ------------

GROUP_TOTALS = "Assignments Current Points,Assignments Final Points,Assignments Current Score,Assignments Unposted Current Score,Assignments Final Score,Assignments Unposted Final Score"
COURSE_TOTALS = "Current Points,Final Points,Current Score,Unposted Current Score,Final Score,Unposted Final Score"


def canvas_export(columns: str, points: str) -> str:
    """A Canvas export with these columns after Section (one student, 김민지) and their Points Possible cells."""
    blank = "," * columns.count(",")
    return f"Student,ID,SIS User ID,SIS Login ID,Section,{columns}\n    Points Possible,,,,,{points}\n\"김, 민지\",101,20231234,minji@uni.ac.kr,AI-01,{blank}\n"


READ_ONLY = ",".join(["(read only)"] * 6)
# (columns after Section, their Points Possible) -> the grade column chosen (None: --assignment asked for)
CANVAS_COLUMNS = [
    pytest.param(f"Attention (4242),{GROUP_TOTALS},{COURSE_TOTALS}", f"10.00,{READ_ONLY},{READ_ONLY}", "Attention (4242)",
                 id="an assignment group's totals and the course's"),
    pytest.param("Attention (4242),Current Score (Fall 2026),Final Grade (2026),Override Score", "10.00,(read only),(read only),",
                 "Attention (4242)", id="totals of a grading period, override"),
    pytest.param("Notes,Attention (4242),Labs Unposted Final Score", ",10.00,(read only)", "Attention (4242)",
                 id="a custom column has no (id)"),
    pytest.param("Attention (4242),Quiz 2 (4243)", "10.00,5.00", None, id="two assignments: ask"),
    pytest.param("Attention", "10.00", "Attention", id="a hand-made roster without ids keeps its column"),
]


@pytest.mark.parametrize("columns, points, chosen", CANVAS_COLUMNS)
def test_canvas_totals_and_custom_columns_are_never_a_grade_column(run_cli, tmp_path, monkeypatch, columns, points, chosen):
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], canvas_export(columns, points))
    if chosen is None:
        assert result.exit_code == 2 and rows is None
        assert "Attention (4242), Quiz 2 (4243))" in said(result)
        return
    assert result.exit_code == 0, result.output
    assert f"grade column: '{chosen}', the roster's only grade column" in said(result)
    assert rows[0][-1] == chosen and rows[1] == ["Points Possible", "", "", "", "", "10"]


# --- review: a short Canvas ID in the name is an ID too ---------------------------------------

# (student) -> (exit, grades written, words said)
SHORT_IDS = [
    pytest.param("김민지 102", 1, {}, ["names different roster students", "박, 서준 (r.csv:4) by ID in the name"], id="his Canvas ID, her name"),
    pytest.param("102 김민지", 1, {}, ["names different roster students"], id="in the other order"),
    pytest.param("김민지 101", 0, {"김, 민지": "10"}, [], id="her own Canvas ID"),
    pytest.param("이하은 104", 0, {"이, 하은": "10"}, [], id="a Canvas ID picks one of two of that name"),
    pytest.param("김민지 7", 0, {"김, 민지": "10"}, [], id="a number that is nobody's leaves the name"),
    pytest.param("김민지20231235", 1, {}, ["names different roster students"], id="name and his 학번 written together"),
    pytest.param("김민지20231234", 0, {"김, 민지": "10"}, [], id="name and her 학번 written together"),
    pytest.param("20231237이하은", 0, {"이, 하은": "10"}, [], id="학번 and name together pick one of two"),
]


@pytest.mark.parametrize("student, status, written, words", SHORT_IDS)
def test_a_short_number_in_the_name_is_matched_as_an_id(run_cli, tmp_path, monkeypatch, student, status, written, words):
    result, rows = grade(run_cli, tmp_path, monkeypatch, [(student, RIGHT)], CANVAS, "--assignment", "Attention by hand")
    assert result.exit_code == status, result.output
    assert grades(rows) == written
    for word in words:
        assert word in said(result)


# --- review: --assignment is a column name the LMS shows ---------------------------------------

# --assignment -> (exit, the grade column's header written, words said)
ASSIGNMENTS = [
    pytest.param("", 2, None, "--assignment is empty", id="empty"),
    pytest.param("   ", 2, None, "--assignment is empty", id="blank"),
    pytest.param("A\x1b[31mred", 2, None, "(U+001B, character 2)", id="a terminal escape"),
    pytest.param("A\u202eB", 2, None, "(U+202E, character 2)", id="a bidi override"),
    pytest.param("Quiz\n=1+1", 2, None, "(U+000A, character 5)", id="a line break before a formula"),
    pytest.param("A\tB", 2, None, "(U+0009, character 2)", id="a tab inside"),
    pytest.param("\t=1+1", 0, "'\t=1+1", "written to lms.csv", id="a tab at the start is a formula start: neutralised"),
    pytest.param("퀴즈 1 (주의)", 0, "퀴즈 1 (주의)", "written to lms.csv", id="Korean, spaces and brackets as typed"),
]


@pytest.mark.parametrize("layout", ["canvas", "moodle"])
@pytest.mark.parametrize("assignment, status, header, words", ASSIGNMENTS)
def test_the_grade_column_named_by_assignment_is_a_name_the_lms_can_show(run_cli, tmp_path, monkeypatch, layout, assignment, status, header, words):
    roster = CANVAS if layout == "canvas" else MOODLE
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], roster, "--assignment", assignment, layout=layout)
    assert result.exit_code == status, result.output
    assert words in said(result)
    assert (rows[0][-1] if rows else None) == header


@pytest.mark.parametrize("option", ["--roster", "--match"])
def test_a_roster_or_match_directory_holding_the_output_is_refused_as_a_directory(run_cli, tmp_path, monkeypatch, option):
    """Not taken for a graded directory the output is inside (exit 2): the sentence says it is a directory."""
    monkeypatch.chdir(tmp_path)
    folder = make_class(tmp_path, [("김민지", RIGHT)])
    (tmp_path / "r.csv").write_text(CANVAS, encoding="utf-8")
    given = {"--roster": ".", "--match": "."}
    args = ["--roster", given["--roster"]] if option == "--roster" else ["--roster", "r.csv", "--match", given["--match"]]
    result = run_cli("grade", folder.name, *args, "--csv-layout", "canvas", "--csv", "lms.csv", "--assignment", "A")
    assert result.exit_code == 1, result.output
    assert "is a directory" in said(result) and "being graded" not in said(result)
    assert not (tmp_path / "lms.csv").exists()


# --match file's encoding (as Excel saves it) and delimiter: it settles the conflict either way
MATCH_ENCODINGS = [
    pytest.param(encoding, bom, delimiter, id=f"{encoding}{'+bom' if bom else ''}-{ {',': 'comma', chr(9): 'tab', ';': 'semicolon'}[delimiter]}")
    for encoding, bom in [("utf-8", False), ("utf-8", True), ("cp949", False), ("utf-16-le", True), ("utf-16-be", True)]
    for delimiter in [",", "\t", ";"]
]


@pytest.mark.parametrize("encoding, bom, delimiter", MATCH_ENCODINGS)
def test_a_match_file_in_any_encoding_excel_writes_settles_the_conflict(run_cli, tmp_path, monkeypatch, encoding, bom, delimiter):
    text = f"학생{delimiter}학번\n김민지 20231235{delimiter}20231234\n"
    marks = {"utf-8": codecs.BOM_UTF8, "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
    (tmp_path / "m.csv").write_bytes((marks[encoding] if bom else b"") + text.encode(encoding))
    students = [("김민지 20231235", RIGHT), ("박서준", SLIP)]
    result, rows = grade(run_cli, tmp_path, monkeypatch, students, CANVAS, "--assignment", "Attention by hand", "--match", "m.csv")
    assert result.exit_code == 0, result.output
    assert grades(rows) == {"김, 민지": "10", "박, 서준": "3.75"}


# roster or --match text that is no CSV -> the line its bad record starts on
BAD_CSV = [
    pytest.param("r.csv", 'Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n"김, 민지",101,1,2,3,\n"박, 서준,102,1,2,3,\n', "r.csv:3:", id="roster: an open quote"),
    pytest.param("r.csv", 'Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n"김, 민지",101,' + "x" * 200_000 + ",2,3,\n", "r.csv:2:", id="roster: a huge field"),
    pytest.param("m.csv", 'student,id\n김민지,20231234\n"박서준,20231235\n\n', "m.csv:3:", id="match: an open quote"),
]


@pytest.mark.parametrize("name, text, where", BAD_CSV)
def test_a_bad_csv_record_is_said_at_the_line_it_starts(run_cli, tmp_path, monkeypatch, name, text, where):
    roster, args = (text, []) if name == "r.csv" else (CANVAS, ["--match", name])
    if name == "m.csv":
        (tmp_path / name).write_text(text, encoding="utf-8")
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], roster, "--assignment", "A", *args)
    assert result.exit_code == 1 and rows is None, result.output
    assert where in said(result) and "not valid CSV" in said(result)


# --- review: an identifier is unique in the whole roster, not only among the rows written ------

def test_moodle_never_identifies_users_by_a_value_another_roster_student_has(run_cli, tmp_path, monkeypatch):
    """하은 has no answer file, but Moodle knows her: her e-mail is 민지's, so Moodle could not tell them apart."""
    roster = "First name,Last name,Email address,ID number\n민지,김,same@u.kr,20231234\n하은,이,SAME@u.kr,20231236\n"
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT)], roster, "--assignment", "A", layout="moodle")
    assert result.exit_code == 0, result.output
    assert "identifying users by 'ID number'" in said(result)


def test_a_canvas_id_another_roster_row_has_is_not_written(run_cli, tmp_path, monkeypatch):
    roster = 'Student,ID,SIS User ID,SIS Login ID,Section,A (1)\n"김, 민지",101,20231234,k,S,\n"이, 하은",101,20231236,h,S,\n"박, 서준",102,20231235,p,S,\n'
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT), ("박서준", SLIP)], roster, "--assignment", "A")
    assert result.exit_code == 1, result.output
    assert "lines 2, 3 share the ID '101'" in said(result)
    assert grades(rows) == {"박, 서준": "3"}


def test_a_canvas_export_with_first_and_last_names_apart_is_a_canvas_roster(run_cli, tmp_path, monkeypatch):
    """Canvas's gradebook setting "Show separate first and last names" exports LastName, FirstName, ID, ..."""
    roster = (
        "LastName,FirstName,ID,SIS User ID,SIS Login ID,Section,Attention by hand (4242),Current Score\n"
        "    Points Possible,,,,,,10.00,(read only)\n"
        "김,민지,101,20231234,minji@uni.ac.kr,AI-01,,\n"
        "박,서준,102,20231235,seojun@uni.ac.kr,AI-01,,\n"
        "Student,Test,999,,test1,AI-01,,\n"
    )
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("김민지", RIGHT), ("박서준 20231235", SLIP)], roster)
    assert result.exit_code == 0, result.output
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Attention by hand (4242)"]
    assert rows[2:] == [["김, 민지", "101", "20231234", "minji@uni.ac.kr", "AI-01", "10"], ["박, 서준", "102", "20231235", "seojun@uni.ac.kr", "AI-01", "3.75"]]
    assert "Canvas's test student ('Student, Test'" in said(result)


# --- names exactly as written, whatever characters they hold (issue 35, rule 9) ----------------

WRITTEN_NAMES = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Attention by hand (4242),Current Score\n"
    "    Points Possible,,,,,10.00,(read only)\n"
    '"@Cho, Bo",201,S201,cho@uni.ac.kr,AI-01,,\n'
    '"Stu5, Name5",202,S202,stu5@uni.ac.kr,AI-01,,\n'
    '"R2D2, C3PO",203,S203,droid@uni.ac.kr,AI-01,,\n'
    '"O\'Neil-Park, Ann #2",204,S204,ann@uni.ac.kr,AI-01,,\n'
    '"김민지 (AI) 2023",205,S205,kim@uni.ac.kr,AI-01,,\n'
)


@pytest.mark.parametrize(
    "student, entry",
    [
        ("@Cho, Bo", "@Cho, Bo"),
        ("Bo @Cho", "@Cho, Bo"),
        ("Stu5, Name5", "Stu5, Name5"),
        ("Name5 Stu5", "Stu5, Name5"),
        ("R2D2, C3PO", "R2D2, C3PO"),
        ("O'Neil-Park, Ann #2", "O'Neil-Park, Ann #2"),
        ("김민지 (AI) 2023", "김민지 (AI) 2023"),
        ("S202", "Stu5, Name5"),  # an identifier still matches as one
        ("Name5 Stu5 S202", "Stu5, Name5"),
    ],
)
def test_a_roster_name_matches_as_written_whatever_characters_it_holds(run_cli, tmp_path, monkeypatch, student, entry):
    result, rows = grade(run_cli, tmp_path, monkeypatch, [(student, RIGHT)], WRITTEN_NAMES)
    assert result.exit_code == 0, said(result)
    cell = "'@Cho, Bo" if entry.startswith("@") else entry  # a cell that starts like a formula is neutralised
    assert grades(rows)[cell] == "10", (grades(rows), said(result))
    assert "matches no roster student" not in said(result)


def test_a_name_as_written_that_is_someone_elses_does_not_take_their_grade(run_cli, tmp_path, monkeypatch):
    result, rows = grade(run_cli, tmp_path, monkeypatch, [("Stu5, Name6", RIGHT)], WRITTEN_NAMES)
    assert result.exit_code == 1
    assert all(grade == "" for grade in grades(rows).values())
