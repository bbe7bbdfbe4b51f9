"""A message read in a language the test chooses, whatever is spoken around it."""

from __future__ import annotations

from attn_tutor.core.i18n import speaking


def in_language(lang: str, function, /, *args, **kwargs):
    """``function(*args, **kwargs)`` as it is said in ``lang``: ``in_language("ko", t, "cli.error", message=m)``,
    ``in_language("ko", error.messages)`` (:func:`attn_tutor.core.i18n.speaking` for one call)."""
    with speaking(lang):
        return function(*args, **kwargs)
