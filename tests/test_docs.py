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


SET_UP = [
    "python3 -m venv .venv",
    ". .venv/bin/activate",
    "pip install . && attn-tutor solve",
    "pip install '.[test]' && pytest",
]


def set_up_lines() -> list[str]:
    head = README.split("## ")[0]
    return [line.strip() for line in head.splitlines() if line.startswith("    ")]


def test_the_readme_sets_up_a_virtual_environment_then_gives_the_two_commands():
    assert set_up_lines() == SET_UP


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


def test_the_readme_set_up_works_in_a_fresh_clone_and_a_fresh_virtual_environment(tmp_path):
    """The README's first three lines, run by bash in a fresh clone: a new venv, activated,
    `pip install . && attn-tutor solve`. One line is added after the venv is made: a .pth
    file pointing at this environment's site-packages, so pip finds numpy and the rest
    already installed instead of downloading them (only the build backend is fetched)."""
    import os
    import shutil
    import subprocess
    import sys
    import sysconfig

    root = Path(__file__).resolve().parent.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        if os.environ.get("CI"):
            pytest.fail("CI must run from a git clone")
        pytest.skip("not a git checkout")
    clone = tmp_path / "attn-tutor"
    subprocess.run(["git", "clone", "--quiet", str(root), str(clone)], check=True, timeout=120)
    venv_make, activate, install_and_solve, _tests = set_up_lines()
    ours = sysconfig.get_paths()["purelib"]
    share = f'echo {ours!r} > "$(python -c "import sysconfig; print(sysconfig.get_paths()[\'purelib\'])")/outer.pth"'
    script = "\n".join(["set -eu", venv_make, activate, share, install_and_solve])
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "COLUMNS")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != str(Path(sys.executable).parent))
    done = subprocess.run(["bash", "-c", script], cwd=clone, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert (clone / ".venv" / "bin" / "attn-tutor").exists()  # installed in the new environment, not ours
    assert "cat-fish — 고양이가 생선을 먹었다" in done.stdout  # the chapter's own example first
    assert "attn-tutor solve --problem widget-meet-friend" in done.stdout  # then the way to the others
    assert "practice-two-heads" in done.stdout and "(c) Attention weights" in done.stdout
    assert done.stdout.count("(a) Scores") == 1  # one problem worked, not the whole set
