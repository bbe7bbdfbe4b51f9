"""The message catalogue: both languages, the same placeholders, the choice of language."""

from __future__ import annotations

import re
import string

import pytest

from attn_tutor.core.i18n import MESSAGES, resolve_lang, t


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_message_has_both_languages_with_the_same_placeholders(key):
    english, korean = MESSAGES[key]
    assert english.strip() and korean.strip()
    assert placeholders(english) == placeholders(korean)


def test_korean_messages_are_korean():
    hangul = sum(any("\uac00" <= ch <= "\ud7a3" for ch in ko) for _, ko in MESSAGES.values())
    assert hangul >= 0.8 * len(MESSAGES)


@pytest.mark.parametrize(
    ("option", "env", "expected"),
    [
        ("ko", {}, "ko"),
        ("en", {"ATTN_TUTOR_LANG": "ko"}, "en"),
        (None, {"ATTN_TUTOR_LANG": "ko"}, "ko"),
        (None, {"ATTN_TUTOR_LANG": "en", "LANG": "ko_KR.UTF-8"}, "en"),
        (None, {"LANG": "ko_KR.UTF-8"}, "ko"),
        (None, {"LANG": "en_US.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_language_choice(option, env, expected):
    assert resolve_lang(option, env) == expected


def test_t_fills_placeholders_in_both_languages():
    assert "생선을" in t("solve.bars", "ko", token="생선을")
    assert "생선을" in t("solve.bars", "en", token="생선을")


# --- Korean that reads naturally --------------------------------------------------------

TOKEN_PLACEHOLDERS = ("token", "row", "keys")


def test_no_korean_message_glues_a_particle_to_a_token():
    """"친구를의 시선" came from "{token}의 시선": a token is quoted or followed by a noun (행), never a particle."""
    from attn_tutor.core.i18n import MESSAGES

    glued = re.compile(r"\{(" + "|".join(TOKEN_PLACEHOLDERS) + r")\}[의을를이가은는에와과로도만]")
    bad = {key: korean for key, (_english, korean) in MESSAGES.items() if glued.search(korean)}
    assert not bad, bad
