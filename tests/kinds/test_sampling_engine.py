"""The sampling engine against values worked by hand (docs/reference.md, "kind: sampling").

Each case's numbers were worked on paper, six places:

A. logits (2, 1, 0.1), T = 1: e^x = (7.389056, 2.718282, 1.105171), Σ = 11.212509,
   p = (0.659001, 0.242433, 0.098566); greedy: the first token; loss of the second: -ln 0.242433 = 1.417030.
B. the same at T = 0.5: z/T = (4, 2, 0.2), e^x = (54.598150, 7.389056, 1.221403), Σ = 63.208609,
   p = (0.863777, 0.116900, 0.019323); top-p 0.9: 0.863777 < 0.9, + 0.116900 = 0.980677 ≥ 0.9, so two kept:
   (0.880797, 0.119203, cut); u = 0.7 lies in [0, 0.880797): the first; loss of the first: 0.146441.
C. logits (3, 1, 2, 0), T = 1, top-k 2: p = (0.643914, 0.087144, 0.236883, 0.032059); kept the 1st and 3rd,
   Σ = 0.880797: (0.731059, cut, 0.268941, cut); u = 0.75 lies in [0.731059, 1): the third.
D. a continuation: steps (1, 2, 3) → c and (0, 0, 1) → a: p(c) = 0.665241, p(a) = 0.211942;
   losses 0.407606 and 1.551445; perplexity e^((0.407606 + 1.551445)/2) = e^0.979525 = 2.663192.
"""

from __future__ import annotations

import math

import pytest

from attn_tutor.kinds.sampling import engine
from attn_tutor.kinds.sampling.model import SamplingProblem, Step


def problem(logits, T=1.0, **options) -> SamplingProblem:
    tokens = ("생선을", "우유를", "밥을", "물을")[: len(logits)]
    target = options.pop("target", None)
    return SamplingProblem(id="p", tokens=tokens, steps=(Step(tuple(logits), target),), temperature=T, **options)


def close(values, expected, places=6):
    assert len(values) == len(expected)
    for v, e in zip(values, expected):
        if e is None:
            assert v is None
        else:
            assert round(v, places) == pytest.approx(e, abs=10 ** -places), (values, expected)


CASES = [
    # (name, problem, stage, expected)
    ("A scaled", problem((2, 1, 0.1)), "scaled", (2, 1, 0.1)),
    ("A exp", problem((2, 1, 0.1)), "exp", (7.389056, 2.718282, 1.105171)),
    ("A probabilities", problem((2, 1, 0.1)), "probabilities", (0.659001, 0.242433, 0.098566)),
    ("A kept (no truncation)", problem((2, 1, 0.1)), "kept", (0.659001, 0.242433, 0.098566)),
    ("A loss", problem((2, 1, 0.1), target="우유를"), "loss", (1.417030,)),
    ("B scaled", problem((2, 1, 0.1), 0.5), "scaled", (4, 2, 0.2)),
    ("B exp", problem((2, 1, 0.1), 0.5), "exp", (54.598150, 7.389056, 1.221403)),
    ("B probabilities", problem((2, 1, 0.1), 0.5), "probabilities", (0.863777, 0.116900, 0.019323)),
    ("B kept top-p", problem((2, 1, 0.1), 0.5, top_p=0.9), "kept", (0.880797, 0.119203, None)),
    ("B loss", problem((2, 1, 0.1), 0.5, target="생선을"), "loss", (0.146441,)),
    ("C probabilities", problem((3, 1, 2, 0)), "probabilities", (0.643914, 0.087144, 0.236883, 0.032059)),
    ("C kept top-k", problem((3, 1, 2, 0), top_k=2), "kept", (0.731059, None, 0.268941, None)),
]


@pytest.mark.parametrize(("name", "made", "stage", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_stage_equals_the_hand_worked_value(name, made, stage, expected):
    close(engine.solve(made).stage_values(stage), expected)


PICKS = [
    ("A greedy", problem((2, 1, 0.1)), "생선을"),
    ("B drawn 0.7 in [0, 0.880797)", problem((2, 1, 0.1), 0.5, top_p=0.9, draw=0.7), "생선을"),
    ("B drawn 0.9 in [0.880797, 1)", problem((2, 1, 0.1), 0.5, top_p=0.9, draw=0.9), "우유를"),
    ("C drawn 0.75 in [0.731059, 1)", problem((3, 1, 2, 0), top_k=2, draw=0.75), "밥을"),
    ("C drawn 0 lands in the first interval", problem((3, 1, 2, 0), top_k=2, draw=0.0), "생선을"),
    ("a tie: the token listed first", problem((1, 2, 2)), "우유를"),
]


@pytest.mark.parametrize(("name", "made", "token"), PICKS, ids=[c[0] for c in PICKS])
def test_the_token_picked(name, made, token):
    assert engine.solve(made).stage_values("pick") == (token,)


def test_a_continuation_s_losses_and_perplexity():
    made = SamplingProblem(
        id="c", tokens=("a", "b", "c"), steps=(Step((1, 2, 3), "c"), Step((0, 0, 1), "a")), continuation=True
    )
    solution = engine.solve(made)
    close(solution.stage_values("loss"), (0.407606, 1.551445))
    close(solution.stage_values("perplexity"), (2.663192,))


def test_top_p_keeps_the_token_that_reaches_p_exactly():
    # p = (0.5, 0.3, 0.2) exactly: 0.5 + 0.3 = 0.8 reaches top_p 0.8, so two are kept, not three
    logits = (math.log(5), math.log(3), math.log(2))
    assert engine.kept_set(engine.softmax(logits), None, 0.8) == {0, 1}


def test_subtracting_the_maximum_first_gives_the_same_probabilities():
    solution = engine.solve(problem((2, 1, 0.1), 0.5))
    close(engine.normalise(solution.step.shifted), solution.step.probabilities, 12)


def test_a_huge_logit_over_a_tiny_temperature_does_not_overflow_the_probabilities():
    solution = engine.solve(problem((1000, 0, -1000), 0.01))
    assert solution.step.probabilities == (1.0, 0.0, 0.0)
    assert math.isinf(solution.step.exps[0])
