"""Hints and labels for a stage's row: what each cell is, the stage's title, and the
arithmetic of the next cell, on the exact numbers or on the student's own previous row.

The quiz (:mod:`attn_tutor.quiz.loop`), the practice page's data and the hand-back
sheets read the same labels and hints.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.marking import marker
from attn_tutor.render.blocks import Block, Math, Paragraph
from attn_tutor.solve import engine, explain
from attn_tutor.solve.engine import Solution
from attn_tutor.solve.layout import divisor_label

if TYPE_CHECKING:
    import numpy as np


def cell_labels(solution: Solution, stage: str) -> list[str]:
    """What each cell of a row is: a key (``head 2·생선을`` with several heads) or an output component."""
    problem = solution.problem
    many = len(solution.heads) > 1
    if stage == "output":
        return [str(c + 1) for c in range(marker.row_width(solution, stage))]
    labels = []
    for number, _head in enumerate(solution.heads, start=1):
        for key in problem.keys:
            labels.append(f"{t('solve.head', n=number)}·{key}" if many else key)
    return labels


def divisors(solution: Solution) -> str:
    """"√2 ≈ 1.414", or each head's divisor once: "√2 ≈ 1.414 | √4 = 2"."""
    decimals = solution.problem.decimals
    return " | ".join(dict.fromkeys(divisor_label(solution, head, decimals) for head in solution.heads))


def stage_title(solution: Solution, stage: str) -> str:
    if stage == "scaled":
        return t("solve.scaled", divisor=divisors(solution))
    return t(f"solve.{stage}")


def _with_row(matrix: np.ndarray, row: int, values: np.ndarray) -> np.ndarray:
    import numpy as np
    copy = np.array(matrix, dtype=np.float64, copy=True)
    copy[row] = values
    return copy


def hint_cells(solution: Solution, row: int, stage: str) -> list[tuple[int, int, int]]:
    """The cells a hint walks, in row order: (cell index in the row, head, line of that head's working).

    Masked cells need no working and are skipped; an output cell is one component.
    """
    cells = []
    for h, (seg, head) in enumerate(zip(marker.segments(solution, stage), solution.heads)):
        if stage == "output":
            cells += [(seg.start + c, h, c) for c in range(seg.stop - seg.start)]
        else:
            open_keys = [j for j in range(seg.stop - seg.start) if head.mask[row, j]]
            cells += [(seg.start + j, h, line) for line, j in enumerate(open_keys)]
    return cells


def hint_blocks(solution: Solution, row: int, stage: str, level: int, basis: Sequence[float] | None) -> list[Block]:
    """Hint ``level``: 1, the formula; 2, 3, …: the next cell's arithmetic on ``basis``, one cell
    per hint along the row; after the last cell, a line saying there is nothing more.

    ``basis`` is the previous stage's row the student goes on from (None: the exact one).
    """
    import numpy as np
    problem = solution.problem
    token = problem.tokens[row]
    decimals = problem.decimals
    if level <= 1:
        return [Paragraph(t(f"quiz.hint.{stage}", token=token, divisor=divisors(solution)))]
    walk = hint_cells(solution, row, stage)
    if level - 2 >= len(walk):
        return [Paragraph(t("quiz.hint.no_more"))]
    cell, h, index = walk[level - 2]
    head = solution.heads[h]
    before = marker.previous_stage(stage)
    if before is not None and basis is not None:
        own = np.asarray(basis, dtype=np.float64)[marker.segments(solution, before)[h]]
    else:
        own = None
    mask = head.mask[row]
    with np.errstate(all="ignore"):
        if stage == "scores":
            line = explain.score_lines(head, row, problem.tokens, problem.keys, decimals)[index]
        elif stage == "scaled":
            scores = head.scores[row] if own is None else np.where(mask, own, np.nan)
            changed = dataclasses.replace(
                head,
                scores=_with_row(head.scores, row, scores),
                scaled=_with_row(head.scaled, row, np.where(mask, scores / head.divisor, np.nan)),
            )
            line = explain.scaled_lines(changed, row, problem.divide_by, decimals)[index]
        elif stage == "weights":
            scaled = head.scaled[row] if own is None else np.where(mask, own, np.nan)
            exps = engine.student_exps(scaled, mask)
            changed = dataclasses.replace(
                head,
                scaled=_with_row(head.scaled, row, scaled),
                exps=_with_row(head.exps, row, exps),
                exp_sums=_with_row(head.exp_sums[:, None], row, np.array([exps.sum()]))[:, 0],
                weights=_with_row(head.weights, row, engine.softmax(np.where(mask, scaled, 0.0), mask)),
            )
            line = explain.weight_lines(changed, row, decimals)[index]
        else:
            assert head.V is not None  # the output stage: a problem with values
            weights = head.weights[row] if own is None else own
            pairs = [
                (fmt_given(w, decimals), fmt_given(v, decimals)) for w, v, m in zip(weights, head.V[:, index], mask) if m or w != 0
            ]
            terms = " + ".join(f"{w}×{v}" for w, v in pairs)
            value = float(engine.mix(weights, head.V)[index])
            line = f"{terms} {explain.result_sign(explain.dot(pairs), value, decimals)} {fmt(value, decimals)}"
    label = cell_labels(solution, stage)[cell]
    key = "quiz.hint.cell_own" if own is not None else "quiz.hint.cell"
    lines = (line, t(explain.APPROX_NOTE)) if explain.has_approx([line]) else (line,)
    return [Math(lines, title=t(key, n=cell + 1, label=label))]
