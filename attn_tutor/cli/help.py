"""``--help`` and click's own usage errors in the user's language, from the one catalogue
(:mod:`attn_tutor.core.i18n`), laid out by our own formatter: no rich, no Markdown.

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

:func:`write_help` lays a command's help out in sections (arguments, options,
commands), wrapped by display width at word boundaries (a Hangul syllable is two
columns wide), in bold and colour on a terminal (never when piped, or with
``NO_COLOR``). A default is shown once: not as ``[default: …]`` when the help text
already says it. A usage error from click (an unknown option, a missing argument, an
invalid value, a stray argument, an unknown command) is said again from the catalogue
by :class:`LocalUsageError`, with the same exit status 2.

Only typer and the catalogue are imported here: ``--help`` stays fast. The ``--lang`` option
(:data:`LangOption`) is defined here too, so the app's own help and ``--version`` import nothing
more (not the records of :mod:`attn_tutor.core.model` nor the errors, as :mod:`attn_tutor.cli.options` does).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Sequence
from difflib import get_close_matches
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional, TypeGuard

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from attn_tutor.core.i18n import has, resolve_lang, speaking, t
from attn_tutor.core.text import display_width

# typer vendors click and re-exports, of its usage errors, only BadParameter (its copy of click is
# private): the others are told apart here by what typer says of them in public — a TyperException
# with exit status 2 is a usage error — and by the attributes click gives each.
USAGE_EXIT = 2


def is_usage_error(error: BaseException) -> TypeGuard[typer.BadParameter]:
    """One of click's usage errors (an unknown option, a missing argument, an invalid value, …).

    Typed as the one of them typer exports: each carries the same message, ctx and exit_code."""
    return isinstance(error, typer.TyperException) and error.exit_code == USAGE_EXIT and hasattr(error, "ctx")


def _is_no_args_help(error: BaseException) -> bool:
    """click's "no arguments: here is the help", shown as click shows it (typer's own rich_utils tells it by name)."""
    return type(error).__name__ == "NoArgsIsHelpError"

WIDTH_MIN, WIDTH_MAX = 40, 120
NBSP = "\u00a0"
HUGE_BOUND = 10**9  # a range's upper bound beyond this is not worth reading: shown as "at least"

LangOption = Annotated[Optional[str], typer.Option("--lang", help="help.lang")]
"""``--lang ko|en``, which the app and every command take; :func:`lang_in` reads it from the raw
arguments, so that ``--help`` after it speaks that language."""


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


def _t(key: str, lang: str, /, **args: object) -> str:
    """The message ``key`` in ``lang``: help is written as click parses, before a command's guard
    sets the run's language (:func:`attn_tutor.cli.options.guarded`), in the language it found."""
    with speaking(lang):
        return t(key, **args)


def _text(key: str | None, lang: str) -> str | None:
    return _t(key, lang) if key is not None and has(key) else key


# --- laying help out ------------------------------------------------------------------


def help_width() -> int:
    """The width help is laid out in: ``COLUMNS`` (or ``TERMINAL_WIDTH``), else the terminal's, within 40–120."""
    for name in ("COLUMNS", "TERMINAL_WIDTH"):
        value = os.environ.get(name, "")
        if value.strip().isdigit():
            return max(WIDTH_MIN, min(int(value), WIDTH_MAX))
    return max(WIDTH_MIN, min(shutil.get_terminal_size((80, 24)).columns, WIDTH_MAX))


