"""Concept items as shown: the shuffle is a permutation fixed by its seed, labels keep their
options, and computed items take their answer from the problem's own numbers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor.core.model import Concept, ConceptOption, Head, Problem, ProblemSet
from attn_tutor.problems.load import load_problem_set, load_text
from attn_tutor.solve.concepts import concept_dict, show, tie_findings

CAT_FISH = Problem(
    id="cat-fish", tokens=("고양이가", "생선을", "먹었다"),
    heads=(Head(Q=((2, 1), (1, 2), (1, 3)), K=((1, 0), (0, 2), (1, 1)), V=((1, 0), (0, 1), (1, 1))),),
)  # fmt: skip
SET = ProblemSet((CAT_FISH,))

texts = st.lists(st.text("abcdefghij가나다", min_size=1, max_size=6), min_size=3, max_size=5, unique=True)


@st.composite
def choice_items(draw):
    words = draw(texts)
    several = draw(st.booleans())
    if several:
        rights = draw(st.lists(st.booleans(), min_size=len(words), max_size=len(words)).filter(any))
    else:
        rights = [False] * len(words)
        rights[draw(st.integers(0, len(words) - 1))] = True
    options = tuple(ConceptOption(w, r, None if r else f"why not {w}") for w, r in zip(words, rights))
    return Concept(id=draw(st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)), kind="choice", stem="s", options=options, several=several)


@st.composite
def order_items(draw):
    steps = tuple(draw(st.lists(st.text("abcdef", min_size=1, max_size=4), min_size=3, max_size=6, unique=True)))
    return Concept(id=draw(st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)), kind="order", stem="s", steps=steps)


seeds = st.none() | st.integers(0, 2**63 - 1)


@settings(max_examples=200, deadline=None)
@given(choice_items(), seeds)
def test_a_shuffle_is_a_permutation_and_each_label_keeps_its_option(concept, seed):
    shown = show(concept, SET, seed=seed)
    assert sorted(shown.options) == sorted(o.text for o in concept.options)
    assert shown.labels == tuple("ABCDE"[: len(concept.options)])
    by_text = {o.text: o for o in concept.options}
    for label, text in zip(shown.labels, shown.options):
        option = by_text[text]
        assert (label in shown.answer) == option.right
        assert shown.feedback[label] == option.feedback
    assert show(concept, SET, seed=seed) == shown  # the same seed, the same sheet


@settings(max_examples=200, deadline=None)
@given(order_items(), seeds)
def test_an_order_item_is_always_shuffled_and_its_answer_puts_the_steps_back(concept, seed):
    shown = show(concept, SET, seed=seed)
    assert shown.options != concept.steps
    by_label = dict(zip(shown.labels, shown.options))
    assert tuple(by_label[label] for label in shown.answer) == concept.steps


def test_without_a_seed_the_file_order_is_kept_and_seeds_shuffle_items_differently():
    concept = Concept("q", "choice", "s", tuple(ConceptOption(w, w == "a", None if w == "a" else "f") for w in "abcde"))
    assert show(concept, SET).options == tuple("abcde")
    orders = {show(concept, SET, seed=seed).options for seed in range(30)}
    assert len(orders) > 10
    other = concept._replace(id="r")
    assert [show(concept, SET, seed=s).options for s in range(10)] != [show(other, SET, seed=s).options for s in range(10)]


COMPUTED = [
    # (ask, row, options in the problem's order, the right one)
    ("most-attended", "먹었다", ("고양이가", "생선을", "먹었다"), "생선을"),  # 0.023, 0.786, 0.191 (the chapter)
    ("least-attended", "먹었다", ("고양이가", "생선을", "먹었다"), "고양이가"),
    ("sharpest-row", None, ("고양이가", "생선을", "먹었다"), "먹었다"),
    ("most-uniform-row", None, ("고양이가", "생선을", "먹었다"), "고양이가"),
    ("unscaled", "먹었다", None, "sharper"),
]


@pytest.mark.parametrize(("ask", "row", "options", "right"), COMPUTED)
def test_a_computed_item_is_answered_from_the_problems_numbers(ask, row, options, right):
    shown = show(Concept("q", "computed", "s", problem="cat-fish", row=row, ask=ask), SET)
    if options is not None:
        assert shown.options == options
    (label,) = shown.answer
    assert right in shown.options[shown.labels.index(label)]
    assert shown.explanation and "0." in shown.explanation  # the worked numbers


def test_a_variants_numbers_give_the_variant_its_own_answer():
    concept = Concept("q", "computed", "s", problem="cat-fish", row="먹었다", ask="most-attended")
    swapped = CAT_FISH._replace(heads=(CAT_FISH.heads[0]._replace(K=((0, 2), (1, 0), (1, 1))),))
    original = show(concept, SET)
    variant = show(concept, ProblemSet((swapped,)))
    assert original.options[original.labels.index(original.answer[0])] == "생선을"
    assert variant.options[variant.labels.index(variant.answer[0])] == "고양이가"


def test_without_division_by_one_the_weights_stay_the_same():
    concept = Concept("q", "computed", "s", problem="cat-fish", row="먹었다", ask="unscaled")
    shown = show(concept, ProblemSet((CAT_FISH._replace(divide_by=1.0),)))
    assert "unchanged" in shown.options[shown.labels.index(shown.answer[0])]
    shown = show(concept, ProblemSet((CAT_FISH._replace(divide_by=0.5),)))
    assert "flatter" in shown.options[shown.labels.index(shown.answer[0])]


TIE = """\
problems:
  - id: even
    tokens: [x, y, z]
    Q: [[1, 0], [0, 1], [1, 1]]
    K: [[1, 0], [1, 0], [0, 1]]
concepts:
  - {id: q, kind: computed, problem: even, row: x, ask: most-attended, stem: s}
  - {id: r, kind: computed, problem: even, row: x, ask: least-attended, stem: s}
"""


def test_a_tie_is_refused_by_validate_and_marked_as_a_tie_where_it_is_shown(run_cli, tmp_path):
    problem_set = load_text(TIE, "tie.yaml")
    assert [(f.key, f.where.line, f.args["tied"]) for f in tie_findings(problem_set)] == [
        ("problems.concept_tie", 7, "x, y"),
    ]
    shown = show(problem_set.concepts[0], problem_set)
    assert shown.tied and shown.answer == ("A", "B")
    path = tmp_path / "tie.yaml"
    path.write_text(TIE, encoding="utf-8")
    result = run_cli("validate", str(path), "--lang", "en")
    assert result.exit_code == 1
    assert "the answer is a tie (x, y, equal at the problem's 3 decimals)" in " ".join(result.output.split())


def test_the_json_entry_carries_the_contracts_fields():
    concept = Concept("q", "choice", "s", (ConceptOption("a", True), ConceptOption("b", False, "f"), ConceptOption("c", False, "g")), explanation="e")
    assert concept_dict(show(concept, SET)) == {
        "id": "q", "kind": "choice", "stem": "s", "options": ["a", "b", "c"], "labels": ["A", "B", "C"],
        "answer": ["A"], "explanation": "e", "feedback": {"A": None, "B": "f", "C": "g"},
    }  # fmt: skip


def test_the_packaged_sets_concepts_all_show_with_one_answer():
    problem_set = load_problem_set("ch13")
    assert tie_findings(problem_set) == []
    for concept in problem_set.concepts:
        shown = show(concept, problem_set, seed=7)
        assert shown.answer and not shown.tied
        assert len(set(shown.options)) == len(shown.options)

