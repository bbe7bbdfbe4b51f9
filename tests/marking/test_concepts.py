"""The concept marker: the right answer always scores 1 whatever the shuffle, in every way a
student may type it; anything else scores 0 with the option's feedback or a sentence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor.core.model import Concept, ConceptOption, ProblemSet
from attn_tutor.marking.concepts import mark_concept, problem_text
from attn_tutor.solve.concepts import show

EMPTY = ProblemSet(())
WORDS = tuple("abcde")


def choice(n: int = 4, rights: tuple[int, ...] = (1,), several: bool = False) -> Concept:
    options = tuple(ConceptOption(w, i in rights, None if i in rights else f"not {w}") for i, w in enumerate(WORDS[:n]))
    return Concept("q", "choice", "s", options, several=several)


seeds = st.none() | st.integers(0, 2**63 - 1)


def spellings(labels: tuple[str, ...], all_labels: tuple[str, ...], draw) -> str:
    """One of the ways of typing ``labels``: letters or numbers, spaced, with commas, run together, in brackets."""
    numbers = [str(all_labels.index(label) + 1) for label in labels]
    parts = draw(st.sampled_from([list(labels), [label.lower() for label in labels], numbers]))
    sep = draw(st.sampled_from([" ", ", ", ",", ""]))
    text = sep.join(parts)
    return f"({text})" if len(labels) == 1 and draw(st.booleans()) else f" {text} " if draw(st.booleans()) else text


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(3, 5), seeds, st.booleans())
def test_the_right_answer_scores_one_whatever_the_shuffle_and_however_it_is_typed(data, n, seed, several):
    rights = tuple(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n if several else 1))))
    shown = show(choice(n, rights, several), EMPTY, seed=seed)
    answer = list(shown.answer)
    if several:
        answer = data.draw(st.permutations(answer))
    mark = mark_concept(shown, spellings(tuple(answer), shown.labels, data.draw))
    assert (mark.score, mark.right, mark.problem) == (1.0, True, None)
    assert sorted(mark.chosen) == sorted(shown.answer)


@settings(max_examples=200, deadline=None)
@given(st.data(), st.integers(3, 6), seeds)
def test_an_order_scores_one_only_when_wholly_right(data, n, seed):
    concept = Concept("o", "order", "s", steps=tuple(f"step {i}" for i in range(n)))
    shown = show(concept, EMPTY, seed=seed)
    assert mark_concept(shown, spellings(shown.answer, shown.labels, data.draw)).score == 1.0
    other = data.draw(st.permutations(shown.labels).filter(lambda p: tuple(p) != shown.answer))
    mark = mark_concept(shown, " ".join(other))
    assert (mark.score, mark.right) == (0.0, False)
    assert " ".join(shown.answer) in mark.feedback


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 5), st.integers(0, 4), seeds)
def test_a_wrong_option_scores_zero_with_the_misconception_it_reveals(n, pick, seed):
    shown = show(choice(n, (0,)), EMPTY, seed=seed)
    label = shown.labels[pick % n]
    mark = mark_concept(shown, label)
    text = shown.options[shown.labels.index(label)]
    if text == "a":
        assert mark.right
    else:
        assert (mark.score, mark.chosen, mark.feedback) == (0.0, (label,), f"not {text}")


TYPED = [
    # (typed, score, problem)
    ("", 0.0, None),
    ("   ", 0.0, None),
    ("B", 1.0, None),
    ("b", 1.0, None),
    ("2", 1.0, None),
    ("(B)", 1.0, None),
    (" ( b ) ", 1.0, None),
    ("A", 0.0, None),
    ("F", 0.0, "concepts.answer_unreadable"),
    ("5", 0.0, "concepts.answer_unreadable"),
    ("0", 0.0, "concepts.answer_unreadable"),
    ("AB", 0.0, "concepts.answer_one"),
    ("A, B", 0.0, "concepts.answer_one"),
    ("가", 0.0, "concepts.answer_unreadable"),
    ("B?", 0.0, "concepts.answer_unreadable"),
    ("B" * 101, 0.0, "concepts.answer_unreadable"),
]


@pytest.mark.parametrize(("typed", "score", "problem"), TYPED)
def test_what_a_student_types_for_one_choice(typed, score, problem):
    mark = mark_concept(show(choice(4, (1,)), EMPTY), typed)
    assert (mark.score, mark.problem) == (score, problem)
    if problem is not None:
        assert problem_text(show(choice(4, (1,)), EMPTY), mark)


SEVERAL = [
    ("A C", 1.0, None),
    ("CA", 1.0, None),
    ("1,3", 1.0, None),
    ("A", 0.0, None),
    ("A B C", 0.0, None),
    ("A A", 0.0, "concepts.answer_repeated"),
]


@pytest.mark.parametrize(("typed", "score", "problem"), SEVERAL)
def test_several_right_options_score_only_as_the_exact_set(typed, score, problem):
    shown = show(choice(4, (0, 2), several=True), EMPTY)
    mark = mark_concept(shown, typed)
    assert (mark.score, mark.problem) == (score, problem)
    if typed == "A":
        assert "also right: C" in mark.feedback
    if typed == "A B C":
        assert "not b" in mark.feedback


ORDER = [("C A D B", None), ("CADB", None), ("3 1 4 2", None), ("3142", None), ("c, a, d, b", None), ("C A D", "concepts.answer_order"), ("C A D D", "concepts.answer_order")]


@pytest.mark.parametrize(("typed", "problem"), ORDER)
def test_an_order_is_typed_as_every_label_once(typed, problem):
    concept = Concept("o", "order", "s", steps=("w", "x", "y", "z"))
    shown = show(concept, EMPTY)._replace(options=("x", "z", "w", "y"), answer=("C", "A", "D", "B"))
    mark = mark_concept(shown, typed)
    assert mark.problem == problem
    assert mark.score == (1.0 if problem is None else 0.0)


def test_a_tied_computed_item_gives_full_marks_for_either_tied_option():
    shown = show(choice(4, (0,)), EMPTY)._replace(answer=("A", "C"), tied=True, kind="computed")
    assert mark_concept(shown, "A").score == mark_concept(shown, "C").score == 1.0
    assert mark_concept(shown, "B").score == 0.0
