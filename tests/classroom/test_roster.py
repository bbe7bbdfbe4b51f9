"""attn_tutor.classroom.roster: reading Canvas, Moodle and plain class lists; matching answer files to them.

The matching table is the heart of it: each row is a student as an answer file
names them, and the roster entry (by line) and the way they must match — or why
they must not.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.classroom.roster import fold, match, name_keys, read_roster_text
from attn_tutor.core.errors import AttnTutorError

CANVAS = (
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Attention by hand (4242),Quiz 1 (4243),Current Score,Final Score\n"
    "    Points Possible,,,,,10.00,5.00,(read only),(read only)\n"
    ",,,,,Manual Posting,,,\n"
    '"김, 민지",101,20230001,minji.kim@uni.ac.kr,AI 101-01,,,,\n'
    '"박, 서준",102,20230002,seojun.park@uni.ac.kr,AI 101-01,8,,,\n'
    '"이, 하은",103,20230003,haeun.lee@uni.ac.kr,AI 101-02,,,,\n'
    '"이, 하은",104,20230004,haeun.lee2@uni.ac.kr,AI 101-02,,,,\n'
    '"Kim, Minji",105,S-777,mkim,AI 101-02,,,,\n'
    '"Smith, Mary Ann",106,20230006,msmith,AI 101-02,,,,\n'
)

MOODLE = (
    '"First name","Last name","ID number",Institution,Department,"Email address",'
    '"Assignment: Attention by hand (Real)","Last downloaded from this course"\n'
    "민지,김,20230001,Uni,AI,Minji.Kim@uni.ac.kr,,1733011200\n"
    "서준,박,20230002,Uni,AI,seojun.park@uni.ac.kr,,1733011200\n"
    "Jane,Roe,,Uni,AI,jane.roe@uni.ac.kr,,1733011200\n"
)
WITH_USERNAMES = "First name,Last name,Username,ID number\nJane,Roe,jane,\nJohn,Doe,2023x,\n"

MOODLE_KO = "이름,성,학번,이메일 주소,과제: 어텐션 (실수)\n민지,김,20230001,minji.kim@uni.ac.kr,\n하은,이,20230003,haeun@uni.ac.kr,\n"


def canvas():
    return read_roster_text(CANVAS, "canvas.csv")


def line_of(roster, student: str):
    result = match([student], roster)
    if result.matches:
        (m,) = result.matches
        return m.entry.line, m.how, m.field
    (u,) = result.unmatched
    return u.reason, tuple(e.line for e in u.candidates)


# student as the answer file names them -> (roster line, how, field), or (reason, candidate lines)
CANVAS_CASES = [
    ("김민지", (4, "name", "name")),  # "김, 민지": last, first
    ("김 민지", (4, "name", "name")),  # spaces do not matter
    ("민지 김", (4, "name", "name")),  # nor the order
    (unicodedata.normalize("NFD", "김민지"), (4, "name", "name")),  # decomposed Hangul (a macOS file name)
    ("20230001", (4, "id", "SIS User ID")),
    ("２０２３０００１", (4, "id", "SIS User ID")),  # full-width digits
    ("101", (4, "id", "ID")),
    ("MINJI.KIM@UNI.AC.KR", (4, "id", "SIS Login ID")),  # Canvas's login is the email here: an identifier
    ("김민지 20230001", (4, "id_in_name", "SIS User ID")),  # 이름 학번, as students write it
    ("Kim Minji", (8, "name", "name")),  # "Kim, Minji"
    ("ＫＩＭ ｍｉｎｊｉ", (8, "name", "name")),  # full-width letters, another case
    ("minji KIM", (8, "name", "name")),
    ("s-777", (8, "id", "SIS User ID")),  # identifiers ignore case too
    ("Mary Ann Smith", (9, "name", "name")),
    ("Smith Mary Ann", (9, "name", "name")),
    ("Smith, Mary Ann", (9, "name", "name")),
    ("이하은", ("ambiguous", (6, 7))),  # two 이하은 in the roster: neither is guessed
    ("이하은 20230004", (7, "id_in_name", "SIS User ID")),  # the 학번 settles it
    ("haeun.lee2@uni.ac.kr", (7, "id", "SIS Login ID")),
    ("최도윤", ("none", ())),
    ("", ("none", ())),
    ("Kim", ("none", ())),  # a part of a name is not the name
    ("2023", ("none", ())),  # nor a part of an ID
]


@pytest.mark.parametrize("student, expected", CANVAS_CASES, ids=[c[0] or "empty" for c in CANVAS_CASES])
def test_canvas_matching(student, expected):
    assert line_of(canvas(), student) == expected


MOODLE_CASES = [
    ("김민지", (2, "name", "name")),
    ("minji.kim@UNI.AC.KR", (2, "email", "email")),  # Moodle keeps the email apart from identifiers
    ("Ｍｉｎｊｉ．Ｋｉｍ＠ｕｎｉ．ａｃ．ｋｒ", (2, "email", "email")),  # typed on a full-width keyboard
    ("20230002", (3, "id", "ID number")),
    ("Jane Roe", (4, "name", "name")),
    ("Jane Doe", ("none", ())),
    ("roe jane", (4, "name", "name")),
    ("Doe", ("none", ())),
]


@pytest.mark.parametrize("student, expected", MOODLE_CASES, ids=[c[0] for c in MOODLE_CASES])
def test_moodle_matching(student, expected):
    assert line_of(read_roster_text(MOODLE, "moodle.csv"), student) == expected


@pytest.mark.parametrize(
    "student, expected",
    [("김민지", (2, "name", "name")), ("이 하은", (3, "name", "name")), ("20230003", (3, "id", "ID number"))],
)
def test_korean_headed_moodle_matching(student, expected):
    roster = read_roster_text(MOODLE_KO, "ko.csv")
    assert roster.kind == "moodle"
    assert line_of(roster, student) == expected


@pytest.mark.parametrize(
    "student, expected",
    [
        ("jane", (2, "id", "Username")),
        ("Jane Smith", ("none", ())),  # "jane" in a name is a first name, not the username of someone else
        ("John 2023x", (3, "id_in_name", "Username")),  # a word with a digit is an ID
    ],
)
def test_an_id_inside_a_name_needs_a_digit(student, expected):
    assert line_of(read_roster_text(WITH_USERNAMES, "u.csv"), student) == expected


def test_two_answer_files_for_one_student_match_neither_and_every_absence_is_listed():
    result = match(["김민지", "20230001", "박서준", "nobody"], canvas())
    assert [(m.student, m.entry.line) for m in result.matches] == [(2, 5)]
    assert [(u.student, u.reason, u.others) for u in result.unmatched] == [
        (0, "duplicate", (1,)),
        (1, "duplicate", (0,)),
        (3, "none", ()),
    ]
    # 김민지 is claimed (twice), so not absent; everyone else without a file is
    assert [e.line for e in result.absent] == [6, 7, 8, 9]


def test_a_canvas_export_is_read_as_canvas_writes_it():
    roster = canvas()
    assert roster.kind == "canvas"
    assert roster.assignments == ["Attention by hand (4242)", "Quiz 1 (4243)"]  # totals left out
    assert roster.points_possible == {"Attention by hand (4242)": "10.00", "Quiz 1 (4243)": "5.00"}
    assert [e.line for e in roster.entries] == [4, 5, 6, 7, 8, 9]  # Points Possible and Manual Posting skipped
    first = roster.entries[0]
    assert (first.name, first.first, first.last, first.section) == ("김, 민지", "민지", "김", "AI 101-01")
    assert dict(first.ids) == {"ID": "101", "SIS User ID": "20230001", "SIS Login ID": "minji.kim@uni.ac.kr"}
    assert roster.assignment_column("attention BY hand") == "Attention by hand (4242)"
    assert roster.assignment_column("Attention by hand (4242)") == "Attention by hand (4242)"
    assert roster.assignment_column("Homework") is None


def test_a_moodle_export_is_read_with_its_grade_items():
    roster = read_roster_text(MOODLE, "moodle.csv")
    assert roster.kind == "moodle"
    assert roster.assignments == ["Assignment: Attention by hand (Real)"]  # not the download time
    assert roster.assignment_column("Attention by hand") == "Assignment: Attention by hand (Real)"
    assert [e.name for e in roster.entries] == ["김민지", "박서준", "Jane Roe"]  # as each is written
    jane = roster.entries[2]
    assert (jane.first, jane.last, jane.email, jane.ids) == ("Jane", "Roe", "jane.roe@uni.ac.kr", ())


def test_a_semicolon_separated_export_reads_the_same():
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, delimiter=";").writerows(csv.reader(io.StringIO(CANVAS)))
    assert read_roster_text(out.getvalue(), "x.csv").entries == canvas().entries


def test_a_plain_class_list():
    roster = read_roster_text("학번,성명,이메일\n20230001,김민지,a@b.kr\n", "list.csv")
    assert roster.kind == "csv"
    assert line_of(roster, "김 민지") == (2, "name", "name")
    assert line_of(roster, "A@B.KR") == (2, "email", "email")


@pytest.mark.parametrize(
    "text, key, line",
    [
        ("", "roster.empty", None),
        ("\n\n", "roster.empty", None),
        ("Timestamp,Score\n1,2\n", "roster.no_columns", 1),
        ('Student,ID,Section\n"unclosed,1,2\n', "roster.bad_csv", None),
    ],
)
def test_a_roster_that_cannot_be_used_says_why_and_where(text, key, line):
    with pytest.raises(AttnTutorError) as caught:
        read_roster_text(text, "r.csv")
    problem = caught.value.problems[0]
    assert problem.key == key
    assert problem.where.file == "r.csv"
    if line is not None:
        assert problem.where.line == line


def test_folding_is_nfkc_casefold_and_collapsed_spaces():
    assert fold("  ＫＩＭ\u3000Minji ") == "kim minji"
    assert fold("Straße") == fold("STRASSE")
    assert name_keys("Kim, Minji") == name_keys("Minji Kim") == {"minjikim", "kimminji"}


# --- the rule as a property: a grade lands on its student or nowhere ---------------------------

FAMILY, GIVEN = ["김", "이", "박", "최"], ["민지", "서준", "하은"]


@st.composite
def class_and_roster(draw):
    """A roster of Korean names (some shared) with distinct 학번, and answer files that write a
    roster student's name, their 학번, both, both with someone else's 학번, or a stranger's name."""
    size = draw(st.integers(1, 8))
    people = [(draw(st.sampled_from(FAMILY)), draw(st.sampled_from(GIVEN)), f"2023{1000 + n}") for n in range(size)]
    text = "이름,성,학번\n" + "".join(f"{given},{family},{number}\n" for family, given, number in people)
    students = []
    for _ in range(draw(st.integers(1, 8))):
        family, given, number = draw(st.sampled_from(people))
        other = draw(st.sampled_from(people))[2]
        students.append(
            draw(st.sampled_from([family + given, number, f"{family}{given} {number}", f"{family}{given} {other}", "정우진"]))
        )
    return read_roster_text(text, "r.csv"), students


