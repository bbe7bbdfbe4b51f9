"""Marking a student's rows: pure, no I/O, no terminal. Reused unchanged by ``grade``.

One *item* is one stage of one query row of one problem. The student types the
whole row: a cell per key for scores, scaled scores and weights (heads side by
side in a multi-head problem), a cell per output component for the output.

Cells
    ``correct``         ``abs(given - exact) <= tolerance + 1e-12`` (never
                        ``np.isclose``). The tolerance is per stage
                        (:func:`stage_tolerance`): the teacher's ``tolerance`` for
                        every stage, or when it is left out the default that fits
                        ``decimals`` — ``max(0.005, rounding_error(stage))``, the
                        bound of :mod:`attn_tutor.tolerance`, so work rounded half
                        up to the asked decimals at every stage and carried forward
                        is always correct.
    ``follow_through``  not correct, but within the tolerance of the value computed
                        from the student's *own* previous-stage row (scores → scaled:
                        divide by the divisor; scaled → weights: softmax along the row
                        with the mask; weights → output: weights·V; per head).
    ``wrong``           neither.
    ``missing``         no answer for the item.
    ``masked``          a masked cell of scores or scaled: the student types the row
                        in full (any number goes there) and the cell is not marked;
                        ``expected`` holds ``None`` for it. Weights of masked cells are
                        marked: they must be 0. A row typed with the masked cells left
                        out (as many numbers as open cells) is filled in with 0 by
                        :func:`full_row`, the one rule the quiz and ``grade`` share.

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
is all zeros or constant (uniform) — and only when that previous row is *wrong*
(some marked cell of the head beyond the previous stage's tolerance of the exact
row). Typing zeros early gains nothing later; a row that is right (all scores
truly equal, so the weights truly uniform) is carried as usual.

Verdicts (over the marked cells): ``correct`` — every cell correct;
``follow_through`` — every cell correct or follow-through, some follow-through;
``partial`` — some cells right (correct or follow-through) and others wrong;
``wrong`` — none right; ``missing`` — no answer.

Diagnoses, for a row with a wrong cell: the first mistake in :data:`DIAGNOSES`
order (for one code: those made from the exact rows first, then from the
student's own; within ``rounding``, for each basis, scaled: divisor then previous;
weights: previous, exps, sum, then divisor; each with the fewest places first)
whose row the answer matches, each computed both from the exact previous stage
and from the student's own (``own``). Let ``tol`` be the stage's tolerance and
``window = max(tol, rounding_error(stage))`` (:func:`match_window`; equal to
``tol`` unless a teacher's tolerance is tighter than the asked decimals allow).

* A mistake is only considered when its numbers differ, by more than ``tol`` in
  some marked cell, from every right answer (the exact row, the follow-through
  row, and the right answer from the same inputs) — so transposing a symmetric S,
  forgetting to divide by a divisor of 1, or mixing K when K equals V is never
  diagnosed.
* The answer matches it when every marked cell is within ``window`` of the
  mistake's row if that row stands more than ``2·window`` (in some cell) from
  every right answer, else within ``tol``. The student's own rounding to the asked
  decimals may so use up the tolerance without hiding the mistake, and a row
  within ``window`` of a right answer is never matched to such a mistake.

The mistakes (``b``: the previous stage's row, exact or the student's own; ``k``:
each of 0, 1, 2 and the problem's decimals; rounding half up, as by hand):

    transposed_scores  scores: column ``row`` of Q·Kᵀ (only when Q and K have as many rows)
    not_scaled         scaled: ``b`` itself
    divided_by_d       scaled: ``b / d_k`` (only when the divisor is √d_k)
    no_exp             weights: ``b / Σ b`` over the open keys (not when Σ b = 0)
    not_normalized     weights: ``e^b``
    skipped_scaling    weights: softmax of the student's own (or exact) scores
    column_softmax     weights: exact e^scaled divided by its column's sum
    used_keys          output: ``weights·K`` (only when K and V are as wide)
    ignored_mask       weights: softmax over every key, masked ones too (scaled
                       from the givens for masked cells) — with the masked weights
                       as computed, or left 0; output: exact such weights·V. Only
                       for a row with a masked key.
    rounding           computed, never guessed from distance: correct work from a
                       number rounded too soon —
                       ``divisor``: scaled ``b / round(divisor, k)``, and weights
                       softmax(scores / round(divisor, k)) (each head's divisor; not
                       when rounding leaves it unchanged or makes it 0);
                       ``previous``: scaled from ``round(b, k)``, weights softmax of
                       ``round(b, k)``, output ``round(b, k)·V``;
                       ``exps``: weights ``round(e^b, k) / Σ round(e^b, k)``;
                       ``sum``: weights ``e^b / round(Σ e^b, k)``.
                       The item carries a :class:`Rounding` (what, ``k``, and
                       ``keep``: the fewest places above ``k`` whose row is within
                       ``tol`` of the right one, at most 10); the explanation names
                       the number and the places to keep. A row no such rounding
                       explains is never ``rounding``.

Points: each item is worth 1 (``max_points``); a cell earns 1 if correct, the
follow-through policy's share if follow-through (full 1, half 0.5, none 0) and 0
otherwise; an item's points are the mean over its marked cells, rounded to 4
places. Hints are counted, not deducted: the teacher decides what they cost.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from attn_tutor import engine
from attn_tutor import tolerance as tolerances
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
    "ignored_mask",
    "rounding",
)
CELL_STATES: tuple[str, ...] = ("correct", "follow_through", "wrong", "missing", "masked")
MODES: tuple[str, ...] = ("practice", "exam")
FOLLOW_THROUGH: dict[str, float] = {"full": 1.0, "half": 0.5, "none": 0.0}

EPS = 1e-12  # slack for binary floats: 0.71 - 0.705 is not exactly 0.005
ROUND_PLACES = (0, 1, 2)  # early rounding looked for: to these places, and to the problem's decimals
MAX_KEEP = 10

# Which mistakes each stage can show.
STAGE_DIAGNOSES: dict[str, tuple[str, ...]] = {
    "scores": ("transposed_scores",),
    "scaled": ("not_scaled", "divided_by_d", "rounding"),
    "weights": ("no_exp", "not_normalized", "skipped_scaling", "column_softmax", "ignored_mask", "rounding"),
    "output": ("used_keys", "ignored_mask", "rounding"),
}

ROUNDED: tuple[str, ...] = ("divisor", "previous", "exps", "sum")
"""What a ``rounding`` diagnosis found rounded too soon (:class:`Rounding`)."""


class Rounding(NamedTuple):
    """Which number a ``rounding`` row was worked from, rounded to ``places``; ``keep``: places enough."""

    kind: str  # one of ROUNDED
    places: int
    keep: int
    stage: str  # the stage whose row was rounded ("previous"), else the stage marked
    divisor: str = ""  # "divisor": the divisor as written, "√2"
    rounded: str = ""  # "divisor": what it was rounded to, "1.4"


def stage_tolerance(problem, stage: str) -> float:
    """The tolerance of a cell of ``stage`` (the teacher's, or the default that fits decimals)."""
    return tolerances.tolerance(problem, stage)


def match_window(problem, stage: str) -> float:
    """How close a row must be to a mistake that stands well apart from every right answer:
    the tolerance, or the rounding error of the asked decimals when a teacher's tolerance is tighter."""
    return max(stage_tolerance(problem, stage), tolerances.rounding_error(problem, stage))


def round_places(problem) -> tuple[int, ...]:
    return tuple(sorted({*ROUND_PLACES, problem.decimals}))


def half_up(values, places: int) -> np.ndarray:
    """Each finite value rounded half up to ``places`` (as by hand; see attn_tutor.numbers)."""
    from attn_tutor.numbers import round_half_up

    scale = 10**places
    out = []
    for v in np.asarray(values, dtype=np.float64).tolist():
        if not math.isfinite(v):
            out.append(v)
            continue
        y = v * scale
        if math.isfinite(y) and abs(y) < 2**52 and abs(abs(y) - math.floor(abs(y)) - 0.5) > 1e-6:
            n = math.floor(y + 0.5)  # far from a tie: the same integer the decimal rounding gives
            out.append(n / scale if n else 0.0)
        else:
            out.append(float(round_half_up(v, places)))
    return np.array(out, dtype=np.float64)


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
    # Not in the JSON (which keeps the code): what a ``rounding`` diagnosis found rounded.
    diagnosis_detail: Rounding | None = None

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


def full_row(values: Sequence[float], open_: Sequence[bool]) -> list[float] | None:
    """A typed row in full: as typed when it has a cell per key (or component); with the masked
    cells left out (as many numbers as ``open_`` has True), those cells filled in with 0; else None.

    One rule for the quiz and for ``grade``.
    """
    values = [float(v) for v in values]
    if len(values) == len(open_):
        return values
    if not all(open_) and len(values) == sum(1 for is_open in open_ if is_open):
        filled = iter(values)
        return [next(filled) if is_open else 0.0 for is_open in open_]
    return None


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
    output) or constant (weights, output), and not right (some marked cell beyond
    the previous stage's tolerance of the exact row) — see the module docstring.
    """
    before = previous_stage(stage)
    prev = np.asarray(previous, dtype=np.float64)
    exact = solution.stage_row(before, row)
    marked = marked_cells(solution, row, before)
    limit = stage_tolerance(solution.problem, before) + EPS
    flags = []
    for prev_seg, seg, head in zip(segments(solution, before), segments(solution, stage), solution.heads):
        values = prev[prev_seg][head.mask[row]]
        zeros = bool(np.all(np.abs(values) <= EPS))
        constant = bool(values.size == 0 or np.ptp(values) <= EPS)
        trivial = zeros if stage == "scaled" else constant if stage == "weights" else (zeros or constant)
        if trivial:  # only a wrong row trivialises: a right one (all scores truly equal) is carried as usual
            with np.errstate(invalid="ignore"):
                right = bool(np.all(np.abs(prev[prev_seg] - exact[prev_seg])[marked[prev_seg]] <= limit))
            trivial = not right
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
            result[stage] = _memo(solution).carried_row(row, stage, result[before])
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


def _unmasked_scaled(head, row: int) -> np.ndarray:
    """Row ``row`` of the scaled scores over every key, the mask ignored (from the givens)."""
    return (head.Q[row] @ head.K.T) / head.divisor


class Mistake(NamedTuple):
    """A mistaken row: its code, the row, the right row from the same inputs, and for ``rounding``
    what was rounded (``keep`` still 0) with the row ``remake(places)`` gives for other places."""

    code: str
    made: np.ndarray
    right: np.ndarray
    rounding: Rounding | None = None
    remake: object = None


def mistaken_rows(
    solution: Solution, row: int, stage: str, own: Mapping[str, Sequence[float]] | None = None
) -> list[Mistake]:
    """Every known mistake's row for ``stage``: (code, mistaken row, right row from the same inputs, …).

    Each is made from the exact previous stage and, when the student has one, from
    their own (``own``); duplicates are kept (the caller stops at the first match).
    """
    own = own or {}
    before = previous_stage(stage)
    result = _exact_mistakes(solution, row, stage)
    basis = own.get(before) if before is not None else None
    scores = own.get("scores") if stage == "weights" else None
    if basis is not None or scores is not None:
        carried = None if basis is None else carry_forward(solution, row, stage, basis)
        result += _own_mistakes(solution, row, stage, basis, carried, scores)
    return _in_diagnosis_order(result)


def _in_diagnosis_order(result: list) -> list:
    # A stable sort: for each code, the mistake made from the exact rows comes first.
    return sorted(result, key=lambda entry: _ORDER[entry[0]])


def _exact_mistakes(solution: Solution, row: int, stage: str, *, rounding: bool = True) -> list[Mistake]:
    """The mistakes made from the exact rows (and the givens), in the order they are tried."""
    before = previous_stage(stage)
    bases = []
    if before is not None:
        bases.append((solution.stage_row(before, row), solution.stage_row(stage, row)))
    score_rows = [solution.stage_row("scores", row)] if stage == "weights" else []
    return _mistakes(solution, row, stage, bases, score_rows, fixed=True, rounding=rounding)


def _own_mistakes(solution: Solution, row: int, stage: str, basis, carried: np.ndarray | None, scores) -> list[Mistake]:
    """The mistakes made from a student's own previous row (``carried``: the right row from it) and own scores."""
    bases = [] if basis is None else [(np.asarray(basis, dtype=np.float64), carried)]
    score_rows = [np.asarray(scores, dtype=np.float64)] if stage == "weights" and scores is not None else []
    return _mistakes(solution, row, stage, bases, score_rows, fixed=False)


def _mistakes(
    solution: Solution, row: int, stage: str, bases: list, score_rows: list, *, fixed: bool, rounding: bool = True
) -> list[Mistake]:
    """Mistaken rows from each (previous row, right row) basis and each scores row.

    ``fixed``: also the mistakes that depend on the givens alone (transposed scores,
    column softmax, the mask ignored down to the output).
    """
    problem = solution.problem
    before = previous_stage(stage)
    prev_segs = segments(solution, before) if before is not None else []
    places_tried = round_places(problem) if rounding else ()  # rounding=False: no early-rounding rows
    masked_row = any(not head.mask[row].all() for head in solution.heads)
    result: list[Mistake] = []

    def add(code: str, made: np.ndarray | None, right: np.ndarray) -> None:
        if made is not None:
            result.append(Mistake(code, made, right))

    def rounded_divisor(places: int, head) -> float | None:
        value = float(half_up([head.divisor], places)[0])
        return None if value == head.divisor or value <= 0 else value

    def divisor_labels(places: int) -> dict:
        from attn_tutor.numbers import fmt_given

        for head in solution.heads:
            value = rounded_divisor(places, head)
            if value is not None:
                name = f"√{head.d_k}" if problem.divide_by is None else fmt_given(head.divisor, MAX_KEEP)
                return dict(divisor=name, rounded=fmt_given(value, places))
        return dict(divisor="", rounded="")

    with np.errstate(all="ignore"):
        if stage == "scores" and fixed:

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

                def by_rounded_divisor(places, basis=basis):
                    if all(rounded_divisor(places, hd) is None for hd in solution.heads):
                        return None
                    return _per_head(
                        solution,
                        stage,
                        lambda h, hd: np.where(hd.mask[row], basis[prev_segs[h]] / (rounded_divisor(places, hd) or hd.divisor), np.nan),
                    )

                def from_rounded_scores(places, basis=basis):
                    rounded = half_up(basis, places)
                    if np.array_equal(rounded, basis, equal_nan=True):
                        return None
                    return _per_head(solution, stage, lambda h, hd: np.where(hd.mask[row], rounded[prev_segs[h]] / hd.divisor, np.nan))

                for places in places_tried:
                    made = by_rounded_divisor(places)
                    if made is not None:
                        result.append(Mistake("rounding", made, right, Rounding("divisor", places, 0, stage, **divisor_labels(places)), by_rounded_divisor))
                for places in places_tried:
                    made = from_rounded_scores(places)
                    if made is not None:
                        result.append(Mistake("rounding", made, right, Rounding("previous", places, 0, before), from_rounded_scores))
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
                if masked_row:

                    def over_every_key(h, head, basis=basis):
                        x = np.where(head.mask[row], basis[prev_segs[h]], _unmasked_scaled(head, row))
                        return engine.softmax(x)

                    full = _per_head(solution, stage, over_every_key)
                    add("ignored_mask", full, right)
                    open_ = open_cells(solution, row, stage)
                    add("ignored_mask", np.where(open_, full, 0.0), right)

                def from_rounded_scaled(places, basis=basis):
                    rounded = half_up(basis, places)
                    if np.array_equal(rounded, basis, equal_nan=True):
                        return None
                    return _per_head(solution, stage, lambda h, hd: engine.softmax(np.where(hd.mask[row], rounded[prev_segs[h]], 0.0), hd.mask[row]))

                def from_rounded_exps(places, basis=basis):
                    def make(h, head):
                        mask = head.mask[row]
                        e = half_up(engine.student_exps(basis[prev_segs[h]], mask), places)
                        total = e.sum()
                        return None if not np.isfinite(total) or total <= 0 else np.where(mask, e / total, 0.0)

                    return _per_head(solution, stage, make)

                def from_rounded_sum(places, basis=basis):
                    def make(h, head):
                        mask = head.mask[row]
                        e = engine.student_exps(basis[prev_segs[h]], mask)
                        total = float(half_up([e.sum()], places)[0])
                        return None if not np.isfinite(total) or total <= 0 else np.where(mask, e / total, 0.0)

                    return _per_head(solution, stage, make)

                for kind, remake, where in (
                    ("previous", from_rounded_scaled, before),
                    ("exps", from_rounded_exps, stage),
                    ("sum", from_rounded_sum, stage),
                ):
                    for places in places_tried:
                        made = remake(places)
                        if made is not None:
                            result.append(Mistake("rounding", made, right, Rounding(kind, places, 0, where), remake))
            elif stage == "output":

                def used_keys(h, head, basis=basis):
                    if head.K.shape[1] != head.V.shape[1]:
                        return None
                    return engine.mix(basis[prev_segs[h]], head.K)

                add("used_keys", _per_head(solution, stage, used_keys), right)

                def from_rounded_weights(places, basis=basis):
                    rounded = half_up(basis, places)
                    if np.array_equal(rounded, basis, equal_nan=True):
                        return None
                    return _per_head(solution, stage, lambda h, hd: engine.mix(rounded[prev_segs[h]], hd.V))

                for places in places_tried:
                    made = from_rounded_weights(places)
                    if made is not None:
                        result.append(Mistake("rounding", made, right, Rounding("previous", places, 0, before), from_rounded_weights))
        if stage == "weights":
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

                def by_rounded_divisor(places, scores=scores):
                    if all(rounded_divisor(places, hd) is None for hd in solution.heads):
                        return None
                    return _per_head(
                        solution,
                        stage,
                        lambda h, hd: engine.softmax(
                            np.where(hd.mask[row], scores[score_segs[h]] / (rounded_divisor(places, hd) or hd.divisor), 0.0), hd.mask[row]
                        ),
                    )

                for places in places_tried:
                    made = by_rounded_divisor(places)
                    if made is not None:
                        result.append(Mistake("rounding", made, right, Rounding("divisor", places, 0, stage, **divisor_labels(places)), by_rounded_divisor))
        if stage == "weights" and fixed:
            add("column_softmax", _per_head(solution, stage, lambda h, hd: _column_softmax(hd, row)), solution.stage_row(stage, row))
        if stage == "output" and fixed and masked_row and solution.problem.has_values:
            ignored = _per_head(solution, stage, lambda h, hd: engine.mix(engine.softmax(_unmasked_scaled(hd, row)), hd.V))
            add("ignored_mask", ignored, solution.stage_row(stage, row))
    return result


_ORDER = {code: i for i, code in enumerate(DIAGNOSES)}


def _within(a: np.ndarray, b: np.ndarray, cells: np.ndarray, tolerance: float) -> bool:
    """Every cell in ``cells``: |a - b| <= tolerance (NaN never matches)."""
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(a[cells] - b[cells]) <= tolerance + EPS))


