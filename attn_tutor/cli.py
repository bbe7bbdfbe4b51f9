"""The command line: parse options, call the core, render. Nothing else lives here.

numpy, yaml and rich are imported inside the commands that need them, so
``attn-tutor --help`` and ``--version`` start fast. Every :class:`AttnTutorError`
becomes one sentence on standard error and exit status 1 (2 for usage).

The commands' helpers live in sibling modules: :mod:`attn_tutor.cli_common` (the shared
options, the error guard, choosing problems, the random problem), :mod:`attn_tutor.cli_solve`,
:mod:`attn_tutor.cli_quiz`, :mod:`attn_tutor.cli_grade` and :mod:`attn_tutor.cli_export`.
Every command is still registered here, on :data:`app`.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn_tutor import __version__
from attn_tutor.cli_common import (
    CausalOption,
    DimOption,
    LangOption,
    RandomOption,
    SeedOption,
    SetArgument,
    TokensOption,
    _check_lang,
    _check_random,
    _random_problem,
    guarded,
    pick_problems,
    pick_row,
)
from attn_tutor.cli_export import (
    _BANKS,
    ExportFormat,
    ForceOption,
    OutputOption,
    Paper,
    _check_output,
    _choose_format,
    _render_bank,
    _render_sheet,
    _write_output,
)
from attn_tutor.cli_grade import CsvLayout, FeedbackFormat, _check_outputs, _say_repeated, _say_summary, _write_outputs
from attn_tutor.cli_help import LocalGroup, LocalTyper
from attn_tutor.cli_quiz import _stdin_reader
from attn_tutor.cli_solve import _overview, _plans, _solution_document
from attn_tutor.errors import AttnTutorError, UsageError
from attn_tutor.i18n import resolve_lang, t
from attn_tutor.model import (
    DECIMALS_MAX,
    DIM_MAX,
    MAX_PROBLEMS,
    SEED_MAX,
    SHEET_SEED_MAX,
    STAGE_ALIASES,
    STAGES,
    TOKENS_MAX,
    VARIANTS_MAX,
    FollowThrough,
    stage_name,
)

# Help texts are catalogue keys ("help.…" in attn_tutor/i18n.py), shown in the user's
# language by attn_tutor.cli_help; a command's help is the key help.cmd.<name>.


def _new_app() -> typer.Typer:
    return LocalTyper(
        name="attn-tutor",
        cls=LocalGroup,
        help="help.app",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


app = _new_app()


class SolveFormat(StrEnum):
    table = "table"
    json = "json"
    markdown = "markdown"


StageChoice = StrEnum("StageChoice", {name: name for name in (*STAGES, *STAGE_ALIASES)})
"""What ``--stage`` accepts: a stage's name, or another name for it (softmax: the weights)."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"attn-tutor {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="help.version")
    ] = False,
    lang: LangOption = None,
) -> None:
    """A tutor and grader for computing scaled dot-product attention by hand."""
    if lang is not None:  # `attn-tutor --lang ko solve`: the command after it speaks that language too
        import os

        try:
            _check_lang(lang)
        except UsageError as error:
            sys.stderr.write(t("cli.error", "en", message=error.messages("en")[0]) + "\n")
            raise typer.Exit(2) from None
        os.environ["ATTN_TUTOR_LANG"] = lang.strip().lower()



