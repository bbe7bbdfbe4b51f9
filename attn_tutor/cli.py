"""The command line: parse options, call the core, render. Nothing else lives here.

numpy, yaml and rich are imported inside the commands that need them, so
``attn-tutor --help`` and ``--version`` start fast. Every :class:`AttnTutorError`
becomes one sentence on standard error and exit status 1 (2 for usage).
"""

from __future__ import annotations

import functools
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn_tutor import __version__
from attn_tutor.errors import AttnTutorError, UsageError
from attn_tutor.i18n import resolve_lang, t

app = typer.Typer(
    name="attn-tutor",
    help="A tutor and grader for computing scaled dot-product attention by hand.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class SolveFormat(str, Enum):
    table = "table"
    json = "json"
    markdown = "markdown"


class Stage(str, Enum):
    scores = "scores"
    scaled = "scaled"
    weights = "weights"
    output = "output"


LangOption = Annotated[
    Optional[str],
    typer.Option("--lang", help="Language of messages: ko or en (default: ATTN_TUTOR_LANG, then LANG)."),
]


def _check_lang(value: str | None) -> None:
    if value is not None and value.strip().lower() not in ("ko", "en"):
        raise UsageError("cli.bad_lang", lang=value)


def guarded(command):
    """Turn domain errors into a sentence and an exit status; never a traceback."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        lang = resolve_lang(kwargs.get("lang") if kwargs.get("lang") in ("ko", "en") else None)
        try:
            _check_lang(kwargs.get("lang"))
            return command(*args, **kwargs)
        except AttnTutorError as error:
            from attn_tutor.render.terminal import error as show_error

            for message in error.messages(lang):
                show_error(t("cli.error", lang, message=message))
            raise typer.Exit(error.exit_code) from None
        except KeyboardInterrupt:
            sys.stderr.write(t("cli.interrupted", lang) + "\n")
            raise typer.Exit(130) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None

    return wrapper


def _version(value: bool) -> None:
    if value:
        typer.echo(f"attn-tutor {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """A tutor and grader for computing scaled dot-product attention by hand."""


def pick_problems(problem_set, problem_id: str | None):
    if problem_id is None:
        return list(problem_set.problems)
    if problem_id not in problem_set.ids:
        raise UsageError("cli.no_such_problem", id=problem_id, source=problem_set.source, ids=", ".join(problem_set.ids))
    return [problem_set.get(problem_id)]


def pick_row(problem, token: str | None) -> list[int] | None:
    if token is None:
        return None
    if token not in problem.tokens:
        raise UsageError("cli.no_such_row", problem=problem.id, row=token, tokens=", ".join(problem.tokens))
    return [problem.row_index(token)]


@app.command()
@guarded
def solve(
    file: Annotated[
        Optional[str], typer.Argument(help="A problem-set YAML file, or a packaged set's name (default: ch13).")
    ] = None,
    problem: Annotated[Optional[str], typer.Option("--problem", "-p", help="Only the problem with this id.")] = None,
    row: Annotated[Optional[str], typer.Option("--row", "-r", help="Only this query token's row.")] = None,
    stage: Annotated[Optional[Stage], typer.Option("--stage", help="Stop after this stage.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Write out each cell's arithmetic.")] = False,
    decimals: Annotated[
        Optional[int], typer.Option("--decimals", min=0, max=10, help="Decimal places (default: the problem's).")
    ] = None,
    format: Annotated[SolveFormat, typer.Option("--format", "-f", help="How to print the solution.")] = SolveFormat.table,
    lang: LangOption = None,
) -> None:
    """Show every stage of each problem worked out: scores, scaling, softmax, output."""
    from attn_tutor import engine
    from attn_tutor.problems import load_problem_set

    language = resolve_lang(lang)
    problem_set = load_problem_set(file)
    chosen = pick_problems(problem_set, problem)
    plans = []
    for item in chosen:
        rows = None
        if row is not None:
            if row not in item.tokens and len(chosen) > 1:
                continue  # --row over several problems: only those that have this token
            rows = pick_row(item, row)
        if stage is not None and stage.value not in item.stages and len(chosen) == 1:
            raise UsageError("cli.no_such_stage", problem=item.id, stage=stage.value)
        plans.append((item, rows))
    if not plans:
        raise UsageError("cli.row_in_no_problem", row=row, source=problem_set.source)
    solutions = [(engine.solve(item), rows) for item, rows in plans]

    if format is SolveFormat.json:
        from attn_tutor.render import jsonout

        sys.stdout.write(jsonout.dumps([s for s, _ in solutions]))
        return
    from attn_tutor.document import Heading
    from attn_tutor.solution_doc import solution_blocks

    blocks = []
    if problem_set.title:
        blocks.append(Heading(problem_set.title, level=1))
    for solution, rows in solutions:
        last = stage.value if stage is not None and stage.value in solution.problem.stages else None
        blocks += solution_blocks(solution, language, decimals=decimals, rows=rows, last_stage=last, explain_rows=explain)
    if format is SolveFormat.markdown:
        from attn_tutor.render import markdown

        sys.stdout.write(markdown.render(blocks))
    else:
        from attn_tutor.render import terminal

        terminal.draw(blocks)


@app.command()
@guarded
def validate(
    files: Annotated[list[Path], typer.Argument(help="Problem-set YAML files to check.")],
    lang: LangOption = None,
) -> None:
    """Check problem-set files without solving them; list every error found."""
    from attn_tutor.problems import validate_path

    language = resolve_lang(lang)
    from attn_tutor.render import terminal

    bad = 0
    for path in files:
        findings = validate_path(path)
        if findings:
            bad += 1
            terminal.plain(t("validate.invalid", language, path=str(path), count=len(findings)))
            for finding in findings:
                terminal.plain("  " + finding.text(language))
        else:
            terminal.plain(t("validate.valid", language, path=str(path)))
    if bad:
        raise typer.Exit(1)


# --- quiz command ---------------------------------------------------------------------

# --- grade command --------------------------------------------------------------------

# --- export and generate commands -----------------------------------------------------


def main() -> None:
    """The console script's entry point."""
    app(prog_name="attn-tutor")
