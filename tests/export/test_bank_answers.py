"""The right answer Moodle and Canvas show is rounded as asked, and they accept every answer the marker does.

Each asked cell's right answer goes to the quiz system as the exact value rounded half up
to the problem's places (what the system shows a student as "the correct answer"), with a
margin widened so that the exact value ± the problem's tolerance is still inside
(attn_tutor.export.bank.right_answer). Whatever a student types that the marker takes as
right, with the places asked, each system must take as right too, by its own rule:
Moodle's ``within_tolerance`` in PHP doubles (tests/helpers/moodle.py) and Canvas's
importer and BigDecimal marking (tests/helpers/canvas.py).
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
from attn_tutor.marking.marker import EPS, mark_stage

TOLERANCES = st.one_of(
    st.sampled_from([0.005, 0.0005, 0.001, 0.01, 0.05, 0.1, 0.5, 0.0055, 0.00123]),
    st.floats(1e-6, 1.0, allow_nan=False),
)


def marker_accepts(typed: str, exact: float, tolerance: float) -> bool:
    """The marker's rule for one cell (attn_tutor.marking.marker.Marker.mark): the typed number,
    read as a float, within the tolerance and the float slack EPS of the exact value."""
    return abs(float(typed) - exact) <= tolerance + EPS


def typed_near(value: float, decimals: int, reach: int) -> list[str]:
    """Every answer with ``decimals`` places within ``reach`` units of the rounded value."""
    centre = round_half_up(value, decimals)
    unit = Decimal(1).scaleb(-decimals)
    return [format(centre + k * unit, "f") for k in range(-reach, reach + 1)]


def check_cell(value: float, tolerance: float, decimals: int) -> int:
    """Every typed answer the marker accepts, both systems accept; returns how many were checked."""
    right = right_answer(value, tolerance, decimals)
    assert right.text == fmt(value, decimals)  # shown as a student is asked to write it
    # the correctly rounded answer and the exact value ± the tolerance are inside both ranges
    for typed in [right.text, repr(value)]:
        assert moodle_rule.numerical_accepts(right.text, right.margin, typed)
        assert canvas.numerical_accepts(right.text, right.high, typed)
    exact, tol = Decimal(repr(value)), Decimal(repr(tolerance))
    assert Decimal(right.low) <= exact - tol and exact + tol <= Decimal(right.high)
    reach = min(int(tolerance * 10**decimals) + 2, 60)
    checked = 0
    for typed in typed_near(value, decimals, reach):
        if marker_accepts(typed, value, tolerance):
            assert moodle_rule.numerical_accepts(right.text, right.margin, typed), (typed, right)
            assert canvas.numerical_accepts(right.text, right.high, typed), (typed, right)
            checked += 1
    assert checked >= 1 or tolerance < 0.5 * 10.0**-decimals
    return checked


@settings(max_examples=400)
@given(
    value=st.one_of(
        st.floats(-1e4, 1e4, allow_nan=False),
        st.floats(-1e9, 1e9, allow_nan=False),
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
    whenever ``mark_stage`` says the row is right, every cell is inside both systems' ranges."""
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
                if item.cells[index] == "correct":
                    assert moodle_rule.numerical_accepts(cell.right.text, cell.right.margin, typed[index])
                    assert canvas.numerical_accepts(cell.right.text, cell.right.high, typed[index])
