"""`attn-tutor grade` and attn_tutor.gradebook: a class's answer files in, a gradebook out.

Fixtures (tests/fixtures/grade/): ``set.yaml`` is the chapter's example with both
rows asked; ``class/`` holds one YAML file per student, each making one kind of
mistake in the 먹었다 row (so every verdict and diagnosis appears), ``class.csv`` the
same answers as a form would export them, and ``broken/`` files a teacher will meet:
bad YAML, unknown problems, rows and stages, malformed cells, duplicate keys, a
file that is not UTF-8.
"""

from __future__ import annotations

import csv
import io
import json
import shutil

import pytest
from helpers.answers import answer_yaml
from helpers.grading import grade
from helpers.paths import TESTS
from helpers.reference_marking import mistaken_rows, reference_mark_row
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor import gradebook
from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import speaking, t
from attn_tutor.gradebook import answer_yaml as yaml_reader
from attn_tutor.marking.answers import parse_row
from attn_tutor.marking.marker import VERDICTS, diagnosis_name

FIXTURES = TESTS / "fixtures" / "grade"


SET = FIXTURES / "set.yaml"


CLASS = FIXTURES / "class"


BROKEN = FIXTURES / "broken"


M, G = "먹었다", "고양이가"


STAGES = ("scores", "scaled", "weights", "output")


HOSTILE = '=HYPERLINK("http://x","클릭"), "Kim, Jr"\n둘째 줄'


def read_gradebook(data: bytes) -> list[dict[str, str]]:
    assert data.startswith("\ufeff".encode())  # a BOM, so Excel reads Korean as UTF-8
    text = data.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def cells(row: dict[str, str], token: str) -> list[str]:
    """'points|diagnosis' for each stage of one row of the gradebook."""
    return [f"{row[f'cat-fish/{token}/{s} points']}|{row[f'cat-fish/{token}/{s} diagnosis']}" for s in STAGES]


MISSING_ROW = ["0|missing"] * 4


def shown(cell: str, lang: str = "en") -> str:
    """'points|verdict: diagnosis' written with codes, as the gradebook shows it in ``lang``."""
    from attn_tutor.marking.marker import diagnosis_name

    points, _, text = cell.partition("|")
    verdict, _, code = text.partition(": ")
    with speaking(lang):
        label = t(f"grade.verdict.{verdict}")
        return f"{points}|{label}: {diagnosis_name(code)}" if code else f"{points}|{label}"


# student, score, percent, the 먹었다 row's four items, the 고양이가 row's four items
EXPECTED = [
    ("김민지", "8", "100.0", ["1|correct"] * 4, ["1|correct"] * 4),
    ("박서준", "3", "37.5", ["1|correct", "0|wrong: not_scaled", "1|follow_through", "1|follow_through"], MISSING_ROW),
    ("이하은", "3", "37.5", ["1|correct", "0|wrong: divided_by_d", "1|follow_through", "1|follow_through"], MISSING_ROW),
    ("최도윤", "3", "37.5", ["1|correct", "1|correct", "0|wrong: no_exp", "1|follow_through"], MISSING_ROW),
    ("정서연", "3", "37.5", ["1|correct", "1|correct", "0|wrong: not_normalized", "1|follow_through"], MISSING_ROW),
    ("강지호", "3", "37.5", ["1|correct", "1|correct", "0|wrong: skipped_scaling", "1|follow_through"], MISSING_ROW),
    ("조수아", "3", "37.5", ["1|correct", "1|correct", "0|wrong: column_softmax", "1|follow_through"], MISSING_ROW),
    (
        "윤예준",
        "3.33",  # 3.3333 shown with two places, half up
        "41.7",
        ["0.33|partial: transposed_scores", "1|follow_through", "1|follow_through", "1|follow_through"],
        MISSING_ROW,
    ),
    ("장하윤", "3.5", "43.8", ["1|correct", "1|correct", "1|correct", "0.5|partial: used_keys"], MISSING_ROW),
    ("임시우", "3", "37.5", ["1|correct", "0|wrong: rounding", "1|correct", "1|correct"], MISSING_ROW),  # √2 as 1.4
    ("한지민", "0", "0.0", ["0|wrong", "0|missing", "0|missing", "0|missing"], MISSING_ROW),
    (HOSTILE, "1", "12.5", ["1|correct", "0|missing", "0|missing", "0|missing"], MISSING_ROW),
    ("@SUM(A1:A2)", "1", "12.5", MISSING_ROW, ["1|correct", "0|missing", "0|missing", "0|missing"]),
]


@pytest.fixture(scope="module")
def class_book():
    return grade([CLASS])


@pytest.fixture(scope="module")
def class_rows(class_book):
    return read_gradebook(class_book.csv)


