"""Reading what a student types: every accepted form, every refusal, and fast refusals."""

from __future__ import annotations

import math

import pytest
from helpers.language import in_language
from helpers.work import bounded_work
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.marking.answers import MAX_DEPTH, MAX_LENGTH, AnswerError, parse_cells, parse_row

SQRT2 = math.sqrt(2)

ACCEPTED = [
    # separators and brackets
    ("1 6 4", [1, 6, 4]),
    ("1,6,4", [1, 6, 4]),
    ("0.71, 4.24, 2.83", [0.71, 4.24, 2.83]),
    ("  0.71   4.24\t2.83  ", [0.71, 4.24, 2.83]),
    ("1 ,6 , 4", [1, 6, 4]),
    ("(0.214, 0.977)", [0.214, 0.977]),
    ("(0.214 0.977)", [0.214, 0.977]),
    ("[1, 6, 4]", [1, 6, 4]),
    ("[ 1 6 4 ]", [1, 6, 4]),
    ("1, 6, 4,", [1, 6, 4]),
    ("(3)", [3]),
    ("(1+2) 3", [3, 3]),
    # numbers
    (".5 5. 0.5", [0.5, 5.0, 0.5]),
    ("1e-3 2E2 1.5e+1", [0.001, 200.0, 15.0]),
    ("-0.0", [0.0]),
    ("007", [7]),
    # the whitespace rule
    ("1 -2", [1, -2]),
    ("1 - 2", [-1]),
    ("1-2", [-1]),
    ("1 +2", [1, 2]),
    ("1 + 2", [3]),
    ("0.71 -0.5 -1", [0.71, -0.5, -1]),
    ("2 *3", [6]),
    ("2* 3", [6]),
    ("(1 -2)*2", [-2]),
    ("1 --2", [1, 2]),
    ("1 - -2", [3]),
    ("-1 -2", [-1, -2]),
    ("2 (3)", [2, 3]),
    ("2 sqrt(4) e", [2, 2, math.e]),
    # fractions and arithmetic
    ("3/4 1/4", [0.75, 0.25]),
    ("6/1.414", [6 / 1.414]),
    ("1/sqrt(2), 6/sqrt(2), 4/sqrt(2)", [1 / SQRT2, 6 / SQRT2, 4 / SQRT2]),
    ("2*3+1", [7]),
    ("2+3*4", [14]),
    ("(2+3)*4", [20]),
    ("8/4/2", [1]),
    ("2^3", [8]),
    ("2^3^2", [512]),
    ("-2^2", [-4]),
    ("2^-1", [0.5]),
    ("2**3", [8]),
    ("((1))", [1]),
    # roots and exponentials
    ("sqrt(2)", [SQRT2]),
    ("√2", [SQRT2]),
    ("√(2)", [SQRT2]),
    ("sqrt 4", [2]),
    ("√2^2", [2.0000000000000004]),
    ("SQRT(9)", [3]),
    ("e", [math.e]),
    ("e^0.71", [math.exp(0.71)]),
    ("e^0.71/88.5", [math.exp(0.71) / 88.5]),
    ("exp(0.71)", [math.exp(0.71)]),
    ("exp(-1)", [math.exp(-1)]),
    ("exp -1", [math.exp(-1)]),
    ("e^(1/√2)", [math.exp(1 / SQRT2)]),
    ("e^0.71/(e^0.71+e^4.24+e^2.83)", [math.exp(0.71) / (math.exp(0.71) + math.exp(4.24) + math.exp(2.83))]),
    # percentages
    ("78.6%", [0.786]),
    ("2.3% 78.6% 19.1%", [0.023, 0.786, 0.191]),
    ("50%*2", [1]),
    ("(1/2)%", [0.005]),
    # Unicode: full-width forms from an input method (NFKC), signs, symbols
    ("０.２１４，０.９７７", [0.214, 0.977]),
    ("（０.２１４，　０.９７７）", [0.214, 0.977]),
    ("［１，６，４］", [1, 6, 4]),
    ("1\u30006\u30004", [1, 6, 4]),  # ideographic space
    ("1、6、4", [1, 6, 4]),  # ideographic comma
    ("78.6％", [0.786]),
    ("－1 −2", [-1, -2]),  # full-width hyphen-minus, minus sign
    ("2×3 6÷4 2·3", [6, 1.5, 6]),
    ("3² e⁻¹", [9, math.exp(-1)]),
    ("1\u200b6", [16]),  # a zero-width space is dropped
    # the Hangul layout left on: e, exp, sqrt typed on the two-set keyboard
    ("ㄷ^0.71", [math.exp(0.71)]),
    ("ㄷ테(1) ㄴㅂㄱㅅ(4) ㄴㅂㄳ(9)", [math.e, 2, 3]),
]


