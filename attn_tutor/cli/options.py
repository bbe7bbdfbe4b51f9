"""What the commands of :mod:`attn_tutor.cli.app` share: the common options, the error guard,
choosing problems and rows, and the random practice problem.

Like the rest of cli it imports no numpy, yaml or rich at module level: ``--help`` stays fast.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Annotated, Optional

import typer

from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.i18n import known_lang, reset_language, resolve_lang, set_language, speaking, t
from attn_tutor.core.model import TEXT_MAX, FollowThrough
from attn_tutor.core.stdout import OutputFailed, guarded_stdout
from attn_tutor.core.stopping import exit_status, signals_as_interrupt
from attn_tutor.core.text import first_unsafe

SetArgument = Annotated[Optional[str], typer.Argument(help="help.set")]
ProblemOption = Annotated[Optional[str], typer.Option("--problem", "-p", help="help.problem")]
RowOption = Annotated[Optional[str], typer.Option("--row", "-r", help="help.row")]
FollowThroughOption = Annotated[FollowThrough, typer.Option("--follow-through", help="help.follow_through")]


def check_lang(value: str | None) -> None:
    if value is not None and not known_lang(value):
        raise UsageError("cli.bad_lang", lang=value)


def _say(message: str) -> None:
    """One line on standard error; a standard error that is gone too (a closed terminal) is let be."""

    from attn_tutor.render.terminal import error as show_error  # here: --help and --version start without the renderer

    try:
        show_error(message)
    except (OSError, ValueError, AttributeError):  # AttributeError: no standard error at all (2>&-)
        pass


def guarded(command):
    """Turn domain errors into a sentence and an exit status; never a traceback.

    The command, and all it calls, speaks the language ``--lang`` (or the environment) chose
    (:func:`attn_tutor.core.i18n.set_language`): the one place a command's language is set.

    SIGTERM and SIGHUP are handled as Ctrl-C is (:mod:`attn_tutor.core.stopping`), and
    standard output failures become a sentence too (:mod:`attn_tutor.core.stdout`).
    """

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        said = resolve_lang(kwargs.get("lang") if kwargs.get("lang") in ("ko", "en") else None)  # the guard's own sentences
        guard = None
        token = set_language(resolve_lang(kwargs.get("lang")))  # the command's language, for all it calls
        try:
            with signals_as_interrupt(), guarded_stdout() as guard:
                check_lang(kwargs.get("lang"))
                return command(*args, **kwargs)
        except AttnTutorError as error:
            with speaking(said):
                for message in error.messages():
                    _say(t("cli.error", message=message))
            raise typer.Exit(error.exit_code) from None
        except KeyboardInterrupt as interrupt:
            with speaking(said):
                _say(t("cli.interrupted"))
            raise typer.Exit(exit_status(interrupt)) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None
        except typer.Exit as done:  # the command's own status; a failed standard output is said as well
            if guard is not None and guard.error is not None:
                with speaking(said):
                    for message in OutputFailed(guard.error).messages():
                        _say(t("cli.error", message=message))
                raise typer.Exit(done.exit_code or 1) from None
            raise
        finally:
            reset_language(token)

    return wrapper


def pick_problems(problem_set, problem_id: str | None):
    if problem_id is None:
        return list(problem_set.problems)
    if problem_id not in problem_set.ids:
        raise AttnTutorError("cli.no_such_problem", id=problem_id, source=problem_set.source, ids=", ".join(problem_set.ids))
    return [problem_set.get(problem_id)]


def pick_row(problem, token: str | None) -> list[int] | None:
    if token is None:
        return None
    if problem.kind != "attention":
        raise AttnTutorError("cli.no_rows", problem=problem.id, row=token)
    if token not in problem.tokens:
        raise AttnTutorError("cli.no_such_row", problem=problem.id, row=token, tokens=", ".join(problem.tokens))
    return [problem.row_index(token)]


def checked_text(option: str, value: str | None) -> str | None:
    """Text typed in an option, refused (exit status 2) if it holds a control or invisible character:
    it would make ill-formed XML in a bank, garble a terminal, or hide in a title. A byte that is not
    UTF-8 arrives as a lone surrogate, which is refused the same way."""
    if value is None:
        return None
    at = first_unsafe(value)
    if at is not None:
        raise UsageError("cli.option_unsafe_character", option=option, char=f"U+{ord(value[at]):04X}", position=at + 1)
    return value


def checked_title(option: str, value: str | None) -> str | None:
    """A title typed in an option, held to the rules of a title in a problem set: no control or
    invisible character (:func:`checked_text`), not blank (an empty title is no title: the teacher
    meant one, so it is refused rather than silently replaced by the set's), at most ``TEXT_MAX``
    characters (a bank's category and quiz names are limited), NFC-normalised as the file's text is."""
    value = checked_text(option, value)
    if value is None:
        return None
    if not value.strip():
        raise UsageError("cli.option_blank", option=option)
    if len(value) > TEXT_MAX:
        raise UsageError("cli.option_too_long", option=option, count=len(value), limit=TEXT_MAX)
    return unicodedata.normalize("NFC", value)
