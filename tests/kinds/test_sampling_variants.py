"""`generate --kind sampling` and fair variants of sampling problems: what a teacher and a student notice.

A variant is fair when a student who works it from numbers rounded as asked reaches the answer
key's pick, kept set and top-k/top-p cut (no near tie at any edge), and when it is as hard as its
source (the same structure; the largest probability and the loss near the source's). The rule is
written out in attn_tutor/kinds/sampling/generate.py; these tests check what it promises from the
outside, with their own arithmetic.
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from helpers.paths import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import speaking
from attn_tutor.core.model import ProblemSet
from attn_tutor.core.rounding import rounded
from attn_tutor.kinds.sampling import engine
from attn_tutor.kinds.sampling import generate as sampling
from attn_tutor.kinds.sampling.model import SamplingProblem
from attn_tutor.problems.dump import dump_problem_set
from attn_tutor.problems.load import load_path, load_problem_set, load_text
from attn_tutor.variants import fairness
from attn_tutor.variants.generate import practice_problems, variant, variant_set
from attn_tutor.variants.sheets import fairness_note, make_sheets

# The packaged-style problems (tests/fixtures/sampling/ch14-like.yaml): the chapter's first
# example, greedy vs. sampled, top-k, top-p, a three-step continuation (loss and perplexity), one in English.
CH14 = load_path(FIXTURES / "sampling" / "ch14-like.yaml")


def on_grid(x: float, places: int) -> bool:
    return abs(x * 10**places - round(x * 10**places)) < 1e-9


def strip(problem):
    return problem._replace(line=None)


# --- a student's work from rounded numbers, written here apart from the generator --------------


def student_step(problem: SamplingProblem, logits) -> tuple[int, set[int]]:
    """The pick and the kept set a student reaches from probabilities rounded to the asked decimals."""
    d = problem.decimals
    exact = engine.softmax(engine.scale(logits, problem.temperature))
    shown = [rounded(p, d) for p in exact]
    order = sorted(range(len(shown)), key=lambda i: (-shown[i], i))
    if problem.top_k is not None:
        kept = set(order[: problem.top_k])
    elif problem.top_p is not None:
        total, kept = 0.0, set()
        for i in order:
            kept.add(i)
            total += shown[i]
            if total >= problem.top_p:
                break
    else:
        kept = set(order)
    if problem.draw is None:
        return min(kept, key=lambda i: (-shown[i], i)), kept
    total_kept = math.fsum(exact[i] for i in kept)
    low = 0.0
    for i in sorted(kept):  # the intervals from the kept probabilities as the key shows them
        high = low + rounded(exact[i] / total_kept, d)
        if problem.draw < high:
            return i, kept
        low = high
    return max(kept), kept


def assert_fair(made: SamplingProblem) -> None:
    """What the rule promises, checked from outside: distinct logits; a student working from rounded
    probabilities reaches the key's pick and kept set; the answers are hand-sized and finite."""
    solution = engine.solve(made)
    for step, worked in zip(made.steps, solution.steps):
        assert len(set(step.logits)) == len(step.logits), made
        if made.continuation:
            continue
        pick, kept = student_step(made, step.logits)
        assert pick == worked.pick, made
        assert kept == {i for i, v in enumerate(worked.kept) if v is not None}, made
        ordered = sorted(worked.probabilities, reverse=True)
        assert ordered[0] - ordered[1] > 10.0**-made.decimals, made  # no near tie at the greedy pick
    assert all(math.isfinite(s.loss) for s in solution.steps if s.loss is not None)


def assert_like(made: SamplingProblem, source: SamplingProblem) -> None:
    """The same test as its source: every field but the numbers kept; peak and loss near the source's."""
    assert made._replace(steps=source.steps, draw=source.draw) == source
    assert [s.target for s in made.steps] == [s.target for s in source.steps]
    assert (made.draw is None) == (source.draw is None)
    assert made.steps != source.steps
    mine, theirs = engine.solve(made), engine.solve(source)
    for a, b in zip(mine.steps, theirs.steps):
        assert abs(max(a.probabilities) - max(b.probabilities)) <= 0.15
        if b.loss is not None:
            assert b.loss / 2 - 0.05 <= a.loss <= 2 * b.loss + 0.05
        assert sum(v is not None for v in a.kept) == sum(v is not None for v in b.kept)


def loads_back(problem: SamplingProblem) -> SamplingProblem:
    (back,) = load_text(dump_problem_set(ProblemSet((problem,))), "back.yaml").problems  # type: ignore[arg-type]
    return back


# --- random problems -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.one_of(st.none(), st.integers(2, 6)))
def test_every_random_problem_is_fair_hand_sized_and_loads_back(seed, tokens):
    made = sampling.random_problem(seed, tokens=tokens)
    assert made.kind == "sampling" and made.id == f"random-{seed}"
    assert 3 <= len(made.tokens) <= 6 if tokens is None else len(made.tokens) == tokens
    assert any(set(made.tokens) <= set(group) for group in sampling.WORD_GROUPS)
    assert made.temperature in (0.5, 0.8, 1.0, 1.5, 2.0)
    assert all(on_grid(z, 1) and -3 <= z <= 4 and abs(z / made.temperature) <= 4 for z in made.logits)
    assert made.draw is None or (0 < made.draw < 1 and on_grid(made.draw, 2))
    assert made.target in made.tokens
    assert all(0.01 <= p <= 0.9 for p in engine.solve(made).step.probabilities)
    assert_fair(made)
    assert strip(loads_back(made)) == made