def test_gradebook_header_is_stable(class_rows):
    header = list(class_rows[0])
    items = [f"cat-fish/{token}/{stage}" for token in (M, G) for stage in STAGES]
    assert header == [
        "student",
        "variant",
        "score",
        "max_score",
        "percent",
        *[f"{item} {kind}" for item in items for kind in ("points", "diagnosis")],
        "problem_set",
        "file",
        "errors",
    ]


@pytest.mark.parametrize(("index", "expected"), list(enumerate(EXPECTED)), ids=[e[0][:12] for e in EXPECTED])
def test_every_verdict_and_diagnosis_in_the_gradebook(class_rows, index, expected):
    student, score, percent, first_row, second_row = expected
    row = class_rows[index]
    assert row["student"].removeprefix("'") == student
    assert (row["variant"], row["score"], row["max_score"], row["percent"], row["errors"]) == ("", score, "8", percent, "")
    assert cells(row, M) == [shown(c) for c in first_row]
    assert cells(row, G) == [shown(c) for c in second_row]


def test_the_class_covers_every_verdict_and_diagnosis(class_book):
    from attn_tutor.marking.marker import DIAGNOSES

    items = [item for student in class_book.students for item in student.report.items]
    assert {item.verdict for item in items} == set(VERDICTS)
    # the class's set has no mask, so no ignored_mask (tests/marking/test_fair_marking.py has it)
    assert {item.diagnosis for item in items} - {None} == set(DIAGNOSES) - {"ignored_mask"}


def test_csv_and_yaml_answers_give_the_same_marks(class_book):
    from_csv = grade([FIXTURES / "class.csv"], problems=str(SET))
    assert [s.student for s in from_csv.students] == [s.student for s in class_book.students]
    for a, b in zip(class_book.students, from_csv.students):
        assert not a.findings and not b.findings
        assert [i.to_dict() for i in a.report.items] == [i.to_dict() for i in b.report.items]
    def without_file(book):  # the file column says where each row came from: a CSV line or a YAML file
        return [{k: v for k, v in row.items() if k != "file"} for row in read_gradebook(book.csv)]

    assert without_file(from_csv) == without_file(class_book)
    assert [row["file"] for row in read_gradebook(from_csv.csv)][:2] == [
        f"{FIXTURES / 'class.csv'}:2",
        f"{FIXTURES / 'class.csv'}:3",
    ]


def test_item_analysis_counts_match_the_gradebook(class_book, class_rows):
    analysis = class_book.analysis()
    assert [(s.problem, s.row, s.stage) for s in analysis] == [("cat-fish", t, s) for t in (M, G) for s in STAGES]
    for stats in analysis:
        column = [row[f"{stats.name} diagnosis"] for row in class_rows]
        verdicts = [cell.split(":")[0] for cell in column]
        assert stats.students == len(class_rows)
        assert dict(stats.counts) == {v: verdicts.count(t(f"grade.verdict.{v}")) for v in VERDICTS}
        assert sum(stats.percent(v) for v in VERDICTS) == pytest.approx(100.0)
        diagnosed = [cell.split(": ")[1] for cell in column if ": " in cell]
        for code, count in stats.diagnoses:
            assert diagnosed.count(diagnosis_name(code)) == count
    weights = next(s for s in analysis if s.row == M and s.stage == "weights")
    assert weights.count("partial") == 0 and weights.count("wrong") == 4
    # ties are broken in the catalogue's order of mistakes: the first three of four
    assert weights.diagnoses == (("no_exp", 1), ("not_normalized", 1), ("skipped_scaling", 1))


def test_score_distribution_counts_every_marked_student(class_book):
    # 100; 37.5 ×6, 41.7 ×2, 43.8; 0; 12.5 ×2
    assert class_book.distribution() == [1, 2, 0, 7, 2, 0, 0, 0, 0, 1]


@pytest.mark.parametrize(
    ("score", "max_score", "expected"),
    [(0, 8, 0), (0.7999, 8, 0), (0.8, 8, 1), (7.2, 8, 9), (7.1999, 8, 8), (8, 8, 9), (3, 10, 3), (0.7, 1, 7), (0, 0, 0)],
)
def test_score_bins_are_exact(score, max_score, expected):
    assert gradebook.score_bin(score, max_score) == expected


