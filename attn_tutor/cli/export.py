"""The export command: a worksheet, its key, per-student variants, a practice page or a question bank."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import SetArgument, checked_title, guarded
from attn_tutor.cli.output import ForceOption, OutputOption, check_output, to_stdout, write_output, write_streamed
from attn_tutor.core.errors import UsageError
from attn_tutor.core.i18n import t
from attn_tutor.core.model import (
    SHEET_SEED_MAX,
    VARIANTS_MAX,
)
from attn_tutor.export import moodle, qti, worksheet
from attn_tutor.practice import data as page_data
from attn_tutor.practice import page
from attn_tutor.problems.load import load_problem_set
from attn_tutor.render import html, latex, markdown, terminal, typst
from attn_tutor.variants import sheets as variant_sheets


class ExportFormat(StrEnum):
    html = "html"
    md = "md"
    tex = "tex"
    page = "page"
    pdf = "pdf"
    moodle = "moodle"
    qti = "qti"


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


_SUFFIX_FORMATS = {
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".tex": "tex",
    ".pdf": "pdf",
    ".xml": "moodle",
    ".zip": "qti",
}
_BANKS = ("moodle", "qti")  # question banks for a quiz system, not pages


def _choose_format(format, output: Path | None, key_options: bool, paper, stdout_is_terminal) -> str:
    """The export format: --format, else -o's suffix, else html; refused where it cannot be written.
    ``key_options``: --answers, --key-only or --key-table was given; ``stdout_is_terminal`` is asked
    only when a binary format would go to standard output."""
    chosen = format.value if format is not None else None
    if chosen is None:
        chosen = "html"
        if not to_stdout(output):
            assert output is not None  # (None is standard output)
            chosen = _SUFFIX_FORMATS.get(output.suffix.lower())
            if chosen is None:
                raise UsageError(
                    "export.unknown_suffix", path=str(output), suffixes=", ".join(_SUFFIX_FORMATS)
                )
    if chosen in _BANKS and key_options:
        raise UsageError("export.bank_has_key", format=chosen)
    if paper is not None and chosen not in ("pdf", "tex"):
        raise UsageError("export.paper_for_print", format=chosen)
    if chosen in ("pdf", "qti") and to_stdout(output) and stdout_is_terminal():
        raise UsageError("export.binary_to_terminal", format=chosen)
    if chosen == "page" and key_options:
        raise UsageError("export.page_no_key_options")
    return chosen


def _write_bank(chosen: str, sheets, set_title: str, output, force: bool) -> None:
    """A Moodle XML or a Canvas (QTI) zip of the sheets' questions, written as it is made."""

    writer = moodle.write if chosen == "moodle" else qti.write
    write_streamed(output, lambda stream: writer(stream, sheets, set_title=set_title), force)


def _render_sheet(chosen: str, blocks, set_title: str, paper_size: str) -> str | bytes:
    """A worksheet's blocks as a pdf, html, tex or md file's contents."""
    if chosen == "pdf":

        return typst.render_pdf(blocks, title=set_title, paper=paper_size)
    if chosen == "html":

        return html.render(blocks, title=set_title)
    if chosen == "tex":

        return latex.render(blocks, paper=paper_size)

    return markdown.render(blocks)


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


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
    title = checked_title("--title", title)
    chosen = _choose_format(format, output, answers or key_only or key_table, paper, _stdout_is_terminal)
    check_output(output, force, inputs=(file,))


    problem_set = load_problem_set(file)
    sheets = variant_sheets.make_sheets(problem_set, variants=variants, seed=seed)
    if variants is not None:

        terminal.plain(variant_sheets.fairness_note(problem_set, sheets), stderr=True)
    if chosen == "page":

        name = page_data.set_name(problem_set, file)
        heading = variant_sheets.sheet_title(problem_set, title)
        data = page_data.page_data(sheets, set_name=name, title=heading)
        write_output(output, page.render(data, title=heading), force)
        terminal.plain(t("export.page_teacher_note"), stderr=True)
        return
    set_title = variant_sheets.sheet_title(problem_set, title)
    if chosen in _BANKS:
        _write_bank(chosen, sheets, set_title, output, force)
        return
    if key_table:
        blocks = worksheet.key_table_blocks(sheets, title=title)
    else:
        part = "key" if key_only else "with_answers" if answers else "questions"
        blocks = worksheet.build(sheets, part=part, title=title)
    text = _render_sheet(chosen, blocks, set_title, (paper or Paper.a4).value)
    write_output(output, text, force)