def mistake_margins(solution: Solution, row: int, stage: str, codes=None) -> dict[str, float]:
    """Per code, how far its row (made from the exact work) stands from every right answer:
    the largest, over that code's rows, of the smallest over right rows of the largest cell difference.

    A code whose margin is above the tolerance changes the numbers (see :func:`diagnose_detail`).
    ``codes``: only these are needed (the early-rounding rows are made only when it holds ``rounding``).
    """
    marked = marked_cells(solution, row, stage)
    exact = solution.stage_row(stage, row)
    margins: dict[str, float] = {}
    with np.errstate(invalid="ignore"):
        for mistake in _exact_mistakes(solution, row, stage, rounding=codes is None or "rounding" in codes):
            if codes is not None and mistake.code not in codes:
                continue
            distances = [np.abs(mistake.made[marked] - other[marked]) for other in (exact, mistake.right)]
            if any(np.isnan(d).any() for d in distances):
                continue
            margin = min(float(d.max()) if d.size else 0.0 for d in distances)
            margins[mistake.code] = max(margins.get(mistake.code, 0.0), margin)
    return margins


def _keep(mistake: Mistake, cells: np.ndarray, tolerance: float) -> Rounding:
    """The Rounding of a ``rounding`` mistake with ``keep``: the fewest places (more than it kept) that stay within tolerance."""
    found = mistake.rounding
    for places in range(found.places + 1, MAX_KEEP + 1):
        made = mistake.remake(places)
        if made is None or _within(made, mistake.right, cells, tolerance):
            return found._replace(keep=places)
    return found._replace(keep=MAX_KEEP)


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
    return diagnose_detail(solution, row, stage, given, cells, own, carried, trivial)[0]


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
        detail = _keep(mistake, marked, tolerance) if mistake.rounding is not None else None
        return mistake.code, detail
    return None, None


