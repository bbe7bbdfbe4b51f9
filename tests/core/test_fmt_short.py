"""A number in a message: six significant digits, half up from the shortest decimal, ``.6g``'s layout.

The page's ``numbers.js`` ``short`` is checked against it in chromium over 20,000 values
(tests/e2e/test_page_digits_browser.py).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.core.rounding import fmt_short

CASES = [
    (83148.25, "83148.3"),  # an exact tie: .6g gave 83148.2, the page 83148.3
    (-83148.25, "-83148.3"),
    (0.1234565, "0.123457"),  # repr ends in 5: half up from the decimal, not the binary value
    (123456.5, "123457"),
    (999999.5, "1e+06"),
    (1234567.0, "1.23457e+06"),
    (100000.0, "100000"),
    (0.0001, "0.0001"),
    (0.00001, "1e-05"),
    (2.5e-7, "2.5e-07"),
    (1e300, "1e+300"),
    (5e-324, "5e-324"),
    (12.0, "12"),
    (-0.0, "0"),
    (0.0, "0"),
    (1e3, "1000"),
    (math.inf, "inf"),
]


@pytest.mark.parametrize(("x", "shown"), CASES, ids=[repr(case[0]) for case in CASES])
def test_a_number_in_a_message(x, shown):
    assert fmt_short(x) == shown


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_it_is_g_where_no_rounding_is_needed_and_within_half_a_unit_otherwise(x):
    shown = fmt_short(x)
    digits = repr(abs(x)).split("e")[0].replace(".", "").strip("0")
    if abs(x) >= 1e-300 and len(digits) <= 6:  # (a subnormal's shortest decimal is far from its binary value)
        assert shown == f"{x:.6g}"
    if x != 0:
        unit = 10.0 ** (math.floor(math.log10(abs(float(shown)))) - 5)
        assert abs(float(shown) - x) <= 0.5 * unit * (1 + 1e-9)
    assert not shown.startswith("-0") or shown.startswith("-0.")
