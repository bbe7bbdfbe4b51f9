"""Diagnosing a wrong row: which known mistake an answer matches. Pure, no I/O.

The rules are the marker's (see :mod:`attn_tutor.marking.marker`, "Diagnoses"); the
mistakes' rows are made in :mod:`attn_tutor.marking.mistakes`. A :class:`Diagnoser`
belongs to one solution of one :class:`~attn_tutor.marking.marker.Marker` and keeps
the candidate mistakes it has made, within the marker's memory (``keep``); the
mistakes from the exact rows are kept whatever the memory left, as they depend only
on (row, stage, code).

:class:`StageFacts` and :class:`Carry` are what the marker works out of one stage
before it asks for a diagnosis; they live here, below the marker, because both read them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from attn_tutor.marking.carrying import EPS
from attn_tutor.marking.mistakes import FROM_OWN_ROW, FROM_OWN_SCORES, Rounding, Shown, exact_mistakes, own_mistakes, shown_rows, with_keep
from attn_tutor.solve.engine import Solution

if TYPE_CHECKING:
    import numpy as np


class StageFacts(NamedTuple):
    """One stage of one row, as far as it does not depend on the student."""

    row: int
    stage: str
    before: str | None
    width: int
    exact: tuple[float, ...]  # NaN in masked scores/scaled cells
    marked: tuple[bool, ...]
    marked_index: tuple[int, ...]
    marked_array: np.ndarray  # marked, as numpy booleans
    expected: tuple[float | None, ...]
    missing: tuple[str, ...]  # the cells of a blank answer
    correct: tuple[str, ...]  # the cells of a right answer
    common: dict  # Item's fields that do not depend on the answer, hints aside
    tolerance: float  # stage_tolerance
    window: float  # match_window
    low: tuple[float, ...]  # each cell's window (tolerance.window): right when low <= typed <= high
    high: tuple[float, ...]
    codes: tuple[str, ...]  # the diagnoses the stage can show, in DIAGNOSES order
    own_codes: frozenset[str]  # those a student's own rows can give (the others come from the exact rows alone)


class Carry(NamedTuple):
    """What a student's own previous row gives one stage: the carried row (the trivial-carry flags
    are worked out apart, only for an answer that matches the carried row somewhere)."""

    array: np.ndarray  # carry_forward's result
    carried: tuple[float, ...]
    carried_t: tuple[float | None, ...]


class Diagnoser:
    """One solution's diagnosis: the candidate mistakes of each (row, stage, code), made once."""

    def __init__(self, solution: Solution, keep: Callable[[dict, object, object], None]) -> None:
        self.solution = solution
        self.keep = keep  # the marker's: stores a value while its memory has room
        self._fixed: dict = {}
        self._made: dict = {}  # what the mistake makers work out from the solution alone (see mistakes._Maker)
        self._candidates: dict = {}
        self._own: dict = {}
        self._shown: dict = {}  # (row, stage) -> the exact rows' rounding mistakes as displayed

    def diagnose(self, facts: StageFacts, values: tuple, carry, basis, bkey, scores, skey) -> tuple[str | None, Rounding | None]:
        """The first candidate mistake matching every marked cell within its width (the rules: the marker's docstring, "Diagnoses").

        The candidates are made code by code, in order, and only until one fits: a row
        that one mistake explains never costs the rows of the mistakes after it."""
        marked = facts.marked_index
        parts = (False, True) if basis is not None or scores is not None else (False,)
        for code in facts.codes:
            for own in parts:  # for one code, those from the exact rows first
                if own and code not in facts.own_codes:
                    continue  # the student's own rows cannot give this one
                for tried, limit in self.candidates(facts, code, own, carry, basis, bkey, scores, skey):  # each of this code
                    made = tried.made
                    if all(abs(values[i] - made[i]) <= limit for i in marked):
                        return code, tried.detail(facts)  # a rounding's places to keep: once per candidate
        return None, None

    def shown(self, facts: StageFacts, carry: Carry | None, basis, bkey) -> list[Shown]:
        """The ``rounding`` mistakes as displayed, for :func:`~attn_tutor.marking.mistakes.shown_rounding`:
        those from the exact rows (once per row and stage), then those from the student's own
        previous row (once per distinct row, within the memory)."""
        row, stage = facts.row, facts.stage
        exact = self._shown.get((row, stage))
        if exact is None:
            found = exact_mistakes(self.solution, row, stage, codes=("rounding",), known=self._made)
            exact = self._shown[(row, stage)] = shown_rows(self.solution, row, stage, found)
        if basis is None or carry is None or "rounding" not in FROM_OWN_ROW.get(stage, ()):
            return exact
        key = ("shown", row, stage, bkey)
        own = self._own.get(key)
        if own is None:
            made = self.own(("basis", row, stage, "rounding", bkey), basis=basis, carried=carry.array, codes=("rounding",))
            own = shown_rows(self.solution, row, stage, made)
            self.keep(self._own, key, own)
        return exact + own

    def own(self, key: tuple, *, basis=None, carried=None, scores=None, codes: tuple[str, ...]) -> list:
        """The mistakes made from a student's own previous row (with the row carried from it), or
        from their own scores: once per distinct row, whatever the other row was."""
        made = self._own.get(key)
        if made is None:
            _, row, stage, _, _ = key
            made = own_mistakes(self.solution, row, stage, basis, carried, scores, codes=codes, known=self._made)
            self.keep(self._own, key, made)
        return made

    def candidates(self, facts: StageFacts, code: str, own: bool, carry: Carry | None, basis, bkey, scores, skey) -> list:
        """The mistakes of one code to try, in order, as (:class:`Tried`, width) — those from the exact
        rows, or (``own``) those from the student's own rows — less those that change no number: each
        is kept only when it differs by more than the tolerance in some marked cell from every right
        answer (the exact row, the follow-through row and the right row from the same inputs).

        The exact rows' mistakes are made and compared with the exact and their own right rows once
        per (row, stage, code), whatever the memory left; only the follow-through row is compared
        per student.
        """
        row, stage = facts.row, facts.stage
        if not own:
            fixed = self._fixed.get((row, stage, code))
            if fixed is None:
                tried = self._tried(facts, exact_mistakes(self.solution, row, stage, codes=(code,), known=self._made), (facts.exact,))
                fixed = self._fixed[(row, stage, code)] = (tried, [(t, t.width) for t in tried if not t.same])
            if carry is None:
                return fixed[1]
            key: tuple = (row, stage, code, False, bkey)
            found = self._candidates.get(key)
            if found is None:
                carried, cells = carry.carried, facts.marked_index
                limit, wide = facts.tolerance + EPS, 2 * facts.window + EPS
                found = []
                for one in fixed[0]:
                    made = one.made
                    if one.same or all(abs(made[i] - carried[i]) <= limit for i in cells):
                        continue  # the mistake does not change the numbers
                    if one.near or all(abs(made[i] - carried[i]) <= wide for i in cells):
                        found.append((one, facts.tolerance + EPS))
                    else:
                        found.append((one, one.width))
                self.keep(self._candidates, key, found)
            return found
        key = (row, stage, code, True, bkey, skey)
        found = self._candidates.get(key)
        if found is None:
            mistakes = []
            if basis is not None and code in FROM_OWN_ROW[stage]:
                assert carry is not None  # carried from the same basis
                mistakes += self.own(("basis", row, stage, code, bkey), basis=basis, carried=carry.array, codes=(code,))
            if scores is not None and stage == "weights" and code in FROM_OWN_SCORES:
                mistakes += self.own(("scores", row, stage, code, skey), scores=scores, codes=(code,))
            rights = (facts.exact, carry.carried) if carry is not None else (facts.exact,)
            found = [(t, t.width) for t in self._tried(facts, mistakes, rights) if not t.same]
            self.keep(self._candidates, key, found)
        return found

    def _tried(self, facts: StageFacts, mistakes: list, rights: tuple) -> list[Tried]:
        """Each mistake as diagnosis tries it, compared with ``rights`` and its own right row."""
        import numpy as np
        limit, wide = facts.tolerance + EPS, 2 * facts.window + EPS
        cells = facts.marked_index
        found = []
        right_rows: dict[int, tuple] = {}  # mistakes share their right rows: each made a tuple once
        for mistake in mistakes:
            made = tuple(mistake.made.tolist())
            right = right_rows.get(id(mistake.right))
            if right is None:
                right = right_rows[id(mistake.right)] = tuple(np.asarray(mistake.right, dtype=np.float64).tolist())
            others = (*rights, right)
            same = any(all(abs(made[i] - other[i]) <= limit for i in cells) for other in others)
            near = same or any(all(abs(made[i] - other[i]) <= wide for i in cells) for other in others)
            # a row standing more than 2·window from every right answer matches within the window
            found.append(Tried(mistake.code, made, mistake, same, near, (facts.tolerance if near else facts.window) + EPS))
        return found


class Tried:
    """A known mistake's row as diagnosis tries it: its numbers as floats; whether it is within the
    tolerance (``same``: it changes nothing) or within 2·window (``near``) of a right answer it was
    compared with; the width an answer must match it within then; and, for a ``rounding``, its
    :class:`Rounding` with the places to keep, worked out when it is first named."""

    __slots__ = ("code", "made", "mistake", "same", "near", "width", "rounding")

    def __init__(self, code: str, made: tuple, mistake, same: bool, near: bool, width: float) -> None:
        self.code, self.made, self.mistake, self.same, self.near, self.width = code, made, mistake, same, near, width
        self.rounding: Rounding | None = None

    def detail(self, facts: StageFacts) -> Rounding | None:
        if self.mistake.rounding is None:
            return None
        if self.rounding is None:
            self.rounding = with_keep(self.mistake, facts.marked_array, facts.tolerance)
        return self.rounding
