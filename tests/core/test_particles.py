"""Korean particles chosen for the word they follow: 파일을, √2를, 1.4로, 'l'을, weights를.

The rule is :mod:`attn_tutor.core.particles`; the catalogue marks each particle ``[을]``
and no sentence a user reads keeps a generic pair such as 을(를) or (으)로.
"""

from __future__ import annotations

import re
import string

import pytest
from helpers.language import in_language
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.core.i18n import messages, t
from attn_tutor.core.particles import MARKER, PARTICLES, attach

# What a word is read as, and the particles it takes: (text, 을/를, 이/가, (으)로).
WORDS = [
    # Hangul: by the last syllable's 받침; ㄹ takes 로
    ("파일", "을", "이", "로"),
    ("토큰", "을", "이", "으로"),
    ("고양이가", "를", "가", "로"),
    ("생선을", "을", "이", "로"),
    ("먹었다", "를", "가", "로"),
    ("가중치", "를", "가", "로"),
    ("ㄱ", "을", "이", "으로"),
    ("ㄹ", "을", "이", "로"),
    # digits read in Korean
    ("0", "을", "이", "으로"),  # 영
    ("1", "을", "이", "로"),  # 일
    ("2", "를", "가", "로"),  # 이
    ("3", "을", "이", "으로"),  # 삼
    ("4", "를", "가", "로"),
    ("5", "를", "가", "로"),
    ("6", "을", "이", "으로"),  # 육
    ("7", "을", "이", "로"),  # 칠
    ("8", "을", "이", "로"),  # 팔
    ("9", "를", "가", "로"),
    ("10", "을", "이", "으로"),  # 십
    ("100", "을", "이", "으로"),  # 백
    ("1000", "을", "이", "으로"),  # 천
    ("1,000", "을", "이", "으로"),
    ("10000", "을", "이", "으로"),  # 만
    ("2001", "을", "이", "로"),  # 이천일
    ("42005", "를", "가", "로"),  # 사만이천오
    ("1000000000000", "를", "가", "로"),  # 조
    ("1.4", "를", "가", "로"),  # 일점사
    ("0.707", "을", "이", "로"),  # 칠
    ("2.50", "을", "이", "으로"),  # 영
    ("-3", "을", "이", "으로"),
    ("1e60", "을", "이", "으로"),  # 육십
    ("ch13", "을", "이", "으로"),
    ("UTF-8", "을", "이", "로"),
    # symbols read as what they show
    ("√2", "를", "가", "로"),
    ("√3", "을", "이", "으로"),
    ("(0.214, 0.977)", "을", "이", "로"),
    ("%", "를", "가", "로"),
    ("∞", "를", "가", "로"),
    ("(", "를", "가", "로"),
    ("x²", "을", "이", "으로"),  # 제곱
    # Latin letters by their English names
    ("'a'", "를", "가", "로"),
    ("'l'", "을", "이", "로"),
    ("'m'", "을", "이", "으로"),
    ("'n'", "을", "이", "으로"),
    ("'r'", "를", "가", "로"),
    ("'x'", "를", "가", "로"),
    ("Q", "를", "가", "로"),
    ("W_Q", "를", "가", "로"),
    ("d_k", "를", "가", "로"),
    ("csv", "를", "가", "로"),
    ("sqrt", "를", "가", "로"),
    ("PDF", "를", "가", "로"),
    ("HTML", "을", "이", "로"),
    ("XML", "을", "이", "로"),
    ("JSON", "을", "이", "으로"),
    # English words by their ending
    ("weights", "를", "가", "로"),
    ("scores", "를", "가", "로"),
    ("scaled", "를", "가", "로"),
    ("softmax", "를", "가", "로"),
    ("mask", "를", "가", "로"),
    ("student", "를", "가", "로"),
    ("tolerance", "를", "가", "로"),
    ("output", "을", "이", "으로"),
    ("input", "을", "이", "으로"),
    ("set", "을", "이", "으로"),
    ("zip", "을", "이", "으로"),
    ("causal", "을", "이", "로"),
    ("Moodle", "을", "이", "로"),
    ("table", "을", "이", "로"),
    ("yaml", "을", "이", "로"),
    ("json", "을", "이", "으로"),
    ("token", "을", "이", "으로"),
    ("problem", "을", "이", "으로"),
    ("name", "을", "이", "으로"),
    ("line", "을", "이", "으로"),
    ("string", "을", "이", "으로"),
    ("Canvas", "를", "가", "로"),
    # closing quotes, brackets and file names: the word inside, the name's last part
    ('"생선을"', "을", "이", "로"),
    ("'고양이가'", "를", "가", "로"),
    ("(x)", "를", "가", "로"),
    ("set.yaml", "을", "이", "로"),
    ("my-set.yaml", "을", "이", "로"),
    ("answers/kim.csv", "를", "가", "로"),
    ("report.html", "을", "이", "로"),
    ("out/", "을", "이", "으로"),
    ("", "를", "가", "로"),
]


@pytest.mark.parametrize(("text", "object_", "subject", "towards"), WORDS)
def test_each_particle_fits_the_word_before_it(text, object_, subject, towards):
    assert (attach(text, "을"), attach(text, "이"), attach(text, "으로")) == (object_, subject, towards)
    topic = {"을": "은", "를": "는"}[object_]
    both = {"을": "과", "를": "와"}[object_]
    naming = {"을": "이라는", "를": "라는"}[object_]
    assert (attach(text, "은"), attach(text, "과"), attach(text, "이라는")) == (topic, both, naming)


