"""A marked student's hand-back sheet: one page of what ``grade`` marked, as document blocks and
as the page itself (HTML or PDF).

For each asked row and stage the student sees a small table — the row they typed,
each cell's mark (✓ right, ↪ right from their own earlier numbers, ✗ wrong), the
correct row and, where follow-through was used, the row computed from their own
numbers — then the diagnosis sentence, which earlier numbers the follow-through
came from, and the correct row's arithmetic (:mod:`attn_tutor.solve.explain`), worked on
their own variant's numbers.

The blocks are pure: they read a :class:`~attn_tutor.gradebook.StudentResult` and
the solved problem set. With ``grade --feedback DIR`` the worker that marks a student is told
the sheets' format (:func:`attn_tutor.gradebook.run.grade_class`'s ``extra``) and makes their page
with :func:`make_sheet`, HTML (:mod:`attn_tutor.render.html`) or PDF
(:mod:`attn_tutor.render.typst`, the worksheets' own Typst renderer), from that one marking; it
travels in their row as a :class:`Sheet` to :class:`attn_tutor.classroom.handback.SheetFiles`,
which files it under its own student's name.
"""

from __future__ import annotations

import dataclasses
import os
from typing import NamedTuple

from attn_tutor.core.errors import AttnTutorError, Finding, Location
from attn_tutor.core.i18n import has, t
from attn_tutor.core.rounding import fmt, fmt_given, fmt_score
from attn_tutor.kinds.sampling import layout as sampling_layout
from attn_tutor.marking.concepts import concept_feedback
from attn_tutor.marking.hints import cell_labels
from attn_tutor.marking.marker import previous_stage, segments
from attn_tutor.render import html
from attn_tutor.render import typst as typeset  # its names looked up when used: tests point font_dirs elsewhere
from attn_tutor.render.blocks import Block, Fields, Heading, Math, Paragraph, Table
from attn_tutor.solve import explain
from attn_tutor.solve.concepts import concept_blocks
from attn_tutor.solve.layout import given_blocks, problem_heading

STATE_KEYS = ("correct", "follow_through", "wrong", "missing", "masked")


def _number(x: float | None, decimals: int) -> str:
    """A number the student typed, as typed (up to ``decimals`` places)."""

    return "" if x is None else fmt_given(x, decimals)


def _answer(x: float, decimals: int) -> str:
    """A number worked out for the student: rounded half up to the asked places, as the key prints it."""

    return fmt(x, decimals)


def _stage_label(stage: str) -> str:
    return t(f"export.stage.{stage}")


def item_blocks(solution, item, items_by_stage: dict) -> list[Block]:
    """One marked stage: the table, the diagnosis, the follow-through, the working."""

    problem = solution.problem
    labels = cell_labels(solution, item.stage)
    rows = _mark_rows(item, len(labels), problem.decimals)
    verdict = t(f"grading.verdict.{item.verdict}")
    title = t("feedback.item_title", stage=_stage_label(item.stage), verdict=verdict, points=fmt_score(item.points))
    blocks: list[Block] = _mark_tables(solution, item, labels, rows, title)
    blocks.extend(Paragraph(note) for note in _item_notes(item, items_by_stage, labels, problem.decimals))
    if item.verdict != "correct":
        worked = explain.explain_row(solution, problem.row_index(item.row), problem.decimals).get(item.stage, [])
        if worked:
            blocks.append(Math(tuple(worked), title=t("feedback.working")))
    return blocks


def _mark_rows(item, width: int, decimals: int) -> list[tuple[str, ...]]:
    """The table's rows: typed, marks, correct and (where follow-through was used) carried; masked cells "—"."""
    given = item.given if item.given is not None else (None,) * width
    rows = [
        (t("feedback.row.given"), *(_number(v, decimals) for v in given)),
        (t("feedback.row.mark"), *(t(f"feedback.cell.{state}") for state in item.cells)),
        (
            t("feedback.row.expected"),
            *("—" if v is None else _answer(v, decimals) for v in item.expected),
        ),
    ]
    if "follow_through" in item.cells and item.carried is not None:
        rows.append(
            (
                t("feedback.row.carried"),
                *("—" if v is None else _answer(v, decimals) for v in item.carried),
            )
        )
    for i, state in enumerate(item.cells):  # masked cells read "—" in every row
        if state == "masked":
            rows = [(r[0], *(("—" if j == i else c) for j, c in enumerate(r[1:]))) for r in rows]
    return rows


