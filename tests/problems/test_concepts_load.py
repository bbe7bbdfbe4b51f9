"""Loading concept items (``concepts:``): one row per rule, with the place each finding points at.

Each row is a concept item's YAML (put under ``concepts:`` after a valid problem, lines
1-6, so the item starts on line 8), the catalogue key it must produce and the 1-based
line and column; the good cases load into the model as written.
"""

from __future__ import annotations

import textwrap

import pytest

from attn_tutor.core.errors import InvalidProblemSet
from attn_tutor.core.i18n import keys
from attn_tutor.core.model import Bilingual, Concept, ConceptOption
from attn_tutor.problems.load import load_text

BASE = """\
problems:
  - id: a
    tokens: [x, y, z]
    Q: [[1, 0], [0, 1], [1, 1]]
    K: [[1, 0], [0, 2], [1, 1]]
    V: [[1, 2], [3, 4], [5, 6]]
concepts:
"""

CHOICE = """\
- id: why
  stem: "왜? (Why?)"
  options:
    - text: right one
      right: true
    - text: wrong one
      feedback: a misconception
    - text: another
      feedback: another misconception
"""


def with_items(*items: str) -> str:
    return BASE + "".join(textwrap.indent(textwrap.dedent(item), "  ") for item in items)


def findings(text: str):
    with pytest.raises(InvalidProblemSet) as caught:
        load_text(text, "f.yaml")
    return [(f.key, f.where.line, f.where.column) for f in caught.value.problems]


def test_a_choice_item_loads_as_written():
    problem_set = load_text(with_items(CHOICE), "f.yaml")
    assert problem_set.concepts == (
        Concept(
            id="why", kind="choice", stem="왜? (Why?)",
            options=(
                ConceptOption("right one", True, None),
                ConceptOption("wrong one", False, "a misconception"),
                ConceptOption("another", False, "another misconception"),
            ),
            line=8,
        ),
    )  # fmt: skip


def test_computed_and_order_items_load_and_a_row_may_be_a_number():
    problem_set = load_text(with_items(
        "- {id: most, kind: computed, problem: a, row: 2, ask: most-attended, stem: s}\n",
        "- {id: sharp, kind: computed, problem: a, ask: sharpest-row, stem: s}\n",
        "- {id: steps, kind: order, stem: s, steps: [a, b, c, d]}\n",
    ), "f.yaml")  # fmt: skip
    most, sharp, steps = problem_set.concepts
    assert (most.kind, most.problem, most.row, most.ask) == ("computed", "a", "y", "most-attended")
    assert (sharp.row, sharp.ask) == (None, "sharpest-row")
    assert steps.steps == ("a", "b", "c", "d")


def test_texts_in_both_languages_load_and_slots_and_the_row_may_be_written():
    problem_set = load_text(with_items(
        "- {id: w, stem: {ko: 왜?, en: Why?}, options: [{text: {ko: 가, en: a}, right: true},"
        " {text: b, feedback: {ko: 나, en: n}}, {text: c, feedback: f}], explanation: {ko: 설명, en: because}}\n",
        "- {id: most, kind: computed, problem: a, row: x, ask: most-attended, stem: 'Where does x look?',"
        " explanation: 'x looks at {answer} ({answer_weight}), then {runner_up}; the maximum, exact, is there'}\n",
    ), "f.yaml")  # fmt: skip
    why, most = problem_set.concepts
    assert why.stem == Bilingual(ko="왜?", en="Why?") and why.explanation == Bilingual(ko="설명", en="because")
    assert why.options[0].text == Bilingual(ko="가", en="a") and why.options[1] == ConceptOption("b", False, Bilingual(ko="나", en="n"))
    assert "{answer}" in most.explanation  # the row (x) as written, x inside a word (maximum, exact): no finding


def test_a_set_without_concepts_has_none():
    assert load_text(BASE.replace("concepts:\n", ""), "f.yaml").concepts == ()


OPTIONS3 = "options: [{text: a, right: true}, {text: b, feedback: f}, {text: c, feedback: f}]"

