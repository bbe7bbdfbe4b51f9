"""The command line's front: the app, its top-level options, and the table of commands.

Each command lives in a module of its own (:data:`COMMANDS` says which) that parses
the command's options and calls the package below it. :func:`main` builds an app
holding only the command named on the line (:func:`app_for`), so a run imports that
command's module and nothing of the others; ``--version``, the app's ``--help`` and a
mistyped command get every command by its name and help only, importing none of them. numpy, yaml and rich are imported
only inside the functions that use them, so ``attn-tutor --help`` and
``attn-tutor solve --help`` start fast.

Every :class:`~attn_tutor.core.errors.AttnTutorError` becomes one sentence on standard
error and exit status 1 (2 for usage): :func:`attn_tutor.cli.options.guarded`.
Help texts are catalogue keys ("help.…" in :mod:`attn_tutor.core.i18n`), shown in the
user's language by :mod:`attn_tutor.cli.help`; a command's help is the key
``help.cmd.<name>``.
"""

# No `from __future__ import annotations` (as in cli/solve.py): Typer evaluates the
# callback's string annotations again at every start.

import functools
import importlib
import os
import sys
from typing import Annotated

import typer

from attn_tutor import __version__
from attn_tutor.cli.help import LangOption, LocalGroup, LocalTyper
from attn_tutor.core.i18n import known_lang, resolve_lang, speaking, t
from attn_tutor.core.text import escape_unsafe

COMMANDS: dict[str, tuple[str, str]] = {
    # the command -> (its module in attn_tutor.cli, its function); --help lists them in this order
    "solve": ("solve", "solve"),
    "list": ("sets", "list_problems"),
    "show": ("sets", "show"),
    "validate": ("sets", "validate"),
    "quiz": ("quiz", "quiz"),
    "grade": ("grade", "grade"),
    "export": ("export", "export"),
    "generate": ("generate", "generate"),
    "serve": ("serve", "serve"),
    "lti": ("lti", "lti"),
}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"attn-tutor {__version__}")
        raise typer.Exit()


def main_callback(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="help.version")
    ] = False,
    lang: LangOption = None,
) -> None:
    """A tutor and grader for computing scaled dot-product attention by hand."""
    if lang is not None:  # `attn-tutor --lang ko solve`: the command after it speaks that language too
        if not known_lang(lang):  # said as a command's guard says cli.bad_lang, without importing the errors
            said = resolve_lang()  # the environment's language: the refused one cannot be
            with speaking(said):  # before any command's guard has set a language
                sys.stderr.write(t("cli.error", message=t("cli.bad_lang", lang=escape_unsafe(lang))) + "\n")
            raise typer.Exit(2)
        os.environ["ATTN_TUTOR_LANG"] = lang.strip().lower()


def _listed_only() -> None:
    """A command as the app's own help lists it: its name and help, and nothing of its module."""


def new_app(names=tuple(COMMANDS), listed_only: bool = False) -> typer.Typer:
    """The app with the commands ``names`` (all of them unless told), each from its module;
    ``listed_only``: each only by its name and help (``help.cmd.<name>``), for the app's own
    ``--help`` and for a mistyped command, which then import no command's module."""
    app = LocalTyper(
        name="attn-tutor",
        cls=LocalGroup,
        help="help.app",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(main_callback)
    for name in names:
        module, function = COMMANDS[name]
        if listed_only:
            app.command(name=name)(_listed_only)
        else:
            app.command(name=name)(getattr(importlib.import_module(f"attn_tutor.cli.{module}"), function))
    return app


@functools.cache
def _full_app() -> typer.Typer:
    return new_app()


def __getattr__(name: str):
    """``from attn_tutor.cli.app import app``: the app with every command (tests, documentation),
    built on first use so that a run never builds it."""
    if name == "app":
        return _full_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def command_named(args: list[str]) -> str | None:
    """The command this line runs: its first word that is not an option (nor ``--lang``'s value),
    unless ``--help`` comes first (then the app's help is asked for)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-h", "--help", "--version"):
            return None
        if arg == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if arg.startswith("-"):
            i += 2 if arg == "--lang" else 1
            continue
        return arg
    return None


def app_for(args: list[str]) -> typer.Typer:
    """The app for this command line: the named command's alone; for anything else (the app's
    help, a bare ``--version``, a mistyped command) every command by name and help only."""
    name = command_named(args)
    if name in COMMANDS:
        return new_app([name])
    return new_app(listed_only=True)


def main(argv: list[str] | None = None) -> None:
    """The console script's entry point: the app of the command named (:func:`app_for`).

    Typer resolves the parameters of every command it holds before running one, so a
    group holding only the named command parses, helps and errs the same for it and
    imports nothing of the others.
    """
    args = sys.argv[1:] if argv is None else argv
    app_for(args)(args=args, prog_name="attn-tutor")