# --- the rule over many words ----------------------------------------------------------

DIGIT_NAMES = "영일이삼사오육칠팔구"
SMALL_UNITS = ["", "십", "백", "천"]
LARGE_UNITS = ["", "만", "억", "조", "경"]


def read_korean(n: int) -> str:
    """An independent reading of a whole number in Sino-Korean (12345 → 만이천삼백사십오)."""
    if n == 0:
        return "영"
    words = []
    group = 0
    while n:
        n, part = divmod(n, 10000)
        if part:
            text = ""
            for place in range(3, -1, -1):
                digit = part // 10**place % 10
                if digit:
                    text += ("" if digit == 1 and place else DIGIT_NAMES[digit]) + SMALL_UNITS[place]
            words.insert(0, text + LARGE_UNITS[group])
        group += 1
    return "".join(words)


def object_particle(reading: str) -> str:
    return "를" if (ord(reading[-1]) - 0xAC00) % 28 == 0 else "을"


@given(st.integers(min_value=0, max_value=10**20 - 1))
def test_a_whole_number_takes_the_particle_of_its_korean_reading(n):
    reading = read_korean(n)
    assert attach(str(n), "을") == object_particle(reading), reading
    assert attach(f"{n:,}", "을") == object_particle(reading)


@given(st.integers(min_value=0, max_value=10**6), st.text(alphabet=string.digits, min_size=1, max_size=6))
def test_a_decimal_takes_the_particle_of_its_last_digit(whole, fraction):
    assert attach(f"{whole}.{fraction}", "을") == object_particle(DIGIT_NAMES[int(fraction[-1])])


HANGUL = st.integers(min_value=0xAC00, max_value=0xD7A3).map(chr)


@given(st.text(max_size=12), HANGUL, st.sampled_from(sorted(PARTICLES)))
def test_a_hangul_syllable_decides_whatever_comes_before_it(before, syllable, marker):
    final = (ord(syllable) - 0xAC00) % 28
    after_consonant, after_vowel, after_rieul = PARTICLES[marker]
    expected = after_vowel if final == 0 else after_rieul if final == 8 else after_consonant
    assert attach(before + syllable, marker) == expected


@given(st.text(max_size=12), st.sampled_from(["'", '"', ")", "]", "’", "”", "」", " ", "."]), st.sampled_from(sorted(PARTICLES)))
def test_closing_quotes_and_brackets_are_read_through(text, closing, marker):
    if text.strip(" \t\u00a0'\"`’”»›」』〉》)]}>.,;:!?…。、/\\_-~·"):
        assert attach(text + closing, marker) == attach(text, marker)


# --- the catalogue and what it renders -------------------------------------------------

PAIR = re.compile(r"[을를이가은는와과]\([을를이가은는와과]\)|\((?:으|이)\)[로라]")
BRACKETED = re.compile(r"\[([을를이가은는와과으로라]+)\]")


def test_no_catalogue_entry_keeps_a_generic_particle_pair():
    pairs = {key: korean for key, korean in in_language("ko", messages, "").items() if PAIR.search(korean)}
    assert not pairs, pairs


def test_every_particle_marker_in_the_catalogue_is_one_the_rule_knows():
    unknown = {key: m for key, ko in in_language("ko", messages, "").items() for m in BRACKETED.findall(ko) if m not in PARTICLES}
    assert not unknown, unknown
    assert not any(MARKER.search(english) for english in in_language("en", messages, "").values())


SAMPLES = ["√2", "1.4", "'a'", "weights", "my-set.yaml", "생선을", "고양이가", "42005", "output", "ㄹ"]


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_korean_sentence_renders_without_a_pair_or_a_marker(sample):
    fields = string.Formatter()
    for key, korean in in_language("ko", messages, "").items():
        names = {name for _, name, _, _ in fields.parse(korean) if name}
        text = in_language("ko", t, key, **{name: sample for name in names})
        assert not PAIR.search(text) and not MARKER.search(text), (key, text)


SET = "problems:\n  - id: a\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n    V: [[1, 0], [0, 1]]\n"


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("    ask: [weight]\n", "'weights'를 쓰려던 것인가요?"),
        ("    rows: [m]\n", "'m'은 Query 토큰이 아닙니다"),
        ("    rows: [z]\n", "'z'는 Query 토큰이 아닙니다"),
        ("  - id: a\n    tokens: [x]\n    Q: [[1]]\n    K: [[1]]\n    V: [[1]]\n", "id 'a'가 두 번 쓰였습니다"),
        ("    decimals: 30\n", "decimals[은] 0부터"),
    ],
)
def test_validate_prints_particles_chosen_for_the_word(run_cli, tmp_path, extra, expected):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SET + extra, encoding="utf-8")
    result = run_cli("validate", str(bad), "--lang", "ko")
    assert result.exit_code == 1
    assert expected.replace("[은]", "는") in " ".join(result.output.split()), result.output
    assert not PAIR.search(result.output) and not MARKER.search(result.output)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("1 abc", "'abc'를 읽을 수 없습니다"), ("1 6 ㄱ", "'ㄱ'을 읽을 수 없습니다"), ("1 6 4)", "')'를 읽을 수 없습니다")],
)
def test_the_quiz_prints_particles_chosen_for_what_was_typed(run_cli, typed, expected):
    result = run_cli("quiz", "--lang", "ko", input=typed + "\nq\n")
    assert expected in result.output, result.output
    assert not PAIR.search(result.output) and not MARKER.search(result.output)