RULES = [
    # (name, item yaml, key, line, column)
    ("unknown key with a suggestion", f"- {{id: q, stem: s, sevral: true, {OPTIONS3}}}\n",
     "problems.unknown_key_suggest", 8, 22),
    ("unknown key without one", f"- {{id: q, stem: s, zzzzzz: 1, {OPTIONS3}}}\n", "problems.unknown_key", 8, 22),
    ("missing stem", f"- {{id: q, {OPTIONS3}}}\n", "problems.missing_key", 8, 5),
    ("missing id", f"- {{stem: s, {OPTIONS3}}}\n", "problems.missing_key", 8, 5),
    ("missing options", "- {id: q, stem: s}\n", "problems.missing_key", 8, 5),
    ("id with capitals", f"- {{id: Why_q, stem: s, {OPTIONS3}}}\n", "problems.concept_id", 8, 10),
    ("kind misspelt", f"- {{id: q, kind: choise, stem: s, {OPTIONS3}}}\n", "problems.concept_kind_suggest", 8, 19),
    ("kind unknown", f"- {{id: q, kind: essay, stem: s, {OPTIONS3}}}\n", "problems.concept_kind", 8, 19),
    ("a key of another kind", f"- {{id: q, stem: s, steps: [a, b, c], {OPTIONS3}}}\n",
     "problems.concept_key_for_kind", 8, 22),
    ("two options", "- {id: q, stem: s, options: [{text: a, right: true}, {text: b, feedback: f}]}\n",
     "problems.concept_option_count", 8, 31),
    ("six options", "- {id: q, stem: s, options: [{text: a, right: true}, {text: b, feedback: f}, {text: c, feedback: f},"
     " {text: d, feedback: f}, {text: e, feedback: f}, {text: g, feedback: f}]}\n", "problems.concept_option_count", 8, 31),
    ("no right option", "- {id: q, stem: s, options: [{text: a, feedback: f}, {text: b, feedback: f}, {text: c, feedback: f}]}\n",
     "problems.concept_one_right", 8, 31),
    ("two right options", "- {id: q, stem: s, options: [{text: a, right: true}, {text: b, right: true}, {text: c, feedback: f}]}\n",
     "problems.concept_one_right", 8, 31),
    ("several with none right", "- {id: q, stem: s, several: true, options: [{text: a, feedback: f}, {text: b, feedback: f}, {text: c, feedback: f}]}\n",
     "problems.concept_no_right", 8, 46),
    ("a wrong option without feedback", "- {id: q, stem: s, options: [{text: a, right: true}, {text: b}, {text: c, feedback: f}]}\n",
     "problems.concept_no_feedback", 8, 56),
    ("the same option twice", "- {id: q, stem: s, options: [{text: a, right: true}, {text: b, feedback: f}, {text: ' B', feedback: f}]}\n",
     "problems.concept_same_option", 8, 87),
    ("right: yes", "- {id: q, stem: s, options: [{text: a, right: yes}, {text: b, feedback: f}, {text: c, feedback: f}]}\n",
     "problems.concept_flag", 8, 49),
    ("several: 1", f"- {{id: q, stem: s, several: 1, {OPTIONS3}}}\n", "problems.concept_flag", 8, 31),
    ("an option key unknown", "- {id: q, stem: s, options: [{text: a, right: true, feedbak: f}, {text: b, feedback: f}, {text: c, feedback: f}]}\n",
     "problems.unknown_key_suggest", 8, 55),
    ("empty stem", f"- {{id: q, stem: '', {OPTIONS3}}}\n", "problems.empty_text", 8, 19),
    ("a stem too long", f"- {{id: q, stem: {'x' * 601}, {OPTIONS3}}}\n", "problems.text_too_long", 8, 19),
    ("the same id twice", f"- {{id: q, stem: s, {OPTIONS3}}}\n- {{id: q, stem: s, {OPTIONS3}}}\n",
     "problems.duplicate_concept_id", 9, 10),
    ("computed: no such problem, suggested", "- {id: q, kind: computed, problem: aa, row: x, ask: most-attended, stem: s}\n",
     "problems.concept_problem_suggest", 8, 38),
    ("computed: no such problem", "- {id: q, kind: computed, problem: zzzz, row: x, ask: most-attended, stem: s}\n",
     "problems.concept_problem", 8, 38),
    ("computed: no such row", "- {id: q, kind: computed, problem: a, row: w, ask: most-attended, stem: s}\n",
     "problems.unknown_row", 8, 46),
    ("computed: row number past the tokens", "- {id: q, kind: computed, problem: a, row: 4, ask: most-attended, stem: s}\n",
     "problems.unknown_row", 8, 46),
    ("computed: ask misspelt", "- {id: q, kind: computed, problem: a, row: x, ask: most-atended, stem: s}\n",
     "problems.concept_ask_suggest", 8, 54),
    ("computed: ask unknown", "- {id: q, kind: computed, problem: a, row: x, ask: why, stem: s}\n",
     "problems.concept_ask", 8, 54),
    ("computed: row missing", "- {id: q, kind: computed, problem: a, ask: unscaled, stem: s}\n",
     "problems.concept_needs_row", 8, 5),
    ("computed: a row where none belongs", "- {id: q, kind: computed, problem: a, row: x, ask: sharpest-row, stem: s}\n",
     "problems.concept_no_row", 8, 41),
    ("computed: problem missing", "- {id: q, kind: computed, ask: sharpest-row, stem: s}\n", "problems.missing_key", 8, 5),
    ("computed: options given", f"- {{id: q, kind: computed, problem: a, ask: sharpest-row, stem: s, {OPTIONS3}}}\n",
     "problems.concept_key_for_kind", 8, 69),
    ("order: two steps", "- {id: q, kind: order, stem: s, steps: [a, b]}\n", "problems.concept_step_count", 8, 42),
    ("order: seven steps", "- {id: q, kind: order, stem: s, steps: [a, b, c, d, e, f, g]}\n", "problems.concept_step_count", 8, 42),
    ("order: a step twice", "- {id: q, kind: order, stem: s, steps: [a, b, a]}\n", "problems.duplicate_entry", 8, 49),
    ("order: steps missing", "- {id: q, kind: order, stem: s}\n", "problems.missing_key", 8, 5),
    ("concepts not a list", None, "problems.expected_list", 7, 11),
    # texts in both languages, and a computed item's slots (the column: the slot's or the token's own)
    ("both languages: en missing", f"- {{id: q, stem: {{ko: 가}}, {OPTIONS3}}}\n", "problems.missing_key", 8, 19),
    ("both languages: a third", f"- {{id: q, stem: {{ko: 가, en: a, fr: b}}, {OPTIONS3}}}\n", "problems.unknown_key", 8, 34),
    ("both languages: an empty one", f"- {{id: q, stem: {{ko: 가, en: ''}}, {OPTIONS3}}}\n", "problems.empty_text", 8, 31),
    ("computed: an unknown slot", "- {id: q, kind: computed, problem: a, row: x, ask: most-attended, stem: s, explanation: 'it is {answr}'}\n",
     "problems.concept_slot", 8, 98),
    ("computed: a slot its ask has not", "- {id: q, kind: computed, problem: a, ask: sharpest-row, stem: s, explanation: 'row {top}'}\n",
     "problems.concept_slot", 8, 87),
    ("computed: the answer in the stem", "- {id: q, kind: computed, problem: a, row: x, ask: most-attended, stem: 'is it {answer}?'}\n",
     "problems.concept_slot", 8, 82),
    ("computed: a token named as written", "- {id: q, kind: computed, problem: a, row: x, ask: most-attended, stem: s, explanation: 'x looks at z most'}\n",
     "problems.concept_literal_token", 8, 103),
    ("computed: a token named in one language", "- {id: q, kind: computed, problem: a, row: x, ask: most-attended, stem: s, explanation: {ko: '{answer}', en: 'y'}}\n",
     "problems.concept_literal_token", 8, 113),
    ("computed: a key token named", "- {id: q, kind: computed, problem: a, ask: sharpest-row, stem: s, explanation: \"row {answer}, like y.\"}\n",
     "problems.concept_literal_token", 8, 102),
]


