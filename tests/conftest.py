"""A deterministic environment for every test: no colour, a fixed width, English."""

from __future__ import annotations

import pytest
from hypothesis import settings

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


@pytest.fixture(autouse=True)
def deterministic_env(monkeypatch):
    for name in ("FORCE_COLOR", "GITHUB_ACTIONS", "CLICOLOR_FORCE", "ATTN_TUTOR_LANG", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in FIXED_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def run_cli():
    """Invoke the CLI as a user would: ``run_cli("solve", "--format", "json")``."""
    from typer.testing import CliRunner

    from attn_tutor.cli import app

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None):
        return runner.invoke(app, list(args), input=input, env={**FIXED_ENV, **(env or {})}, prog_name="attn-tutor")

    return invoke
