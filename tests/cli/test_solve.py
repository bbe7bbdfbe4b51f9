"""`attn-tutor solve` and `validate` as a user drives them: every option and format."""

from __future__ import annotations

import json
import re
import unicodedata

import pytest
from helpers.output import flat

CAT_FISH = ["solve", "ch13", "--problem", "cat-fish"]


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def test_default_set_shows_the_chapter_numbers(run_cli):
    result = run_cli("solve")
    assert result.exit_code == 0, result.output
    for expected in ("고양이가", "생선을", "먹었다", "0.786", "78.6%", "0.214", "0.977", "0.752", "√2 ≈ 1.414"):
        assert expected in result.output


def test_explain_writes_each_cell_of_the_row(run_cli):
    result = run_cli(*CAT_FISH, "--row", "먹었다", "--explain")
    assert result.exit_code == 0, result.output
    assert "먹었다·생선을 = 1×0 + 3×2 = 6" in result.output
    assert "6 / √2 = 6 / 1.414 = 4.243" in result.output
    assert "e^4.243 / (e^0.707 + e^4.243 + e^2.828) = 69.591 / 88.538 = 0.786" in result.output
    assert "0.023×(1, 0) + 0.786×(0, 1) + 0.191×(1, 1) = (0.214, 0.977)" in result.output


def test_row_restricts_the_stage_tables_to_one_query(run_cli):
    result = run_cli(*CAT_FISH, "--row", "고양이가", "--format", "markdown")
    assert result.exit_code == 0, result.output
    score_table = result.output.split("(a) Scores")[1].split("**(b)")[0]
    body = [line for line in score_table.splitlines() if line.startswith("| **")]
    assert [line.split("|")[1].strip() for line in body] == ["**고양이가**"]
    assert "(0.752, 0.752)" not in result.output  # outputs are a table, not tuples
    assert "0.752" in result.output


@pytest.mark.parametrize(
    ("stage", "present", "absent"),
    [
        ("scores", "(a) Scores", "(b) Scaled"),
        ("scaled", "(b) Scaled", "Softmax"),
        ("weights", "Attention weights", "(d) Output"),
        ("output", "(d) Output", "Worked arithmetic"),
    ],
)
def test_stage_stops_after_that_stage(run_cli, stage, present, absent):
    result = run_cli(*CAT_FISH, "--stage", stage)
    assert result.exit_code == 0, result.output
    assert present in result.output
    assert absent not in result.output


def test_decimals_changes_the_places_and_rounds_half_up(run_cli):
    result = run_cli(*CAT_FISH, "--row", "먹었다", "--decimals", "2", "--format", "markdown")
    assert result.exit_code == 0, result.output
    assert "0.79" in result.output and "0.786" not in result.output
    assert "4.24" in result.output and "0.71" in result.output


def test_json_has_the_documented_shape_at_full_precision(run_cli):
    result = run_cli(*CAT_FISH, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (problem,) = data["problems"]
    assert set(problem) == {
        "id", "tokens", "key_tokens", "d_k", "divide_by", "Q", "K", "V", "scores", "scaled", "weights", "output",
    }
    assert problem["tokens"] == problem["key_tokens"] == ["고양이가", "생선을", "먹었다"]
    assert problem["d_k"] == 2
    assert problem["divide_by"] == pytest.approx(2**0.5, abs=1e-15)
    assert problem["scores"] == [[2, 2, 3], [1, 4, 3], [1, 6, 4]]
    assert problem["weights"][2][1] == pytest.approx(0.78600291, abs=1e-8)
    assert problem["output"][0] == pytest.approx([0.75174492, 0.75174492], abs=1e-8)


def test_json_of_the_whole_set_lists_every_problem(run_cli):
    data = json.loads(run_cli("solve", "--format", "json").output)
    ids = [p["id"] for p in data["problems"]]
    assert "cat-fish" in ids and len(ids) == len(set(ids)) >= 6


def test_markdown_tables_have_a_row_per_token(run_cli):
    result = run_cli(*CAT_FISH, "--format", "markdown")
    assert result.exit_code == 0
    tables = [block for block in result.output.split("\n\n") if block.startswith("| ")]
    assert tables, result.output
    for table in tables:
        lines = table.splitlines()
        widths = {line.count("|") - line.count("\\|") for line in lines}
        assert len(widths) == 1, table  # every row has as many cells as the header
        assert set(lines[1].replace("|", "").split()) <= {"---", "---:"}


@pytest.mark.parametrize(("lang", "word"), [("ko", "스코어"), ("en", "Scores")])
def test_lang_option_chooses_the_language(run_cli, lang, word):
    result = run_cli(*CAT_FISH, "--lang", lang)
    assert result.exit_code == 0
    assert word in result.output


def test_lang_from_environment(run_cli):
    assert "스코어" in run_cli(*CAT_FISH, env={"LANG": "ko_KR.UTF-8"}).output
    assert "Scores" in run_cli(*CAT_FISH, env={"LANG": "ko_KR.UTF-8", "ATTN_TUTOR_LANG": "en"}).output


def test_no_colour_codes_without_a_terminal(run_cli):
    result = run_cli(*CAT_FISH, env={"NO_COLOR": ""})
    assert "\x1b[" not in result.output


def test_korean_tokens_line_up_in_tables(run_cli):
    result = run_cli(*CAT_FISH, "--lang", "ko")
    lines = result.output.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("(a)")))
    end = lines.index("", start)
    header, rule, *rows = lines[start + 1 : end]
    assert rows, result.output
    # the right edge of each numeric column falls at the same display column
    assert {display_width(line.rstrip()) for line in [header, *rows]} == {display_width(header.rstrip())}


