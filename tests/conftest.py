"""Every test's environment: no colour, a fixed width, English; and the outside tools it needs.

A test marked with an outside tool's marker (``browser``, ``tmux``, ``pdf``, ``xelatex``,
``cjk_font``, ``qti_dtd``, ``axe``, ``git``, ``postgresql``; see tests/helpers/tools.py) is skipped where that tool
is missing, and fails instead when ``CI=true``.
"""

from __future__ import annotations

import pytest
from helpers import tools
from hypothesis import settings

pytest_plugins = ("pytester",)  # tests/repo/test_outside_tools.py runs a marked test in a pytest of its own

# Properties check numbers, not speed: on a shared, loaded machine one slow example
# must not fail a run (hypothesis' default deadline is 200 ms an example).
settings.register_profile("attn-tutor", deadline=None)
settings.load_profile("attn-tutor")

FIXED_ENV = {
    "NO_COLOR": "1",
    "COLUMNS": "100",
    "TERMINAL_WIDTH": "100",
    "LANG": "C.UTF-8",
}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before any fixture: the outside tools the test's markers name, or a skip (a failure in CI)."""
    tools.require_markers(item)


@pytest.fixture(autouse=True)
def deterministic_env(monkeypatch):
    for name in ("FORCE_COLOR", "GITHUB_ACTIONS", "CLICOLOR_FORCE", "ATTN_TUTOR_LANG", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in FIXED_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture(autouse=True)
def english_spoken():
    """Every test starts in English, as a library caller does, and leaves no language behind:
    whatever it set (``i18n.speaking`` for a block, ``i18n.set_language`` for the rest of the
    test), this token resets it."""
    from attn_tutor.core import i18n

    token = i18n.set_language("en")
    yield
    i18n.reset_language(token)


@pytest.fixture(autouse=True)
def two_cpus_at_least(monkeypatch):
    """``grade --jobs 2`` starts two workers on any machine, a one-CPU CI runner included (grade caps
    --jobs at the CPUs it may use; tests/gradebook/test_grade_jobs.py sets the count it tests)."""
    from attn_tutor.gradebook import run

    real = run.available_cpus
    monkeypatch.setattr(run, "available_cpus", lambda: max(2, real()))


@pytest.fixture
def run_cli():
    """Invoke the CLI as a user would: ``run_cli("solve", "--format", "json")``."""
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app_for

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None):
        # the app main() builds for these arguments: the named command's alone, or every command
        app = app_for(list(args))
        return runner.invoke(app, list(args), input=input, env={**FIXED_ENV, **(env or {})}, prog_name="attn-tutor")

    return invoke
