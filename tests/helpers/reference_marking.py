"""The slower reference marking, all numpy, that the fast marker is checked against (a test oracle)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from attn_tutor.core.model import Verdict
from attn_tutor.marking.marker import (
    EPS,
    carry_forward,
    marked_cells,
    match_window,
    previous_stage,
    stage_tolerance,
)
from attn_tutor.marking.mistakes import DIAGNOSES, Rounding, exact_mistakes, own_mistakes, with_keep
from attn_tutor.solve.engine import Solution


def mistaken_rows(
    solution: Solution, row: int, stage: str, own: Mapping[str, Sequence[float]] | None = None
) -> list:
    """Every known mistake's row for ``stage``: (code, mistaken row, right row from the same inputs, …).

    Each is made from the exact previous stage and, when the student has one, from
    their own (``own``); duplicates are kept (the caller stops at the first match).
    """
    own = own or {}
    before = previous_stage(stage)
    result = exact_mistakes(solution, row, stage)
    basis = own.get(before) if before is not None else None
    scores = own.get("scores") if stage == "weights" else None
    if basis is not None or scores is not None:
        carried = None if basis is None else carry_forward(solution, row, stage, basis)
        result += own_mistakes(solution, row, stage, basis, carried, scores)
    return in_diagnosis_order(result)



def in_diagnosis_order(result: list) -> list:
    """A stable sort by code in DIAGNOSES order: for each code, the mistake made from the exact rows comes first."""
    order = {code: i for i, code in enumerate(DIAGNOSES)}
    return sorted(result, key=lambda entry: order[entry[0]])


def _within(a: np.ndarray, b: np.ndarray, cells: np.ndarray, tolerance: float) -> bool:
    """Every cell in ``cells``: |a - b| <= tolerance (NaN never matches)."""
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(a[cells] - b[cells]) <= tolerance + EPS))


def diagnose(*args, **kwargs) -> str | None:
    """The mistake that explains a row with a wrong cell, or None (:func:`diagnose_detail`'s arguments)."""
    return diagnose_detail(*args, **kwargs)[0]


def diagnose_detail(
    solution: Solution,
    row: int,
    stage: str,
    given: Sequence[float],
    cells: Sequence[str],
    own: Mapping[str, Sequence[float]] | None = None,
    carried: np.ndarray | None = None,
    trivial: np.ndarray | None = None,
) -> tuple[str | None, Rounding | None]:
    """:func:`diagnose` with what a ``rounding`` diagnosis found rounded (see the module docstring)."""
    del trivial  # the guard limits credit, not diagnoses
    if "wrong" not in cells:
        return None, None
    problem = solution.problem
    tolerance = stage_tolerance(problem, stage)
    window = match_window(problem, stage)
    g = np.asarray(given, dtype=np.float64)
    marked = marked_cells(solution, row, stage)
    exact = solution.stage_row(stage, row)
    rights = [exact] + ([carried] if carried is not None else [])
    for mistake in mistaken_rows(solution, row, stage, own):
        others = (*rights, mistake.right)
        if any(_within(mistake.made, other, marked, tolerance) for other in others):
            continue  # the mistake does not change the numbers
        apart = not any(_within(mistake.made, other, marked, 2 * window) for other in others)
        if not _within(g, mistake.made, marked, window if apart else tolerance):
            continue
        detail = with_keep(mistake, marked, tolerance) if mistake.rounding is not None else None
        return mistake.code, detail
    if stage != "scores":  # digits that only early rounding gives (issue 35): the practice note's rule
        from attn_tutor.marking.mistakes import shown_rounding

        before = {"scaled": "scores", "weights": "scaled", "output": "weights"}[stage]
        found = shown_rounding(solution, row, stage, g, {before: own[before]} if own and before in own else None)
        if found is not None:
            return "rounding", found
    return None, None


# --- marking ------------------------------------------------------------------------



def reference_mark_stage(solution, row, stage, given, own=None, *, follow_through="full", hints=0):
    """mark_stage as it was first written, all numpy, from the module's public pieces."""
    from attn_tutor.marking.marker import FOLLOW_THROUGH, Item, row_width, trivial_carry
    from attn_tutor.marking.results import verdict_of

    problem = solution.problem
    width = row_width(solution, stage)
    exact = solution.stage_row(stage, row)
    marked = marked_cells(solution, row, stage)
    expected = tuple(float(v) if m else None for v, m in zip(exact, marked))
    before = previous_stage(stage)
    basis = (own or {}).get(before) if before is not None else None
    carried = trivial = None
    if basis is not None:
        carried = carry_forward(solution, row, stage, basis)
        trivial = trivial_carry(solution, row, stage, basis)
    carried_t = None if carried is None else tuple(float(v) if m else None for v, m in zip(carried, marked))
    common = dict(problem=problem.id, row=problem.tokens[row], stage=stage, expected=expected, hints=hints, max_points=1.0)
    if given is None:
        cells = tuple("missing" if m else "masked" for m in marked)
        return Item(given=None, cells=cells, verdict=Verdict.missing, diagnosis=None, points=0.0, carried=carried_t, **common)
    g = np.asarray(given, dtype=np.float64)
    assert g.shape == (width,)
    tolerance = stage_tolerance(problem, stage) + EPS
    states = []
    with np.errstate(invalid="ignore"):
        for i in range(width):
            if not marked[i]:
                states.append("masked")
            elif abs(g[i] - exact[i]) <= tolerance:
                states.append("correct")
            elif carried is not None and not trivial[i] and abs(g[i] - carried[i]) <= tolerance:
                states.append("follow_through")
            else:
                states.append("wrong")
    cells = tuple(states)
    verdict = verdict_of(cells)
    diagnosis, detail = (
        diagnose_detail(solution, row, stage, g, cells, own, carried, trivial) if verdict in ("partial", "wrong") else (None, None)
    )
    credit = {"correct": 1.0, "follow_through": FOLLOW_THROUGH[follow_through]}
    scored = [credit.get(state, 0.0) for state in cells if state != "masked"]
    points = round(sum(scored) / len(scored), 4) if scored else 0.0
    if verdict == "correct":
        carried_t = None  # every cell right: nothing was carried
    return Item(
        given=tuple(float(v) for v in g), cells=cells, verdict=verdict, diagnosis=diagnosis, points=points,
        carried=carried_t, diagnosis_detail=detail, **common,
    )  # fmt: skip


def reference_mark_row(solution, row, answers, *, mode="exam", follow_through="full"):
    """mark_row as first written: every asked stage marked by :func:`reference_mark_stage`,
    the student's own rows carried forward as the module docstring says."""
    from attn_tutor.marking.marker import previous_stage

    problem = solution.problem
    items, own = [], {}
    for stage in problem.stages:
        given = answers.get(stage) if stage in problem.asked_stages else None
        if stage in problem.asked_stages:
            items.append(reference_mark_stage(solution, row, stage, given, own, follow_through=follow_through))
        if mode == "practice":
            own = {} if given is None else {stage: tuple(float(v) for v in given)}
        elif given is not None:
            own = {**own, stage: tuple(float(v) for v in given)}
        elif previous_stage(stage) in own:
            own = {**own, stage: tuple(float(v) for v in carry_forward(solution, row, stage, own[previous_stage(stage)]))}
    return items