@pytest.mark.parametrize(("text", "expected"), ACCEPTED, ids=[case[0] for case in ACCEPTED])
def test_accepted_forms(text, expected):
    values = parse_row(text)
    assert values == pytest.approx(expected, rel=1e-15, abs=0)
    assert all(type(v) is float and math.isfinite(v) for v in values)


def test_exact_values_where_a_student_would_check_them():
    assert parse_row("78.6%") == [0.786]  # not 78.6/100 = 0.7859999999999999
    assert parse_row("0.1 0.2") == [0.1, 0.2]
    assert math.copysign(1, parse_row("-0")[0]) == 1  # no negative zero in a report


# (text, key, offending text, 1-based position); None: not checked
REFUSED = [
    ("__import__('os')", "answers.unknown_word", "__import__", 1),
    ("9^9^9^9", "answers.exponent_too_large", "9^9^9", 3),
    ("1e308*1e308", "answers.too_large", "1e308*1e308", 1),
    ("1e200^2", "answers.too_large", "1e200^2", 1),
    ("1e7*1e7", "answers.too_large", "1e7*1e7", 1),
    ("1/1e-300", "answers.too_large", "1/1e-300", 1),
    ("1e309", "answers.number_too_large", "1e309", 1),
    ("2^2000", "answers.exponent_too_large", "2^2000", 1),
    ("e^100", "answers.too_large", "e^100", 1),
    ("exp(28)", "answers.too_large", "exp(28)", 1),
    ("nan", "answers.not_finite_word", "nan", 1),
    ("NaN", "answers.not_finite_word", "NaN", 1),
    ("inf", "answers.not_finite_word", "inf", 1),
    ("1 -Infinity", "answers.not_finite_word", "Infinity", 4),
    ("∞", "answers.not_finite_word", "∞", 1),
    ("1" * 100_000, "answers.too_long", None, None),
    ("(" * 1000 + "1" + ")" * 1000, "answers.too_long", None, None),
    ("(" * 1000, "answers.too_deep", "(", MAX_DEPTH + 1),
    ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "answers.too_deep", "(", MAX_DEPTH + 1),
    ("-" * 500 + "1", "answers.too_deep", "-", None),
    ("1/0", "answers.division_by_zero", "1/0", 1),
    ("1 2/(1-1)", "answers.division_by_zero", "2/(1-1)", 3),
    ("0^-1", "answers.division_by_zero", "0^-1", 1),
    ("sqrt(-1)", "answers.sqrt_negative", "sqrt(-1)", 1),
    ("√-4", "answers.sqrt_negative", "√-4", 1),
    ("(-8)^(1/3)", "answers.negative_power", "(-8)^(1/3)", 1),
    ("", "answers.empty", None, None),
    ("   ", "answers.empty", None, None),
    ("[]", "answers.empty", None, None),
    ("abc", "answers.unknown_word", "abc", 1),
    ("0.5 pi", "answers.unknown_word", "pi", 5),
    ("x", "answers.unknown_word", "x", 1),
    ("3..2", "answers.two_points", "3..2", 1),
    ("1.5 3..2", "answers.two_points", "3..2", 5),
    ("1.2.3", "answers.two_points", "1.2.3", 1),
    ("1e", "answers.bad_number", "1e", 1),
    ("1e+ 2", "answers.bad_number", "1e+", 1),
    (".", "answers.bad_number", ".", 1),
    ("1 = 2", "answers.bad_character", "=", 3),
    ("1; 2", "answers.bad_character", ";", 2),
    ("'1'", "answers.bad_character", "'", 1),
    ("답: 1 6 4", "answers.hangul", "답", 1),
    ("0.5 영", "answers.hangul", "영", 5),
    ("1 +", "answers.missing_number", "+", 3),
    ("(1 +)", "answers.missing_number", "+", 4),
    ("sqrt", "answers.missing_number", "sqrt", 1),
    ("1 * * 2", "answers.expected_number", "*", 5),
    ("*2", "answers.expected_number", "*", 1),
    ("2(3)", "answers.implicit_multiplication", "(", 2),
    ("2√2", "answers.implicit_multiplication", "√", 2),
    ("2e^2", "answers.implicit_multiplication", "e", 2),
    ("(2 3)*1", "answers.implicit_multiplication", "3", 4),
    ("1½", "answers.implicit_multiplication", "½", 2),
    ("1,,2", "answers.empty_cell", ",", 3),
    (", 1", "answers.empty_cell", ",", 1),
    ("[1, 2)", "answers.mismatched", ")", 6),
    ("(1, 2", "answers.unclosed", "(", 1),
    ("1)", "answers.unopened", ")", 2),
    ("[1] 2", "answers.square_bracket", "[", 1),
    ("1 [2]", "answers.square_bracket", "[", 3),
    ("sqrt(2, 3)", "answers.expected_close", ",", 7),
    ("1 % % 2", "answers.unexpected", "%", 5),
]


