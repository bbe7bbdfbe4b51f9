"""Korean particles chosen for the word they follow: 파일을, 토큰을, √2를, 1.4로, 'l'을.

A Korean particle has two forms, one after a final consonant (받침) and one after a
vowel: 을/를, 이/가, 은/는, 과/와, 이라는/라는; 으로/로 takes 로 after ㄹ as after a
vowel. A catalogue entry marks the place with the form after a consonant in square
brackets, ``{path}[을] 확인할 수 없습니다`` or ``'{text}'[이] 두 번 나옵니다``, and
:func:`attach` picks the form for the text rendered before it, read aloud:

- Hangul by its last syllable's 받침 (compatibility jamo by their names: ㄱ 기역);
- the digits 0-9 read in Korean: a whole number by its last spoken unit (1 일, 2 이, 3 삼,
  10 십, 100 백, 1000 천, 10000 만, ...; 0 영), the digits after a decimal point one
  by one, so 1.4 by 사 and 2.50 by 영;
- Latin letters as an English speaker reads them: a single letter, a word without a
  vowel (csv, sqrt) or a short word in capitals (PDF, HTML) letter by letter, by the
  letter's name (l 엘, m 엠, n 엔; r 아르 and the others end in a vowel); any other
  word by its ending: -ng, -m, -n and -l (also with a silent e: name, line, table)
  end in a consonant, as does p, t, k or b after one short vowel (output 아웃풋,
  set 셋, top 톱); every other ending (scores, weights, scaled, mask, softmax) is
  read with a final vowel;
- closing quotes and brackets, spaces and trailing punctuation are skipped to the
  word inside ('a'를, (x)를); a few symbols are read by name (% 퍼센트, ∞ 무한대,
  √ 루트, ( 괄호).

Text that cannot be read (nothing but symbols, another script) takes the form after
a vowel. The JavaScript of the practice page (``practice/assets/particles.js``)
follows the same rules; a browser test checks the two agree.
"""

from __future__ import annotations

import re
import unicodedata

# marker (the form after a consonant) -> (after a consonant, after a vowel, after ㄹ)
PARTICLES: dict[str, tuple[str, str, str]] = {
    "을": ("을", "를", "을"),
    "이": ("이", "가", "이"),
    "은": ("은", "는", "은"),
    "과": ("과", "와", "과"),
    "으로": ("으로", "로", "로"),
    "이라는": ("이라는", "라는", "이라는"),
}

MARKER = re.compile(r"\[(" + "|".join(sorted(PARTICLES, key=len, reverse=True)) + r")\]")

# The endings read aloud: None (a vowel), "ㄹ", or "c" (any other consonant).
VOWEL, RIEUL, CONSONANT = None, "ㄹ", "c"

_SKIPPED = set(" \t\u00a0'\"`’”»›」』〉》)]}>.,;:!?…。、/\\_-~·")
_SYMBOLS = {"%": VOWEL, "∞": VOWEL, "√": VOWEL, "(": VOWEL, "[": VOWEL, "{": VOWEL, "+": VOWEL, "−": VOWEL, "×": VOWEL, "²": CONSONANT, "³": CONSONANT}
_DIGITS = {"0": CONSONANT, "1": RIEUL, "2": VOWEL, "3": CONSONANT, "4": VOWEL, "5": VOWEL, "6": CONSONANT, "7": RIEUL, "8": RIEUL, "9": VOWEL}
# the unit a whole number ends on, by its count of trailing zeros (index 0: one zero):
# 십 백 천, 만 to 천만, 억 to 천억, 조 to 천조, 경 to 천경; beyond, 해
_UNITS = [CONSONANT] * 3 + [CONSONANT] * 4 + [CONSONANT] * 4 + [VOWEL] * 4 + [CONSONANT] * 4
_LETTERS = {"l": RIEUL, "m": CONSONANT, "n": CONSONANT}  # 엘, 엠, 엔; every other letter's name ends in a vowel
_SHORT_STOP = re.compile(r"(?:^|[^aeiou])(?:[aeiou]|oo|ou)(?:p|t|k|ck|b)$")


def attach(before: str, marker: str) -> str:
    """The form of the particle ``marker`` (``"을"``, ``"이"``, ...) that follows ``before``."""
    after_consonant, after_vowel, after_rieul = PARTICLES[marker]
    sound = ending(before)
    return after_vowel if sound is VOWEL else after_rieul if sound == RIEUL else after_consonant


def resolve(parts: list[str]) -> str:
    """Text and markers alternating (``re.split(MARKER, ...)``), the markers replaced by their particles."""
    out = parts[0]
    for index in range(1, len(parts), 2):
        out += attach(out, parts[index]) + parts[index + 1]
    return out


def ending(text: str) -> str | None:
    """How ``text`` ends when read aloud: None for a vowel, ``"ㄹ"``, or ``"c"`` for another consonant."""
    end = len(text)
    while end and text[end - 1] in _SKIPPED:
        end -= 1
    if not end:
        stripped = text.strip()
        return _SYMBOLS.get(stripped[-1], VOWEL) if stripped else VOWEL
    ch = text[end - 1]
    if "\uac00" <= ch <= "\ud7a3":
        final = (ord(ch) - 0xAC00) % 28
        return VOWEL if final == 0 else RIEUL if final == 8 else CONSONANT
    if "\u3131" <= ch <= "\u314e":  # a consonant by its name: ㄱ 기역, ㄹ 리을
        return RIEUL if ch == "ㄹ" else CONSONANT
    if ch in _DIGITS:
        return _number(text[:end])
    letters = _latin_tail(text[:end])
    if letters:
        return _word(letters)
    return _SYMBOLS.get(ch, VOWEL)


def _number(text: str) -> str | None:
    start = len(text)
    while start and (text[start - 1] in _DIGITS or (text[start - 1] == "," and start > 1 and text[start - 2] in _DIGITS)):
        start -= 1
    digits = [ch for ch in text[start:] if ch != ","]
    if start > 1 and text[start - 1] == "." and text[start - 2] in _DIGITS:
        return _DIGITS[digits[-1]]  # after a decimal point: digit by digit
    whole = "".join(digits).lstrip("0")
    if not whole:
        return _DIGITS["0"]  # 영
    zeros = len(whole) - len(whole.rstrip("0"))
    if zeros == 0:
        return _DIGITS[whole[-1]]
    return _UNITS[zeros - 1] if zeros <= len(_UNITS) else VOWEL


def _latin_tail(text: str) -> str:
    letters: list[str] = []
    for ch in reversed(text):
        base = unicodedata.normalize("NFKD", ch)[:1]
        if base.isascii() and base.isalpha():
            letters.append(base)
        else:
            break
    return "".join(reversed(letters))


def _word(word: str) -> str | None:
    lower = word.lower()
    spelled = len(word) == 1 or not re.search(r"[aeiouy]", lower) or (word.isupper() and len(word) <= 5)
    if spelled:
        return _LETTERS.get(lower[-1], VOWEL)
    if lower.endswith("ng"):
        return CONSONANT
    if len(lower) > 2 and lower[-1] == "e" and lower[-2] not in "aeiouy":
        lower = lower[:-1]  # a silent e: name, line, table
        return RIEUL if lower[-1] == "l" else CONSONANT if lower[-1] in "mn" else VOWEL
    if lower[-1] == "l":
        return RIEUL
    if lower[-1] in "mn" or _SHORT_STOP.search(lower):
        return CONSONANT
    return VOWEL
