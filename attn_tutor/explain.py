"""Each cell's arithmetic, written out as a student writes it.

    먹었다·생선을 = 1×0 + 3×2 = 6
    6 / √2 = 6 / 1.414 = 4.243
    e^4.243 / (e^0.707 + e^4.243 + e^2.828) = 69.591 / 88.538 = 0.786
    0.023×(1, 0) + 0.786×(0, 1) + 0.191×(1, 1) = (0.214, 0.977)

Pure: reads a :class:`~attn_tutor.engine.Solution`, returns strings. Used by
``solve --explain`` and by the worksheets' answer keys.
"""

from __future__ import annotations

import math

from attn_tutor.engine import HeadResult, Solution
from attn_tutor.numbers import fmt, fmt_given


def _num(x: float, decimals: int) -> str:
    """An intermediate value: whole numbers as they are, others rounded."""
    return fmt_given(x, decimals)


def _factor(x: float, decimals: int) -> str:
    text = _num(x, decimals)
    return f"({text})" if text.startswith("-") else text


def _power(x: float, decimals: int) -> str:
    """``e^0.707``, ``e^(-2.475)``"""
    text = fmt(x, decimals)
    return f"e^({text})" if text.startswith("-") else f"e^{text}"


def vector(values, decimals: int) -> str:
    """``(1, 0)``, ``(0.5, -1)``: whole numbers as they are, others rounded."""
    return "(" + ", ".join(_num(v, decimals) for v in values) + ")"


def divisor_text(head: HeadResult, divide_by: float | None, decimals: int) -> str:
    """"√2 ≈ 1.414", "√4 = 2" or just "3" for a divide_by the teacher set."""
    if divide_by is not None:
        return _num(head.divisor, decimals)
    root = math.isqrt(head.d_k)
    if root * root == head.d_k:
        return f"√{head.d_k} = {root}"
    return f"√{head.d_k} ≈ {fmt(head.divisor, decimals)}"


def score_lines(head: HeadResult, row: int, tokens, keys, decimals: int) -> list[str]:
    lines = []
    q = head.Q[row]
    for j, key in enumerate(keys):
        if not head.mask[row, j]:
            continue
        k = head.K[j]
        terms = " + ".join(f"{_factor(a, decimals)}×{_factor(b, decimals)}" for a, b in zip(q, k))
        lines.append(f"{tokens[row]}·{key} = {terms} = {_num(head.scores[row, j], decimals)}")
    return lines


def scaled_lines(head: HeadResult, row: int, divide_by: float | None, decimals: int) -> list[str]:
    lines = []
    root = math.isqrt(head.d_k)
    for j in range(head.scores.shape[1]):
        if not head.mask[row, j]:
            continue
        s = _num(head.scores[row, j], decimals)
        result = fmt(head.scaled[row, j], decimals)
        if divide_by is not None:
            lines.append(f"{s} / {_num(head.divisor, decimals)} = {result}")
        elif root * root == head.d_k:
            lines.append(f"{s} / √{head.d_k} = {s} / {root} = {result}")
        else:
            lines.append(f"{s} / √{head.d_k} = {s} / {fmt(head.divisor, decimals)} = {result}")
    return lines


def weight_lines(head: HeadResult, row: int, decimals: int) -> list[str]:
    open_cells = [j for j in range(head.scaled.shape[1]) if head.mask[row, j]]
    powers = {j: _power(head.scaled[row, j], decimals) for j in open_cells}
    denominator = " + ".join(powers[j] for j in open_cells)
    total = head.exp_sums[row]
    lines = []
    for j in open_cells:
        left = f"{powers[j]} / ({denominator})"
        if math.isfinite(total):
            middle = f" = {fmt(head.exps[row, j], decimals)} / {fmt(total, decimals)}"
        else:
            middle = ""  # e^x too large to write down; the weight is still exact
        lines.append(f"{left}{middle} = {fmt(head.weights[row, j], decimals)}")
    return lines


def output_line(head: HeadResult, row: int, decimals: int) -> str:
    terms = " + ".join(
        f"{fmt(head.weights[row, j], decimals)}×{vector(head.V[j], decimals)}"
        for j in range(head.V.shape[0])
        if head.mask[row, j]
    )
    result = "(" + ", ".join(fmt(v, decimals) for v in head.output[row]) + ")"
    return f"{terms} = {result}"


def projection_lines(x, W, name: str, token: str, result, decimals: int) -> str:
    """``q(먹었다) = x·W_Q = (1×0.5 + 2×1, …) = (2.5, …)`` for one token."""
    columns = []
    for c in range(len(result)):
        columns.append(" + ".join(f"{_factor(a, decimals)}×{_factor(w[c], decimals)}" for a, w in zip(x, W)))
    return f"{name}({token}) = x·W_{name.upper()} = ({'; '.join(columns)}) = {vector(result, decimals)}"


def explain_row(solution: Solution, row: int, decimals: int) -> dict[str, list[str]]:
    """Every stage's arithmetic for one query row, heads one after another.

    Lines of a multi-head problem start with the head's number ("[1] ...").
    A projection problem also gets "projection": q of the row, k and v of every key.
    """
    problem = solution.problem
    stages: dict[str, list[str]] = {"projection": [], "scores": [], "scaled": [], "weights": [], "output": []}
    many = len(solution.heads) > 1
    for number, (given, head) in enumerate(zip(problem.heads, solution.heads), start=1):
        prefix = f"[{number}] " if many else ""
        if given.projected:
            x = problem.X[row]
            stages["projection"].append(prefix + projection_lines(x, given.W_Q, "q", problem.tokens[row], head.Q[row], decimals))
            for j, key in enumerate(problem.keys):
                xj = problem.X[j]
                stages["projection"].append(prefix + projection_lines(xj, given.W_K, "k", key, head.K[j], decimals))
                if given.W_V is not None:
                    stages["projection"].append(prefix + projection_lines(xj, given.W_V, "v", key, head.V[j], decimals))
        stages["scores"] += [prefix + line for line in score_lines(head, row, problem.tokens, problem.keys, decimals)]
        stages["scaled"] += [prefix + line for line in scaled_lines(head, row, problem.divide_by, decimals)]
        stages["weights"] += [prefix + line for line in weight_lines(head, row, decimals)]
        if head.V is not None:
            stages["output"].append(prefix + output_line(head, row, decimals))
    if solution.output is None:
        del stages["output"]
    if not stages["projection"]:
        del stages["projection"]
    return stages