# --- what a diagnosis says ----------------------------------------------------------


def diagnosis_name(code: str, lang: str = "en") -> str:
    """A diagnosis's short name in ``lang`` (tables; the JSON keeps the code)."""
    from attn_tutor.i18n import t

    return t(f"grading.diagnosis_name.{code}", lang)


def explanation(item: Item, lang: str = "en") -> str | None:
    """The sentence that explains ``item``'s diagnosis (for ``rounding``: which number, and places to keep)."""
    from attn_tutor.i18n import t

    if item.diagnosis is None:
        return None
    found = item.diagnosis_detail
    if item.diagnosis != "rounding" or found is None:
        return t(f"grading.diagnosis.{item.diagnosis}", lang)

    def places(n: int) -> str:
        return t(f"grading.places_{n}", lang) if n in (0, 1) else t("grading.places", lang, n=n)

    return t(
        f"grading.rounding.{found.kind}",
        lang,
        places=places(found.places),
        keep=places(found.keep),
        stage=t(f"grading.rounded_stage.{found.stage}", lang) if found.kind == "previous" else "",
        divisor=found.divisor,
        rounded=found.rounded,
    )


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

    Rows are 2–8 cells, so the cells are compared as plain floats (the same IEEE
    arithmetic numpy does: a difference, its absolute value, a comparison). What
    does not depend on the answer is worked out once and remembered (see
    :class:`_Memo`): the exact row, the marked cells, the mistakes made from the
    exact rows; and, per distinct own previous row, the row carried from it, the
    trivial-carry flags and the mistakes made from it — each by the numpy
    functions above, so every number is the one they give.
    """
    problem = solution.problem
    if stage not in problem.stages:
        raise ValueError(f"problem {problem.id!r} has no stage {stage!r}")
    if follow_through not in FOLLOW_THROUGH:
        raise ValueError(f"follow_through must be one of {tuple(FOLLOW_THROUGH)}, not {follow_through!r}")
    memo = _memo(solution)
    facts = memo.facts(row, stage)
    before = previous_stage(stage)
    basis = (own or {}).get(before) if before is not None else None
    carry = None if basis is None else memo.carry(row, stage, facts, basis)
    common = dict(
        problem=problem.id, row=problem.tokens[row], stage=stage, expected=facts.expected, hints=hints, max_points=1.0
    )
    carried_t = None if carry is None else carry.carried_t
    if given is None:
        return Item(given=None, cells=facts.missing, verdict="missing", diagnosis=None, points=0.0, carried=carried_t, **common)
    g = np.asarray(given, dtype=np.float64)
    if g.shape != (facts.width,):
        raise ValueError(f"a {stage} row of {problem.id!r} has {facts.width} cells, not {g.size}")
    values = g.tolist()
    tolerance = facts.tolerance + EPS
    exact, marked = facts.exact, facts.marked
    carried = trivial = None
    if carry is not None:
        carried, trivial = carry.carried, carry.trivial
    states = []
    for i, value in enumerate(values):
        if not marked[i]:
            states.append("masked")
        elif abs(value - exact[i]) <= tolerance:
            states.append("correct")
        elif carried is not None and not trivial[i] and abs(value - carried[i]) <= tolerance:
            states.append("follow_through")
        else:
            states.append("wrong")
    cells = tuple(states)
    verdict = _verdict(cells)
    diagnosis = detail = None
    if verdict in ("partial", "wrong"):
        scores = (own or {}).get("scores") if stage == "weights" else None
        candidates = memo.candidates(row, stage, facts, carry, basis, scores)
        diagnosis, detail = _diagnose_values(facts, candidates, values, cells)
    credit = {"correct": 1.0, "follow_through": FOLLOW_THROUGH[follow_through]}
    scored = [credit.get(state, 0.0) for state in cells if state != "masked"]
    points = round(sum(scored) / len(scored), 4) if scored else 0.0
    return Item(
        given=tuple(values),
        cells=cells,
        verdict=verdict,
        diagnosis=diagnosis,
        points=points,
        carried=carried_t,
        diagnosis_detail=detail,
        **common,
    )


def _diagnose_values(facts: "_StageFacts", candidates, values: list, cells: tuple) -> tuple[str | None, Rounding | None]:
    """:func:`diagnose_detail` on plain floats, the mistakes already chosen (``candidates``)."""
    if "wrong" not in cells:
        return None, None
    marked = facts.marked_index
    for code, made, detail, limit in candidates:
        if all(abs(values[i] - made[i]) <= limit for i in marked):
            return code, detail
    return None, None


def _close(a: tuple, b: tuple, cells: tuple, limit: float) -> bool:
    """:func:`_within` on plain floats: every cell in ``cells`` within ``limit`` (NaN never is)."""
    return all(abs(a[i] - b[i]) <= limit for i in cells)


@dataclass(frozen=True)
class _StageFacts:
    """One stage of one row, as far as it does not depend on the student."""

    width: int
    exact: tuple[float, ...]  # NaN in masked scores/scaled cells
    marked: tuple[bool, ...]
    marked_index: tuple[int, ...]
    expected: tuple[float | None, ...]
    missing: tuple[str, ...]  # the cells of a blank answer
    tolerance: float  # stage_tolerance
    window: float  # match_window


@dataclass(frozen=True)
class _Carry:
    """What a student's own previous row gives one stage: the carried row and the trivial-carry flags."""

    array: np.ndarray  # carry_forward's result
    carried: tuple[float, ...]
    carried_t: tuple[float | None, ...]
    trivial: tuple[bool, ...]


