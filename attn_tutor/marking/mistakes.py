"""Known mistakes' rows, made with numpy from the exact or a student's own earlier rows.

Each is a :class:`Candidate`: (code, mistaken row, right row from the same inputs,
and for ``rounding`` what was rounded); the marker (:class:`attn_tutor.marking.marker.Marker`)
keeps those that change the numbers (:meth:`attn_tutor.marking.marker.Marker.exact_mistakes`
says which) and tries them in :data:`DIAGNOSES` order, code by code. The marking rules are stated in :mod:`attn_tutor.marking.marker`'s
docstring; the mistakes are these.

The mistakes (``b``: the previous stage's row, exact or the student's own; ``k``:
each of 0, 1, 2 and every place up to the problem's decimals; rounding half up, as by hand):

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
                       ``round(b, k)``, output ``round(b, k)·V`` (``k`` below the
                       decimals: the row rounded as asked is correct work);
                       ``exps``: weights ``round(e^b, k) / Σ round(e^b, k)``;
                       ``sum``: weights ``e^b / round(Σ e^b, k)``.
                       The item carries a :class:`Rounding` (what, ``k``, and
                       ``keep``: the fewest places above ``k`` whose row is within
                       ``tol`` of the right one, at most 10); the explanation names
                       the number and the places to keep. A row no such rounding
                       explains is never ``rounding``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from attn_tutor.core.model import Stage
from attn_tutor.core.rounding import fmt_given, rounded
from attn_tutor.marking.carrying import EPS, carry_forward, marked_cells, open_cells, previous_stage, segments
from attn_tutor.solve import engine
from attn_tutor.solve.engine import Solution

if TYPE_CHECKING:
    import numpy as np

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
MAX_KEEP = 10

# Which mistakes each stage can show.
STAGE_DIAGNOSES: dict[str, tuple[str, ...]] = {
    Stage.scores: ("transposed_scores",),
    Stage.scaled: ("not_scaled", "divided_by_d", "rounding"),
    Stage.weights: ("no_exp", "not_normalized", "skipped_scaling", "column_softmax", "ignored_mask", "rounding"),
    Stage.output: ("used_keys", "ignored_mask", "rounding"),
}

# Which of them a student's own rows can give (:func:`own_mistakes`): from the previous stage's
# row, per stage, and (weights only) from the scores row; the rest come from the givens alone.
FROM_OWN_ROW: dict[str, frozenset[str]] = {
    Stage.scaled: frozenset(("not_scaled", "divided_by_d", "rounding")),
    Stage.weights: frozenset(("no_exp", "not_normalized", "ignored_mask", "rounding")),
    Stage.output: frozenset(("used_keys", "rounding")),
}
FROM_OWN_SCORES: frozenset[str] = frozenset(("skipped_scaling", "rounding"))

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


ROUND_PLACES_AT_LEAST = 2  # early rounding looked for at 0, 1, 2 places, and at every place up to the decimals


def round_places(problem) -> tuple[int, ...]:
    """The places early rounding is looked for at: 0, 1, 2 and every place up to the problem's
    decimals (the previous row only below them: see ``previous`` in the module docstring)."""
    return tuple(range(max(problem.decimals, ROUND_PLACES_AT_LEAST) + 1))


def half_up(values, places: int) -> np.ndarray:
    """Each finite value of a row rounded half up to ``places`` (as by hand): the one rule of
    :func:`attn_tutor.core.rounding.rounded`, exact at every magnitude."""
    import numpy as np
    return np.array([rounded(v, places) for v in np.asarray(values, dtype=np.float64).tolist()], dtype=np.float64)


def _per_head(solution: Solution, stage: str, make) -> np.ndarray | None:
    """Join ``make(h, head)`` over heads; None if any head cannot make it (always a new array)."""
    import numpy as np
    if len(solution.heads) == 1:  # most problems: no join
        part = make(0, solution.heads[0])
        return None if part is None else np.array(part, dtype=np.float64)
    parts = []
    for h, head in enumerate(solution.heads):
        part = make(h, head)
        if part is None:
            return None
        parts.append(np.asarray(part, dtype=np.float64))
    return np.concatenate(parts)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Two rows alike, NaN matching NaN (``np.array_equal(..., equal_nan=True)`` for a few cells)."""
    return all(x == y or (x != x and y != y) for x, y in zip(a.tolist(), b.tolist()))


