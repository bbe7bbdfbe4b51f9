"""Closing the fairness gap: seeded simulated students on random problems (tests/helpers/fair_students.py).

Students who work correctly and round as asked — at decimals 1 to 4, in exam and practice
mode, projections rounded as the solution shows them — are never marked down; students who
round one number too soon (the divisor, the previous row, the e^x or their sum) are told
``rounding`` in at least 95 of 100 of the cases where it changes the numbers (issue 35). A bounded run
here; ``python benchmarks/fair_marking.py`` runs 200 problems and prints the figures.
"""

from __future__ import annotations

from helpers import fair_students

from attn_tutor.marking import marker as grading


def test_no_correct_answer_is_marked_down_and_early_rounding_is_named():
    tally = fair_students.simulate(fair_students.random_problems(seed=18, count=24), grading.Marker(follow_through="none"))
    assert tally.correct_items > 2000
    assert tally.marked_down == []
    assert tally.changed > 1500
    assert tally.rate >= 0.95, (tally.rate, tally.missed)


def test_a_projection_worked_from_q_k_v_rounded_as_shown_is_right():
    """decimals: 1 with one-decimal X and W: Q = X·W_Q has two places; the solution shows it to one,
    and the student who works from those numbers is right at every stage."""
    from attn_tutor.core.model import Head, Problem
    from attn_tutor.solve import engine

    problem = Problem(
        id="p", tokens=("a", "b"), X=((-0.8, 0.3), (0.2, -1.1)),
        heads=(Head(W_Q=((-0.4, 1.4), (0.4, 0.0)), W_K=((0.5, 0.3), (-1.3, 0.4)), W_V=((-1.5,), (1.4,))),), decimals=1,
    )  # fmt: skip
    solution = engine.solve(problem)
    rows = fair_students.worked(solution, 0, "exam")
    items = grading.mark_row(solution, 0, {stage: rows[stage].tolist() for stage in problem.stages}, follow_through="none")
    assert [item.verdict for item in items] == ["correct"] * 4  # the scores were partial before
