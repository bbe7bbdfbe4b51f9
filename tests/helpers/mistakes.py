"""Students' mistakes made independently of the marker, with numpy from the givens: the oracle
the fair-marking tests hold the marker to."""

from __future__ import annotations

import numpy as np

from attn_tutor.core.rounding import round_half_up


def half_up(values, places):
    return np.array([float(round_half_up(v, places)) if np.isfinite(v) else v for v in np.asarray(values, float)])


def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max())
    return e / e.sum()


def simulated_mistakes(solution, row, stage):
    """(code, row) for every mistake, made here with numpy from the givens (single-head problems)."""
    (head,) = solution.heads
    problem = solution.problem
    Q, K, V, mask, div = head.Q, head.K, head.V, head.mask[row], head.divisor
    raw = Q @ K.T
    scores = raw[row]
    scaled = scores / div
    places = sorted({0, 1, 2, problem.decimals})
    out = []

    def masked(x, fill):
        return np.where(mask, x, fill)

    def soft(x):
        w = np.zeros(len(x))
        w[mask] = softmax(np.asarray(x)[mask])
        return w

    rounded_divisors = [float(round_half_up(div, k)) for k in places]
    rounded_divisors = [r for r in rounded_divisors if r != div and r > 0]
    if stage == "scores" and Q.shape[0] == K.shape[0]:
        out.append(("transposed_scores", masked(raw[:, row], np.nan)))
    if stage == "scaled":
        out.append(("not_scaled", masked(scores, np.nan)))
        if problem.divide_by is None:
            out.append(("divided_by_d", masked(scores / head.d_k, np.nan)))
        out += [("rounding", masked(scores / r, np.nan)) for r in rounded_divisors]
    if stage == "weights":
        total = scaled[mask].sum()
        if abs(total) > 1e-12:
            out.append(("no_exp", masked(scaled / total, 0.0)))
        out.append(("not_normalized", masked(np.exp(scaled), 0.0)))
        out.append(("skipped_scaling", soft(scores)))
        e = np.where(head.mask, np.exp(np.where(head.mask, raw / div, -np.inf)), 0.0)
        column = e[row] / np.where(e.sum(axis=0) > 0, e.sum(axis=0), 1.0)
        out.append(("column_softmax", masked(column, 0.0)))
        if not mask.all():
            everything = softmax(scaled)
            out += [("ignored_mask", everything), ("ignored_mask", masked(everything, 0.0))]
        for k in places:
            out.append(("rounding", soft(half_up(scaled, k))))
            ek = masked(half_up(np.exp(scaled), k), 0.0)
            if ek.sum() > 0:
                out.append(("rounding", ek / ek.sum()))
            sk = float(round_half_up(masked(np.exp(scaled), 0.0).sum(), k))
            if sk > 0:
                out.append(("rounding", masked(np.exp(scaled), 0.0) / sk))
        out += [("rounding", soft(scores / r)) for r in rounded_divisors]
    if stage == "output":
        weights = head.weights[row]
        if K.shape[1] == V.shape[1]:
            out.append(("used_keys", weights @ K))
        if not mask.all():
            out.append(("ignored_mask", softmax(scaled) @ V))
        out += [("rounding", half_up(weights, k) @ V) for k in places]
    return out
