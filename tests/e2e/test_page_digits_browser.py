"""The page and the CLI read the same digits and show numbers in messages alike (issue 35, rule 10).

The digits read are answers.py's explicit sets (``DIGITS``: ASCII and full-width; ``FRACTIONS``),
given to the page as data: chromium's newer Unicode tables make ``𜳶`` (U+1CCF6) a 6, Python's
do not, and neither reads it. A number in a message (what was read, an exponent) is
core/rounding.py's ``fmt_short`` in both, ties rounded half up (83148.25 is 83148.3, where
JavaScript's ``toExponential`` and Python's ``.6g`` differed). Marked ``browser``.
"""

from __future__ import annotations

import random

import pytest
from helpers import golden_cases as g
from helpers.language import in_language
from helpers.watched import Watched

from attn_tutor.core.rounding import fmt_short
from attn_tutor.marking.answers import AnswerError, parse_row
from attn_tutor.marking.digits import DIGITS, FRACTIONS

pytestmark = pytest.mark.browser

# typed lines with every kind of digit: read alike, refused alike (the same key, text and place)
LINES = [
    "1 6 4", "１ ６ ４", "０.７１，４.２４", "½ ¼ ¾", "3² 2³", "１e２", "1½",
    "𜳶", "1 𜳶", "𜳰.5", "①", "1 ② 3", "₆", "x₂", "𝟔", "𝟘.5", "🯶", "٣", "۴", "०", "๓", "⑴", "⒈", "🄁", "㋀", "⅟2",
    "1, 2, 3 4", "83148.25 1 2", "2^2000", "9^9^9^9", "1e-7 2 3", "123456789 0.000012345 1",
]  # fmt: skip

PARSE = """lines => lines.map(text => {
  const A = globalThis.AttnTutor.answers;
  try { return {values: A.parseRow(text)}; }
  catch (e) { if (!(e instanceof A.AnswerError)) throw e; return {error: e.key, args: e.args}; }
})"""


def python_reading(text: str) -> dict:
    try:
        return {"values": parse_row(text)}
    except AnswerError as error:
        finding = error.problems[0]
        return {"error": finding.key, "args": {k: str(v) for k, v in finding.args.items()}}


def _opened(browser, tmp_path_factory, lang: str):
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app_for

    out = tmp_path_factory.mktemp("digits") / "page.html"
    args = ["export", str(g.PROBLEMS), "-f", "page", "-o", str(out), "--lang", lang]
    result = CliRunner().invoke(app_for(args), args, prog_name="attn-tutor")
    assert result.exit_code == 0, result.output
    watched = Watched(browser)
    watched.page.goto(out.resolve().as_uri())
    watched.page.wait_for_selector("section[data-problem]")
    return watched


@pytest.fixture(scope="module", params=["en", "ko"])
def any_page(browser, tmp_path_factory, request):
    watched = _opened(browser, tmp_path_factory, request.param)
    yield request.param, watched.page
    assert watched.errors == []
    watched.context.close()


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    watched = _opened(browser, tmp_path_factory, "en")
    yield watched.page
    assert watched.errors == []
    watched.context.close()


def test_the_page_is_given_pythons_digits(page):
    data = page.evaluate("() => globalThis.AttnTutor.page.data()")
    assert data["digits"] == DIGITS and data["fractions"] == FRACTIONS


def test_the_page_reads_every_line_as_the_cli_does(page):
    got = page.evaluate(PARSE, LINES)
    for text, mine in zip(LINES, got):
        if "args" in mine:
            mine["args"] = {k: str(v) for k, v in mine["args"].items()}
        assert mine == python_reading(text), text
    # what the browser's own tables would have read, and neither reader does
    assert page.evaluate("() => '\\u{1CCF6}'.normalize('NFKC')") in ("6", "\U0001ccf6")
    assert python_reading("𜳶")["error"] == "answers.bad_character"


def _values(count: int) -> list[float]:
    rng = random.Random(35)
    values = [83148.25, -83148.25, 0.5, 123456.5, 999999.5, 0.0001234565, 2.5e-7, 1e16, 5e-324, 1.7976931348623157e308, 0.0, -0.0]
    for _ in range(count):
        kind = rng.randrange(4)
        if kind == 0:  # exact ties at the sixth digit: n + 0.5 units
            value = (rng.randrange(100000, 1000000) + 0.5) * 10.0 ** rng.randint(-8, 8)
        elif kind == 1:  # short decimals
            value = round(rng.uniform(-1e4, 1e4), rng.randint(0, 8))
        elif kind == 2:
            value = rng.uniform(-1, 1) * 10.0 ** rng.randint(-300, 300)
        else:
            value = float(rng.randrange(-(10**9), 10**9)) / 4
        values.append(value)
    return values


def test_numbers_in_messages_are_shown_alike_over_many_values(page):
    values = _values(20000)
    got = page.evaluate("xs => xs.map(x => globalThis.AttnTutor.numbers.short(x))", values)
    differ = [(x, mine, fmt_short(x)) for x, mine in zip(values, got) if mine != fmt_short(x)]
    assert not differ, differ[:10]
    assert got[:2] == ["83148.3", "-83148.3"]


def test_a_message_names_the_numbers_read_as_the_cli_does(page):
    got = page.evaluate(
        """() => { try { globalThis.AttnTutor.answers.parseCells('83148.25 0.1234565', 3); }
                   catch (e) { return e.args.read; } }"""
    )
    assert got == "83148.3, 0.123457"
    with pytest.raises(AnswerError) as caught:
        from attn_tutor.marking.answers import parse_cells

        parse_cells("83148.25 0.1234565", 3)
    assert caught.value.problems[0].args["read"] == got


@pytest.mark.parametrize("line", ["1 𜳶 2", "１ ① ２", "2^2000 1 1", "1 2 9^9^9^9"])
def test_the_sentence_under_a_line_typed_into_the_page_is_the_clis(any_page, line):
    lang, page = any_page
    row = page.locator('section[data-problem="cat-fish"] [data-row="먹었다"]')
    field = row.locator('input[data-stage="scores"]')
    field.fill(line)
    field.press("Enter")
    with pytest.raises(AnswerError) as caught:
        parse_row(line)
    key = caught.value.problems[0].key
    shown = row.locator(f'[data-error="{key}"]')
    assert shown.count() == 1, line
    sentence = in_language(lang, caught.value.messages)[0]
    if "\\U" not in sentence:  # (the CLI escapes a character its Unicode tables do not know)
        assert sentence in shown.inner_text()


def test_the_live_class_reads_the_same_lines(serve, browser):
    server = serve()
    student = Watched(browser)
    try:
        student.page.goto(server.student_url)
        student.page.locator("[data-join-name]").fill("김민지")
        student.page.locator("[data-join]").click()
        student.page.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=30_000)
        got = student.page.evaluate(PARSE, LINES)
        for text, mine in zip(LINES, got):
            if "args" in mine:
                mine["args"] = {k: str(v) for k, v in mine["args"].items()}
            assert mine == python_reading(text), text
        values = _values(2000)
        shown = student.page.evaluate("xs => xs.map(x => globalThis.AttnTutor.numbers.short(x))", values)
        assert shown == [fmt_short(x) for x in values]
        assert student.errors == []
    finally:
        student.context.close()
