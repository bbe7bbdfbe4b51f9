"""Every limit is the model's, inclusive, and the command line holds it at the boundary."""

from __future__ import annotations

import pytest
from helpers.output import flat
from helpers.work import bounded_work

from attn_tutor.core.model import (
    DECIMALS_MAX,
    DIM_MAX,
    SEED_MAX,
    SHEET_SEED_MAX,
    TOKENS_MAX,
    VARIANTS_MAX,
    FollowThrough,
    Stage,
    Verdict,
)


def test_the_limits_fit_together():
    assert SEED_MAX == 2**63 - 1
    assert SHEET_SEED_MAX * 1000 + VARIANTS_MAX <= SEED_MAX < (SHEET_SEED_MAX + 1) * 1000 + VARIANTS_MAX


def test_the_vocabulary_is_the_words_users_type():
    assert [str(s) for s in Stage] == ["scores", "scaled", "weights", "output"]
    assert [s.letter for s in Stage] == ["a", "b", "c", "d"]
    assert list(Verdict) == ["correct", "follow_through", "partial", "wrong", "missing"]
    assert {p: p.credit for p in FollowThrough} == {"full": 1.0, "half": 0.5, "none": 0.0}


_CASES = [
    # (command, the largest accepted value's arguments, the same one past it)
    (["quiz", "--random", "--seed"], SHEET_SEED_MAX, ["--tokens", "2"]),
    (["solve", "--random", "--seed"], SHEET_SEED_MAX, []),
    (["quiz", "--random", "--tokens"], TOKENS_MAX, []),
    (["quiz", "--random", "--dim"], DIM_MAX, ["--tokens", "2"]),
    (["generate", "--seed"], SHEET_SEED_MAX, []),
    (["generate", "--tokens"], TOKENS_MAX, ["--seed", "1"]),
    (["generate", "--dim"], DIM_MAX, ["--seed", "1"]),
    (["export", "--variants", "1", "--seed"], SHEET_SEED_MAX, ["-f", "md"]),
    (["solve", "--decimals"], DECIMALS_MAX, ["-p", "cat-fish"]),
]


@pytest.mark.parametrize(("command", "most", "rest"), _CASES, ids=[" ".join(c[0]) for c in _CASES])
def test_the_largest_value_is_accepted_and_one_more_is_a_usage_error(run_cli, command, most, rest):
    accepted = run_cli(*command, str(most), *rest, input="q\n")
    assert accepted.exit_code == 0, accepted.output
    refused = run_cli(*command, str(most + 1), *rest, input="q\n")
    assert refused.exit_code == 2
    assert str(most) in refused.output  # the range is named


def test_generate_count_and_export_variants_stop_at_the_batch_size(run_cli):
    from attn_tutor.core.model import PROBLEMS_MAX

    refused = run_cli("generate", "--count", str(PROBLEMS_MAX + 1), "--seed", "1")  # a set loads: 50 problems at most
    assert refused.exit_code == 2 and str(PROBLEMS_MAX) in refused.output
    refused = run_cli("export", "--variants", str(VARIANTS_MAX + 1), "--seed", "1")
    assert refused.exit_code == 2 and str(VARIANTS_MAX) in refused.output


@pytest.mark.parametrize(("variant", "readable"), [(SEED_MAX, True), (SEED_MAX + 1, False)])
def test_an_answer_files_variant_goes_up_to_the_largest_seed(tmp_path, run_cli, variant, readable):
    (tmp_path / "a.yaml").write_text(f"student: a\nproblem_set: ch13\nvariant: {variant}\nanswers:\n", "utf-8")
    result = run_cli("grade", str(tmp_path))
    refused = f"variant must be a whole number from 0 to 2^63 − 1 written in decimal, not '{variant}'"
    assert (refused in result.output) != readable
    assert result.exit_code == (0 if readable else 1)


# --- 7. hand-sized problems ----------------------------------------------------------------


def _set(problem: str) -> str:
    return "problems:\n" + problem


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("13 tokens", _set("  - id: a\n    tokens: [" + ", ".join(f"t{i}" for i in range(13)) + "]\n    Q: [[1]]\n    K: [[1]]\n"),
         "tokens has 13 tokens; at most 12 are allowed (a hand-sized limit)"),
        ("d_k 9", _set("  - id: a\n    tokens: [x]\n    Q: [[" + ", ".join(["1"] * 9) + "]]\n    K: [[1]]\n"),
         "problems[0].Q is 1 × 9; a matrix has at most 12 rows and 8 numbers per row (hand-sized limits)"),
        ("5 heads", _set("  - id: a\n    tokens: [x]\n    heads:\n" + "      - {Q: [[1]], K: [[1]]}\n" * 5),
         "problems[0].heads has 5 heads; at most 4 are allowed (a hand-sized limit)"),
        ("entry 1e15", _set("  - id: a\n    tokens: [x]\n    Q: [[1e15]]\n    K: [[1e15]]\n"),
         "entries must lie between -1000000 and 1000000 (a hand-sized limit)"),
        ("5 decimals", _set("  - id: a\n    tokens: [x]\n    Q: [[0.00001]]\n    K: [[1]]\n"),
         "entries have at most 4 decimal places (a hand-sized limit)"),
        ("51 problems", _set("".join(f"  - {{id: p{i}, tokens: [x], Q: [[1]], K: [[1]]}}\n" for i in range(51))),
         "problems has 51 problems; at most 50 are allowed in one set (a hand-sized limit)"),
    ],
)
@pytest.mark.parametrize("command", ["validate", "solve", "quiz", "export"])
def test_every_command_refuses_beyond_the_limits_naming_them(run_cli, tmp_path, name, text, message, command):
    path = tmp_path / "big.yaml"
    path.write_text(text, "utf-8")
    result = run_cli(command, str(path), input="q\n")
    assert result.exit_code == 1
    assert message in flat(result.output + result.stderr)