@app.command()
@guarded
def solve(
    file: SetArgument = None,
    problem: Annotated[Optional[str], typer.Option("--problem", "-p", help="help.problem")] = None,
    every: Annotated[bool, typer.Option("--all", "-a", help="help.solve.all")] = False,
    row: Annotated[Optional[str], typer.Option("--row", "-r", help="help.row")] = None,
    stage: Annotated[Optional[StageChoice], typer.Option("--stage", help="help.solve.stage")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="help.solve.explain")] = False,
    decimals: Annotated[Optional[int], typer.Option("--decimals", min=0, max=DECIMALS_MAX, help="help.solve.decimals")] = None,
    format: Annotated[SolveFormat, typer.Option("--format", "-f", help="help.solve.format")] = SolveFormat.table,
    random: RandomOption = False,
    tokens: TokensOption = None,
    dim: DimOption = None,
    seed: SeedOption = None,
    causal: CausalOption = False,
    large: Annotated[bool, typer.Option("--large", help="help.solve.large")] = False,
    variant: Annotated[Optional[int], typer.Option("--variant", min=0, max=SEED_MAX, help="help.solve.variant")] = None,
    lang: LangOption = None,
) -> None:
    """Show every stage of each problem worked out: scores, scaling, softmax, output.

    Over 60 lines because its signature is the option list Typer needs; the checks
    between options come first, then one path each for json, markdown and the terminal.
    (Its --help is the catalogue key help.cmd.solve, not this docstring.)
    """
    from attn_tutor import engine

    language = resolve_lang(lang)
    if large and format is not SolveFormat.json:
        raise UsageError("cli.large_needs_json")
    _check_random(random, file, problem, tokens, dim, seed, causal)
    if random and every:
        raise UsageError("solve.random_and_all")
    if random and variant is not None:
        raise UsageError("solve.random_and_variant")
    last_stage = stage_name(stage) if stage is not None else None
    if random:
        from attn_tutor.model import ProblemSet
        from attn_tutor.render import terminal

        made, chosen_seed, replay = _random_problem("solve", seed, tokens, dim, causal)
        problem_set = ProblemSet((made,), source="random")
        terminal.plain(t("solve.seed", language, seed=chosen_seed, command=replay), stderr=True)
    else:
        from attn_tutor.model import HAND_SIZED, LARGE
        from attn_tutor.problem_load import load_problem_set

        problem_set = load_problem_set(file, LARGE if large else HAND_SIZED)
        if variant is not None:
            from attn_tutor.generate import regenerate

            problem_set = regenerate(problem_set, variant)  # exactly as grade remakes a sheet
    chosen = pick_problems(problem_set, problem)
    # In a terminal, a set's first problem, then how to see the others; files and programs get every problem.
    overview = format is SolveFormat.table and problem is None and row is None and not every and len(chosen) > 1
    if overview:
        chosen = chosen[:1]
    plans = _plans(chosen, row, last_stage, problem_set.source)
    if format is SolveFormat.json:
        from attn_tutor.render import jsonout

        for chunk in jsonout.chunks(engine.solve(item) for item, _ in plans):  # each problem as it is solved
            sys.stdout.write(chunk)
        return
    solutions = [(engine.solve(item), rows) for item, rows in plans]
    blocks = _solution_document(problem_set, solutions, language, variant, decimals=decimals, last_stage=last_stage, explain=explain)
    if overview:
        blocks.append(_overview(problem_set, file, chosen[0], language, variant))
    if format is SolveFormat.markdown:
        from attn_tutor.render import markdown

        sys.stdout.write(markdown.render(blocks))
    else:
        from attn_tutor.render import terminal

        terminal.draw(blocks)


class ListFormat(StrEnum):
    table = "table"
    json = "json"


@app.command(name="list")
@guarded
def list_problems(
    file: SetArgument = None,
    format: Annotated[ListFormat, typer.Option("--format", "-f", help="help.list.format")] = ListFormat.table,
    lang: LangOption = None,
) -> None:
    """List a problem set's problems: id, title, tokens, d_k, the rows and stages asked."""
    from attn_tutor.problem_load import load_problem_set
    from attn_tutor.set_list import list_blocks, list_json

    language = resolve_lang(lang)
    problem_set = load_problem_set(file)
    if format is ListFormat.json:
        sys.stdout.write(list_json(problem_set))
        return
    from attn_tutor.render import terminal

    terminal.draw(list_blocks(problem_set, language, file))


@app.command()
@guarded
def show(
    name: Annotated[str, typer.Argument(help="help.show.name")] = "ch13",
    lang: LangOption = None,
) -> None:
    """Print a packaged problem set's YAML, comments and all, to copy and edit."""
    from attn_tutor.problem_load import packaged_path, packaged_sets

    names = packaged_sets()
    if name not in names:
        raise AttnTutorError("show.no_such_set", name=name, sets=", ".join(names) or "-")
    data = packaged_path(name).read_bytes()
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


