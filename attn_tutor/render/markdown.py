"""Document blocks as Markdown (GitHub-flavoured tables), for notes, LMS pages and worksheets."""

from __future__ import annotations

from attn_tutor.core.text import escape_unsafe
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

BAR_WIDTH = 20
_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]<>#|!~"})


def escape(text: str) -> str:
    """Text that Markdown shows as it is, also inside a table cell (``|`` escaped); control and
    invisible characters (a terminal escape in a title) are written as ``\\uXXXX``, not passed on."""

    return escape_unsafe(text.translate(_SPECIAL).replace("\n", " "))


def _raw(lines) -> list[str]:
    """Lines inside a code fence: shown as they are, but never a control character."""

    return [escape_unsafe(line) for line in lines]


def table(block: Table) -> list[str]:
    lines = []
    if block.title:
        lines += [f"**{escape(block.title)}**", ""]
    header = [escape(h) if h else " " for h in block.header]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join([" --- "] + [" ---: "] * (len(header) - 1)) + "|")
    for row in block.rows:
        cells = [f"**{escape(row[0])}**"] + [escape(c) if c else "&nbsp;" * 8 for c in row[1:]]
        lines.append("| " + " | ".join(cells) + " |")
    if block.note:
        lines += ["", f"*{escape(block.note)}*"]
    return lines + [""]


def _fence(lines) -> str:
    """Three backticks, or more than the longest run of backticks in ``lines``."""
    longest = 0
    for line in lines:
        run = 0
        for ch in line:
            run = run + 1 if ch == "`" else 0
            longest = max(longest, run)
    return "`" * max(3, longest + 1)


def render(blocks: list[Block]) -> str:
    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            lines += ["#" * block.level + " " + escape(block.text), ""]
        elif isinstance(block, Paragraph):
            lines += [escape(block.text), ""]
        elif isinstance(block, Table):
            lines += table(block)
        elif isinstance(block, Bars):
            width = max((display_width(bar.label) for bar in block.bars), default=0)
            drawn = _raw(
                f"{pad(bar.label, width)} {'█' * round(bar.fraction * BAR_WIDTH)}"
                f"{'·' * (BAR_WIDTH - round(bar.fraction * BAR_WIDTH))} {bar.text}"
                for bar in block.bars
            )
            fence = _fence(drawn)  # a token may hold backticks
            lines += [f"**{escape(block.title)}**", "", fence + "text", *drawn, fence, ""]
        elif isinstance(block, Math):
            if block.title:
                lines += [f"**{escape(block.title)}**", ""]
            fence = _fence(block.lines)
            lines += [fence + "text", *_raw(block.lines), fence, ""]
        elif isinstance(block, PageBreak):
            lines += ["---", ""]
        elif isinstance(block, Instructions):
            lines += [f"{number}. {escape(item)}" for number, item in enumerate(block.items, start=1)] + [""]
        elif isinstance(block, Fields):
            blank = "\\_" * 12  # a line to write on
            parts = [f"**{escape(label)}:** {escape(value) if value else blank}" for label, value in block.fields]
            lines += [" &nbsp; ".join(parts), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
