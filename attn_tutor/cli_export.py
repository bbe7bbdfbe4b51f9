"""The export and generate commands' helpers: formats, paper, and where the output goes."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn_tutor.errors import UsageError
from attn_tutor.i18n import t


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

OutputOption = Annotated[Optional[Path], typer.Option("--output", "-o", help="help.output")]
ForceOption = Annotated[bool, typer.Option("--force", help="help.force")]


def _to_stdout(path: Path | None) -> bool:
    return path is None or str(path) == "-"



def _check_output(path: Path | None, force: bool, inputs: tuple = ()) -> None:
    """Before any work: -o names a new file (or --force) that is none of the inputs, unless it is standard output."""
    if not _to_stdout(path):
        from attn_tutor.files import refuse_overwrite

        refuse_overwrite(path, force, inputs=[Path(p) for p in inputs if p is not None and Path(p).exists()])


def _write_output(path: Path | None, text: str | bytes, lang: str, force: bool = False) -> None:
    """Standard output (no -o, or -o -), or the whole file or nothing, then a line on stderr saying where."""
    if _to_stdout(path):
        if isinstance(text, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
            return
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from attn_tutor.files import write_atomic
    from attn_tutor.render import terminal

    write_atomic(path, text, replace=force)
    terminal.plain(t("cli.written", lang, path=str(path)), stderr=True)


def _choose_format(format, output: Path | None, key_options: bool, paper, stdout_is_terminal) -> str:
    """The export format: --format, else -o's suffix, else html; refused where it cannot be written.
    ``key_options``: --answers, --key-only or --key-table was given; ``stdout_is_terminal`` is asked
    only when a binary format would go to standard output."""
    chosen = format.value if format is not None else None
    if chosen is None:
        chosen = "html"
        if not _to_stdout(output):
            chosen = _SUFFIX_FORMATS.get(output.suffix.lower())
            if chosen is None:
                raise UsageError(
                    "export.unknown_suffix", path=str(output), suffixes=", ".join(_SUFFIX_FORMATS)
                )
    if chosen in _BANKS and key_options:
        raise UsageError("export.bank_has_key", format=chosen)
    if paper is not None and chosen not in ("pdf", "tex"):
        raise UsageError("export.paper_for_print", format=chosen)
    if chosen in ("pdf", "qti") and _to_stdout(output) and stdout_is_terminal():
        raise UsageError("export.binary_to_terminal", format=chosen)
    if chosen == "page" and key_options:
        raise UsageError("export.page_no_key_options")
    return chosen


def _render_bank(chosen: str, sheets, language: str, set_title: str) -> str | bytes:
    """A Moodle XML or a Canvas (QTI) zip of the sheets' questions."""
    from attn_tutor import lms

    questions = lms.questions(sheets, language)
    if chosen == "moodle":
        from attn_tutor.render import moodle

        return moodle.render(questions, language, set_title=set_title)
    from attn_tutor.render import qti

    return qti.render(questions, language, set_title=set_title)


def _render_sheet(chosen: str, blocks, set_title: str, language: str, paper_size: str) -> str | bytes:
    """A worksheet's blocks as a pdf, html, tex or md file's contents."""
    if chosen == "pdf":
        from attn_tutor.render import typst

        return typst.render_pdf(blocks, title=set_title, lang=language, paper=paper_size)
    if chosen == "html":
        from attn_tutor.render import html

        return html.render(blocks, title=set_title, lang=language)
    if chosen == "tex":
        from attn_tutor.render import latex

        return latex.render(blocks, paper=paper_size)
    from attn_tutor.render import markdown

    return markdown.render(blocks)
