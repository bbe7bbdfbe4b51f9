"""A several-answer item says how many options are right, in every output a student reads:
solve, quiz, the worksheet, both banks and the page; the sheet never asks for "the letter of the
right answer" when more than one is right."""

from __future__ import annotations

import io
import zipfile

import pytest
from helpers.language import in_language
from helpers.page import script_json

from attn_tutor.core.i18n import t

SET = """\
problems:
  - id: p
    tokens: [x, y]
    Q: [[1, 0], [0, 1]]
    K: [[1, 0], [0, 1]]
concepts:
  - id: many
    stem: "Which are steps of attention?"
    several: true
    options:
      - {text: softmax, right: true}
      - {text: "divide by the root of d", right: true}
      - {text: "add the values", right: true}
      - {text: "sort the keys", feedback: "nothing is sorted"}
  - id: one-of-several
    stem: "Which is a row operation?"
    several: true
    options:
      - {text: softmax, right: true}
      - {text: "a transpose", feedback: "a transpose is of a matrix"}
      - {text: "a product of matrices", feedback: "that is of two matrices"}
"""
COUNTS = {"many": 3, "one-of-several": 1}


@pytest.fixture
def several_set(tmp_path):
    path = tmp_path / "several.yaml"
    path.write_text(SET, encoding="utf-8")
    return path


def _text(out):
    if out.suffix == ".zip":
        with zipfile.ZipFile(io.BytesIO(out.read_bytes())) as bank:
            return "\n".join(bank.read(name).decode("utf-8") for name in bank.namelist() if name.endswith(".xml"))
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("output", "args", "key"),
    [
        ("solve", (), "concepts.several_note"),
        ("worksheet", ("--format", "md"), "export.concept.choose_several"),
        ("worksheet stem", ("--format", "md"), "export.concept.several"),
        ("moodle", ("--format", "moodle"), "export.concept.several"),
        ("qti", ("--format", "qti"), "export.concept.several"),
        ("page", ("--format", "page"), "export.concept.several"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_output_says_how_many_options_are_right(run_cli, tmp_path, several_set, output, args, key, lang):
    if output == "solve":
        result = run_cli("solve", str(several_set), "--lang", lang)
        assert result.exit_code == 0, result.output
        text = result.output
    else:
        suffix = {"md": ".md", "moodle": ".xml", "qti": ".zip", "page": ".html"}[args[1]]
        text = _text_of(run_cli, tmp_path, several_set, args, suffix, lang)
    for item, count in COUNTS.items():
        said = in_language(lang, t, key, count=count)
        assert said in " ".join(text.split()) or said in text, (item, said)
    if output.startswith("worksheet"):
        assert in_language(lang, t, "export.concept.choose") not in text  # never "the letter of the right answer"


def _text_of(run_cli, tmp_path, path, args, suffix, lang):
    out = tmp_path / f"bank-{len(list(tmp_path.iterdir()))}{suffix}"
    result = run_cli("export", str(path), *args, "--lang", lang, "-o", str(out))
    assert result.exit_code == 0, result.output
    return _text(out)


def test_the_page_carries_how_many_are_right(run_cli, tmp_path, several_set):
    text = _text_of(run_cli, tmp_path, several_set, ("--format", "page"), ".html", "en")
    data = script_json(text)
    counts = {item["id"]: item["right_count"] for item in _concepts(data)}
    assert counts == COUNTS


def _concepts(data):
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "right_count" in node and "id" in node:
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return found


def test_the_quiz_says_how_many_are_right(run_cli, several_set):
    stage_answers = "0 0\n" * 30  # the problem's six stage questions, answered (wrongly) and done
    result = run_cli("quiz", str(several_set), "--lang", "en", input=stage_answers + "A, B, C\nA\n")
    text = " ".join(result.output.split())
    assert in_language("en", t, "quiz.concept_ask.several", count=3) in text
    assert in_language("en", t, "quiz.concept_ask.several", count=1) in text


TIED = """\
problems:
  - id: even
    tokens: [x, y, z]
    Q: [[1, 0], [0, 1], [1, 1]]
    K: [[1, 0], [1, 0], [0, 1]]
concepts:
  - {id: q, kind: computed, problem: even, row: x, ask: most-attended, stem: s}
"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_sheet_of_numbers_that_tie_never_asks_for_the_one_right_answer(run_cli, tmp_path, lang):
    """A set never validated whose own numbers tie (validate refuses it; variants never tie):
    the sheet says that several options tie and any one is right."""
    path = tmp_path / "tied.yaml"
    path.write_text(TIED, encoding="utf-8")
    text = _text_of(run_cli, tmp_path, path, ("--format", "md"), ".md", lang)
    assert in_language(lang, t, "export.concept.choose_tied", count=2) in text
    assert in_language(lang, t, "export.concept.choose") not in text
