"""The README cannot drift from the tool: its commands, its examples, its set-up lines."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def commands() -> list[str]:
    from attn_tutor.cli import app

    return sorted(info.name or info.callback.__name__ for info in app.registered_commands)


def fenced(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


@pytest.mark.parametrize("name", commands())
def test_every_command_has_help_and_is_in_the_readme(run_cli, name):
    result = run_cli(name, "--help")
    assert result.exit_code == 0
    assert f"`attn-tutor {name}" in README
    from attn_tutor.cli import app

    (info,) = [i for i in app.registered_commands if (i.name or i.callback.__name__) == name]
    assert (info.callback.__doc__ or "").strip()


def test_the_readme_has_exactly_the_two_set_up_commands_near_the_top():
    head = README.split("## ")[0]
    lines = [line.strip() for line in head.splitlines() if line.startswith("    ")]
    assert lines == ["pip install . && attn-tutor solve", "pip install '.[test]' && pytest"]


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "sed -n 's/^    \\(pip install .*pytest.*\\)$/\\1/p' README.md" in ci


def test_the_readme_problem_set_example_loads_and_solves(run_cli, tmp_path):
    (example,) = [block for block in fenced("yaml") if "problems:" in block]
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    assert run_cli("validate", str(path)).exit_code == 0
    result = run_cli("solve", str(path), "--row", "먹었다")
    assert result.exit_code == 0 and "0.786" in result.output


def test_the_readme_answer_file_example_grades(run_cli, tmp_path):
    (example,) = [block for block in fenced("yaml") if "answers:" in block]
    # the README's variant number belongs to a worksheet; mark the plain set here
    (tmp_path / "kim.yaml").write_text(re.sub(r"(?m)^variant:.*\n", "", example), encoding="utf-8")
    result = run_cli("grade", str(tmp_path / "kim.yaml"))
    assert result.exit_code == 0, result.output
    assert "김민지" in result.output


SAFE_EXAMPLES = [
    line.strip()
    for line in README.splitlines()
    if line.startswith("    attn-tutor ") and not re.search(r"my-set|answers/|form-export|>", line)
]


@pytest.mark.parametrize("line", SAFE_EXAMPLES)
def test_readme_examples_that_need_no_files_run(run_cli, line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the examples' -o and --report files land
    args = shlex.split(line.split("#")[0])[1:]
    result = run_cli(*args, input="q\n")
    assert result.exit_code == 0, (line, result.output)
