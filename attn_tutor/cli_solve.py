"""The solve command's helpers."""

from __future__ import annotations

from attn_tutor.cli_common import pick_row
from attn_tutor.errors import AttnTutorError
from attn_tutor.i18n import t


def _overview(problem_set, file: str | None, shown, language: str, variant: int | None = None):
    """After the first problem: the others, each with the command that shows it."""
    from attn_tutor.document import Math

    where = ("" if file is None else f" {file}") + ("" if variant is None else f" --variant {variant}")
    rest = [p for p in problem_set.problems if p is not shown]
    width = max(len(p.id) for p in rest)
    lines = tuple(
        f"  attn-tutor solve{where} --problem {p.id.ljust(width)}" + (f"   # {p.title}" if p.title else "") for p in rest
    )
    lines += ("", t("solve.overview_all", language, command=f"attn-tutor solve{where} --all"))
    return Math(lines, title=t("solve.overview_one" if len(rest) == 1 else "solve.overview", language, count=len(rest)))


def _plans(chosen, row: str | None, last_stage: str | None, source: str) -> list:
    """Each problem to solve with the rows to show (None: every row); --row over several problems
    keeps those that have that token."""
    plans = []
    for item in chosen:
        rows = None
        if row is not None:
            if row not in item.tokens and len(chosen) > 1:
                continue  # --row over several problems: only those that have this token
            rows = pick_row(item, row)
        if last_stage is not None and last_stage not in item.stages and len(chosen) == 1:
            raise AttnTutorError("cli.no_such_stage", problem=item.id, stage=last_stage)
        plans.append((item, rows))
    if not plans:
        raise AttnTutorError("cli.row_in_no_problem", row=row, source=source)
    return plans


def _solution_document(problem_set, solutions, language: str, variant: int | None, *, decimals, last_stage, explain: bool) -> list:
    """The blocks of the solutions: the set's title (and variant) as a heading, then each solution."""
    from attn_tutor.document import Heading
    from attn_tutor.solution_doc import solution_blocks

    blocks = []
    if problem_set.title or variant is not None:
        title = problem_set.title or problem_set.name or problem_set.source
        if variant is not None:
            title = t("solve.variant_title", language, title=title, variant=variant)
        blocks.append(Heading(title, level=1))
    for solution, rows in solutions:
        last = last_stage if last_stage in solution.problem.stages else None
        blocks += solution_blocks(solution, language, decimals=decimals, rows=rows, last_stage=last, explain_rows=explain)
    return blocks
