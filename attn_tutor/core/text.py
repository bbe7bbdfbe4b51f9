"""Quoting what was read: a message never carries a terminal escape sequence or a file's contents.

:func:`excerpt` is how a message quotes anything it read: a short piece, with
control and invisible characters shown as ``\\u....`` escapes.
"""

from __future__ import annotations

import unicodedata

EXCERPT_CHARS = 40

_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def display_width(text: str) -> int:
    """Terminal cells a text takes: Hangul and other wide characters take two."""
    if text.isascii():  # numbers and most labels: no need to look at each character
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def is_unsafe_char(ch: str) -> bool:
    """A control, format (zero-width, bidi override), private-use or unassigned character."""
    return unicodedata.category(ch) in _INVISIBLE_CATEGORIES


def escape_unsafe(text: str, keep: str = "") -> str:
    """``text`` with every control or invisible character (but those in ``keep``) written as ``\\uXXXX``."""
    if not any(is_unsafe_char(ch) for ch in text):
        return text
    return "".join(ch if ch in keep else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if not is_unsafe_char(ch):
        return ch
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """A short, safe piece of ``text`` for a message: at most ``limit`` characters, then "…"."""
    text = str(text)
    short = text if len(text) <= limit else text[:limit] + "…"
    return escape_unsafe(short)
