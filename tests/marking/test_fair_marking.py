"""Marking that is fair to every student: simulated students on many generated problems.

* Correct work rounded half up to the asked decimals at every stage, carrying the
  rounded numbers forward, is always ``correct`` — exam and practice, any decimals.
* Every diagnosis, simulated here with numpy independently of the marker, is found
  whenever it changes the numbers clearly (more than twice the match window).
* A row that is diagnosed really is that mistake (within the window).
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
from helpers.mistakes import half_up, simulated_mistakes
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor.core.model import Head, Problem
from attn_tutor.core.rounding import round_half_up
from attn_tutor.marking import marker as grading
from attn_tutor.marking import tolerance
from attn_tutor.solve import engine
from attn_tutor.variants.generate import random_problem

# --- problems a teacher or the generator would write -----------------------------------

one_decimal = st.integers(-20, 20).map(lambda n: n / 10)
small_int = st.integers(-3, 3)


@st.composite
def teacher_problems(draw):
    """Plain, causal or explicit masks, one or two heads, integer or one-decimal entries, any decimals."""
    n, d = draw(st.integers(2, 4)), draw(st.sampled_from([1, 2, 3, 4]))
    entry = draw(st.sampled_from([small_int, one_decimal]))

    def matrix(rows, cols):
        return tuple(tuple(draw(st.lists(entry, min_size=cols, max_size=cols))) for _ in range(rows))

    heads = tuple(Head(Q=matrix(n, d), K=matrix(n, d), V=matrix(n, draw(st.integers(1, 2)))) for _ in range(draw(st.integers(1, 2))))
    mask = draw(st.sampled_from(["none", "causal", "explicit"]))
    if mask == "explicit":
        rows = [tuple(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))) for _ in range(n)]
        mask = tuple(r if any(r) else (1,) + r[1:] for r in rows)
    divide_by = draw(st.sampled_from([None, None, 1.0, 2.0, 3.0]))
    return Problem(
        id="p",
        tokens=tuple(f"t{i}" for i in range(n)),
        heads=heads,
        multi_head=len(heads) > 1,
        mask=mask,
        divide_by=divide_by,
        decimals=draw(st.integers(0, 4)),
        tolerance=draw(st.sampled_from([None, None, None, 0.001])),
    )


def worked_correctly(solution, row, decimals, shown=False):
    """Each stage computed from the previous stage's row as carried, rounded half up to ``decimals``.

    ``shown``: carried from the exact row as displayed (practice mode), not from the student's own.
    """
    problem = solution.problem
    rows, carried = {}, None
    for stage in problem.stages:
        if stage == "scores":
            exact = solution.stage_row(stage, row)
        else:
            exact = grading.carry_forward(solution, row, stage, carried)
        typed = np.nan_to_num(half_up(exact, decimals))  # a masked score may be typed as anything: 0
        rows[stage] = typed
        carried = np.nan_to_num(half_up(solution.stage_row(stage, row), decimals)) if shown else typed
    return rows


@settings(max_examples=120, deadline=None)
@given(teacher_problems(), st.data())
def test_correct_work_rounded_as_asked_is_never_marked_down(problem, data):
    if problem.tolerance is not None and tolerance.too_tight(problem):
        problem = problem._replace(tolerance=None)  # validate warns about that one; the default is the promise
    solution = engine.solve(problem)
    row = data.draw(st.integers(0, len(problem.tokens) - 1), label="row")
    mode = data.draw(st.sampled_from(["exam", "practice"]), label="mode")
    rows = worked_correctly(solution, row, problem.decimals, shown=mode == "practice")
    answers = {stage: rows[stage].tolist() for stage in problem.stages}
    for item in grading.mark_row(solution, row, answers, mode=mode, follow_through="none"):
        assert item.verdict == "correct" and item.points == 1.0, (item, tolerance.rounding_error(problem, item.stage))


def test_the_default_tolerance_fits_decimals():
    """Rounding as asked moves a score by half a unit and nothing else: the scores' window is that
    half unit; integer scores divided exactly give scaled scores as exact; the weights and the output
    add only what carried rounded rows move them (issue 35: no wider)."""
    cat = Problem(id="c", tokens=("a", "b", "c"), heads=(Head(Q=((2, 1), (1, 2), (1, 3)), K=((1, 0), (0, 2), (1, 1)), V=((1, 0), (0, 1), (1, 1))),))
    one = cat._replace(decimals=1)
    for decimals in (1, 2, 3, 4):
        s = 0.5 * 10.0**-decimals
        problem = cat._replace(decimals=decimals)
        scores, scaled, weights, output = (tolerance.tolerance(problem, stage) for stage in problem.stages)
        assert scores == pytest.approx(s, abs=1e-15) and scaled == pytest.approx(s, abs=1e-15)
        assert s < weights < 1.5 * s and s < output < 3 * s  # not s + the old bounds' weights · Σ|V|
    assert [tolerance.tolerance(cat._replace(tolerance=0.01), stage) for stage in cat.stages] == [0.01] * 4
    # the chapter's row typed to 1 place, as asked, is right
    sol = engine.solve(one)
    items = grading.mark_row(sol, 2, {"scores": [1, 6, 4], "scaled": [0.7, 4.2, 2.8], "weights": [0.0, 0.8, 0.2], "output": [0.2, 1.0]})
    assert [i.verdict for i in items] == ["correct"] * 4
    # ... and to 2 places when 3 are asked is not: 0.71 is 0.0029 from 0.7071, 0.0005 is the scaled scores' window
    item = grading.mark_stage(engine.solve(cat), 2, "scaled", [0.71, 4.24, 2.83])
    assert item.verdict == "wrong"


def test_validate_warns_when_a_tolerance_is_too_tight(run_cli, tmp_path):
    path = tmp_path / "tight.yaml"
    path.write_text(
        "problems:\n  - id: p\n    tokens: [a, b]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n"
        "    decimals: 1\n    tolerance: 0.05\n",
        encoding="utf-8",
    )
    result = run_cli("validate", str(path))
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # long lines wrap to the terminal's width
    assert f"{path}: valid" in said
    assert f"warning: {path}:2: problem p: tolerance 0.05 is tighter than decimals: 1 allows" in said
    assert "moves the weights by up to 0.052" in said  # the worst asked stage (no V: weights): 0.05 + 0.0016
    assert "leave tolerance out" in said
    ko = run_cli("validate", str(path), "--lang", "ko")
    assert ko.exit_code == 0 and "경고:" in ko.output and "tolerance를 빼서" in " ".join(ko.output.split())
    fine = tmp_path / "fine.yaml"
    fine.write_text(path.read_text(encoding="utf-8").replace("decimals: 1", "decimals: 3"), encoding="utf-8")
    assert "warning" not in run_cli("validate", str(fine)).output


TIGHT_SET = "problems:\n  - id: p\n    tokens: [a, b]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n    V: [[1, 2], [3, 4]]\n"


@pytest.mark.parametrize(
    ("decimals", "tol", "refused"),
    [
        (2, "0.001", True),  # the issue's case: the printed 0.67 is 0.0033 from the exact 2/3
        (2, "0.0049", True),
        (2, "0.005", False),  # exactly half a unit: the printed answer is right
        (3, "0.0004", True),
        (3, "0.0005", False),
        (0, "0.4", True),
        (0, "0.5", False),
        (1, "0.049", True),
        (4, "0.00005", False),
        (4, "1e-5", True),
    ],
)
def test_a_tolerance_below_half_a_printed_unit_is_an_error_everywhere(run_cli, tmp_path, decimals, tol, refused):
    path = tmp_path / "set.yaml"
    path.write_text(TIGHT_SET + f"    decimals: {decimals}\n    tolerance: {tol}\n", encoding="utf-8")
    checked = run_cli("validate", str(path))
    said = " ".join(checked.output.split())
    if not refused:
        assert checked.exit_code == 0 and "less than half a unit" not in said, checked.output
        return
    assert checked.exit_code == 1, checked.output
    half = {0: "0.5", 1: "0.05", 2: "0.005", 3: "0.0005", 4: "0.00005"}[decimals]
    assert f"{path}:8:16: problems[0].tolerance is" in said  # file:line:column of the value
    assert f"less than half a unit in the last of decimals: {decimals} places ({half})" in said
    assert f"make it at least {half}" in said
    ko = " ".join(run_cli("validate", str(path), "--lang", "ko").output.split())
    assert f"반 단위({half})보다 작은" in ko
    out = tmp_path / "sheet.md"
    exported = run_cli("export", str(path), "-f", "md", "-o", str(out))
    assert exported.exit_code == 1 and "less than half a unit" in " ".join(exported.output.split())
    assert not out.exists()  # nothing written
    answers = tmp_path / "kim.yaml"
    answers.write_text("student: kim\nanswers:\n  p:\n    a:\n      scores: '1 0'\n", encoding="utf-8")
    csv = tmp_path / "grades.csv"
    graded = run_cli("grade", str(answers), "--problems", str(path), "--csv", str(csv))
    assert graded.exit_code == 1 and "less than half a unit" in " ".join(graded.output.split())
    assert not csv.exists()


# --- every diagnosis, simulated --------------------------------------------------------




def _distance(a, b, cells):
    with np.errstate(invalid="ignore"):
        return float(np.max(np.abs(np.asarray(a)[cells] - np.asarray(b)[cells])))


generated = st.builds(
    lambda seed, tokens, dim, causal, decimals: random_problem(seed, tokens=tokens, dim=dim, causal=causal)._replace(decimals=decimals),
    st.integers(0, 10_000),
    st.integers(2, 4),
    st.sampled_from([1, 2, 3]),
    st.booleans(),
    st.integers(1, 4),
)


@settings(max_examples=100, deadline=None)
@given(generated, st.data())
def test_every_simulated_mistake_is_found_when_it_changes_the_numbers(problem, data):
    solution = engine.solve(problem)
    row = data.draw(st.integers(0, len(problem.tokens) - 1), label="row")
    stage = data.draw(st.sampled_from(problem.stages), label="stage")
    mistakes = simulated_mistakes(solution, row, stage)
    if not mistakes:
        return
    cells = grading.marked_cells(solution, row, stage)
    exact = solution.stage_row(stage, row)
    window = grading.match_window(problem, stage)
    for code, made in mistakes:
        typed = np.nan_to_num(half_up(made, problem.decimals))  # the student rounds as asked
        item = grading.mark_stage(solution, row, stage, typed.tolist())
        if _distance(made, exact, cells) > 2 * window + grading.stage_tolerance(problem, stage):
            assert item.diagnosis is not None, (code, made, exact)
            # found as itself, or as a mistake tried before it whose row is the same here
            assert grading.DIAGNOSES.index(item.diagnosis) <= grading.DIAGNOSES.index(code), (code, item)
        if item.diagnosis == "rounding":
            assert item.diagnosis_detail is not None and item.diagnosis_detail.keep > item.diagnosis_detail.places


@settings(max_examples=150, deadline=None)
@given(generated, st.data())
def test_a_diagnosed_row_really_is_that_mistake(problem, data):
    """Random rows and rows near mistakes: a diagnosis names a mistake whose row this is."""
    solution = engine.solve(problem)
    row = data.draw(st.integers(0, len(problem.tokens) - 1), label="row")
    stage = data.draw(st.sampled_from(problem.stages), label="stage")
    exact = np.nan_to_num(solution.stage_row(stage, row))
    mistakes = simulated_mistakes(solution, row, stage)
    kind = data.draw(st.sampled_from(["random", "near mistake", "near exact"]), label="kind")
    if kind == "near mistake" and mistakes:
        base = np.nan_to_num(data.draw(st.sampled_from(mistakes), label="mistake")[1])
    elif kind == "random":
        base = np.array(data.draw(st.lists(st.integers(-9, 9), min_size=exact.size, max_size=exact.size)), dtype=float) / 3
    else:
        base = exact
    shift = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.0, 0.002, -0.004, 0.01, 0.03, -0.2]), min_size=exact.size, max_size=exact.size)))
    typed = np.round(base + shift, 4)
    item = grading.mark_stage(solution, row, stage, typed.tolist())
    if item.diagnosis is not None:
        cells = grading.marked_cells(solution, row, stage)
        window = grading.match_window(problem, stage)
        rows = [made for code, made in mistakes if code == item.diagnosis]
        assert any(_distance(typed, made, cells) <= window + 1e-9 for made in rows), (item, rows)


# --- masks: grade takes a row with the masked cells left out, as the quiz does -----------


def test_the_quiz_and_grade_fill_in_left_out_masked_cells_with_one_rule():
    assert grading.full_row([1, 2], [True, True, False, False]) == [1.0, 2.0, 0.0, 0.0]
    assert grading.full_row([1, 2, 3, 4], [True, True, False, False]) == [1.0, 2.0, 3.0, 4.0]
    assert grading.full_row([1, 2, 3], [True, True, False, False]) is None
    assert grading.full_row([1], [True, True]) is None  # nothing masked: nothing to leave out


def test_grade_accepts_a_causal_row_with_the_masked_cells_left_out(tmp_path):
    from helpers.grading import grade

    (tmp_path / "set.yaml").write_text(
        "problems:\n  - id: c\n    tokens: [a, b, c]\n    Q: [[2, 1], [1, 2], [1, 3]]\n    K: [[1, 0], [0, 2], [1, 1]]\n"
        "    V: [[1, 0], [0, 1], [1, 1]]\n    mask: causal\n",
        encoding="utf-8",
    )
    (tmp_path / "kim.yaml").write_text(
        "student: kim\nanswers:\n  c:\n    b:\n      scores: '1 4'\n      scaled: [0.707, 2.828]\n"
        "      weights: '0.107 0.893'\n    c:\n      weights: '0.1 0.2'\n",
        encoding="utf-8",
    )
    book = grade([tmp_path / "kim.yaml"], problems=str(tmp_path / "set.yaml"))
    (student,) = book.students
    items = {(i.row, i.stage): i for i in student.report.items}
    assert [items[("b", s)].verdict for s in ("scores", "scaled", "weights")] == ["correct"] * 3
    assert items[("b", "weights")].given == (0.107, 0.893, 0.0)
    (finding,) = student.findings  # two numbers for a row that may see all three keys
    assert finding.text().endswith("c/c/weights: 2 numbers given, 3 expected")


def test_grade_says_both_counts_for_a_masked_row_of_the_wrong_length(tmp_path):
    from helpers.grading import grade

    (tmp_path / "set.yaml").write_text(
        "problems:\n  - id: c\n    tokens: [a, b, c]\n    Q: [[2, 1], [1, 2], [1, 3]]\n    K: [[1, 0], [0, 2], [1, 1]]\n    mask: causal\n",
        encoding="utf-8",
    )
    (tmp_path / "kim.yaml").write_text("student: kim\nanswers:\n  c:\n    b:\n      scores: '1'\n", encoding="utf-8")
    (student,) = grade([tmp_path / "kim.yaml"], problems=str(tmp_path / "set.yaml")).students
    assert student.findings[0].text().endswith("c/b/scores: 1 numbers given, 3 expected (or 2 with the masked cells left out)")


def test_a_mistake_is_still_found_when_the_students_rounding_uses_up_a_tight_tolerance():
    """A teacher's tolerance of 0.001 with 2 decimals asked: the column softmax typed to 2 places is still found."""
    cat = Problem(
        id="c", tokens=("a", "b", "c"), heads=(Head(Q=((2, 1), (1, 2), (1, 3)), K=((1, 0), (0, 2), (1, 1))),),
        decimals=2, tolerance=0.001,
    )  # fmt: skip
    sol = engine.solve(cat)
    e = np.exp(sol.head.scaled)
    column = (e / e.sum(axis=0))[0]
    typed = half_up(column, 2)
    assert _distance(typed, column, np.ones(3, bool)) > 0.001  # the rounding alone is beyond the tolerance
    assert grading.mark_stage(sol, 0, "weights", typed.tolist()).diagnosis == "column_softmax"