@pytest.mark.parametrize(("item", "key", "line", "column"), [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_each_rule_is_reported_where_it_is_broken(item, key, line, column):
    text = with_items(item) if item is not None else BASE.replace("concepts:\n", "concepts: {a: 1}\n")
    assert (key, line, column) in findings(text)


def test_every_finding_of_a_file_is_reported_at_once():
    text = with_items(
        "- {id: q, kind: choise, stem: s}\n",
        "- {id: r, kind: computed, problem: zz, ask: sharpest-row, stem: s}\n",
        "- {id: s, kind: order, stem: s, steps: [a]}\n",
    )
    keys = [key for key, _, _ in findings(text)]
    assert keys == ["problems.concept_kind_suggest", "problems.concept_problem", "problems.concept_step_count"]


def test_a_computed_item_on_a_problem_of_two_heads_is_refused():
    text = """\
problems:
  - id: two
    tokens: [x, y]
    heads:
      - {Q: [[1, 0], [0, 1]], K: [[1, 0], [0, 1]]}
      - {Q: [[1, 0], [0, 1]], K: [[1, 0], [0, 1]]}
concepts:
  - {id: q, kind: computed, problem: two, ask: sharpest-row, stem: s}
"""
    assert ("problems.concept_multi_head", 8, 38) in findings(text)


def test_the_messages_say_what_to_do_in_both_languages(run_cli, tmp_path):
    path = tmp_path / "set.yaml"
    path.write_text(with_items("- {id: q, stem: s, options: [{text: a, right: true}, {text: b}, {text: c, feedback: f}]}\n"), encoding="utf-8")
    english = run_cli("validate", str(path), "--lang", "en")
    korean = run_cli("validate", str(path), "--lang", "ko")
    assert english.exit_code == korean.exit_code == 1
    assert ":8:56: concepts[0].options[1] (option 2) is wrong but has no feedback; say in a sentence" in " ".join(english.output.split())
    assert "오답인데 feedback이 없습니다" in " ".join(korean.output.split())


def test_every_concept_message_has_a_rule_row_or_a_test():
    covered = {row[2] for row in RULES} | {"problems.concept_multi_head", "problems.too_many_concepts", "problems.concept_tie", "problems.concept_margin", "problems.concept_not_attention"}
    assert {key for key in keys() if key.startswith("problems.concept") or "concept" in key and key.startswith("problems.")} <= covered


def test_more_items_than_a_set_may_have_are_refused():
    items = [f"- {{id: q{i}, kind: order, stem: s, steps: [a, b, c]}}\n" for i in range(51)]
    assert [key for key, _, _ in findings(with_items(*items))] == ["problems.too_many_concepts"]
