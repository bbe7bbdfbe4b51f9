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


# --- our own layout: every command, both languages, three widths --------------------------

LAYOUT_CASES = [(name, lang, width) for name in [None, *commands()] for lang in ("en", "ko") for width in (60, 80, 120)]


@pytest.mark.parametrize(("name", "lang", "width"), LAYOUT_CASES, ids=[f"{n or 'app'}-{lang}-{w}" for n, lang, w in LAYOUT_CASES])
def test_help_has_no_placeholder_no_default_twice_and_no_word_split(run_cli, name, lang, width, monkeypatch):
    from attn_tutor.render.blocks import display_width

    args = [name] if name else []
    result = run_cli(*args, "--help", "--lang", lang, env={"COLUMNS": str(width)})
    assert result.exit_code == 0
    shown = result.output
    assert "{" not in shown and "}" not in shown, shown  # no raw metavar ({paths}) or placeholder
    assert "9223372036854" not in shown  # a bound nobody reads is not shown
    assert all(display_width(line) <= width for line in shown.splitlines()), shown
    flat = " ".join(shown.split())
    for said in (["default", "[default:"], ["기본값", "[기본값:"]):
        for sentence in re.split(r"(?<=[.)\]])\s+(?=-|\[)", flat):
            assert not (said[0] in sentence.replace(said[1], "") and said[1] in sentence), sentence
    # every help text appears whole, its words in order: wrapping breaks only between words
    for param, text in help_texts(name, lang, monkeypatch).items():
        assert " ".join(text.split()) in flat, f"{param}: {text!r} is not shown whole in\n{shown}"


def test_the_quiz_help_says_how_to_ask_for_a_hint_and_stop(run_cli):
    english = " ".join(run_cli("quiz", "--help").output.split())
    assert "? for a hint" in english and "q to stop" in english
    korean = " ".join(run_cli("quiz", "--help", "--lang", "ko").output.split())
    assert "?를 입력하면 힌트" in korean and "q를 입력하면 끝냅니다" in korean


def test_a_range_shows_a_bound_worth_reading(run_cli):
    shown = " ".join(run_cli("solve", "--help").output.split())
    assert "--decimals INTEGER Decimal places (default: the problem's). [0 to 10]" in shown
    assert "[at least 0]" in shown  # --seed and --variant: no 19-digit bound


def test_help_is_in_colour_on_a_terminal_only(tmp_path):
    """On a terminal (a pty), headings and option names are bold and coloured; piped, or with
    NO_COLOR, plain text."""
    import os
    import pty
    import subprocess
    import sys

    code = "import sys; sys.argv=['attn-tutor','solve','--help']; from attn_tutor.cli.app import main; main()"
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(COLUMNS="80", TERM="xterm-256color", ATTN_TUTOR_LANG="ko")
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", code], stdout=follower, stderr=subprocess.DEVNULL, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    on_terminal = b"".join(chunks).decode("utf-8")
    assert "\x1b[1;33m옵션:\x1b[0m" in on_terminal and "\x1b[1;36m-p, --problem\x1b[0m" in on_terminal
    piped = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env).stdout
    assert "\x1b[" not in piped and "옵션:" in piped
    no_colour = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**env, "NO_COLOR": "1"}).stdout
    assert "\x1b[" not in no_colour


# --- click's usage errors, in the catalogue's words ------------------------------------------

USAGE_ERRORS = [
    # (arguments, English, Korean)
    (["solve", "--problme", "x"], "error: no such option: --problme. Did you mean --problem?",
     "오류: 그런 옵션이 없습니다: --problme. 혹시 --problem인가요?"),
    (["solve", "--zzz"], "error: no such option: --zzz.", "오류: 그런 옵션이 없습니다: --zzz."),
    (["grade"], "error: missing argument 'paths'.", "오류: 인자가 빠졌습니다: 'paths'."),
    (["validate"], "error: missing argument 'files'.", "오류: 인자가 빠졌습니다: 'files'."),
    (["solve", "--format", "xml"], "error: invalid value for '--format' / '-f': 'xml' is not one of 'table', 'json', 'markdown'.",
     "오류: '--format' / '-f'의 값이 잘못되었습니다: 'xml': 'table', 'json', 'markdown' 중 하나여야 합니다."),
    (["solve", "--decimals", "11"], "error: invalid value for '--decimals': 11 is outside [0 to 10].",
     "오류: '--decimals'의 값이 잘못되었습니다: 11: [0~10] 범위를 벗어납니다."),
    (["solve", "--decimals", "two"], "error: invalid value for '--decimals': 'two' is not a whole number.",
     "오류: '--decimals'의 값이 잘못되었습니다: 'two': 정수가 아닙니다."),
    (["solve", "a", "b", "c"], "error: unexpected extra argument(s): b c.", "오류: 필요 없는 인자가 더 있습니다: b c."),
    (["solve", "--problem"], "error: option --problem needs a value.", "오류: 옵션 --problem에는 값이 필요합니다."),
    (["solve", "--all=3"], "error: option --all takes no value.", "오류: 옵션 --all에는 값을 줄 수 없습니다."),
    (["sovle"], "error: no such command: sovle. Did you mean solve?", "오류: 그런 명령이 없습니다: sovle. 혹시 solve인가요?"),
    (["--lang", "ko"], "error: a command is missing", "오류: 명령이 빠졌습니다."),
    (["solve", "--lang", "fr"], "error: unknown language 'fr'; use ko or en", "오류: 알 수 없는 언어 'fr'입니다. ko 또는 en을 쓰세요"),
    (["--lang", "fr", "solve"], "error: unknown language 'fr'; use ko or en", "오류: 알 수 없는 언어 'fr'입니다. ko 또는 en을 쓰세요"),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize(("args", "english", "korean"), USAGE_ERRORS, ids=[" ".join(c[0]) for c in USAGE_ERRORS])
def test_every_kind_of_usage_error_is_said_in_the_users_language(run_cli, args, english, korean, lang):
    """Korean in Korean mode (here from LANG, as a Korean desktop sets it), English otherwise; exit 2."""
    env = {"LANG": "ko_KR.UTF-8"} if lang == "ko" else {}
    if args[:2] == ["--lang", "ko"]:
        env = {} if lang == "en" else env
        args = args if lang == "ko" else ["--lang", "en"]
    result = run_cli(*args, env=env)
    assert result.exit_code == 2
    said = " ".join((result.stderr or result.output).split())
    assert (korean if lang == "ko" else english) in said, said
    if lang == "ko":
        assert "Usage:" not in said and "Error" not in said and "Try '" not in said
        assert "사용법:" in said or "--lang" in " ".join(args)  # the usage line, in Korean
    elif "--lang" not in args:
        assert "Usage: attn-tutor" in said and "--help' for help." in said