def _mark_tables(solution, item, labels, rows: list[tuple[str, ...]], title: str) -> list[Block]:
    """The marked rows as one table, or with several heads a table each, as the worksheet has them."""

    problem = solution.problem
    parts = segments(solution, item.stage) if len(solution.heads) > 1 and item.stage != "output" else [slice(None)]
    tables: list[Block] = []
    for number, part in enumerate(parts, start=1):
        if len(parts) == 1:
            header, head_title = (item.row, *labels), title
        else:
            head = t("solve.head", n=number)
            header, head_title = (item.row, *problem.keys), f"{title} — {head}" if number == 1 else head
        tables.append(Table(header, tuple((r[0], *r[1:][part]) for r in rows), title=head_title))
    return tables


def _item_notes(item, items_by_stage: dict, labels, decimals: int) -> list[str]:
    """The sentences under the table: the diagnosis, where follow-through came from, a missing answer."""

    notes = []
    if item.diagnosis:
        notes.append(t(f"grading.diagnosis.{item.diagnosis}"))
    follow = [i for i, state in enumerate(item.cells) if state == "follow_through"]
    if follow:
        before = previous_stage(item.stage)
        earlier = items_by_stage.get(before)
        cells = ", ".join(labels[i] for i in follow)
        if earlier is not None and earlier.given is not None:
            notes.append(
                t(
                    "feedback.follow_from",
                    cells=cells,
                    stage=t(f"quiz.stage.{before}"),
                    row=_tuple(earlier.given, decimals),
                )
            )
        else:
            notes.append(t("feedback.follow_from_own", cells=cells, stage=t(f"quiz.stage.{before}")))
    if item.verdict == "missing":
        notes.append(t("feedback.missing"))
    return notes


def _tuple(values, decimals: int) -> str:
    return "(" + ", ".join(_number(v, decimals) for v in values) + ")"


def sheet_message(finding: Finding) -> str:
    """A problem found in a student's answers as their sheet says it: at the file as they handed it
    in (its name and line, never a folder of the teacher's machine), in the sentence meant for a
    student — a key's ``.sheet`` form where the teacher's sentence names a path of theirs, an
    option or a command to run (``grade.problem_set_outside.sheet``...)."""
    where = finding.where
    place = None if where is None else Location(os.path.basename(where.file) or where.file, where.line, where.column)
    if has(f"{finding.key}.sheet"):
        message = Finding(f"{finding.key}.sheet", finding.args).text()
    else:
        message = dataclasses.replace(finding, where=None).text()
    return f"{place}: {message}" if place else message


def sheet_blocks(student, solved) -> list[Block]:
    """A student's hand-back sheet. ``solved``: (problem set, {problem id: Solution}) of their variant."""

    name = student.student or t("feedback.no_name")
    blocks: list[Block] = [Heading(t("feedback.title", student=name), level=1)]
    fields = [(t("export.name"), name)]
    if student.variant is not None:
        fields.append((t("grade.col.variant"), str(student.variant)))
    if student.report is not None:
        score = f"{fmt_score(student.score)} / {fmt_score(student.max_score)}"
        if student.percent is not None:
            score += f" ({fmt(student.percent, 1)}%)"
        fields.append((t("grade.col.score"), score))
    blocks.append(Fields(tuple(fields)))
    for finding in student.findings:
        blocks.append(Paragraph(t("feedback.problem_found", message=sheet_message(finding))))
    if student.report is None or solved is None or isinstance(solved, Exception):
        blocks.append(Paragraph(t("feedback.not_marked")))
        return blocks
    problem_set, solutions = solved[0], solved[1]
    if problem_set.title:
        blocks.append(Paragraph(problem_set.title))
    blocks.append(Paragraph(t("feedback.legend")))
    by_row: dict[tuple[str, str], dict[str, object]] = {}
    for item in student.report.items:
        by_row.setdefault((item.problem, item.row), {})[item.stage] = item
    for problem in problem_set.problems:
        solution = solutions[problem.id]
        rows = [token for token in problem.asked_rows if (problem.id, token) in by_row]
        if not rows:
            continue
        if problem.kind == "sampling":
            blocks.extend(_sampling_blocks(solution, by_row[(problem.id, "")]))
            continue
        blocks.append(problem_heading(problem))
        blocks.extend(given_blocks(solution, problem.decimals))
        for token in rows:
            stages = by_row[(problem.id, token)]
            blocks.append(Heading(t("quiz.row", token=token), level=3))
            for stage in problem.stages:
                item = stages.get(stage)
                if item is not None:
                    blocks.extend(item_blocks(solution, item, stages))
    blocks.extend(concept_sheet_blocks(student.report.concepts, solved[3] if len(solved) > 3 else ()))
    return blocks