def test_variants_are_marked_against_their_own_numbers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a set a student names must be under the working directory
    from attn_tutor.problems.load import load_path
    from attn_tutor.variants.generate import variant_set

    original = load_path(SET)
    shutil.copy(SET, tmp_path / "set.yaml")
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "a.yaml").write_text(answer_yaml("variant-right", variant_set(original, 1042), 1042), "utf-8")
    (answers / "b.yaml").write_text(answer_yaml("variant-with-key", original, 1042), "utf-8")
    (answers / "c.yaml").write_text(answer_yaml("no-variant", original), "utf-8")
    (answers / "d.yaml").write_text(answer_yaml("other-variant", variant_set(original, 7), 1042), "utf-8")
    book = grade([answers])
    scores = {s.student: (s.score, s.max_score, s.variant) for s in book.students}
    assert scores["variant-right"] == (8, 8, 1042)
    assert scores["no-variant"] == (8, 8, None)
    # the original key's numbers are wrong for this variant: at best, credit carried from own numbers
    for name in ("variant-with-key", "other-variant"):
        student = next(s for s in book.students if s.student == name)
        assert scores[name][0] < 8
        # a variant keeps the source's ranges, so a cell may agree by chance; no row does here
        assert {i.verdict for i in student.report.items if i.stage in ("scores", "output")} <= {"wrong", "partial"}
    rows = read_gradebook(book.csv)
    assert [r["variant"] for r in rows] == ["1042", "1042", "", "1042"]
    assert not book.failed


@pytest.mark.parametrize("variant", ["-1", "9223372036854775808", "0x10", "1.5", "yes", "[1]"])
def test_a_bad_variant_lists_the_student_with_the_error(tmp_path, variant):
    (tmp_path / "a.yaml").write_text(f"student: 김\nproblem_set: {SET}\nvariant: {variant}\n", "utf-8")
    (student,) = grade([tmp_path]).students
    assert student.report is None
    assert [f.key for f in student.findings] == ["grade.bad_variant"]
    assert student.findings[0].where.line == 3


# --- one bad submission never stops the batch ----------------------------------------------


def flat(text: str) -> str:
    """Terminal output with rich's line wrapping undone."""
    return " ".join(text.split())


def messages(student) -> list[str]:
    return [f.text() for f in student.findings]


def test_broken_files_are_isolated_and_reported_with_file_and_line():
    book = grade([BROKEN])
    by_name = {s.student: s for s in book.students}
    assert list(by_name) == ["좋은학생", "b-bad-yaml", "모르는문제", "잘못쓴칸", "두번쓴키", "f-not-utf8", "나쁜칸", "좋은칸"]
    assert by_name["좋은학생"].findings == [] and by_name["좋은학생"].score == 1
    assert by_name["좋은칸"].findings == [] and by_name["좋은칸"].score == 2

    bad = by_name["b-bad-yaml"]
    assert bad.report is None
    assert messages(bad) == [f"{BROKEN / 'b-bad-yaml.yaml'}:4:22: the '[' opened at line 4, column 13 is not closed: close it with ']' here"]

    unknown = by_name["모르는문제"]
    file = BROKEN / "c-unknown.yaml"
    assert [(f.key, f.where.line) for f in unknown.findings] == [
        ("grade.unknown_problem", 6),
        ("grade.unknown_row", 9),
        ("grade.unknown_stage_suggest", 11),  # sclaed: did you mean scaled?
    ]
    assert messages(unknown)[0] == (
        f"{file}:6:15: dog-bone/먹었다/scores: no problem 'dog-bone' in this problem set; its problems are: cat-fish"
    )
    assert unknown.score == 1  # the known answer is still marked

    malformed = by_name["잘못쓴칸"]
    assert [(f.key, f.where.line, f.where.column) for f in malformed.findings] == [
        ("grade.in_item", 6, 15),
        ("grade.boolean", 7, 22),
        ("grade.wrong_count", 8, 16),
    ]
    assert "cat-fish/먹었다/scores: " in messages(malformed)[0]
    assert "'yes' reads as yes/no" in messages(malformed)[1]
    assert messages(malformed)[2].endswith("cat-fish/먹었다/weights: 2 numbers given, 3 expected")
    assert [i.verdict for i in malformed.report.items[:4]] == ["missing", "missing", "missing", "correct"]

    duplicate = by_name["두번쓴키"]
    assert [(f.key, f.where.line) for f in duplicate.findings] == [("grade.duplicate_key", 7)]
    assert [i.verdict for i in duplicate.report.items[:2]] == ["missing", "correct"]

    assert messages(by_name["f-not-utf8"]) == [f"{BROKEN / 'f-not-utf8.yaml'}: not UTF-8 text (at byte 12)"]
    bad_cell = by_name["나쁜칸"]
    assert [(f.key, f.where.line, f.where.column) for f in bad_cell.findings] == [("grade.in_item", 2, 4)]
    assert "could not read '?'" in messages(bad_cell)[0]

    rows = read_gradebook(book.csv)
    assert [r["score"] for r in rows] == ["1", "", "1", "1", "1", "", "1", "2"]
    assert rows[1]["errors"].startswith(str(BROKEN / "b-bad-yaml.yaml") + ":4:22: the '[' opened at line 4, column 13 is not closed")
    assert cells(rows[1], M) == ["|"] * 4  # no marks at all, not zeros