@app.command()
@guarded
def validate(
    files: Annotated[list[str], typer.Argument(help="help.validate.files")],
    lang: LangOption = None,
) -> None:
    """Check problem-set files without solving them; list every error found."""
    from attn_tutor.errors import InvalidProblemSet
    from attn_tutor.problem_load import load_problem_set

    language = resolve_lang(lang)
    from attn_tutor.render import terminal

    bad = 0
    for path in files:
        loaded = None
        try:  # a file, or a packaged set's name, as every other command takes
            loaded = load_problem_set(path)
            findings = []
        except InvalidProblemSet as error:
            findings = list(error.problems)
        if findings:
            bad += 1
            key = "validate.invalid_one" if len(findings) == 1 else "validate.invalid"
            terminal.plain(t(key, language, path=str(path), count=len(findings)))
            for finding in findings:
                terminal.plain("  " + finding.text(language))
        else:
            terminal.plain(t("validate.valid", language, path=str(path)))
            from attn_tutor import tolerance

            for warning in tolerance.warnings(loaded):
                terminal.plain("  " + t("validate.warning", language, message=warning.text(language)))
    if bad:
        raise typer.Exit(1)


@app.command()
@guarded
def quiz(
    file: SetArgument = None,
    problem: Annotated[Optional[str], typer.Option("--problem", "-p", help="help.problem")] = None,
    row: Annotated[Optional[str], typer.Option("--row", "-r", help="help.row")] = None,
    random: RandomOption = False,
    tokens: TokensOption = None,
    dim: DimOption = None,
    seed: SeedOption = None,
    causal: CausalOption = False,
    exam: Annotated[bool, typer.Option("--exam", help="help.quiz.exam")] = False,
    follow_through: Annotated[
        FollowThrough, typer.Option("--follow-through", help="help.follow_through")
    ] = FollowThrough.full,
    report: Annotated[Optional[Path], typer.Option("--report", help="help.quiz.report")] = None,
    student: Annotated[Optional[str], typer.Option("--student", help="help.quiz.student")] = None,
    force: Annotated[bool, typer.Option("--force", help="help.quiz.force")] = False,
    lang: LangOption = None,
) -> None:
    """Practise or sit an exam: type each stage of a row, get it marked cell by cell.

    Over 60 lines because its signature is the option list Typer needs.
    (Its --help is the catalogue key help.cmd.quiz, not this docstring.)
    """
    from attn_tutor import quiz as quiz_loop
    from attn_tutor.document import Math
    from attn_tutor.render import terminal

    language = resolve_lang(lang)
    _check_random(random, file, problem, tokens, dim, seed, causal)
    if report is not None:
        quiz_loop.check_report_path(report, force=force, inputs=[Path(file)] if file is not None and Path(file).exists() else [])
    intro = []
    if random:
        made, chosen_seed, replay = _random_problem("quiz", seed, tokens, dim, causal)
        chosen = [made]
        set_name = "random"
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
        raise AttnTutorError("cli.row_in_no_problem", row=row, source=set_name)
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
    save = quiz_loop.ReportFile(report, force=force) if report is not None else None
    outcome = quiz_loop.run(config, _stdin_reader(), show, save)
    if outcome.save_error is not None:
        raise outcome.save_error
    if report is not None:
        show(t("quiz.report_written", language, path=str(report)))
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)


