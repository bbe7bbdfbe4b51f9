"""Within the hand-sized limits every score is the float nearest the exact value, and printed as by hand."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    ("Q", "K", "decimals", "shown"),
    [
        ("[[1000000, 1000000]]", "[[1000000, 1000000]]", 0, "2000000000000"),  # 1e6×1e6 + 1e6×1e6, exact
        ("[[999999, 999999]]", "[[999999, -1]]", 0, "999997000002"),
        ("[[0.15, 0.25, 0.35]]", "[[0.3, 0.3, 0.3]]", 2, "0.23"),  # 0.225 exactly: half up, as by hand
        ("[[0.0625]]", "[[1]]", 3, "0.063"),
        ("[[123.4567, 0.0001]]", "[[765.4321, 9999.9999]]", 4, "94498.7211"),
    ],
)
def test_printed_scores_are_exact_within_the_limits(run_cli, tmp_path, Q, K, decimals, shown):
    from decimal import ROUND_HALF_UP, Decimal
    from fractions import Fraction

    path = tmp_path / "p.yaml"
    path.write_text(f"problems:\n  - id: a\n    tokens: [x]\n    Q: {Q}\n    K: {K}\n    decimals: {decimals}\n", "utf-8")
    result = run_cli("solve", str(path), "--stage", "scores")
    assert result.exit_code == 0, result.output
    q, k = json.loads(Q)[0], json.loads(K)[0]
    exact = sum(Fraction(str(a)) * Fraction(str(b)) for a, b in zip(q, k))
    by_hand = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
    assert f"{by_hand:f}" == shown
    assert f" {shown}" in result.output


# hand-sized entries: up to 1e6 in size, up to 4 decimal places
hand_entry = st.integers(-(10**10), 10**10).map(lambda n: n / 10**4) | st.integers(-(10**6), 10**6).map(float)


@st.composite
def hand_problems(draw, projected: bool):
    from attn_tutor.core.model import Head, Problem

    n_q, n_k, d, d_in = (draw(st.integers(1, 4)) for _ in range(4))
    matrix = lambda rows, cols: tuple(tuple(draw(hand_entry) for _ in range(cols)) for _ in range(rows))  # noqa: E731
    if projected:
        X = matrix(n_q, d_in)
        head = Head(W_Q=matrix(d_in, d), W_K=matrix(d_in, d))
        return Problem("p", tuple(f"t{i}" for i in range(n_q)), (head,), X=X)
    head = Head(Q=matrix(n_q, d), K=matrix(n_k, d))
    return Problem("p", tuple(f"t{i}" for i in range(n_q)), (head,), key_tokens=tuple(f"k{i}" for i in range(n_k)))


def _exact_scores(problem):
    from fractions import Fraction

    head = problem.heads[0]
    exact = lambda m: [[Fraction(repr(v)) for v in row] for row in m]  # noqa: E731
    times = lambda a, b: [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]  # noqa: E731
    if head.projected:
        X = exact(problem.X)
        Q, K = times(X, exact(head.W_Q)), times(X, exact(head.W_K))
    else:
        Q, K = exact(head.Q), exact(head.K)
    return times(Q, [list(col) for col in zip(*K)])


@settings(max_examples=150)
@given(st.booleans().flatmap(hand_problems))
def test_every_score_is_the_float_nearest_the_exact_value(problem):
    from attn_tutor.solve import engine

    solution = engine.solve(problem)
    expected = [[float(v) for v in row] for row in _exact_scores(problem)]
    assert solution.head.scores.tolist() == expected
