"""One seed, one problem: `solve --random`, `quiz --random` and `generate` agree, and a seed is printed to replay."""

from __future__ import annotations

import json
import re

import pytest

# --- one seed, one problem --------------------------------------------------------------


def quiz_givens(run_cli, *options: str) -> str:
    result = run_cli("quiz", "--random", *options, input="q\n")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    "options",
    [("--seed", "7"), ("--seed", "123456", "--tokens", "4", "--dim", "3"), ("--seed", "5", "--tokens", "5", "--causal")],
)
def test_one_seed_makes_one_problem_in_solve_quiz_and_generate(run_cli, tmp_path, options):
    from attn_tutor.problems.load import load_path

    generated = run_cli("generate", *options)
    assert generated.exit_code == 0
    path = tmp_path / "g.yaml"
    path.write_text(generated.stdout, "utf-8")
    (from_generate,) = load_path(path).problems
    solved = json.loads(run_cli("solve", "--random", *options, "--format", "json").stdout)["problems"][0]
    from_file = json.loads(run_cli("solve", str(path), "--format", "json").stdout)["problems"][0]
    assert solved == from_file  # the same tokens, matrices and every stage
    assert solved["id"] == from_generate.id
    quizzed = quiz_givens(run_cli, *options)
    assert from_generate.id in quizzed
    for token in from_generate.tokens:
        assert token in quizzed


def test_solve_random_prints_the_seed_to_replay_on_stderr(run_cli):
    result = run_cli("solve", "--random", "--seed", "42", "--format", "json")
    assert result.exit_code == 0
    assert "attn-tutor solve --random --tokens 3 --dim 2 --seed 42" in result.stderr
    json.loads(result.stdout)  # standard output stays pure JSON
    fresh = run_cli("solve", "--random")
    seed = re.search(r"--seed (\d+)", fresh.stderr).group(1)
    again = run_cli("solve", "--random", "--seed", seed)
    assert again.stdout == fresh.stdout
