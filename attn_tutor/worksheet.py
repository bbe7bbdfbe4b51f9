"""Worksheets and answer keys as document blocks: pure, no files, no printing.

A *sheet* is one version of a problem set: the set itself, or a variant made by
:func:`attn_tutor.generate.variant_set` with a seed. A variant's seed is the
number printed on the sheet ("variant 42003"); students copy ``variant: 42003``
into their answer file and ``grade`` regenerates the same numbers from it.

Variant numbers: sheet ``k`` (1-based) of ``--variants N --seed S`` has the seed
``S * 1000 + k`` (:func:`variant_seed`), so sheets of one batch read 42001,
42002, ... and two batches with different seeds never share a sheet. Hence at
most :data:`MAX_VARIANTS` variants and seeds up to :data:`MAX_SEED`.

The worksheet shows, per problem: a heading, notes (mask, cross-attention),
instructions (rows, stages, decimals), the givens, and a blank table per asked
stage holding the asked rows. The answer key shows the same tables filled (with
the e^x table before the weights) and each asked row's worked arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_tutor.document import Block, Fields, Heading, Instructions, PageBreak, Paragraph
from attn_tutor.i18n import t
from attn_tutor.model import SHEET_SEED_MAX, STAGES, VARIANTS_MAX, Problem, ProblemSet

MAX_VARIANTS = VARIANTS_MAX  # the model's limits (attn_tutor.model)
MAX_SEED = SHEET_SEED_MAX
"""The largest ``--seed``: every variant seed ``S * 1000 + k`` stays within ``model.SEED_MAX``."""

PARTS = ("questions", "with_answers", "key")


@dataclass(frozen=True)
class Sheet:
    """One version of a problem set; ``variant`` is its seed, None for the set as written."""

    problem_set: ProblemSet
    variant: int | None = None


def variant_seed(seed: int, k: int) -> int:
    """The seed of sheet ``k`` (1-based) of a batch made with ``seed``: ``seed * 1000 + k``."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed} out of range 0..{MAX_SEED}")
    if not 1 <= k <= MAX_VARIANTS:
        raise ValueError(f"variant {k} out of range 1..{MAX_VARIANTS}")
    return seed * 1000 + k


def make_sheets(problem_set: ProblemSet, *, variants: int | None = None, seed: int | None = None) -> list[Sheet]:
    """The set as written (no ``variants``), or ``variants`` versions drawn from ``seed``."""
    if variants is None:
        return [Sheet(problem_set)]
    if seed is None:
        raise ValueError("variants need a seed")
    from attn_tutor.generate import variant_set

    sheets = []
    for k in range(1, variants + 1):
        number = variant_seed(seed, k)
        sheets.append(Sheet(variant_set(problem_set, number), number))
    return sheets


def fairness_note(problem_set: ProblemSet, sheets: list[Sheet], lang: str) -> str:
    """One sentence for ``export --variants``: how far the variants' largest weight and largest e^x
    range, beside the set's own (every variant passed :mod:`attn_tutor.fairness`)."""
    from attn_tutor import fairness
    from attn_tutor.numbers import fmt

    figures = fairness.summary([sheet.problem_set for sheet in sheets])
    weight, exp = fairness.largest(problem_set.problems)
    return t(
        "export.fairness",
        lang,
        count=len(sheets),
        weight_low=fmt(figures.weight[0], 3),
        weight_high=fmt(figures.weight[1], 3),
        weight=fmt(weight, 3),
        exp_low=fmt(figures.exp[0], 3),
        exp_high=fmt(figures.exp[1], 3),
        exp=fmt(exp, 3),
    )


def sheet_title(problem_set: ProblemSet, lang: str, title: str | None = None) -> str:
    return title or problem_set.title or t("export.default_title", lang)


def asked_stages(problem: Problem) -> list[str]:
    """The asked stages in pipeline order, whatever order the file lists them in."""
    return [stage for stage in STAGES if stage in problem.asked_stages and stage in problem.stages]


def asked_row_indices(problem: Problem) -> list[int]:
    return [problem.row_index(token) for token in problem.asked_rows]


def instructions(problem: Problem, lang: str) -> Instructions:
    stages = ", ".join(t(f"export.stage.{stage}", lang) for stage in asked_stages(problem))
    items = []
    if any(head.projected for head in problem.heads):
        items.append(t("export.project", lang))
    items += [
        t("export.rows", lang, rows=", ".join(problem.asked_rows)),
        t("export.stages", lang, stages=stages),
        t("export.decimals", lang, decimals=problem.decimals),
    ]
    return Instructions(tuple(items))