@pytest.mark.parametrize(
    ("answer", "values", "key", "verdict"),
    [
        ("[1, 6, 4]", (1.0, 6.0, 4.0), None, "correct"),
        ('"1 6 4"', (1.0, 6.0, 4.0), None, "correct"),
        ('"3/1 - 2, sqrt(36), 2^2"', (1.0, 6.0, 4.0), None, "correct"),
        ("[01, 6, 4]", (1.0, 6.0, 4.0), None, "correct"),
        ("[017, 6, 4]", (17.0, 6.0, 4.0), None, "partial"),  # seventeen, not YAML 1.1's octal 15
        ("[1:30, 6, 4]", None, "grade.in_item", "missing"),  # not YAML 1.1's sexagesimal 90
        ("[0x1, 6, 4]", None, "grade.in_item", "missing"),
        ("[1, on, 4]", None, "grade.boolean", "missing"),
        ("[1, ~, 4]", None, "grade.empty_cell", "missing"),
        ("[1, [6], 4]", None, "grade.not_a_number", "missing"),
        ('[1, "6 7", 4]', None, "grade.one_number", "missing"),
        ("{a: 1}", None, "grade.bad_answer_shape", "missing"),
        ("", None, None, "missing"),  # left blank: missing, not an error
        ("[]", None, None, "missing"),
        ("!!python/object/apply:os.system ['echo pwned']", None, "grade.in_item", "missing"),
        ("'=1+2, 6, 4'", None, "grade.in_item", "missing"),
        ("[1, 6]", (1.0, 6.0), "grade.wrong_count", "missing"),
    ],
)
def test_yaml_answers_are_read_as_typed_never_as_yaml_1_1(tmp_path, answer, values, key, verdict):
    text = f"student: s\nproblem_set: {SET}\nanswers:\n  cat-fish:\n    {M}:\n      scores: {answer}\n"
    sub = gradebook.read_yaml_text(text, "a.yaml")
    assert sub.answers[("cat-fish", M, "scores")].values == values
    (tmp_path / "a.yaml").write_text(text, "utf-8")  # the same text, graded as grade grades a file
    (student,) = grade([tmp_path / "a.yaml"]).students
    assert [f.key for f in student.findings] == ([key] if key else [])
    assert all(f.where.line == 6 for f in student.findings)
    assert student.report.items[0].verdict == verdict


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ("", "grade.empty_file", None),
        ("- a\n- b\n", "grade.not_answer_file", 1),
        ("student: a\nstudent: b\n", "grade.duplicate_key", 2),
        ("student: a\nanswer: {}\n", "grade.unknown_key_suggest", 2),  # did you mean answers?
        ("student: a\n---\nstudent: b\n", "yaml.multiple_documents", 2),
        ("student: [a\n", "yaml.unclosed_bracket", 1),  # where the ']' is missing, not the next line
    ],
)
def test_yaml_file_problems(text, key, line):
    sub = gradebook.read_yaml_text(text, "x.yaml", default_student="x")
    assert sub.findings[0].key == key
    assert sub.findings[0].where.line == line


def test_an_alias_bomb_is_refused_quickly():
    bomb = "a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    text = bomb + f"student: s\nanswers:\n  cat-fish:\n    {M}:\n      scores: [*c, *c, *c]\n"
    sub = gradebook.read_yaml_text(text, "bomb.yaml")
    assert sub.answers[("cat-fish", M, "scores")].values is None
    assert {f.key for f in sub.findings} == {"grade.unknown_key", "grade.not_a_number"}


USED_COLUMNS = "(a column is read when it is the student's name, the variant, problem_set or problem/row/stage)"


def test_csv_reading_rules(tmp_path):
    path = tmp_path / "form.csv"
    path.write_bytes(
        (
            "Timestamp, Student ,Variant,cat-fish/먹었다/scores,cat-fish/먹었다/scores,cat-fish/먹었다/scaled,bad/column\r\n"
            "t1,가,,1 6 4,1 6 4,\"0.71, 4.24, 2.83\",\r\n"
            ",,,,,,\r\n"  # a blank row is skipped
            "t2,나\r\n"  # a short row: the rest is blank
            "t3,,12,,,,,extra\r\n"
        ).encode()
    )
    header, unused, *subs = gradebook.read_answer_file(path)
    assert (header.student, header.line, header.readable) == ("", 1, False)  # the header's problems: said once, for the file
    assert [f.key for f in header.findings] == ["grade.bad_column", "grade.duplicate_column"]
    assert unused.text() == f"{path}:1: not used: 'Timestamp' " + USED_COLUMNS
    assert [s.student for s in subs] == ["가", "나", ""]
    assert [s.line for s in subs] == [2, 4, 5]
    assert subs[0].answers[("cat-fish", M, "scaled")].values == (0.71, 4.24, 2.83)
    assert ("cat-fish", M, "scores") not in subs[0].answers  # a duplicated column is used for nobody
    assert subs[0].findings == [] and subs[1].findings == []
    assert [f.key for f in subs[2].findings] == ["grade.no_student", "grade.extra_cells"]
    assert subs[2].variant == 12


