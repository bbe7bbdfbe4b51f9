"""Reading what a command printed as a reader reads it."""

from __future__ import annotations


def flat(text: str) -> str:
    """Text with its line wrapping undone: every run of white space as one space."""
    return " ".join(text.split())


def said(result) -> str:
    """What the command printed, lines joined as a reader reads them (the terminal wraps)."""
    return flat(result.output)