def worksheet_blocks(sheet: Sheet, lang: str, *, title: str | None = None) -> list[Block]:
    """The questions of one sheet: header fields, then per problem its givens and blank tables."""
    from attn_tutor import engine
    from attn_tutor.solution_doc import given_blocks, problem_heading, problem_notes, stage_table

    name = sheet_title(sheet.problem_set, lang, title)
    fields = [(t("export.name", lang), ""), (t("export.class", lang), ""), (t("export.date", lang), "")]
    blocks: list[Block] = []
    if sheet.variant is None:
        blocks.append(Heading(name, level=1))
        blocks.append(Fields(tuple(fields)))
    else:
        blocks.append(Heading(t("export.sheet_variant", lang, title=name, seed=sheet.variant), level=1))
        blocks.append(Fields((*fields, (t("export.variant_label", lang), str(sheet.variant)))))
        blocks.append(Paragraph(t("export.copy_variant", lang, seed=sheet.variant)))
    for problem in sheet.problem_set.problems:
        solution = engine.solve(problem)
        rows = asked_row_indices(problem)
        blocks.append(problem_heading(problem))
        blocks.extend(problem_notes(problem, lang))
        blocks.append(instructions(problem, lang))
        blocks.extend(given_blocks(solution, lang, problem.decimals, projected=False))  # projecting is the student's
        for stage in asked_stages(problem):
            blocks.extend(stage_table(solution, stage, rows, problem.decimals, lang, blank=True))
    return blocks


def key_blocks(sheet: Sheet, lang: str, *, title: str | None = None) -> list[Block]:
    """The answer key of one sheet: the filled tables and each asked row's worked arithmetic."""
    from attn_tutor import engine
    from attn_tutor.solution_doc import exp_tables, explain_blocks, problem_heading, qkv_tables, stage_table

    name = sheet_title(sheet.problem_set, lang, title)
    if sheet.variant is None:
        heading = t("export.key_title", lang, title=name)
    else:
        heading = t("export.key_variant", lang, title=name, seed=sheet.variant)
    blocks: list[Block] = [Heading(heading, level=1)]
    for problem in sheet.problem_set.problems:
        solution = engine.solve(problem)
        rows = asked_row_indices(problem)
        stages = asked_stages(problem)
        blocks.append(problem_heading(problem))
        many = len(solution.heads) > 1
        for number, (given, head) in enumerate(zip(problem.heads, solution.heads), start=1):
            if given.projected:
                title = t("solve.projected", lang)
                if many:
                    title = f"{t('solve.head', lang, n=number)}: {title}"
                blocks.extend(qkv_tables(problem, head, problem.decimals, title))
        for stage in stages:
            if stage == "weights":
                blocks.extend(exp_tables(solution, rows, problem.decimals, lang))
            blocks.extend(stage_table(solution, stage, rows, problem.decimals, lang))
        for row in rows:
            blocks.extend(explain_blocks(solution, row, problem.decimals, lang, stages))
    return blocks


def build(sheets: list[Sheet], lang: str, *, part: str = "questions", title: str | None = None) -> list[Block]:
    """Every sheet's questions (each on a new page), then, for ``with_answers``, every key;
    for ``key`` the keys alone."""
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, not {part!r}")
    pages: list[list[Block]] = []
    if part in ("questions", "with_answers"):
        pages += [worksheet_blocks(sheet, lang, title=title) for sheet in sheets]
    if part in ("with_answers", "key"):
        pages += [key_blocks(sheet, lang, title=title) for sheet in sheets]
    blocks: list[Block] = []
    for number, page in enumerate(pages):
        if number:
            blocks.append(PageBreak())
        blocks.extend(page)
    return blocks


def _answer_text(solution, row: int, stage: str, decimals: int) -> str:
    """One stage's row as a marker reads it: ``0.023, 0.786, 0.191``; heads apart with ``|``, masked cells ``—``."""
    from attn_tutor import grading
    from attn_tutor.numbers import fmt, fmt_given

    values = solution.stage_row(stage, row)
    open_ = grading.open_cells(solution, row, stage)
    number = fmt_given if stage == "scores" else fmt
    parts = []
    for segment in grading.segments(solution, stage):
        cells = [number(values[i], decimals) if open_[i] else "—" for i in range(segment.start, segment.stop)]
        parts.append(", ".join(cells))
    return " | ".join(parts)


def key_table_blocks(sheets: list[Sheet], lang: str, *, title: str | None = None) -> list[Block]:
    """Every sheet's expected answers as one compact table: (variant,) problem, row, stage, answer.

    For markers who check many printed variants at once: one line per asked row and
    stage, instead of a page of tables per variant.
    """
    from attn_tutor import engine
    from attn_tutor.document import Table

    name = sheet_title(sheets[0].problem_set, lang, title)
    numbered = any(sheet.variant is not None for sheet in sheets)
    header = (t("export.key_table.problem", lang), t("export.key_table.row", lang), t("export.key_table.stage", lang))
    header += (t("export.key_table.answer", lang),)
    if numbered:
        header = (t("export.key_table.variant", lang), *header)
    rows = []
    for sheet in sheets:
        for problem in sheet.problem_set.problems:
            solution = engine.solve(problem)
            for row in asked_row_indices(problem):
                for stage in asked_stages(problem):
                    line = (problem.id, problem.tokens[row], t(f"quiz.stage.{stage}", lang))
                    line += (_answer_text(solution, row, stage, problem.decimals),)
                    rows.append((str(sheet.variant), *line) if numbered else line)
    return [
        Heading(t("export.key_table.title", lang, title=name), level=1),
        Paragraph(t("export.key_table.note", lang)),
        Table(header, tuple(rows)),
    ]
