"""Hand-back sheets: one page per student of what ``grade`` marked, as document blocks.

For each asked row and stage the student sees a small table — the row they typed,
each cell's mark (✓ right, ↪ right from their own earlier numbers, ✗ wrong), the
correct row and, where follow-through was used, the row computed from their own
numbers — then the diagnosis sentence, which earlier numbers the follow-through
came from, and the correct row's arithmetic (:mod:`attn_tutor.explain`), worked on
their own variant's numbers.

Pure: reads a :class:`~attn_tutor.gradebook.StudentResult` and the solved problem
set; :func:`file_names` gives every student a file name that is safe on any
system. The command writes the pages (``grade --feedback DIR``) through
:mod:`attn_tutor.files`: HTML (:mod:`attn_tutor.render.html`) or PDF
(:mod:`attn_tutor.render.typst`, the worksheets' own Typst renderer).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from attn_tutor.document import Block, Fields, Heading, Math, Paragraph, Table
from attn_tutor.i18n import t

STATE_KEYS = ("correct", "follow_through", "wrong", "missing", "masked")
MAX_NAME_BYTES = 120  # of the stem; file systems allow 255 bytes a name
_RESERVED = re.compile(r"(?i)\A(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?\Z")  # Windows device names
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]')


# --- file names ----------------------------------------------------------------------------


def safe_stem(name: str) -> str:
    """A file-name stem for a student's name: NFC, no separators, controls or reserved names."""
    text = unicodedata.normalize("NFC", name or "")
    text = _UNSAFE.sub("_", text)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else "_" for ch in text)
    text = re.sub(r"\s+", " ", text).strip(" ._")  # no leading dot (hidden), no trailing dot or space (Windows)
    text = re.sub(r"\A-+", "_", text)  # a leading "-" reads as an option to every command
    if not text or set(text) <= {".", "_", " "}:
        text = "student"
    if _RESERVED.match(text):
        text = "_" + text
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_NAME_BYTES:
        text = encoded[:MAX_NAME_BYTES].decode("utf-8", "ignore").rstrip(" ._") or "student"
    return text


def file_names(names: Sequence[str], suffix: str = ".html") -> list[str]:
    """One distinct file name per student, in order: equal or case-insensitively equal names
    (the same file on Windows and macOS) get ``-2``, ``-3``... in the order given."""
    taken: set[str] = set()
    out = []
    for name in names:
        stem = safe_stem(name)
        candidate, n = stem, 1
        while unicodedata.normalize("NFC", (candidate + suffix).casefold()) in taken:
            n += 1
            candidate = f"{stem}-{n}"
        taken.add(unicodedata.normalize("NFC", (candidate + suffix).casefold()))
        out.append(candidate + suffix)
    return out


def targets(directory: str | os.PathLike, names: Sequence[str], suffix: str = ".html") -> list[Path]:
    base = Path(directory)
    return [base / name for name in file_names(names, suffix)]


# --- the sheet -----------------------------------------------------------------------------


def _number(x: float | None, decimals: int) -> str:
    """A number the student typed, as typed (up to ``decimals`` places)."""
    from attn_tutor.numbers import fmt_given

    return "" if x is None else fmt_given(x, decimals)


def _answer(x: float, decimals: int) -> str:
    """A number worked out for the student: rounded half up to the asked places, as the key prints it."""
    from attn_tutor.numbers import fmt

    return fmt(x, decimals)


def _stage_label(stage: str, lang: str) -> str:
    return t(f"export.stage.{stage}", lang)


def item_blocks(solution, item, items_by_stage: dict, lang: str) -> list[Block]:
    """One marked stage: the table, the diagnosis, the follow-through, the working."""
    from attn_tutor import explain
    from attn_tutor.numbers import fmt_given
    from attn_tutor.quiz import cell_labels

    problem = solution.problem
    labels = cell_labels(solution, item.stage, lang)
    rows = _mark_rows(item, len(labels), problem.decimals, lang)
    verdict = t(f"grading.verdict.{item.verdict}", lang)
    title = t("feedback.item_title", lang, stage=_stage_label(item.stage, lang), verdict=verdict, points=fmt_given(item.points, 2))
    blocks: list[Block] = _mark_tables(solution, item, labels, rows, title, lang)
    blocks.extend(Paragraph(note) for note in _item_notes(item, items_by_stage, labels, problem.decimals, lang))
    if item.verdict != "correct":
        worked = explain.explain_row(solution, problem.row_index(item.row), problem.decimals).get(item.stage, [])
        if worked:
            blocks.append(Math(tuple(worked), title=t("feedback.working", lang)))
    return blocks


def _mark_rows(item, width: int, decimals: int, lang: str) -> list[tuple[str, ...]]:
    """The table's rows: typed, marks, correct and (where follow-through was used) carried; masked cells "—"."""
    given = item.given if item.given is not None else (None,) * width
    rows = [
        (t("feedback.row.given", lang), *(_number(v, decimals) for v in given)),
        (t("feedback.row.mark", lang), *(t(f"feedback.cell.{state}", lang) for state in item.cells)),
        (
            t("feedback.row.expected", lang),
            *("—" if v is None else _answer(v, decimals) for v in item.expected),
        ),
    ]
    if "follow_through" in item.cells and item.carried is not None:
        rows.append(
            (
                t("feedback.row.carried", lang),
                *("—" if v is None else _answer(v, decimals) for v in item.carried),
            )
        )
    for i, state in enumerate(item.cells):  # masked cells read "—" in every row
        if state == "masked":
            rows = [(r[0], *(("—" if j == i else c) for j, c in enumerate(r[1:]))) for r in rows]
    return rows


