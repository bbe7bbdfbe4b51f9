"""The attention engine: numpy only, no I/O, no printing.

:func:`solve` takes a :class:`~attn_tutor.core.model.Problem` and returns a
:class:`Solution` holding every number a student writes down, at full precision:

    scores  S = Q·Kᵀ
    scaled  S / divisor          (divisor = √d_k unless the problem says otherwise)
    e^x     of each scaled score, as a student computes it, and the row sums
    weights softmax along each row (computed stably: the row maximum subtracted)
    output  weights·V

Masked cells (a key a query may not attend to) are NaN in ``scores`` and
``scaled``, and 0 in ``exps`` and ``weights``. The small pure functions
(:func:`scale`, :func:`softmax`, :func:`mix`) are used again by the marker to
carry a student's own numbers forward from one stage to the next.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from attn_tutor.core.model import Head, Problem
from attn_tutor.kinds.sampling import engine as sampling
from attn_tutor.kinds.sampling.model import SamplingProblem

if TYPE_CHECKING:
    import numpy as np

# e^x overflows a float64 just above x = 709.78.
_EXP_LIMIT = math.log(sys.float_info.max)  # the largest float64


@dataclass(frozen=True, eq=False)
class HeadResult:
    """Every intermediate of one head. Arrays are float64; rows are query tokens."""

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray | None
    d_k: int
    divisor: float
    mask: np.ndarray  # bool (n_q, n_k): True = may attend
    scores: np.ndarray  # NaN where masked
    scaled: np.ndarray  # NaN where masked
    exps: np.ndarray  # e^scaled as a student writes it; inf where not representable, 0 where masked
    exp_sums: np.ndarray  # (n_q,) row sums of exps (inf if any term overflows)
    weights: np.ndarray  # 0 where masked; every row sums to 1
    output: np.ndarray | None


@dataclass(frozen=True, eq=False)
class Solution:
    """A solved problem: one :class:`HeadResult` per head and the joined output."""

    problem: Problem
    heads: tuple[HeadResult, ...]
    output: np.ndarray | None  # heads' outputs side by side

    @property
    def head(self) -> HeadResult:
        """The only head of a single-head problem (the first of a multi-head one)."""
        return self.heads[0]

    def stage_row(self, stage: str, row: int) -> np.ndarray:
        """A query row of one stage, heads side by side, as a student writes it."""
        import numpy as np
        if stage == "output":
            if self.output is None:
                raise ValueError("this problem has no values, so no output")
            return self.output[row]
        return np.concatenate([getattr(h, stage)[row] for h in self.heads])


def as_array(matrix) -> np.ndarray:
    import numpy as np
    return np.array(matrix, dtype=np.float64, ndmin=2)


def scale(scores: np.ndarray, divisor: float) -> np.ndarray:
    import numpy as np
    return np.asarray(scores, dtype=np.float64) / divisor


def softmax(scaled: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Softmax along the last axis, stable for any finite input; masked entries get 0.

    Every row must have at least one unmasked entry (the loader guarantees it).
    """
    import numpy as np
    x = np.array(scaled, dtype=np.float64)
    if mask is not None:
        x = np.where(mask, x, -np.inf)
    top = x.max(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x - top)
    if mask is not None:
        e = np.where(mask, e, 0.0)
    return e / e.sum(axis=-1, keepdims=True)


