"""The packaged ch14 set: every number its comments print and every story a problem tells.

Each worked number written in a comment of ``problems/ch14.yaml`` is held here equal to the
sampling engine's, rounded half up to the places the comment writes; and every number a comment
writes is one the engine gives (a stage's cell, a sum, an interval's edge, a running sum of top-p,
a mean loss), so the comments cannot drift from the numbers a student is marked against.
"""

from __future__ import annotations

import math
import re

import pytest
from helpers.paths import ROOT

from attn_tutor.core.model import Bilingual
from attn_tutor.core.rounding import fmt
from attn_tutor.kinds.sampling import engine
from attn_tutor.kinds.sampling.model import SPAN_WARN, SamplingProblem
from attn_tutor.problems.load import load_path, load_problem_set, packaged_sets, validate_path

CH14 = ROOT / "problems" / "ch14.yaml"

EDGE_MARGIN = 0.03
"""How far a draw stays from every interval's edge, and top-p's running sums from p: a student
who rounds every cell to three places still lands on the same side."""


@pytest.fixture(scope="module")
def ch14():
    return load_path(CH14)


@pytest.fixture(scope="module")
def solved(ch14):
    return {problem.id: engine.solve(problem) for problem in ch14.problems}


def row(values) -> list[str]:
    return ["—" if v is None else fmt(v) for v in values]


def kept_of(solution) -> dict[str, str]:
    step = solution.step
    return {token: fmt(p) for token, p in zip(solution.problem.tokens, step.kept, strict=True) if p is not None}


def picked(solution) -> str:
    return solution.problem.tokens[solution.step.pick]


def running_sums(probabilities) -> list[float]:
    """top-p's sums: the probabilities from the most likely down, added one by one."""
    out, total = [], 0.0
    for i in engine.ranked(probabilities):
        total += probabilities[i]
        out.append(total)
    return out


# --------------------------------------------------------------------------- the file itself


def test_the_file_is_valid_and_packaged_beside_ch13(ch14):
    assert validate_path(CH14) == []
    assert {"ch13", "ch14"} <= set(packaged_sets())
    packaged = load_problem_set("ch14")
    assert packaged.name == "ch14" and packaged.ids == ch14.ids
    assert load_problem_set(None).name == "ch13"  # the default set is still the attention chapter


def test_show_prints_the_yaml_verbatim_and_validate_accepts_it(run_cli):
    from attn_tutor.problems.load import packaged_path

    shown = run_cli("show", "ch14")
    assert shown.exit_code == 0 and shown.stdout_bytes == packaged_path("ch14").read_bytes()
    assert "# 14장 다음 토큰 고르기" in shown.output
    checked = run_cli("validate", "ch14")
    assert checked.exit_code == 0 and "valid" in checked.output


def test_the_header_comment_explains_every_field_of_a_sampling_problem():
    from attn_tutor.kinds.sampling.fields import KEYS

    header = CH14.read_text(encoding="utf-8").split("\ntitle:")[0]
    for key in KEYS:
        assert re.search(rf"(?m)^#   {key}\b", header), key
    for stage in ("scaled", "exp", "probabilities", "kept", "pick", "loss", "perplexity"):
        assert re.search(rf"(?m)^#   {stage}\b", header), stage


def test_ids_titles_and_the_problems_the_issue_asks_for(ch14):
    assert ch14.title == "14장 다음 토큰 고르기 — temperature 손계산 문제집"
    assert ch14.ids == ("cat-next", "cat-cold", "cat-hot", "lunch-top-k", "sky-top-p", "cat-sentence-loss", "cat-mat-en")
    for problem in ch14.problems:
        assert isinstance(problem, SamplingProblem) and problem.kind == "sampling"
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", problem.id), problem.id
        assert problem.title and re.search("[가-힣]", problem.title), problem.id
    by_id = {p.id: p for p in ch14.problems}
    assert len(by_id["cat-next"].tokens) == 3 and by_id["cat-next"].temperature == 1
    assert [by_id[i].temperature for i in ("cat-cold", "cat-hot")] == [0.5, 2]
    assert by_id["lunch-top-k"].truncation == "top_k" and by_id["sky-top-p"].truncation == "top_p"
    assert by_id["sky-top-p"].draw is not None
    assert by_id["cat-sentence-loss"].continuation and len(by_id["cat-sentence-loss"].steps) == 3
    assert all(re.fullmatch("[a-z]+", token) for token in by_id["cat-mat-en"].tokens)  # one in English
    asked = {stage for p in ch14.problems for stage in p.asked_stages}
    assert asked == {"scaled", "exp", "probabilities", "kept", "pick", "loss", "perplexity"}  # every stage practised