@pytest.mark.parametrize(("text", "key", "offending", "pos"), REFUSED, ids=[case[0][:30] for case in REFUSED])
def test_refusals_name_what_and_where(text, key, offending, pos):
    with pytest.raises(AnswerError) as caught:
        parse_row(text)
    error = caught.value
    assert isinstance(error, AttnTutorError) and error.exit_code == 1
    finding = error.problems[0]
    assert finding.key == key
    if offending is not None:
        assert finding.args["text"] == offending
    if pos is not None:
        assert finding.args["pos"] == pos
    for lang in ("en", "ko"):
        message = in_language(lang, error.messages)[0]
        assert "{" not in message
        if pos is not None:
            assert str(pos) in message and offending in message


def test_every_refusal_takes_little_work():
    """Counted in function calls, not seconds (benchmarks/refusals.py times them): each refusal
    makes a few hundred, at most about 2,000 (500 signs, refused at the 61st); a text over the
    length limit is refused before a character of it is read."""
    for text, key, *_ in REFUSED:
        with bounded_work(10_000), pytest.raises(AnswerError):
            parse_row(text)
        if key == "answers.too_long":
            with bounded_work(100), pytest.raises(AnswerError):
                parse_row(text)


def test_the_message_a_student_reads():
    with pytest.raises(AnswerError) as caught:
        parse_row("1.5 3..2")
    assert in_language("en", caught.value.messages) == ["could not read '3..2' at character 5: a number has two decimal points"]
    assert in_language("ko", caught.value.messages) == ["5번째 글자의 '3..2'를 읽을 수 없습니다: 한 숫자에 소수점이 두 개 있습니다"]


def test_positions_count_characters_as_typed_not_as_normalised():
    # "½" becomes four characters when normalised; the error still points at the typed text
    with pytest.raises(AnswerError) as caught:
        parse_row("½ 1/0")
    assert caught.value.problems[0].args == {"text": "1/0", "pos": 3}
    with pytest.raises(AnswerError) as caught:
        parse_row("１，２，ｘ")
    assert caught.value.problems[0].args == {"text": "ｘ", "pos": 5}


def test_the_length_limit_is_inclusive():
    assert parse_row(" " * (MAX_LENGTH - 1) + "1") == [1.0]
    with pytest.raises(AnswerError) as caught:
        parse_row(" " * MAX_LENGTH + "1")
    assert caught.value.problems[0].args == {"length": MAX_LENGTH + 1, "limit": MAX_LENGTH}


def test_nesting_up_to_the_limit_is_read():
    assert parse_row("(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH) == [1.0]
    assert parse_row("2^2^2^2") == [65536.0]
    assert parse_row("-" * 20 + "1") == [1.0]


def test_huge_typed_numbers_are_kept_but_not_made_bigger():
    assert parse_row("1e300 -1e300") == [1e300, -1e300]
    assert parse_row("1e300/2") == [5e299]
    assert parse_row("1e6*1e6") == [1e12]


@pytest.mark.parametrize(
    ("text", "expected", "given", "read"),
    [
        ("1 6", 3, 2, "1, 6"),
        ("1 - 2 3", 3, 2, "-1, 3"),
        ("1 -2 3", 2, 3, "1, -2, 3"),
        ("0.214, 0.977, 0", 2, 3, "0.214, 0.977, 0"),
    ],
)
def test_parse_cells_checks_the_count_and_shows_what_it_read(text, expected, given, read):
    with pytest.raises(AnswerError) as caught:
        parse_cells(text, expected)
    finding = caught.value.problems[0]
    assert finding.key == "answers.wrong_count"
    assert finding.args == {"given": given, "expected": expected, "read": read}
    assert f"(read as {read})" in in_language("en", caught.value.messages)[0]


def test_parse_cells_returns_the_row():
    assert parse_cells("0.71 4.24 2.83", 3) == [0.71, 4.24, 2.83]
    assert parse_cells("(0.752, 0.752)", 2) == [0.752, 0.752]


finite = st.floats(allow_nan=False, allow_infinity=False)


@given(finite)
def test_any_finite_float_reads_back_exactly(x):
    assert parse_row(repr(x)) == [x]


@given(st.lists(finite, min_size=1, max_size=20))
def test_any_list_of_floats_reads_back(values):
    assert parse_row(", ".join(repr(v) for v in values)) == values
    assert parse_row(" ".join(repr(v) for v in values)) == values
    assert parse_row("[" + ", ".join(repr(v) for v in values) + "]") == values


def _reads_or_refuses(text: str) -> None:
    try:
        values = parse_row(text)
    except AnswerError as error:
        assert in_language("en", error.messages)[0] and in_language("ko", error.messages)[0]
    else:
        assert values and all(math.isfinite(v) for v in values)


@given(st.text(max_size=60))
def test_any_text_reads_or_is_refused_with_a_sentence(text):
    _reads_or_refuses(text)


@given(st.text(alphabet="0123456789.+-*/^%()[], √e", max_size=80))
def test_any_formula_reads_or_is_refused_with_a_sentence(text):
    _reads_or_refuses(text)
