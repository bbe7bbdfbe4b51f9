"""Each cell's arithmetic, written out as a student writes it.

    먹었다·생선을 = 1×0 + 3×2 = 6
    6 / √2 = 6 / 1.414 = 4.243
    e^4.243 / (e^0.707 + e^4.243 + e^2.828) = 69.591 / 88.538 = 0.786
    0.023×(1, 0) + 0.786×(0, 1) + 0.191×(1, 1) = (0.214, 0.977)

Pure: reads a :class:`~attn_tutor.solve.engine.Solution`, returns strings. Used by
``solve --explain``, the quiz's hints and the worksheets' answer keys.

Every line's result is worked from the exact values. Where the rounded numbers
the line shows do not give that result (weights shown as 0.248 + 0.248 + 0.503,
which sum to 0.999), the last ``=`` is ``≈`` (:func:`result_sign` decides, for
every line), and :data:`APPROX_NOTE` says why under the lines
(:func:`has_approx`).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext

from attn_tutor.core.rounding import fmt, fmt_given, round_half_up
from attn_tutor.solve.engine import HeadResult, Solution

APPROX = "≈"
APPROX_NOTE = "solve.approx_note"  # the catalogue key of the note under lines that use ≈


def shown(text: str) -> Decimal | None:
    """A number as printed ("0.248", "(-1)", "6"), exactly; None for "∞" and the like."""
    try:
        value = Decimal(text.strip("()"))
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def result_sign(from_shown: Decimal | None, exact: float, decimals: int) -> str:
    """"=" when the numbers as shown give the printed (rounded) result, else "≈"."""
    if from_shown is None or not math.isfinite(exact):
        return "="
    with localcontext() as context:  # enough digits for the number's whole part, however large
        context.prec = max(60, from_shown.adjusted() + decimals + 2)
        rounded = from_shown.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return "=" if rounded == round_half_up(exact, decimals) else APPROX


def quotient(top: str, bottom: str) -> Decimal | None:
    a, b = shown(top), shown(bottom)
    if a is None or b is None or b == 0:
        return None
    with localcontext() as context:  # 60 digits past the decimal point, however large the whole part
        context.prec = max(60, a.adjusted() - b.adjusted() + 60)
        return a / b


def dot(pairs) -> Decimal | None:
    """The sum of products of printed numbers, exactly."""
    total = Decimal(0)
    with localcontext() as context:  # printed floats have at most a few hundred digits: exact
        context.prec = 2000
        for a, b in pairs:
            x, y = shown(a), shown(b)
            if x is None or y is None:
                return None
            total += x * y
    return total


def has_approx(lines) -> bool:
    """Whether any line's result is marked ≈ (then the note belongs under them)."""
    return any(f" {APPROX} " in line for line in lines)


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
        pairs = [(_factor(a, decimals), _factor(b, decimals)) for a, b in zip(q, k)]
        terms = " + ".join(f"{a}×{b}" for a, b in pairs)
        sign = result_sign(dot(pairs), head.scores[row, j], decimals)
        lines.append(f"{tokens[row]}·{key} = {terms} {sign} {_num(head.scores[row, j], decimals)}")
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
            divisor = _num(head.divisor, decimals)
            left = f"{s} / {divisor}"
        elif root * root == head.d_k:
            divisor = str(root)
            left = f"{s} / √{head.d_k} = {s} / {root}"
        else:
            divisor = fmt(head.divisor, decimals)
            left = f"{s} / √{head.d_k} = {s} / {divisor}"
        lines.append(f"{left} {result_sign(quotient(s, divisor), head.scaled[row, j], decimals)} {result}")
    return lines


def weight_lines(head: HeadResult, row: int, decimals: int) -> list[str]:
    open_cells = [j for j in range(head.scaled.shape[1]) if head.mask[row, j]]
    powers = {j: _power(head.scaled[row, j], decimals) for j in open_cells}
    denominator = " + ".join(powers[j] for j in open_cells)
    total = head.exp_sums[row]
    lines = []
    for j in open_cells:
        left = f"{powers[j]} / ({denominator})"
        sign = "="
        if math.isfinite(total):
            top, bottom = fmt(head.exps[row, j], decimals), fmt(total, decimals)
            middle = f" = {top} / {bottom}"
            sign = result_sign(quotient(top, bottom), head.weights[row, j], decimals)
        else:
            middle = ""  # e^x too large to write down; the weight is still exact
        lines.append(f"{left}{middle} {sign} {fmt(head.weights[row, j], decimals)}")
    return lines


def mix_line(weights, V, mask, output, decimals: int) -> str:
    """``0.023×(1, 0) + 0.786×(0, 1) + 0.191×(1, 1) = (0.214, 0.977)``: a row of weights
    mixing the rows of V (the keys ``mask`` leaves open), and the exact ``output``."""
    keys = [j for j in range(len(V)) if mask[j]]
    shown_weights = {j: fmt(weights[j], decimals) for j in keys}
    terms = " + ".join(f"{shown_weights[j]}×{vector(V[j], decimals)}" for j in keys)
    signs = {
        result_sign(dot((shown_weights[j], _num(V[j][c], decimals)) for j in keys), output[c], decimals)
        for c in range(len(output))
    }
    result = "(" + ", ".join(fmt(v, decimals) for v in output) + ")"
    return f"{terms} {APPROX if APPROX in signs else '='} {result}"


def output_line(head: HeadResult, row: int, decimals: int) -> str:
    assert head.output is not None  # asked only of a head with values
    return mix_line(head.weights[row], head.V, head.mask[row], head.output[row], decimals)


def projection_lines(x, W, name: str, token: str, result, decimals: int) -> str:
    """``q(먹었다) = x·W_Q = (1×0.5 + 2×1, …) = (2.5, …)`` for one token."""
    columns = []
    signs = set()
    for c in range(len(result)):
        pairs = [(_factor(a, decimals), _factor(w[c], decimals)) for a, w in zip(x, W)]
        columns.append(" + ".join(f"{a}×{b}" for a, b in pairs))
        signs.add(result_sign(dot(pairs), result[c], decimals))
    sign = APPROX if APPROX in signs else "="
    return f"{name}({token}) = x·W_{name.upper()} = ({'; '.join(columns)}) {sign} {vector(result, decimals)}"


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
            assert problem.X is not None  # a projected head's inputs
            x = problem.X[row]
            stages["projection"].append(prefix + projection_lines(x, given.W_Q, "q", problem.tokens[row], head.Q[row], decimals))
            for j, key in enumerate(problem.keys):
                xj = problem.X[j]
                stages["projection"].append(prefix + projection_lines(xj, given.W_K, "k", key, head.K[j], decimals))
                if given.W_V is not None:
                    assert head.V is not None  # projected from W_V
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