def test_every_logit_works_by_hand(ch14):
    """At most one decimal and small: e^x of each is a number a student looks up or presses once."""
    for problem in ch14.problems:
        for step in problem.steps:
            for z in step.logits:
                assert abs(z) <= 3 and round(z * 10) == z * 10, (problem.id, z)
            scaled = engine.scale(step.logits, problem.temperature)
            assert max(scaled) - min(scaled) <= SPAN_WARN / 2, problem.id


def test_no_answer_hangs_on_a_tie_or_an_edge(ch14, solved):
    """The greedy pick, top-k's boundary and top-p's cut are clear at three places; a draw is
    well inside its interval (and off the interval a mistaken order would give)."""
    for problem in ch14.problems:
        for step in solved[problem.id].steps:
            p = sorted(step.probabilities, reverse=True)
            assert len({fmt(x) for x in p}) == len(p), problem.id  # no two probabilities alike
            assert p[0] - p[1] >= 0.05, problem.id  # greedy's choice is clear
            if problem.top_k is not None:
                assert p[problem.top_k - 1] - p[problem.top_k] >= 0.05, problem.id
            if problem.top_p is not None:
                assert all(abs(s - problem.top_p) >= EDGE_MARGIN for s in running_sums(step.probabilities)), problem.id
            if problem.draw is not None:
                edges = [edge for span in step.intervals if span is not None for edge in span]
                assert all(abs(problem.draw - edge) >= EDGE_MARGIN for edge in edges), problem.id


def test_every_problem_solves_cleanly(ch14, solved):
    for problem in ch14.problems:
        for step in solved[problem.id].steps:
            assert math.fsum(step.probabilities) == pytest.approx(1, abs=1e-12)
            assert math.fsum(p for p in step.kept if p is not None) == pytest.approx(1, abs=1e-12)
            assert all(math.isfinite(x) for x in (*step.exps, *step.probabilities))


# --------------------------------------------------------------------------- the worked numbers


def test_cat_next_the_first_example(solved):
    step = solved["cat-next"].step
    assert row(step.scaled) == ["2.000", "1.000", "0.000"]
    assert row(step.exps) == ["7.389", "2.718", "1.000"] and fmt(step.exp_sum) == "11.107"
    assert row(step.probabilities) == ["0.665", "0.245", "0.090"]
    assert fmt(100 * step.probabilities[0], 1) == "66.5"
    assert picked(solved["cat-next"]) == "먹었다"


def test_cat_cold_the_same_scores_at_half_the_temperature(ch14, solved):
    assert ch14.get("cat-cold").logits == ch14.get("cat-next").logits == ch14.get("cat-hot").logits
    assert ch14.get("cat-cold").tokens == ch14.get("cat-next").tokens == ch14.get("cat-hot").tokens
    step = solved["cat-cold"].step
    assert row(step.scaled) == ["4.000", "2.000", "0.000"]
    assert row(step.exps) == ["54.598", "7.389", "1.000"] and fmt(step.exp_sum) == "62.987"
    assert row(step.probabilities) == ["0.867", "0.117", "0.016"]
    assert step.probabilities[0] > solved["cat-next"].step.probabilities[0]  # sharper than T = 1
    assert picked(solved["cat-cold"]) == "먹었다"


