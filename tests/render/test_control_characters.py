"""No renderer passes a control character from a file on: escape sequences, bells and direction overrides are shown as text."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_renderers_never_pass_control_characters_on(fmt):
    from attn_tutor.render import html, markdown
    from attn_tutor.render.blocks import Heading, Math, Paragraph, Table

    hostile = "x\x1bc\x1b]0;owned\x07\u202e"
    blocks = [Heading(hostile, 1), Paragraph(hostile), Table((hostile, "b"), ((hostile, "1"),), title=hostile), Math((hostile,), title=hostile)]
    text = markdown.render(blocks) if fmt == "md" else html.render(blocks, title=hostile)
    assert not any(ch in text for ch in "\x1b\x07\u202e")
    assert "\\u001b" in text
