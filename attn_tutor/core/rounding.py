"""How numbers are shown to a student: rounded half up from the exact value.

``np.round`` rounds half to even and works on the binary float, so 0.0625 to
three places gives 0.062 and 2.675 to two gives 2.67. A student rounding by hand
writes 0.063 and 2.68: we round the shortest decimal that reads back as the same
float (``repr``), half up, and never show ``-0.000``.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext


def round_half_up(x: float, decimals: int) -> Decimal:
    """``x`` rounded half up (away from zero on a tie) to ``decimals`` places."""
    exact = Decimal(repr(float(x)))
    with localcontext() as context:  # enough digits for any float (1e308 has 309), or quantize fails
        context.prec = max(context.prec, exact.adjusted() + decimals + 2)
        rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    if rounded == 0:
        rounded = abs(rounded)  # no negative zero
    return rounded


def half_unit(decimals: int) -> float:
    """Half a unit in the last of ``decimals`` places: 0.0005 for 3."""
    return 0.5 * 10.0**-decimals


def rounded(x: float, decimals: int) -> float:
    """``float(round_half_up(x, decimals))``, the same number at every magnitude, made fast.

    ``y = x·10^decimals`` in floats is within 1.5 units in its last place of the exact
    decimal ``repr(x)·10^decimals`` (half a unit from ``repr``, half from the product).
    When ``y`` stands further than that from a tie (``… .5``), ``floor(y + 0.5)`` is the
    integer the decimal rounding gives, and dividing it by ``10^decimals`` (both exact)
    is correctly rounded as the conversion of the decimal is; near a tie, above ``2^52``
    or beyond 22 places the decimal rule itself decides.
    """
    x = float(x)
    if not math.isfinite(x):
        return x
    if decimals <= 22:
        scale = _SCALES[decimals]
        y = x * scale
        if abs(y) < 4503599627370496.0:  # 2**52: y + 0.5 and floor are exact below it
            if abs(abs(y) - math.floor(abs(y)) - 0.5) > max(1e-6, abs(y) * 1e-15):
                n = math.floor(y + 0.5)
                return n / scale if n else 0.0
    return float(round_half_up(x, decimals))


_SCALES = tuple(10.0**k for k in range(23))

TIE_GAP = 0.01
"""How close to a rounding tie, in units of the last place, a generated answer may not come."""


def near_tie(value: float, decimals: int) -> bool:
    """Within a hundredth of a unit of a rounding tie at ``decimals`` places (the generators refuse such
    an answer: rounding half up or half to even, from the exact value or a calculator's digits, would differ)."""
    scaled = value * 10.0**decimals
    return abs(scaled - math.floor(scaled) - 0.5) < TIE_GAP


def fmt(x: float | None, decimals: int = 3, *, missing: str = "—") -> str:
    """A number as a student writes it: fixed places, half up, no ``-0``."""
    if x is None:
        return missing
    x = float(x)
    if math.isnan(x):
        return missing
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{round_half_up(x, decimals):f}"


def fmt_given(x: float, decimals: int = 3) -> str:
    """A given number: integers as integers (``2``, not ``2.000``), others rounded."""
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = fmt(x, decimals)
    return text.rstrip("0").rstrip(".") if "." in text else text


SCORE_PLACES = 2  # points and scores as a person reads them, everywhere (the marker and the JSON keep 4)


def fmt_score(x: float) -> str:
    """Points or a score as shown: at most two places, half up, ``9.83`` for 9.8333, never ``-0``."""
    return fmt_given(x, SCORE_PLACES)


def fmt_row(values, decimals: int = 3) -> str:
    """``(0.214, 0.977)``"""
    return "(" + ", ".join(fmt(v, decimals) for v in values) + ")"


SHORT_DIGITS = 6


def fmt_short(x: float) -> str:
    """A number in a sentence (what was read, an exponent): six significant digits, rounded half up
    from the shortest decimal that reads back as the same float (as :func:`fmt`), laid out as Python's
    ``.6g`` lays them out (``83148.3``, ``1.23457e+06``, ``1e-05``), never ``-0``. One rule for the
    command line and the pages (``numbers.js`` ``short`` is its port): ``.6g`` alone rounds the binary
    value half to even, so 83148.25 would read 83148.2 here and 83148.3 in a browser."""
    x = float(x)
    if not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if x == 0:
        return "0"
    with localcontext() as context:
        context.prec, context.rounding = SHORT_DIGITS, ROUND_HALF_UP
        rounded = +Decimal(repr(x))
    sign, digits, _ = rounded.as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    exponent = rounded.adjusted()
    if -4 <= exponent < SHORT_DIGITS:
        point = exponent + 1
        if point <= 0:
            body = "0." + "0" * -point + text
        elif point >= len(text):
            body = text + "0" * (point - len(text))
        else:
            body = text[:point] + "." + text[point:]
    else:
        body = text[0] + ("." + text[1:] if len(text) > 1 else "") + f"e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    return ("-" if sign else "") + body
