"""The golden cases reproduce exactly in Python, and cover every verdict, diagnosis and parse error.

The same file is run through the practice page's JavaScript by tests/e2e/test_practice_page_browser.py, so
the two implementations of the marker and the answer parser cannot drift apart. When a
rule changes on purpose, regenerate with ``python tests/tools/make_golden.py``, review
the diff, and commit it with the change (the JavaScript must follow).
"""

from __future__ import annotations

import re

import pytest
from helpers import golden_cases as g
from helpers.paths import ROOT

from attn_tutor.marking import marker as grading

GOLDEN = g.load()
ANSWERS_SOURCE = (ROOT / "attn_tutor" / "marking" / "answers.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", GOLDEN["parse"], ids=lambda c: repr(c["text"][:30]))
def test_parse_case_reproduces(case):
    expected = {k: v for k, v in case.items() if k != "text"}
    assert g.run_parse(case["text"]) == expected


@pytest.mark.parametrize("case", GOLDEN["format"], ids=lambda c: f"{c['x']!r}/{c['decimals']}")
def test_format_case_reproduces(case):
    assert g.run_format(case["x"], case["decimals"]) == {"fmt": case["fmt"], "fmt_given": case["fmt_given"]}


@pytest.mark.parametrize("case", GOLDEN["marking"], ids=lambda c: c["name"])
def test_marking_case_reproduces(case):
    assert g.run_marking(case) == case["expected"]


@pytest.mark.parametrize("case", GOLDEN["hints"], ids=lambda c: f"{c['problem']}/{c['row']}/{c['stage']}")
def test_hint_case_reproduces(case):
    assert g.run_hint(case) == case["line"]


@pytest.mark.parametrize("case", GOLDEN["commands"], ids=lambda c: repr(c["text"]))
def test_command_case_reproduces(case):
    assert g.run_command(case["text"]) == case["command"]


def test_the_command_cases_cover_each_answer_and_pythons_whitespace():
    assert {c["command"] for c in GOLDEN["commands"]} == {"quit", "hint", "empty", None}
    texts = "".join(c["text"] for c in GOLDEN["commands"])
    assert {"\x1c", "\x1f", "\x85", "\ufeff", "\u3000"} <= set(texts)


@pytest.mark.parametrize("case", GOLDEN["signs"], ids=lambda c: f"{c['kind']}{c['args']}")
def test_sign_case_reproduces(case):
    assert g.run_sign(case) == case["sign"]


def test_both_signs_have_cases():
    assert {c["sign"] for c in GOLDEN["signs"]} == {"=", "≈"}


def _found(cases, what: str) -> set:
    return {item[what] for case in cases for item in case["expected"]["items"]}


@pytest.mark.parametrize("mode", grading.MODES)
def test_every_verdict_has_golden_cases_in_each_mode(mode):
    cases = [c for c in GOLDEN["marking"] if c["mode"] == mode]
    assert set(grading.VERDICTS) <= _found(cases, "verdict")


def test_every_diagnosis_has_golden_cases():
    assert set(grading.DIAGNOSES) <= _found(GOLDEN["marking"], "diagnosis")


def test_every_verdict_and_diagnosis_is_typed_in_the_browser():
    typed = [c for c in GOLDEN["marking"] if c.get("dom")]
    assert all(c["mode"] == "practice" for c in typed)
    assert set(grading.DIAGNOSES) <= _found(typed, "diagnosis")
    assert set(grading.VERDICTS) - {"missing"} <= _found(typed, "verdict")


def test_every_answer_error_has_a_golden_case():
    keys = set(re.findall(r'"(answers\.[a-z_]+)"', ANSWERS_SOURCE)) - {"answers.wrong_count"}  # parse_cells only
    assert keys, "no error keys found in answers.py"
    assert keys <= {case.get("error") for case in GOLDEN["parse"]}


def test_the_cells_that_count_are_in_the_golden_problems():
    """Masks, a set divisor, several heads, cross-attention and projection all have cases."""
    ids = {c["problem"] for c in GOLDEN["marking"]}
    assert ids == set(g.problem_set().ids)
