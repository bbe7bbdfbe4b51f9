"""The only module that imports rich: draws document blocks and messages in a terminal.

rich decides whether colour is wanted (not when the output is not a terminal or
``NO_COLOR`` is set) and turns styles into escape codes. The tables themselves are
laid out here, measured in display cells so Korean text lines up: rich's own
Table measures and wraps every cell, which cost ~150 ms for the chapter's set —
more than everything else `solve` does — and `solve` has a start-up budget.
rich is imported inside the functions, so importing this module costs nothing.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import TextIO

from attn_tutor.document import (
    Bars,
    Block,
    Fields,
    Heading,
    Instructions,
    Math,
    PageBreak,
    Paragraph,
    Table,
    display_width,
    pad,
)

BAR_WIDTH = 30
GAP = "   "
BOX = "________"  # an empty cell of a table to fill in


def console(file: TextIO | None = None, *, stderr: bool = False):
    from rich.console import Console

    width = None
    for name in ("COLUMNS", "TERMINAL_WIDTH"):
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            width = int(value)
            break
    return Console(
        file=file,
        stderr=stderr,
        width=width,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=False,
    )


class _Painter:
    """Styles text with escape codes when the console wants colour, else leaves it plain."""

    def __init__(self, out) -> None:
        self.styles: dict[str, object] = {}
        self.system = None
        if out.color_system is not None and not out.no_color:
            from rich.console import COLOR_SYSTEMS
            from rich.style import Style

            self.system = COLOR_SYSTEMS[out.color_system]  # "256" is not a ColorSystem member name
            self._parse = Style.parse

    def __call__(self, text: str, style: str) -> str:
        if self.system is None or not text:
            return text
        if style not in self.styles:
            self.styles[style] = self._parse(style)
        return self.styles[style].render(text, color_system=self.system)


def visible(text: str) -> str:
    """Text safe to print in a terminal: line breaks, tabs and escape codes shown, not obeyed.

    Table cells and labels come from files (a student's name in an answer file), and
    an ESC or a newline there must neither break the table nor drive the terminal.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _CONTROL.get(ch, f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}") for ch in text)


_CONTROL = {"\n": "⏎", "\r": "⏎", "\t": " "}


def _align(text: str, width: int, right: bool) -> str:
    room = width - display_width(text)
    return " " * room + text if right else text + " " * room


def table_lines(block: Table, paint=lambda text, style: text) -> list[str]:
    """A table as lines: label column on the left, numbers right-aligned, a rule under the header."""
    rows = [tuple(visible(cell) or (BOX if block.blank and i else "") for i, cell in enumerate(row)) for row in block.rows]
    header_cells = [visible(h) for h in block.header]
    widths = [display_width(h) for h in header_cells]
    for row in rows:
        widths = [max(w, display_width(c)) for w, c in zip(widths, row)]
    lines = []
    if block.title:
        lines.append(paint(block.title, "bold"))
    header = GAP.join(_align(h, w, i > 0) for i, (h, w) in enumerate(zip(header_cells, widths)))
    lines.append(" " + paint(header.rstrip(), "bold"))
    lines.append(" " + "─" * (sum(widths) + len(GAP) * (len(widths) - 1)))
    for row in rows:
        cells = [_align(c, w, i > 0) for i, (c, w) in enumerate(zip(row, widths))]
        cells[0] = paint(cells[0], "bold")
        lines.append((" " + GAP.join(cells)).rstrip())
    if block.note:
        lines.append(paint(block.note, "dim"))
    return lines + [""]


def block_lines(block: Block, paint=lambda text, style: text) -> list[str]:
    if isinstance(block, Heading):
        return [paint(visible(block.text), "bold underline" if block.level <= 2 else "bold"), ""]
    if isinstance(block, Paragraph):
        return [visible(block.text), ""]
    if isinstance(block, Table):
        return table_lines(block, paint)
    if isinstance(block, Bars):
        labels = [visible(bar.label) for bar in block.bars]
        width = max((display_width(label) for label in labels), default=0)
        lines = [paint(visible(block.title), "bold")]
        for label, bar in zip(labels, block.bars):
            cells = round(bar.fraction * BAR_WIDTH)
            lines.append(f"{pad(label, width)} {paint('█' * cells, 'cyan')}{'·' * (BAR_WIDTH - cells)} {visible(bar.text):>6}")
        return lines + [""]
    if isinstance(block, Math):
        title = [paint(visible(block.title), "bold")] if block.title else []
        return title + [visible(line) for line in block.lines] + [""]
    if isinstance(block, Instructions):
        return [f"{n}. {visible(item)}" for n, item in enumerate(block.items, start=1)] + [""]
    if isinstance(block, Fields):
        return ["   ".join(f"{visible(label)}: {visible(value) or BOX}" for label, value in block.fields), ""]
    if isinstance(block, PageBreak):
        return ["─" * 40, ""]
    raise TypeError(f"no terminal drawing for {type(block).__name__}")


def wants_colour(stream: TextIO) -> bool:
    """As rich decides it: never with ``NO_COLOR``; with ``FORCE_COLOR`` or a terminal."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def draw(blocks: list[Block], out=None) -> None:
    """Print blocks to ``out`` (a rich Console; standard output if None), in one write.

    Without colour (a pipe, a file, ``NO_COLOR``) rich is not even imported.
    """
    if out is None and not wants_colour(sys.stdout):
        stream, paint = sys.stdout, (lambda text, style: text)
    else:
        out = out or console()
        stream, paint = out.file, _Painter(out)
    lines: list[str] = []
    for block in blocks:
        lines.extend(block_lines(block, paint))
    stream.write("\n".join(lines) + "\n")
    stream.flush()


def error(message: str) -> None:
    """One line to standard error, in red where colour is allowed."""
    message = "\n".join(visible(line) for line in message.split("\n"))
    if not wants_colour(sys.stderr):
        sys.stderr.write(message + "\n")
        return
    out = console(stderr=True)
    out.file.write(_Painter(out)(message, "red") + "\n")


def plain(text: str, *, stderr: bool = False) -> None:
    """Lines of text as they are, but with control characters shown rather than obeyed."""
    stream = sys.stderr if stderr else sys.stdout
    stream.write("\n".join(visible(line) for line in text.rstrip("\n").split("\n")) + "\n")


@contextmanager
def progress(total: int, label: str, *, least: int = 300):
    """A progress bar on standard error while ``total`` things are done; yields ``update(done, total)``.

    Only on a terminal, with colour allowed, and for at least ``least`` things: piped,
    redirected or with ``NO_COLOR``, nothing is drawn (and rich is not imported).
    The bar goes away when the work is done; lines written to standard error
    meanwhile appear above it.
    """
    isatty = getattr(sys.stderr, "isatty", None)
    if total < least or not (isatty and isatty()) or not wants_colour(sys.stderr):
        yield lambda done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=total)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)
