"""Finding the first control or invisible character: the check every text from a file or an option passes."""

from __future__ import annotations

import sys

import pytest

from attn_tutor.core.text import escape_unsafe, first_unsafe, is_unsafe_char


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("", None),
        ("고양이가 생선을 먹었다", None),
        ("scaled dot-product", None),
        ("a\u00a0b", None),  # a no-break space: not printable to str.isprintable, but safe
        ("토큰\u3000목록", None),  # an ideographic space, the same
        ("tab\there", 3),
        ("line\nbreak", 4),
        ("a\u200bb", 1),  # zero-width space
        ("x\u202eevil", 1),  # bidi override
        ("\ud800", 0),  # a byte that was not UTF-8 (a lone surrogate)
        ("\ue000 private", 0),
        ("ok \x1b[31m", 3),
    ],
)
def test_first_unsafe_names_the_first_control_or_invisible_character(text, index):
    assert first_unsafe(text) == index


def test_first_unsafe_agrees_with_the_character_test_for_every_code_point():
    """The printable fast path never passes a character the per-character test refuses."""
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        assert (first_unsafe(f"a{ch}b") == 1) is is_unsafe_char(ch), f"U+{code:04X}"


def test_escape_unsafe_leaves_printable_text_alone_and_escapes_the_rest():
    assert escape_unsafe("먹었다") == "먹었다"
    assert escape_unsafe("a\u200bb") == "a\\u200bb"


@pytest.mark.parametrize(
    ("text", "cells"),
    [("", 0), ("scores", 6), ("고양이가", 8), ("a가b", 4), ("ｆｕｌｌ", 8), ("é½", 2), ("먹었다 (d_k = 4)", 16)],
)
def test_display_width_counts_two_cells_for_each_wide_character(text, cells):
    from attn_tutor.core.text import display_width

    assert display_width(text) == cells