def _column_softmax(head, row: int) -> np.ndarray:
    import numpy as np
    scaled, mask = head.scaled, head.mask
    x = np.where(mask, scaled, -np.inf)
    top = np.max(x, axis=0, keepdims=True)
    e = np.where(mask, np.exp(x - np.where(np.isfinite(top), top, 0.0)), 0.0)
    sums = e.sum(axis=0)
    return np.where(mask[row], e[row] / np.where(sums > 0, sums, 1.0), 0.0)


def _unmasked_scaled(head, row: int) -> np.ndarray:
    """Row ``row`` of the scaled scores over every key, the mask ignored (from the givens)."""
    return (head.Q[row] @ head.K.T) / head.divisor


class Candidate(NamedTuple):
    """A mistaken row: its code, the row, the right row from the same inputs, and for ``rounding``
    what was rounded (``keep`` still 0) with the row ``remake(places)`` gives for other places."""

    code: str
    made: np.ndarray
    right: np.ndarray
    rounding: Rounding | None = None
    remake: Callable[[int], np.ndarray | None] | None = None


def exact_mistakes(solution: Solution, row: int, stage: str, *, rounding=True, codes=None, known=None) -> list[Candidate]:
    """The mistakes made from the exact rows (and the givens), in the order they are tried
    (``codes``: only those with these codes are made; ``known``: see :class:`_Maker`).

    The previous stage is taken as exact and, for ``rounding``, also as displayed where that
    differs (rounded half up to the asked decimals, as practice mode shows it and a student
    carries it on): an early rounding is named only when it gives the typed digits exactly, and
    a number rounded too soon from the displayed row gives other digits than from the exact
    one. The other mistakes match within a width that holds both."""
    before = previous_stage(stage)
    previous = None if before is None else solution.stage_row(before, row)
    bases = [] if previous is None else [(previous, solution.stage_row(stage, row))]
    score_rows = [solution.stage_row("scores", row)] if stage == "weights" else []
    found = _mistakes(solution, row, stage, bases, score_rows, fixed=True, rounding=rounding, codes=codes, known=known)
    if previous is not None and rounding and (codes is None or "rounding" in codes):
        shown = half_up(previous, solution.problem.decimals)
        if not _same(shown, previous):
            displayed = [(shown, carry_forward(solution, row, stage, shown))]
            found += _mistakes(solution, row, stage, displayed, [], fixed=False, rounding=rounding, codes=("rounding",), known=known)
    return found


def own_mistakes(
    solution: Solution, row: int, stage: str, basis, carried: np.ndarray | None, scores, *, rounding=True, codes=None, known=None
) -> list[Candidate]:
    """The mistakes made from a student's own previous row (``carried``: the right row from it) and own scores."""
    import numpy as np
    bases = [] if basis is None else [(np.asarray(basis, dtype=np.float64), carried)]
    score_rows = [np.asarray(scores, dtype=np.float64)] if stage == "weights" and scores is not None else []
    return _mistakes(solution, row, stage, bases, score_rows, fixed=False, rounding=rounding, codes=codes, known=known)


def _mistakes(
    solution: Solution, row: int, stage: str, bases: list, score_rows: list, *, fixed: bool, rounding=True, codes=None, known=None
) -> list[Candidate]:
    """Mistaken rows from each (previous row, right row) basis and each scores row.

    ``fixed``: also the mistakes that depend on the givens alone (transposed scores,
    column softmax, the mask ignored down to the output). ``codes``: make only these
    (the marker asks code by code, and stops at the first that fits).
    """
    import numpy as np
    maker = _Maker(solution, row, stage, rounding=rounding, codes=codes, known=known)
    from_basis = {"scaled": maker.scaled, "weights": maker.weights, "output": maker.output}.get(stage)
    with np.errstate(all="ignore"):
        if stage == "scores" and fixed:
            maker.transposed()
        if from_basis is not None:
            for basis, right in bases:
                from_basis(basis, right)
        for scores in score_rows if stage == "weights" else ():
            maker.from_scores(scores)
        if fixed:
            maker.from_givens()
    return maker.result


