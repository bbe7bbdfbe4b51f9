"""Document blocks as Markdown (GitHub-flavoured tables), for notes, LMS pages and worksheets."""

from __future__ import annotations

from attn_tutor.document import Bars, Block, Heading, Math, PageBreak, Paragraph, Table

BAR_WIDTH = 20
_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]<>#|!~"})


def escape(text: str) -> str:
    """Text that Markdown shows as it is, also inside a table cell (``|`` escaped)."""
    return text.translate(_SPECIAL).replace("\n", " ")


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
            lines += [f"**{escape(block.title)}**", "", "```text"]
            width = max((len(bar.label) for bar in block.bars), default=0)
            for bar in block.bars:
                cells = round(bar.fraction * BAR_WIDTH)
                lines.append(f"{bar.label.ljust(width)} {'█' * cells}{'·' * (BAR_WIDTH - cells)} {bar.text}")
            lines += ["```", ""]
        elif isinstance(block, Math):
            if block.title:
                lines += [f"**{escape(block.title)}**", ""]
            lines += ["```text", *block.lines, "```", ""]
        elif isinstance(block, PageBreak):
            lines += ["---", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
