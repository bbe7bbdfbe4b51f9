"""How numbers are shown to a student (attn_tutor.core.rounding): rounded half up from the exact value."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attn_tutor.core.rounding import fmt, fmt_given, fmt_row, round_half_up

# ---------------------------------------------------------------------- core/rounding.py


@pytest.mark.parametrize(
    ("x", "decimals", "shown"),
    [
        (0.0625, 3, "0.063"),  # np.round: 0.062 (half to even)
        (2.675, 2, "2.68"),  # the float is 2.67499999..., a student writes 2.68
        (0.0005, 3, "0.001"),
        (0.0015, 3, "0.002"),
        (-0.0625, 3, "-0.063"),  # half away from zero
        (-2.675, 2, "-2.68"),
        (-0.0004, 3, "0.000"),  # never -0.000
        (-0.0005, 3, "-0.001"),
        (-0.0, 3, "0.000"),
        (-1e-300, 2, "0.00"),
        (0.7860029, 3, "0.786"),
        (4.242640687119285, 2, "4.24"),
        (0.7071067811865475, 2, "0.71"),
        (1.0, 3, "1.000"),
        (12.5, 0, "13"),
        (-12.5, 0, "-13"),
        (0.5, 0, "1"),
        (1e-5, 3, "0.000"),
        (123456.789, 1, "123456.8"),
        (1e22, 2, "10000000000000000000000.00"),
        (1e30, 3, "1" + "0" * 30 + ".000"),  # more digits than the default decimal context holds
        (1.7976931348623157e308, 1, "17976931348623157" + "0" * 292 + ".0"),
    ],
)
def test_fmt_rounds_half_up_from_the_shortest_decimal(x, decimals, shown):
    assert fmt(x, decimals) == shown


@pytest.mark.parametrize(
    ("x", "shown"),
    [(None, "—"), (math.nan, "—"), (math.inf, "∞"), (-math.inf, "-∞"), (np.float64(0.0625), "0.063")],
)
def test_fmt_special_values(x, shown):
    assert fmt(x) == shown


def test_fmt_missing_marker_can_be_chosen():
    assert fmt(None, missing="") == "" and fmt(math.nan, missing="-") == "-"


@pytest.mark.parametrize(
    ("x", "shown"),
    [(2.0, "2"), (-3.0, "-3"), (0.0, "0"), (-0.0, "0"), (0.5, "0.5"), (2.1, "2.1"), (0.125, "0.125"),
     (1 / 3, "0.333"), (0.0625, "0.063")],
)
def test_fmt_given_writes_integers_as_integers(x, shown):
    assert fmt_given(x) == shown


def test_fmt_row():
    assert fmt_row([0.2139, 0.97735]) == "(0.214, 0.977)"
    assert fmt_row([-0.0001, 1], 2) == "(0.00, 1.00)"


finite = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=1000)
@given(finite, st.integers(0, 8))
@example(0.0625, 3)
@example(2.675, 2)
@example(-0.0004, 3)
@example(1e300, 4)
def test_fmt_equals_the_decimal_of_repr_quantized_half_up(x, decimals):
    exact = Decimal(repr(x))
    quantum = Decimal(1).scaleb(-decimals)
    with localcontext() as context:
        context.prec = 400
        expected = exact.quantize(quantum, rounding=ROUND_HALF_UP)
    text = f"{expected:f}"
    if expected == 0:
        text = text.lstrip("-")
    assert fmt(x, decimals) == text
    assert round_half_up(x, decimals) == expected


@settings(max_examples=1000)
@given(finite.filter(lambda v: abs(v) < 1e20), st.integers(0, 8))
def test_fmt_agrees_with_integer_arithmetic(x, decimals):
    """An independent oracle: scale the exact decimal, add one half, floor — all in fractions."""
    scaled = Fraction(Decimal(repr(x))) * 10**decimals
    units = math.floor(abs(scaled) + Fraction(1, 2))
    sign = "-" if scaled < 0 and units != 0 else ""
    digits = str(units).rjust(decimals + 1, "0")
    expected = sign + (digits[:-decimals] + "." + digits[-decimals:] if decimals else digits)
    assert fmt(x, decimals) == expected


@settings(max_examples=500)
@given(finite, st.integers(0, 6))
def test_fmt_never_shows_negative_zero_and_always_has_the_places(x, decimals):
    text = fmt(x, decimals)
    assert not (text.startswith("-") and set(text[1:]) <= {"0", "."})
    assert (len(text.split(".")[1]) if "." in text else 0) == decimals


# --- the marker's rounding: the same rule as the display, at every magnitude ---------------

from attn_tutor.core.rounding import rounded  # noqa: E402


@pytest.mark.parametrize(
    ("x", "decimals", "expected"),
    [
        (97040125.65235, 4, 97040125.6524),  # a tie above 1e7: floor(x·10^4 + 0.5) gave ...6523
        (4405281376837.015, 2, 4405281376837.02),  # above 1e12
        (6202240187.60675, 4, 6202240187.6068),
        (2.675, 2, 2.68),  # a tie in the decimal, below it in binary
        (0.0625, 3, 0.063),
        (-2.5, 0, -3.0),  # away from zero
        (-0.0004, 3, 0.0),  # no negative zero
        (1e300, 3, 1e300),
        (1.4142135623730951, 1, 1.4),
    ],
)
def test_the_markers_rounding_is_half_up_from_the_shortest_decimal(x, decimals, expected):
    assert rounded(x, decimals) == expected
    assert math.copysign(1.0, rounded(x, decimals)) == math.copysign(1.0, expected)


decimal_ties = st.builds(
    lambda whole, places, digits: (float(f"{whole}.{digits:0{places}d}5"), places),
    st.integers(0, 10**15),
    st.integers(0, 6),
    st.integers(0, 999_999),
)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=False, allow_infinity=False),
        st.floats(min_value=1e6, max_value=1e17, allow_nan=False),
        decimal_ties.map(lambda pair: pair[0]),
    ),
    st.integers(0, 10),
)
def test_the_markers_rounding_equals_the_display_rounding(x, decimals):
    """One rule: the fast marker path gives the float of the decimal the display shows, ties included."""
    expected = float(round_half_up(x, decimals))
    got = rounded(x, decimals)
    assert got == expected and math.copysign(1.0, got) == math.copysign(1.0, expected)
    assert fmt(got, decimals) == fmt(x, decimals)