def test_csv_without_a_student_column_is_one_error(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("who,cat-fish/먹었다/scores\r\nkim,1 6 4\r\n", "utf-8")
    (sub,) = gradebook.read_answer_file(path)
    assert not sub.readable and [f.key for f in sub.findings] == ["grade.csv_no_student"]


# --- reading plain numbers fast, exactly as the quiz does ---------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.decimals(min_value=-10**6, max_value=10**6, places=4, allow_nan=False),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([" ", ", ", ",", "  ", "\t", " , "]),
)
def test_the_fast_path_reads_exactly_what_the_parser_reads(numbers, separator):
    for text in (separator.join(f"{n:f}" for n in numbers), "(" + ", ".join(f"{n:f}" for n in numbers) + ")"):
        assert [repr(v) for v in gradebook.parse_cells(text)] == [repr(v) for v in parse_row(text)]


_DECIMAL = st.decimals(min_value=-10**15 + 1, max_value=10**15 - 1, places=5, allow_nan=False).map(lambda n: f"{n:f}")


_WORKED_CELL = st.one_of(
    _DECIMAL,
    _DECIMAL.map(lambda n: n + "%"),
    st.tuples(_DECIMAL, st.sampled_from(["0", "0.0", "4", "3", "0.001", "1e3", "7.25", "0.00001"])).map("/".join),
    st.tuples(_DECIMAL, _DECIMAL.map(lambda n: n.lstrip("-"))).map("/".join),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_WORKED_CELL, min_size=1, max_size=5), st.sampled_from([" ", ", ", ",", "  ", "\t", " , "]), st.sampled_from(["{}", "({})", "[{}]", " {} "]))
def test_percentages_and_quotients_are_read_exactly_as_the_parser_reads_them(cells, separator, wrap):
    text = wrap.format(separator.join(cells))
    try:
        expected = [repr(v) for v in parse_row(text)]
    except AttnTutorError as error:
        with pytest.raises(type(error)) as raised:
            gradebook.parse_cells(text)
        assert raised.value.problems[0].key == error.problems[0].key
    else:
        assert [repr(v) for v in gradebook.parse_cells(text)] == expected


@pytest.mark.parametrize(
    "text",
    ["-0", "-0.0 1", "[0.5 -2]", "(1 -2)", "1 - 2", "1,,2", "(1, 2", "１ ２", "1e3", ".5", "5.", "78.6%", "-0%", "0.1% 0.2%",
     "1/0", "-0/4", "1/4 -2/4", "1 /4", "50 %", "1/4%", "1e12/0.001", "999999999999999/0.5", "1/3, 2/3", "(8.48/4, 11.32/4)",
     "1" + " 1" * 500, "1%" + " 1%" * 400],
)  # fmt: skip
def test_the_fast_path_agrees_on_edge_cases(text):
    try:
        expected = [repr(v) for v in parse_row(text)]
    except Exception as error:  # noqa: BLE001 - the same refusal, whatever it is
        with pytest.raises(type(error)):
            gradebook.parse_cells(text)
    else:
        assert [repr(v) for v in gradebook.parse_cells(text)] == expected


# --- a class is marked as the reference marks it ---------------------------------------------

_CH13 = None


_MARKERS: dict = {}


