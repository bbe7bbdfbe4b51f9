"""Every limit is the model's, inclusive, and the command line holds it at the boundary."""

from __future__ import annotations

import pytest

from attn_tutor.model import (
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
    from attn_tutor.model import MAX_PROBLEMS

    refused = run_cli("generate", "--count", str(MAX_PROBLEMS + 1), "--seed", "1")  # a set loads: 50 problems at most
    assert refused.exit_code == 2 and str(MAX_PROBLEMS) in refused.output
    refused = run_cli("export", "--variants", str(VARIANTS_MAX + 1), "--seed", "1")
    assert refused.exit_code == 2 and str(VARIANTS_MAX) in refused.output


@pytest.mark.parametrize(("variant", "readable"), [(SEED_MAX, True), (SEED_MAX + 1, False)])
def test_an_answer_files_variant_goes_up_to_the_largest_seed(tmp_path, run_cli, variant, readable):
    (tmp_path / "a.yaml").write_text(f"student: a\nproblem_set: ch13\nvariant: {variant}\nanswers:\n", "utf-8")
    result = run_cli("grade", str(tmp_path))
    refused = f"variant must be a whole number from 0 to 2^63 − 1 written in decimal, not '{variant}'"
    assert (refused in result.output) != readable
    assert result.exit_code == (0 if readable else 1)
