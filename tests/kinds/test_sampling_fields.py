"""``kind: sampling`` read from YAML: what loads, and every refusal with its place and sentence."""

from __future__ import annotations

import textwrap

import pytest

from attn_tutor.core.errors import InvalidProblemSet
from attn_tutor.core.i18n import keys
from attn_tutor.kinds.sampling.model import SamplingProblem, Step
from attn_tutor.problems.load import load_text


def doc(problem: str) -> str:
    return "problems:\n" + textwrap.indent(textwrap.dedent(problem).strip("\n"), "  ") + "\n"


GOOD = doc("""
    - id: next-word
      kind: sampling
      tokens: [생선을, 우유를, 밥을]
      logits: [2, 1, 0.1]
      temperature: 0.5
      top_p: 0.9
      draw: 0.7
      target: 생선을
      stages: [loss, scaled, kept]
""")


def test_a_sampling_problem_loads_with_its_fields_and_stages_in_order():
    problem = load_text(GOOD).problems[0]
    assert isinstance(problem, SamplingProblem) and problem.kind == "sampling"
    assert problem.tokens == ("생선을", "우유를", "밥을")
    assert problem.steps == (Step((2.0, 1.0, 0.1), "생선을"),)
    assert (problem.temperature, problem.top_k, problem.top_p, problem.draw) == (0.5, None, 0.9, 0.7)
    assert problem.asked_stages == ("scaled", "kept", "loss")  # the pipeline's order, whatever the file's
    assert problem.line == 2


def test_defaults_ask_scaled_probabilities_and_pick_at_temperature_one():
    problem = load_text(doc("""
        - {id: a, kind: sampling, tokens: [x, y], logits: [1, 0]}
    """)).problems[0]
    assert problem.asked_stages == ("scaled", "probabilities", "pick")
    assert problem.temperature == 1.0 and problem.draw is None and problem.decimals == 3


def test_a_continuation_asks_its_losses_and_perplexity():
    problem = load_text(doc("""
        - id: three
          kind: sampling
          tokens: [a, b, c]
          steps:
            - {logits: [1, 2, 3], target: c}
            - {logits: [0, 0, 1], target: a}
    """)).problems[0]
    assert problem.continuation and len(problem.steps) == 2
    assert problem.asked_stages == ("loss", "perplexity")


def test_kind_attention_is_today_s_problem():
    problem = load_text(doc("""
        - {id: a, kind: attention, tokens: [x, y], Q: [[1, 0], [0, 1]], K: [[1, 0], [0, 1]]}
    """)).problems[0]
    assert problem.kind == "attention" and problem.heads


def findings(text: str) -> list[tuple[str, int | None, int | None]]:
    with pytest.raises(InvalidProblemSet) as caught:
        load_text(text, source="set.yaml")
    return [(f.key, f.where.line, f.where.column) for f in caught.value.problems]


BASE = "id: p, kind: sampling, tokens: [x, y, z]"
RULES = [
    # (the problem's flow mapping, its line:column, the finding)
    ("{id: p, kind: samplin, tokens: [x]}", (2, 19), "problems.unknown_kind"),
    ("{id: p, kind: sampling, tokens: [x], logits: [1]}", (2, 37), "problems.sampling.too_few_tokens"),
    (f"{{{BASE}, logits: [1, 2], steps: [{{logits: [1, 2, 3], target: x}}]}}", (2, 64), "problems.sampling.logits_and_steps"),
    (f"{{{BASE}}}", (2, 5), "problems.sampling.missing_logits"),
    (f"{{{BASE}, steps: [{{logits: [1, 2, 3], target: x}}], draw: 0.5}}", (2, 89), "problems.sampling.not_in_continuation"),
    (f"{{{BASE}, logits: [1, 2, 3], top_k: 1, top_p: 0.5}}", (2, 77), "problems.sampling.both_truncations"),
    (f"{{{BASE}, logits: [1, 2, 3], stages: [loss]}}", (2, 75), "problems.sampling.loss_without_target"),
    (f"{{{BASE}, logits: [1, yes, 3]}}", (2, 60), "problems.sampling.entry"),
    (f"{{{BASE}, logits: [1, 2000000, 3]}}", (2, 60), "problems.sampling.entry_large"),
    (f"{{{BASE}, logits: [1, 2]}}", (2, 56), "problems.sampling.logits_count"),
    (f"{{{BASE}, logits: [1, 2, 3], target: w}}", (2, 75), "problems.sampling.unknown_target"),
    (f"{{{BASE}, steps: [{{logits: [1, 2, 3], target: x}}, {{logits: [1, 2, 3], target: x}}, {{logits: [1, 2, 3], target: x}}, "
     "{logits: [1, 2, 3], target: x}, {logits: [1, 2, 3], target: x}, {logits: [1, 2, 3], target: x}, "
     "{logits: [1, 2, 3], target: x}, {logits: [1, 2, 3], target: x}, {logits: [1, 2, 3], target: x}]}", (2, 55), "problems.sampling.too_many_steps"),
    (f"{{{BASE}, logits: [1, 2, 3], temperature: 0}}", (2, 80), "problems.sampling.temperature"),
    (f"{{{BASE}, logits: [1, 2, 3], temperature: -1}}", (2, 80), "problems.sampling.temperature"),
    (f"{{{BASE}, logits: [1, 2, 3], top_k: 4}}", (2, 74), "problems.sampling.top_k"),
    (f"{{{BASE}, logits: [1, 2, 3], top_k: 1.5}}", (2, 74), "problems.sampling.top_k"),
    (f"{{{BASE}, logits: [1, 2, 3], top_p: 0}}", (2, 74), "problems.sampling.top_p"),
    (f"{{{BASE}, logits: [1, 2, 3], draw: 1}}", (2, 73), "problems.sampling.draw"),
    (f"{{{BASE}, logits: [1, 2, 3], stages: [sampled]}}", (2, 76), "problems.sampling.unknown_stage"),
    (f"{{{BASE}, logits: [1, 2, 3], stages: [perplexity]}}", (2, 76), "problems.sampling.perplexity_one_step"),
    (f"{{{BASE}, steps: [{{logits: [1, 2, 3], target: x}}], stages: [pick]}}", (2, 98), "problems.sampling.stage_in_continuation"),
]  # fmt: skip


@pytest.mark.parametrize(("problem", "where", "key"), RULES, ids=[row[2] for row in RULES])
def test_each_refusal_names_its_place(problem, where, key):
    found = findings(f"problems:\n  - {problem}\n")
    assert (key, *where) in found, found


def test_every_sampling_message_has_a_rule_row():
    assert {key for key in keys() if key.startswith("problems.sampling.") and key != "problems.sampling.span_wide"} <= {
        row[2] for row in RULES
    }


def test_a_finding_reads_as_a_sentence_with_file_line_and_column():
    with pytest.raises(InvalidProblemSet) as caught:
        load_text(f"problems:\n  - {{{BASE}, logits: [1, 2, 3], temperature: 0}}\n", source="set.yaml")
    assert caught.value.problems[0].text() == (
        "set.yaml:2:80: problems[0].temperature is '0': a temperature is a number above 0 and at most 100 "
        "(1 leaves the logits as they are)"
    )


SAMPLING_KEYS = {key for key in keys() if key.startswith("problems.sampling.")} | {"problems.unknown_kind"}
