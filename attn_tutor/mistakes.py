"""Known mistakes' rows, made with numpy from the exact or a student's own earlier rows.

Each is a :class:`Candidate`: (code, mistaken row, right row from the same inputs,
and for ``rounding`` what was rounded); the marker (:class:`attn_tutor.grading.Marker`)
keeps those that change the numbers (:func:`worth_trying`) and tries them in
:data:`DIAGNOSES` order. The marking rules are stated in :mod:`attn_tutor.grading`'s
docstring; the mistakes are these.

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
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from attn_tutor import engine
from attn_tutor.carrying import EPS, marked_cells, open_cells, previous_stage, segments
from attn_tutor.engine import Solution
from attn_tutor.model import Stage

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


class Candidate(NamedTuple):
    """A mistaken row: its code, the row, the right row from the same inputs, and for ``rounding``
    what was rounded (``keep`` still 0) with the row ``remake(places)`` gives for other places."""

    code: str
    made: np.ndarray
    right: np.ndarray
    rounding: Rounding | None = None
    remake: object = None


def in_diagnosis_order(result: list) -> list:
    """A stable sort: for each code, the mistake made from the exact rows comes first."""
    return sorted(result, key=lambda entry: _ORDER[entry[0]])


def exact_mistakes(solution: Solution, row: int, stage: str, *, rounding=True, codes=None) -> list[Candidate]:
    """The mistakes made from the exact rows (and the givens), in the order they are tried
    (``codes``: only those with these codes are made)."""
    before = previous_stage(stage)
    bases = []
    if before is not None:
        bases.append((solution.stage_row(before, row), solution.stage_row(stage, row)))
    score_rows = [solution.stage_row("scores", row)] if stage == "weights" else []
    return _mistakes(solution, row, stage, bases, score_rows, fixed=True, rounding=rounding, codes=codes)


def own_mistakes(
    solution: Solution, row: int, stage: str, basis, carried: np.ndarray | None, scores, *, rounding=True, codes=None
) -> list[Candidate]:
    """The mistakes made from a student's own previous row (``carried``: the right row from it) and own scores."""
    bases = [] if basis is None else [(np.asarray(basis, dtype=np.float64), carried)]
    score_rows = [np.asarray(scores, dtype=np.float64)] if stage == "weights" and scores is not None else []
    return _mistakes(solution, row, stage, bases, score_rows, fixed=False, rounding=rounding, codes=codes)