# --- the trivial-carry guard only guards -------------------------------------------------


def test_a_right_uniform_row_is_carried_as_usual():
    """All scores truly equal: the uniform weights typed right are correct, and the output from them too."""
    flat = Problem(id="f", tokens=("a", "b"), heads=(Head(Q=((1, 0), (1, 0)), K=((0, 1), (0, 2)), V=((1, 0), (3, 1))),))
    sol = engine.solve(flat)
    answers = {"scores": [0, 0], "scaled": [0, 0], "weights": [0.5, 0.5], "output": [2.0, 0.5]}
    assert [i.verdict for i in grading.mark_row(sol, 0, answers)] == ["correct"] * 4
    # a slip in the output after the right uniform weights: follow-through from them is possible again
    items = grading.mark_row(sol, 0, {**answers, "weights": [0.5, 0.5], "output": [2.0, 0.5]}, follow_through="full")
    assert items[3].verdict == "correct"
    guarded = grading.trivial_carry(sol, 0, "output", [0.5, 0.5])
    assert not guarded.any()
    assert grading.trivial_carry(sol, 0, "output", [0.0, 0.0]).all()  # wrong zeros are still refused


def test_the_issues_weights_0_9_0_8_are_not_rounding():
    """Exact weights (0.000, 1.000): a row 0.9 0.8 (summing to 1.7) is wrong, and no rounding explains it."""
    sharp = Problem(id="s", tokens=("a", "b"), heads=(Head(Q=((3, 3), (1, 0)), K=((0, 0), (3, 3))),))
    sol = engine.solve(sharp)
    assert [round(float(w), 3) for w in sol.stage_row("weights", 0)] == [0.0, 1.0]
    item = grading.mark_stage(sol, 0, "weights", [0.9, 0.8])
    assert (item.verdict, item.diagnosis) == ("wrong", None)


