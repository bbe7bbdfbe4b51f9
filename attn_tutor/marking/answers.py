"""Reading what a student types: one row of numbers, never ``eval``.

``parse_row("0.71, 4.24, 2.83")`` returns ``[0.71, 4.24, 2.83]``. A row is::

    row  := [ "(" | "[" ] cell ( sep cell )* [ "," ] [ ")" | "]" ]
    sep  := "," | whitespace      (see "where one cell ends" below)
    cell := expr
    expr := term ( ("+" | "-") term )*
    term := unary ( ("*" | "/") unary )*
    unary:= ("+" | "-") unary | power
    power:= postfix [ "^" unary ]          right-associative: 2^3^2 = 2^9; -2^2 = -4
    postfix := primary [ "%" ]              78.6% = 0.786 (a percent of the primary before it)
    primary := number | "e" | "(" expr ")" | ("sqrt" | "exp" | "√") ["+" | "-"]* primary

Numbers are decimals with an optional exponent (``0.214``, ``.5``, ``1e-3``); ``e``
alone is Euler's number and ``e^x`` is computed as ``exp(x)``. ``**`` is read as
``^``; ``×``, ``·`` and ``⋅`` as ``*``; ``÷`` as ``/``; the minus sign ``−`` and
dashes as ``-``; superscripts as powers (``3²`` = ``3^2``). Text is NFKC-normalised
first, so full-width commas, parentheses and the ideographic space typed
with a Korean (or Japanese, Chinese) input method read as their ASCII forms; the
ideographic comma ``、`` is a comma. The digits read are an explicit set, not the
runtime's Unicode tables: :data:`DIGITS` (ASCII and full-width) and the vulgar
fractions of :data:`FRACTIONS` (``½`` = ``(1/2)``); any other character that Unicode
makes a digit (``①``, ``₆``, ``𝟔``, ``𜳶`` where the tables know it) is refused as a
character that is not part of a number (:mod:`attn_tutor.marking.digits`). A student who forgot to switch the keyboard
from Hangul to English types ``ㄷ`` for ``e``, ``ㄷ테`` for ``exp`` and ``ㄴㅂㄱㅅ`` (or
``ㄴㅂㄳ``) for ``sqrt`` on the standard two-set layout: those are understood;
any other Korean text is refused with a sentence saying to press 한/영.

Where one cell ends. Commas always separate cells. Whitespace separates cells
only outside parentheses, and only where the text after it cannot continue the
expression before it: ``1 6 4`` is three cells, ``1 - 2`` and ``1-2`` are one
cell (-1), but ``1 -2`` is two cells (1 and -2) because a sign written against
its number, after a space, starts a new number. ``2 *3`` is one cell (6) since a
cell cannot start with ``*``. Inside a formula's parentheses whitespace never
separates: ``(1 -2)*2`` is -2 (brackets around the whole row are the row's own:
``(1 -2)`` is the two cells 1 and -2). Two things side by side without a space
or an operator (``2(3)``, ``2√2``) are refused: write ``*`` to multiply. ``pi``
is not understood (the chapter never needs it).

Every value returned is a finite float, with ``-0.0`` written as ``0.0``.

Bounds, so nothing a student types takes unbounded time or memory: at most
:data:`MAX_LENGTH` characters; at most :data:`MAX_DEPTH` brackets open at once and
at most :data:`MAX_CHAIN` signs, roots, powers and brackets nested in one
another (so the recursive descent stays far from Python's limit); an exponent larger than
:data:`MAX_EXPONENT` in magnitude is refused before anything is computed, and so
is any calculation whose result would be larger in magnitude than both
:data:`MAX_MAGNITUDE` and its largest operand (a number the student typed is kept
as typed, so ``repr`` of any finite float reads back exactly, but ``1e308*1e308``
and ``9^9^9^9`` are refused in microseconds). ``nan``, ``inf``, division by zero
and square roots of negative numbers are refused. Every refusal is an
:class:`AnswerError` naming what was wrong, the offending text and its 1-based
character position in the text as typed.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Callable
from decimal import Decimal

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.rounding import fmt_short
from attn_tutor.marking.digits import DIGITS, FRACTIONS, NOT_A_DIGIT

__all__ = ["AnswerError", "parse_row", "parse_cells", "DIGITS", "FRACTIONS", "MAX_LENGTH", "MAX_DEPTH", "MAX_EXPONENT", "MAX_MAGNITUDE"]

MAX_LENGTH = 1000
"""The longest answer line read, in characters."""
MAX_DEPTH = 20
"""The most brackets open at once (the row's own brackets count)."""
MAX_CHAIN = 60
"""The most signs, roots, function calls, powers and brackets nested inside one another."""
MAX_EXPONENT = 1e3
"""The largest exponent magnitude in ``a^b`` (``e^x``, ``exp(x)``: the limit of the result applies)."""
MAX_MAGNITUDE = 1e12
"""A calculation may not produce a number larger than this and than all of its operands."""


class AnswerError(AttnTutorError):
    """An answer line that cannot be read; the message says what, where, and why (exit 1)."""


# --- normalisation -------------------------------------------------------------------

_SUPERSCRIPTS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6",
                 "⁷": "7", "⁸": "8", "⁹": "9", "⁺": "+", "⁻": "-"}  # fmt: skip
