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
from attn_tutor.model import (
    DECIMALS_MAX,
    DIM_MAX,
    QUIZ_TOKENS_MAX,
    QUIZ_TOKENS_MIN,
    SEED_MAX,
    SHEET_SEED_MAX,
    TOKENS_MAX,
    VARIANTS_MAX,
    FollowThrough,
    Stage,
)


def _new_app() -> typer.Typer:
    return typer.Typer(
        name="attn-tutor",
        help="A tutor and grader for computing scaled dot-product attention by hand.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


app = _new_app()


class SolveFormat(str, Enum):
    table = "table"
    json = "json"
    markdown = "markdown"


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
        Optional[int], typer.Option("--decimals", min=0, max=DECIMALS_MAX, help="Decimal places (default: the problem's).")
    ] = None,
    format: Annotated[SolveFormat, typer.Option("--format", "-f", help="How to print the solution.")] = SolveFormat.table,
    variant: Annotated[
        Optional[int],
        typer.Option(
            "--variant",
            min=0,
            max=2**63 - 1,
            help="Solve the variant with this number (as printed on a worksheet), regenerated as grade does.",
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Show every stage of each problem worked out: scores, scaling, softmax, output."""
    from attn_tutor import engine
    from attn_tutor.problem_load import load_problem_set

    language = resolve_lang(lang)
    problem_set = load_problem_set(file)
    if variant is not None:
        from attn_tutor.generate import regenerate

        problem_set = regenerate(problem_set, variant)
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
    if problem_set.title or variant is not None:
        title = problem_set.title or problem_set.name or problem_set.source
        if variant is not None:
            title = t("solve.variant_title", language, title=title, variant=variant)
        blocks.append(Heading(title, level=1))
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
    from attn_tutor.problem_load import validate_path

    language = resolve_lang(lang)
    from attn_tutor.render import terminal

    bad = 0
    for path in files:
        findings = validate_path(path)
        if findings:
            bad += 1
            key = "validate.invalid_one" if len(findings) == 1 else "validate.invalid"
            terminal.plain(t(key, language, path=str(path), count=len(findings)))
            for finding in findings:
                terminal.plain("  " + finding.text(language))
        else:
            terminal.plain(t("validate.valid", language, path=str(path)))
            from attn_tutor import tolerance
            from attn_tutor.problem_load import load_path

            for warning in tolerance.warnings(load_path(path)):
                terminal.plain("  " + t("validate.warning", language, message=warning.text(language)))
    if bad:
        raise typer.Exit(1)


# --- quiz command ---------------------------------------------------------------------


def _stdin_reader():
    """read_line for the quiz: input() on a terminal (line editing), else one line of stdin, echoed."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            import readline  # noqa: F401  (gives input() line editing and history)
        except ImportError:
            pass

        def read_tty(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                sys.stdout.write("\n")
                return None

        return read_tty

    def read_pipe(prompt: str) -> str | None:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            return None
        sys.stdout.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
        return line.rstrip("\r\n")

    return read_pipe


@app.command()
@guarded
def quiz(
    file: Annotated[
        Optional[str], typer.Argument(help="A problem-set YAML file, or a packaged set's name (default: ch13).")
    ] = None,
    problem: Annotated[Optional[str], typer.Option("--problem", "-p", help="Only the problem with this id.")] = None,
    row: Annotated[Optional[str], typer.Option("--row", "-r", help="Only this query token's row.")] = None,
    random: Annotated[bool, typer.Option("--random", help="A fresh practice problem made from a seed.")] = False,
    tokens: Annotated[
        Optional[int], typer.Option("--tokens", min=QUIZ_TOKENS_MIN, max=QUIZ_TOKENS_MAX, help="With --random: how many tokens (default 3).")
    ] = None,
    dim: Annotated[Optional[int], typer.Option("--dim", min=1, max=DIM_MAX, help="With --random: d_k (default 2).")] = None,
    seed: Annotated[
        Optional[int], typer.Option("--seed", min=0, max=SEED_MAX, help="With --random: the seed (default: a new one, shown).")
    ] = None,
    exam: Annotated[
        bool, typer.Option("--exam", help="Exam mode: no feedback until the end; errors carried forward.")
    ] = False,
    follow_through: Annotated[
        FollowThrough,
        typer.Option("--follow-through", help="Credit for a cell right from the student's own earlier numbers."),
    ] = FollowThrough.full,
    report: Annotated[
        Optional[Path], typer.Option("--report", help="Write the marks as JSON to this file.")
    ] = None,
    student: Annotated[Optional[str], typer.Option("--student", help="The student's name, for the report.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the --report file if it exists.")] = False,
    lang: LangOption = None,
) -> None:
    """Practise or sit an exam: type each stage of a row, get it marked cell by cell."""
    from attn_tutor import quiz as quiz_loop
    from attn_tutor.document import Math
    from attn_tutor.render import terminal

    language = resolve_lang(lang)
    if not random and (tokens is not None or dim is not None or seed is not None):
        raise UsageError("quiz.random_only")
    if random and (file is not None or problem is not None):
        raise UsageError("quiz.random_and_file")
    if report is not None:
        quiz_loop.check_report_path(report, force=force)
    intro = []
    if random:
        import os

        from attn_tutor.generate import random_problem

        chosen_seed = seed if seed is not None else int.from_bytes(os.urandom(8), "big") & SEED_MAX
        n_tokens, d = tokens if tokens is not None else 3, dim if dim is not None else 2
        chosen = [random_problem(chosen_seed, tokens=n_tokens, dim=d)]
        set_name = "random"
        replay = f"attn-tutor quiz --random --tokens {n_tokens} --dim {d} --seed {chosen_seed}"
        intro.append(Math(("  " + replay,), title=t("quiz.seed", language, seed=chosen_seed)))
    else:
        from attn_tutor.problem_load import load_problem_set

        chosen_seed = None
        problem_set = load_problem_set(file)
        chosen = pick_problems(problem_set, problem)
        set_name = problem_set.name or problem_set.source
    if row is not None and len(chosen) == 1:
        pick_row(chosen[0], row)  # a sentence naming the tokens there are
    plans = quiz_loop.plan(chosen, row)
    if not plans:
        raise UsageError("cli.row_in_no_problem", row=row, source=set_name)
    config = quiz_loop.QuizConfig(
        plans=plans,
        problem_set=set_name,
        mode="exam" if exam else "practice",
        follow_through=follow_through.value,
        student=student,
        seed=chosen_seed,
        lang=language,
    )

    def show(blocks) -> None:
        if isinstance(blocks, str):
            terminal.plain(blocks)
        else:
            terminal.draw(blocks)

    if intro:
        show(intro)
    outcome = quiz_loop.run(config, _stdin_reader(), show)
    if report is not None:
        quiz_loop.write_report(outcome.report, report)
        show(t("quiz.report_written", language, path=str(report)))
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)


# --- grade command --------------------------------------------------------------------


def _check_outputs(outputs: list[Path], force: bool) -> None:
    """Before any work: outputs are distinct files, new unless --force."""
    import os

    from attn_tutor.files import refuse_overwrite

    if len(outputs) == 2 and os.path.realpath(outputs[0]) == os.path.realpath(outputs[1]):
        raise UsageError("grade.same_output", path=str(outputs[0]))
    for out in outputs:
        refuse_overwrite(out, force)


@app.command()
@guarded
def grade(
    paths: Annotated[
        list[Path], typer.Argument(help="Answer files (.yaml, .yml, .csv), or directories searched for them.")
    ],
    problems: Annotated[
        Optional[str],
        typer.Option("--problems", help="Problem set for every answer (a file or a packaged name); overrides the files'."),
    ] = None,
    csv_out: Annotated[Optional[Path], typer.Option("--csv", help="Write the gradebook to this CSV file.")] = None,
    json_out: Annotated[
        Optional[Path], typer.Option("--json", help="Write every student's full report to this JSON file.")
    ] = None,
    follow_through: Annotated[
        FollowThrough,
        typer.Option("--follow-through", help="Credit for a cell right from the student's own earlier numbers."),
    ] = FollowThrough.full,
    jobs: Annotated[
        Optional[int],
        typer.Option("--jobs", "-j", min=1, help="Worker processes (default: every CPU this process may use)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output files if they exist.")] = False,
    lang: LangOption = None,
) -> None:
    """Mark a whole class's answer files: a gradebook, an item analysis, a score chart."""
    import gc

    gc.enable()  # off for a quick start (see __main__.run); a class can be 10,000 files
    language = resolve_lang(lang)
    outputs = [p for p in (csv_out, json_out) if p is not None]
    _check_outputs(outputs, force)
    for path in paths:
        if not path.exists():
            raise UsageError("grade.no_such_path", path=str(path))
    from attn_tutor import gradebook
    from attn_tutor.files import atomic_file
    from attn_tutor.gradebook.run import grade_class
    from attn_tutor.render import terminal

    files = gradebook.find_answer_files(paths, exclude=outputs)
    if not files:
        raise AttnTutorError("grade.no_files")
    tally = gradebook.Tally(follow_through)
    writer = gradebook.GradebookWriter(tally, csv_file=csv_out is not None, json_file=json_out is not None)

    def on_row(row) -> None:
        for message in row.errors:
            terminal.error(t("cli.error", language, message=message))
        writer.add(row)

    written = []
    try:
        with terminal.progress(len(files), t("grade.progress", language)) as progress:
            grade_class(
                files, tally, problems=problems, follow_through=follow_through, lang=language,
                with_json=json_out is not None, jobs=jobs, on_row=on_row, progress=progress,
            )  # fmt: skip
        for out, write, key in ((csv_out, writer.write_csv, "grade.written"), (json_out, writer.write_json, "grade.json_written")):
            if out is not None:
                with atomic_file(out) as stream:
                    write(stream)
                written.append(t(key, language, path=str(out)))
    finally:
        writer.close()
    terminal.draw(gradebook.summary_blocks(tally, language))
    failed, total = tally.failed, tally.total
    if failed:
        terminal.plain(t("grade.summary", language, marked=tally.marked, total=total, failed=failed))
    else:
        terminal.plain(t("grade.all_marked", language, total=total))
    for line in written:
        terminal.plain(line)
    if failed:
        raise typer.Exit(1)


# --- export and generate commands -----------------------------------------------------


class ExportFormat(str, Enum):
    html = "html"
    md = "md"
    tex = "tex"


_SUFFIX_FORMATS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md", ".tex": "tex"}

OutputOption = Annotated[
    Optional[Path], typer.Option("--output", "-o", help="Write to this file (default: standard output).")
]
ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite the output file if it exists.")]


def _to_stdout(path: Path | None) -> bool:
    return path is None or str(path) == "-"


def _check_output(path: Path | None, force: bool) -> None:
    """Before any work: -o names a new file (or --force), unless it is standard output."""
    if not _to_stdout(path):
        from attn_tutor.files import refuse_overwrite

        refuse_overwrite(path, force)


def _write_output(path: Path | None, text: str) -> None:
    """Standard output (no -o, or -o -), or the whole file or nothing."""
    if _to_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from attn_tutor.files import write_atomic

    write_atomic(path, text)


@app.command()
@guarded
def export(
    file: Annotated[
        Optional[str], typer.Argument(help="A problem-set YAML file, or a packaged set's name (default: ch13).")
    ] = None,
    format: Annotated[
        Optional[ExportFormat],
        typer.Option("--format", "-f", help="html, md or tex (default: from the -o suffix, else html)."),
    ] = None,
    output: OutputOption = None,
    answers: Annotated[bool, typer.Option("--answers", help="Add the answer key after the questions.")] = False,
    key_only: Annotated[bool, typer.Option("--key-only", help="Write the answer key alone.")] = False,
    variants: Annotated[
        Optional[int],
        typer.Option("--variants", min=1, max=VARIANTS_MAX, help="Make N versions with new numbers, one per student (needs --seed)."),
    ] = None,
    seed: Annotated[
        Optional[int],
        typer.Option(
            "--seed",
            min=0,
            max=SHEET_SEED_MAX,
            help="Seed of the variants: sheet k prints the variant number S*1000+k, which remakes it. "
            "Alone, it means --variants 1.",
        ),
    ] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="The sheets' title (default: the set's).")] = None,
    force: ForceOption = False,
    lang: LangOption = None,
) -> None:
    """Write a printable worksheet (HTML, Markdown or LaTeX), its answer key, and per-student variants."""
    if answers and key_only:
        raise UsageError("export.answers_and_key_only")
    if variants is not None and seed is None:
        raise UsageError("export.variants_need_seed")
    if seed is not None and variants is None:
        variants = 1
    chosen = format.value if format is not None else None
    if chosen is None:
        chosen = _SUFFIX_FORMATS.get(output.suffix.lower(), "html") if output is not None else "html"
    _check_output(output, force)

    from attn_tutor import worksheet
    from attn_tutor.problem_load import load_problem_set

    language = resolve_lang(lang)
    problem_set = load_problem_set(file)
    sheets = worksheet.make_sheets(problem_set, variants=variants, seed=seed)
    if variants is not None:
        from attn_tutor.render import terminal

        terminal.plain(worksheet.fairness_note(problem_set, sheets, language), stderr=True)
    part = "key" if key_only else "with_answers" if answers else "questions"
    blocks = worksheet.build(sheets, language, part=part, title=title)
    if chosen == "html":
        from attn_tutor.render import html

        text = html.render(blocks, title=worksheet.sheet_title(problem_set, language, title), lang=language)
    elif chosen == "tex":
        from attn_tutor.render import latex

        text = latex.render(blocks)
    else:
        from attn_tutor.render import markdown

        text = markdown.render(blocks)
    _write_output(output, text)


