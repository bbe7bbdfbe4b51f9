"""Marking a student's rows: pure, no I/O, no terminal. Reused unchanged by ``grade``.

One *item* is one stage of one query row of one problem. The student types the
whole row: a cell per key for scores, scaled scores and weights (heads side by
side in a multi-head problem), a cell per output component for the output.

Cells
    ``correct``         ``abs(given - exact) <= tolerance + 1e-12`` (the problem's
                        tolerance; never ``np.isclose``).
    ``follow_through``  not correct, but within the tolerance of the value computed
                        from the student's *own* previous-stage row (scores → scaled:
                        divide by the divisor; scaled → weights: softmax along the row
                        with the mask; weights → output: weights·V; per head).
    ``wrong``           neither.
    ``missing``         no answer for the item.
    ``masked``          a masked cell of scores or scaled: the student types the row
                        in full (any number goes there) and the cell is not marked;
                        ``expected`` holds ``None`` for it. Weights of masked cells are
                        marked: they must be 0. (The quiz also accepts the row with the
                        masked cells left out and fills them in.)

Whose previous row? ``own`` maps earlier stages to the rows the student's work is
carried from (see :func:`advance`). In ``exam`` mode every stage is carried from
the student's own earlier numbers (error carried forward; a stage left blank is
replaced by what it would have been from the stage before). In ``practice`` mode
only the previous stage's answer is used: the student was shown the exact row
after it and goes on from there.

Trivial-carry guard: no follow-through credit for a head whose carried work is
trivial, judged on the student's previous row over its unmasked cells —
scaled: that scores row is all zeros (0 / √d needs no work); weights: that scaled
row is constant (the weights are uniform, no e^x needed); output: that weights row
is all zeros or constant (uniform). Typing zeros early gains nothing later.

Verdicts (over the marked cells): ``correct`` — every cell correct;
``follow_through`` — every cell correct or follow-through, some follow-through;
``partial`` — some cells right (correct or follow-through) and others wrong;
``wrong`` — none right; ``missing`` — no answer.

Diagnoses, for a row with a wrong cell: the first mistake in :data:`DIAGNOSES`
order whose numbers match every marked cell within the tolerance, each computed
both from the exact previous stage and from the student's own (``own``). A
mistake is only considered when its numbers differ, by more than the tolerance
in some cell, from every right answer (the exact row, the follow-through row, and
the right answer from the same inputs) — so transposing a symmetric S, forgetting
to divide by a divisor of 1, or mixing K when K equals V is never diagnosed.
``rounding`` comes last: every wrong cell is within 4× the tolerance of the exact
or the (non-trivial) follow-through value.

Points: each item is worth 1 (``max_points``); a cell earns 1 if correct, the
follow-through policy's share if follow-through (full 1, half 0.5, none 0) and 0
otherwise; an item's points are the mean over its marked cells, rounded to 4
places. Hints are counted, not deducted: the teacher decides what they cost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from attn_tutor import engine
from attn_tutor.engine import Solution
from attn_tutor.model import STAGES

VERDICTS: tuple[str, ...] = ("correct", "follow_through", "partial", "wrong", "missing")
DIAGNOSES: tuple[str, ...] = (
    "not_scaled",
    "divided_by_d",
    "no_exp",
    "not_normalized",
    "skipped_scaling",
    "column_softmax",
    "transposed_scores",
    "used_keys",
    "rounding",
)
CELL_STATES: tuple[str, ...] = ("correct", "follow_through", "wrong", "missing", "masked")
MODES: tuple[str, ...] = ("practice", "exam")
FOLLOW_THROUGH: dict[str, float] = {"full": 1.0, "half": 0.5, "none": 0.0}

EPS = 1e-12  # slack for binary floats: 0.71 - 0.705 is not exactly 0.005
ROUNDING_FACTOR = 4.0

# Which mistakes each stage can show (rounding applies to every stage).
STAGE_DIAGNOSES: dict[str, tuple[str, ...]] = {
    "scores": ("transposed_scores",),
    "scaled": ("not_scaled", "divided_by_d"),
    "weights": ("no_exp", "not_normalized", "skipped_scaling", "column_softmax"),
    "output": ("used_keys",),
}


@dataclass(frozen=True)
class Item:
    """One stage of one query row, marked."""

    problem: str
    row: str
    stage: str
    expected: tuple[float | None, ...]  # None: a masked cell of scores/scaled
    given: tuple[float, ...] | None
    cells: tuple[str, ...]
    verdict: str
    diagnosis: str | None
    hints: int
    points: float
    max_points: float
    # Not part of the report: the values carried from the student's own previous row.
    carried: tuple[float | None, ...] | None = field(default=None, compare=False)

    def to_dict(self) -> dict:
        return {
            "problem": self.problem,
            "row": self.row,
            "stage": self.stage,
            "expected": list(self.expected),
            "given": None if self.given is None else list(self.given),
            "cells": list(self.cells),
            "verdict": self.verdict,
            "diagnosis": self.diagnosis,
            "hints": self.hints,
            "points": self.points,
            "max_points": self.max_points,
        }


@dataclass
class Report:
    """Everything marked in one quiz (or one student's sheet)."""

    student: str | None
    problem_set: str
    seed: int | None
    mode: str
    items: list[Item] = field(default_factory=list)

    @property
    def score(self) -> float:
        return round(sum(item.points for item in self.items), 4)

    @property
    def max_score(self) -> float:
        return round(sum(item.max_points for item in self.items), 4)

    def to_dict(self) -> dict:
        return {
            "student": self.student,
            "problem_set": self.problem_set,
            "seed": self.seed,
            "mode": self.mode,
            "score": self.score,
            "max_score": self.max_score,
            "items": [item.to_dict() for item in self.items],
        }


# --- shapes -------------------------------------------------------------------------


def previous_stage(stage: str) -> str | None:
    index = STAGES.index(stage)
    return STAGES[index - 1] if index > 0 else None


def segments(solution: Solution, stage: str) -> list[slice]:
    """Each head's cells in a row of ``stage`` (heads side by side)."""
    result, start = [], 0
    for head in solution.heads:
        width = head.V.shape[1] if stage == "output" else head.mask.shape[1]
        result.append(slice(start, start + width))
        start += width
    return result


def row_width(solution: Solution, stage: str) -> int:
    return segments(solution, stage)[-1].stop


def open_cells(solution: Solution, row: int, stage: str) -> np.ndarray:
    """True where the query may attend (every output cell is open)."""
    if stage == "output":
        return np.ones(row_width(solution, stage), dtype=bool)
    return np.concatenate([head.mask[row] for head in solution.heads])


def marked_cells(solution: Solution, row: int, stage: str) -> np.ndarray:
    """The cells that are marked: masked scores/scaled cells are not."""
    if stage in ("scores", "scaled"):
        return open_cells(solution, row, stage)
    return np.ones(row_width(solution, stage), dtype=bool)


# --- carrying a student's own numbers forward --------------------------------------


def carry_forward(solution: Solution, row: int, stage: str, previous: Sequence[float]) -> np.ndarray:
    """``stage``'s row computed from the previous stage's row ``previous`` (a student's).

    NaN in masked cells of scaled scores, 0 in masked weights.
    """
    before = previous_stage(stage)
    if before is None:
        raise ValueError("the scores are computed from the givens, not from an earlier stage")
    prev = np.asarray(previous, dtype=np.float64)
    if prev.shape != (row_width(solution, before),):
        raise ValueError(f"a {before} row has {row_width(solution, before)} cells, not {prev.size}")
    parts = []
    with np.errstate(all="ignore"):
        for seg, head in zip(segments(solution, before), solution.heads):
            part, mask = prev[seg], head.mask[row]
            if stage == "scaled":
                parts.append(np.where(mask, engine.scale(part, head.divisor), np.nan))
            elif stage == "weights":
                parts.append(engine.softmax(np.where(mask, part, 0.0), mask))
            else:
                parts.append(engine.mix(part, head.V))
    return np.concatenate(parts)


def trivial_carry(solution: Solution, row: int, stage: str, previous: Sequence[float]) -> np.ndarray:
    """Per cell of ``stage``: True where the work carried from ``previous`` is trivial.

    Judged per head on the previous row's unmasked cells: all zeros (scaled,
    output) or constant (weights, output) — see the module docstring.
    """
    before = previous_stage(stage)
    prev = np.asarray(previous, dtype=np.float64)
    flags = []
    for prev_seg, seg, head in zip(segments(solution, before), segments(solution, stage), solution.heads):
        values = prev[prev_seg][head.mask[row]]
        zeros = bool(np.all(np.abs(values) <= EPS))
        constant = bool(values.size == 0 or np.ptp(values) <= EPS)
        trivial = zeros if stage == "scaled" else constant if stage == "weights" else (zeros or constant)
        flags.append(np.full(seg.stop - seg.start, trivial))
    return np.concatenate(flags)


def advance(
    solution: Solution,
    row: int,
    stage: str,
    given: Sequence[float] | None,
    own: Mapping[str, Sequence[float]] | None,
    mode: str,
) -> dict[str, tuple[float, ...]]:
    """The ``own`` rows to carry from after ``stage`` was answered with ``given``.

    practice: only this stage's answer (nothing if blank). exam: every earlier row
    kept; a blank stage is filled with what it would be from the student's own
    previous row (if there is one), so the chain of carried work is unbroken.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if mode == "practice":
        return {} if given is None else {stage: tuple(float(v) for v in given)}
    result = dict(own or {})
    if given is not None:
        result[stage] = tuple(float(v) for v in given)
    else:
        before = previous_stage(stage)
        if before is not None and before in result:
            result[stage] = tuple(float(v) for v in carry_forward(solution, row, stage, result[before]))
    return result


# --- mistakes -----------------------------------------------------------------------


def _per_head(solution: Solution, stage: str, make) -> np.ndarray | None:
    """Join ``make(h, head)`` over heads; None if any head cannot make it."""
    parts = []
    for h, head in enumerate(solution.heads):
        part = make(h, head)
        if part is None:
            return None
        parts.append(np.asarray(part, dtype=np.float64))
    return np.concatenate(parts)


def _column_softmax(head, row: int) -> np.ndarray:
    scaled, mask = head.scaled, head.mask
    x = np.where(mask, scaled, -np.inf)
    top = np.max(x, axis=0, keepdims=True)
    e = np.where(mask, np.exp(x - np.where(np.isfinite(top), top, 0.0)), 0.0)
    sums = e.sum(axis=0)
    return np.where(mask[row], e[row] / np.where(sums > 0, sums, 1.0), 0.0)


def mistaken_rows(
    solution: Solution, row: int, stage: str, own: Mapping[str, Sequence[float]] | None = None
) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every known mistake's row for ``stage``: (code, mistaken row, right row from the same inputs).

    Each is made from the exact previous stage and, when the student has one, from
    their own (``own``); duplicates are kept (the caller stops at the first match).
    """
    problem = solution.problem
    own = own or {}
    before = previous_stage(stage)
    bases: list[tuple[np.ndarray, np.ndarray]] = []  # (previous row, right row from it)
    if before is not None:
        bases.append((solution.stage_row(before, row), solution.stage_row(stage, row)))
        if own.get(before) is not None:
            basis = np.asarray(own[before], dtype=np.float64)
            bases.append((basis, carry_forward(solution, row, stage, basis)))
    prev_segs = segments(solution, before) if before is not None else []
    result: list[tuple[str, np.ndarray, np.ndarray]] = []

    def add(code: str, made: np.ndarray | None, right: np.ndarray) -> None:
        if made is not None:
            result.append((code, made, right))

    with np.errstate(all="ignore"):
        if stage == "scores":

            def transposed(h, head):
                if head.Q.shape[0] != head.K.shape[0]:
                    return None
                raw = head.Q @ head.K.T
                return np.where(head.mask[row], raw[:, row], np.nan)

            add("transposed_scores", _per_head(solution, stage, transposed), solution.stage_row(stage, row))
        for basis, right in bases:
            if stage == "scaled":
                add("not_scaled", _per_head(solution, stage, lambda h, hd: np.where(hd.mask[row], basis[prev_segs[h]], np.nan)), right)
                if problem.divide_by is None:
                    add(
                        "divided_by_d",
                        _per_head(solution, stage, lambda h, hd: np.where(hd.mask[row], basis[prev_segs[h]] / hd.d_k, np.nan)),
                        right,
                    )
            elif stage == "weights":

                def no_exp(h, head, basis=basis):
                    mask = head.mask[row]
                    part = np.where(mask, basis[prev_segs[h]], 0.0)
                    total = part.sum()
                    return None if abs(total) <= EPS else np.where(mask, part / total, 0.0)

                add("no_exp", _per_head(solution, stage, no_exp), right)
                add(
                    "not_normalized",
                    _per_head(solution, stage, lambda h, hd: engine.student_exps(basis[prev_segs[h]], hd.mask[row])),
                    right,
                )
            elif stage == "output":

                def used_keys(h, head, basis=basis):
                    if head.K.shape[1] != head.V.shape[1]:
                        return None
                    return engine.mix(basis[prev_segs[h]], head.K)

                add("used_keys", _per_head(solution, stage, used_keys), right)
        if stage == "weights":
            score_rows = [solution.stage_row("scores", row)]
            if own.get("scores") is not None:
                score_rows.append(np.asarray(own["scores"], dtype=np.float64))
            score_segs = segments(solution, "scores")
            for scores in score_rows:
                made = _per_head(
                    solution,
                    stage,
                    lambda h, hd: engine.softmax(np.where(hd.mask[row], scores[score_segs[h]], 0.0), hd.mask[row]),
                )
                right = _per_head(
                    solution,
                    stage,
                    lambda h, hd: engine.softmax(np.where(hd.mask[row], scores[score_segs[h]] / hd.divisor, 0.0), hd.mask[row]),
                )
                add("skipped_scaling", made, right)
            add("column_softmax", _per_head(solution, stage, lambda h, hd: _column_softmax(hd, row)), solution.stage_row(stage, row))
    order = {code: i for i, code in enumerate(DIAGNOSES)}
    result.sort(key=lambda entry: order[entry[0]])
    return result


def _within(a: np.ndarray, b: np.ndarray, cells: np.ndarray, tolerance: float) -> bool:
    """Every cell in ``cells``: |a - b| <= tolerance (NaN never matches)."""
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(a[cells] - b[cells]) <= tolerance + EPS))