_AFTER_NFKC = {
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-",  # minus, dashes
    "×": "*", "·": "*", "⋅": "*", "∙": "*", "∗": "*",
    "÷": "/", "∕": "/", "⁄": "/",
    "、": ",",  # the ideographic comma (the half-width form normalises to it)
    "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": "",  # zero-width
}  # fmt: skip
# The two-set (두벌식) layout with the Hangul mode still on: e -> ㄷ (E -> ㄸ), exp -> ㄷ테,
# sqrt -> ㄴㅂㄱㅅ (some input methods join ㄱㅅ into ㄳ). Keys are normalised as the text is.
_IME_WORDS = {
    "".join(unicodedata.normalize("NFKC", c) for c in typed): word
    for typed, word in {"ㄷ": "e", "ㄸ": "e", "ㄷ테": "exp", "ㄴㅂㄱㅅ": "sqrt", "ㄴㅂㄳ": "sqrt"}.items()
}
_FUNCTIONS = ("sqrt", "exp")
_NOT_FINITE = ("nan", "inf", "infinity", "∞")


_ASCII_SPACES = str.maketrans({c: " " for c in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"})


@functools.lru_cache(maxsize=1024)
def _normalise_char(char: str) -> str:
    if char in DIGITS:
        return DIGITS[char]
    if char in FRACTIONS:
        return FRACTIONS[char]
    piece = unicodedata.normalize("NFKC", char)
    if any(c in _DIGITS for c in piece):  # a digit of Unicode's (①, ₆, 𝟔), not of ours
        return NOT_A_DIGIT
    return "".join(" " if c.isspace() else _AFTER_NFKC.get(c, c) for c in piece)


def _normalise(text: str) -> tuple[str, list[int]]:
    """NFKC and the mappings above, character by character, remembering where each came from."""
    if text.isascii():  # the common case: nothing to normalise but whitespace
        return text.translate(_ASCII_SPACES), list(range(len(text)))
    out: list[str] = []
    origin: list[int] = []
    in_superscript = False
    for index, char in enumerate(text):
        if char in _SUPERSCRIPTS:
            piece = ("" if in_superscript else "^(") + _SUPERSCRIPTS[char]
            in_superscript = True
        else:
            if in_superscript:  # close the exponent where the run of superscripts ends
                out.append(")")
                origin.append(index - 1)
                in_superscript = False
            piece = _normalise_char(char)
        out.append(piece)
        origin.extend([index] * len(piece))
    if in_superscript:
        out.append(")")
        origin.append(len(text) - 1)
    return "".join(out), origin


# --- tokens --------------------------------------------------------------------------

_NUMBER, _WORD, _OP, _ROOT, _OPEN, _CLOSE, _COMMA, _END = "number word op root open close comma end".split()
_STARTS_OPERAND = (_NUMBER, _WORD, _ROOT)
_DIGITS = frozenset("0123456789")


class _Token:
    __slots__ = ("kind", "text", "start", "end", "space_before", "space_after")

    def __init__(self, kind: str, text: str, start: int, end: int, space_before: bool) -> None:
        self.kind = kind
        self.text = text  # normalised text; for a word its meaning (lower case, IME forms resolved)
        self.start = start  # index into the normalised text
        self.end = end
        self.space_before = space_before
        self.space_after = False


def _is_hangul(char: str) -> bool:
    code = ord(char)
    return 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F


class _Reader:
    """Tokenizer and recursive-descent parser over one normalised answer line."""

    def __init__(self, original: str) -> None:
        self.original = original
        self.text, self.origin = _normalise(original)
        self.tokens: list[_Token] = []
        self.i = 0
        self.parens = 0  # brackets open around the current position (outer row brackets excluded)
        self.chain = 0
        self.stop = 0  # the index of the token that ends the row (the end, or the row's closing bracket)

    # -- errors

    def _span(self, start: int, end: int) -> tuple[str, int]:
        """The original text of normalised [start, end) and its 1-based position."""
        if not self.origin:
            return "", 1
        start = min(start, len(self.origin) - 1)
        end = max(end, start + 1)
        first = self.origin[start]
        last = self.origin[min(end, len(self.origin)) - 1]
        return self.original[first : last + 1], first + 1

    def fail(self, key: str, start: int, end: int, **args: object) -> AnswerError:
        text, pos = self._span(start, end)
        return AnswerError(key, text=text, pos=pos, **args)

    def fail_at(self, key: str, token: _Token, **args: object) -> AnswerError:
        if token.kind == _END:
            return self.fail(key, len(self.text) - 1, len(self.text), **args)
        return self.fail(key, token.start, token.end, **args)

    # -- tokenizer

    def tokenize(self) -> None:
        s = self.text
        n = len(s)
        i = 0
        space = True
        depth = 0
        while i < n:
            c = s[i]
            if c == " ":
                space = True
                i += 1
                continue
            start = i
            if c in _DIGITS or (c == "." and i + 1 < n and s[i + 1] in _DIGITS):
                kind, i = _NUMBER, self._number(i)
            elif c == "*" and i + 1 < n and s[i + 1] == "*":
                kind, i = _OP, i + 2
                self._add(_OP, "^", start, i, space)
                space = False
                continue
            elif c in "+-*/^%":
                kind, i = _OP, i + 1
            elif c == "√":
                kind, i = _ROOT, i + 1
            elif c in "([":
                kind, i = _OPEN, i + 1
                depth += 1
                if depth > MAX_DEPTH:  # refuse now rather than after reading a thousand brackets
                    raise self.fail("answers.too_deep", start, i, limit=MAX_DEPTH)
            elif c in ")]":
                kind, i = _CLOSE, i + 1
                depth = max(depth - 1, 0)
            elif c == ",":
                kind, i = _COMMA, i + 1
            elif _is_hangul(c):
                i = self._hangul_word(start, space)
                space = False
                continue
            elif c.isalpha() or c == "_" or c == "∞":
                i = self._latin_word(start, space)
                space = False
                continue
            elif c == ".":
                raise self.fail("answers.bad_number", i, i + 1)
            else:
                raise self.fail("answers.bad_character", i, i + 1)
            self._add(kind, s[start:i], start, i, space)
            space = False
        self._add(_END, "", n, n, space)

    def _hangul_word(self, start: int, space: bool) -> int:
        """A word typed with the Korean keyboard left on (``ㄷ`` for ``e``, …) added as its meaning; where it ends."""
        s, n, i = self.text, len(self.text), start
        while i < n and _is_hangul(s[i]):
            i += 1
        word = _IME_WORDS.get(s[start:i])
        if word is None:
            raise self.fail("answers.hangul", start, i)
        self._add(_WORD, word, start, i, space)
        return i

    def _latin_word(self, start: int, space: bool) -> int:
        """A function name or ``e`` added in lower case; a word for infinity or an unknown word refused. Where it ends."""
        s, n, i = self.text, len(self.text), start
        while i < n and (s[i].isalpha() or s[i] == "_") and not _is_hangul(s[i]):
            i += 1
        i = max(i, start + 1)
        word = s[start:i].lower()
        if word in _NOT_FINITE:
            raise self.fail("answers.not_finite_word", start, i)
        if word != "e" and word not in _FUNCTIONS:
            raise self.fail("answers.unknown_word", start, i)
        self._add(_WORD, word, start, i, space)
        return i

    def _add(self, kind: str, text: str, start: int, end: int, space: bool) -> None:
        if self.tokens:
            self.tokens[-1].space_after = space
        self.tokens.append(_Token(kind, text, start, end, space))

    def _number(self, i: int) -> int:
        s, n, start = self.text, len(self.text), i
        points = 0
        while i < n and (s[i] in _DIGITS or s[i] == "."):
            points += s[i] == "."
            i += 1
        if points > 1:
            raise self.fail("answers.two_points", start, i)
        if i < n and s[i] in "eE":
            j = i + 1
            if j < n and s[j] in "+-":
                j += 1
            if j < n and s[j] in _DIGITS:
                while j < n and s[j] in _DIGITS:
                    j += 1
                if j < n and s[j] == ".":
                    raise self.fail("answers.bad_number", start, j + 1)
                return j
            if j > i + 1 or j >= n or s[j] in " ,)]":  # "1e", "1e+", "2e-x": a broken exponent
                raise self.fail("answers.bad_number", start, j)
        return i

    # -- brackets

    def check_brackets(self) -> tuple[int, int]:
        """Balanced, not too deep, square brackets only around the row; the token range to parse."""
        stack: list[_Token] = []
        pairs: dict[int, int] = {}
        for index, token in enumerate(self.tokens):
            if token.kind == _OPEN:
                stack.append(token)
                if len(stack) > MAX_DEPTH:
                    raise self.fail_at("answers.too_deep", token, limit=MAX_DEPTH)
                pairs[len(stack)] = index
            elif token.kind == _CLOSE:
                if not stack:
                    raise self.fail_at("answers.unopened", token)
                opener = stack.pop()
                if (opener.text == "(") != (token.text == ")"):
                    text, pos = self._span(opener.start, opener.end)
                    raise self.fail_at("answers.mismatched", token, open=text, open_pos=pos)
                if len(stack) == 0 and pairs[1] == 0 and index == len(self.tokens) - 2:
                    return 1, index  # the row's own brackets: (0.214, 0.977) or [1, 6, 4]
        if stack:
            raise self.fail_at("answers.unclosed", stack[-1])
        return 0, len(self.tokens) - 1

    # -- parser

    def peek(self, ahead: int = 0) -> _Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def cell_boundary(self) -> bool:
        """Does a new cell start at the next token (whitespace at the top level, see the module doc)?"""
        token = self.peek()
        if self.parens > 0 or not token.space_before:
            return False
        if token.kind in _STARTS_OPERAND or (token.kind == _OPEN and token.text == "("):
            return True
        if token.kind == _OP and token.text in "+-" and not token.space_after:
            following = self.peek(1)
            return following.kind in _STARTS_OPERAND or following.kind == _OPEN or (
                following.kind == _OP and following.text in "+-"
            )
        return False

    def deeper(self, token: _Token) -> None:
        self.chain += 1
        if self.chain > MAX_CHAIN:
            raise self.fail_at("answers.too_deep", token, limit=MAX_CHAIN)

    def row(self) -> list[float]:
        first, stop = self.check_brackets()
        if self.tokens[0].kind == _OPEN and self.tokens[0].text == "[" and first == 0:
            raise self.fail_at("answers.square_bracket", self.tokens[0])
        self.i, self.stop = first, stop
        values: list[float] = []
        if first == stop or self.tokens[first].kind == _END:
            raise AnswerError("answers.empty")
        while True:
            token = self.peek()
            if token.kind == _COMMA:
                raise self.fail_at("answers.empty_cell", token)
            values.append(self.cell())
            token = self.peek()
            if self.i == stop:
                break
            if token.kind == _COMMA:
                self.take()
                if self.i == stop:  # one trailing comma is fine: "1, 6, 4,"
                    break
                continue
            if self.cell_boundary():
                continue
            raise self.unexpected(token)
        return values

    def unexpected(self, token: _Token) -> AnswerError:
        if token.kind == _OPEN and token.text == "[":
            return self.fail_at("answers.square_bracket", token)
        if token.kind in _STARTS_OPERAND or token.kind == _OPEN:
            return self.fail_at("answers.implicit_multiplication", token)
        return self.fail_at("answers.unexpected", token)

    def cell(self) -> float:
        value = self.expr()
        result = value.value + 0.0  # no negative zero
        if not math.isfinite(result):  # cannot happen: every operation is bounded
            raise self.fail("answers.too_large", value.start, value.end, limit=_LIMIT_TEXT)
        return result

    def expr(self) -> _Value:
        left = self.term()
        while (token := self.peek()).kind == _OP and token.text in "+-" and not self.cell_boundary():
            self.take()
            right = self.term()
            result = left.value + right.value if token.text == "+" else left.value - right.value
            left = self.bounded(result, left, right)
        return left

    def term(self) -> _Value:
        left = self.unary()
        while (token := self.peek()).kind == _OP and token.text in "*/":
            self.take()
            right = self.unary()
            if token.text == "*":
                result = left.value * right.value
            else:
                if right.value == 0:
                    raise self.fail("answers.division_by_zero", left.start, right.end)
                result = left.value / right.value
            left = self.bounded(result, left, right)
        return left

    def unary(self) -> _Value:
        return self.signed(self.power)

    def power(self) -> _Value:
        base = self.postfix()
        token = self.peek()
        if not (token.kind == _OP and token.text == "^"):
            return base
        self.take()
        self.deeper(token)
        exponent = self.unary()
        self.chain -= 1
        start, end = base.start, exponent.end
        a, b = base.value, exponent.value
        if base.is_e:
            return self.exp(b, start, end)
        if abs(b) > MAX_EXPONENT:
            raise self.fail("answers.exponent_too_large", start, end, exponent=fmt_short(b), limit=fmt_short(MAX_EXPONENT))
        if a == 0:
            if b < 0:
                raise self.fail("answers.division_by_zero", start, end)
            return _Value(1.0 if b == 0 else 0.0, start, end)
        if a < 0 and not b.is_integer():
            raise self.fail("answers.negative_power", start, end)
        limit = max(MAX_MAGNITUDE, abs(a), abs(b))
        if b * math.log(abs(a)) > math.log(limit) + 1e-9:
            raise self.fail("answers.too_large", start, end, limit=_LIMIT_TEXT)
        try:
            result = math.pow(a, b)
        except (OverflowError, ValueError):  # pragma: no cover - excluded by the checks above
            raise self.fail("answers.too_large", start, end, limit=_LIMIT_TEXT) from None
        return self.bounded(result, base, exponent)

    def exp(self, x: float, start: int, end: int) -> _Value:
        if x > math.log(MAX_MAGNITUDE):
            raise self.fail("answers.too_large", start, end, limit=_LIMIT_TEXT)
        return _Value(math.exp(x), start, end)

    def postfix(self) -> _Value:
        value = self.primary()
        token = self.peek()
        if token.kind == _OP and token.text == "%":
            self.take()
            if value.literal is not None:  # 78.6% is exactly 0.786, not 78.6/100 = 0.7859999999999999
                percent = float(Decimal(value.literal).scaleb(-2))
            else:
                percent = value.value / 100
            value = _Value(percent, value.start, token.end)
        token = self.peek()
        if (token.kind in _STARTS_OPERAND or token.text == "(") and not self.cell_boundary():
            raise self.fail_at("answers.implicit_multiplication", token)
        return value

    def primary(self) -> _Value:
        token = self.peek()
        if token.kind == _NUMBER:
            self.take()
            value = float(token.text)
            if not math.isfinite(value):
                raise self.fail_at("answers.number_too_large", token)
            return _Value(value, token.start, token.end, literal=token.text)
        if token.kind == _WORD and token.text == "e":
            self.take()
            return _Value(math.e, token.start, token.end, is_e=True)
        if token.kind == _ROOT or token.kind == _WORD:  # sqrt, exp, √
            self.take()
            self.deeper(token)
            argument = self.signed_primary()
            self.chain -= 1
            start, end = token.start, argument.end
            if token.text == "exp":
                return self.exp(argument.value, start, end)
            if argument.value < 0:
                raise self.fail("answers.sqrt_negative", start, end)
            return _Value(math.sqrt(argument.value), start, end)
        if token.kind == _OPEN and token.text == "(":
            self.take()
            self.deeper(token)
            self.parens += 1
            inner = self.expr()
            self.parens -= 1
            self.chain -= 1
            close = self.peek()
            if close.kind == _COMMA:
                raise self.fail_at("answers.expected_close", close, open_pos=self._span(token.start, token.end)[1])
            if close.kind != _CLOSE:  # pragma: no cover - the brackets were checked to balance
                raise self.unexpected(close)
            self.take()
            return _Value(inner.value, token.start, close.end)
        if token.kind == _OPEN and token.text == "[":
            raise self.fail_at("answers.square_bracket", token)
        if token.kind == _END or self.i == self.stop:
            previous = self.tokens[self.i - 1] if self.i > 0 else token
            raise self.fail_at("answers.missing_number", previous)
        raise self.fail_at("answers.expected_number", token)

    def signed_primary(self) -> _Value:
        return self.signed(self.primary)

    def signed(self, operand: Callable[[], _Value]) -> _Value:
        """Signs, each counted in the chain, before what ``operand`` reads."""
        token = self.peek()
        if token.kind == _OP and token.text in "+-":
            self.take()
            self.deeper(token)
            inner = self.signed(operand)
            self.chain -= 1
            return _Value(-inner.value if token.text == "-" else inner.value, token.start, inner.end)
        return operand()

    def bounded(self, result: float, *operands: _Value) -> _Value:
        start, end = operands[0].start, operands[-1].end
        limit = max(MAX_MAGNITUDE, *(abs(o.value) for o in operands))
        if not abs(result) <= limit:  # also catches inf and nan
            raise self.fail("answers.too_large", start, end, limit=_LIMIT_TEXT)
        return _Value(result, start, end)


class _Value:
    """A computed value and the span of normalised text it came from."""

    __slots__ = ("value", "start", "end", "literal", "is_e")

    def __init__(self, value: float, start: int, end: int, literal: str | None = None, is_e: bool = False) -> None:
        self.value = value
        self.start = start
        self.end = end
        self.literal = literal  # the digits as typed, for an exact percentage
        self.is_e = is_e  # Euler's number written as "e": e^x is exp(x)


_LIMIT_TEXT = "10^12"


QUIT: tuple[str, ...] = ("q", "quit")
HINT: tuple[str, ...] = ("?", "hint")


def command(text: str) -> str | None:
    """What a typed line asks for when it is not a row: ``"quit"`` (``q``, ``quit``), ``"hint"``
    (``?``, ``hint``), ``"empty"`` (nothing but whitespace), else None (an answer to read).

    The one rule for the quiz and the practice page (``answers.js`` mirrors it): the line
    NFKC-normalised, stripped of whitespace at both ends as ``str.strip`` strips it
    (``str.isspace``: U+001C–U+001F and U+0085 are whitespace, U+FEFF is not) and lowercased.
    """
    word = unicodedata.normalize("NFKC", text).strip().lower()
    if not word:
        return "empty"
    if word in QUIT:
        return "quit"
    if word in HINT:
        return "hint"
    return None


def parse_row(text: str) -> list[float]:
    """One row of finite numbers as a student types it (see the module docstring for the rules)."""
    if len(text) > MAX_LENGTH:
        raise AnswerError("answers.too_long", length=len(text), limit=MAX_LENGTH)
    reader = _Reader(text)
    reader.tokenize()
    if reader.tokens[0].kind == _END:
        raise AnswerError("answers.empty")
    return reader.row()


def parse_cells(text: str, expected: int) -> list[float]:
    """:func:`parse_row`, then exactly ``expected`` cells or ``answers.wrong_count``."""
    values = parse_row(text)
    if len(values) != expected:
        read = ", ".join(fmt_short(v) for v in values)
        raise AnswerError("answers.wrong_count", given=len(values), expected=expected, read=read)
    return values
