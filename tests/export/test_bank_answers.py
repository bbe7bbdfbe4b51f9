"""The right answer Moodle and Canvas show is rounded as asked, and they accept exactly what the marker does.

Each asked cell's right answer goes to the quiz system as the exact value rounded half up
to the problem's places (what the system shows a student as "the correct answer"), with a
margin that stays inside the cell's window, and then the window itself as a second right
answer (attn_tutor.export.bank.right_answer). Whatever a student types, the marker takes it as
right if and only if each system does, by its own rule: Moodle's ``within_tolerance`` in PHP
doubles (tests/helpers/moodle.py) and Canvas's importer and BigDecimal marking
(tests/helpers/canvas.py) — at the window's ends too (issue 35, rule 4).
"""

from __future__ import annotations

import math
from decimal import Decimal

from helpers import canvas
from helpers import moodle as moodle_rule
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attn_tutor.core.rounding import fmt, round_half_up
from attn_tutor.export.bank import right_answer
from attn_tutor.marking.marker import cell_window, mark_stage

TOLERANCES = st.one_of(
    st.sampled_from([0.005, 0.0005, 0.001, 0.01, 0.05, 0.1, 0.5, 0.0055, 0.00123]),
    st.floats(1e-6, 1.0, allow_nan=False),
)


def marker_accepts(typed: str, exact: float, tolerance: float, decimals: int) -> bool:
    """The marker's rule for one cell (attn_tutor.marking.marker.Marker.mark): the typed number,
    read as a float, within the cell's window."""
    low, high = cell_window(exact, tolerance, decimals)
    return low <= float(typed) <= high


def moodle_accepts(right, typed: str) -> bool:
    """The blank's full-marks alternatives: the rounded answer with its margin, then the window."""
    return moodle_rule.numerical_accepts(right.text, right.margin, typed) or (
        not right.whole and moodle_rule.numerical_accepts(right.centre, right.half, typed)
    )


def canvas_accepts(right, typed: str) -> bool:
    """The item's right answers as Canvas imports them: an exact answer with a margin, then a range."""
    upper = format(Decimal(right.text) + Decimal(right.margin), "f")
    return canvas.numerical_accepts(right.text, upper, typed) or (not right.whole and canvas.range_accepts(right.low, right.high, typed))


def typed_near(value: float, decimals: int, reach: int) -> list[str]:
    """Every answer with ``decimals`` places within ``reach`` units of the rounded value."""
    centre = round_half_up(value, decimals)
    unit = Decimal(1).scaleb(-decimals)
    return [format(centre + k * unit, "f") for k in range(-reach, reach + 1)]


def edges(right) -> list[str]:
    """The window's ends, and the numbers one unit of a place further beyond and inside them."""
    low, high = Decimal(right.low), Decimal(right.high)
    found = []
    for extra in (1, 2):
        unit = Decimal(1).scaleb(min(low.as_tuple().exponent, high.as_tuple().exponent) - extra + 1)
        found += [format(x, "f") for x in (low, high, low - unit, high + unit, low + unit, high - unit)]
    return found


def check_cell(value: float, tolerance: float, decimals: int) -> int:
    """Every typed answer near the value and at the window's ends: the marker accepts it iff both
    systems do; returns how many were accepted."""
    right = right_answer(value, tolerance, decimals)
    if tolerance >= 0.5 * 10.0**-decimals:  # as validate requires
        assert right.text == fmt(value, decimals)  # shown as a student is asked to write it
    exact, tol = Decimal(repr(value)), Decimal(repr(tolerance))
    assert Decimal(right.low) <= exact - tol and exact + tol <= Decimal(right.high)
    assert Decimal(right.low) <= Decimal(right.text) <= Decimal(right.high)  # the answer shown is right
    reach = min(int(tolerance * 10**decimals) + 2, 60)
    checked = 0
    for typed in typed_near(value, decimals, reach) + edges(right) + [repr(value)]:
        if len(Decimal(typed).normalize().as_tuple().digits) > 15:
            continue  # beyond what a double holds: no float-based system tells such numbers apart
        verdict = marker_accepts(typed, value, tolerance, decimals)
        assert moodle_accepts(right, typed) == verdict, (typed, right, verdict)
        assert canvas_accepts(right, typed) == verdict, (typed, right, verdict)
        checked += verdict
    assert checked >= 1 or tolerance < 0.5 * 10.0**-decimals
    return checked


@settings(max_examples=400)
@given(
    value=st.one_of(
        st.floats(-1e4, 1e4, allow_nan=False),
        st.floats(-1e6, 1e6, allow_nan=False),  # beyond, a double keeps too few places past the point
        st.integers(-10**6, 10**6).map(lambda n: n / 2000),  # ties at 3 places: x.xxx5
    ),
    tolerance=TOLERANCES,
    decimals=st.integers(0, 6),
)
@example(value=math.sqrt(2), tolerance=0.005, decimals=3)  # the 1.4142135623731
@example(value=0.0625, tolerance=0.0005, decimals=3)  # a tie: 0.063
@example(value=-0.0004, tolerance=0.0005, decimals=3)  # rounds to 0.000, never -0.000
@example(value=123456789.0005, tolerance=0.0005, decimals=3)
def test_every_answer_the_marker_accepts_is_accepted_by_moodle_and_canvas(value, tolerance, decimals):
    check_cell(value, tolerance, decimals)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), tokens=st.integers(2, 4), dim=st.integers(1, 3), causal=st.booleans())
def test_a_row_the_marker_marks_right_is_right_in_every_bank_cell(seed, tokens, dim, causal):
    """Through the marker itself: rows typed as rounded, then each cell nudged a unit at a time;
    a cell is ``correct`` for ``mark_stage`` exactly when both systems take it as right."""
    from attn_tutor.export.bank import asked_cells
    from attn_tutor.solve import engine
    from attn_tutor.variants.generate import random_problem

    solution = engine.solve(random_problem(seed, tokens=tokens, dim=dim, causal=causal))
    problem = solution.problem
    cells = asked_cells(solution)
    by_row: dict[tuple[int, str], dict[int, object]] = {}
    for cell in cells:
        by_row.setdefault((cell.row, cell.stage), {})[cell.index] = cell
    unit = 10.0**-problem.decimals
    for (row, stage), row_cells in by_row.items():
        exact = solution.stage_row(stage, row)
        rounded = [fmt(float(v), problem.decimals) if math.isfinite(float(v)) else "0" for v in exact]
        for index, cell in row_cells.items():
            for step in (-2, -1, 0, 1, 2):
                typed = list(rounded)
                typed[index] = fmt(float(Decimal(rounded[index]) + Decimal(step) * Decimal(repr(unit))), problem.decimals)
                item = mark_stage(solution, row, stage, [float(x) for x in typed])
                verdict = item.cells[index] == "correct"
                assert moodle_accepts(cell.right, typed[index]) == verdict
                assert canvas_accepts(cell.right, typed[index]) == verdict