def test_cat_hot_the_same_scores_at_twice_the_temperature_drawn(solved):
    solution = solved["cat-hot"]
    step = solution.step
    assert row(step.scaled) == ["1.000", "0.500", "0.000"]
    assert row(step.exps) == ["2.718", "1.649", "1.000"] and fmt(step.exp_sum) == "5.367"
    assert row(step.probabilities) == ["0.506", "0.307", "0.186"]
    assert [[fmt(a), fmt(b)] for a, b in step.intervals] == [["0.000", "0.506"], ["0.506", "0.814"], ["0.814", "1.000"]]
    assert picked(solution) == "훔쳤다"
    # the same u at T = 0.5 falls in 먹었다's interval [0, 0.867)
    cold = solved["cat-cold"].step
    assert fmt(cold.intervals[0][1]) == "0.867" and engine.pick(cold.kept, solution.problem.draw) == 0


def test_lunch_top_k_keeps_three_and_renormalises(solved):
    solution = solved["lunch-top-k"]
    step = solution.step
    assert row(step.exps) == ["12.182", "7.389", "3.320", "0.607", "0.368"] and fmt(step.exp_sum) == "23.866"
    assert row(step.probabilities) == ["0.510", "0.310", "0.139", "0.025", "0.015"]
    assert fmt(math.fsum(step.probabilities[:3])) == "0.959"
    assert kept_of(solution) == {"비빔밥을": "0.532", "라면을": "0.323", "김밥을": "0.145"}
    assert row(step.kept)[3:] == ["—", "—"]
    assert [fmt(span[1]) for span in step.intervals if span is not None] == ["0.532", "0.855", "1.000"]
    assert picked(solution) == "라면을"


def test_sky_top_p_stops_at_the_sum_that_reaches_p_and_draws_in_token_order(solved):
    solution = solved["sky-top-p"]
    step = solution.step
    assert row(step.exps) == ["3.320", "7.389", "1.649", "1.350", "0.368"] and fmt(step.exp_sum) == "14.076"
    assert row(step.probabilities) == ["0.236", "0.525", "0.117", "0.096", "0.026"]
    assert [fmt(s) for s in running_sums(step.probabilities)[:3]] == ["0.525", "0.761", "0.878"]
    assert kept_of(solution) == {"맑다": "0.269", "파랗다": "0.598", "흐리다": "0.133"}
    assert [[fmt(a), fmt(b)] for a, b in step.intervals[:3]] == [["0.000", "0.269"], ["0.269", "0.867"], ["0.867", "1.000"]]
    assert picked(solution) == "맑다"
    assert solution.problem.tokens[engine.ranked(step.kept)[0]] == "파랗다"  # not the most likely one


def test_cat_sentence_loss_three_steps_and_the_perplexity(solved):
    solution = solved["cat-sentence-loss"]
    probabilities = [row(step.probabilities) for step in solution.steps]
    assert probabilities == [
        ["0.694", "0.155", "0.094", "0.057"],
        ["0.024", "0.802", "0.108", "0.066"],
        ["0.037", "0.061", "0.738", "0.165"],
    ]
    tokens = solution.problem.tokens
    assert [tokens[step.target] for step in solution.steps] == ["고양이가", "생선을", "먹었다"]
    assert [fmt(step.probabilities[step.target]) for step in solution.steps] == ["0.694", "0.802", "0.738"]
    losses = [step.loss for step in solution.steps]
    assert [fmt(x) for x in losses] == ["0.365", "0.221", "0.304"]
    assert row(solution.stage_values("loss")) == ["0.365", "0.221", "0.304"]
    assert fmt(math.fsum(losses) / 3) == "0.297"
    assert fmt(solution.perplexity) == "1.345" and fmt(solution.perplexity, 1) == "1.3"


def test_cat_mat_en_the_loss_comes_from_the_untruncated_probabilities(solved):
    solution = solved["cat-mat-en"]
    step = solution.step
    assert row(step.scaled) == ["1.200", "0.800", "0.400", "-0.400"]
    assert row(step.exps) == ["3.320", "2.226", "1.492", "0.670"] and fmt(step.exp_sum) == "7.708"
    assert row(step.probabilities) == ["0.431", "0.289", "0.194", "0.087"]
    assert fmt(math.fsum(step.probabilities[:2])) == "0.719"
    assert kept_of(solution) == {"mat": "0.599", "sofa": "0.401"}
    assert [[fmt(a), fmt(b)] for a, b in step.intervals[:2]] == [["0.000", "0.599"], ["0.599", "1.000"]]
    assert picked(solution) == "sofa"
    assert solution.problem.target == "mat" and fmt(step.loss) == "0.842"
    assert fmt(-math.log(step.kept[0])) != fmt(step.loss)  # the kept 0.599 would give another loss