def _ch13():
    global _CH13
    if _CH13 is None:
        from attn_tutor.problems.load import load_problem_set
        from attn_tutor.solve import engine

        _CH13 = [(p, engine.solve(p)) for p in load_problem_set("ch13").problems]
    return _CH13


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_runs_marker_marks_as_the_reference_does(data):
    """Every ch13 problem (masks, several heads, cross-attention, projections, no values)."""
    import numpy as np

    from attn_tutor.marking import marker as grading

    problem, solution = data.draw(st.sampled_from(_ch13()), label="problem")
    token = data.draw(st.sampled_from(problem.asked_rows), label="row")
    policy = data.draw(st.sampled_from(gradebook.POLICIES), label="policy")
    row = problem.row_index(token)
    rows = {stage: np.array(solution.stage_row(stage, row), dtype=float) for stage in problem.stages}
    slip = data.draw(st.sampled_from((None, *problem.stages)), label="slip")
    if slip is not None:
        mistakes = mistaken_rows(solution, row, slip, {})
        if mistakes and data.draw(st.booleans(), label="known mistake"):
            rows[slip] = np.nan_to_num(data.draw(st.sampled_from(mistakes), label="mistake")[1])
        else:
            rows[slip] = rows[slip] + data.draw(st.sampled_from([-1.0, -0.01, 0.008, 0.5]), label="shift")
        stages = list(problem.stages)
        for later in stages[stages.index(slip) + 1 :]:
            if data.draw(st.booleans(), label=f"carry {later}"):
                rows[later] = grading.carry_forward(solution, row, later, rows[stages[stages.index(later) - 1]])
    decimals = data.draw(st.sampled_from([1, 2, 3, 4]), label="decimals")
    answers = {}
    for stage in problem.asked_stages:
        if data.draw(st.integers(0, 9), label=f"blank {stage}") == 0:
            answers[stage] = None
        else:
            answers[stage] = tuple(round(float(v), decimals) + 0.0 for v in np.nan_to_num(rows[stage]))
    marker = _MARKERS.setdefault(policy, grading.Marker(follow_through=policy))  # memory shared across examples
    fast = marker.row(solution, row, answers, mode="exam")
    slow = reference_mark_row(solution, row, answers, mode="exam", follow_through=policy)
    assert [item.to_dict() for item in fast] == [item.to_dict() for item in slow]


# --- spreadsheets and files ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-1", "'-1"),  # text that looks like a number is still text
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("김민지", "김민지"),
        ("a=b", "a=b"),
        (-1.5, "-1.5"),  # numbers stay numbers
        (0.5, "0.5"),
        (1.0, "1"),
        (0.33333, "0.33"),  # points as a person reads them: two places, half up
        (1042, "1042"),
        (None, ""),
    ],
)
def test_csv_cells_neutralise_formulas_but_keep_numbers(value, written):
    assert gradebook.csv_cell(value) == written


def test_hostile_names_survive_the_round_trip(class_book):
    data = class_book.csv
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    names = [row[0] for row in rows[1:]]
    assert "'" + HOSTILE in names  # commas, quotes, a newline and Korean intact; the formula shown, not run
    assert "'@SUM(A1:A2)" in names
    assert all(not name.startswith(("=", "+", "-", "@")) for name in names)
    assert data.count(b"\r\n") == len(rows) and b"\n\xeb\x91\x98" in data  # the name's own newline is quoted


def test_json_has_every_students_full_report(class_book):
    data = json.loads(class_book.json)
    assert list(data) == ["follow_through", "students", "item_analysis", "distribution", "not_marked", "file_notes", "statistics_caution"]
    first = data["students"][0]
    assert list(first) == ["student", "file", "line", "variant", "problem_set", "errors", "report"]
    assert list(first["report"]) == ["student", "problem_set", "seed", "mode", "score", "max_score", "items"]
    assert first["report"]["mode"] == "exam" and first["report"]["problem_set"] == "tests/fixtures/grade/set.yaml"  # what marked it
    item = first["report"]["items"][0]
    assert list(item) == [
        "problem", "row", "stage", "expected", "given", "cells", "verdict", "diagnosis", "hints", "points", "max_points"
    ]  # fmt: skip
    assert data["distribution"][9] == {"bin": "90–100%", "students": 1}


