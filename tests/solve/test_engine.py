"""The engine and the number formatting: examples, and properties checked with hypothesis.

The reference for the engine is :func:`naive_solve`, a plain-Python loop with
``math.exp`` and explicit sums, written the way a student computes by hand. The
engine must agree with it for random shapes, masks, heads and projections.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_tutor.core.model import Head, Problem
from attn_tutor.core.rounding import fmt, fmt_row
from attn_tutor.solve import engine

# --------------------------------------------------------------------------- helpers


def tokens(n: int, prefix: str = "t") -> tuple[str, ...]:
    return tuple(f"{prefix}{i}" for i in range(n))


def matrix(rows) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in row) for row in rows)


def single(Q, K, V=None, **kwargs) -> Problem:
    """A single-head problem with Q, K (and V) given directly."""
    n_q, n_k = len(Q), len(K)
    key_tokens = tokens(n_k, "k") if n_k != n_q else None
    head = Head(Q=matrix(Q), K=matrix(K), V=matrix(V) if V is not None else None)
    return Problem(id="p", tokens=tokens(n_q), key_tokens=key_tokens, heads=(head,), **kwargs)


def naive_mask(problem: Problem) -> list[list[bool]]:
    n_q, n_k = len(problem.tokens), len(problem.keys)
    if problem.mask == "none":
        return [[True] * n_k for _ in range(n_q)]
    if problem.mask == "causal":
        return [[j <= i for j in range(n_k)] for i in range(n_q)]
    return [[v == 1 for v in row] for row in problem.mask]


def naive_matmul(A, B):
    return [[math.fsum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def naive_head(problem: Problem, head: Head) -> dict:
    """One head, by hand: loops, ``math.exp``, explicit sums."""
    if head.W_Q is not None:
        Q, K = naive_matmul(problem.X, head.W_Q), naive_matmul(problem.X, head.W_K)
        V = naive_matmul(problem.X, head.W_V) if head.W_V is not None else None
    else:
        Q, K = [list(r) for r in head.Q], [list(r) for r in head.K]
        V = [list(r) for r in head.V] if head.V is not None else None
    d_k = len(Q[0])
    divisor = math.sqrt(d_k) if problem.divide_by is None else problem.divide_by
    allowed = naive_mask(problem)
    scores, scaled, weights = [], [], []
    for i, q in enumerate(Q):
        s_row = [math.fsum(q[t] * k[t] for t in range(d_k)) for k in K]
        x_row = [s / divisor for s in s_row]
        top = max(x for x, ok in zip(x_row, allowed[i]) if ok)
        e_row = [math.exp(x - top) if ok else 0.0 for x, ok in zip(x_row, allowed[i])]
        total = math.fsum(e_row)
        scores.append([s if ok else None for s, ok in zip(s_row, allowed[i])])
        scaled.append([x if ok else None for x, ok in zip(x_row, allowed[i])])
        weights.append([e / total for e in e_row])
    output = None
    if V is not None:
        output = [[math.fsum(w[j] * V[j][c] for j in range(len(V))) for c in range(len(V[0]))] for w in weights]
    return {"Q": Q, "K": K, "V": V, "d_k": d_k, "divisor": divisor, "scores": scores, "scaled": scaled,
            "weights": weights, "output": output}


def naive_solve(problem: Problem) -> dict:
    heads = [naive_head(problem, head) for head in problem.heads]
    output = None
    if all(h["output"] is not None for h in heads):
        output = [sum((h["output"][i] for h in heads), []) for i in range(len(problem.tokens))]
    return {"heads": heads, "output": output}


def assert_close(actual, expected, *, tol: float = 1e-9) -> None:
    """Elementwise |a - e| <= tol * max(1, |e|); None in ``expected`` means a masked (NaN) cell."""
    actual = np.asarray(actual, dtype=np.float64)
    assert actual.shape == (len(expected), len(expected[0]))
    for i, row in enumerate(expected):
        for j, e in enumerate(row):
            a = actual[i, j]
            if e is None:
                assert math.isnan(a), (i, j, a)
            else:
                assert abs(a - e) <= tol * max(1.0, abs(e)), (i, j, a, e)


# --------------------------------------------------------------------------- strategies

value = st.floats(min_value=-5, max_value=5, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 2))


def matrices(n_rows: int, n_cols: int, elements=value):
    return st.lists(st.lists(elements, min_size=n_cols, max_size=n_cols), min_size=n_rows, max_size=n_rows)


@st.composite
def masks(draw, n_q: int, n_k: int):
    kind = draw(st.sampled_from(["none", "causal", "matrix"]))
    if kind != "matrix":
        return kind
    rows = []
    for _ in range(n_q):
        row = draw(st.lists(st.sampled_from([0, 1]), min_size=n_k, max_size=n_k))
        if not any(row):
            row[draw(st.integers(0, n_k - 1))] = 1  # a row that may attend to nothing is invalid
        rows.append(tuple(row))
    return tuple(rows)


@st.composite
def problems(draw, *, with_values: bool | None = None, projected: bool | None = None) -> Problem:
    """Any valid problem: shapes, masks, divisors, heads, projections, cross-attention."""
    n_q = draw(st.integers(1, 5))
    projected = draw(st.booleans()) if projected is None else projected
    # cross-attention (different key tokens) only without projection: X is one sentence
    n_k = n_q if projected else draw(st.integers(1, 5))
    n_heads = draw(st.integers(1, 3))
    has_values = draw(st.booleans()) if with_values is None else with_values
    d_in = draw(st.integers(1, 4))
    X = matrix(draw(matrices(n_q, d_in))) if projected else None
    heads = []
    for _ in range(n_heads):
        d_k = draw(st.integers(1, 4))
        d_v = draw(st.integers(1, 3))
        if projected:
            heads.append(Head(
                W_Q=matrix(draw(matrices(d_in, d_k))),
                W_K=matrix(draw(matrices(d_in, d_k))),
                W_V=matrix(draw(matrices(d_in, d_v))) if has_values else None,
            ))
        else:
            heads.append(Head(
                Q=matrix(draw(matrices(n_q, d_k))),
                K=matrix(draw(matrices(n_k, d_k))),
                V=matrix(draw(matrices(n_k, d_v))) if has_values else None,
            ))
    divide_by = draw(st.one_of(st.none(), st.sampled_from([1.0, 0.5, 2.0, 3.0, 10.0]),
                               st.floats(min_value=0.01, max_value=100)))
    return Problem(
        id="random",
        tokens=tokens(n_q),
        key_tokens=tokens(n_k, "k") if n_k != n_q else None,
        heads=tuple(heads),
        X=X,
        multi_head=n_heads > 1,
        divide_by=divide_by,
        mask=draw(masks(n_q, n_k)),
    )


# --------------------------------------------------------------------------- examples

CHAPTER = single(
    Q=[[2, 1], [1, 2], [1, 3]],
    K=[[1, 0], [0, 2], [1, 1]],
    V=[[1, 0], [0, 1], [1, 1]],
)


def test_the_chapter_example_stage_by_stage():
    head = engine.solve(CHAPTER).head
    assert head.d_k == 2 and head.divisor == math.sqrt(2)
    assert head.scores.tolist() == [[2, 2, 3], [1, 4, 3], [1, 6, 4]]
    assert [fmt(v, 2) for v in head.scaled[2]] == ["0.71", "4.24", "2.83"]
    assert [fmt(v) for v in head.exps[2]] == ["2.028", "69.591", "16.919"]
    assert fmt(head.exp_sums[2]) == "88.538"
    assert [fmt(v) for v in head.weights[2]] == ["0.023", "0.786", "0.191"]
    assert [fmt_row(row) for row in head.output] == ["(0.752, 0.752)", "(0.380, 0.926)", "(0.214, 0.977)"]


def test_projection_multiplies_x_by_each_w():
    problem = Problem(
        id="p", tokens=tokens(2), X=matrix([[1, 2], [3, 4]]),
        heads=(Head(W_Q=matrix([[1, 0], [0, 1]]), W_K=matrix([[0, 1], [1, 0]]), W_V=matrix([[2], [1]])),),
    )
    head = engine.solve(problem).head
    assert head.Q.tolist() == [[1, 2], [3, 4]]
    assert head.K.tolist() == [[2, 1], [4, 3]]
    assert head.V.tolist() == [[4], [10]]


def test_heads_are_concatenated_in_order():
    h1 = Head(Q=matrix([[1, 0], [0, 1]]), K=matrix([[1, 0], [0, 1]]), V=matrix([[1, 0], [0, 1]]))
    h2 = Head(Q=matrix([[0], [0]]), K=matrix([[0], [0]]), V=matrix([[4, 8, 1], [2, 2, 3]]))
    solution = engine.solve(Problem(id="p", tokens=tokens(2), heads=(h1, h2), multi_head=True))
    assert solution.output.shape == (2, 5)
    np.testing.assert_array_equal(solution.output[:, :2], solution.heads[0].output)
    np.testing.assert_array_equal(solution.output[:, 2:], [[3, 5, 2], [3, 5, 2]])
    assert solution.stage_row("weights", 0).shape == (4,)


def test_a_problem_without_values_stops_at_the_weights():
    solution = engine.solve(single(Q=[[1, 0]], K=[[1, 0], [0, 1]]))
    assert solution.output is None and solution.head.output is None and solution.head.V is None
    with pytest.raises(ValueError):
        solution.stage_row("output", 0)


@pytest.mark.parametrize(
    ("divide_by", "divisor"),
    [(None, 2.0), (1.0, 1.0), (8.0, 8.0), (0.5, 0.5)],
)
def test_divide_by_is_honoured(divide_by, divisor):
    problem = single(Q=[[1, 2, 3, 4]], K=[[1, 1, 1, 1], [0, 0, 0, 2]], V=[[1], [0]], divide_by=divide_by)
    head = engine.solve(problem).head
    assert head.divisor == divisor  # d_k = 4: √4 = 2 by default
    np.testing.assert_array_equal(head.scores, [[10, 8]])
    np.testing.assert_array_equal(head.scaled, [[10 / divisor, 8 / divisor]])
    expected = 1 / (1 + math.exp(-2 / divisor))
    assert head.weights[0, 0] == pytest.approx(expected, rel=1e-12)


def test_masked_cells_are_nan_in_scores_and_zero_in_weights():
    problem = single(Q=[[1], [2], [3]], K=[[1], [1], [1]], V=[[1], [2], [3]], mask="causal")
    head = engine.solve(problem).head
    assert np.isnan(head.scores[0, 1]) and np.isnan(head.scaled[0, 2]) and not np.isnan(head.scores[2, 2])
    assert head.exps[0, 1] == 0 and head.weights[0, 1] == 0
    np.testing.assert_allclose(head.weights, [[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3]], rtol=1e-15)
    np.testing.assert_allclose(head.output[:, 0], [1, 1.5, 2], rtol=1e-15)


def test_a_zero_one_mask_matrix():
    problem = single(Q=[[0], [0]], K=[[0], [0], [0]], V=[[3], [6], [9]], mask=((0, 1, 1), (1, 0, 0)))
    head = engine.solve(problem).head
    assert head.mask.tolist() == [[False, True, True], [True, False, False]]
    np.testing.assert_allclose(head.output[:, 0], [7.5, 3], rtol=1e-15)


# --------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_engine_equals_a_naive_loop(problem):
    solution = engine.solve(problem)
    expected = naive_solve(problem)
    assert len(solution.heads) == len(expected["heads"])
    for got, want in zip(solution.heads, expected["heads"]):
        assert got.d_k == want["d_k"]
        assert got.divisor == pytest.approx(want["divisor"], rel=1e-15)
        assert_close(got.Q, want["Q"])
        assert_close(got.K, want["K"])
        assert_close(got.scores, want["scores"])
        assert_close(got.scaled, want["scaled"])
        assert_close(got.weights, want["weights"])
        if want["V"] is None:
            assert got.V is None and got.output is None
        else:
            assert_close(got.V, want["V"])
            assert_close(got.output, want["output"])
    if expected["output"] is None:
        assert solution.output is None
    else:
        assert_close(solution.output, expected["output"])


@settings(max_examples=300, deadline=None)
@given(problems())
def test_weight_rows_sum_to_one_and_masked_cells_are_zero(problem):
    for head in engine.solve(problem).heads:
        assert np.all(np.isfinite(head.weights))
        assert np.all(head.weights >= 0)
        np.testing.assert_allclose(head.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        assert np.all(head.weights[~head.mask] == 0)


@settings(max_examples=300, deadline=None)
@given(problems(with_values=True))
def test_outputs_lie_within_the_range_of_the_values_that_may_be_attended(problem):
    for head in engine.solve(problem).heads:
        for i in range(head.output.shape[0]):
            seen = head.V[head.mask[i]]
            low, high = seen.min(axis=0), seen.max(axis=0)
            slack = 1e-12 * (1 + np.abs(seen).max(axis=0))
            assert np.all(head.output[i] >= low - slack), (i, head.output[i], low)
            assert np.all(head.output[i] <= high + slack), (i, head.output[i], high)


@st.composite
def score_rows(draw, low: float = -50, high: float = 50):
    n = draw(st.integers(1, 6))
    row = draw(st.lists(st.floats(low, high), min_size=n, max_size=n))
    allowed = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    allowed[draw(st.integers(0, n - 1))] = True
    return np.array([row]), np.array([allowed])


@settings(max_examples=300, deadline=None)
@given(score_rows(), st.floats(-500, 500))
def test_adding_a_constant_to_a_score_row_changes_no_weight(row_and_mask, shift):
    row, allowed = row_and_mask
    before = engine.softmax(row, allowed)
    after = engine.softmax(row + shift, allowed)
    np.testing.assert_allclose(after, before, rtol=1e-9, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(problems(projected=False), st.floats(-20, 20))
def test_shifting_every_score_of_a_row_through_the_problem_changes_no_weight(problem, shift):
    """The same property end to end: a key dimension that adds ``shift`` to every score of a row."""
    shifted_heads = []
    for head in problem.heads:
        Q = tuple(q + (shift,) for q in head.Q)
        K = tuple(k + (1.0,) for k in head.K)  # q·k gains exactly `shift` in every column
        shifted_heads.append(Head(Q=Q, K=K, V=head.V))
    # the extra dimension would change √d_k: fix the divisor so that only the shift differs
    divide_by = problem.divide_by if problem.divide_by is not None else 1.5
    base = Problem(id="b", tokens=problem.tokens, key_tokens=problem.key_tokens, heads=problem.heads,
                   divide_by=divide_by, mask=problem.mask)
    moved = Problem(id="m", tokens=problem.tokens, key_tokens=problem.key_tokens, heads=tuple(shifted_heads),
                    divide_by=divide_by, mask=problem.mask)
    for a, b in zip(engine.solve(base).heads, engine.solve(moved).heads):
        np.testing.assert_allclose(b.weights, a.weights, rtol=1e-9, atol=1e-12)


# --------------------------------------------------------------------------- stability


def scores_problem(rows, mask="none") -> Problem:
    """A problem whose scaled scores are exactly ``rows``: K is the identity and nothing is divided."""
    n_k = len(rows[0])
    identity = [[1.0 if i == j else 0.0 for j in range(n_k)] for i in range(n_k)]
    return single(Q=rows, K=identity, V=[[float(j)] for j in range(n_k)], divide_by=1.0, mask=mask)


def math_exp_or_inf(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def fsum_or_inf(values) -> float:
    try:
        return math.fsum(values)
    except OverflowError:
        return math.inf


@pytest.mark.parametrize(
    "row",
    [
        [1000.0, 0.0, -1000.0],
        [-1000.0, -1001.0, -1002.0],
        [1000.0, 1000.0, 999.0],
        [709.0, 710.0, 0.0],
        [709.78, 709.78, 709.78],  # each e^x fits, their sum does not
        [-800.0, 800.0],
        [1e300, -1e300],
    ],
)
def test_extreme_scores_give_finite_weights_and_honest_exponentials(row):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow or invalid-value warning from numpy fails the test
        head = engine.solve(scores_problem([row])).head
    assert np.all(np.isfinite(head.weights)) and not np.any(np.isnan(head.weights))
    assert head.weights.sum() == pytest.approx(1.0, abs=1e-12)
    for x, e in zip(row, head.exps[0]):
        assert e == pytest.approx(math_exp_or_inf(x), rel=1e-13)
    assert head.exp_sums[0] == pytest.approx(fsum_or_inf(math_exp_or_inf(x) for x in row), rel=1e-12)
    top = max(row)
    expected = [math.exp(x - top) / math.fsum(math.exp(y - top) for y in row) for x in row]
    np.testing.assert_allclose(head.weights[0], expected, rtol=1e-12, atol=1e-300)


def test_huge_scores_behind_a_mask_do_not_leak():
    head = engine.solve(scores_problem([[0.0, 1000.0], [5.0, 1000.0]], mask="causal")).head
    assert head.weights.tolist()[0] == [1.0, 0.0]
    assert head.exps[0, 1] == 0.0 and head.exp_sums[0] == 1.0


@settings(max_examples=300, deadline=None)
@given(score_rows(-2000, 2000))
def test_exps_are_infinite_exactly_where_e_to_the_x_is_not_representable(row_and_mask):
    row, allowed = row_and_mask
    mask = tuple(tuple(int(v) for v in r) for r in allowed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        head = engine.solve(scores_problem(row.tolist(), mask=mask)).head
    assert np.all(np.isfinite(head.weights)) and head.weights.sum() == pytest.approx(1.0, abs=1e-12)
    terms = []
    for x, ok, e in zip(row[0], allowed[0], head.exps[0]):
        if not ok:
            assert e == 0.0
            continue
        want = math_exp_or_inf(x)
        terms.append(want)
        if math.isinf(want):
            assert math.isinf(e), (x, e)
        else:
            assert math.isfinite(e) and e == pytest.approx(want, rel=1e-13, abs=0), (x, e, want)
    assert head.exp_sums[0] == pytest.approx(fsum_or_inf(terms), rel=1e-12)


@pytest.mark.parametrize("x", [709.0, 709.78, engine._EXP_LIMIT, 709.79, 710.0, 1e4])
def test_the_overflow_edge_of_e_to_the_x(x):
    e = engine.student_exps(np.array([[x]]), np.array([[True]]))[0, 0]
    assert e == math_exp_or_inf(x) or e == pytest.approx(math_exp_or_inf(x), rel=1e-13)