def student_exps(scaled: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """e^x of each scaled score as written by hand: inf where it would overflow."""
    import numpy as np
    x = np.where(mask, np.asarray(scaled, dtype=np.float64), 0.0)
    with np.errstate(over="ignore"):
        e = np.where(x > _EXP_LIMIT, np.inf, np.exp(np.minimum(x, _EXP_LIMIT)))
    return np.where(mask, e, 0.0)


def mix(weights: np.ndarray, V: np.ndarray) -> np.ndarray:
    """The weighted sum of the rows of V."""
    import numpy as np
    return np.asarray(weights, dtype=np.float64) @ np.asarray(V, dtype=np.float64)


def divisor_for(problem: Problem, d_k: int) -> float:
    return math.sqrt(d_k) if problem.divide_by is None else float(problem.divide_by)


def _places(matrix: np.ndarray) -> int | None:
    """The most decimal places of any entry (as its shortest repr reads), None past what a float holds."""
    most = 0
    for value in matrix.flat:
        text = repr(float(value))
        if "e" in text or "inf" in text or "nan" in text:
            return None
        most = max(most, len(text.partition(".")[2].rstrip("0")))
    return most


class _Exact(NamedTuple):
    """A matrix exactly: integers, to be divided by 10**places."""

    ints: list
    places: int


_EXACT_WORK = 200_000  # multiplications beyond which (solve --large) the float product is used


def _exact(matrix: np.ndarray) -> _Exact | None:
    """The given entries as exact decimals (the loader keeps them hand-sized: at most 4 places)."""
    places = _places(matrix)
    if places is None or places > 8:
        return None
    scale = 10**places
    return _Exact([[int(round(v * scale)) for v in row] for row in matrix.tolist()], places)


def _product(A: np.ndarray, B: np.ndarray, exact_a: _Exact | None, exact_b: _Exact | None):
    """``A @ B`` as the nearest floats to the exact products, and the exact product (or None).

    Worked in integers: a sum of products of decimals with p and q places is an integer
    over 10**(p+q), and Python divides integers to the nearest float. So 0.15×0.3 +
    0.25×0.3 + 0.35×0.3 is 0.225, not 0.22499999999999998 (shown 0.23 at two places,
    as by hand), and a projected score of large integers is not rounded on the way.
    Beyond :data:`_EXACT_WORK` multiplications (a --large demonstration) the float product.
    """
    import numpy as np
    rows, inner = A.shape
    cols = B.shape[1]
    if exact_a is None or exact_b is None or rows * inner * cols > _EXACT_WORK:
        return A @ B, None
    columns = list(zip(*exact_b.ints))
    ints = [[sum(x * y for x, y in zip(row, column)) for column in columns] for row in exact_a.ints]
    places = exact_a.places + exact_b.places
    denominator = 10**places
    floats = np.array([[n / denominator for n in row] for row in ints], dtype=np.float64).reshape(rows, cols)
    return floats, _Exact(ints, places)


def _transposed(exact: _Exact | None) -> _Exact | None:
    return None if exact is None else _Exact([list(column) for column in zip(*exact.ints)], exact.places)


def solve_head(problem: Problem, head: Head) -> HeadResult:
    import numpy as np
    if head.projected:
        X = as_array(problem.X)
        exact_x = _exact(X)
        W_Q, W_K = as_array(head.W_Q), as_array(head.W_K)
        Q, exact_q = _product(X, W_Q, exact_x, _exact(W_Q))
        K, exact_k = _product(X, W_K, exact_x, _exact(W_K))
        V = _product(X, as_array(head.W_V), exact_x, _exact(as_array(head.W_V)))[0] if head.W_V is not None else None
    else:
        Q, K = as_array(head.Q), as_array(head.K)
        exact_q, exact_k = _exact(Q), _exact(K)
        V = as_array(head.V) if head.V is not None else None
    d_k = Q.shape[1]
    divisor = divisor_for(problem, d_k)
    mask = np.array(problem.mask_matrix(), dtype=bool).reshape(Q.shape[0], K.shape[0])
    raw = _product(Q, K.T, exact_q, _transposed(exact_k))[0]
    scores = np.where(mask, raw, np.nan)
    scaled = np.where(mask, raw / divisor, np.nan)
    exps = student_exps(scaled, mask)
    with np.errstate(over="ignore", invalid="ignore"):  # finite terms may still sum past the float range
        exp_sums = exps.sum(axis=1)
    weights = softmax(np.where(mask, raw / divisor, 0.0), mask)
    output = mix(weights, V) if V is not None else None
    return HeadResult(Q, K, V, d_k, divisor, mask, scores, scaled, exps, exp_sums, weights, output)


KIND_ENGINES = {"sampling": sampling.solve}
"""How a problem of each kind but attention is solved (attention: :func:`solve` below)."""


def solve(problem: Problem | SamplingProblem) -> Solution:
    """Every stage of a problem, at full precision (a problem of another kind: its own engine's solution)."""
    if problem.kind != "attention":
        return KIND_ENGINES[problem.kind](problem)  # type: ignore[return-value,arg-type]
    assert isinstance(problem, Problem)
    import numpy as np
    heads = tuple(solve_head(problem, head) for head in problem.heads)
    if all(h.output is not None for h in heads):
        output = np.concatenate([h.output for h in heads], axis=1)
    else:
        output = None
    return Solution(problem, heads, output)
