"""A sampling answer marked: correct work rounded as asked is always right, each known mistake
is named when a student makes it, and a slip is never right."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from attn_tutor.core.rounding import rounded
from attn_tutor.kinds.sampling import engine, marking
from attn_tutor.kinds.sampling.model import SamplingProblem, Step


def problem(logits, T=1.0, decimals=3, **options) -> SamplingProblem:
    tokens = ("생선을", "우유를", "밥을", "물을", "fish", "milk")[: len(logits)]
    target = options.pop("target", tokens[0])
    return SamplingProblem(
        id="p", tokens=tokens, steps=(Step(tuple(logits), target),), temperature=T, decimals=decimals,
        ask=("scaled", "exp", "probabilities", "kept", "pick", "loss"), **options,
    )  # fmt: skip


def shown(values, decimals):
    return tuple(v if v is None or isinstance(v, str) else rounded(v, decimals) for v in values)


@st.composite
def problems(draw):
    n = draw(st.integers(3, 6))
    logits = tuple(draw(st.lists(st.integers(-30, 40), min_size=n, max_size=n, unique=True)))
    T = draw(st.sampled_from((0.5, 0.8, 1.0, 1.5, 2.0)))
    cut = draw(st.sampled_from(("none", "k", "p")))
    options: dict = {}
    if cut == "k":
        options["top_k"] = draw(st.integers(1, n - 1))
    elif cut == "p":
        options["top_p"] = draw(st.sampled_from((0.5, 0.75, 0.9)))
    if draw(st.booleans()):
        options["draw"] = draw(st.integers(1, 99)) / 100
    return problem(tuple(z / 10 for z in logits), T, draw(st.integers(1, 4)), **options)


def fair(made: SamplingProblem) -> bool:
    """No tie a variant would refuse: at the greedy pick, at the truncation's edge, or the draw at an interval's edge."""
    solution = engine.solve(made)
    p, unit = solution.step.probabilities, 10.0 ** -made.decimals
    order = engine.ranked(p)
    if p[order[0]] - p[order[1]] < unit:
        return False
    if made.top_k is not None and p[order[made.top_k - 1]] - p[order[made.top_k]] < unit:
        return False
    if made.top_p is not None:
        sums = [math.fsum(p[i] for i in order[:k]) for k in range(1, len(order) + 1)]
        if any(abs(s - made.top_p) < 2 * unit for s in sums):
            return False
    if made.draw is not None:
        edges = [span[1] for span in solution.step.intervals if span is not None]
        if any(abs(edge - made.draw) < 2 * unit for edge in edges):
            return False
    return True


@given(problems())
def test_correct_work_rounded_as_asked_gets_full_marks(made):
    assume(fair(made))
    solution = engine.solve(made)
    typed = {stage: shown(solution.stage_values(stage), made.decimals) for stage in made.asked_stages}
    items = marking.mark(solution, typed)
    assert [item.verdict for item in items] == ["correct"] * len(items), [(i.stage, i.cells, i.given, i.expected) for i in items]
    assert all(item.diagnosis is None for item in items)


@given(problems())
def test_each_stage_worked_from_the_previous_as_displayed_is_correct(made):
    """Practice mode shows each stage rounded: the next worked from it, rounded, is still right."""
    assume(fair(made))
    solution = engine.solve(made)
    d = made.decimals
    scaled = shown(solution.stage_values("scaled"), d)
    exp = shown(engine.exponentials(scaled), d)
    probabilities = shown(engine.normalise(solution.step.exps), d)
    kept = shown(engine.truncate(probabilities, engine.kept_set(probabilities, made.top_k, made.top_p)), d)
    typed = {"scaled": scaled, "exp": exp, "probabilities": probabilities, "kept": kept}
    for stage, item in zip(typed, marking.mark(solution, typed, stages=tuple(typed))):
        assert item.verdict == "correct", (stage, item.cells, item.given, item.expected)


@given(problems())
def test_work_that_follows_the_written_lines_is_correct(made):
    """``solve --explain`` writes "sofa: 0.289 ÷ 0.719" with each term and sum as displayed: a student
    who does that division and rounds it as asked is right, though it may differ from the exact
    value's rounding in the last place."""
    assume(fair(made))
    solution = engine.solve(made)
    d, step = made.decimals, solution.step
    total = rounded(math.fsum(step.exps), d)
    probabilities = tuple(rounded(rounded(v, d) / total, d) for v in step.exps)
    kept_sum = rounded(math.fsum(p for p, k in zip(step.probabilities, step.kept) if k is not None), d)
    kept = tuple(None if k is None else rounded(rounded(p, d) / kept_sum, d) for p, k in zip(step.probabilities, step.kept))
    typed = {"probabilities": probabilities, "kept": kept}
    for stage, item in zip(typed, marking.mark(solution, typed, stages=tuple(typed))):
        assert item.verdict == "correct", (stage, item.cells, item.given, item.expected)


@pytest.mark.parametrize(
    ("problem_id", "stage", "typed"),
    [
        ("cat-mat-en", "kept", (0.599, 0.402, None, None)),  # sofa: 0.289 ÷ 0.719 = 0.40195
        ("cat-sentence-loss", "perplexity", (1.346,)),  # e^((0.365 + 0.221 + 0.304) ÷ 3) = e^0.297 = 1.34585
    ],
)
def test_the_ch14_keys_written_lines_worked_by_hand_are_correct(problem_id, stage, typed):
    from attn_tutor.problems.load import load_problem_set

    solution = engine.solve(load_problem_set("ch14").get(problem_id))
    (item,) = marking.mark(solution, {stage: typed}, stages=(stage,))
    assert item.verdict == "correct", (item.cells, item.expected)


