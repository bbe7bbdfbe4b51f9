"""Seeded problems: pinned numbers, determinism, guards, and variants that keep every structure."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from helpers.language import in_language

from attn_tutor.core.errors import UsageError
from attn_tutor.core.model import SEED_MAX, Head, Problem, ProblemSet
from attn_tutor.solve.engine import solve
from attn_tutor.variants import generate
from attn_tutor.variants.generate import WORDS, random_problem, variant, variant_set


def ints(matrix):
    return None if matrix is None else [[int(v) for v in row] for row in matrix]


def floats(rows):
    return tuple(tuple(float(v) for v in row) for row in rows)


# --- pinned seeds: these exact numbers on every machine and numpy version -------------

PINNED = [
    (
        dict(seed=0),
        "random-0",
        ("어제", "공원에서", "먹었다"),
        "none",
        [[3, 1], [-2, 1], [-3, -3]],
        [[1, -2], [-1, -1], [-3, 1]],
        [[-1, 2], [3, -1], [-2, 0]],
    ),
    (
        dict(seed=42),
        "random-42",
        ("친구를", "사과를", "책을"),
        "none",
        [[-1, -3], [2, 2], [0, -2]],
        [[2, 3], [0, -1], [3, 0]],
        [[1, 1], [-1, 3], [-3, -3]],
    ),
    (
        dict(seed=2**63 - 1, tokens=4, dim=4, causal=True),
        "random-9223372036854775807",
        ("학교에서", "강아지가", "생선을", "먹었다"),
        "causal",
        [[0, -1, 2, 0], [-3, 0, 3, -2], [0, 1, -3, -1], [-3, 3, 1, -1]],
        [[-1, -1, 0, 1], [2, -3, 0, -3], [3, 0, 1, 3], [3, -2, 3, 1]],
        [[-3, -3, 0, -3], [3, 3, -1, 0], [-2, 0, 3, 1], [-2, 2, 1, 2]],
    ),
    (
        dict(seed=7, tokens=2, dim=1, with_values=False, problem_id="mine"),
        "mine",
        ("강아지가", "생선을"),
        "none",
        [[-1], [2]],
        [[-3], [1]],
        None,
    ),
]


@pytest.mark.parametrize(("kwargs", "id_", "tokens", "mask", "Q", "K", "V"), PINNED, ids=lambda v: None)
def test_pinned_seeds_give_these_exact_problems(kwargs, id_, tokens, mask, Q, K, V):
    kwargs = dict(kwargs)
    problem = random_problem(kwargs.pop("seed"), **kwargs)
    assert problem.id == id_
    assert problem.tokens == tokens
    assert problem.mask == mask
    head = problem.heads[0]
    assert (ints(head.Q), ints(head.K), ints(head.V)) == (Q, K, V)
    assert len(problem.heads) == 1 and problem.X is None and problem.divide_by is None


def test_the_same_seed_gives_the_same_problem_in_a_fresh_process_without_numpy():
    code = (
        "import sys\n"
        "from attn_tutor.variants.generate import random_problem\n"
        "p = random_problem(42)\n"
        "print(p.tokens, p.heads[0].Q)\n"
        "assert 'numpy' not in sys.modules, 'the generator must not depend on numpy'\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        ).stdout
        for hash_seed in ("0", "12345")
    ]
    here = random_problem(42)
    assert runs[0] == runs[1] == f"{here.tokens} {here.heads[0].Q}\n"


def test_determinism_across_calls():
    for seed in (0, 1, 99, 123456789):
        assert random_problem(seed, tokens=5, dim=4) == random_problem(seed, tokens=5, dim=4)
    assert len({random_problem(seed).heads for seed in range(50)}) == 50


# --- guards --------------------------------------------------------------------------


def assert_guards(problem: Problem) -> None:
    """Checked with the engine, independently of the generator's own integer check."""
    solution = solve(problem)
    for head in solution.heads:
        for matrix in (head.Q, head.K, head.V):
            if matrix is not None:
                assert np.all(np.any(matrix != 0, axis=1)), f"an all-zero row in {matrix}"
        for i, row in enumerate(head.scores):
            unmasked = row[head.mask[i]]
            if unmasked.size >= 2:
                assert np.unique(unmasked).size >= 2, f"row {i} scores all equal: {row}"
        assert np.all(np.isfinite(head.weights))
    if solution.output is not None:
        assert np.all(np.isfinite(solution.output))


def assert_small_integers(problem: Problem) -> None:
    for head in problem.heads:
        for name in ("Q", "K", "V"):
            matrix = getattr(head, name)
            if matrix is not None:
                assert all(v == int(v) and -3 <= v <= 3 for row in matrix for v in row)