@app.command()
@guarded
def grade(
    paths: Annotated[list[Path], typer.Argument(help="help.grade.paths")],
    problems: Annotated[Optional[str], typer.Option("--problems", help="help.grade.problems")] = None,
    csv_out: Annotated[Optional[Path], typer.Option("--csv", help="help.grade.csv")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="help.grade.json")] = None,
    follow_through: Annotated[
        FollowThrough, typer.Option("--follow-through", help="help.follow_through")
    ] = FollowThrough.full,
    roster: Annotated[Optional[Path], typer.Option("--roster", help="help.grade.roster")] = None,
    csv_layout: Annotated[CsvLayout, typer.Option("--csv-layout", help="help.grade.csv_layout")] = CsvLayout.full,
    assignment: Annotated[Optional[str], typer.Option("--assignment", help="help.grade.assignment")] = None,
    out_of: Annotated[Optional[float], typer.Option("--out-of", min=0.01, max=1e6, help="help.grade.out_of")] = None,
    feedback: Annotated[Optional[Path], typer.Option("--feedback", help="help.grade.feedback")] = None,
    feedback_format: Annotated[
        FeedbackFormat, typer.Option("--feedback-format", help="help.grade.feedback_format")
    ] = FeedbackFormat.html,
    class_report: Annotated[Optional[Path], typer.Option("--class-report", help="help.grade.class_report")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="help.grade.jobs")] = None,
    name_column: Annotated[Optional[str], typer.Option("--name-column", help="help.grade.name_column")] = None,
    force: Annotated[bool, typer.Option("--force", help="help.grade.force")] = False,
    lang: LangOption = None,
) -> None:
    """Mark a whole class's answer files: a gradebook, an item analysis, a score chart.

    Over 60 lines because its signature is the option list Typer needs; its body is
    one run: check the outputs, mark every file, write the outputs, say the summary.
    (Its --help is the catalogue key help.cmd.grade, not this docstring.)
    """
    from attn_tutor.grade_extras import Extras

    language = resolve_lang(lang)
    extras = Extras(
        language, csv_out=csv_out, roster_path=roster, layout=csv_layout.value, assignment=assignment, out_of=out_of,
        feedback_dir=feedback, feedback_format=feedback_format.value, class_report=class_report, problems=problems,
        force=force, follow_through=follow_through.value,
    )  # fmt: skip
    options = [(name, p) for name, p in (("--csv", csv_out), ("--json", json_out), *extras.outputs()) if p is not None]
    outputs = [p for _, p in options]
    for path in paths:
        if not path.exists():
            raise AttnTutorError("grade.no_such_path", path=str(path))
    named = [*paths, *([Path(problems)] if problems is not None and Path(problems).exists() else [])]
    named += [roster] if roster is not None and roster.exists() else []  # the roster is an input too
    _check_outputs(outputs, force, named, [name for name, _ in options])
    extras.check(options)
    from attn_tutor import gradebook
    from attn_tutor.gradebook.run import grade_class
    from attn_tutor.render import terminal

    files = gradebook.find_answer_files(paths, exclude=[*outputs, *([roster] if roster else [])])
    if not files:
        raise AttnTutorError("grade.no_files")
    if problems is None:
        from attn_tutor.gradebook.answer_files import csv_without_problem_set

        needs = csv_without_problem_set(files)  # forms know nothing of problem sets: the teacher says which
        if needs is not None:
            raise UsageError("grade.csv_needs_problems", path=needs)
    tally = gradebook.Tally(follow_through)
    writer = gradebook.GradebookWriter(
        tally, csv_file=csv_out is not None and not extras.lms_layout, json_file=json_out is not None, lang=language
    )
    said: set[str] = set()
    refused: list = []  # rows of files refused whole (a FIFO, a device, over a size cap)
    sets: dict[str, list[str]] = {}  # each problem set that marked someone -> who

    def on_row(row) -> None:
        for message in row.errors:
            if message not in said:  # a CSV header's problem touches every row: say it once
                said.add(message)
                terminal.error(t("cli.error", language, message=message))
        if row.refused:
            refused.append(row)
        if row.score is not None:
            sets.setdefault(row.problem_set or "", []).append(row.cells[0] or "—")
        writer.add(row)
        extras.add(row)

    try:
        with terminal.progress(len(files), t("grade.progress", language)) as progress:
            grade_class(
                files, tally, problems=problems, follow_through=follow_through, lang=language,
                with_json=json_out is not None, jobs=jobs, on_row=on_row, progress=progress, name_column=name_column,
            )  # fmt: skip
        repeated = _say_repeated(writer, language)
        written = []
        if not refused:  # a refused file: no gradebook, no LMS file, no sheets, no report
            extras.prepare(tally)  # before the first file is written: every target checked
            for message in extras.errors:
                terminal.error(t("cli.error", language, message=message))
            written = _write_outputs(writer, csv_out, json_out, language, force, extras)
            written += extras.write(tally, files, name_column)
    finally:
        writer.close()
    failed = _say_summary(tally, writer, extras, sets, written, refused, outputs, language)
    if failed or repeated or len(sets) > 1 or extras.unmatched:
        raise typer.Exit(1)


# --- export and generate commands -----------------------------------------------------


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