# --- the trivial-carry guard: no follow-through for work that needs no arithmetic ----------

CAT = (
    "problems:\n  - id: c\n    tokens: [a, b, c]\n    Q: [[2, 1], [1, 2], [1, 3]]\n    K: [[1, 0], [0, 2], [1, 1]]\n"
    "    V: [[1, 0], [0, 1], [1, 1]]\n    rows: [c]\n"
)
CAUSAL = CAT.replace("rows: [c]", "mask: causal\n    rows: [a]")
DIVIDE_BY_1 = CAT.replace("rows: [c]", "divide_by: 1\n    rows: [c]")

# (name, set, typed rows, verdict per stage): the chapter's row is scores 1 6 4, scaled
# 0.707 4.243 2.828, weights 0.023 0.786 0.191, output 0.214 0.977.
TRIVIAL = [
    ("the issue's one-hot chain: only the division earns follow-through", CAT,
     {"scores": "0 100 0", "scaled": "0 70.711 0", "weights": "0 1 0", "output": "0 1"},
     ["wrong", "follow_through", "wrong", "wrong"]),
    ("one-hot weights typed, a row of V copied", CAT,
     {"scores": "1 6 4", "scaled": "0.707 4.243 2.828", "weights": "1 0 0", "output": "1 0"},
     ["correct", "correct", "wrong", "wrong"]),
    ("scores all zero but one, large: one-hot weights from them", CAT,
     {"scores": "0 0 50", "scaled": "0 0 35.355", "weights": "0 0 1", "output": "1 1"},
     ["wrong", "follow_through", "wrong", "wrong"]),
    ("zero scores: zero scaled, uniform weights, the mean row of V", CAT,
     {"scores": "0 0 0", "scaled": "0 0 0", "weights": "0.333 0.333 0.333", "output": "0.667 0.667"},
     ["wrong", "wrong", "wrong", "wrong"]),
    ("constant scaled scores: uniform weights need no e^x", CAT,
     {"scores": "1 6 4", "scaled": "2 2 2", "weights": "0.333 0.333 0.333", "output": "0.667 0.667"},
     ["correct", "wrong", "wrong", "wrong"]),
    ("all-zero weights: the zero output", CAT,
     {"scores": "1 6 4", "scaled": "0.707 4.243 2.828", "weights": "0 0 0", "output": "0 0"},
     ["correct", "correct", "wrong", "wrong"]),
    ("divide_by 1: the scaled row is the scores row copied", DIVIDE_BY_1,
     {"scores": "1 7 4", "scaled": "1 7 4", "weights": "0.002 0.95 0.047", "output": "0.049 0.997"},
     ["partial", "partial", "follow_through", "follow_through"]),  # 7 copied: that cell earns nothing
    ("a slip carried through real arithmetic still earns follow-through", CAT,
     {"scores": "1 6 5", "scaled": "0.707 4.243 3.536", "weights": "0.019 0.657 0.324", "output": "0.343 0.981"},
     ["partial", "follow_through", "follow_through", "follow_through"]),
    ("one open key (causal first row): its weight 1 needs no e^x", CAUSAL,
     {"scores": "5 0 0", "scaled": "3.536 0 0", "weights": "1 0 0", "output": "1 0"},
     ["wrong", "follow_through", "correct", "correct"]),
]


