"""Quoting what was read: a message never carries a terminal escape sequence or a file's contents.

:func:`excerpt` is how a message quotes anything it read: a short piece, with
control and invisible characters shown as ``\\u....`` escapes.
"""

from __future__ import annotations

import difflib
import unicodedata

EXCERPT_CHARS = 40

_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def display_width(text: str) -> int:
    """Terminal cells a text takes: Hangul and other wide characters take two."""
    if text.isascii():  # numbers and most labels: no need to look at each character
        return len(text)
    # one more cell for each wide (W) or full-width (F) character, counted without a Python step per character
    return len(text) + sum(map(_WIDE.__contains__, map(unicodedata.east_asian_width, text)))


_WIDE = frozenset({"W", "F"})


def is_unsafe_char(ch: str) -> bool:
    """A control, format (zero-width, bidi override), private-use or unassigned character."""
    return unicodedata.category(ch) in _INVISIBLE_CATEGORIES


def first_unsafe(text: str) -> int | None:
    """The index of the first control or invisible character in ``text`` (:func:`is_unsafe_char`), or None.

    A printable text has none: :meth:`str.isprintable` refuses every character Unicode calls
    "Other" or "Separator" but the space, which holds all of ours, so most texts (a title, a
    token, a sentence of the catalogue) are passed at C speed, not character by character.
    """
    if text.isprintable():
        return None
    for index, ch in enumerate(text):
        if is_unsafe_char(ch):
            return index
    return None


def escape_unsafe(text: str, keep: str = "") -> str:
    """``text`` with every control or invisible character (but those in ``keep``) written as ``\\uXXXX``."""
    if first_unsafe(text) is None:
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


def _one_edit_apart(a: str, b: str) -> bool:
    """One letter changed, added or dropped, or two neighbours swapped (``p1``/``q1``, ``weigths``)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1 and a[differ[0]] == b[differ[1]] and a[differ[1]] == b[differ[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def did_you_mean(word: str, choices) -> str | None:
    """The one of ``choices`` a misspelt ``word`` most likely meant, or None: the same but for case;
    else the closest by :mod:`difflib` (ratio 0.6 or more); else the only one a single letter off
    (for words of two letters or more). The one did-you-mean of every message that offers one."""
    choices = list(choices)
    lowered = {choice.lower(): choice for choice in choices}
    if word.lower() in lowered:
        return lowered[word.lower()]
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    if close:
        return lowered[close[0]]
    if len(word) < 2:
        return None
    near = [choice for low, choice in lowered.items() if _one_edit_apart(word.lower(), low)]
    return near[0] if len(near) == 1 else None
