"""A student's own huge number carried forward is marked, not a crash: e^400 from a scaled row
multiplied by T = 100 (the window's decimal arithmetic needs more than 80 digits there)."""

from __future__ import annotations

from attn_tutor.kinds.sampling import engine, marking
from attn_tutor.kinds.sampling.model import SamplingProblem, Step
from attn_tutor.marking.tolerance import window_floats


def test_a_mistaken_scaled_row_with_a_huge_exp_is_marked():
    problem = SamplingProblem(
        id="max", tokens=("a", "b", "c", "d"), steps=(Step((4.0, -3.0, 0.0, 1.0), None),), temperature=100.0,
        top_k=None, top_p=None, draw=None, continuation=False, ask=("scaled", "exp", "probabilities"),
    )  # fmt: skip
    items = marking.mark(engine.solve(problem), {"scaled": (400.0, -300.0, 0.0, 100.0), "exp": (1.041, 0.97, 1.0, 1.01)})
    assert [item.diagnosis for item in items[:1]] == ["temperature_multiplied"]
    assert items[1].verdict == "correct"  # e^(z/T) right, whatever was typed before it


def test_the_window_of_a_huge_number_is_itself():
    low, high = window_floats(5.2e173, 0.0005, 3)
    assert low <= 5.2e173 <= high
    assert window_floats(1.5, 0.0005, 3) == (1.4995, 1.5005)  # the usual windows unchanged