@app.command()
@guarded
def export(
    file: SetArgument = None,
    format: Annotated[Optional[ExportFormat], typer.Option("--format", "-f", help="help.export.format")] = None,
    output: OutputOption = None,
    answers: Annotated[bool, typer.Option("--answers", help="help.export.answers")] = False,
    key_only: Annotated[bool, typer.Option("--key-only", help="help.export.key_only")] = False,
    key_table: Annotated[bool, typer.Option("--key-table", help="help.export.key_table")] = False,
    paper: Annotated[Optional[Paper], typer.Option("--paper", help="help.export.paper")] = None,
    variants: Annotated[
        Optional[int], typer.Option("--variants", min=1, max=VARIANTS_MAX, help="help.export.variants")
    ] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", min=0, max=SHEET_SEED_MAX, help="help.export.seed")] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="help.export.title")] = None,
    force: ForceOption = False,
    lang: LangOption = None,
) -> None:
    """Write a printable worksheet (HTML, Markdown, LaTeX or PDF), its answer key, per-student variants,
    or a Moodle or Canvas (QTI) question bank that marks itself."""
    if answers and key_only:
        raise UsageError("export.answers_and_key_only")
    if key_table and (answers or key_only):
        raise UsageError("export.key_table_alone")
    if variants is not None and seed is None:
        raise UsageError("export.variants_need_seed")
    if seed is not None and variants is None:
        variants = 1
    chosen = _choose_format(format, output, answers or key_only or key_table, paper, _stdout_is_terminal)
    _check_output(output, force, inputs=(file,))

    from attn_tutor import worksheet
    from attn_tutor.problem_load import load_problem_set

    language = resolve_lang(lang)
    problem_set = load_problem_set(file)
    sheets = worksheet.make_sheets(problem_set, variants=variants, seed=seed)
    if variants is not None:
        from attn_tutor.render import terminal

        terminal.plain(worksheet.fairness_note(problem_set, sheets, language), stderr=True)
    if chosen == "page":
        from attn_tutor import page_data
        from attn_tutor.render import page

        name = page_data.set_name(problem_set, file)
        heading = worksheet.sheet_title(problem_set, language, title)
        data = page_data.page_data(sheets, lang=language, set_name=name, title=heading)
        _write_output(output, page.render(data, title=heading, lang=language), language, force)
        return
    set_title = worksheet.sheet_title(problem_set, language, title)
    if chosen in _BANKS:
        _write_output(output, _render_bank(chosen, sheets, language, set_title), language, force)
        return
    if key_table:
        blocks = worksheet.key_table_blocks(sheets, language, title=title)
    else:
        part = "key" if key_only else "with_answers" if answers else "questions"
        blocks = worksheet.build(sheets, language, part=part, title=title)
    text = _render_sheet(chosen, blocks, set_title, language, (paper or Paper.a4).value)
    _write_output(output, text, language, force)


@app.command()
@guarded
def generate(
    tokens: Annotated[int, typer.Option("--tokens", min=1, max=TOKENS_MAX, help="help.generate.tokens")] = 3,
    dim: Annotated[int, typer.Option("--dim", min=1, max=DIM_MAX, help="help.generate.dim")] = 2,
    count: Annotated[int, typer.Option("--count", min=1, max=MAX_PROBLEMS, help="help.generate.count")] = 1,
    seed: Annotated[Optional[int], typer.Option("--seed", min=0, max=SHEET_SEED_MAX, help="help.generate.seed")] = None,
    causal: Annotated[bool, typer.Option("--causal", help="help.generate.causal")] = False,
    output: OutputOption = None,
    force: ForceOption = False,
    lang: LangOption = None,
) -> None:
    """Write a new problem-set YAML of random, hand-computable problems, commented for editing."""
    _check_output(output, force)
    from attn_tutor.generate import new_seed, practice_problems
    from attn_tutor.model import ProblemSet
    from attn_tutor.problem_dump import dump_problem_set

    if seed is None:
        seed = new_seed()
    language = resolve_lang(lang)
    problems = practice_problems(seed, tokens=tokens, dim=dim, causal=causal, count=count)
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
    _write_output(output, dump_problem_set(problem_set, header_comment=header, lang=language), language, force)


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
