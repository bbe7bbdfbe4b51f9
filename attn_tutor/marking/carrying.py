"""A stage's row: its shape, which cells are marked, and the row carried from a student's own.

Pure numpy on a :class:`~attn_tutor.solve.engine.Solution`; the marker
(:mod:`attn_tutor.marking.marker`) and the mistakes (:mod:`attn_tutor.marking.mistakes`) build on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attn_tutor.core.model import STAGES
from attn_tutor.marking import tolerance as tolerances
from attn_tutor.solve import engine
from attn_tutor.solve.engine import Solution

if TYPE_CHECKING:
    import numpy as np

EPS = 1e-12  # slack for binary floats: 0.71 - 0.705 is not exactly 0.005


# --- shapes -------------------------------------------------------------------------


def previous_stage(stage: str) -> str | None:
    index = STAGES.index(stage)
    return STAGES[index - 1] if index > 0 else None


def segments(solution: Solution, stage: str) -> list[slice]:
    """Each head's cells in a row of ``stage`` (heads side by side)."""
    result, start = [], 0
    for head in solution.heads:
        if stage == "output":
            assert head.V is not None  # only a problem with values has an output
            width = head.V.shape[1]
        else:
            width = head.mask.shape[1]
        result.append(slice(start, start + width))
        start += width
    return result


def row_width(solution: Solution, stage: str) -> int:
    return segments(solution, stage)[-1].stop


def open_cells(solution: Solution, row: int, stage: str) -> np.ndarray:
    """True where the query may attend (every output cell is open)."""
    import numpy as np
    if stage == "output":
        return np.ones(row_width(solution, stage), dtype=bool)
    return np.concatenate([head.mask[row] for head in solution.heads])


def marked_cells(solution: Solution, row: int, stage: str) -> np.ndarray:
    """The cells that are marked: masked scores/scaled cells are not."""
    import numpy as np
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


def carry_forward(solution: Solution, row: int, stage: str, previous: Sequence[float] | np.ndarray) -> np.ndarray:
    """``stage``'s row computed from the previous stage's row ``previous`` (a student's).

    NaN in masked cells of scaled scores, 0 in masked weights.
    """
    import numpy as np
    before = previous_stage(stage)
    if before is None:
        raise ValueError("the scores are computed from the givens, not from an earlier stage")
    prev = np.asarray(previous, dtype=np.float64)
    segs = segments(solution, before)
    if prev.shape != (segs[-1].stop,):
        raise ValueError(f"a {before} row has {segs[-1].stop} cells, not {prev.size}")
    parts = []
    with np.errstate(all="ignore"):
        for seg, head in zip(segs, solution.heads):
            part, mask = prev[seg], head.mask[row]
            if stage == "scaled":
                parts.append(np.where(mask, engine.scale(part, head.divisor), np.nan))
            elif stage == "weights":
                parts.append(engine.softmax(np.where(mask, part, 0.0), mask))
            else:
                assert head.V is not None  # only a problem with values has an output
                parts.append(engine.mix(part, head.V))
    return parts[0] if len(parts) == 1 else np.concatenate(parts)  # each part is a new array


def trivial_carry(
    solution: Solution, row: int, stage: str, previous: Sequence[float], *, carried: np.ndarray | None = None, limits=None
) -> np.ndarray:
    """Per cell of ``stage``: True where the work carried from ``previous`` is trivial.

    The rule: a stage's work carried from a *wrong* row earns no follow-through when it
    needs none of that stage's arithmetic — when the carried row can be written down
    from the previous row without computing. Judged per head, on the head's open cells:

    * scaled: the carried row equals the scores row itself (all zeros, or a divisor of 1:
      nothing divided);
    * weights: the carried weights are uniform (a constant scaled row) or one-hot (within
      the weights' tolerance of one 1 and zeros: ``0 70.711 0`` gives ``0 1 0``, no e^x
      needed; a row with a single open key is one-hot too);
    * output: the weights row is all zeros, constant, or one-hot (within the weights'
      tolerance), so the output is zero, the mean of V's rows, or a row of V copied.

    A previous row that is right (every marked cell within the previous stage's
    tolerance of the exact row) is carried as usual: all scores truly equal give truly
    uniform weights, and the work from them is the student's own. See
    :mod:`attn_tutor.marking.marker`. ``carried``: :func:`carry_forward`'s row from ``previous``
    and ``limits``: the tolerances of the previous stage and of the weights, when the caller has them.
    """
    import numpy as np
    before = previous_stage(stage)
    assert before is not None  # work carried from a previous stage
    prev = np.asarray(previous, dtype=np.float64)
    exact = solution.stage_row(before, row)
    marked = marked_cells(solution, row, before)
    if limits is None:
        limits = tolerances.tolerance(solution.problem, before), tolerances.tolerance(solution.problem, "weights")
    limit = limits[0] + EPS  # the previous stage's tolerance
    one_hot_limit = limits[1] + EPS
    if carried is None and stage != "output":
        carried = carry_forward(solution, row, stage, prev)
    flags = []
    for prev_seg, seg, head in zip(segments(solution, before), segments(solution, stage), solution.heads):
        open_ = head.mask[row]
        values = prev[prev_seg][open_]
        if stage == "scaled":
            assert carried is not None  # carried above
            trivial = bool(np.all(np.abs(carried[seg][open_] - values) <= EPS))
        else:
            weights = carried[seg][open_] if stage == "weights" and carried is not None else values
            constant = bool(weights.size == 0 or np.ptp(weights) <= EPS)
            trivial = constant or _one_hot(weights, one_hot_limit)
            if stage == "output":
                trivial = trivial or bool(np.all(np.abs(values) <= EPS))
        if trivial:  # only a wrong row trivialises: a right one (all scores truly equal) is carried as usual
            with np.errstate(invalid="ignore"):
                right = bool(np.all(np.abs(prev[prev_seg] - exact[prev_seg])[marked[prev_seg]] <= limit))
            trivial = not right
        flags.append(np.full(seg.stop - seg.start, trivial))
    return np.concatenate(flags)


def _one_hot(weights: np.ndarray, limit: float) -> bool:
    """Within ``limit`` of a row of zeros with one 1 in every cell."""
    import numpy as np
    if weights.size == 0 or not np.all(np.isfinite(weights)):
        return False
    top = int(np.argmax(weights))
    hot = np.zeros(weights.size)
    hot[top] = 1.0
    return bool(np.all(np.abs(weights - hot) <= limit))
