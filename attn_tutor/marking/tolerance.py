"""How far an answer may be off and still be right: the window of a stage, and its bounds.

A teacher's ``tolerance`` applies to every stage as written. Left out, the tolerance of a
stage is the smallest that holds every value correct work can give when it rounds as asked,
plus half a displayed unit, and no wider::

    tolerance(stage) = rounding_error(stage) = reach(stage) + s        s = 0.5·10^-decimals

``reach(stage)`` is the farthest, over every query row and marked cell of the problem, that
the stage's value *before its own rounding* lands from the exact value when it is worked
from any of the rows correct work carries: the exact previous stage, the previous stage as
displayed (rounded half up to ``decimals``: practice mode shows it), or the student's own
rounded rows all the way from the scores (exam mode) — every mix of rounded and unrounded
earlier stages, each computed as the marker carries them (:mod:`attn_tutor.marking.carrying`:
divide, softmax along the row with the mask, weights·V). A problem that projects (``X`` and
``W_Q``, ``W_K``, ``W_V``) is worked from Q, K and V as given exactly or as the solution shows
them, rounded to ``decimals``. Rounding that value half up moves it by at most ``s``: so the
window ``exact ± tolerance`` holds every such answer, and nothing more than ``s`` beyond the
farthest of them. The scores of a problem that does not project reach 0: their window is the
exact score ± half a unit, the correctly rounded score and nothing else at that many places.
The e^x and their sum are taken at a calculator's precision: rounding them too is the
``rounding`` diagnosis when it shows.

The window of a cell is a closed interval of decimals, ``exact ± tolerance`` rounded outward
to :func:`window_places` places (:func:`window`): the marker, the page's script, Moodle and
Canvas are all given these two numbers, so one typed number gets one verdict everywhere.

:func:`too_tight` says when a teacher's own tolerance is tighter than the rounding error of
some asked stage (``validate`` warns).
"""

from __future__ import annotations

import functools
import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext

from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.model import Problem
from attn_tutor.core.rounding import fmt_given, rounded
from attn_tutor.core.rounding import half_unit as half_unit  # re-exported: half a unit in the last place
from attn_tutor.kinds.sampling.model import SPAN_WARN
from attn_tutor.solve import engine

WINDOW_PLACES_MORE = 3
"""How many places beyond ``decimals`` a window's bounds are written with (fewer for a large
number, so that a bound keeps at most 15 significant digits and reads back as written)."""


def _half_up(matrix, decimals: int):
    import numpy as np
    flat = [rounded(float(v), decimals) if math.isfinite(v) else float(v) for v in np.ravel(matrix)]
    return np.array(flat, dtype=np.float64).reshape(np.shape(matrix))


def _both(matrix, decimals: int) -> list:
    """``matrix`` as carried unrounded and rounded half up (once, when rounding changes nothing)."""
    import numpy as np
    shown = _half_up(matrix, decimals)
    same = bool(np.array_equal(np.nan_to_num(shown), np.nan_to_num(np.asarray(matrix, dtype=np.float64))))
    return [matrix] if same else [matrix, shown]


def _givens(problem: Problem, head, result) -> list[tuple]:
    """(Q, K, V) as a student may work from them: as given, and for a projection also as shown."""
    if not head.projected:
        return [(result.Q, result.K, result.V)]
    d = problem.decimals
    values = [None] if result.V is None else _both(result.V, d)
    return [(q, k, v) for q in _both(result.Q, d) for k in _both(result.K, d) for v in values]


def _farthest(made, exact, marked) -> float:
    import numpy as np
    with np.errstate(invalid="ignore"):
        off = np.abs(np.asarray(made, dtype=np.float64) - exact)[marked]
    return float(np.max(off)) if off.size else 0.0


def _head_reach(problem: Problem, head, result) -> dict[str, float]:
    """Per stage: the farthest an unrounded value of correct work lands from the exact one (one head)."""
    import numpy as np
    d, mask = problem.decimals, result.mask
    far = dict.fromkeys(("scores", "scaled", "weights", "output"), 0.0)
    for Q, K, V in _givens(problem, head, result):
        scores = np.where(mask, np.asarray(Q, dtype=np.float64) @ np.asarray(K, dtype=np.float64).T, np.nan)
        far["scores"] = max(far["scores"], _farthest(scores, result.scores, mask))
        for s in _both(scores, d):
            scaled = np.where(mask, engine.scale(s, result.divisor), np.nan)
            far["scaled"] = max(far["scaled"], _farthest(scaled, result.scaled, mask))
            for c in _both(scaled, d):
                weights = engine.softmax(np.where(mask, c, 0.0), mask)
                far["weights"] = max(far["weights"], _farthest(weights, result.weights, np.ones_like(mask)))
                if V is None or result.output is None:
                    continue
                for w in _both(weights, d):
                    out = engine.mix(w, V)
                    far["output"] = max(far["output"], _farthest(out, result.output, np.ones(out.shape, dtype=bool)))
    return far


