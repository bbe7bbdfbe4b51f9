"""The quiz command: practise or sit an exam, one stage of a row at a time, marked cell by cell."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import (
    FollowThroughOption,
    ProblemOption,
    RowOption,
    SetArgument,
    guarded,
    pick_problems,
    pick_row,
)
from attn_tutor.cli.random_options import CausalOption, DimOption, RandomOption, SeedOption, TokensOption, check_random, random_problem
from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import t
from attn_tutor.core.model import (
    FollowThrough,
)
from attn_tutor.core.stdout import unguarded
from attn_tutor.problems.load import load_problem_set
from attn_tutor.quiz import loop as quiz_loop
from attn_tutor.render import terminal
from attn_tutor.render.blocks import Math
from attn_tutor.solve.concepts import show_all


@guarded
def quiz(
    file: SetArgument = None,
    problem: ProblemOption = None,
    row: RowOption = None,
    random: RandomOption = False,
    tokens: TokensOption = None,
    dim: DimOption = None,
    seed: SeedOption = None,
    causal: CausalOption = False,
    exam: Annotated[bool, typer.Option("--exam", help="help.quiz.exam")] = False,
    follow_through: FollowThroughOption = FollowThrough.full,
    report: Annotated[Optional[Path], typer.Option("--report", help="help.quiz.report")] = None,
    student: Annotated[Optional[str], typer.Option("--student", help="help.quiz.student")] = None,
    force: Annotated[bool, typer.Option("--force", help="help.quiz.force")] = False,
    lang: LangOption = None,
) -> None:
    """Practise or sit an exam: type each stage of a row, get it marked cell by cell.

    Over 60 lines because its signature is the option list Typer needs.
    (Its --help is the catalogue key help.cmd.quiz, not this docstring.)
    """

    check_random(random, file, problem, tokens, dim, seed, causal)
    if report is not None:
        quiz_loop.check_report_path(report, force=force, inputs=[Path(file)] if file is not None and Path(file).exists() else [])
    intro = []
    items: tuple = ()
    if random:
        made, chosen_seed, replay = random_problem("quiz", seed, tokens, dim, causal)
        chosen = [made]
        set_name = "random"
        intro.append(Math(("  " + replay,), title=t("quiz.seed", seed=chosen_seed)))
    else:

        chosen_seed = None
        problem_set = load_problem_set(file)
        chosen = pick_problems(problem_set, problem)
        set_name = problem_set.name or problem_set.source
        if problem is None and row is None:  # the whole set: its concept items after its problems
            items = tuple(show_all(problem_set))
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
        concepts=items,
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
        show(t("quiz.report_written", path=str(report)))
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)


def _stdin_reader():
    """read_line for the quiz: input() on a terminal (line editing), else one line of stdin, echoed."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:  # imported only on a terminal: importing readline sets the terminal up
            import readline  # noqa: F401  (gives input() line editing and history)
        except ImportError:
            pass

        def read_tty(prompt: str) -> str | None:
            try:
                with unguarded():  # readline needs the real standard output
                    return input(prompt)
            except EOFError:
                sys.stdout.write("\n")
                return None
            except OSError:  # the terminal is gone (a hang-up): the end of input
                return None
            except KeyboardInterrupt:  # Ctrl-C mid-line: what follows starts on a line of its own
                sys.stdout.write("\n")
                sys.stdout.flush()
                raise

        return read_tty

    def read_pipe(prompt: str) -> str | None:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            sys.stdout.write("\n")
            raise
        if not line:
            sys.stdout.write("\n")
            return None
        sys.stdout.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
        return line.rstrip("\r\n")

    return read_pipe