def colour_wanted(stream=None) -> bool:
    """Bold and colour only on a terminal, and not when ``NO_COLOR`` is set (https://no-color.org)."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _Style:
    """ANSI styles, or none."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def _paint(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on and text else text

    def heading(self, text: str) -> str:
        return self._paint("1;33", text)

    def name(self, text: str) -> str:
        return self._paint("1;36", text)

    def metavar(self, text: str) -> str:
        return self._paint("32", text)

    def note(self, text: str) -> str:
        return self._paint("2", text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` display columns, broken between words only
    (a word longer than a whole line is the one thing cut); each newline starts a line."""
    width = max(width, 1)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0
        for word in (w for w in paragraph.split(" ") if w):  # a no-break space holds a note together
            size = display_width(word)
            if line and used + 1 + size > width:
                lines.append(line)
                line, used = "", 0
            while size > width and not line:  # longer than a line: cut by characters, the one exception
                cut, taken = "", 0
                for ch in word:
                    if taken + display_width(ch) > width:
                        break
                    cut, taken = cut + ch, taken + display_width(ch)
                lines.append(cut)
                word = word[len(cut) :]
                size = display_width(word)
            if word:
                line, used = (f"{line} {word}", used + 1 + size) if line else (word, size)
        lines.append(line)
    return [line.replace(NBSP, " ") for line in lines]


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def _number(value) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _metavar(param, lang: str) -> str:
    """What follows an option (nothing for a flag), or an argument's name, as help shows it."""
    if param.param_type_name == "argument":
        name = (param.metavar or param.name or "").upper()
        if param.nargs != 1:
            name += "..."
        return name if param.required else f"[{name}]"
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    if param.metavar:
        return param.metavar
    choices = getattr(param.type, "choices", None)
    if choices:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in choices) + "]"
    kind = "path" if isinstance(param.type, typer.models.TyperPath) else _KINDS.get(param.type.name, "text")
    return _t(f"help.metavar.{kind}", lang)


def _range(param, lang: str, exact: bool = False) -> str | None:
    """A number's range as help shows it (an upper bound nobody reads left out), or ``exact``ly,
    as an error that refuses a value past it says it."""
    low, high = getattr(param.type, "min", None), getattr(param.type, "max", None)
    if low is None and high is None:
        return None
    if high is None or (abs(high) > HUGE_BOUND and not exact):
        return _t("help.range.at_least", lang, low=_number(low)) if low is not None else None
    if low is None:
        return _t("help.range.at_most", lang, high=_number(high))
    return _t("help.range.between", lang, low=_number(low), high=_number(high))


def _default(param, lang: str, text: str) -> str | None:
    """``[default: …]``, unless the help text says the default already, or there is none worth saying."""
    if not getattr(param, "show_default", False) or getattr(param, "is_flag", False):
        return None
    value = param.default
    if value is None or value == () or callable(value):
        return None
    if _t("help.default_word", lang).lower() in text.lower():
        return None  # said once, in the words of the help text
    shown = value.value if isinstance(value, Enum) else value
    return _t("help.default", lang).format(shown)


def _param_row(param, lang: str) -> tuple[str, str, str]:
    """(the names, the metavar, the help with its notes) of a parameter."""
    text = param.help or ""
    notes = [note for note in (_range(param, lang), _default(param, lang, text)) if note]
    if param.required:
        notes.append(_t("help.required", lang))
    notes = [note.replace(" ", NBSP) for note in notes]  # "[default: table]" is never broken over lines
    if param.param_type_name == "argument":
        return _metavar(param, lang), "", " ".join([text, *notes]).strip()
    names = ", ".join(sorted(param.opts, key=lambda o: (o.startswith("--"), o)) + list(param.secondary_opts))
    return names, _metavar(param, lang), " ".join([text, *notes]).strip()


def usage_line(command, ctx, lang: str) -> str:
    pieces = [ctx.command_path]
    if any(p.param_type_name == "option" and not p.hidden for p in command.get_params(ctx)):
        pieces.append(_t("help.usage.options", lang))
    for param in command.get_params(ctx):
        if param.param_type_name == "argument" and not getattr(param, "hidden", False):
            pieces.append(_metavar(param, lang))
    if isinstance(command, TyperGroup):
        pieces.append(_t("help.usage.command", lang))
    return " ".join(pieces)


def _section(title: str, rows: list[tuple[str, str, str]], width: int, style: _Style) -> list[str]:
    """A heading, then a row per entry: its names (and metavar) in a column, the help wrapped beside them."""
    out = [style.heading(f"{title}:")]
    terms = [(name + (" " + metavar if metavar else ""), name, metavar, text) for name, metavar, text in rows]
    column = min(max(display_width(term) for term, *_ in terms), max(12, width // 3))
    text_width = width - 2 - column - 2
    for term, name, metavar, text in terms:
        painted = style.name(name) + (" " + style.metavar(metavar) if metavar else "")
        lines = wrap(text, text_width) if text else [""]
        if display_width(term) > column:  # too long for the column: the help starts on the next line
            out.append("  " + painted)
            out.extend(" " * (column + 4) + line for line in lines)
            continue
        out.append("  " + painted + " " * (column - display_width(term) + 2) + lines[0])
        out.extend(" " * (column + 4) + line for line in lines[1:])
    return out


def write_help(command, ctx, lang: str) -> str:
    """The whole of a command's (or the group's) help, laid out for the terminal it goes to."""
    width = help_width()
    style = _Style(colour_wanted())
    out = [style.heading(_t("help.usage", lang)) + " " + usage_line(command, ctx, lang), ""]
    if command.help:
        out += ["  " + line for line in wrap(command.help, width - 2)] + [""]
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [_param_row(p, lang) for p in params if p.param_type_name == "argument"]
    options = [_param_row(p, lang) for p in params if p.param_type_name == "option"]
    for title, rows in (("help.panel.arguments", arguments), ("help.panel.options", options)):
        if rows:
            out += _section(_t(title, lang), rows, width, style) + [""]
    if isinstance(command, TyperGroup):
        rows = []
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                rows.append((name, "", sub.help or ""))
        if rows:
            out += _section(_t("help.panel.commands", lang), rows, width, style) + [""]
    return "\n".join(line.rstrip() for line in out).rstrip("\n") + "\n"


# --- click's usage errors in the catalogue's words ------------------------------------------

# click's English sentences (a ClickException holds only its text), each the key that says it again
_SENTENCES = [
    (r"No such command '(?P<name>.*)'\.(?: Did you mean (?P<matches>.*)\?)?", "click.no_such_command"),
    (r"Missing command\.", "click.missing_command"),
    (r"Got unexpected extra argument(?:\(s\)|s)? \((?P<args>.*)\)", "click.extra_arguments"),
    (r"Option '(?P<name>.*)' requires an argument\.", "click.needs_value"),
    (r"Option '(?P<name>.*)' requires (?P<count>\d+) arguments\.", "click.needs_values"),
    (r"Option '(?P<name>.*)' does not take a value\.", "click.takes_no_value"),
    (r"Argument '(?P<name>.*)' takes (?P<count>\d+) values\.", "click.argument_values"),
]
# why a value is invalid, as click's types say it
_DETAILS = [
    (r"(?P<value>.*) is not one of (?P<choices>.*)\.", "click.not_one_of"),
    (r"(?P<value>.*) is not (?P<choices>'[^']*')\.", "click.not_one_of"),
    (r"(?P<value>.*) is not a valid int(?:eger)?(?: range)?\.", "click.not_integer"),
    (r"(?P<value>.*) is not a valid float(?: range)?\.", "click.not_number"),
    (r"(?P<value>.*) is not in the range .*\.", "click.out_of_range"),
    (r"\w+ (?P<value>.*) does not exist\.", "click.path_missing"),
    (r"\w+ (?P<value>.*) is a file\.", "click.path_is_file"),
    (r"\w+ (?P<value>.*) is a directory\.", "click.path_is_directory"),
    (r"\w+ (?P<value>.*) is not readable\.", "click.path_unreadable"),
    (r"\w+ (?P<value>.*) is not writable\.", "click.path_unwritable"),
]


# a parameter's kind in help, by its click type's name (a range is its number's kind)
_KINDS = {"int": "integer", "int range": "integer", "float": "number", "float range": "number", "filename": "path"}


def _said_again(text: str, table, lang: str, **extra) -> str | None:
    """``text``, one of click's sentences in ``table``, said in ``lang``; None for one it does not hold."""
    for pattern, key in table:
        found = re.fullmatch(pattern, text.strip(), flags=re.S)
        if found:
            return _t(key, lang, **{k: v or "" for k, v in found.groupdict().items()}, **extra)
    return None


def _did_you_mean(names: Sequence[str], lang: str) -> str:
    return " " + _t("click.did_you_mean", lang, names=", ".join(names)) if names else ""


def usage_message(error, lang: str) -> str:
    """The sentence of one of click's usage errors, in ``lang``."""
    ctx = getattr(error, "ctx", None)
    if hasattr(error, "possibilities"):  # click's NoSuchOption
        names = sorted(error.possibilities or ())
        if not names and ctx is not None:
            known = [o for p in ctx.command.get_params(ctx) for o in (*p.opts, *p.secondary_opts) if o.startswith("--")]
            names = get_close_matches(error.option_name, known) if error.option_name.startswith("--") else []
        return _t("click.no_such_option", lang, name=error.option_name) + _did_you_mean(names, lang)
    if hasattr(error, "param_type"):  # click's MissingParameter (a BadParameter)
        param = error.param
        name = param.get_error_hint(ctx) if param is not None else ""
        kind = error.param_type or (param.param_type_name if param is not None else "parameter")
        sentence = _t("click.missing_option" if kind == "option" else "click.missing_argument", lang, name=name)
        choices = getattr(getattr(param, "type", None), "choices", None)
        if choices:
            sentence += " " + _t("click.choose_from", lang, choices=", ".join(str(getattr(c, "value", c)) for c in choices))
        return sentence
    if isinstance(error, typer.BadParameter):
        param = error.param
        detail = _said_again(error.message, _DETAILS, lang, range=(_range(param, lang, exact=True) or "") if param else "") or error.message
        if error.param_hint is not None:
            hint = error.param_hint if isinstance(error.param_hint, str) else " / ".join(repr(x) for x in error.param_hint)
        elif param is not None:
            hint = param.get_error_hint(ctx)  # type: ignore[arg-type]  # click's hint reads the parameter's names only, never ctx (None from the parser)
        else:
            return _t("click.invalid_value_bare", lang, detail=detail)
        return _t("click.invalid_value", lang, name=hint, detail=detail)
    text = error.format_message().strip()
    for pattern, key in _SENTENCES:
        found = re.fullmatch(pattern, text, flags=re.S)
        if found:
            fields = {k: v or "" for k, v in found.groupdict().items()}
            matches = [m.strip(" '") for m in fields.pop("matches", "").split(",") if m.strip(" '")]
            return _t(key, lang, **fields) + _did_you_mean(matches, lang)
    return text


class LocalUsageError(typer.BadParameter):
    """One of click's usage errors, shown from the catalogue: the usage line, where to find
    help, and the sentence (exit status 2, as click's). A BadParameter: the one usage error
    typer exports, which its ``main`` shows and exits with as any other."""

    def __init__(self, error, lang: str) -> None:
        super().__init__(error.message, getattr(error, "ctx", None))
        self.error, self.lang = error, lang
        self.exit_code = error.exit_code

    def format_message(self) -> str:
        return usage_message(self.error, self.lang)

    def show(self, file=None) -> None:
        file = sys.stderr if file is None else file
        lines = []
        ctx = self.ctx
        if ctx is not None:
            lines.append(_t("help.usage", self.lang) + " " + usage_line(ctx.command, ctx, self.lang))
            if ctx.command.get_help_option(ctx) is not None:
                lines.append(_t("click.try_help", self.lang, command=ctx.command_path))
            lines.append("")
        lines.append(_t("cli.error", self.lang, message=self.format_message()))
        try:
            file.write("\n".join(lines) + "\n")
            file.flush()
        except (OSError, ValueError):
            pass


def _localised(error, lang: str):
    if isinstance(error, LocalUsageError) or _is_no_args_help(error) or not is_usage_error(error):
        return error
    return LocalUsageError(error, lang)


if TYPE_CHECKING:  # what the mixin is mixed into: its methods go on to typer's through super()
    _Command = TyperCommand
else:
    _Command = object


class _Localised(_Command):
    """Mixed into typer's command and group classes: help texts resolved per language."""

    lang: str

    def _own_key(self) -> str:
        return f"help.cmd.{self.name}"

    def localise(self, lang: str) -> None:
        if not hasattr(self, "_help_keys"):
            self._help_key = self._own_key() if has(self._own_key()) else self.help
            self._help_keys = {id(p): p.help for p in self.params if isinstance(p, (TyperOption, TyperArgument))}  # (every one)
        self.lang = lang
        self.help = _text(self._help_key, lang)
        self.short_help = None
        for param in self.params:
            if isinstance(param, (TyperOption, TyperArgument)):  # (typer makes every parameter one of these)
                param.help = _text(self._help_keys.get(id(param), param.help), lang)

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        # the language as this run resolves it: --lang if given, else the environment now
        chosen = lang_in(args)
        lang = resolve_lang(chosen if chosen is not None and chosen.strip().lower() in ("ko", "en") else None)
        self.localise(lang)
        for command in getattr(self, "commands", {}).values():  # a group lists its commands' help
            if isinstance(command, _Localised):
                command.localise(lang)
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as error:
            if not is_usage_error(error):
                raise
            if error.ctx is None:  # click's parser says what is wrong but not where: this command
                error.ctx, error.cmd = ctx, self
            raise _localised(error, lang) from None

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except typer.TyperException as error:
            if not is_usage_error(error):
                raise
            raise _localised(error, getattr(self, "lang", resolve_lang())) from None

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _t("help.help", self.lang)
        return option

    def format_help(self, ctx, formatter) -> None:
        formatter.write(write_help(self, ctx, self.lang))


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

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as error:
            if not is_usage_error(error):
                raise
            raise _localised(error, self.lang) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except typer.TyperException as error:  # "Missing command."; a command's own are said already
            if not is_usage_error(error):
                raise
            raise _localised(error, self.lang) from None


class LocalTyper(typer.Typer):
    """A Typer whose commands are :class:`LocalCommand` unless told otherwise, and whose help
    and usage errors are ours (typer's rich help is off)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("rich_markup_mode", None)
        super().__init__(*args, **kwargs)

    def command(self, *args, **kwargs):
        kwargs.setdefault("cls", LocalCommand)
        return super().command(*args, **kwargs)