NEGATIVE_ZERO = """
problems:
  - id: tiny
    tokens: [a, b]
    Q: [[0.0001, 0], [0, 1]]
    K: [[-1, 0], [0, 1]]
    V: [[-0.0001, 1], [0, -0.0002]]
"""


def test_never_shows_negative_zero(run_cli, tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(NEGATIVE_ZERO, encoding="utf-8")
    for fmt in ("table", "markdown"):
        result = run_cli("solve", str(path), "--format", fmt, "--explain")
        assert result.exit_code == 0, result.output
        assert "-0.000" not in result.output and "-0 " not in result.output


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["solve", "ch13", "--problem", "nope"], 1, "no problem with id 'nope'"),
        (["solve", "ch13", "--problem", "cat-fish", "--row", "개가"], 1, "has no query token '개가'"),
        (["solve", "--format", "pdf"], 2, "pdf"),
        (["solve", "--decimals", "11"], 2, "11"),
        (["solve", "--lang", "fr"], 2, "unknown language 'fr'"),
        (["solve", "no-such-file.yaml"], 1, "no-such-file.yaml"),
    ],
)
def test_bad_usage_and_bad_input_get_a_sentence_and_a_status(run_cli, args, code, message):
    result = run_cli(*args)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_invalid_file_reports_file_line_and_column(run_cli, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("problems:\n  - id: a\n    tokens: [x, y]\n    Q: [[1, 2], [3, 4]]\n    K: [[1, 2], [3, 4, 5]]\n")
    result = run_cli("solve", str(path))
    assert result.exit_code == 1
    assert f"{path}:5:" in result.output
    assert "Traceback" not in result.output


def test_validate_lists_every_error_and_fails(run_cli, tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("problems:\n  - id: a\n    tokens: [x]\n    Q: [[1]]\n    K: [[1]]\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("problems:\n  - id: a\n    tokens: [x, y]\n    Q: [[1], [2]]\n    K: [[1], [yes]]\n    colour: red\n")
    result = run_cli("validate", str(good), str(bad))
    assert result.exit_code == 1
    assert f"{good}: valid" in result.output
    assert f"{bad}: invalid" in result.output
    assert "colour" in result.output and f"{bad}:5:" in result.output


def test_validate_passes_the_packaged_set(run_cli):
    from attn_tutor.problems.load import packaged_path

    result = run_cli("validate", str(packaged_path("ch13")))
    assert result.exit_code == 0, result.output


def test_version(run_cli):
    from attn_tutor import __version__

    result = run_cli("--version")
    assert result.exit_code == 0 and result.output.strip() == f"attn-tutor {__version__}"


def test_python_dash_m_runs_the_same_cli():
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "attn_tutor", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("attn-tutor ")


def test_the_console_script_runs_one_command_as_the_full_app_does(run_cli, capsys):
    """main() builds a group of just the named command, for start-up: same output."""
    from attn_tutor.cli.app import main

    with pytest.raises(SystemExit) as stopped:
        main(["solve", "ch13", "--problem", "cat-fish", "--format", "json"])
    assert stopped.value.code in (0, None)
    assert json.loads(capsys.readouterr().out) == json.loads(run_cli(*CAT_FISH, "--format", "json").output)


@pytest.mark.parametrize(("args", "code"), [(["solv"], 2), (["solve", "--formt", "json"], 2), (["--version"], 0)])
def test_the_console_script_handles_mistakes_like_the_full_app(args, code):
    from attn_tutor.cli.app import main

    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert (stopped.value.code or 0) == code


def test_a_token_with_backticks_cannot_close_the_markdown_code_blocks(run_cli, tmp_path):
    path = tmp_path / "ticks.yaml"
    path.write_text('problems:\n  - id: t\n    tokens: ["a```b", c]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n')
    result = run_cli("solve", str(path), "--format", "markdown", "--explain")
    assert result.exit_code == 0, result.output
    fences = [line for line in result.output.splitlines() if line.startswith("````")]
    assert fences and len(fences) % 2 == 0  # every block opened with four backticks is closed


# --- the first solve --------------------------------------------------------------------


def test_the_first_solve_shows_the_chapters_example_then_how_to_see_the_rest(run_cli):
    result = run_cli("solve")
    assert result.exit_code == 0
    assert "cat-fish — 고양이가 생선을 먹었다" in result.output
    assert result.output.count("(a) Scores") == 1
    assert "The set's other 7 problems" in result.output
    for problem_id in ("widget-meet-friend", "practice-causal", "practice-two-heads"):
        assert re.search(rf"attn-tutor solve --problem {problem_id} +# ", result.output)
    assert "Every problem at once: attn-tutor solve --all" in result.output
    assert len(result.output.splitlines()) < 120  # not 640 lines


def test_solve_all_and_the_file_formats_give_every_problem(run_cli):
    every = run_cli("solve", "--all")
    assert every.output.count("(a) Scores") >= 8 and "The set's other" not in every.output
    assert len(json.loads(run_cli("solve", "--format", "json").output)["problems"]) == 8
    assert run_cli("solve", "--format", "markdown").output.count("practice-") >= 5


def test_solve_of_a_named_file_lists_its_commands_with_the_file(run_cli, tmp_path):
    from attn_tutor.problems.load import packaged_path

    copy = tmp_path / "mine.yaml"
    copy.write_bytes(packaged_path("ch13").read_bytes())
    result = run_cli("solve", str(copy))
    assert f"attn-tutor solve {copy} --problem widget-meet-friend" in flat(result.output)