@given(problems(), st.data())
def test_each_mistake_is_named_when_made_and_a_slip_is_never_right(made, data):
    assume(fair(made))
    solution = engine.solve(made)
    for stage in made.asked_stages:
        for code, row in marking.mistake_rows(solution, stage):
            typed = shown(row, made.decimals)
            item = marking.mark_stage(solution, stage, typed, {})
            if item.verdict == "correct" or any(v is not None and not isinstance(v, str) and not math.isfinite(v) for v in typed):
                continue  # at these decimals the mistake shows the right digits (or no digits at all)
            codes = [c for c, _ in marking.mistake_rows(solution, stage)]
            assert item.diagnosis is not None, (stage, code, typed, item.expected)
            assert codes.index(item.diagnosis) <= codes.index(code), (stage, code, item.diagnosis)
    right = shown(solution.stage_values("probabilities"), made.decimals)
    slip = list(right)
    i = data.draw(st.integers(0, len(slip) - 1))
    slip[i] = round(slip[i] + 10 ** -made.decimals * data.draw(st.sampled_from((-3, 3))), made.decimals)
    assert marking.mark_stage(solution, "probabilities", tuple(slip), {}).cells[i] == "wrong"


CODES = [
    # (code, the problem, the stage, what the student typed) — worked by hand at 3 decimals
    ("temperature_multiplied", problem((2, 1, 0.1), 0.5), "scaled", (1, 0.5, 0.05)),
    ("temperature_ignored", problem((2, 1, 0.1), 0.5), "probabilities", (0.659, 0.242, 0.099)),
    ("temperature_after_softmax", problem((2, 1, 0.1), 0.5), "probabilities", (1.318, 0.485, 0.197)),
    ("temperature_after_softmax", problem((2, 1, 0.1), 0.5), "probabilities", (0.434, 0.059, 0.010)),
    ("exp_not_normalized", problem((2, 1, 0.1), 0.5), "probabilities", (54.598, 7.389, 1.221)),
    ("not_renormalized", problem((2, 1, 0.1), 0.5, top_p=0.9), "kept", (0.864, 0.117, None)),
    ("top_p_boundary", problem((2, 1, 0.1), 0.5, top_p=0.9), "kept", (1.0, None, None)),
    ("top_p_boundary", problem((2, 1, 0.1), 0.5, top_p=0.9), "kept", (0.864, 0.117, 0.019)),
    ("top_k_tie", problem((2, 1, 1), top_k=2), "kept", (0.731, None, 0.269)),
    ("ignored_draw", problem((2, 1, 0.1), 0.5, top_p=0.9, draw=0.95), "pick", ("생선을",)),
    ("draw_wrong_end", problem((2, 1, 0.1), 0.5, top_p=0.9, draw=0.95), "pick", ("생선을",)),
    ("log_base", problem((2, 1, 0.1), target="우유를"), "loss", (0.615,)),
    ("log_base", problem((2, 1, 0.1), target="우유를"), "loss", (2.044,)),
    ("loss_sign", problem((2, 1, 0.1), target="우유를"), "loss", (-1.417,)),
]


@pytest.mark.parametrize(("code", "made", "stage", "typed"), CODES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CODES)])
def test_each_mistake_worked_by_hand_is_named(code, made, stage, typed):
    item = marking.mark_stage(engine.solve(made), stage, typed, {})
    assert item.verdict in ("wrong", "partial")
    # the draw read from 1 - u and the draw ignored give the same token here: the first named is the earlier
    assert item.diagnosis == ("ignored_draw" if code == "draw_wrong_end" else code)


def test_e_to_the_x_minus_the_largest_is_correct_work():
    solution = engine.solve(problem((2, 1, 0.1), 0.5))
    item = marking.mark_stage(solution, "exp", (1, 0.135, 0.022), {})
    assert item.verdict == "correct" and item.diagnosis is None


def test_follow_through_from_the_student_s_own_probabilities():
    solution = engine.solve(problem((2, 1, 0.1), 0.5, top_p=0.9))
    own = {"probabilities": (0.8, 0.15, 0.05)}  # wrong, but carried: 0.8 + 0.15 = 0.95 ≥ 0.9, so 0.842 and 0.158
    item = marking.mark_stage(solution, "kept", (0.842, 0.158, None), own)
    assert item.cells == ("follow_through", "follow_through", "masked")
    assert item.points == 1.0
    half = marking.mark_stage(solution, "kept", (0.842, 0.158, None), own, credit=0.5)
    assert half.points == 0.5


def test_a_cut_token_typed_as_0_is_cut_and_one_given_a_probability_is_wrong():
    solution = engine.solve(problem((2, 1, 0.1), 0.5, top_p=0.9))
    assert marking.mark_stage(solution, "kept", (0.881, 0.119, 0), {}).verdict == "correct"
    assert marking.mark_stage(solution, "kept", (0.881, 0.119, 0.019), {}).cells[2] == "wrong"


def test_a_pick_follows_through_from_the_student_s_own_kept_row():
    solution = engine.solve(problem((2, 1, 0.1), 0.5, top_p=0.9, draw=0.7))
    item = marking.mark_stage(solution, "pick", ("우유를",), {"kept": (0.6, 0.4, None)})
    assert item.cells == ("follow_through",)