def _mistakes(
    solution: Solution, row: int, stage: str, bases: list, score_rows: list, *, fixed: bool, rounding=True, codes=None
) -> list[Candidate]:
    """Mistaken rows from each (previous row, right row) basis and each scores row.

    ``fixed``: also the mistakes that depend on the givens alone (transposed scores,
    column softmax, the mask ignored down to the output). ``codes``: make only these
    (the marker asks code by code, and stops at the first that fits).
    """
    problem = solution.problem
    before = previous_stage(stage)
    prev_segs = segments(solution, before) if before is not None else []
    want = frozenset(DIAGNOSES) if codes is None else frozenset(codes)
    places_tried = round_places(problem) if rounding and "rounding" in want else ()  # no early-rounding rows

    def tried(kind: str) -> tuple[int, ...]:
        """The places tried for one kind of early rounding (``rounding`` may name (kind, places) pairs)."""
        if isinstance(rounding, (set, frozenset)):
            return tuple(p for p in places_tried if (kind, p) in rounding)
        return places_tried
    masked_row = any(not head.mask[row].all() for head in solution.heads)
    result: list[Candidate] = []

    def add(code: str, made: np.ndarray | None, right: np.ndarray) -> None:
        if made is not None:
            result.append(Candidate(code, made, right))

    divisors: dict[tuple[int, float], float | None] = {}  # (places, divisor) -> rounded, once per call
    labels: dict[int, dict] = {}

    def rounded_divisor(places: int, head) -> float | None:
        key = (places, float(head.divisor))
        if key not in divisors:
            divisors[key] = _rounded(key[1], places)
        return divisors[key]

    def divisor_labels(places: int) -> dict:
        if places not in labels:
            from attn_tutor.numbers import fmt_given

            labels[places] = dict(divisor="", rounded="")
            for head in solution.heads:
                value = rounded_divisor(places, head)
                if value is not None:
                    name = f"√{head.d_k}" if problem.divide_by is None else fmt_given(head.divisor, MAX_KEEP)
                    labels[places] = dict(divisor=name, rounded=fmt_given(value, places))
                    break
        return dict(labels[places])

    with np.errstate(all="ignore"):
        if stage == "scores" and fixed and "transposed_scores" in want:

            def transposed(h, head):
                if head.Q.shape[0] != head.K.shape[0]:
                    return None
                raw = head.Q @ head.K.T
                return np.where(head.mask[row], raw[:, row], np.nan)

            add("transposed_scores", _per_head(solution, stage, transposed), solution.stage_row(stage, row))
        for basis, right in bases:
            if stage == "scaled":
                if "not_scaled" in want:
                    add("not_scaled", _per_head(solution, stage, lambda h, hd, basis=basis: np.where(hd.mask[row], basis[prev_segs[h]], np.nan)), right)
                if problem.divide_by is None and "divided_by_d" in want:
                    add(
                        "divided_by_d",
                        _per_head(solution, stage, lambda h, hd, basis=basis: np.where(hd.mask[row], basis[prev_segs[h]] / hd.d_k, np.nan)),
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

                for places in tried("divisor"):
                    made = by_rounded_divisor(places)
                    if made is not None:
                        result.append(Candidate("rounding", made, right, Rounding("divisor", places, 0, stage, **divisor_labels(places)), by_rounded_divisor))
                for places in tried("previous"):
                    made = from_rounded_scores(places)
                    if made is not None:
                        result.append(Candidate("rounding", made, right, Rounding("previous", places, 0, before), from_rounded_scores))
            elif stage == "weights":

                def no_exp(h, head, basis=basis):
                    mask = head.mask[row]
                    part = np.where(mask, basis[prev_segs[h]], 0.0)
                    total = part.sum()
                    return None if abs(total) <= EPS else np.where(mask, part / total, 0.0)

                if "no_exp" in want:
                    add("no_exp", _per_head(solution, stage, no_exp), right)
                if "not_normalized" in want:
                    add(
                        "not_normalized",
                        _per_head(solution, stage, lambda h, hd, basis=basis: engine.student_exps(basis[prev_segs[h]], hd.mask[row])),
                        right,
                    )
                if masked_row and "ignored_mask" in want:

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

                heads = enumerate(solution.heads) if places_tried else ()  # e^b and its sum per head, for every place tried
                exps = [engine.student_exps(basis[prev_segs[n]], each.mask[row]) for n, each in heads]
                exp_sums = [e.sum() for e in exps]

                def from_rounded_exps(places, exps=exps):
                    def make(h, head):
                        mask = head.mask[row]
                        e = half_up(exps[h], places)
                        total = e.sum()
                        return None if not np.isfinite(total) or total <= 0 else np.where(mask, e / total, 0.0)

                    return _per_head(solution, stage, make)

                def from_rounded_sum(places, exps=exps, exp_sums=exp_sums):
                    def make(h, head):
                        mask = head.mask[row]
                        e = exps[h]
                        total = float(half_up([exp_sums[h]], places)[0])
                        return None if not np.isfinite(total) or total <= 0 else np.where(mask, e / total, 0.0)

                    return _per_head(solution, stage, make)

                for kind, remake, where in (
                    ("previous", from_rounded_scaled, before),
                    ("exps", from_rounded_exps, stage),
                    ("sum", from_rounded_sum, stage),
                ):
                    for places in tried(kind):
                        made = remake(places)
                        if made is not None:
                            result.append(Candidate("rounding", made, right, Rounding(kind, places, 0, where), remake))
            elif stage == "output":

                def used_keys(h, head, basis=basis):
                    if head.K.shape[1] != head.V.shape[1]:
                        return None
                    return engine.mix(basis[prev_segs[h]], head.K)

                if "used_keys" in want:
                    add("used_keys", _per_head(solution, stage, used_keys), right)

                def from_rounded_weights(places, basis=basis):
                    rounded = half_up(basis, places)
                    if np.array_equal(rounded, basis, equal_nan=True):
                        return None
                    return _per_head(solution, stage, lambda h, hd: engine.mix(rounded[prev_segs[h]], hd.V))

                for places in tried("previous"):
                    made = from_rounded_weights(places)
                    if made is not None:
                        result.append(Candidate("rounding", made, right, Rounding("previous", places, 0, before), from_rounded_weights))
        if stage == "weights":
            score_segs = segments(solution, "scores")
            for scores in score_rows if "skipped_scaling" in want or places_tried else ():
                right = _per_head(
                    solution,
                    stage,
                    lambda h, hd, scores=scores: engine.softmax(np.where(hd.mask[row], scores[score_segs[h]] / hd.divisor, 0.0), hd.mask[row]),
                )
                if "skipped_scaling" in want:
                    made = _per_head(
                        solution,
                        stage,
                        lambda h, hd, scores=scores: engine.softmax(np.where(hd.mask[row], scores[score_segs[h]], 0.0), hd.mask[row]),
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

                for places in tried("divisor"):
                    made = by_rounded_divisor(places)
                    if made is not None:
                        result.append(Candidate("rounding", made, right, Rounding("divisor", places, 0, stage, **divisor_labels(places)), by_rounded_divisor))
        if stage == "weights" and fixed and "column_softmax" in want:
            add("column_softmax", _per_head(solution, stage, lambda h, hd: _column_softmax(hd, row)), solution.stage_row(stage, row))
        if stage == "output" and fixed and masked_row and solution.problem.has_values and "ignored_mask" in want:
            ignored = _per_head(solution, stage, lambda h, hd: engine.mix(engine.softmax(_unmasked_scaled(hd, row)), hd.V))
            add("ignored_mask", ignored, solution.stage_row(stage, row))
    return result


def _rounded(divisor: float, places: int) -> float | None:
    """A divisor rounded half up to ``places``; None when that leaves it as it is or makes it 0."""
    value = float(half_up([divisor], places)[0])
    return None if value == divisor or value <= 0 else value


_ORDER = {code: i for i, code in enumerate(DIAGNOSES)}


def mistake_margins(solution: Solution, row: int, stage: str, codes=None, roundings=None) -> dict:
    """Per code, how far its row (made from the exact work) stands from every right answer:
    the largest, over that code's rows, of the smallest over right rows of the largest cell difference.

    A code whose margin is above the tolerance changes the numbers .
    For ``rounding`` the dict also holds each ``("rounding", kind, places)``. ``codes``: only these
    are needed; ``roundings``: only these (kind, places) early roundings are made.
    """
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


def with_keep(mistake, cells: np.ndarray, tolerance: float) -> Rounding:
    """The Rounding of a ``rounding`` mistake with ``keep``: the fewest places (more than it kept) that stay within tolerance."""
    found = mistake.rounding
    for places in range(found.places + 1, MAX_KEEP + 1):
        made = mistake.remake(places)
        if made is None or _within(made, mistake.right, cells, tolerance):
            return found._replace(keep=places)
    return found._replace(keep=MAX_KEEP)