def diagnose(
    solution: Solution,
    row: int,
    stage: str,
    given: Sequence[float],
    cells: Sequence[str],
    own: Mapping[str, Sequence[float]] | None = None,
    carried: np.ndarray | None = None,
    trivial: np.ndarray | None = None,
) -> str | None:
    """The mistake that explains a row with a wrong cell, or None."""
    if "wrong" not in cells:
        return None
    tolerance = solution.problem.tolerance
    g = np.asarray(given, dtype=np.float64)
    marked = marked_cells(solution, row, stage)
    exact = solution.stage_row(stage, row)
    rights = [exact] + ([carried] if carried is not None else [])
    for code, made, right in mistaken_rows(solution, row, stage, own):
        if not _within(g, made, marked, tolerance):
            continue
        if any(_within(made, other, marked, tolerance) for other in (*rights, right)):
            continue  # the mistake does not change the numbers
        return code
    wrong = np.array([state == "wrong" for state in cells])
    near = ROUNDING_FACTOR * tolerance + EPS
    with np.errstate(invalid="ignore"):
        close = np.abs(g - exact) <= near
        if carried is not None:
            usable = ~trivial if trivial is not None else np.ones_like(wrong)
            close |= usable & (np.abs(g - carried) <= near)
    if bool(np.all(close[wrong])):
        return "rounding"
    return None


