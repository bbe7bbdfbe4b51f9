"""The solve command: every stage of a problem worked out, in the terminal, as JSON or as Markdown."""

# No `from __future__ import annotations` here, unlike the house style: Typer reads this
# command's signature at every start (inspect.signature(eval_str=True)), and with string
# annotations it evaluates each of them again, which was about half of building the
# command (measured with benchmarks/startup.py and in-process timing).

import sys
from enum import StrEnum
from typing import Annotated, Optional

import typer

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import (
    ProblemOption,
    RowOption,
    SetArgument,
    guarded,
    pick_problems,
    pick_row,
)
from attn_tutor.cli.random_options import CausalOption, DimOption, RandomOption, SeedOption, TokensOption, check_random, random_problem
from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.i18n import t
from attn_tutor.core.model import (
    DECIMALS_MAX,
    HAND_SIZED,
    LARGE,
    SEED_MAX,
    STAGE_ALIASES,
    STAGES,
    ProblemSet,
    stage_name,
)
from attn_tutor.problems.load import load_problem_set
from attn_tutor.render import markdown, terminal
from attn_tutor.render.blocks import Block, Heading, Math
from attn_tutor.solve import concepts, engine, jsonout
from attn_tutor.solve.layout import solution_blocks


class SolveFormat(StrEnum):
    table = "table"
    json = "json"
    markdown = "markdown"


StageChoice = StrEnum("StageChoice", {name: name for name in (*STAGES, *STAGE_ALIASES)})  # type: ignore[misc]  # members made from STAGES at run time, which mypy cannot list
"""What ``--stage`` accepts: a stage's name, or another name for it (softmax: the weights)."""


@guarded
def solve(
    file: SetArgument = None,
    problem: ProblemOption = None,
    every: Annotated[bool, typer.Option("--all", "-a", help="help.solve.all")] = False,
    row: RowOption = None,
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

    if large and format is not SolveFormat.json:
        raise UsageError("cli.large_needs_json")
    check_random(random, file, problem, tokens, dim, seed, causal)
    if random and every:
        raise UsageError("solve.random_and_all")
    if random and variant is not None:
        raise UsageError("solve.random_and_variant")
    last_stage = stage_name(stage) if stage is not None else None
    if random:

        made, chosen_seed, replay = random_problem("solve", seed, tokens, dim, causal)
        problem_set = ProblemSet((made,), source="random")
        terminal.plain(t("solve.seed", seed=chosen_seed, command=replay), stderr=True)
    else:

        problem_set = load_problem_set(file, LARGE if large else HAND_SIZED)
        if variant is not None:
            from attn_tutor.variants.generate import regenerate  # only --variant remakes one: solve starts without

            problem_set = regenerate(problem_set, variant)  # exactly as grade remakes a sheet
    chosen = pick_problems(problem_set, problem)
    # In a terminal, a set's first problem, then how to see the others; files and programs get every problem.
    overview = format is SolveFormat.table and problem is None and row is None and not every and len(chosen) > 1
    if overview:
        chosen = chosen[:1]
    plans = _plans(chosen, row, last_stage, problem_set.source)
    whole_set = not random and problem is None and row is None  # the set's concept items go with the whole set
    items = concepts.show_all(problem_set, seed=variant) if whole_set else []
    if format is SolveFormat.json:

        entries = [concepts.concept_dict(shown) for shown in items] if whole_set else None
        for chunk in jsonout.chunks((engine.solve(item) for item, _ in plans), entries):  # each problem as it is solved
            sys.stdout.write(chunk)
        return
    solutions = [(engine.solve(item), rows) for item, rows in plans]
    blocks = _solution_document(problem_set, solutions, variant, decimals=decimals, last_stage=last_stage, explain=explain)
    if overview:
        blocks.append(_overview(problem_set, file, chosen[0], variant))
    elif items and (every or format is SolveFormat.markdown or len(problem_set.problems) == 1):
        blocks += concepts.concept_blocks(items)
    if format is SolveFormat.markdown:

        sys.stdout.write(markdown.render(blocks))
    else:

        terminal.draw(blocks)


def _overview(problem_set, file: str | None, shown, variant: int | None = None):
    """After the first problem: the others, each with the command that shows it."""

    where = ("" if file is None else f" {file}") + ("" if variant is None else f" --variant {variant}")
    rest = [p for p in problem_set.problems if p is not shown]
    width = max(len(p.id) for p in rest)
    lines = tuple(
        f"  attn-tutor solve{where} --problem {p.id.ljust(width)}" + (f"   # {p.title}" if p.title else "") for p in rest
    )
    lines += ("", t("solve.overview_all", command=f"attn-tutor solve{where} --all"))
    if problem_set.concepts:
        lines += (t("concepts.solve_more", count=len(problem_set.concepts)),)
    return Math(lines, title=t("solve.overview_one" if len(rest) == 1 else "solve.overview", count=len(rest)))


def _plans(chosen, row: str | None, last_stage: str | None, source: str) -> list:
    """Each problem to solve with the rows to show (None: every row); --row over several problems
    keeps those that have that token."""
    plans = []
    for item in chosen:
        rows = None
        if row is not None:
            if (row not in item.tokens or item.kind != "attention") and len(chosen) > 1:
                continue  # --row over several problems: only those that have this token as a row
            rows = pick_row(item, row)
        if last_stage is not None and last_stage not in item.stages and len(chosen) == 1:
            if item.kind != "attention":
                raise AttnTutorError("cli.no_such_stage_sampling", problem=item.id, stage=last_stage, stages=", ".join(item.stages))
            raise AttnTutorError("cli.no_such_stage", problem=item.id, stage=last_stage)
        plans.append((item, rows))
    if not plans:
        raise AttnTutorError("cli.row_in_no_problem", row=row, source=source)
    return plans


def _solution_document(problem_set, solutions, variant: int | None, *, decimals, last_stage, explain: bool) -> list:
    """The blocks of the solutions: the set's title (and variant) as a heading, then each solution."""

    blocks: list[Block] = []
    if problem_set.title or variant is not None:
        title = problem_set.title or problem_set.name or problem_set.source
        if variant is not None:
            title = t("solve.variant_title", title=title, variant=variant)
        blocks.append(Heading(title, level=1))
    for solution, rows in solutions:
        last = last_stage if last_stage in solution.problem.stages else None
        blocks += solution_blocks(solution, decimals=decimals, rows=rows, last_stage=last, explain_rows=explain)
    return blocks