def test_random_problems_cover_every_choice_a_teacher_can_meet():
    made = [sampling.random_problem(seed) for seed in range(200)]
    assert {len(p.tokens) for p in made} == {3, 4, 5, 6}
    assert {p.truncation for p in made} == {None, "top_k", "top_p"}
    assert {p.draw is None for p in made} == {True, False}
    assert {p.temperature for p in made} == set(sampling.TEMPERATURES)
    assert {p.tokens[0].isascii() for p in made} == {True, False}  # English and Korean candidates


def test_the_same_seed_gives_the_same_problem_in_a_fresh_process():
    code = "from attn_tutor.kinds.sampling.generate import random_problem, variant\nprint(repr(random_problem(4242)))\n"
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert fresh == repr(sampling.random_problem(4242)) + "\n"
    assert sampling.random_problem(4242) == sampling.random_problem(4242) != sampling.random_problem(4243)


def test_bad_candidate_counts_are_a_sentence():
    for tokens in (1, 7, True):
        with pytest.raises(AttnTutorError) as caught:
            sampling.random_problem(1, tokens=tokens)
        assert caught.value.problems[0].key == "generate.sampling.bad_tokens"


# --- variants ------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CH14.problems), st.integers(0, 10**6))
def test_every_variant_of_the_packaged_style_problems_is_fair_like_its_source_and_loads_back(source, seed):
    made = variant(source, seed)
    assert_fair(made)
    assert_like(made, source)
    assert strip(loads_back(made)) == strip(made)
    assert variant(source, seed) == made  # deterministic


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_every_variant_of_a_random_problem_is_fair_and_like_it(problem_seed, seed):
    source = sampling.random_problem(problem_seed)
    made = variant(source, seed)
    assert_fair(made)
    assert_like(made, source)
    assert strip(loads_back(made)) == made


def test_a_variant_keeps_the_sources_grid_of_logits():
    source = CH14.get("first-example")
    for seed in range(30):
        made = variant(source, seed)
        assert all(on_grid(z, 1) and -0.5 <= z <= 2.5 for z in made.logits), made.logits  # tenths, range ± T/2


def test_a_variant_depends_on_its_seed_and_id_not_on_its_place_in_the_set():
    reordered = CH14._replace(problems=tuple(reversed(CH14.problems)))
    a, b = variant_set(CH14, 42001), variant_set(reordered, 42001)
    assert {p.id: p for p in a.problems} == {p.id: p for p in b.problems}
    assert variant_set(CH14, 42001) == a != variant_set(CH14, 42002)


def test_a_set_of_both_kinds_varies_each_by_its_own_rule():
    ch13 = load_problem_set("ch13")
    both = ch13._replace(problems=ch13.problems[:2] + CH14.problems[:2])  # type: ignore[operator]
    varied = variant_set(both, 7001)
    assert varied.problems[:2] == variant_set(ch13, 7001).problems[:2]  # attention's variants unchanged
    assert [p.kind for p in varied.problems] == ["attention", "attention", "sampling", "sampling"]


def test_sheets_of_sampling_problems_are_pairwise_different_and_the_note_says_what_was_checked():
    sheets = make_sheets(CH14, variants=40, seed=3)
    assert len(sheets) == 40
    for i, problem in enumerate(CH14.problems):
        seen = [fairness.givens(sheet.problem_set.problems[i]) for sheet in sheets]
        assert len(set(seen)) == len(seen), problem.id
        keys = [fairness.answer_key(sheet.problem_set.problems[i]) for sheet in sheets]
        assert len(set(keys)) == len(keys), problem.id
    note = fairness_note(CH14, sheets)
    assert "40 variants" in note and "top-p" in note and "interval" in note
    with speaking("ko"):
        assert "변형 40개" in fairness_note(CH14, sheets) and "top-p" in fairness_note(CH14, sheets)


def test_the_answer_key_names_the_pick_and_the_cut_tokens():
    key = dict(fairness.answer_key(CH14.get("top-k")))
    assert key["pick"] == ("책을",)
    assert key["kept"].count("—") == 3 and len(key["kept"]) == 5


def test_a_variant_that_cannot_be_made_fair_is_a_sentence(monkeypatch):
    monkeypatch.setattr(sampling, "VARIANT_ATTEMPTS", 0)
    with pytest.raises(AttnTutorError) as caught:
        variant(CH14.get("top-p"), 5)
    assert caught.value.problems[0].key == "generate.sampling.no_fair_variant"
    assert caught.value.problems[0].args["id"] == "top-p"


def test_two_tokens_of_whole_logits_still_have_variants():
    tiny = load_text("problems:\n  - {id: two, kind: sampling, tokens: [예, 아니오], logits: [1, 0]}\n").problems[0]
    made = {variant(tiny, seed).logits for seed in range(20)}  # type: ignore[arg-type]
    assert len(made) >= 3 and all(z == int(z) for logits in made for z in logits)


