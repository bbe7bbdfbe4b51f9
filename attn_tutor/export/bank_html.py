"""HTML pieces shared by the Moodle and QTI question writers: tables and instructions.

Each writer passes its own ``text`` function (plain text -> safe HTML for that
system), so the layout is written once and the escaping stays with the format.
"""

from __future__ import annotations

from collections.abc import Callable

from attn_tutor.core.i18n import t
from attn_tutor.export.worksheet import instructions
from attn_tutor.kinds.sampling import export as sampling
from attn_tutor.render.blocks import Block, Instructions, Math, Paragraph, Table
from attn_tutor.solve.layout import given_blocks, problem_notes

TABLE_STYLE = "border-collapse: collapse; margin-bottom: 1em;"


def table(caption: str | None, header, rows, text: Callable[[str], str], note: str | None = None) -> str:
    """An HTML table; ``rows`` hold (label, [cell html, ...]) with the cells already escaped."""
    parts = [f'<table border="1" cellpadding="4" style="{TABLE_STYLE}">']
    if caption:
        parts.append(f"<caption><strong>{text(caption)}</strong></caption>")
    parts.append("<thead><tr>" + "".join(f'<th scope="col">{text(h)}</th>' for h in header) + "</tr></thead><tbody>")
    for label, cells in rows:
        parts.append(f'<tr><th scope="row">{text(label)}</th>' + "".join(f'<td style="text-align: center;">{c}</td>' for c in cells) + "</tr>")
    parts.append("</tbody></table>")
    if note:
        parts.append(f"<p>{text(note)}</p>")
    return "".join(parts)


def block(block, text: Callable[[str], str]) -> str:
    """A worksheet block (a givens table, instructions, a note) as HTML."""

    if isinstance(block, Table):
        return table(block.title, block.header, [(row[0], [text(c) for c in row[1:]]) for row in block.rows], text, block.note)
    if isinstance(block, Instructions):
        return "<ol>" + "".join(f"<li>{text(item)}</li>" for item in block.items) + "</ol>"
    if isinstance(block, Paragraph):
        return f"<p>{text(block.text)}</p>"
    raise TypeError(f"cannot draw {type(block).__name__} in a quiz question")


def _opening(question, text: Callable[[str], str]) -> list[str]:
    """A question's variant number and its problem's title, bold, as every kind's question starts."""
    parts = []
    if question.variant is not None:
        parts.append(f"<p><strong>{text(t('export.variant_number', seed=question.variant))}</strong></p>")
    if question.problem.title:
        parts.append(f"<p><strong>{text(question.problem.title)}</strong></p>")
    return parts


def header(question, text: Callable[[str], str]) -> list[str]:
    """What every question of a problem starts with: its variant, title, notes, instructions, givens."""

    problem = question.problem
    parts = _opening(question, text)
    notes: list[Block] = [*problem_notes(problem), instructions(problem)]
    for item in notes:
        parts.append(block(item, text))
    for item in given_blocks(question.solution, problem.decimals, projected=False):
        parts.append(block(item, text))
    return parts


def sampling_header(question, text: Callable[[str], str]) -> list[str]:
    """A sampling problem's question starts: its variant, title, what to write, settings and logits."""

    problem = question.problem
    parts = _opening(question, text)
    for item in [sampling.instructions(problem), *sampling.given_blocks(problem)]:
        parts.append(block(item, text))
    return parts


def sampling_feedback(question, text: Callable[[str], str]) -> str:
    """A sampling problem's worked arithmetic (the key's), shown after an attempt."""

    parts = []
    for item in sampling.key_blocks(question.problem)[2:]:  # after the heading and the settings: the tables, the arithmetic
        if isinstance(item, Math):
            parts.append(f"<p><strong>{text(item.title or '')}</strong></p><pre>{text(chr(10).join(item.lines))}</pre>")
        elif isinstance(item, Paragraph):
            parts.append(f"<p>{text(item.text)}</p>")
    return "\n".join(parts)
