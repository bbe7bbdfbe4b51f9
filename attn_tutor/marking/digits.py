"""The characters an answer's numbers are written with: an explicit set, not the runtime's Unicode tables.

Python's and a browser's Unicode tables differ (chromium's newer ones make the outlined digit
``𜳶``, U+1CCF6, a 6; Python 3.11's do not know it), so the digits read are written out here,
once: :mod:`attn_tutor.marking.answers` reads with them, and the practice page and the live
class are given them as data (``answers.js`` ``setNumerals``), so the two readers cannot drift.
Any other character that Unicode makes a digit (``①``, ``₆``, ``𝟔``, ``٣``) is refused.
"""

from __future__ import annotations

import unicodedata

DIGITS: dict[str, str] = {
    **{digit: digit for digit in "0123456789"},
    **{chr(0xFF10 + value): str(value) for value in range(10)},  # full-width: ０ … ９
}
"""Every character read as a digit, with the ASCII digit it is: ASCII and full-width (what a
Korean, Japanese or Chinese input method types). The one definition: the pages get it as data."""
FRACTIONS: dict[str, str] = {
    char: "(" + unicodedata.normalize("NFKC", char).replace("\u2044", "/") + ")" for char in "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"
}
"""The vulgar fractions read as numbers, each as a bracketed division: ``½`` is ``(1/2)`` (so ``1½``
is refused rather than read as 11/2)."""
NOT_A_DIGIT = "\ufffd"
"""What a character that Unicode makes a digit but :data:`DIGITS` does not hold becomes: no part of
a number, refused as ``answers.bad_character`` at that character."""