@app.command()
@guarded
def generate(
    tokens: Annotated[int, typer.Option("--tokens", min=1, max=TOKENS_MAX, help="Tokens per problem.")] = 3,
    dim: Annotated[int, typer.Option("--dim", min=1, max=DIM_MAX, help="d_k: the length of each q, k and v.")] = 2,
    count: Annotated[int, typer.Option("--count", min=1, max=VARIANTS_MAX, help="How many problems.")] = 1,
    seed: Annotated[
        Optional[int],
        typer.Option("--seed", min=0, max=SHEET_SEED_MAX, help="The same seed makes the same file (default: a new one, written in the file)."),
    ] = None,
    causal: Annotated[bool, typer.Option("--causal", help="Causal mask: each token sees only itself and earlier ones.")] = False,
    output: OutputOption = None,
    force: ForceOption = False,
    lang: LangOption = None,
) -> None:
    """Write a new problem-set YAML of random, hand-computable problems, commented for editing."""
    _check_output(output, force)
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    from attn_tutor.generate import random_problem
    from attn_tutor.model import ProblemSet
    from attn_tutor.problem_dump import dump_problem_set
    from attn_tutor.worksheet import variant_seed

    language = resolve_lang(lang)
    problems = tuple(
        random_problem(variant_seed(seed, k), tokens=tokens, dim=dim, causal=causal) for k in range(1, count + 1)
    )
    options = f"--tokens {tokens} --dim {dim} --count {count} --seed {seed}" + (" --causal" if causal else "")
    options += f" --lang {language}"
    header = "\n".join(
        (
            t("generate.comment.made", language, options=options),
            t("generate.comment.edit", language),
            t("generate.comment.check", language),
        )
    )
    problem_set = ProblemSet(problems, title=t("generate.title", language, seed=seed))
    _write_output(output, dump_problem_set(problem_set, header_comment=header, lang=language))


def main(argv: list[str] | None = None) -> None:
    """The console script's entry point.

    Before running one command Typer resolves the parameters of every command,
    and that was a tenth of `attn-tutor solve`'s start-up. When the first argument
    names a command, run a group holding only that command (with the same
    callback): parsing, help and errors are the same for it. Anything else
    (`--help`, a mistyped command) goes to the full app.
    """
    args = sys.argv[1:] if argv is None else argv
    target = app
    chosen = [info for info in app.registered_commands if args and args[0] == (info.name or info.callback.__name__)]
    if chosen:
        target = _new_app()
        target.registered_callback = app.registered_callback
        target.registered_commands = chosen
    target(args=args, prog_name="attn-tutor")