def test_directories_are_searched_recursively_in_a_stable_order(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.yaml").write_text("student: z\n", "utf-8")
    (tmp_path / "a.yml").write_text("student: a\n", "utf-8")
    (tmp_path / "c.csv").write_text("student\r\nc\r\n", "utf-8")
    (tmp_path / ".hidden.yaml").write_text("student: hidden\n", "utf-8")
    (tmp_path / "notes.txt").write_text("student: txt\n", "utf-8")
    shutil.copy(SET, tmp_path / "set.yaml")  # a problem set among the answers is not an answer
    old = "student,variant,score,max_score,percent,p/r/scores points,p/r/scores diagnosis,problem_set,file,errors"
    (tmp_path / "old.csv").write_text(f"{old}\r\nx,,1,2,50,1,correct,ch13,x.yaml,\r\n", "utf-8")  # a gradebook grade wrote
    book = grade([tmp_path], exclude=[tmp_path / "c.csv"])
    assert [s.student for s in book.students] == ["a", "z"]
    # a file named on the command line is always read as answers
    book = grade([tmp_path / "set.yaml"])
    assert [f.key for f in book.students[0].findings] == ["grade.unknown_key", "grade.problems_for_answers"]


# --- the fast reader reads what the composing reader reads ------------------------------------

_HEAD = f"student: s\nproblem_set: {SET}\n"


_READ_CASES = [
    *(p.read_text("utf-8", errors="replace") for p in sorted((FIXTURES / "class").glob("*.yaml"))),
    *(p.read_text("utf-8", errors="replace") for p in sorted((FIXTURES / "broken").glob("*.yaml"))),
    _HEAD + "answers:\n",
    _HEAD + "variant: 7\nanswers: {}\n",
    "answers: ~\nstudent: '  s  '\n",
    "student: s\nstudent: t\n",
    "student: ~\n",
    "student: ''\n",
    "student: [a]\n",
    "problem_set: null\n",
    "variant: x\n",
    "variant: !!int 3\n",
    "answers: ''\n",
    "answers: []\n",
    "a: 1\n---\nb: 2\n",
    "%YAML 1.1\n---\nstudent: s\n",
    "&a student: s\n",
    "student: &a s\nproblem_set: *a\n",
]


_VALUES = [
    "[1, 6, 4]", "[01, 6, 4]", "[017, 6, 4]", "[1:30, 6, 4]", "[0x1, 6, 4]", "[1, on, 4]", "[1, ~, 4]", "[1, '', 4]",
    "[1, [6], 4]", '[1, "6 7", 4]', "['1', \"2\", 3.50]", "[-0, 1e3, 4]", "[1/4, 1, 2]", "{a: 1}", "", "~", "null", "[]",
    "''", '"  "', "yes", "'yes'", "no", "1 6 4", "0.71 4.24 2.83", '"0.71, 4.24, 2.83"', "(1, 6, 4)", "'=1+2, 6, 4'",
    "1:30", "2024-01-01", "|\n        1 6 4", "!!str 1 6 4", "&x [1, 6, 4]", "[1, 6]", "1 6 x", '"1/4 2/4"', "'78.6%'",
]


_READ_CASES += [_HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: {value}\n" for value in _VALUES]


_READ_CASES += [
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n      scores: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}: [1, 6, 4]\n",
    _HEAD + "answers:\n  cat-fish: 3\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      ? [a]\n      : 1\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n  cat-fish:\n    {G}: {{}}\n",
]


# The plain reader's rules (attn_tutor.core.yamlread.PlainReader), each beside its near misses.
_ANSWERS = _HEAD + f"answers:\n  cat-fish:\n    {M}:\n"


_READ_CASES += [_ANSWERS + f"      scores: {value}\n" for value in [
    "[1, 6, 4] # a comment", "[1, 6, 4]# no space", "[1, 6, 4]x", "[1, 6, 4,]", "[ ]", "[1 6, 4]", "[ 1 ,6 ,  4 ]",
    "[-1, -0, 4]", "[- 1, 6, 4]", "[1, 6, 4", "[1, [6], 4]", "[1, {a: 1}]", "[a: 1]", "[1, ?, 4]", "[1, 6 # c, 4]",
    "[1, &a 6, 4]", "[1, *a, 4]", "[1, !!str 6, 4]", "[1, -, 4]", "- 1", "-1 6 4", "-1", "1:30", "a: b", "a:", "1#2",
    "1 #2", "1 6 4   ", "1  6  4 # c", "'1 6 4' # c", "'1 6 4'x", "'it''s'", "'1 # 6'", "\"1 # 6\"", "\"a\\\"b\"",
    "\"1\\t6\\n4\"", "\"\\x41\"", "\"\\u0041\"", "\"1 6 4", "'1 6 4", "\"\"", "'  '", "~ # c", "", "   # c", "? x",
    "%x", "@x", "`x`", "|", ">", "{}", "!x 1", "&a 1", "*a", "1 6 4\u00a0", "１ ６ ４", "78.6%", "\"1/4 2/4\"", "😀 1",
    "[1, 6, 4]\u3000", "ok", "Yes", "NULL", "0x1F", "1e3", ".5", "=1+2", "1 6 4\n        continued", "'1 6\n        4'",
]]  # fmt: skip


_READ_CASES += [
    _ANSWERS + "      scores: [1, 6, 4]\n      scaled: [0.71, 4.24, 2.83]\n",  # the ordinary shape
    _ANSWERS.replace("\n", "\r\n") + "      scores: [1, 6, 4]\r\n",  # CRLF line ends
    _ANSWERS + "      scores: [1, 6, 4]\r\n",  # mixed line ends
    _ANSWERS + "      scores: [1, 6, 4]\r      scaled: [1]\n",  # a lone CR is a line break to YAML
    _ANSWERS + "      scores: [1, 6, 4]",  # no final newline
    _ANSWERS + "      scores:",  # an empty value at the very end
    _ANSWERS + "      scores:   \n      scaled: # nothing yet\n",
    _HEAD + f"answers:\n cat-fish:\n   {M}:\n      scores: [1, 6, 4]\n   {G}:\n      scores: [1]\n",  # odd indents
    _HEAD + f"answers:\n    cat-fish:\n     {M}:\n         scores: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n     scaled: [1]\n",  # between two levels
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n        scaled: [1]\n",  # deeper after a value
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n        # a deeper comment\n      scaled: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n# a comment at column 1\n\n   \n      scores: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n  {M}:\n      scores: [1, 6, 4]\n",  # a row beside its problem
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n  {G}:\n      scores: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n    - scores: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      - [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores :  [1, 6, 4]\n      scaled   : '1 6 4'\n",  # spaces before colons
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores:[1, 6, 4]\n",  # key:value is one plain scalar
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores:\t[1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n\tscores: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n      scores: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1]\n    {M}:\n      scaled: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}: &row\n      scores: [1]\n  widget:\n    {M}: *row\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}: !!map\n      scores: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: |\n        1 6 4\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      ? scores\n      : [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}: {{scores: [1, 6, 4]}}\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      yes: [1, 6, 4]\n",  # keys YAML reads as other than text
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      1: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      ~: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      <<: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      'scores': [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      s#c: [1]\n      s #c: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      {'k' * 1100}: [1, 6, 4]\n",  # past YAML's simple-key limit
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      {'k' * 900}: [1, 6, 4]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n...\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\n---\nstudent: t\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6\x07, 4]\n",  # a control character
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\ufeff\n",  # a BOM mid-text
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\u2028      scaled: [1]\n",
    _HEAD + f"answers:\n  cat-fish:\n    {M}:\n      scores: [1, 6, 4]\x85\n",
    "---\n" + _ANSWERS + "      scores: [1, 6, 4]\n",  # an explicit document start
    "# a heading\n--- # the document\n" + _ANSWERS + "      scores: [1, 6, 4]\n",
    "--- student: s\n",
    "---\n---\nstudent: s\n",
    "%YAML 1.1\n---\n" + _ANSWERS + "      scores: [1, 6, 4]\n",
    "\ufeff" + _ANSWERS + "      scores: [1, 6, 4]\n",  # a BOM at the start
    "  student: s\n  problem_set: x.yaml\n",  # the document's mapping indented
    "  student: s\nproblem_set: x.yaml\n",
    "student: s\n" + "problem_set: \"x.yaml\"\nvariant: '7'\n",
    "student: \"\\\"Kim\\\" \\u0041\"\n",
    "student: 김 # the name\nproblem_set: ~\n",
    "student: [a, b]\n",
    "student:\n  name: s\n",
    "variant: 7 # seven\n",
    "variant: -7\n",
    "variant: [7]\n",
    "answers:\n",
    "answers: # none yet\nstudent: s\n",
    "answers: x\n",
    "answers: [1]\n",
    "answers:\n  cat-fish: ~\n",
    "answers:\n  cat-fish:\n    row: 1\n",
    "teacher: x\n",
    "# only a comment\n",
    "",
    "student:: s\n",
    "student: s: t\n",
    "...: s\n",
]


