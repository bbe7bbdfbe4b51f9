"""The only module that imports rich: draws document blocks and messages in a terminal.

rich is imported inside the functions, so importing this module costs nothing.
Colour is off when the output is not a terminal or ``NO_COLOR`` is set (rich
honours both); Korean text is measured by display cells, so columns line up.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from attn_tutor.document import Bars, Block, Heading, Math, PageBreak, Paragraph, Table

BAR_WIDTH = 30


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


def _table(block: Table):
    from rich import box
    from rich.table import Table as RichTable

    table = RichTable(
        box=box.SIMPLE_HEAD,
        show_lines=block.blank,
        pad_edge=False,
    )
    for index, name in enumerate(block.header):
        if index == 0:
            table.add_column(name, style="bold", no_wrap=True)
        else:
            table.add_column(name, justify="right", no_wrap=True, min_width=8 if block.blank else None)
    for row in block.rows:
        table.add_row(*row)
    return table


def _bars(block: Bars):
    from rich.table import Table as RichTable
    from rich.text import Text

    grid = RichTable.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    for bar in block.bars:
        cells = round(bar.fraction * BAR_WIDTH)
        grid.add_row(bar.label, Text("█" * cells + "·" * (BAR_WIDTH - cells), style="cyan"), bar.text)
    return grid


def draw(blocks: list[Block], out=None) -> None:
    """Print blocks to ``out`` (a rich Console; standard output if None)."""
    from rich.text import Text

    out = out or console()
    for block in blocks:
        if isinstance(block, Heading):
            style = "bold underline" if block.level <= 2 else "bold"
            out.print(Text(block.text, style=style))
            out.print()
        elif isinstance(block, Paragraph):
            out.print(Text(block.text))
            out.print()
        elif isinstance(block, Table):
            # titles and notes go on lines of their own: as a table's title rich
            # would wrap them to the table's width
            if block.title:
                out.print(Text(block.title, style="bold"))
            out.print(_table(block))
            if block.note:
                out.print(Text(block.note, style="dim"))
                out.print()
        elif isinstance(block, Bars):
            out.print(Text(block.title, style="bold"))
            out.print(_bars(block))
            out.print()
        elif isinstance(block, Math):
            if block.title:
                out.print(Text(block.title, style="bold"))
            for line in block.lines:
                out.print(Text(line))
            out.print()
        elif isinstance(block, PageBreak):
            out.rule()


def error(message: str) -> None:
    """One line to standard error, in red where colour is allowed."""
    from rich.text import Text

    console(stderr=True).print(Text(message, style="red"))


def plain(text: str, *, stderr: bool = False) -> None:
    stream = sys.stderr if stderr else sys.stdout
    stream.write(text if text.endswith("\n") else text + "\n")
