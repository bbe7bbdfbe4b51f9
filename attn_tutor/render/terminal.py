"""The only module that imports rich: draws document blocks and messages in a terminal.

rich decides whether colour is wanted (not when the output is not a terminal or
``NO_COLOR`` is set) and turns styles into escape codes. The tables themselves are
laid out here, measured in display cells so Korean text lines up: rich's own
Table measures and wraps every cell, which cost ~150 ms for the chapter's set —
more than everything else `solve` does — and `solve` has a start-up budget.
rich is imported inside the functions, so importing this module costs nothing.

Narrow terminals: when the screen is narrower than a table (the terminal's width,
or ``COLUMNS`` when set), the table is drawn in column groups that fit, each
repeating the row labels; if not even one column fits beside the labels, each row
is stacked as ``header: value`` lines. Text, worked arithmetic and bars wrap or
shrink to the width too. Output to a file or a pipe with no ``COLUMNS`` is never
wrapped.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from attn_tutor.render.blocks import (
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

if TYPE_CHECKING:
    from rich.style import Style

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
        self.styles: dict[str, Style] = {}
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


def screen_width(stream: TextIO | None = None) -> int | None:
    """The columns to fit: ``COLUMNS`` when set, else the terminal's; None for a pipe or file."""
    value = os.environ.get("COLUMNS", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if isatty and isatty():

        return shutil.get_terminal_size().columns
    return None


def _cut(word: str, room: int) -> tuple[str, str]:
    """The longest start of ``word`` that fits in ``room`` cells, and the rest."""
    used = 0
    for i, ch in enumerate(word):
        used += display_width(ch)
        if used > room:
            return word[: max(i, 1)], word[max(i, 1) :]
    return word, ""


_OPERATORS = frozenset("=≈+-/×·")


def _words(text: str) -> list[str]:
    """Words to wrap between: spaces inside brackets do not split ("(0.752, 0.752)" stays
    whole), and an operator stays with what follows it ("= 0.248" starts a line together)."""
    words: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        elif ch == " " and depth == 0:
            words.append(text[start:i])
            start = i + 1
    words.append(text[start:])
    merged: list[str] = []
    for word in words:
        if merged and merged[-1] in _OPERATORS:
            merged[-1] = f"{merged[-1]} {word}"
        else:
            merged.append(word)
    return merged


def wrap(line: str, width: int | None, hang: int = 4) -> list[str]:
    """``line`` broken between words to fit ``width`` cells; continuation lines keep the
    line's own indent plus ``hang`` spaces. A word longer than a line is cut."""
    if width is None or display_width(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    lead = " " * min(indent + hang, max(width // 2, 0))
    out: list[str] = []
    current = line[:indent]
    words = []
    for word in _words(line[indent:]):  # a bracket longer than a line breaks at its spaces, not inside a word
        words.extend(word.split(" ") if display_width(word) > width - len(lead) else [word])
    for word in words:
        prefix = current if current.strip() else current
        candidate = f"{prefix} {word}" if prefix.strip() else f"{prefix}{word}"
        if display_width(candidate) <= width:
            current = candidate
            continue
        if current.strip():
            out.append(current)
            current = lead
        while display_width(current + word) > width:
            head, word = _cut(word, width - display_width(current))
            out.append(current + head)
            current = lead
        current = current + word
    if current.strip():
        out.append(current)
    return out


def _align(text: str, width: int, right: bool) -> str:
    room = width - display_width(text)
    return " " * room + text if right else text + " " * room


def _is_text(cell: str) -> bool:
    """A cell of words (a title, tokens, a verdict), not of numbers: it is aligned left."""
    return any(ch.isalpha() for ch in cell)


def _grid(header_cells, rows, widths, right, columns, paint, keys: int = 1) -> Iterator[str]:
    """The first ``keys`` (label) columns and ``columns`` of a table, aligned, with a rule under the header.

    The label column and columns of words align left; columns of numbers align right
    (``right``: per column, whether it is one of numbers)."""
    chosen = [*range(keys), *columns]
    header = GAP.join(_align(header_cells[i], widths[i], right[i]) for i in chosen)
    yield " " + paint(header.rstrip(), "bold")
    yield " " + "─" * (sum(widths[i] for i in chosen) + len(GAP) * (len(chosen) - 1))
    for row in rows:
        cells = [_align(row[i], widths[i], right[i]) for i in chosen]
        cells[0] = paint(cells[0], "bold")
        yield (" " + GAP.join(cells)).rstrip()


def _key_columns(rows) -> int:
    """How many leading columns tell the rows apart (1 for a table labelled by token; the quiz
    summary needs problem, row and stage): repeated in every column group."""
    if not rows:
        return 1
    for keys in range(1, len(rows[0])):
        if len({row[:keys] for row in rows}) == len(rows):
            return keys
    return 1


def _column_groups(widths: list[int], width: int, keys: int) -> list[list[int]] | None:
    """The columns after the key columns, in groups that fit beside them; None if one alone does not."""
    base = 1 + sum(widths[:keys]) + len(GAP) * (keys - 1)
    groups: list[list[int]] = []
    used = base
    for i in range(keys, len(widths)):
        need = len(GAP) + widths[i]
        if base + need > width:
            return None
        if groups and used + need <= width:
            groups[-1].append(i)
            used += need
        else:
            groups.append([i])
            used = base + need
    return groups


def _drawn_rows(block: Table) -> Iterator[tuple[str, ...]]:
    """The table's rows as drawn, one at a time: ``block.rows`` may be a spool of a whole class,
    read again for each pass rather than held."""
    blank = block.blank
    for row in block.rows:
        yield tuple(visible(cell) or (BOX if blank and i else "") for i, cell in enumerate(row))


class _Drawn:
    """The drawn rows, to be read again as often as a pass needs them."""

    def __init__(self, block: Table) -> None:
        self.block = block

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return _drawn_rows(self.block)


def table_lines(block: Table, paint=lambda text, style: text, width: int | None = None) -> list[str]:
    """A table as lines: label column on the left, numbers right-aligned, a rule under the header.

    Wider than ``width``: in groups of columns that fit, or else one row at a time."""
    return list(_table_lines(block, paint, width))


def _table_lines(block: Table, paint, width: int | None) -> Iterator[str]:
    """:func:`table_lines` a line at a time, holding one row at a time where the table fits the
    width (a class table of 50,000 students is read twice: once to measure, once to draw)."""
    rows: Iterable[tuple[str, ...]] = _Drawn(block)
    header_cells = [visible(h) for h in block.header]
    widths = [display_width(h) for h in header_cells]
    words = [False] * len(widths)  # per column: holds a cell of words (then it aligns left)
    for row in rows:
        widths = [max(w, display_width(c)) for w, c in zip(widths, row)]
        words = [known or _is_text(c) for known, c in zip(words, row)]
    right = [i > 0 and not words[i] for i in range(len(widths))]
    if block.title:
        yield from (paint(line, "bold") for line in wrap(visible(block.title), width))
    full = 1 + sum(widths) + len(GAP) * (len(widths) - 1)
    if width is None or full <= width or len(widths) < 2:
        yield from _grid(header_cells, rows, widths, right, list(range(1, len(widths))), paint)
    else:
        rows = list(rows)
        keys = _key_columns(rows)
        groups = _column_groups(widths, width, keys) if keys < len(widths) else None
        if groups is None and keys > 1:
            keys = 1
            groups = _column_groups(widths, width, keys)
        if groups is not None:
            for number, group in enumerate(groups):
                if number:
                    yield ""
                yield from _grid(header_cells, rows, widths, right, group, paint, keys)
        else:  # not even one column beside the labels: each row on its own, a cell a line
            for number, row in enumerate(rows):
                if number:
                    yield ""
                yield from (paint(line, "bold") for line in wrap(" " + row[0], width))
                for head, cell in zip(header_cells[1:], row[1:]):
                    yield from wrap(f"   {head}: {cell}", width)
    if block.note:
        yield from (paint(line, "dim") for line in wrap(visible(block.note), width))
    yield ""


def block_lines(block: Block, paint=lambda text, style: text, width: int | None = None) -> list[str]:
    """One block as lines of text, fitted to ``width`` cells (None: as wide as it is)."""
    if isinstance(block, Heading):
        style = "bold underline" if block.level <= 2 else "bold"
        return [paint(line, style) for line in wrap(visible(block.text), width, 0)] + [""]
    if isinstance(block, Paragraph):
        return wrap(visible(block.text), width, 0) + [""]
    if isinstance(block, Table):
        return table_lines(block, paint, width)
    if isinstance(block, Bars):
        labels = [visible(bar.label) for bar in block.bars]
        label_width = max((display_width(label) for label in labels), default=0)
        texts = [visible(bar.text) for bar in block.bars]
        text_width = max([6, *(display_width(text) for text in texts)])
        room = BAR_WIDTH if width is None else max(min(BAR_WIDTH, width - label_width - text_width - 2), 5)
        lines = [paint(line, "bold") for line in wrap(visible(block.title), width, 0)]
        for label, bar, text in zip(labels, block.bars, texts):
            cells = round(bar.fraction * room)
            lines.append(f"{pad(label, label_width)} {paint('█' * cells, 'cyan')}{'·' * (room - cells)} {text:>{text_width}}")
        return lines + [""]
    if isinstance(block, Math):
        title = [paint(line, "bold") for line in wrap(visible(block.title), width, 0)] if block.title else []
        return title + [part for line in block.lines for part in wrap(visible(line), width)] + [""]
    if isinstance(block, Instructions):
        return [part for n, item in enumerate(block.items, start=1) for part in wrap(f"{n}. {visible(item)}", width, 3)] + [""]
    if isinstance(block, Fields):
        return wrap("   ".join(f"{visible(label)}: {visible(value) or BOX}" for label, value in block.fields), width, 0) + [""]
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
    """Print blocks to ``out`` (a rich Console; standard output if None), a few thousand lines a write.

    Without colour (a pipe, a file, ``NO_COLOR``) rich is not even imported.
    """
    if out is None and not wants_colour(sys.stdout):
        stream, paint = sys.stdout, (lambda text, style: text)
    else:
        out = out or console()
        stream, paint = out.file, _Painter(out)
    width = screen_width(stream)
    batch: list[str] = []
    for block in blocks:
        for line in _table_lines(block, paint, width) if isinstance(block, Table) else block_lines(block, paint, width):
            batch.append(line)
            if len(batch) >= _BATCH:
                stream.write("\n".join(batch) + "\n")
                batch.clear()
    stream.write("\n".join(batch) + "\n" if batch or not blocks else "")
    stream.flush()


_BATCH = 2000  # lines written at a time: a class table is never all in memory as text


_BAR: list = []  # the console of the progress bar on screen, if one is: lines go above it


def error(message: str) -> None:
    """One line to standard error, in red where colour is allowed (above a progress bar if one is drawn)."""
    message = "\n".join(visible(line) for line in message.split("\n"))
    if _BAR:
        from rich.text import Text

        _BAR[-1].print(Text(message, style="red"))
        return
    if not wants_colour(sys.stderr):
        sys.stderr.write(message + "\n")
        return
    out = console(stderr=True)
    out.file.write(_Painter(out)(message, "red") + "\n")


def plain(text: str, *, stderr: bool = False) -> None:
    """Lines of text as they are, but with control characters shown rather than obeyed."""
    stream = sys.stderr if stderr else sys.stdout
    width = screen_width(stream)
    lines = [part for line in text.rstrip("\n").split("\n") for part in wrap(visible(line), width, 0)]
    stream.write("\n".join(lines) + "\n")


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
        _BAR.append(bar.console)
        try:
            yield lambda done, total: bar.update(task, completed=done, total=total)
        finally:
            _BAR.remove(bar.console)
