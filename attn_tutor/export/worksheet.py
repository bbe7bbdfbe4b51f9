"""Worksheets and answer keys as document blocks: pure, no files, no printing.

The worksheet shows, per problem: a heading, notes (mask, cross-attention),
instructions (rows, stages, decimals), the givens, and a blank table per asked
stage holding the asked rows. The answer key shows the same tables filled (with
the e^x table before the weights) and each asked row's worked arithmetic. After the
problems come the set's concept items (:mod:`attn_tutor.export.concept_sheet`), as
shown on that sheet: a variant's own options, in its own order.
"""

from __future__ import annotations

from attn_tutor.core.i18n import t
from attn_tutor.core.model import Problem, asked_row_indices, asked_stages
from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.export import concept_sheet
from attn_tutor.kinds.sampling import export as sampling
from attn_tutor.marking.marker import open_cells, segments
from attn_tutor.render.blocks import Block, Fields, Heading, Instructions, PageBreak, Paragraph, Table
from attn_tutor.solve import engine
from attn_tutor.solve.layout import exp_tables, explain_blocks, given_blocks, problem_heading, problem_notes, qkv_tables, stage_table
from attn_tutor.variants.sheets import Sheet, sheet_title

PARTS = ("questions", "with_answers", "key")


def instructions(problem: Problem) -> Instructions:
    stages = ", ".join(t(f"export.stage.{stage}") for stage in asked_stages(problem))
    items = []
    if any(head.projected for head in problem.heads):
        items.append(t("export.project"))
    items += [
        t("export.rows", rows=", ".join(problem.asked_rows)),
        t("export.stages", stages=stages),
        t("export.decimals", decimals=problem.decimals),
    ]
    return Instructions(tuple(items))


def worksheet_blocks(sheet: Sheet, *, title: str | None = None) -> list[Block]:
    """The questions of one sheet: header fields, then per problem its givens and blank tables."""

    name = sheet_title(sheet.problem_set, title)
    fields = [(t("export.name"), ""), (t("export.class"), ""), (t("export.date"), "")]
    blocks: list[Block] = []
    if sheet.variant is None:
        blocks.append(Heading(name, level=1))
        blocks.append(Fields(tuple(fields)))
    else:
        blocks.append(Heading(t("export.sheet_variant", title=name, seed=sheet.variant), level=1))
        blocks.append(Fields((*fields, (t("export.variant_label"), str(sheet.variant)))))
        blocks.append(Paragraph(t("export.copy_variant", seed=sheet.variant)))
    for problem in sheet.problem_set.problems:
        if problem.kind == "sampling":
            blocks.extend(sampling.worksheet_blocks(problem))  # type: ignore[arg-type]
            continue
        solution = engine.solve(problem)
        rows = asked_row_indices(problem)
        blocks.append(problem_heading(problem))
        blocks.extend(problem_notes(problem))
        blocks.append(instructions(problem))
        blocks.extend(given_blocks(solution, problem.decimals, projected=False))  # projecting is the student's
        for stage in asked_stages(problem):
            blocks.extend(stage_table(solution, stage, rows, problem.decimals, blank=True))
    blocks.extend(concept_sheet.question_blocks(concept_sheet.shown_concepts(sheet)))
    return blocks


def key_blocks(sheet: Sheet, *, title: str | None = None) -> list[Block]:
    """The answer key of one sheet: the filled tables and each asked row's worked arithmetic."""

    name = sheet_title(sheet.problem_set, title)
    if sheet.variant is None:
        heading = t("export.key_title", title=name)
    else:
        heading = t("export.key_variant", title=name, seed=sheet.variant)
    blocks: list[Block] = [Heading(heading, level=1)]
    for problem in sheet.problem_set.problems:
        if problem.kind == "sampling":
            blocks.extend(sampling.key_blocks(problem))  # type: ignore[arg-type]
            continue
        solution = engine.solve(problem)
        rows = asked_row_indices(problem)
        stages = asked_stages(problem)
        blocks.append(problem_heading(problem))
        many = len(solution.heads) > 1
        for number, (given, head) in enumerate(zip(problem.heads, solution.heads), start=1):
            if given.projected:
                title = t("solve.projected")
                if many:
                    title = f"{t('solve.head', n=number)}: {title}"
                blocks.extend(qkv_tables(problem, head, problem.decimals, title))
        for stage in stages:
            if stage == "weights":
                blocks.extend(exp_tables(solution, rows, problem.decimals))
            blocks.extend(stage_table(solution, stage, rows, problem.decimals))
        for row in rows:
            blocks.extend(explain_blocks(solution, row, problem.decimals, stages))
    blocks.extend(concept_sheet.key_blocks(concept_sheet.shown_concepts(sheet)))
    return blocks


def build(sheets: list[Sheet], *, part: str = "questions", title: str | None = None) -> list[Block]:
    """Every sheet's questions (each on a new page), then, for ``with_answers``, every key;
    for ``key`` the keys alone."""
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, not {part!r}")
    pages: list[list[Block]] = []
    if part in ("questions", "with_answers"):
        pages += [worksheet_blocks(sheet, title=title) for sheet in sheets]
    if part in ("with_answers", "key"):
        pages += [key_blocks(sheet, title=title) for sheet in sheets]
    blocks: list[Block] = []
    for number, page in enumerate(pages):
        if number:
            blocks.append(PageBreak())
        blocks.extend(page)
    return blocks


def _answer_text(solution, row: int, stage: str, decimals: int) -> str:
    """One stage's row as a marker reads it: ``0.023, 0.786, 0.191``; heads apart with ``|``, masked cells ``—``."""

    values = solution.stage_row(stage, row)
    open_ = open_cells(solution, row, stage)
    number = fmt_given if stage == "scores" else fmt
    parts = []
    for segment in segments(solution, stage):
        cells = [number(values[i], decimals) if open_[i] else "—" for i in range(segment.start, segment.stop)]
        parts.append(", ".join(cells))
    return " | ".join(parts)


def key_table_blocks(sheets: list[Sheet], *, title: str | None = None) -> list[Block]:
    """Every sheet's expected answers as one compact table: (variant,) problem, row, stage, answer.

    For markers who check many printed variants at once: one line per asked row and
    stage, instead of a page of tables per variant.
    """

    name = sheet_title(sheets[0].problem_set, title)
    numbered = any(sheet.variant is not None for sheet in sheets)
    header: tuple[str, ...] = (t("export.key_table.problem"), t("export.key_table.row"), t("export.key_table.stage"))
    header += (t("export.key_table.answer"),)
    if numbered:
        header = (t("export.key_table.variant"), *header)
    rows: list[tuple[str, ...]] = []
    for sheet in sheets:
        for problem in sheet.problem_set.problems:
            if problem.kind == "sampling":
                rows += [(str(sheet.variant), *line) if numbered else line for line in sampling.key_rows(problem)]  # type: ignore[arg-type]  # a sampling problem
                continue
            solution = engine.solve(problem)
            for row in asked_row_indices(problem):
                for stage in asked_stages(problem):
                    line: tuple[str, ...] = (problem.id, problem.tokens[row], t(f"quiz.stage.{stage}"))
                    line += (_answer_text(solution, row, stage, problem.decimals),)
                    rows.append((str(sheet.variant), *line) if numbered else line)
        for line in concept_sheet.key_rows(concept_sheet.shown_concepts(sheet)):
            rows.append((str(sheet.variant), *line) if numbered else line)
    return [
        Heading(t("export.key_table.title", title=name), level=1),
        Paragraph(t("export.key_table.note")),
        Table(header, tuple(rows)),
    ]