@functools.lru_cache(maxsize=512)
def _errors(problem: Problem) -> tuple[tuple[str, float], ...]:
    solution = engine.solve(problem)
    s = half_unit(problem.decimals)
    far = dict.fromkeys(problem.stages, 0.0)
    for head, result in zip(problem.heads, solution.heads):
        for stage, value in _head_reach(problem, head, result).items():
            if stage in far:
                far[stage] = max(far[stage], value)
    return tuple((stage, value + s) for stage, value in far.items())


def rounding_error(problem: Problem, stage: str) -> float:
    """How far correct work rounded half up to the asked decimals can land from the exact value:
    the farthest its unrounded value reaches, plus half a displayed unit (see the module)."""
    errors = dict(_errors(problem))
    if stage not in errors:
        raise ValueError(f"problem {problem.id!r} has no stage {stage!r}")
    return errors[stage]


def tolerance(problem: Problem, stage: str) -> float:
    """The tolerance a cell of ``stage`` is marked with."""
    if problem.tolerance is not None:
        return problem.tolerance
    return rounding_error(problem, stage)


def window_places(exact: float, tolerance: float, decimals: int) -> int:
    """The places a window's bounds are written with: ``decimals`` + 3, or fewer so that a bound
    keeps at most 15 significant digits (never fewer than ``decimals`` + 1)."""
    magnitude = abs(exact) + abs(tolerance)
    digits = 1 if magnitude < 1 else int(math.floor(math.log10(magnitude))) + 1
    return max(decimals + 1, min(decimals + WINDOW_PLACES_MORE, 15 - digits))


def window(exact: float, tolerance: float, decimals: int) -> tuple[Decimal, Decimal]:
    """The closed interval a typed number must lie in to be right: ``exact ± tolerance`` in decimal
    arithmetic, each end rounded outward to :func:`window_places` places."""
    places = Decimal(1).scaleb(-window_places(exact, tolerance, decimals))
    with localcontext() as context:
        # 80 digits, or as many as a huge number needs (e^400 carried from a student's own row)
        context.prec = max(80, int(math.log10(abs(float(exact)) + abs(float(tolerance)) + 1)) + WINDOW_PLACES_MORE + decimals + 20)
        value, tol = Decimal(repr(float(exact))), Decimal(repr(float(tolerance)))
        low = (value - tol).quantize(places, rounding=ROUND_FLOOR)
        high = (value + tol).quantize(places, rounding=ROUND_CEILING)
    return low, high


def window_floats(exact: float, tolerance: float, decimals: int) -> tuple[float, float]:
    """:func:`window` as the floats a marker compares a typed number with (``low <= x <= high``)."""
    if not (math.isfinite(exact) and math.isfinite(tolerance)):
        return math.nan, math.nan  # no number is within a tolerance of an infinite one
    low, high = window(exact, tolerance, decimals)
    return float(low), float(high)


def too_tight(problem: Problem) -> tuple[str, float] | None:
    """The asked stage with the largest rounding error, and that error, when a teacher's tolerance
    is tighter than it; else None."""
    if problem.tolerance is None:
        return None
    stage, needed = max(((s, rounding_error(problem, s)) for s in problem.asked_stages), key=lambda pair: pair[1])
    return (stage, needed) if problem.tolerance < needed - 1e-15 else None


def warnings(problem_set) -> list:
    """A :class:`~attn_tutor.core.errors.Finding` for each problem whose own tolerance is too tight (see :func:`too_tight`)."""

    found = []
    for problem in problem_set.problems:
        if problem.kind == "sampling":
            found += _sampling_warnings(problem, problem_set.source)
            continue
        tight = too_tight(problem)
        if tight is not None:
            stage, needed = tight
            args = dict(
                id=problem.id,
                tolerance=fmt_given(problem.tolerance, 10),
                decimals=problem.decimals,
                stage=stage,
                needed=fmt_given(needed, problem.decimals + 2),
            )
            found.append(Finding("problems.tolerance_tight", args, Location(problem_set.source, problem.line)))
    return found


def _sampling_warnings(problem, source: str) -> list:
    """A sampling problem whose scaled logits lie too far apart for e^x by hand (``validate`` warns)."""
    found = []
    for step in problem.steps:
        scaled = [z / problem.temperature for z in step.logits]
        span = max(scaled) - min(scaled)
        if span > SPAN_WARN:
            args = dict(id=problem.id, span=fmt_given(span, 3), temperature=fmt_given(problem.temperature, 4))
            found.append(Finding("problems.sampling.span_wide", args, Location(source, problem.line)))
            break
    return found