# --------------------------------------------------------------------------- the comments cannot drift


def comment_blocks() -> dict[str, str]:
    """The comment lines written above each problem, by the problem's id."""
    text = CH14.read_text(encoding="utf-8").split("\nconcepts:")[0]
    blocks: dict[str, str] = {}
    pending: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#") and line.startswith("  "):
            pending.append(stripped)
        found = re.match(r"^  - id: (\S+)", line)
        if found:
            blocks[found.group(1)] = "\n".join(pending)
            pending = []
    return blocks


def engine_numbers(solution) -> set[str]:
    """Every number a comment may print for this problem, at three places."""
    values: list[float] = []
    for step in solution.steps:
        values += [*step.scaled, *step.exps, step.exp_sum, *step.shifted, step.shifted_sum, *step.probabilities]
        values += [p for p in step.kept if p is not None]
        values += [edge for span in step.intervals if span is not None for edge in span]
        values += running_sums(step.probabilities)
        kept = [p for p, k in zip(step.probabilities, step.kept, strict=True) if k is not None]
        values.append(math.fsum(kept))
        if step.loss is not None:
            values.append(step.loss)
    losses = [step.loss for step in solution.steps if step.loss is not None]
    if solution.perplexity is not None:
        values += [solution.perplexity, math.fsum(losses) / len(losses)]
    return {fmt(v) for v in values}


COMPARED = {"cat-cold": ("cat-next",), "cat-hot": ("cat-cold",)}
"""The problems whose comment compares them with another's numbers (the same scores at T = 1, 0.5, 2)."""


def test_every_three_place_number_in_a_problems_comment_is_the_engines(ch14, solved):
    blocks = comment_blocks()
    assert set(blocks) == set(ch14.ids)
    for problem_id, comment in blocks.items():
        written = re.findall(r"(?<![\d.])-?\d+\.\d{3}(?!\d)", comment)
        assert written, problem_id
        numbers = engine_numbers(solved[problem_id])
        for other in COMPARED.get(problem_id, ()):
            numbers |= engine_numbers(solved[other])
        for number in written:
            assert number in numbers, (problem_id, number)


# --------------------------------------------------------------------------- the concept items


CONCEPTS = (
    "why-temperature", "cold-limit", "hot-limit", "greedy-vs-sampling", "top-k-vs-top-p",
    "why-minus-log", "next-word-objective", "subtract-max", "sampling-steps",
)  # fmt: skip


def test_the_concept_items_cover_the_chapters_why_questions_in_both_languages(ch14):
    concepts = {c.id: c for c in ch14.concepts}
    assert tuple(concepts) == CONCEPTS
    assert [c.kind for c in concepts.values()].count("order") == 1 and concepts["sampling-steps"].kind == "order"
    for concept in concepts.values():
        texts = [concept.stem, *concept.steps, *(t for o in concept.options for t in (o.text, o.feedback) if t is not None)]
        texts += [concept.explanation] if concept.explanation is not None else []
        for text in texts:
            assert isinstance(text, Bilingual), (concept.id, text)
            assert re.search("[가-힣]", text.ko) and re.search("[A-Za-z]{3}", text.en), (concept.id, text)
        assert concept.stem.en.rstrip().endswith("?") or concept.kind == "order", concept.id
        if concept.kind == "choice":
            assert sum(o.right for o in concept.options) == 1, concept.id
            assert all(o.right or o.feedback is not None for o in concept.options), concept.id