def _mark_tables(solution, item, labels, rows: list[tuple[str, ...]], title: str, lang: str) -> list[Block]:
    """The marked rows as one table, or with several heads a table each, as the worksheet has them."""
    from attn_tutor.grading import segments

    problem = solution.problem
    parts = segments(solution, item.stage) if len(solution.heads) > 1 and item.stage != "output" else [slice(None)]
    tables: list[Block] = []
    for number, part in enumerate(parts, start=1):
        if len(parts) == 1:
            header, head_title = (item.row, *labels), title
        else:
            head = t("solve.head", lang, n=number)
            header, head_title = (item.row, *problem.keys), f"{title} — {head}" if number == 1 else head
        tables.append(Table(header, tuple((r[0], *r[1:][part]) for r in rows), title=head_title))
    return tables


def _item_notes(item, items_by_stage: dict, labels, decimals: int, lang: str) -> list[str]:
    """The sentences under the table: the diagnosis, where follow-through came from, a missing answer."""
    from attn_tutor.grading import previous_stage

    notes = []
    if item.diagnosis:
        notes.append(t(f"grading.diagnosis.{item.diagnosis}", lang))
    follow = [i for i, state in enumerate(item.cells) if state == "follow_through"]
    if follow:
        before = previous_stage(item.stage)
        earlier = items_by_stage.get(before)
        cells = ", ".join(labels[i] for i in follow)
        if earlier is not None and earlier.given is not None:
            notes.append(
                t(
                    "feedback.follow_from",
                    lang,
                    cells=cells,
                    stage=t(f"quiz.stage.{before}", lang),
                    row=_tuple(earlier.given, decimals),
                )
            )
        else:
            notes.append(t("feedback.follow_from_own", lang, cells=cells, stage=t(f"quiz.stage.{before}", lang)))
    if item.verdict == "missing":
        notes.append(t("feedback.missing", lang))
    return notes


def _tuple(values, decimals: int) -> str:
    return "(" + ", ".join(_number(v, decimals) for v in values) + ")"


def sheet_blocks(student, solved, lang: str) -> list[Block]:
    """A student's hand-back sheet. ``solved``: (problem set, {problem id: Solution}) of their variant."""
    from attn_tutor.numbers import fmt, fmt_given
    from attn_tutor.solution_doc import given_blocks, problem_heading

    name = student.student or t("feedback.no_name", lang)
    blocks: list[Block] = [Heading(t("feedback.title", lang, student=name), level=1)]
    fields = [(t("export.name", lang), name)]
    if student.variant is not None:
        fields.append((t("grade.col.variant", lang), str(student.variant)))
    if student.report is not None:
        score = f"{fmt_given(student.score, 2)} / {fmt_given(student.max_score, 2)}"
        if student.percent is not None:
            score += f" ({fmt(student.percent, 1)}%)"
        fields.append((t("grade.col.score", lang), score))
    blocks.append(Fields(tuple(fields)))
    for finding in student.findings:
        blocks.append(Paragraph(t("feedback.problem_found", lang, message=finding.text(lang))))
    if student.report is None or solved is None or isinstance(solved, Exception):
        blocks.append(Paragraph(t("feedback.not_marked", lang)))
        return blocks
    problem_set, solutions = solved[0], solved[1]
    if problem_set.title:
        blocks.append(Paragraph(problem_set.title))
    blocks.append(Paragraph(t("feedback.legend", lang)))
    by_row: dict[tuple[str, str], dict[str, object]] = {}
    for item in student.report.items:
        by_row.setdefault((item.problem, item.row), {})[item.stage] = item
    for problem in problem_set.problems:
        solution = solutions[problem.id]
        rows = [token for token in problem.asked_rows if (problem.id, token) in by_row]
        if not rows:
            continue
        blocks.append(problem_heading(problem))
        blocks.extend(given_blocks(solution, lang, problem.decimals))
        for token in rows:
            stages = by_row[(problem.id, token)]
            blocks.append(Heading(t("quiz.row", lang, token=token), level=3))
            for stage in problem.stages:
                item = stages.get(stage)
                if item is not None:
                    blocks.extend(item_blocks(solution, item, stages, lang))
    return blocks


class Solver:
    """Each student's variant solved once per (set, variant), by the gradebook's own Grader."""

    def __init__(self, grader=None, problems: str | None = None) -> None:
        if grader is None:
            from attn_tutor.gradebook import Grader

            grader = Grader(problems=problems)
        self.grader = grader

    def solved(self, student):
        """(problem set, {problem id: Solution}, ...) of the student's set and variant, the
        AttnTutorError that stopped it, or None when no set could be used for them."""
        if student.set_key is None:
            return None
        return self.grader.solved(student.set_key, student.variant)


FORMATS = {"html": ".html", "pdf": ".pdf"}


def render_sheet(blocks: list[Block], title: str, lang: str, format: str = "html") -> str | bytes:
    """A sheet as a self-contained HTML page, or a PDF (A4) typeset by Typst."""
    if format == "pdf":
        from attn_tutor.render.typst import render_pdf

        return render_pdf(blocks, title=title, lang=lang)
    from attn_tutor.render import html

    return html.render(blocks, title=title, lang=lang)


def needs_hangul(names: Sequence[str], columns, lang: str) -> bool:
    """Whether a class's sheets will have Korean in them: the language, a name, a problem or token."""
    from attn_tutor.render.typst import has_hangul

    return (
        lang == "ko"
        or any(has_hangul(name or "") for name in names)
        or any(has_hangul(problem + token) for problem, token, _ in columns)
    )
