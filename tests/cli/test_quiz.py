"""`attn-tutor quiz` driven through the command line (CliRunner): marks, reports, options and their refusals."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers.output import flat

from attn_tutor.solve import engine
from attn_tutor.variants import generate

EAT = ["1 6 4", "0.71 4.24 2.83", "0.02 0.79 0.19", "0.21 0.98"]  # the chapter's row, rounded to two places


# 고양이가 with √d forgotten, then every later stage done right from those numbers:
# softmax(2, 2, 3) = (0.212, 0.212, 0.576), and the output (0.788, 0.788).
CAT_NOT_SCALED = ["2 2 3", "2 2 3", "0.212 0.212 0.576", "0.788 0.788"]


CAT_FISH = ["quiz", "ch13", "--problem", "cat-fish"]


# --- the command line ---------------------------------------------------------------


def typed(lines) -> str:
    return "".join(f"{line}\n" for line in lines)


def test_cli_chapter_row_rounded_to_two_places_gets_full_marks(run_cli, tmp_path):
    """Tolerance 0.005: a value rounded half up to two places is at most 0.005 away, so it is always right."""
    report = tmp_path / "eat.json"
    result = run_cli(*CAT_FISH, "--row", "먹었다", "--report", str(report), input=typed(EAT))
    assert result.exit_code == 0, result.output
    assert "Score: 4 / 4" in result.output
    assert "> 0.71 4.24 2.83" in result.output  # piped answers are echoed after the prompt
    data = json.loads(report.read_text(encoding="utf-8"))
    assert (data["score"], data["max_score"], data["mode"], data["problem_set"]) == (4.0, 4.0, "practice", "ch13")
    assert [item["verdict"] for item in data["items"]] == ["correct"] * 4
    assert f"Report written to {report}" in flat(result.output)


def test_cli_forgotten_root_d_then_follow_through_in_an_exam(run_cli, tmp_path):
    report = tmp_path / "cat.json"
    args = [*CAT_FISH, "--row", "고양이가", "--exam", "--report", str(report), "--student", "민준"]
    result = run_cli(*args, input=typed(CAT_NOT_SCALED))
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    assert [(i["verdict"], i["diagnosis"]) for i in data["items"]] == [
        ("correct", None),
        ("wrong", "not_scaled"),
        ("follow_through", None),
        ("follow_through", None),
    ]
    assert data["items"][1]["cells"] == ["wrong", "wrong", "wrong"]
    assert (data["student"], data["mode"], data["score"]) == ("민준", "exam", 3.0)


@pytest.mark.parametrize(("policy", "score"), [("full", 3.0), ("half", 2.0), ("none", 1.0)])
def test_cli_follow_through_policy(run_cli, tmp_path, policy, score):
    report = tmp_path / "r.json"
    args = [*CAT_FISH, "--row", "고양이가", "--exam", "--follow-through", policy, "--report", str(report)]
    result = run_cli(*args, input=typed(CAT_NOT_SCALED))
    assert result.exit_code == 0, result.output
    assert json.loads(report.read_text())["score"] == score


def test_cli_reasks_bad_lines(run_cli):
    lines = ["1, 6", "(1, 6, 4)", "6/1.414 6/1.414", "1/1.414, 6/1.414, 4/1.414", "q"]
    result = run_cli(*CAT_FISH, "--row", "먹었다", input=typed(lines))
    assert result.exit_code == 0, result.output
    assert result.output.count("Try again") == 2
    assert "Score so far: 2 / 2" in result.output  # over the questions answered


def test_cli_end_of_input_writes_the_report_so_far(run_cli, tmp_path):
    report = tmp_path / "r.json"
    result = run_cli(*CAT_FISH, "--report", str(report), input=typed(EAT[:2]))
    assert result.exit_code == 0, result.output
    assert "Input ended after 3 of 10 questions. Score so far: 2 / 2" in result.output
    saved = json.loads(report.read_text())
    # every item of the quiz: the two answered, the one on screen and the five never reached
    assert [i["verdict"] for i in saved["items"]] == ["correct", "correct"] + ["missing"] * 6
    assert (saved["score"], saved["max_score"], saved["finished"], saved["asked"], saved["total"]) == (2, 10, False, 3, 10)


def test_cli_interrupt_exits_130_with_the_report_written(run_cli, tmp_path, monkeypatch):
    from attn_tutor.cli import quiz as cli

    answers = iter(EAT[:1])

    def reader():
        def read_line(prompt):
            try:
                return next(answers)
            except StopIteration:
                raise KeyboardInterrupt from None

        return read_line

    monkeypatch.setattr(cli, "_stdin_reader", reader)
    report = tmp_path / "r.json"
    result = run_cli(*CAT_FISH, "--report", str(report))
    assert result.exit_code == 130
    assert "Interrupted after 2 of 10 questions" in result.output
    assert [i["verdict"] for i in json.loads(report.read_text())["items"]] == ["correct"] + ["missing"] * 7


def test_cli_refuses_to_overwrite_a_report_before_asking_anything(run_cli, tmp_path):
    report = tmp_path / "r.json"
    report.write_text("earlier work")
    result = run_cli(*CAT_FISH, "--report", str(report), input=typed(EAT))
    assert result.exit_code == 2  # the command line must change (another file, or --force)
    assert "already exists" in result.output
    assert "(a) Scores" not in result.output
    assert report.read_text() == "earlier work"


def test_cli_overwrites_a_report_with_force(run_cli, tmp_path):
    report = tmp_path / "r.json"
    report.write_text("earlier work")
    result = run_cli(*CAT_FISH, "--report", str(report), "--force", input=typed(EAT))
    assert result.exit_code == 0, result.output
    assert json.loads(report.read_text())["problem_set"] == "ch13"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tokens", "4"], "--tokens, --dim, --seed and --causal go with --random"),
        (["--seed", "3"], "--tokens, --dim, --seed and --causal go with --random"),
        (["--random", "--problem", "cat-fish"], "--random makes its own problem"),
        (["--follow-through", "most"], "most"),
    ],
)
def test_cli_usage_errors(run_cli, args, message):
    result = run_cli("quiz", *args, input="")
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--row", "나는없다"], "no problem in ch13 has a query token '나는없다'"),
        (["--problem", "cat-fish", "--row", "나는없다"], "has no query token '나는없다'; its tokens are: 고양이가, 생선을, 먹었다"),
        (["--problem", "nope"], "no problem with id 'nope'"),
    ],
)
def test_cli_a_missing_problem_or_row_is_bad_input(run_cli, args, message):
    result = run_cli("quiz", *args, input="")
    assert result.exit_code == 1  # the input has no such thing: exit 1, as for a missing file
    assert message in result.output


def test_cli_korean(run_cli):
    result = run_cli(*CAT_FISH, "--row", "먹었다", "--lang", "ko", input=typed(EAT))
    assert result.exit_code == 0, result.output
    assert "점수: 4 / 4" in result.output and "‘먹었다’ 행을 입력하세요" in result.output


def test_cli_random_shows_and_replays_its_seed(run_cli):
    first = run_cli("quiz", "--random", "--seed", "42", "--tokens", "3", "--dim", "2", input="q\n")
    assert first.exit_code == 0, first.output
    assert "seed 42" in first.output
    assert "attn-tutor quiz --random --tokens 3 --dim 2 --seed 42" in first.output
    again = run_cli("quiz", "--random", "--seed", "42", "--tokens", "3", "--dim", "2", input="q\n")
    assert again.output == first.output
    fresh = run_cli("quiz", "--random", input="q\n")
    assert fresh.exit_code == 0, fresh.output
    assert "attn-tutor quiz --random --tokens 3 --dim 2 --seed " in fresh.output


def test_cli_random_problem_can_be_answered_exactly(run_cli, tmp_path):
    (problem,) = generate.practice_problems(7, tokens=3, dim=2)  # what generate --seed 7 makes
    sol = engine.solve(problem)
    rows = [problem.row_index(token) for token in problem.asked_rows]
    lines = [" ".join(repr(float(v)) for v in sol.stage_row(stage, r)) for r in rows for stage in problem.asked_stages]
    report = tmp_path / "r.json"
    result = run_cli("quiz", "--random", "--seed", "7", "--report", str(report), input=typed(lines))
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert data["seed"] == 7 and data["problem_set"] == "random"
    assert data["score"] == data["max_score"] == len(lines)


def test_quiz_help_imports_neither_numpy_nor_yaml():
    probe = (
        "import sys\nsys.argv=['attn-tutor','quiz','--help']\nfrom attn_tutor.cli.app import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('HEAVY', sorted(m for m in ('numpy','yaml') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert "--follow-through" in result.stdout
    assert "HEAVY []" in result.stdout


# --- the quiz shows the way -------------------------------------------------------------


def test_the_quiz_says_how_far_and_how_many_decimals(run_cli):
    result = run_cli("quiz", "-p", "cat-fish", input="1 6 4\nq\n")
    assert "(a) Scores S = Q·Kᵀ — question 1 of 10" in result.output
    assert "(b) Scaled scores S / √2 ≈ 1.414 — question 2 of 10" in result.output
    assert "Round to 3 decimal places." in result.output
    korean = run_cli("quiz", "-p", "cat-fish", "--lang", "ko", input="q\n")
    assert "10문제 중 1번째" in korean.output and "소수점 아래 3자리까지 반올림하세요" in flat(korean.output)


def test_a_stopped_quiz_scores_the_questions_answered(run_cli, tmp_path):
    report = tmp_path / "r.json"
    result = run_cli("quiz", "-p", "cat-fish", "--report", str(report), input="1 6 4\n1 2 3\nq\n")
    assert "Stopped after 3 of 10 questions. Score so far: 1 / 2" in result.output
    data = json.loads(report.read_text("utf-8"))
    assert [item["verdict"] for item in data["items"]][-1] == "missing"  # the report still lists it