def test_each_item_offers_its_misconception_as_a_wrong_option(ch14):
    """The mistakes the marker diagnoses in the numbers are also offered, and refuted, in words."""
    wrong = {c.id: " ".join(o.text.en for o in c.options if not o.right) for c in ch14.concepts}
    right = {c.id: next((o.text.en for o in c.options if o.right), "") for c in ch14.concepts}
    assert "multiplying the scores by T" in wrong["why-temperature"]  # temperature_multiplied
    assert "same probability" in wrong["cold-limit"] and "1/n" in right["hot-limit"]
    assert "−log₁₀" in wrong["why-minus-log"] and "without the minus sign" in wrong["why-minus-log"]  # log_base, loss_sign
    assert "after top-k or top-p" in wrong["why-minus-log"]  # the loss from the kept probabilities
    assert "not divided again" in wrong["top-k-vs-top-p"]  # not_renormalized
    assert "at least p" in wrong["top-k-vs-top-p"]  # top-p read per token
    assert "so it is a mistake" in wrong["subtract-max"] and "stay the same" in right["subtract-max"]


def test_the_right_options_stand_in_different_places(ch14):
    """A sheet without variants prints the options in the file's order: a student answering A to
    everything must not score."""
    places = [next(i for i, o in enumerate(c.options) if o.right) for c in ch14.concepts if c.kind == "choice"]
    assert len(set(places)) >= 3 and max(places.count(p) for p in set(places)) <= len(places) // 2


def test_the_order_item_is_the_sampling_pipeline(ch14):
    steps = [step.en for step in ch14.concept("sampling-steps").steps]
    assert [s.split(":")[0].split(" ")[0] for s in steps] == ["divide", "take", "divide", "cut", "lay"]
    assert "temperature" in steps[0] and "e^x" in steps[1] and "top-k" in steps[3] and "u" in steps[4].split()


def test_every_concept_item_shows_with_one_answer(ch14):
    from attn_tutor.solve.concepts import show, tie_findings

    assert tie_findings(ch14) == []
    for concept in ch14.concepts:
        shown = show(concept, ch14, seed=7)
        assert shown.answer and not shown.tied
        assert len(set(shown.options)) == len(shown.options)


def test_the_numbers_in_the_explanations_are_the_engines(solved):
    """The explanations quote the chapter's own problems: T = 0.5 and T = 2, the top-p sums, −ln p."""
    cold, hot = solved["cat-cold"].step, solved["cat-hot"].step
    text = CH14.read_text(encoding="utf-8").split("\nconcepts:")[1]
    assert f"({', '.join(row(cold.probabilities))})" in text and f"({', '.join(row(hot.probabilities))})" in text
    sky = running_sums(solved["sky-top-p"].step.probabilities)
    assert " → ".join(fmt(s) for s in sky[:3]) in text
    assert [fmt(engine.loss(p)) for p in (0.5, 0.9, 0.01)] == ["0.693", "0.105", "4.605"]
    shifted = solved["cat-next"].step
    assert f"e^x = (1, {fmt(shifted.shifted[1])}, {fmt(shifted.shifted[2])}), 합 {fmt(shifted.shifted_sum)}" in text


# --------------------------------------------------------------------------- the reference's worked examples


def test_the_references_worked_examples_are_the_engines(solved):
    """docs/reference.md works cat-hot and sky-top-p out by hand: every 3-place number it writes
    there is the engine's (cat-hot's text compares with cat-cold)."""
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    section = text.split("## kind: sampling")[1].split("\n## ")[0]
    first = section.split("**Worked example 1**")[1].split("**Worked example 2**")[0]
    second = section.split("**Worked example 2**")[1].split("**An answer file**")[0]
    for example, numbers in (
        (first, engine_numbers(solved["cat-hot"]) | engine_numbers(solved["cat-cold"])),
        (second, engine_numbers(solved["sky-top-p"])),
    ):
        written = re.findall(r"(?<![\d.])\d+\.\d{3}(?!\d)", example)
        assert len(written) >= 10
        assert [n for n in written if n not in numbers] == []
    flat = " ".join(section.split())
    assert "(0.3650 + 0.2212 + 0.3038) / 3 = 0.2967 and e^0.2967 = 1.345" in flat  # the perplexity rule's example, cat-sentence-loss
