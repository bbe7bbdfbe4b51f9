"""Known mistakes' rows, made with numpy from the exact or a student's own earlier rows.

Each is a :class:`Candidate`: (code, mistaken row, right row from the same inputs,
and for ``rounding`` what was rounded); the marker (:class:`attn_tutor.grading.Marker`)
keeps those that change the numbers and tries them in
:data:`attn_tutor.grading.DIAGNOSES` order. The rules are stated in
:mod:`attn_tutor.grading`'s docstring.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from attn_tutor import engine
from attn_tutor.carrying import EPS, open_cells, previous_stage, segments
from attn_tutor.engine import Solution
from attn_tutor.grading import DIAGNOSES, MAX_KEEP, Rounding, half_up, round_places


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

    def rounded_divisor(places: int, head) -> float | None:
        return _rounded(float(head.divisor), places)

    def divisor_labels(places: int) -> dict:
        from attn_tutor.numbers import fmt_given

        for head in solution.heads:
            value = rounded_divisor(places, head)
            if value is not None:
                name = f"√{head.d_k}" if problem.divide_by is None else fmt_given(head.divisor, MAX_KEEP)
                return dict(divisor=name, rounded=fmt_given(value, places))
        return dict(divisor="", rounded="")

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