class _Maker:
    """One call of :func:`_mistakes`: what it makes (codes, places), the divisors rounded once,
    the rows made so far, and a method per kind of basis.

    ``known``: a dict the caller keeps for one solution (the marker does), where what depends on
    the solution alone — the divisors rounded, their labels, whether a row has a masked key — is
    worked out once for all its calls; None: once per call."""

    def __init__(self, solution: Solution, row: int, stage: str, *, rounding, codes, known=None) -> None:
        self.solution, self.row, self.stage, self.rounding = solution, row, stage, rounding
        self.problem = solution.problem
        self.before = previous_stage(stage)
        self.prev_segs = segments(solution, self.before) if self.before is not None else []
        self.want = frozenset(DIAGNOSES) if codes is None else frozenset(codes)
        self.places = round_places(self.problem) if rounding and "rounding" in self.want else ()  # no early-rounding rows
        known = {} if known is None else known
        masked = known.get(("masked_row", row))
        if masked is None:
            masked = known[("masked_row", row)] = any(not head.mask[row].all() for head in solution.heads)
        self.masked_row = masked
        self.result: list[Candidate] = []
        self._divisors: dict[tuple[int, float], float | None] = known.setdefault("divisors", {})  # (places, divisor) -> rounded
        self._labels: dict[int, dict] = known.setdefault("labels", {})  # places -> the divisor's labels

    def per_head(self, make) -> np.ndarray | None:
        return _per_head(self.solution, self.stage, make)

    def add(self, code: str, made: np.ndarray | None, right: np.ndarray) -> None:
        if made is not None and code in self.want:
            self.result.append(Candidate(code, made, right))

    def tried(self, kind: str) -> tuple[int, ...]:
        """The places tried for one kind of early rounding (``rounding`` may name (kind, places) pairs)."""
        if isinstance(self.rounding, (set, frozenset)):
            return tuple(p for p in self.places if (kind, p) in self.rounding)
        return self.places

    def roundings(self, kind: str, where: str | None, remake, right: np.ndarray) -> None:
        """The ``rounding`` rows of one kind, each place tried (``remake(places)``: the row, or None)."""
        assert where is not None  # a stage after the scores, which has a previous one
        for places in self.tried(kind):
            made = remake(places)
            if made is not None:
                labels = self.divisor_labels(places) if kind == "divisor" else {}
                self.result.append(Candidate("rounding", made, right, Rounding(kind, places, 0, where, **labels), remake))

    def rounded_divisor(self, places: int, head) -> float | None:
        key = (places, float(head.divisor))
        if key not in self._divisors:
            self._divisors[key] = _rounded(key[1], places)
        return self._divisors[key]

    def divisor_labels(self, places: int) -> dict:
        if places not in self._labels:

            self._labels[places] = dict(divisor="", rounded="")
            for head in self.solution.heads:
                value = self.rounded_divisor(places, head)
                if value is not None:
                    name = f"√{head.d_k}" if self.problem.divide_by is None else fmt_given(head.divisor, MAX_KEEP)
                    self._labels[places] = dict(divisor=name, rounded=fmt_given(value, places))
                    break
        return dict(self._labels[places])

    def transposed(self) -> None:
        row = self.row

        def transposed(h, head):
            import numpy as np
            if head.Q.shape[0] != head.K.shape[0]:
                return None
            raw = head.Q @ head.K.T
            return np.where(head.mask[row], raw[:, row], np.nan)

        if "transposed_scores" in self.want:
            self.add("transposed_scores", self.per_head(transposed), self.solution.stage_row(self.stage, row))

    def scaled(self, basis: np.ndarray, right: np.ndarray) -> None:
        import numpy as np
        row, segs, heads = self.row, self.prev_segs, self.solution.heads
        if "not_scaled" in self.want:
            self.add("not_scaled", self.per_head(lambda h, hd: np.where(hd.mask[row], basis[segs[h]], np.nan)), right)
        if self.problem.divide_by is None and "divided_by_d" in self.want:
            self.add("divided_by_d", self.per_head(lambda h, hd: np.where(hd.mask[row], basis[segs[h]] / hd.d_k, np.nan)), right)

        def by_rounded_divisor(places):
            import numpy as np
            if all(self.rounded_divisor(places, hd) is None for hd in heads):
                return None
            return self.per_head(lambda h, hd: np.where(hd.mask[row], basis[segs[h]] / (self.rounded_divisor(places, hd) or hd.divisor), np.nan))

        def from_rounded_scores(places):
            import numpy as np
            if places >= self.problem.decimals:
                return None  # the previous row rounded as asked is correct work, not too soon
            rounded = half_up(basis, places)
            if _same(rounded, basis):
                return None
            return self.per_head(lambda h, hd: np.where(hd.mask[row], rounded[segs[h]] / hd.divisor, np.nan))

        self.roundings("divisor", self.stage, by_rounded_divisor, right)
        self.roundings("previous", self.before, from_rounded_scores, right)

    def weights(self, basis: np.ndarray, right: np.ndarray) -> None:
        import numpy as np
        row, segs, want = self.row, self.prev_segs, self.want

        def no_exp(h, head):
            import numpy as np
            mask = head.mask[row]
            part = np.where(mask, basis[segs[h]], 0.0)
            total = part.sum()
            return None if abs(total) <= EPS else np.where(mask, part / total, 0.0)

        if "no_exp" in want:
            self.add("no_exp", self.per_head(no_exp), right)
        if "not_normalized" in want:
            self.add("not_normalized", self.per_head(lambda h, hd: engine.student_exps(basis[segs[h]], hd.mask[row])), right)
        if self.masked_row and "ignored_mask" in want:
            full = self.per_head(lambda h, hd: engine.softmax(np.where(hd.mask[row], basis[segs[h]], _unmasked_scaled(hd, row))))
            assert full is not None  # softmax makes every head's row
            self.add("ignored_mask", full, right)
            self.add("ignored_mask", np.where(open_cells(self.solution, row, self.stage), full, 0.0), right)
        if self.places:
            self._weights_roundings(basis, right)

    def _weights_roundings(self, basis: np.ndarray, right: np.ndarray) -> None:
        row, segs = self.row, self.prev_segs
        exps = [engine.student_exps(basis[segs[h]], hd.mask[row]) for h, hd in enumerate(self.solution.heads)]
        exp_sums = [e.sum() for e in exps]  # e^b and its sum per head, for every place tried

        def from_rounded_scaled(places):
            import numpy as np
            if places >= self.problem.decimals:
                return None  # the previous row rounded as asked is correct work, not too soon
            rounded = half_up(basis, places)
            if _same(rounded, basis):
                return None
            return self.per_head(lambda h, hd: engine.softmax(np.where(hd.mask[row], rounded[segs[h]], 0.0), hd.mask[row]))

        def from_rounded_exps(places):
            def make(h, head):
                import numpy as np
                e = half_up(exps[h], places)
                total = e.sum()
                return None if not np.isfinite(total) or total <= 0 else np.where(head.mask[row], e / total, 0.0)

            return self.per_head(make)

        def from_rounded_sum(places):
            def make(h, head):
                import numpy as np
                total = rounded(float(exp_sums[h]), places)  # half_up of one number
                return None if not np.isfinite(total) or total <= 0 else np.where(head.mask[row], exps[h] / total, 0.0)

            return self.per_head(make)

        self.roundings("previous", self.before, from_rounded_scaled, right)
        self.roundings("exps", self.stage, from_rounded_exps, right)
        self.roundings("sum", self.stage, from_rounded_sum, right)

    def output(self, basis: np.ndarray, right: np.ndarray) -> None:
        segs = self.prev_segs

        def used_keys(h, head):
            if head.K.shape[1] != head.V.shape[1]:
                return None
            return engine.mix(basis[segs[h]], head.K)

        if "used_keys" in self.want:
            self.add("used_keys", self.per_head(used_keys), right)

        def from_rounded_weights(places):
            if places >= self.problem.decimals:
                return None  # the previous row rounded as asked is correct work, not too soon
            rounded = half_up(basis, places)
            if _same(rounded, basis):
                return None
            return self.per_head(lambda h, hd: engine.mix(rounded[segs[h]], hd.V))

        self.roundings("previous", self.before, from_rounded_weights, right)

    def from_scores(self, scores: np.ndarray) -> None:
        """Weights from a scores row: the scaling skipped, or the divisor rounded too soon."""
        if "skipped_scaling" not in self.want and not self.places:
            return
        row, segs, heads = self.row, segments(self.solution, "scores"), self.solution.heads

        def softmax_of(divide):
            import numpy as np
            return self.per_head(lambda h, hd: engine.softmax(np.where(hd.mask[row], divide(scores[segs[h]], hd), 0.0), hd.mask[row]))

        right = softmax_of(lambda part, hd: part / hd.divisor)
        if "skipped_scaling" in self.want:
            self.add("skipped_scaling", softmax_of(lambda part, hd: part), right)

        def by_rounded_divisor(places):
            if all(self.rounded_divisor(places, hd) is None for hd in heads):
                return None
            return softmax_of(lambda part, hd: part / (self.rounded_divisor(places, hd) or hd.divisor))

        self.roundings("divisor", self.stage, by_rounded_divisor, right)

    def from_givens(self) -> None:
        """The mistakes of the givens alone: the softmax down the columns, the mask ignored down to the output."""
        solution, row, stage = self.solution, self.row, self.stage
        if stage == "weights" and "column_softmax" in self.want:
            self.add("column_softmax", self.per_head(lambda h, hd: _column_softmax(hd, row)), solution.stage_row(stage, row))
        if stage == "output" and self.masked_row and solution.problem.has_values and "ignored_mask" in self.want:
            ignored = self.per_head(lambda h, hd: engine.mix(engine.softmax(_unmasked_scaled(hd, row)), hd.V))
            self.add("ignored_mask", ignored, solution.stage_row(stage, row))