@pytest.mark.parametrize(("name", "text", "typed", "verdicts"), TRIVIAL, ids=[case[0] for case in TRIVIAL])
def test_work_that_needs_no_arithmetic_of_its_stage_earns_no_follow_through(run_cli, tmp_path, name, text, typed, verdicts):
    import json

    (tmp_path / "set.yaml").write_text(text, encoding="utf-8")
    row = "a" if "causal" in text else "c"
    lines = ", ".join(f"{stage}: '{line}'" for stage, line in typed.items())
    (tmp_path / "kim.yaml").write_text(f"student: kim\nanswers:\n  c:\n    {row}: {{{lines}}}\n", encoding="utf-8")
    result = run_cli("grade", str(tmp_path / "kim.yaml"), "--problems", str(tmp_path / "set.yaml"), "--json", str(tmp_path / "g.json"))
    assert result.exit_code == 0, result.output
    (student,) = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))["students"]
    assert [item["verdict"] for item in student["report"]["items"]] == verdicts, student["report"]["items"]


# --- issue 35, rule 3: a tolerance marks a slip, no wider ---------------------------------


@settings(max_examples=80, deadline=None)
@given(teacher_problems(), st.data())
def test_a_value_outside_the_window_is_never_correct(problem, data):
    """Each marked cell nudged just past its window (a unit of the place after its ends), the rest
    of the row exact: that cell is never ``correct``, whatever mode; just inside, it always is."""
    problem = problem._replace(tolerance=None)
    solution = engine.solve(problem)
    row = data.draw(st.integers(0, len(problem.tokens) - 1), label="row")
    stage = data.draw(st.sampled_from(problem.stages), label="stage")
    exact = [float(v) for v in solution.stage_row(stage, row)]
    marked = grading.marked_cells(solution, row, stage)
    index = data.draw(st.sampled_from([i for i, m in enumerate(marked) if m]), label="cell")
    low, high = tolerance.window(exact[index], tolerance.tolerance(problem, stage), problem.decimals)
    unit = Decimal(1).scaleb(low.as_tuple().exponent - 1)
    typed = [0.0 if math.isnan(v) else v for v in exact]
    for value, right in ((low - unit, False), (high + unit, False), (low, True), (high, True)):
        typed[index] = float(value)
        item = grading.mark_stage(solution, row, stage, typed)
        assert (item.cells[index] == "correct") == right, (value, low, high)


