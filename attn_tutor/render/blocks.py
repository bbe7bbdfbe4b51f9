"""A small, format-neutral document: what a page or a screen shows, not how.

The solution, the worksheet and the answer key are built as a list of blocks;
each renderer (terminal, Markdown, HTML, LaTeX) draws the same blocks its own
way. Every string in a block is plain text: renderers escape it for their format.

Blocks are NamedTuples rather than dataclasses: every `solve` creates these
classes at start-up, and a NamedTuple class costs a sixth of a frozen dataclass
(4 ms of a start-up budget of ~35 ms). Compare blocks by type as well as by value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from attn_tutor.core.text import display_width  # in core: --help measures text without these blocks

if TYPE_CHECKING:  # for the type checker only: no class made at start-up
    from collections.abc import Iterator
    from typing import Protocol

    class Rows(Protocol):
        """A table's rows: a tuple, or a spool (attn_tutor.core.spool) a class table is read from a row at a time."""

        def __len__(self) -> int: ...
        def __iter__(self) -> Iterator[tuple[str, ...]]: ...


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces on the right to ``width`` display cells."""
    return text + " " * max(width - display_width(text), 0)


class Heading(NamedTuple):
    text: str
    level: int = 1  # 1 = a problem set, 2 = a problem, 3 = a stage


class Paragraph(NamedTuple):
    text: str


class Table(NamedTuple):
    """A table whose first column labels the rows. Empty cells are answer boxes."""

    header: tuple[str, ...]
    rows: Rows
    title: str | None = None
    note: str | None = None  # a line under the table, e.g. "÷ √2 ≈ 1.414"
    blank: bool = False  # a worksheet's table to fill in: draw empty cells as boxes


class Bar(NamedTuple):
    label: str
    fraction: float  # 0..1, the bar's length
    text: str  # what is written after the bar, e.g. "78.6%"


class Bars(NamedTuple):
    title: str
    bars: tuple[Bar, ...]


class Math(NamedTuple):
    """Lines of worked arithmetic, one equation a line."""

    lines: tuple[str, ...]
    title: str | None = None


class PageBreak(NamedTuple):
    pass


class Instructions(NamedTuple):
    """What to do, as a numbered list (a worksheet's instructions for one problem)."""

    items: tuple[str, ...]


class Fields(NamedTuple):
    """A line of labelled fields at the top of a sheet: ("Name", "") is a blank to write on,
    ("variant", "42001") is printed as it is (students copy it into their answer file)."""

    fields: tuple[tuple[str, str], ...]


class Chart(NamedTuple):
    """Counts drawn as a chart (render/svg.py): one tuple of counts per label, one count per series.

    ``kind``: "columns" — one bar per label (a single series); "stacked" — each label's
    counts as shares of one bar, a segment per series; "grid" — labels × series, each
    cell shaded by its count and the count written in it.
    """

    kind: str
    title: str
    labels: tuple[str, ...]
    series: tuple[str, ...]
    values: tuple[tuple[int, ...], ...]
    note: str | None = None
    keys: tuple[str, ...] = ()  # the series' codes ("correct", "wrong"...), which choose their colours


Block = Heading | Paragraph | Table | Bars | Math | PageBreak | Instructions | Fields | Chart