def _rounded(divisor: float, places: int) -> float | None:
    """A divisor rounded half up to ``places``; None when that leaves it as it is or makes it 0."""
    value = rounded(float(divisor), places)  # half_up's rule, for one number
    return None if value == divisor or value <= 0 else value


def mistake_margins(solution: Solution, row: int, stage: str, codes=None, roundings=None) -> dict:
    """Per code, how far its row (made from the exact work) stands from every right answer:
    the largest, over that code's rows, of the smallest over right rows of the largest cell difference.

    A code whose margin is above the tolerance changes the numbers.
    For ``rounding`` the dict also holds each ``("rounding", kind, places)``. ``codes``: only these
    are needed; ``roundings``: only these (kind, places) early roundings are made.
    """
    import numpy as np
    marked = marked_cells(solution, row, stage)
    exact = solution.stage_row(stage, row)
    margins: dict = {}
    rounding = (codes is None or "rounding" in codes) and (roundings if roundings is not None else True)
    with np.errstate(invalid="ignore"):
        for mistake in exact_mistakes(solution, row, stage, rounding=rounding, codes=codes):
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
    import numpy as np
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(a[cells] - b[cells]) <= tolerance + EPS))


def with_keep(mistake, cells: np.ndarray, tolerance: float) -> Rounding:
    """The Rounding of a ``rounding`` mistake with ``keep``: the fewest places (more than it kept) that stay within tolerance."""
    found = mistake.rounding
    for places in range(found.places + 1, MAX_KEEP + 1):
        made = mistake.remake(places)
        if made is None or _within(made, mistake.right, cells, tolerance):
            return found._replace(keep=places)
    return found._replace(keep=MAX_KEEP)


