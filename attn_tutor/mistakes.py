"""Known mistakes' rows, made with numpy from the exact or a student's own earlier rows.

Each function gives (code, mistaken row, right row from the same inputs); the
marker (:class:`attn_tutor.grading.Marker`) keeps those that change the numbers
and tries them in :data:`attn_tutor.grading.DIAGNOSES` order.
"""

from __future__ import annotations

import numpy as np

from attn_tutor import engine
from attn_tutor.carrying import EPS, previous_stage, segments
from attn_tutor.engine import Solution
from attn_tutor.grading import DIAGNOSES


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


def in_diagnosis_order(result: list) -> list:
    """A stable sort: for each code, the mistake made from the exact rows comes first."""
    return sorted(result, key=lambda entry: _ORDER[entry[0]])


def exact_mistakes(solution: Solution, row: int, stage: str) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The mistakes made from the exact rows (and the givens), in the order they are tried."""
    before = previous_stage(stage)
    bases = []
    if before is not None:
        bases.append((solution.stage_row(before, row), solution.stage_row(stage, row)))
    score_rows = [solution.stage_row("scores", row)] if stage == "weights" else []
    return _mistakes(solution, row, stage, bases, score_rows, fixed=True)


def own_mistakes(
    solution: Solution, row: int, stage: str, basis, carried: np.ndarray | None, scores
) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The mistakes made from a student's own previous row (``carried``: the right row from it) and own scores."""
    bases = [] if basis is None else [(np.asarray(basis, dtype=np.float64), carried)]
    score_rows = [np.asarray(scores, dtype=np.float64)] if stage == "weights" and scores is not None else []
    return _mistakes(solution, row, stage, bases, score_rows, fixed=False)


def _mistakes(solution: Solution, row: int, stage: str, bases: list, score_rows: list, *, fixed: bool) -> list:
    """Mistaken rows from each (previous row, right row) basis and each scores row.

    ``fixed``: also the mistakes that depend on the givens alone (transposed scores,
    column softmax).
    """
    result: list[tuple[str, np.ndarray, np.ndarray]] = []

    def add(code: str, made: np.ndarray | None, right: np.ndarray) -> None:
        if made is not None:
            result.append((code, made, right))

    with np.errstate(all="ignore"):
        if stage == "scores" and fixed:
            add("transposed_scores", _per_head(solution, stage, _transposed(row)), solution.stage_row(stage, row))
        before = previous_stage(stage)
        prev_segs = segments(solution, before) if before is not None else []
        for basis, right in bases:
            for code, make in _FROM_PREVIOUS.get(stage, ()):
                if code == "divided_by_d" and solution.problem.divide_by is not None:
                    continue
                add(code, _per_head(solution, stage, make(row, basis, prev_segs)), right)
        if stage == "weights":
            score_segs = segments(solution, "scores")
            for scores in score_rows:
                made = _per_head(solution, stage, _softmax_of(row, scores, score_segs, scaled=False))
                right = _per_head(solution, stage, _softmax_of(row, scores, score_segs, scaled=True))
                add("skipped_scaling", made, right)
            if fixed:
                add("column_softmax", _per_head(solution, stage, lambda h, hd: _column_softmax(hd, row)), solution.stage_row(stage, row))
    return result


# Each maker takes (row, previous row, the previous stage's head segments) and gives
# a per-head function (head index, head) -> that head's part of the mistaken row, or None.


def _transposed(row):
    def make(h, head):
        if head.Q.shape[0] != head.K.shape[0]:
            return None
        raw = head.Q @ head.K.T
        return np.where(head.mask[row], raw[:, row], np.nan)

    return make


def _not_scaled(row, basis, segs):
    return lambda h, head: np.where(head.mask[row], basis[segs[h]], np.nan)


def _divided_by_d(row, basis, segs):
    return lambda h, head: np.where(head.mask[row], basis[segs[h]] / head.d_k, np.nan)


def _no_exp(row, basis, segs):
    def make(h, head):
        mask = head.mask[row]
        part = np.where(mask, basis[segs[h]], 0.0)
        total = part.sum()
        return None if abs(total) <= EPS else np.where(mask, part / total, 0.0)

    return make


def _not_normalized(row, basis, segs):
    return lambda h, head: engine.student_exps(basis[segs[h]], head.mask[row])


def _used_keys(row, basis, segs):
    def make(h, head):
        if head.K.shape[1] != head.V.shape[1]:
            return None
        return engine.mix(basis[segs[h]], head.K)

    return make


def _softmax_of(row, scores, segs, *, scaled: bool):
    def make(h, head):
        part = scores[segs[h]] / head.divisor if scaled else scores[segs[h]]
        return engine.softmax(np.where(head.mask[row], part, 0.0), head.mask[row])

    return make


_FROM_PREVIOUS = {
    "scaled": (("not_scaled", _not_scaled), ("divided_by_d", _divided_by_d)),
    "weights": (("no_exp", _no_exp), ("not_normalized", _not_normalized)),
    "output": (("used_keys", _used_keys),),
}


_ORDER = {code: i for i, code in enumerate(DIAGNOSES)}