@pytest.mark.parametrize("text", _READ_CASES)
def test_the_plain_reader_reads_what_the_composing_reader_reads(text):
    fast = yaml_reader.read_plain_file(text, "x.yaml", default_student="x")
    slow = yaml_reader.read_nodes(text, "x.yaml", default_student="x")
    assert fast is None or fast == slow  # None: the composing reader's turn
    assert gradebook.read_yaml_text(text, "x.yaml", default_student="x") == slow


def test_ordinary_answer_files_take_the_fast_reader():
    for path in sorted(CLASS.glob("*.yaml")):
        assert yaml_reader.read_plain_file(path.read_text("utf-8"), str(path)) is not None, path.name


def test_the_gradebook_file_is_its_typed_rows_written_cell_by_cell(class_book):
    book = grade([CLASS, BROKEN], problems=str(SET))
    for graded in (class_book, book):
        out = io.StringIO(newline="")
        csv.writer(out, lineterminator="\r\n").writerows(
            [gradebook.csv_cell(value) for value in row] for row in graded.typed_rows
        )
        assert graded.csv == ("\ufeff" + out.getvalue()).encode("utf-8")


def test_the_json_file_is_every_students_report_dumped_whole():
    book = grade([CLASS, BROKEN], problems=str(SET))
    data = book.json.decode("utf-8")
    students = [json.dumps(s.to_dict(), ensure_ascii=False, allow_nan=False) for s in book.students]
    assert data.split('"students": [\n', 1)[1].split("\n],\n", 1)[0] == ",\n".join(students)
    assert json.loads(data)["students"] == [s.to_dict() for s in book.students]
