"""`export -f moodle`: text holding Cloze syntax or HTML comes back from Moodle as the same text.

In a Cloze blank ``}`` ends the blank, ``~`` the alternative and ``#`` the answer;
Moodle decodes the feedback's HTML references once and stores the result as HTML
(tests/helpers/moodle.py). So a diagnosis sentence holding ``}``, ``#``, ``~``,
``&`` or ``<`` must be written so that it neither cuts its blank short nor turns
into markup: each case here is put in the catalogue as a diagnosis, exported
through the command, read back with Moodle's parser, and must show, letter for
letter, what was written. A token or title holding them stays text in the
question, and opens no blank.
"""

from __future__ import annotations

import pytest
from helpers.moodle import BLANK, is_plain_html, moodle_questions, parse_cloze, shown

from attn_tutor.core import i18n
from attn_tutor.core.model import Head, Problem, ProblemSet
from attn_tutor.export import bank
from attn_tutor.problems.dump import dump_problem_set
from attn_tutor.problems.load import load_problem_set
from attn_tutor.variants import sheets

TEXTS = {
    "brace": "Close the brace } before you go on.",
    "hash": "Row #2 used the wrong key.",
    "tilde": "You were ~0.5 off.",
    "ampersand": "Q & K were swapped.",
    "less-than": "Here a < b, and <b>b</b> is not bold.",
    "apostrophe": "Don't forget √d.",
    "references-as-text": "&lt; &amp; &#125; &copy and &apos; are written as they are.",
    "backslash-escapes": "The escapes \\} \\# \\~ of Cloze stay as typed.",
    "a-blank-of-its-own": "{1:NUMERICAL:=1:0.1} and {#1} are text.",
    "all-at-once": "} # ~ & < > \\ / \" {",
}
# Known bugs, as strict xfails (a fix turns them into failures to remove); none at present.
KNOWN: dict[tuple[str, str], str] = {}


def cases(where: str) -> list:
    return [
        pytest.param(text, id=name, marks=[pytest.mark.xfail(strict=True, reason=KNOWN[(where, name)])] if (where, name) in KNOWN else [])
        for name, text in TEXTS.items()
    ]


CODE = "grading.diagnosis.not_scaled"  # a diagnosis every problem of ch13 lists in some blank


def export_moodle(run_cli, tmp_path, *args: str) -> bytes:
    out = tmp_path / "bank.xml"
    result = run_cli("export", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out.read_bytes()


@pytest.mark.parametrize("sentence", cases("feedback"))
def test_a_diagnosis_holding_cloze_or_html_syntax_reads_back_as_written(run_cli, tmp_path, monkeypatch, sentence):
    for lang in i18n.LANGS:
        monkeypatch.setitem(i18n.catalogue(lang), CODE, sentence)
    found = moodle_questions(export_moodle(run_cli, tmp_path))
    problem_set = load_problem_set(None)
    expected = bank.questions(sheets.make_sheets(problem_set))
    assert len(found) == len(expected)
    seen = 0
    for (_category, element), question in zip(found, expected):
        blanks, rest = parse_cloze(element.findtext("questiontext/text"))
        assert BLANK.search(rest) is None and len(blanks) == len(question.cells)  # no blank cut short
        for blank, cell in zip(blanks, question.cells):
            rights = [a for a in blank["alternatives"] if a["fraction"] == 1.0]  # the rounded answer, then the window
            wrong = blank["alternatives"][len(rights) :]
            assert all(a["feedback"] is None for a in rights)
            assert [alternative["value"] for alternative in wrong] == pytest.approx([m.value for m in cell.mistakes], abs=1e-12)
            for alternative, mistake in zip(wrong, cell.mistakes):
                stored = alternative["feedback"]  # what Moodle keeps, as HTML
                assert is_plain_html(stored), stored  # no tag, no bare & left to a browser's guess
                assert shown(stored) == mistake.sentence
                seen += mistake.sentence == sentence
    assert seen > 0


@pytest.mark.parametrize("text", cases("text"))
def test_a_token_and_title_holding_cloze_or_html_syntax_stay_text(run_cli, tmp_path, text):
    q, k, v = ((1.0, 2.0), (0.0, 1.0), (2.0, 2.0)), ((1.0, 0.0), (0.0, 2.0), (1.0, 1.0)), ((1.0, 0.0), (0.0, 1.0), (2.0, 1.0))
    problem = Problem(id="syntax", title=text, tokens=(text, "b", "c"), heads=(Head(Q=q, K=k, V=v),))
    path = tmp_path / "set.yaml"
    path.write_text(dump_problem_set(ProblemSet((problem,))), encoding="utf-8")
    ((_category, element),) = moodle_questions(export_moodle(run_cli, tmp_path, str(path)))
    from attn_tutor.solve import engine

    cells = bank.asked_cells(engine.solve(load_problem_set(str(path)).problems[0]))
    blanks, rest = parse_cloze(element.findtext("questiontext/text"))
    assert len(blanks) == len(cells)  # the text opened no blank, and closed none
    page = shown(rest)
    assert page.count(text) >= 2  # the title, and the token naming its row and column
