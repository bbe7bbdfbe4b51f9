"""`--help` in the user's language: every command and option has help in Korean and English, however the language is chosen."""

from __future__ import annotations

import re

import pytest

HANGUL = re.compile(r"[가-힣]")


def commands() -> list[str]:
    from attn_tutor.cli.app import app

    return sorted(info.name or info.callback.__name__ for info in app.registered_commands)


# --- Korean --help ----------------------------------------------------------------------


def help_texts(name: str | None, lang: str, monkeypatch) -> dict[str, str]:
    """Every help text of a command (or of the app) as the user sees it in ``lang``."""
    import typer.main

    monkeypatch.setenv("ATTN_TUTOR_LANG", lang)

    from attn_tutor.cli.app import app
    from attn_tutor.cli.help import LocalCommand

    group = typer.main.get_command(app)
    command = group if name is None else group.commands[name]
    assert isinstance(command, LocalCommand) or name is None, f"{name} is not a LocalCommand"
    ctx = command.make_context("attn-tutor", ["--help"], resilient_parsing=True)
    texts = {"": command.help or ""}
    for param in command.get_params(ctx):
        texts[param.name] = param.help or ""
    return texts


@pytest.mark.parametrize("name", [None, *commands()])
def test_every_command_and_option_has_help_in_korean_and_english(name, monkeypatch):
    english, korean = help_texts(name, "en", monkeypatch), help_texts(name, "ko", monkeypatch)
    assert english.keys() == korean.keys()
    for param, text in english.items():
        where = f"{name or 'attn-tutor'} {param or '(the command)'}"
        assert text and not text.startswith("help."), f"{where}: no help, or a key missing from attn_tutor/core/i18n.py"
        assert korean[param] != text, f"{where}: the Korean help is the English one; add a help.* key to i18n.py"
        assert HANGUL.search(korean[param]), f"{where}: no Hangul in the Korean help: {korean[param]!r}"


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["solve", "--help", "--lang", "ko"], {}),
        (["solve", "--lang=ko", "--help"], {}),
        (["solve", "--help"], {"ATTN_TUTOR_LANG": "ko"}),
        (["solve", "--help"], {"LANG": "ko_KR.UTF-8"}),
    ],
)
def test_help_follows_the_language_however_it_is_chosen(run_cli, args, env):
    result = run_cli(*args, env=env)
    assert result.exit_code == 0
    assert "이 id의 문제만" in result.output and "Only the problem with this id" not in result.output
    assert "옵션" in result.output  # the panel titles too


def test_the_app_help_lists_the_commands_in_korean(run_cli):
    result = run_cli("--help", env={"LANG": "ko_KR.UTF-8"})
    assert result.exit_code == 0
    assert "문제 세트의 문제 목록" in result.output and "명령" in result.output
    english = run_cli("--help")
    assert "List a problem set's problems" in english.output and "Commands" in english.output