def _sampling_blocks(solution, items: dict) -> list[Block]:
    """A sampling problem on a sheet: its settings and logits, then each marked stage's table
    (a cell a token, or a step, or the one number), the diagnosis and the worked solution."""
    problem, d = solution.problem, solution.problem.decimals
    blocks: list[Block] = [sampling_layout.heading(problem), Paragraph(sampling_layout.settings(problem))]
    if not problem.continuation:
        blocks.append(sampling_layout.given_table(problem))
    for stage in problem.asked_stages:
        item = items.get(stage)
        if item is None:
            continue
        labels = sampling_layout.cell_labels(problem, stage)

        def cell(value, typed: bool) -> str:
            return value if isinstance(value, str) else ("" if typed else "—") if value is None else (_number if typed else _answer)(value, d)

        given = item.given if item.given is not None else (None,) * len(labels)
        rows = [
            (t("feedback.row.given"), *(cell(v, True) for v in given)),
            (t("feedback.row.mark"), *(t(f"feedback.cell.{state}") for state in item.cells)),
            (t("feedback.row.expected"), *(cell(v, False) for v in item.expected)),
        ]
        title = t("feedback.item_title", stage=sampling_layout.stage_title(stage), verdict=t(f"grading.verdict.{item.verdict}"), points=fmt_score(item.points))
        blocks.append(Table(("", *labels), tuple(rows), title=title))
        if item.diagnosis:
            blocks.append(Paragraph(t(f"grading.diagnosis.{item.diagnosis}")))
    blocks.extend(sampling_layout.solution_blocks(solution, explain=True, bars=False)[2:])
    return blocks


def concept_sheet_blocks(results, shown_items) -> list[Block]:
    """The concept items of a sheet: each as the student's variant printed it, their choice marked,
    the misconception a wrong choice reveals, the answer and the explanation."""
    shown_by_id = {shown.id: shown for shown in shown_items}
    blocks: list[Block] = []
    for number, result in enumerate(results, start=1):
        shown = shown_by_id.get(result.id)
        if shown is None:
            continue
        if not blocks:
            blocks.append(Heading(t("concepts.heading"), level=2))
        blocks.extend(concept_blocks([shown], answers=False, start=number)[1:])
        blocks.extend(concept_feedback(shown, result))
    return blocks


FORMATS = {"html": ".html", "pdf": ".pdf"}


def render_sheet(blocks: list[Block], title: str, format: str = "html") -> str | bytes:
    """A sheet as a self-contained HTML page, or a PDF (A4) typeset by Typst."""
    if format == "pdf":

        return typeset.render_pdf(blocks, title=title)

    return html.render(blocks, title=title)


class Sheet(NamedTuple):
    """A student's page as the process that marked them made it: the HTML text or PDF bytes, or
    (None) the problems that stopped it (raised by :meth:`attn_tutor.classroom.handback.SheetFiles.check`, before any output
    is written)."""

    page: str | bytes | None
    problems: tuple[Finding, ...] = ()


def make_sheet(student, solved, format: str = "html") -> Sheet:
    """A marked student's sheet, made where they were marked from their one marking (``solved``: their
    set and variant, solved by that process's Grader); what stops it is kept in the sheet, said later."""
    try:
        blocks = sheet_blocks(student, solved)
        assert isinstance(blocks[0], Heading)  # the sheet's title
        return Sheet(render_sheet(blocks, blocks[0].text, format))
    except AttnTutorError as error:  # a PDF that cannot be typeset: said before anything is written
        return Sheet(None, tuple(error.problems))
    except Exception as error:  # noqa: BLE001 - a sheet that breaks is said, never a traceback
        reason = f"{type(error).__name__}: {error}"
        return Sheet(None, (Finding("grade.internal_error", {"reason": reason}, Location(student.file)),))
