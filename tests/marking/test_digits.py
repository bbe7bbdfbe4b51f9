"""The digits an answer is read with: an explicit set, not the runtime's Unicode tables (issue 35, rule 10).

``DIGITS`` (ASCII and full-width) and ``FRACTIONS`` are read; any other character that Unicode
makes a digit is refused as ``answers.bad_character`` at that character, as typed. The page is
given the same sets (tests/e2e/test_page_digits_browser.py reads the same lines in chromium).
"""

from __future__ import annotations

import unicodedata

import pytest
from helpers.language import in_language

from attn_tutor.marking.answers import AnswerError, parse_row
from attn_tutor.marking.digits import DIGITS, FRACTIONS

READ = [
    ("1 6 4", [1.0, 6.0, 4.0]),
    ("１ ６ ４", [1.0, 6.0, 4.0]),
    ("０.７１，４.２４", [0.71, 4.24]),
    ("９８７６５４３２１０", [9876543210.0]),
    ("½ ¼ ¾ ⅛", [0.5, 0.25, 0.75, 0.125]),
    ("3² 2³", [9.0, 8.0]),
    ("１e-２", [0.01]),
]

REFUSED = [  # (typed, the character refused, its place)
    ("①", "①", 1),
    ("1 ② 3", "②", 3),
    ("₆", "₆", 1),
    ("x₂", "x", 1),  # an unknown word first
    ("𝟔", "𝟔", 1),
    ("0.𝟘", "𝟘", 3),
    ("🯶", "🯶", 1),  # a segmented digit: NFKC makes it 6
    ("𜳶", "𜳶", 1),  # an outlined digit (Unicode 16): chromium makes it 6, Python's tables may not
    ("٣", "٣", 1),  # Arabic-Indic: a digit to Unicode, not one a student types here
    ("۴ 1", "۴", 1),
    ("०", "०", 1),
    ("⑴", "⑴", 1),
    ("⒈", "⒈", 1),
    ("🄁", "🄁", 1),
    ("㋀", "㋀", 1),
    ("⅟2", "⅟", 1),
]


@pytest.mark.parametrize(("text", "values"), READ, ids=[case[0] for case in READ])
def test_ascii_and_full_width_digits_and_the_fractions_are_read(text, values):
    assert parse_row(text) == pytest.approx(values)


@pytest.mark.parametrize(("text", "offending", "pos"), REFUSED, ids=[case[0] for case in REFUSED])
def test_any_other_digit_is_refused_where_it_was_typed(text, offending, pos):
    with pytest.raises(AnswerError) as caught:
        parse_row(text)
    finding = caught.value.problems[0]
    expected = "answers.unknown_word" if offending == "x" else "answers.bad_character"
    assert (finding.key, finding.args["text"], finding.args["pos"]) == (expected, offending, pos)
    shown = (offending, offending.encode("unicode_escape").decode())  # a character unassigned here is escaped
    for lang in ("en", "ko"):
        assert any(form in in_language(lang, caught.value.messages)[0] for form in shown)


def test_the_sets_are_written_out_and_nothing_else_unicode_calls_a_digit_is_read():
    assert sorted(DIGITS) == sorted("0123456789０１２３４５６７８９")
    assert all(len(v) == 1 and v in "0123456789" for v in DIGITS.values())
    assert all(v.startswith("(") and "/" in v for v in FRACTIONS.values())
    refused = 0
    for code in range(0x80, 0x110000):
        char = chr(code)
        if char in DIGITS or char in FRACTIONS:
            continue
        if unicodedata.category(char) == "Nd" or any(d in unicodedata.normalize("NFKC", char) for d in "0123456789"):
            if char in "⁰¹²³⁴⁵⁶⁷⁸⁹":  # superscripts are powers (3² = 9), not digits
                continue
            with pytest.raises(AnswerError):
                parse_row(char)
            refused += 1
    assert refused > 500
