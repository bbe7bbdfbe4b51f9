"""Marking a student's rows: pure, no I/O, no terminal. The one marker, for the quiz and ``grade``.

Each run makes one :class:`Marker` (a quiz, a ``grade`` run, each of its worker
processes) and marks through it: :meth:`Marker.stage`, :meth:`Marker.row`,
:meth:`Marker.advance`; what it works out is remembered on it, never between
runs. :meth:`Marker.exact_mistakes` lists the known mistakes that apply to a
stage with their rows (for feedback written ahead of time). The mistakes' rows
are made in :mod:`attn_tutor.marking.mistakes`; ``tests/helpers/reference_marking.py`` holds the
slower all-numpy marking the tests check this one against.

One *item* is one stage of one query row of one problem. The student types the
whole row: a cell per key for scores, scaled scores and weights (heads side by
side in a multi-head problem), a cell per output component for the output.

Cells
    ``correct``         ``low <= given <= high``: the cell's window
                        (:func:`cell_window`), ``exact ± tolerance`` with its ends
                        written as decimals (never ``np.isclose``): the same two
                        numbers the page, Moodle and Canvas are given. The tolerance is
                        per stage (:func:`stage_tolerance`): the teacher's ``tolerance``
                        for every stage, or when it is left out the default of
                        :mod:`attn_tutor.marking.tolerance` — the smallest that holds
                        every value correct work rounded half up as asked can give
                        (from the exact rows, the rows as displayed, the student's own
                        carried rows), plus half a displayed unit: such work is always
                        correct, and work further off never is.
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

Trivial-carry guard: no follow-through credit for a head whose carried work needs
none of its stage's arithmetic — the carried row can be written down from the
student's previous row without computing — judged on that previous row's unmasked
cells (:func:`attn_tutor.marking.carrying.trivial_carry`): scaled: the carried row
equals the scores row (all zeros, or a divisor of 1); weights: the carried weights are
uniform (a constant scaled row) or one-hot (within the weights' tolerance: ``0 70.711
0`` gives ``0 1 0``); output: the weights row is all zeros, constant or one-hot (the
output is zero, V's mean row or a row of V copied) — and only when that previous row
is *wrong* (some marked cell of the head beyond the previous stage's tolerance of the
exact row). Typing zeros or a one-hot row early gains nothing later; a row that is
right (all scores truly equal, so the weights truly uniform) is carried as usual.

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

A wrong row that no mistake matches so is ``rounding`` when its numbers at the asked decimals are
exactly those of correct work from a number rounded to fewer places
(:func:`attn_tutor.marking.mistakes.shown_rounding`, the practice note's rule): early rounding that
changes a displayed digit is diagnosed even where its unrounded numbers stay near the window.

The mistakes themselves, and how each row is made, are listed in :mod:`attn_tutor.marking.mistakes`.

Points: each item is worth 1 (``max_points``); a cell earns 1 if correct, the
follow-through policy's share if follow-through (full 1, half 0.5, none 0) and 0
otherwise; an item's points are the mean over its marked cells, rounded to 4
places. Hints are counted, not deducted: the teacher decides what they cost.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from attn_tutor.core.model import FollowThrough, Verdict
from attn_tutor.kinds.sampling import marking as sampling
from attn_tutor.marking import tolerance as tolerances
from attn_tutor.marking.carrying import EPS, carry_forward, marked_cells, previous_stage, row_width, trivial_carry
from attn_tutor.marking.carrying import full_row as full_row  # re-exported: the one fill-in rule, quiz and grade
from attn_tutor.marking.carrying import open_cells as open_cells  # re-exported: the quiz's and the tests' shapes
from attn_tutor.marking.carrying import segments as segments
from attn_tutor.marking.diagnosis import Carry, Diagnoser, StageFacts
from attn_tutor.marking.mistakes import DIAGNOSES as DIAGNOSES  # re-exported: the marker's vocabulary
from attn_tutor.marking.mistakes import FROM_OWN_ROW, FROM_OWN_SCORES, STAGE_DIAGNOSES, shown_rounding
from attn_tutor.marking.mistakes import early_rounding as early_rounding  # re-exported: practice's note
from attn_tutor.marking.results import Item as Item  # re-exported: the marker's results
from attn_tutor.marking.results import Report as Report
from attn_tutor.marking.results import diagnosis_name as diagnosis_name  # re-exported: what a diagnosis is called
from attn_tutor.marking.results import explanation as explanation
from attn_tutor.marking.results import rounding_sentence as rounding_sentence
from attn_tutor.marking.results import verdict_of
from attn_tutor.solve.engine import Solution

VERDICTS: tuple[Verdict, ...] = tuple(Verdict)
CELL_STATES: tuple[str, ...] = ("correct", "follow_through", "wrong", "missing", "masked")
MODES: tuple[str, ...] = ("practice", "exam")
FOLLOW_THROUGH: dict[str, float] = {policy: policy.credit for policy in FollowThrough}


def stage_tolerance(problem, stage: str) -> float:
    """The tolerance of a cell of ``stage`` (the teacher's, or the default that fits decimals)."""
    return tolerances.tolerance(problem, stage)


def cell_window(exact: float, tolerance: float, decimals: int) -> tuple[float, float]:
    """The closed interval a typed number of a cell must lie in to be ``correct``
    (:func:`attn_tutor.marking.tolerance.window`: ``exact ± tolerance``, its ends written as decimals)."""
    return tolerances.window_floats(exact, tolerance, decimals)


def match_window(problem, stage: str) -> float:
    """How close a row must be to a mistake that stands well apart from every right answer:
    the tolerance, or the rounding error of the asked decimals when a teacher's tolerance is tighter."""
    return max(stage_tolerance(problem, stage), tolerances.rounding_error(problem, stage))


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
        if solution.problem.kind == "sampling":
            return sampling.mark_stage(solution, stage, given, own or {}, credit=self.credit, hints=hints)  # type: ignore[arg-type]
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
        """One item per asked stage (default: the problem's), in pipeline order. A problem of
        another kind is marked by its own rules (``row`` is 0: it has none)."""
        if solution.problem.kind == "sampling":
            return sampling.mark(solution, answers, mode=mode, credit=self.credit, stages=stages)  # type: ignore[arg-type]
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
        found = [candidate for code in facts.codes for candidate in memo.diagnoser.candidates(facts, code, False, None, None, None, None, None)]
        listed: list[Mistake] = []
        kept: list[tuple] = []
        for tried, limit in found:
            code, made = tried.code, tried.made
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


class _Memo:
    """One solution's part of a :class:`Marker`: see there."""

    def __init__(self, solution: Solution, marker: Marker) -> None:
        self.solution = solution
        self.problem = solution.problem
        self.stages = self.problem.stages
        self.marker = marker
        self._facts: dict = {}
        self._carries: dict = {}
        self._trivial: dict = {}
        self._limits: dict = {}  # stage -> the tolerances trivial_carry judges by
        self.diagnoser = Diagnoser(solution, self._keep)
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

    def facts(self, row: int, stage: str) -> StageFacts:
        facts = self._facts.get((row, stage))
        if facts is None:
            import numpy as np
            self.check_stage(stage)
            solution, problem = self.solution, self.problem
            exact = solution.stage_row(stage, row)
            marked = tuple(bool(m) for m in marked_cells(solution, row, stage))
            tolerance = stage_tolerance(problem, stage)
            bounds = [cell_window(float(v), tolerance, problem.decimals) if m else (math.nan, math.nan) for v, m in zip(exact, marked)]
            facts = StageFacts(
                row=row,
                stage=stage,
                before=previous_stage(stage),
                width=row_width(solution, stage),
                exact=tuple(float(v) for v in exact),
                marked=marked,
                marked_index=tuple(i for i, m in enumerate(marked) if m),
                marked_array=np.array(marked),
                expected=tuple(float(v) if m else None for v, m in zip(exact, marked)),
                missing=tuple("missing" if m else "masked" for m in marked),
                correct=tuple("correct" if m else "masked" for m in marked),
                common=dict(problem=problem.id, row=problem.tokens[row], stage=stage, max_points=1.0),
                tolerance=tolerance,
                window=match_window(problem, stage),
                low=tuple(bound[0] for bound in bounds),
                high=tuple(bound[1] for bound in bounds),
                codes=tuple(code for code in DIAGNOSES if code in STAGE_DIAGNOSES[stage]),
                own_codes=FROM_OWN_ROW.get(stage, frozenset()) | (FROM_OWN_SCORES if stage == "weights" else frozenset()),
            )
            self._facts[(row, stage)] = facts
        return facts

    def typed(self, facts: StageFacts, given) -> tuple[float, ...] | None:
        """An answer as floats, checked for its number of cells."""
        if given is None:
            return None
        values = tuple(map(float, given))
        if len(values) != facts.width:
            raise ValueError(f"a {facts.stage} row of {self.problem.id!r} has {facts.width} cells, not {len(values)}")
        return values

    def mark(self, facts: StageFacts, values: tuple[float, ...] | None, own: Mapping, hints: int) -> Item:
        """The item for an answer (``values``, floats) given the student's own earlier rows."""
        vkey = values if values is None or 0.0 not in values else _key(values)
        if values is not None:
            ckey = (facts.row, facts.stage, vkey, hints)
            item = self._correct.get(ckey)
            if item is None:
                item = False
                if all(not m or low <= v <= high for v, low, high, m in zip(values, facts.low, facts.high, facts.marked)):
                    # Right in every cell: correct whatever came before, and nothing is carried.
                    item = Item(
                        given=values, cells=facts.correct, verdict=Verdict.correct, diagnosis=None, points=1.0,
                        hints=hints, expected=facts.expected, **facts.common,
                    )  # fmt: skip
                self._keep(self._correct, ckey, item)
            if isinstance(item, Item):  # (else False: not right in every cell)
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

    def _mark(self, facts: StageFacts, values, basis, scores, hints: int) -> Item:
        bkey = _key(basis)
        carry = None if basis is None else self.carry(facts, basis, bkey)
        carried_t = None if carry is None else carry.carried_t
        common = dict(expected=facts.expected, hints=hints, carried=carried_t, **facts.common)
        if values is None:
            return Item(given=None, cells=facts.missing, verdict=Verdict.missing, diagnosis=None, points=0.0, **common)
        tolerance, low, high, marked = facts.tolerance + EPS, facts.low, facts.high, facts.marked
        carried = carry.carried if carry is not None else None
        trivial = None
        states = []
        for i, value in enumerate(values):
            if not marked[i]:
                states.append("masked")
            elif low[i] <= value <= high[i]:
                states.append("correct")
            elif carried is not None and abs(value - carried[i]) <= tolerance:
                assert carry is not None  # carried comes from it
                if trivial is None:
                    trivial = self.trivial(facts, basis, bkey, carry)
                states.append("wrong" if trivial[i] else "follow_through")
            else:
                states.append("wrong")
        cells = tuple(states)
        verdict = verdict_of(cells)
        diagnosis = detail = None
        if verdict in (Verdict.partial, Verdict.wrong) and "wrong" in cells:
            diagnosis, detail = self.diagnoser.diagnose(facts, values, carry, basis, bkey, scores, _key(scores))
            if diagnosis is None and "rounding" in facts.codes:  # digits that only early rounding gives
                listed = self.diagnoser.shown(facts, carry, basis, bkey)
                detail = shown_rounding(self.solution, facts.row, facts.stage, values, listed=listed)
                diagnosis = None if detail is None else "rounding"
        credit = {"correct": 1.0, "follow_through": self.marker.credit}
        scored = [credit.get(state, 0.0) for state in cells if state != "masked"]
        points = round(sum(scored) / len(scored), 4) if scored else 0.0
        return Item(
            given=values, cells=cells, verdict=verdict, diagnosis=diagnosis, points=points, diagnosis_detail=detail, **common
        )

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

    def carry(self, facts: StageFacts, basis: tuple[float, ...], bkey) -> Carry:
        key = (facts.row, facts.stage, bkey)
        carry = self._carries.get(key)
        if carry is None:
            array = carry_forward(self.solution, facts.row, facts.stage, basis)
            carry = Carry(
                array=array,
                carried=tuple(float(v) for v in array),
                carried_t=tuple(float(v) if m else None for v, m in zip(array, facts.marked)),
            )
            self._keep(self._carries, key, carry)
        return carry

    def trivial(self, facts: StageFacts, basis: tuple[float, ...], bkey, carry: Carry) -> tuple[bool, ...]:
        """The trivial-carry flags of the row carried from ``basis`` (see the module docstring)."""
        key = (facts.row, facts.stage, bkey)
        flags = self._trivial.get(key)
        if flags is None:
            assert facts.before is not None  # work carried from a previous stage
            limits = self._limits.get(facts.stage)
            if limits is None:
                limits = self._limits[facts.stage] = (stage_tolerance(self.problem, facts.before), stage_tolerance(self.problem, "weights"))
            found = trivial_carry(self.solution, facts.row, facts.stage, basis, carried=carry.array, limits=limits)
            flags = tuple(found.tolist())
            self._keep(self._trivial, key, flags)
        return flags

    def carried_row(self, row: int, stage: str, basis: tuple[float, ...]) -> tuple[float, ...]:
        """``tuple(float(v) for v in carry_forward(...))``, once per distinct row."""
        key = (row, stage, _key(basis))
        carried = self._rows.get(key)
        if carried is None:
            carried = tuple(float(v) for v in carry_forward(self.solution, row, stage, basis))
            self._keep(self._rows, key, carried)
        return carried