# --- the command line ----------------------------------------------------------------------------

# `attn-tutor generate --seed 7 --count 2 --lang en`, as the base commit (3a67d87) wrote it.
ATTENTION_SEED_7 = """\
# Made by `attn-tutor generate --tokens 3 --dim 2 --count 2 --seed 7 --lang en`: the same command makes the same file.
# Edit freely: numbers, tokens, rows (the rows asked), ask (the stages asked), decimals, tolerance.
# Check your edits with: attn-tutor validate FILE. Solve with: attn-tutor solve FILE.

title: "Practice problems (seed 7)"
problems:
  - id: "random-7001"
    tokens: ["나는", "천천히", "먹었다"]  # query tokens, one per row of Q
    Q:  # one row per token
      - [-3, 1]  # 나는
      - [1, -1]  # 천천히
      - [-3, -1]  # 먹었다
    K:
      - [-1, -2]  # 나는
      - [-3, 0]  # 천천히
      - [-3, 2]  # 먹었다
    V:
      - [3, 2]  # 나는
      - [1, -3]  # 천천히
      - [-2, -1]  # 먹었다
    # divide_by: sqrt_d  # sqrt_d (√d_k, the default) or a positive number; 1 = unscaled
    # mask: none  # none, causal, or a 0/1 matrix (1 = may attend)
    # rows: every token (the default); list some to ask fewer
    # ask: every stage (the default)
    decimals: 3  # decimal places of the answers
    # tolerance: fits decimals (the default); a number sets how far an answer may be off

  - id: "random-7002"
    tokens: ["강아지가", "사과를", "천천히"]  # query tokens, one per row of Q
    Q:  # one row per token
      - [3, -1]  # 강아지가
      - [3, -1]  # 사과를
      - [2, -3]  # 천천히
    K:
      - [-3, -3]  # 강아지가
      - [1, -3]  # 사과를
      - [0, -2]  # 천천히
    V:
      - [2, 3]  # 강아지가
      - [1, -3]  # 사과를
      - [2, -2]  # 천천히
    # divide_by: sqrt_d  # sqrt_d (√d_k, the default) or a positive number; 1 = unscaled
    # mask: none  # none, causal, or a 0/1 matrix (1 = may attend)
    # rows: every token (the default); list some to ask fewer
    # ask: every stage (the default)
    decimals: 3  # decimal places of the answers
    # tolerance: fits decimals (the default); a number sets how far an answer may be off
"""


def test_attentions_generate_output_is_unchanged(run_cli):
    result = run_cli("generate", "--seed", "7", "--count", "2", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.stdout == ATTENTION_SEED_7
    explicit = run_cli("generate", "--kind", "attention", "--seed", "7", "--count", "2", "--lang", "en")
    assert explicit.stdout == ATTENTION_SEED_7


def test_generate_kind_sampling_writes_a_set_that_validates(run_cli, tmp_path):
    out = tmp_path / "next-word.yaml"
    result = run_cli("generate", "--kind", "sampling", "--count", "5", "--seed", "7", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "attn-tutor generate --kind sampling --count 5 --seed 7 --lang en" in text.splitlines()[0]
    assert text.count("kind: sampling") == 5 and "logits: [" in text and "temperature: " in text
    validated = run_cli("validate", str(out))
    assert validated.exit_code == 0, validated.output
    assert "valid" in validated.output
    problems = load_text(text).problems
    assert [strip(p) for p in problems] == list(practice_problems(7, count=5, kind="sampling"))
    assert [p.id for p in problems] == [f"random-700{k}" for k in range(1, 6)]
    again = run_cli("generate", "--kind", "sampling", "--count", "5", "--seed", "7")
    assert again.stdout == text  # the same command makes the same file


def test_generate_kind_sampling_speaks_korean(run_cli):
    result = run_cli("generate", "--kind", "sampling", "--seed", "3", "--tokens", "4", "--lang", "ko")
    assert result.exit_code == 0, result.output
    assert "다음 토큰 후보" in result.stdout and "실제로 나온 다음 토큰" in result.stdout
    assert "query tokens" not in result.stdout and "the candidate" not in result.stdout
    helped = run_cli("generate", "--help", "--lang", "ko")
    assert "문제 종류" in helped.output and "sampling" in helped.output


@pytest.mark.parametrize(
    "args, sentence",
    [
        (["--dim", "3"], "--dim and --causal are for attention problems"),
        (["--causal"], "--dim and --causal are for attention problems"),
        (["--tokens", "9"], "from 2 to 6 candidate tokens, not 9"),
        (["--tokens", "1"], "from 2 to 6 candidate tokens, not 1"),
    ],
)
def test_choices_that_do_not_fit_sampling_are_a_sentence(run_cli, args, sentence):
    result = run_cli("generate", "--kind", "sampling", "--seed", "1", *args, "--lang", "en")
    assert result.exit_code == 2
    assert sentence in result.output and "Traceback" not in result.output