def test_guards_hold_for_500_seeds():
    for seed in range(500):
        tokens, dim = 1 + seed % 6, (2, 4, 1, 3, 8)[seed % 5]
        causal, with_values = seed % 3 == 0, seed % 7 != 0
        problem = random_problem(seed, tokens=tokens, dim=dim, causal=causal, with_values=with_values)
        assert_guards(problem)
        assert_small_integers(problem)
        assert problem.id == f"random-{seed}"
        assert len(problem.tokens) == tokens and len(set(problem.tokens)) == tokens
        assert set(problem.tokens) <= set(WORDS)
        assert list(problem.tokens) == sorted(problem.tokens, key=WORDS.index)  # sentence order
        assert problem.mask == ("causal" if causal else "none")
        assert problem.has_values == with_values
        assert len(problem.heads[0].Q[0]) == dim


def test_every_word_can_be_a_token():
    problem = random_problem(3, tokens=len(WORDS), dim=1)
    assert sorted(problem.tokens) == sorted(WORDS)
    assert_guards(problem)


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        (dict(seed=-1), "generate.bad_seed"),
        (dict(seed=2**63), "generate.bad_seed"),
        (dict(seed=True), "generate.bad_seed"),
        (dict(seed="1"), "generate.bad_seed"),
        (dict(seed=1, tokens=0), "generate.bad_tokens"),
        (dict(seed=1, tokens=len(WORDS) + 1), "generate.bad_tokens"),
        (dict(seed=1, dim=0), "generate.bad_dim"),
        (dict(seed=1, dim=9), "generate.bad_dim"),
    ],
)
def test_bad_choices_are_usage_errors(kwargs, key):
    with pytest.raises(UsageError) as caught:
        kwargs = dict(kwargs)
        random_problem(kwargs.pop("seed"), **kwargs)
    assert caught.value.problems[0].key == key
    assert caught.value.exit_code == 2
    assert in_language("ko", caught.value.messages)[0]
    assert SEED_MAX == 2**63 - 1


# --- variants ------------------------------------------------------------------------

PLAIN = Problem(
    id="cat-fish",
    title="고양이가 생선을 먹었다",
    tokens=("고양이가", "생선을", "먹었다"),
    heads=(Head(Q=floats([[2, 1], [1, 2], [1, 3]]), K=floats([[1, 0], [0, 2], [1, 1]]), V=floats([[1, 0], [0, 1], [1, 1]])),),
    rows=("먹었다", "고양이가"),
    decimals=3,
    tolerance=0.005,
    line=4,
)
CAUSAL = Problem(
    id="causal",
    tokens=("나는", "학교에서", "친구를", "만났다"),
    heads=(
        Head(
            Q=floats([[1, 0], [0, 1], [1, 1], [2, 1]]),
            K=floats([[1, 1], [0, 2], [1, 0], [1, 2]]),
            V=floats([[1, 0], [0, 1], [1, 1], [2, 0]]),
        ),
    ),
    mask="causal",
    ask=("scores", "weights"),
    decimals=2,
    tolerance=0.01,
)
CROSS = Problem(
    id="cross",
    tokens=("I", "ate", "the", "fish"),
    key_tokens=("나는", "생선을", "먹었다"),
    heads=(Head(Q=floats([[2, -1], [1, 1], [0, 1], [-1, 2]]), K=floats([[1, 0], [0, 1], [1, 1]]), V=floats([[1, 0, 2], [0, 1, 1], [1, 1, 0]])),),
    rows=("ate", "the"),
    divide_by=1.0,
)
PROJECTION = Problem(
    id="projection",
    tokens=("고양이가", "생선을", "먹었다"),
    X=floats([[1, 0, 1], [0, 1, 1], [1, 1, 0]]),
    heads=(Head(W_Q=floats([[1, 0], [0, 1], [1, 1]]), W_K=floats([[0, 1], [1, 0], [1, 0]]), W_V=floats([[1], [0], [1]])),),
    ask=("scores", "scaled"),
)
TWO_HEADS = Problem(
    id="two-heads",
    tokens=("고양이가", "생선을", "먹었다"),
    heads=(
        Head(Q=floats([[2, 1], [1, 2], [1, 3]]), K=floats([[1, 0], [0, 2], [1, 1]]), V=floats([[1, 0], [0, 1], [1, 1]])),
        Head(Q=floats([[1, 0, 1], [0, 1, 0], [1, 1, 1]]), K=floats([[0, 1, 0], [1, 0, 1], [1, 1, 0]]), V=floats([[1], [2], [3]])),
    ),
    multi_head=True,
)
NO_VALUES = Problem(
    id="no-values",
    tokens=("오늘", "학교에서", "만났다"),
    heads=(Head(Q=floats([[1, 2], [2, 0], [1, 1]]), K=floats([[1, 1], [2, 1], [0, 1]])),),
)
MATRIX_MASK = Problem(
    id="matrix-mask",
    tokens=("a", "b", "c"),
    heads=(Head(Q=floats([[1], [2], [3]]), K=floats([[1], [2], [3]]), V=floats([[1], [1], [1]])),),
    mask=((1, 0, 1), (0, 1, 0), (1, 1, 1)),
)
KINDS = [PLAIN, CAUSAL, CROSS, PROJECTION, TWO_HEADS, NO_VALUES, MATRIX_MASK]
KEPT = [name for name in Problem._fields if name not in ("heads", "X")]