def early_rounding(solution: Solution, row: int, item, own=None) -> Rounding | None:
    """What a *right* row shows was rounded too soon, for practice mode's note; else None.

    ``item``: the marker's :class:`~attn_tutor.marking.results.Item`. A correct item whose numbers, at the asked decimals, are not the exact row's but are
    exactly those of correct work from a number rounded to fewer places (a ``rounding``
    mistake made from the exact rows, or from the student's own previous row in ``own``):
    √2 taken as 1.4 and carried, still within the tolerance. ``keep`` is the fewest places
    whose work shows the right numbers. The marks are not changed; the student learns the habit.
    """
    if item.verdict != "correct" or item.given is None:
        return None
    return shown_rounding(solution, row, item.stage, item.given, own)


class Shown(NamedTuple):
    """A ``rounding`` mistake with its row and its right row as displayed (the marked cells,
    rounded half up to the asked decimals): what :func:`shown_rounding` compares."""

    made: tuple[float, ...]
    right: tuple[float, ...]
    mistake: Candidate


def displayed(values, cells, decimals: int) -> tuple[float, ...]:
    """The marked ``cells`` of a row as displayed: rounded half up to ``decimals``."""
    return tuple(rounded(float(values[i]), decimals) for i in cells)


def shown_rows(solution: Solution, row: int, stage: str, found: list[Candidate]) -> list[Shown]:
    """Each ``rounding`` mistake of ``found`` as :func:`shown_rounding` compares it (the marker keeps them)."""
    decimals = solution.problem.decimals
    cells = [i for i, m in enumerate(marked_cells(solution, row, stage)) if m]
    rights: dict[int, tuple[float, ...]] = {}  # mistakes share their right rows
    listed = []
    for mistake in found:
        if mistake.rounding is None:
            continue
        right = rights.get(id(mistake.right))
        if right is None:
            right = rights[id(mistake.right)] = displayed(mistake.right, cells, decimals)
        listed.append(Shown(displayed(mistake.made, cells, decimals), right, mistake))
    return listed