def test_3000_tokens_are_refused_at_once(run_cli, tmp_path):
    """Read once and refused: about 190 function calls a token (600,000 here, with the command
    line around them), linear in the tokens; the bound, not a clock, catches anything worse."""
    tokens = [f"t{i}" for i in range(3000)]
    rows = "\n".join(f"      - [{i % 7}, {i % 5}]" for i in range(3000))
    path = tmp_path / "huge.yaml"
    path.write_text(f"problems:\n  - id: a\n    tokens: [{', '.join(tokens)}]\n    Q:\n{rows}\n    K:\n{rows}\n", "utf-8")
    with bounded_work(6_000_000):
        result = run_cli("solve", str(path))
    assert result.exit_code == 1
    found = flat(result.stderr)
    assert "has 3000 tokens; at most 12" in found and "is 3000 × 2; a matrix has at most 12 rows" in found
    assert len(result.stderr.splitlines()) <= 4  # a sentence per thing, not one per entry


# --- 4. the limit a refusal names, and --large where it would lift it --------------------------


def _tokens_set(n: int) -> str:
    return _set("  - id: a\n    tokens: [" + ", ".join(f"t{i}" for i in range(n)) + "]\n    Q: [[1]]\n    K: [[1]]\n")


def _dim_set(d: int) -> str:
    return _set("  - id: a\n    tokens: [x]\n    Q: [[" + ", ".join(["1"] * d) + "]]\n    K: [[1]]\n")


def _heads_set(n: int) -> str:
    return _set("  - id: a\n    tokens: [x]\n    heads:\n" + "      - {Q: [[1]], K: [[1]]}\n" * n)


def _problems_set(n: int) -> str:
    return _set("".join(f"  - {{id: p{i}, tokens: [x], Q: [[1]], K: [[1]]}}\n" for i in range(n)))


LARGE_RUN = ["solve", "--format", "json", "--large"]
LIMIT_CASES = [
    # (command, the set, what the refusal says, what it must not say)
    (["solve"], _tokens_set(13), "at most 12 are allowed (a hand-sized limit); solve --format json --large works up to 512", None),
    (["validate"], _tokens_set(600), "at most 12 are allowed (a hand-sized limit)", "--large"),  # past --large's too
    (LARGE_RUN, _tokens_set(513), "has 513 tokens; at most 512 are allowed, even with --large", "hand-sized"),
    (["quiz"], _dim_set(9), "(hand-sized limits); solve --format json --large works up to 512 rows and 512 numbers per row", None),
    (LARGE_RUN, _dim_set(513), "a matrix has at most 512 rows and 512 numbers per row, even with --large", "hand-sized"),
    (["export"], _heads_set(5), "at most 4 are allowed (a hand-sized limit); solve --format json --large works up to 16", None),
    (LARGE_RUN, _heads_set(17), "has 17 heads; at most 16 are allowed, even with --large", "hand-sized"),
    (["validate"], _heads_set(17), "has 17 heads; at most 4 are allowed (a hand-sized limit)", "--large"),
    (["validate"], _dim_set(513), "a matrix has at most 12 rows and 8 numbers per row (hand-sized limits)", "--large"),
    (["solve"], _problems_set(51), "at most 50 are allowed in one set (a hand-sized limit)", "--large"),  # --large allows no more
    (LARGE_RUN, _problems_set(51), "at most 50 are allowed in one set, even with --large", "hand-sized"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "text", "said", "unsaid"), LIMIT_CASES, ids=[f"{' '.join(c[0])}-{i}" for i, c in enumerate(LIMIT_CASES)])
def test_a_refusal_names_the_limit_it_is_past_and_what_large_would_lift(run_cli, tmp_path, command, text, said, unsaid):
    path = tmp_path / "big.yaml"
    path.write_text(text, "utf-8")
    result = run_cli(*command, str(path), input="q\n")
    assert result.exit_code == 1
    found = flat(result.output + result.stderr)
    assert said in found
    assert unsaid is None or unsaid not in found


@pytest.mark.parametrize(
    ("size", "command", "said", "unsaid"),
    [
        (1_000_001, ["validate"], "larger than the limit of 1,000,000 bytes (a hand-sized limit); nothing was read from it; "
         "solve --format json --large reads up to 50,000,000 bytes", None),
        (50_000_001, ["validate"], "the file is larger than the limit of 1,000,000 bytes; nothing", "--large"),
        (50_000_001, LARGE_RUN, "the file is larger than the limit of 50,000,000 bytes, even with --large", "hand-sized"),
    ],
)  # fmt: skip
def test_a_file_too_large_names_its_limit(run_cli, tmp_path, size, command, said, unsaid):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as out:
        out.truncate(size)  # sparse: refused by its size before a byte is read
    result = run_cli(*command, str(path))
    assert result.exit_code == 1
    found = flat(result.output + result.stderr)
    assert said in found
    assert unsaid is None or unsaid not in found


def test_the_limit_sentences_are_korean_in_korean(run_cli, tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(_tokens_set(13), "utf-8")
    found = flat(run_cli("solve", str(path), "--lang", "ko").stderr)
    assert "최대 12개까지입니다 (손계산 한도). solve --format json --large로는 512개까지 풀 수 있습니다" in found
    path.write_text(_tokens_set(513), "utf-8")
    found = flat(run_cli(*LARGE_RUN, str(path), "--lang", "ko").stderr)
    assert "--large로도 최대 512개까지입니다" in found and "손계산" not in found