# --- marking ------------------------------------------------------------------------


def _verdict(cells: Sequence[str]) -> str:
    marked = [c for c in cells if c != "masked"]
    if all(c == "missing" for c in marked):
        return "missing"
    right = [c in ("correct", "follow_through") for c in marked]
    if all(c == "correct" for c in marked):
        return "correct"
    if all(right):
        return "follow_through"
    return "partial" if any(right) else "wrong"


def mark_stage(
    solution: Solution,
    row: int,
    stage: str,
    given: Sequence[float] | None,
    own: Mapping[str, Sequence[float]] | None = None,
    *,
    follow_through: str = "full",
    hints: int = 0,
) -> Item:
    """Mark one stage of one query row.

    ``own`` holds the student's rows of earlier stages to carry from (see
    :func:`advance`); without it there is no follow-through.
    """
    problem = solution.problem
    if stage not in problem.stages:
        raise ValueError(f"problem {problem.id!r} has no stage {stage!r}")
    if follow_through not in FOLLOW_THROUGH:
        raise ValueError(f"follow_through must be one of {tuple(FOLLOW_THROUGH)}, not {follow_through!r}")
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
        return Item(given=None, cells=cells, verdict="missing", diagnosis=None, points=0.0, carried=carried_t, **common)
    g = np.asarray(given, dtype=np.float64)
    if g.shape != (width,):
        raise ValueError(f"a {stage} row of {problem.id!r} has {width} cells, not {g.size}")
    tolerance = problem.tolerance + EPS
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
    verdict = _verdict(cells)
    diagnosis = diagnose(solution, row, stage, g, cells, own, carried, trivial) if verdict in ("partial", "wrong") else None
    credit = {"correct": 1.0, "follow_through": FOLLOW_THROUGH[follow_through]}
    scored = [credit.get(state, 0.0) for state in cells if state != "masked"]
    points = round(sum(scored) / len(scored), 4) if scored else 0.0
    return Item(
        given=tuple(float(v) for v in g),
        cells=cells,
        verdict=verdict,
        diagnosis=diagnosis,
        points=points,
        carried=carried_t,
        **common,
    )


def mark_row(
    solution: Solution,
    row: int,
    answers: Mapping[str, Sequence[float] | None],
    *,
    stages: Sequence[str] | None = None,
    mode: str = "exam",
    follow_through: str = "full",
    hints: Mapping[str, int] | None = None,
) -> list[Item]:
    """One item per asked stage (default: the problem's), in pipeline order."""
    problem = solution.problem
    asked = tuple(problem.asked_stages if stages is None else stages)
    for stage in asked:
        if stage not in problem.stages:
            raise ValueError(f"problem {problem.id!r} has no stage {stage!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    items: list[Item] = []
    own: dict[str, tuple[float, ...]] = {}
    for stage in problem.stages:
        given = answers.get(stage) if stage in asked else None
        if stage in asked:
            items.append(
                mark_stage(solution, row, stage, given, own, follow_through=follow_through, hints=(hints or {}).get(stage, 0))
            )
        own = advance(solution, row, stage, given, own, mode)
    return items