class _Memo:
    """Per solution: everything :func:`mark_stage` works out that does not depend on the answer.

    Keyed by the exact bits of the student's own rows (so ``-0.0`` and ``0.0`` are
    different rows); each table stops growing at :data:`_MEMO_LIMIT` entries.
    """

    def __init__(self, solution: Solution) -> None:
        self._solution = weakref.ref(solution)  # not the solution itself: the memo must not keep it alive
        self._facts: dict = {}
        self._carries: dict = {}
        self._exact_mistakes: dict = {}
        self._candidates: dict = {}
        self._rows: dict = {}

    @property
    def solution(self) -> Solution:
        return self._solution()

    def facts(self, row: int, stage: str) -> _StageFacts:
        key = (row, stage)
        facts = self._facts.get(key)
        if facts is None:
            solution = self.solution
            width = row_width(solution, stage)
            exact = solution.stage_row(stage, row)
            marked = marked_cells(solution, row, stage)
            facts = _StageFacts(
                width=width,
                exact=tuple(float(v) for v in exact),
                marked=tuple(bool(m) for m in marked),
                marked_index=tuple(i for i, m in enumerate(marked) if m),
                expected=tuple(float(v) if m else None for v, m in zip(exact, marked)),
                missing=tuple("missing" if m else "masked" for m in marked),
                tolerance=stage_tolerance(solution.problem, stage),
                window=match_window(solution.problem, stage),
            )
            self._facts[key] = facts
        return facts

    def carry(self, row: int, stage: str, facts: _StageFacts, basis) -> _Carry:
        prev = np.asarray(basis, dtype=np.float64)
        key = (row, stage, prev.shape, prev.tobytes())
        carry = self._carries.get(key)
        if carry is None:
            array = carry_forward(self.solution, row, stage, basis)
            trivial = trivial_carry(self.solution, row, stage, basis)
            carry = _Carry(
                array=array,
                carried=tuple(float(v) for v in array),
                carried_t=tuple(float(v) if m else None for v, m in zip(array, facts.marked)),
                trivial=tuple(bool(t) for t in trivial),
            )
            if len(self._carries) < _MEMO_LIMIT:
                self._carries[key] = carry
        return carry

    def carried_row(self, row: int, stage: str, basis) -> tuple[float, ...]:
        """``tuple(float(v) for v in carry_forward(...))``, once per distinct row."""
        prev = np.asarray(basis, dtype=np.float64)
        key = (row, stage, prev.shape, prev.tobytes())
        carried = self._rows.get(key)
        if carried is None:
            carried = tuple(float(v) for v in carry_forward(self.solution, row, stage, basis))
            if len(self._rows) < _MEMO_LIMIT:
                self._rows[key] = carried
        return carried

    def candidates(self, row: int, stage: str, facts: _StageFacts, carry: _Carry | None, basis, scores) -> list:
        """The mistakes :func:`diagnose` would try, in order, less those that change no number."""
        if scores is not None:
            own_scores = np.asarray(scores, dtype=np.float64)
            scores_key = (own_scores.shape, own_scores.tobytes())
        else:
            scores_key = None
        if basis is not None:
            prev = np.asarray(basis, dtype=np.float64)
            basis_key = (prev.shape, prev.tobytes())
        else:
            basis_key = None
        key = (row, stage, basis_key, scores_key)
        found = self._candidates.get(key)
        if found is None:
            solution = self.solution
            exact_key = (row, stage)
            fixed = self._exact_mistakes.get(exact_key)
            if fixed is None:  # kept without their remake closures, which would keep the solution alive
                marked = np.array(facts.marked)
                fixed = self._exact_mistakes[exact_key] = [
                    m._replace(rounding=_keep(m, marked, facts.tolerance), remake=None) if m.rounding is not None else m
                    for m in _exact_mistakes(solution, row, stage)
                ]
            mistakes = list(fixed)
            if basis is not None or scores is not None:
                carried_array = None if carry is None else carry.array
                mistakes += _own_mistakes(solution, row, stage, basis, carried_array, scores)
            rights = [facts.exact] + ([carry.carried] if carry is not None else [])
            limit = facts.tolerance + EPS
            wide = 2 * facts.window + EPS
            cells = facts.marked_index
            marked = np.array(facts.marked)
            found = []
            for mistake in _in_diagnosis_order(mistakes):
                made_t = tuple(mistake.made.tolist())
                others = (*rights, tuple(np.asarray(mistake.right, dtype=np.float64).tolist()))
                if any(_close(made_t, other, cells, limit) for other in others):
                    continue
                apart = not any(_close(made_t, other, cells, wide) for other in others)
                detail = mistake.rounding
                if mistake.remake is not None:
                    detail = _keep(mistake, marked, facts.tolerance)
                found.append((mistake.code, made_t, detail, (facts.window if apart else facts.tolerance) + EPS))
            if len(self._candidates) < _MEMO_LIMIT:
                self._candidates[key] = found
        return found


_MEMO_LIMIT = 100_000
_MEMOS: "weakref.WeakKeyDictionary[Solution, _Memo]" = weakref.WeakKeyDictionary()


def _memo(solution: Solution) -> _Memo:
    memo = _MEMOS.get(solution)
    if memo is None:
        memo = _MEMOS[solution] = _Memo(solution)
    return memo


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
