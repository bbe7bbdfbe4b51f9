"""Marking a student's rows: pure, no I/O, no terminal. The one marker, for the quiz and ``grade``.

Each run makes one :class:`Marker` (a quiz, a ``grade`` run, each of its worker
processes) and marks through it: :meth:`Marker.stage`, :meth:`Marker.row`,
:meth:`Marker.advance`; what it works out is remembered on it, never between
runs. :meth:`Marker.exact_mistakes` lists the known mistakes that apply to a
stage with their rows (for feedback written ahead of time). The mistakes' rows
are made in :mod:`attn_tutor.mistakes`; ``tests/reference_marking.py`` holds the
slower all-numpy marking the tests check this one against.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from attn_tutor import tolerance as tolerances
from attn_tutor.carrying import EPS, carry_forward, marked_cells, previous_stage, row_width, trivial_carry
from attn_tutor.carrying import full_row as full_row  # re-exported: the one fill-in rule, quiz and grade
from attn_tutor.carrying import open_cells as open_cells  # re-exported: the quiz's and the tests' shapes
from attn_tutor.carrying import segments as segments
from attn_tutor.engine import Solution
from attn_tutor.model import FollowThrough, Stage, Verdict

VERDICTS: tuple[Verdict, ...] = tuple(Verdict)
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
FOLLOW_THROUGH: dict[FollowThrough, float] = {policy: policy.credit for policy in FollowThrough}

ROUND_PLACES = (0, 1, 2)  # early rounding looked for: to these places, and to the problem's decimals
MAX_KEEP = 10

# Which mistakes each stage can show.
STAGE_DIAGNOSES: dict[Stage, tuple[str, ...]] = {
    Stage.scores: ("transposed_scores",),
    Stage.scaled: ("not_scaled", "divided_by_d", "rounding"),
    Stage.weights: ("no_exp", "not_normalized", "skipped_scaling", "column_softmax", "ignored_mask", "rounding"),
    Stage.output: ("used_keys", "ignored_mask", "rounding"),
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
    """Each finite value of a row rounded half up to ``places`` (as by hand; see attn_tutor.numbers).

    Far from a tie, ``floor(v·10^places + 0.5) / 10^places`` is the number the decimal
    rounding gives; the few cells near a tie, or too large, are rounded as decimals.
    Rows are a few cells long, so plain floats beat numpy here.
    """
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
            from attn_tutor.numbers import round_half_up

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
    # Not part of the report: the values carried from the student's own previous row
    # (None when there is none, or when every cell is correct and nothing was carried).
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


def _verdict(cells: Sequence[str]) -> Verdict:
    marked = [c for c in cells if c != "masked"]
    if all(c == "missing" for c in marked):
        return Verdict.missing
    right = [c in ("correct", "follow_through") for c in marked]
    if all(c == "correct" for c in marked):
        return Verdict.correct
    if all(right):
        return Verdict.follow_through
    return Verdict.partial if any(right) else Verdict.wrong


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


def mistake_margins(solution: Solution, row: int, stage: str, codes=None, roundings=None) -> dict:
    """Per code, how far its row (made from the exact work) stands from every right answer:
    the largest, over that code's rows, of the smallest over right rows of the largest cell difference.

    A code whose margin is above the tolerance changes the numbers (see :func:`diagnose_detail`).
    For ``rounding`` the dict also holds each ``("rounding", kind, places)``. ``codes``: only these
    are needed; ``roundings``: only these (kind, places) early roundings are made.
    """
    from attn_tutor.mistakes import exact_mistakes

    marked = marked_cells(solution, row, stage)
    exact = solution.stage_row(stage, row)
    margins: dict = {}
    rounding = (codes is None or "rounding" in codes) and (roundings if roundings is not None else True)
    with np.errstate(invalid="ignore"):
        for mistake in exact_mistakes(solution, row, stage, rounding=rounding):
            if codes is not None and mistake.code not in codes:
                continue
            distances = [np.abs(mistake.made[marked] - other[marked]) for other in (exact, mistake.right)]
            if any(np.isnan(d).any() for d in distances):
                continue
            margin = min(float(d.max()) if d.size else 0.0 for d in distances)
            margins[mistake.code] = max(margins.get(mistake.code, 0.0), margin)
            if mistake.rounding is not None:
                key = ("rounding", mistake.rounding.kind, mistake.rounding.places)
                margins[key] = max(margins.get(key, 0.0), margin)
    return margins


def _within(a: np.ndarray, b: np.ndarray, cells: np.ndarray, tolerance: float) -> bool:
    """Every cell in ``cells``: |a - b| <= tolerance (NaN never matches)."""
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(a[cells] - b[cells]) <= tolerance + EPS))


def _with_keep(mistake, cells: np.ndarray, tolerance: float) -> Rounding:
    """The Rounding of a ``rounding`` mistake with ``keep``: the fewest places (more than it kept) that stay within tolerance."""
    found = mistake.rounding
    for places in range(found.places + 1, MAX_KEEP + 1):
        made = mistake.remake(places)
        if made is None or _within(made, mistake.right, cells, tolerance):
            return found._replace(keep=places)
    return found._replace(keep=MAX_KEEP)


# --- the marker ---------------------------------------------------------------------


class Mistake(NamedTuple):
    """A known mistake's row: its diagnosis code and the numbers it gives (None: an unmarked cell)."""

    code: str
    row: tuple[float | None, ...]


