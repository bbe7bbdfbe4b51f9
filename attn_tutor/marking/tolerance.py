"""How far an answer may be off and still be right: pure Python, no numpy.

A teacher's ``tolerance`` applies to every stage as written. Left out, the
tolerance of a stage is the default that fits the problem's ``decimals``::

    tolerance(stage) = max(FLOOR, rounding_error(stage))

``rounding_error(stage)`` bounds how far correct work can land from the exact
value when every stage is rounded half up to ``decimals`` places and the rounded
numbers are carried forward (what a student does by hand). With
``s = 0.5·10^-decimals`` (half a unit in the last asked place):

    scores   s                          the dot products, rounded
    scaled   s + s / divisor            rounded scores divided exactly, rounded
    weights  s + scaled / 2             softmax of rows each cell off by at most
                                        ``scaled``: |Δw_i| <= scaled / 2, since
                                        |∂w_i/∂t| = w_i·|δ_i - Σ w_j δ_j|
                                        <= 2·w_i·(1 - w_i)·scaled <= scaled / 2
    output   s + weights · mass         each weight off by at most ``weights``:
                                        |Δo_c| <= weights · Σ_j |V_jc|

A problem that projects (``X`` and ``W_Q``, ``W_K``, ``W_V``) is worked from Q, K and V
rounded to ``decimals`` as the solution shows them: when they have more places than
that, each entry may be off by ``s`` and :func:`projection_error` adds what that moves
a score (``Σ_c |q_c|·s + |k_c|·s + s²``) and a value entry (``s``, carried into the output
bound).

``divisor`` is the smallest head's divisor (√d_k, or ``divide_by``); ``mass`` is
the largest ``Σ_j |V_jc|`` over every head and value column (V as given, or
X·W_V). The e^x and their sum are taken at a calculator's precision: rounding
them too is the ``rounding`` diagnosis when it shows.

``FLOOR`` (0.005, the least tolerance a stage gets) keeps rows typed to 2 decimals right for
the default 3, as the textbook writes them (0.71 4.24 2.83). Property tests in
``tests/marking/test_fair_marking.py`` check that such work is never marked down.

:func:`too_tight` says when a teacher's own tolerance is tighter than the
rounding error of some asked stage (``validate`` warns).
"""

from __future__ import annotations

import math

from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.model import Problem
from attn_tutor.core.rounding import fmt_given, rounded
from attn_tutor.core.rounding import half_unit as half_unit  # re-exported: half a unit in the last place

FLOOR = 0.005


def _values(problem: Problem, head) -> tuple[tuple[float, ...], ...] | None:
    if head.V is not None:
        return head.V
    if head.W_V is None or problem.X is None:
        return None
    X, W = problem.X, head.W_V
    return tuple(tuple(sum(x[k] * W[k][c] for k in range(len(W))) for c in range(len(W[0]))) for x in X)


def _divisor(problem: Problem, head) -> float:
    if problem.divide_by is not None:
        return float(problem.divide_by)
    d_k = len(head.Q[0]) if head.Q is not None else len(head.W_Q[0])
    return math.sqrt(d_k)


def value_mass(problem: Problem) -> float:
    """The largest Σ_j |V_jc| over every head and value column (0 without V)."""
    mass = 0.0
    for head in problem.heads:
        V = _values(problem, head)
        if V:
            for c in range(len(V[0])):
                mass = max(mass, sum(abs(row[c]) for row in V))
    return mass


def _product(X, W) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(sum(x[k] * W[k][c] for k in range(len(W))) for c in range(len(W[0]))) for x in X)


def _off(matrix, decimals: int) -> float:
    """How far rounding ``matrix``'s entries to ``decimals`` places can move each: half a unit,
    or 0 when every entry already has at most ``decimals`` places (rounding changes nothing)."""
    exact = all(abs(rounded(v, decimals) - v) <= 1e-12 * max(1.0, abs(v)) for row in matrix for v in row)
    return 0.0 if exact else half_unit(decimals)


def projection_error(problem: Problem) -> tuple[float, float]:
    """(scores, values): how far rounding the projected Q, K (and V) to the asked decimals, as the
    worked solution shows them, can move a score and a value entry. (0, 0) without projection, or
    when the projections already have at most ``decimals`` places."""
    if problem.X is None:
        return 0.0, 0.0
    d = problem.decimals
    scores = values = 0.0
    for head in problem.heads:
        if head.W_Q is None or head.W_K is None:
            continue
        Q, K = _product(problem.X, head.W_Q), _product(problem.X, head.W_K)
        dq, dk = _off(Q, d), _off(K, d)
        if dq or dk:  # |Δ(q·k)| <= Σ_c |q_c|·dk + |k_c|·dq + dq·dk
            q_sum = max(sum(abs(v) for v in row) for row in Q)
            k_sum = max(sum(abs(v) for v in row) for row in K)
            scores = max(scores, q_sum * dk + k_sum * dq + len(Q[0]) * dq * dk)
        if head.W_V is not None:
            values = max(values, _off(_product(problem.X, head.W_V), d))
    return scores, values


def rounding_error(problem: Problem, stage: str) -> float:
    """How far correct work rounded to the asked decimals at every stage can be from the exact value."""
    s = half_unit(problem.decimals)
    from_q_k, from_v = projection_error(problem)
    if stage == "scores":
        return s + from_q_k
    divisor = min(_divisor(problem, head) for head in problem.heads)
    scaled = s + (s + from_q_k) / divisor
    if stage == "scaled":
        return scaled
    weights = s + scaled / 2
    if stage == "weights":
        return weights
    keys = len(problem.keys)
    # weights each off by `weights`, V's entries each by `from_v`: Σ_j |w'_j V'_jc - w_j V_jc|
    return s + weights * (value_mass(problem) + keys * from_v) + from_v * (1 + keys * weights)


def tolerance(problem: Problem, stage: str) -> float:
    """The tolerance a cell of ``stage`` is marked with."""
    if problem.tolerance is not None:
        return problem.tolerance
    return max(FLOOR, rounding_error(problem, stage))


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