def shapes(problem: Problem):
    def shape(m):
        return None if m is None else (len(m), len(m[0]))

    heads = tuple(tuple(shape(getattr(h, n)) for n in ("Q", "K", "V", "W_Q", "W_K", "W_V")) for h in problem.heads)
    return shape(problem.X), heads


def numbers(problem: Problem):
    return problem.X, tuple((h.Q, h.K, h.V, h.W_Q, h.W_K, h.W_V) for h in problem.heads)


@pytest.mark.parametrize("problem", KINDS, ids=[p.id for p in KINDS])
def test_a_variant_keeps_every_structural_field_and_changes_the_numbers(problem):
    for seed in (0, 1, 1042, SEED_MAX):
        varied = variant(problem, seed)
        for name in KEPT:
            assert getattr(varied, name) == getattr(problem, name), name
        assert shapes(varied) == shapes(problem)
        assert [h.projected for h in varied.heads] == [h.projected for h in problem.heads]
        assert [h.has_values for h in varied.heads] == [h.has_values for h in problem.heads]
        assert varied.stages == problem.stages and varied.asked_stages == problem.asked_stages
        assert numbers(varied) != numbers(problem)
        assert_guards(varied)
        assert variant(problem, seed) == varied  # deterministic


@pytest.mark.parametrize("problem", KINDS, ids=[p.id for p in KINDS])
def test_variants_of_a_problem_differ_from_each_other(problem):
    assert len({numbers(variant(problem, seed)) for seed in range(12)}) >= 11


def test_a_projection_variant_keeps_its_numbers_in_the_sources_ranges():
    for seed in range(40):
        varied = variant(PROJECTION, seed)
        assert all(v in (0.0, 1.0) for row in varied.X for v in row)  # the source's X is 0/1
        head = varied.heads[0]
        assert all(v in (0.0, 1.0) for m in (head.W_Q, head.W_K, head.W_V) for row in m for v in row)
        assert_guards(varied)


def test_plain_variants_keep_each_matrixs_own_range():
    """cat-fish: Q in 1…3, K in 0…2, V in 0…1 — never a negative number the teacher did not use."""
    seen = {"Q": set(), "K": set(), "V": set()}
    for seed in range(40):
        head = variant(PLAIN, seed).heads[0]
        for name in seen:
            seen[name] |= {v for row in getattr(head, name) for v in row}
    assert seen == {"Q": {1.0, 2.0, 3.0}, "K": {0.0, 1.0, 2.0}, "V": {0.0, 1.0}}


def test_the_fallback_construction_passes_the_guards(monkeypatch):
    monkeypatch.setattr(generate, "MAX_ATTEMPTS", 0)
    wide = random_problem(1, tokens=len(WORDS), dim=1)
    assert_guards(wide)
    assert_guards(random_problem(9, tokens=6, dim=3, causal=True))


def test_a_variant_that_cannot_be_made_fair_is_a_sentence(monkeypatch):
    from attn_tutor.core.errors import AttnTutorError

    monkeypatch.setattr(generate, "VARIANT_ATTEMPTS", 0)
    with pytest.raises(AttnTutorError) as caught:
        variant(PLAIN, 5)
    (message,) = caught.value.messages()
    assert message.startswith("could not make variant 5 of problem cat-fish fair in 0 draws")
    assert "use another --seed" in message


def test_a_variant_set_keeps_problems_independent():
    base = ProblemSet(problems=(PLAIN, CROSS), title="문제집", source="/tmp/set.yaml", name=None)
    grown = ProblemSet(problems=(NO_VALUES, PLAIN, TWO_HEADS, CROSS), title="문제집", source="/tmp/set.yaml")
    for seed in (0, 77):
        small, big = variant_set(base, seed), variant_set(grown, seed)
        assert big.get("cat-fish") == small.get("cat-fish") == variant(PLAIN, seed)
        assert big.get("cross") == small.get("cross") == variant(CROSS, seed)
        assert (small.title, small.source, small.name, small.ids) == (base.title, base.source, base.name, base.ids)
    assert variant_set(base, 1) != variant_set(base, 2)
    named = base._replace(name="ch13")
    assert variant_set(named, 3).name == "ch13"


def test_variants_of_the_packaged_set_solve():
    from attn_tutor.problems.load import load_problem_set

    problem_set = load_problem_set(None)
    varied = variant_set(problem_set, 1042)
    assert varied.ids == problem_set.ids and varied.name == problem_set.name
    for original, problem in zip(problem_set.problems, varied.problems):
        assert shapes(problem) == shapes(original)
        assert numbers(problem) != numbers(original)
        assert_guards(problem)


def test_the_fallback_is_not_needed_in_practice(monkeypatch):
    def refuse(problem):
        raise AssertionError(f"fell back for {problem.id}")

    monkeypatch.setattr(generate, "_safe", refuse)
    for seed in range(200):
        random_problem(seed, tokens=1 + seed % len(WORDS), dim=1 + seed % 8, causal=seed % 2 == 0)