RULE3 = Problem(id="r3", tokens=("a", "b", "c"), heads=(Head(Q=((2, -1), (1, 3), (-2, 1)), K=((1, 1), (0, -2), (3, 1)), V=((-3, 2), (1, -2), (2, 3))),))


@pytest.mark.parametrize(
    ("decimals", "stage", "row", "typed", "correct"),
    [
        (2, "output", 0, "whole", False),  # the issue's kind (-6 for -5.545): 2 3 for 1.648 2.441
        (2, "output", 0, "asked", True),
        (2, "output", 0, "one place", False),  # a digit that rounding as asked never gives
        (1, "output", 1, "asked", True),
        (3, "weights", 2, "asked", True),
        (3, "weights", 2, "two places", False),  # 2 places when 3 are asked: 0.005 was the old floor
        (3, "scores", 1, "asked", True),
        (4, "scaled", 0, "three places", False),
    ],
)
def test_rounding_as_asked_is_right_and_coarser_is_not(decimals, stage, row, typed, correct):
    problem = RULE3._replace(decimals=decimals)
    solution = engine.solve(problem)
    places = {"whole": 0, "one place": 1, "two places": 2, "three places": 3, "asked": decimals}[typed]
    exact = solution.stage_row(stage, row)
    given = [float(round_half_up(float(v), places)) if math.isfinite(v) else 0.0 for v in exact]
    if typed != "asked":
        assert [float(round_half_up(float(v), decimals)) for v in exact if math.isfinite(v)] != [v for v, e in zip(given, exact) if math.isfinite(e)]
    item = grading.mark_stage(solution, row, stage, given)
    assert (item.verdict == "correct") == correct, (item, tolerance.tolerance(problem, stage))