class Marker:
    """One run's marking — a quiz, a ``grade`` run, one worker process — and its memory.

    Everything that does not depend on the student's answer is worked out once per
    solution and remembered here, never in a module-level cache: the exact row, the
    marked cells, the mistakes made from the exact rows; per distinct own previous
    row, the row carried from it, the trivial-carry flags and the mistakes made from
    it; and each distinct (answer, own earlier rows) marked once. Rows are 2–8
    cells, so the cells are compared as plain floats (the same IEEE arithmetic numpy
    does); the rows themselves are made by the numpy functions above, so every
    number is the one they give. Own rows are told apart to the bit (``-0.0`` is not
    ``0.0``). The marker stops remembering after ``limit`` entries.
    """

    def __init__(self, *, follow_through: str = "full", limit: int = 500_000) -> None:
        if follow_through not in FOLLOW_THROUGH:
            raise ValueError(f"follow_through must be one of {tuple(FOLLOW_THROUGH)}, not {follow_through!r}")
        self.follow_through = follow_through
        self.credit = FOLLOW_THROUGH[follow_through]
        self.room = limit  # entries it may still remember
        self._memos: dict[int, _Memo] = {}

    def _memo(self, solution: Solution) -> _Memo:
        memo = self._memos.get(id(solution))
        if memo is None or memo.solution is not solution:
            memo = self._memos[id(solution)] = _Memo(solution, self)
        return memo

    def stage(
        self,
        solution: Solution,
        row: int,
        stage: str,
        given: Sequence[float] | None,
        own: Mapping[str, Sequence[float]] | None = None,
        *,
        hints: int = 0,
    ) -> Item:
        """Mark one stage of one query row; ``own`` holds the student's rows of earlier
        stages to carry from (see :meth:`advance`); without it there is no follow-through."""
        memo = self._memo(solution)
        facts = memo.facts(row, stage)
        return memo.mark(facts, memo.typed(facts, given), own or {}, hints)

    def row(
        self,
        solution: Solution,
        row: int,
        answers: Mapping[str, Sequence[float] | None],
        *,
        stages: Sequence[str] | None = None,
        mode: str = "exam",
        hints: Mapping[str, int] | None = None,
    ) -> list[Item]:
        """One item per asked stage (default: the problem's), in pipeline order."""
        memo = self._memo(solution)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        asked = None if stages is None else tuple(stages)
        plan = memo.plan(row, asked)
        key = _row_key((row, asked, mode), plan, answers, hints)
        if key is not None:
            known = memo.rows_marked.get(key)
            if known is not None:
                return list(known)
        items: list[Item] = []
        own: dict[str, tuple[float, ...]] = {}
        for stage, facts in plan:
            given = None
            if facts is not None:  # an asked stage
                given = memo.typed(facts, answers.get(stage))
                items.append(memo.mark(facts, given, own, hints.get(stage, 0) if hints else 0))
            if given is not None:
                own[stage] = given  # what advance does in exam mode and practice replaces below
                if mode == "practice":
                    own = {stage: given}
            else:
                own = memo.advance(row, stage, None, own, mode, in_place=True)
        if key is not None:
            memo._keep(memo.rows_marked, key, tuple(items))
        return items

    def advance(
        self,
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
        values = None if given is None else tuple(map(float, given))
        return self._memo(solution).advance(row, stage, values, dict(own or {}), mode, in_place=True)

    def exact_mistakes(self, solution: Solution, row: int, stage: str) -> list[Mistake]:
        """Each known mistake that applies to (row, stage) made from the exact earlier stages,
        in :data:`DIAGNOSES` order: only those whose numbers differ from the right row by more
        than the tolerance in some marked cell (the ones marking can diagnose), and none whose
        row is one listed before it (within its match width): marking would name that one.
        Each such early rounding is listed as its own ``rounding`` row."""
        memo = self._memo(solution)
        facts = memo.facts(row, stage)
        marked = facts.marked
        found = [candidate for code in facts.codes for candidate in memo.candidates(facts, code, None, None, None, None, None)]
        listed: list[Mistake] = []
        kept: list[tuple] = []
        for code, made, _detail, limit in found:
            if any(all(abs(made[i] - other[i]) <= limit for i in facts.marked_index) for other in kept):
                continue  # the same numbers as a mistake tried before it: marking names that one
            kept.append(made)
            listed.append(Mistake(code, tuple(v if m else None for v, m in zip(made, marked))))
        return listed


def mark_stage(solution: Solution, row: int, stage: str, given, own=None, *, follow_through: str = "full", hints: int = 0) -> Item:
    """:meth:`Marker.stage` with a marker of its own (nothing remembered between calls)."""
    return Marker(follow_through=follow_through).stage(solution, row, stage, given, own, hints=hints)


def mark_row(solution: Solution, row: int, answers, *, stages=None, mode: str = "exam", follow_through: str = "full", hints=None) -> list[Item]:
    """:meth:`Marker.row` with a marker of its own."""
    return Marker(follow_through=follow_through).row(solution, row, answers, stages=stages, mode=mode, hints=hints)


def advance(solution: Solution, row: int, stage: str, given, own, mode: str) -> dict[str, tuple[float, ...]]:
    """:meth:`Marker.advance` with a marker of its own."""
    return Marker().advance(solution, row, stage, given, own, mode)


def _row_key(head: tuple, plan: tuple, answers: Mapping, hints: Mapping | None):
    """A whole row's answers as a dictionary key (rows typed alike are marked once), or None
    when some answer is not a tuple (a list or an array: marked without remembering)."""
    values = []
    for stage, facts in plan:
        if facts is not None:
            given = answers.get(stage)
            if given is not None and type(given) is not tuple:
                return None
            values.append(_key(given))
    return *head, tuple(sorted(hints.items())) if hints else None, *values


def _key(values: tuple[float, ...] | None):
    """A row as a dictionary key, exact to the bit where it matters: -0.0 is not 0.0."""
    if values is None or 0.0 not in values:
        return values
    return values, tuple(math.copysign(1.0, v) for v in values)


class _StageFacts(NamedTuple):
    """One stage of one row, as far as it does not depend on the student."""

    row: int
    stage: str
    before: str | None
    width: int
    exact: tuple[float, ...]  # NaN in masked scores/scaled cells
    marked: tuple[bool, ...]
    marked_index: tuple[int, ...]
    expected: tuple[float | None, ...]
    missing: tuple[str, ...]  # the cells of a blank answer
    correct: tuple[str, ...]  # the cells of a right answer
    common: dict  # Item's fields that do not depend on the answer, hints aside
    tolerance: float  # stage_tolerance
    window: float  # match_window
    codes: tuple[str, ...]  # the diagnoses the stage can show, in DIAGNOSES order


class _Carry(NamedTuple):
    """What a student's own previous row gives one stage: the carried row and the trivial-carry flags."""

    array: np.ndarray  # carry_forward's result
    carried: tuple[float, ...]
    carried_t: tuple[float | None, ...]
    trivial: tuple[bool, ...]


class _Memo:
    """One solution's part of a :class:`Marker`: see there."""

    def __init__(self, solution: Solution, marker: Marker) -> None:
        self.solution = solution
        self.problem = solution.problem
        self.stages = self.problem.stages
        self.marker = marker
        self._facts: dict = {}
        self._carries: dict = {}
        self._fixed: dict = {}
        self._candidates: dict = {}
        self._rows: dict = {}
        self._marks: dict = {}
        self._correct: dict = {}  # (row, stage, answer, hints) -> the correct Item, or False
        self._plans: dict = {}
        self.rows_marked: dict = {}  # (row, stages, mode, hints, each asked stage's answer) -> its items

    def _keep(self, table: dict, key, value) -> None:
        if self.marker.room > 0:
            self.marker.room -= 1
            table[key] = value

    def plan(self, row: int, stages: tuple[str, ...] | None) -> tuple:
        """(stage, its facts if asked else None) for every stage of the problem, once per (row, stages)."""
        key = (row, stages)
        plan = self._plans.get(key)
        if plan is None:
            asked = self.problem.asked_stages if stages is None else stages
            for stage in asked:
                self.check_stage(stage)
            plan = self._plans[key] = tuple((stage, self.facts(row, stage) if stage in asked else None) for stage in self.stages)
        return plan

    def check_stage(self, stage: str) -> None:
        if stage not in self.stages:
            raise ValueError(f"problem {self.problem.id!r} has no stage {stage!r}")

    def facts(self, row: int, stage: str) -> _StageFacts:
        facts = self._facts.get((row, stage))
        if facts is None:
            self.check_stage(stage)
            solution, problem = self.solution, self.problem
            exact = solution.stage_row(stage, row)
            marked = tuple(bool(m) for m in marked_cells(solution, row, stage))
            facts = _StageFacts(
                row=row,
                stage=stage,
                before=previous_stage(stage),
                width=row_width(solution, stage),
                exact=tuple(float(v) for v in exact),
                marked=marked,
                marked_index=tuple(i for i, m in enumerate(marked) if m),
                expected=tuple(float(v) if m else None for v, m in zip(exact, marked)),
                missing=tuple("missing" if m else "masked" for m in marked),
                correct=tuple("correct" if m else "masked" for m in marked),
                common=dict(problem=problem.id, row=problem.tokens[row], stage=stage, max_points=1.0),
                tolerance=stage_tolerance(problem, stage),
                window=match_window(problem, stage),
                codes=tuple(code for code in DIAGNOSES if code in STAGE_DIAGNOSES[stage]),
            )
            self._facts[(row, stage)] = facts
        return facts

    def typed(self, facts: _StageFacts, given) -> tuple[float, ...] | None:
        """An answer as floats, checked for its number of cells."""
        if given is None:
            return None
        values = tuple(map(float, given))
        if len(values) != facts.width:
            raise ValueError(f"a {facts.stage} row of {self.problem.id!r} has {facts.width} cells, not {len(values)}")
        return values

    def mark(self, facts: _StageFacts, values: tuple[float, ...] | None, own: Mapping, hints: int) -> Item:
        """The item for an answer (``values``, floats) given the student's own earlier rows."""
        vkey = values if values is None or 0.0 not in values else _key(values)
        if values is not None:
            ckey = (facts.row, facts.stage, vkey, hints)
            item = self._correct.get(ckey)
            if item is None:
                tolerance = facts.tolerance + EPS
                item = False
                if all(not m or abs(v - e) <= tolerance for v, e, m in zip(values, facts.exact, facts.marked)):
                    # Right in every cell: correct whatever came before, and nothing is carried.
                    item = Item(
                        given=values, cells=facts.correct, verdict=Verdict.correct, diagnosis=None, points=1.0,
                        hints=hints, expected=facts.expected, **facts.common,
                    )  # fmt: skip
                self._keep(self._correct, ckey, item)
            if item:
                return item
        before = facts.before
        basis = own.get(before) if before is not None else None
        scores = own.get("scores") if facts.stage == "weights" else None
        if basis is not None and type(basis) is not tuple:
            basis = tuple(map(float, basis))
        if scores is not None and type(scores) is not tuple:
            scores = tuple(map(float, scores))
        key = (facts.row, facts.stage, vkey, hints, _key(basis), _key(scores))
        item = self._marks.get(key)
        if item is None:
            item = self._mark(facts, values, basis, scores, hints)
            self._keep(self._marks, key, item)
        return item

    def _mark(self, facts: _StageFacts, values, basis, scores, hints: int) -> Item:
        bkey = _key(basis)
        carry = None if basis is None else self.carry(facts, basis, bkey)
        carried_t = None if carry is None else carry.carried_t
        common = dict(expected=facts.expected, hints=hints, carried=carried_t, **facts.common)
        if values is None:
            return Item(given=None, cells=facts.missing, verdict=Verdict.missing, diagnosis=None, points=0.0, **common)
        tolerance, exact, marked = facts.tolerance + EPS, facts.exact, facts.marked
        carried, trivial = (carry.carried, carry.trivial) if carry is not None else (None, None)
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
        if verdict in (Verdict.partial, Verdict.wrong) and "wrong" in cells:
            diagnosis, detail = self._diagnose(facts, values, carry, basis, bkey, scores, _key(scores))
        credit = {"correct": 1.0, "follow_through": self.marker.credit}
        scored = [credit.get(state, 0.0) for state in cells if state != "masked"]
        points = round(sum(scored) / len(scored), 4) if scored else 0.0
        return Item(
            given=values, cells=cells, verdict=verdict, diagnosis=diagnosis, points=points, diagnosis_detail=detail, **common
        )

    def _diagnose(self, facts: _StageFacts, values: tuple, carry, basis, bkey, scores, skey) -> tuple[str | None, Rounding | None]:
        """The first candidate mistake matching every marked cell within its width (see the module docstring).

        The candidates are made code by code, in order, and only until one fits: a row
        that one mistake explains never costs the rows of the mistakes after it."""
        marked = facts.marked_index
        for code in facts.codes:
            candidates = self.candidates(facts, code, carry, basis, bkey, scores, skey)
            for n, (code, made, detail, limit) in enumerate(candidates):
                if all(abs(values[i] - made[i]) <= limit for i in marked):
                    if isinstance(detail, tuple) and not isinstance(detail, Rounding):
                        detail = _with_keep(*detail)
                        candidates[n] = (code, made, detail, limit)  # once per candidate
                    return code, detail
        return None, None

    def advance(self, row: int, stage: str, values, own: dict, mode: str, *, in_place: bool) -> dict:
        """:meth:`Marker.advance` on float rows; ``own`` is changed and returned in exam mode."""
        if mode == "practice":
            return {} if values is None else {stage: values}
        if values is not None:
            own[stage] = values
        else:
            before = previous_stage(stage)
            if before is not None and before in own:
                own[stage] = self.carried_row(row, stage, tuple(map(float, own[before])))
        return own

    def carry(self, facts: _StageFacts, basis: tuple[float, ...], bkey) -> _Carry:
        key = (facts.row, facts.stage, bkey)
        carry = self._carries.get(key)
        if carry is None:
            array = carry_forward(self.solution, facts.row, facts.stage, basis)
            trivial = trivial_carry(self.solution, facts.row, facts.stage, basis)
            carry = _Carry(
                array=array,
                carried=tuple(float(v) for v in array),
                carried_t=tuple(float(v) if m else None for v, m in zip(array, facts.marked)),
                trivial=tuple(bool(t) for t in trivial),
            )
            self._keep(self._carries, key, carry)
        return carry

    def carried_row(self, row: int, stage: str, basis: tuple[float, ...]) -> tuple[float, ...]:
        """``tuple(float(v) for v in carry_forward(...))``, once per distinct row."""
        key = (row, stage, _key(basis))
        carried = self._rows.get(key)
        if carried is None:
            carried = tuple(float(v) for v in carry_forward(self.solution, row, stage, basis))
            self._keep(self._rows, key, carried)
        return carried

    def candidates(self, facts: _StageFacts, code: str, carry: _Carry | None, basis, bkey, scores, skey) -> list:
        """The mistakes of one code to try, in order (those from the exact rows first, then
        from the student's own), less those that change no number: each is kept only
        when it differs by more than the tolerance in some marked cell from every right answer
        (the exact row, the follow-through row and the right row from the same inputs).
        """
        from attn_tutor.mistakes import exact_mistakes, own_mistakes

        row, stage = facts.row, facts.stage
        key = (row, stage, bkey, skey, code)
        found = self._candidates.get(key)
        if found is None:
            codes = (code,)
            fixed = self._fixed.get((row, stage, code))
            if fixed is None:
                fixed = self._fixed[(row, stage, code)] = exact_mistakes(self.solution, row, stage, codes=codes)
            mistakes = list(fixed)
            if basis is not None or scores is not None:
                carried_array = None if carry is None else carry.array
                mistakes += own_mistakes(self.solution, row, stage, basis, carried_array, scores, codes=codes)
            rights = [facts.exact] + ([carry.carried] if carry is not None else [])
            limit = facts.tolerance + EPS
            wide = 2 * facts.window + EPS
            cells = facts.marked_index
            marked = np.array(facts.marked)
            found = []
            for mistake in mistakes:
                made_t = tuple(mistake.made.tolist())
                others = (*rights, tuple(np.asarray(mistake.right, dtype=np.float64).tolist()))
                if any(all(abs(made_t[i] - other[i]) <= limit for i in cells) for other in others):
                    continue  # the mistake does not change the numbers
                apart = not any(all(abs(made_t[i] - other[i]) <= wide for i in cells) for other in others)
                # a rounding's places to keep are worked out when it is named (see _diagnose)
                detail = (mistake, marked, facts.tolerance) if mistake.rounding is not None else None
                found.append((mistake.code, made_t, detail, (facts.window if apart else facts.tolerance) + EPS))
            self._keep(self._candidates, key, found)
        return found
