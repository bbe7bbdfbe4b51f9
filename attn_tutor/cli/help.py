"""``--help`` in the user's language, from the one catalogue (:mod:`attn_tutor.core.i18n`).

Help texts in :mod:`attn_tutor.cli.app` are catalogue keys, not sentences::

    problem: Annotated[Optional[str], typer.Option("--problem", "-p", help="help.problem")] = None

and a command's help is the key ``help.cmd.<name>`` (its docstring stays, for
readers of the code). :class:`LocalTyper` makes every command a
:class:`LocalCommand`, which resolves those keys when it is built (language from
``ATTN_TUTOR_LANG`` / ``LANG``) and again when it parses its arguments, if they hold
``--lang ko|en`` — ``--help`` is eager, so the texts must be right before click
parses anything. To add an option: write ``help="help.<command>.<option>"`` (or a
shared key) and add that key, in English and Korean, to the catalogue's "command-line
help" section; ``tests/cli/test_help.py`` fails for any help text that is not a key.

Only typer and the catalogue are imported here: ``--help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Sequence

import typer
from typer.core import TyperCommand, TyperGroup

from attn_tutor.core.i18n import MESSAGES, resolve_lang, t

# typer.rich_utils' fixed strings, as catalogue keys
_RICH_STRINGS = {
    "ARGUMENTS_PANEL_TITLE": "help.panel.arguments",
    "OPTIONS_PANEL_TITLE": "help.panel.options",
    "COMMANDS_PANEL_TITLE": "help.panel.commands",
    "DEFAULT_STRING": "help.default",
    "REQUIRED_LONG_STRING": "help.required",
}


# typer.rich_utils' builders of help text, whose Text we make fold rather than crop: rich's
# table drops a Korean word for "…" at some widths (a measuring slip with wide characters)
_BUILDERS = ("_get_help_text", "_get_parameter_help", "_make_command_help")


def _fold(renderable):
    from rich.text import Text

    if isinstance(renderable, Text):
        renderable.overflow = "fold"
    for inner in getattr(renderable, "renderables", ()) or ():
        _fold(inner)
    return renderable


def _folding(build):
    def wrapper(*args, **kwargs):
        made = build(*args, **kwargs)
        if isinstance(made, (str, bytes)) or not hasattr(made, "__iter__") or hasattr(made, "renderables"):
            return _fold(made)
        return [_fold(part) for part in made]

    return wrapper


def lang_in(args: Sequence[str]) -> str | None:
    """The value of ``--lang`` in raw arguments (before ``--``), if any."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def _text(key: str | None, lang: str) -> str | None:
    return t(key, lang) if key in MESSAGES else key


class _Localised:
    """Mixed into typer's command and group classes: help texts resolved per language."""

    def _own_key(self) -> str:
        return f"help.cmd.{self.name}"

    def localise(self, lang: str) -> None:
        if not hasattr(self, "_help_keys"):
            self._help_key = self._own_key() if self._own_key() in MESSAGES else self.help
            self._help_keys = {id(p): p.help for p in self.params}
        self.lang = lang
        self.help = _text(self._help_key, lang)
        self.short_help = None
        for param in self.params:
            param.help = _text(self._help_keys.get(id(param), param.help), lang)

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        # the language as this run resolves it: --lang if given, else the environment now
        chosen = lang_in(args)
        lang = resolve_lang(chosen if chosen is not None and chosen.strip().lower() in ("ko", "en") else None)
        self.localise(lang)
        for command in getattr(self, "commands", {}).values():  # a group lists its commands' help
            if isinstance(command, _Localised):
                command.localise(lang)
        return super().parse_args(ctx, args)

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = t("help.help", self.lang)
        return option

    def format_help(self, ctx, formatter) -> None:
        from typer import rich_utils  # typer's rich help: imports rich


        saved = {name: getattr(rich_utils, name) for name in (*_RICH_STRINGS, *_BUILDERS)}
        try:
            for name, key in _RICH_STRINGS.items():
                setattr(rich_utils, name, t(key, self.lang))
            for name in _BUILDERS:
                setattr(rich_utils, name, _folding(saved[name]))
            super().format_help(ctx, formatter)
        finally:
            for name, value in saved.items():
                setattr(rich_utils, name, value)


class LocalCommand(_Localised, TyperCommand):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.localise(resolve_lang())


class LocalGroup(_Localised, TyperGroup):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.localise(resolve_lang())

    def _own_key(self) -> str:
        return "help.app"


class LocalTyper(typer.Typer):
    """A Typer whose commands are :class:`LocalCommand` unless told otherwise."""

    def command(self, *args, **kwargs):
        kwargs.setdefault("cls", LocalCommand)
        return super().command(*args, **kwargs)