@given(class_and_roster())
def test_every_match_agrees_with_everything_the_student_wrote(made):
    roster, students = made
    result = match(students, roster)
    by_number = {entry.identifier("ID number"): entry for entry in roster.entries}
    for m in result.matches:
        words = students[m.student].split()
        names = [w for w in words if not w.isdigit()]
        numbers = [w for w in words if w.isdigit()]
        for number in numbers:  # every 학번 written is the matched student's own, or no one's
            assert by_number.get(number, m.entry) is m.entry
        for name in names:  # the name written is the matched student's
            assert name in name_keys(m.entry.name, m.entry.first, m.entry.last)
    # no roster entry gets two students' grades, and no student is both matched and not
    assert len({id(m.entry) for m in result.matches}) == len(result.matches)
    assert not {m.student for m in result.matches} & {u.student for u in result.unmatched}
    assert len(result.matches) + len(result.unmatched) == len(students)
    # an entry a conflict names gets no grade
    named = {id(e) for u in result.unmatched if u.reason == "conflict" for key in u.keys for e in key.entries}
    assert not named & {id(m.entry) for m in result.matches}
    # nor does an entry an ambiguous student may be
    doubted = {id(e) for u in result.unmatched if u.reason == "ambiguous" for e in u.candidates}
    assert not doubted & {id(m.entry) for m in result.matches}
    # every roster entry is matched, named in a problem, or listed absent
    accounted = {id(m.entry) for m in result.matches} | named | {id(e) for e in result.absent}
    accounted |= {id(u.candidates[0]) for u in result.unmatched if u.reason in ("duplicate", "held", "doubted")}
    assert accounted == {id(e) for e in roster.entries}


def test_her_name_and_his_number_is_a_conflict_that_holds_his_own_file():
    result = match(["김민지 20230002", "박서준"], canvas())
    assert result.matches == []
    assert [(u.student, u.reason) for u in result.unmatched] == [(0, "conflict"), (1, "held")]
    conflict = result.unmatched[0]
    assert [(key.how, [e.line for e in key.entries]) for key in conflict.keys] == [("id_in_name", [5]), ("name", [4])]
    assert 4 not in [e.line for e in result.absent] and 5 not in [e.line for e in result.absent]