def shown_rounding(solution: Solution, row: int, stage: str, given, own=None, *, listed: list[Shown] | None = None) -> Rounding | None:
    """The early rounding a row's numbers show at the asked decimals, else None: they are not the
    exact row's as displayed but exactly those of correct work from a number rounded to fewer places
    (a ``rounding`` mistake made from the exact rows, or from the student's own previous row in
    ``own``), with ``keep`` the fewest places whose work shows the right numbers. The practice note
    of a right row (:func:`early_rounding`) and the diagnosis of a row marked down that no other
    mistake explains (issue 35: early rounding that changes a displayed digit is diagnosed).

    ``listed``: those mistakes as :func:`shown_rows` gives them, when the caller keeps them (the
    marker does, once per row and stage and once per previous row of a student's); else made here."""
    import numpy as np
    decimals = solution.problem.decimals
    cells = [i for i, m in enumerate(marked_cells(solution, row, stage)) if m]
    typed = displayed(given, cells, decimals)
    if typed == displayed(solution.stage_row(stage, row), cells, decimals):
        return None
    if listed is None:
        found = exact_mistakes(solution, row, stage, codes=("rounding",))
        before = previous_stage(stage)
        basis = own.get(before) if own and before is not None else None
        if basis is not None:
            basis = np.asarray(basis, dtype=np.float64)
            found += own_mistakes(solution, row, stage, basis, carry_forward(solution, row, stage, basis), None, codes=("rounding",))
        listed = shown_rows(solution, row, stage, found)
    for one in listed:
        if one.made != typed or one.right == typed:
            continue
        mistake, keep = one.mistake, MAX_KEEP
        assert mistake.rounding is not None and mistake.remake is not None  # a rounding mistake says how it was made
        for places in range(mistake.rounding.places + 1, MAX_KEEP + 1):
            made = mistake.remake(places)
            if made is None or displayed(made, cells, decimals) == one.right:
                keep = places
                break
        return mistake.rounding._replace(keep=keep)
    return None
