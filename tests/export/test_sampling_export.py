"""A sampling problem exported (issue 38): the worksheet and its key (Markdown, HTML, PDF), the key
table, the Moodle Cloze bank read back by Moodle's parser and the Canvas QTI package validated
against the QTI DTD, each asking the cells the marker marks.

The fixture (tests/fixtures/sampling/set.yaml): top-p with a draw and every stage, top-k with a
draw whose greedy pick is another token (a pick mistake to offer), a greedy problem at 2 places,
and a continuation of two steps (loss a step, perplexity).
"""

from __future__ import annotations

import os
import re
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from helpers.moodle import BLANK, moodle_questions, parse_cloze, shown
from helpers.sheets import export, export_pdf

from attn_tutor.core.i18n import set_language, t
from attn_tutor.core.rounding import fmt
from attn_tutor.kinds.sampling import export as sampling
from attn_tutor.kinds.sampling import marking
from attn_tutor.problems.load import load_problem_set
from attn_tutor.variants import sheets

from .test_moodle_and_qti import QTI, export_bytes, open_package

SET = Path(__file__).parents[1] / "fixtures" / "sampling" / "set.yaml"


def questions() -> list[sampling.SamplingQuestion]:
    problem_set = load_problem_set(str(SET))
    (sheet,) = sheets.make_sheets(problem_set, variants=None, seed=None)
    return [sampling.question(sheet, problem) for problem in problem_set.problems]


def cell_text(question, cell) -> str:
    if isinstance(cell, sampling.PickCell):
        return cell.tokens[cell.right]
    return fmt(cell.value, question.problem.decimals)


# --- worksheets and keys ---------------------------------------------------------------


def test_the_worksheet_shows_settings_logits_what_to_write_and_blank_tables_but_no_answer(run_cli):
    out = export(run_cli, str(SET), "-f", "md", "--lang", "en")
    assert "T = 0.5 · top-p = 0.9 · draw u = 0.7 · target 생선을" in out
    assert "T = 0.8 · top-k = 3 · draw u = 0.85 · target 다" in out
    assert "T = 2 · no draw: the most likely token is picked (greedy)" in out
    assert "| **z** | 2 | 1 | 0.1 |" in out and "| **z** | 1.5 | 1.2 | 0.3 | -0.5 |" in out
    assert "Step 1: the next token is c" in out and "Step 2: the next token is a" in out
    assert out.count("write 0 for a token that is cut") == 2  # the two problems asking kept p'
    assert "whose interval \\[low, high) holds u" in out and "write the most likely kept token itself" in out
    assert "Loss: −ln p(생선을)" in out and "Round every answer half up to 2 decimal places." in out
    box = "&nbsp;" * 8
    for label in ("scaled logits z/T", "e^(z/T)", "probabilities", "kept and renormalised", "token picked", "loss −ln p", "perplexity"):
        assert re.search(rf"\| \*\*{re.escape(label)}\*\* \| {box} \|", out), label  # a row of boxes to fill
    for question in questions():  # no answer printed on the questions
        for cell in question.cells:
            if isinstance(cell, sampling.NumberCell) and not cell.cut and abs(cell.value) >= 0.01 and cell_text(question, cell) not in ("1.000", "2.000", "0.200", "1.00"):
                assert cell_text(question, cell) not in out, (question.problem.id, cell)


def test_the_key_fills_every_asked_cell_half_up_with_the_arithmetic(run_cli):
    out = export(run_cli, str(SET), "-f", "md", "--key-only", "--lang", "en")
    rows = {}
    for line in out.splitlines():
        match = re.match(r"\| \*\*(.+?)\*\* \| (.+) \|$", line)
        if match:
            rows.setdefault(match.group(1), []).append([c.strip() for c in match.group(2).split("|")])
    # the tables in order: next-word's, top-k's, greedy's; a cut token's p' reads 0 (cut)
    assert rows["scaled logits z/T"][0] == ["4.000", "2.000", "0.200"]
    assert rows["kept and renormalised"][0] == ["0.881", "0.119", "0.000 (cut)"]
    assert rows["kept and renormalised"][1] == ["0.523", "0.360", "0.117", "0.000 (cut)"]
    assert rows["token picked"] == [["생선을"], ["나"], ["z"]]
    assert rows["probabilities"][2] == ["0.28", "0.13", "0.59"]  # greedy: 2 places
    assert rows["loss −ln p"] == [["0.146"], ["2.189"], ["0.408", "1.551"]]
    assert rows["perplexity"] == [["2.663"]]
    for question in questions():
        for cell in question.cells:
            assert cell_text(question, cell) in out
    assert "Picked: 나 — u = 0.85 falls in its interval [0.523, 0.883)" in out
    assert "0.864 + 0.117 = 0.981 ≥ 0.9" in out and "Perplexity: e^((0.408 + 1.551) ÷ 2) = e^0.980 = 2.663" in out


def test_the_korean_sheet_and_key_speak_korean_only(run_cli):
    out = export(run_cli, str(SET), "-f", "md", "--answers", "--lang", "ko")
    for sentence in ("차례대로 구하세요", "제외되는 토큰의 p'는 0으로 쓰세요", "토큰마다 채우기", "단계별 손실", "내 답", "0.000 (제외)", "뽑은 수 u = 0.7"):
        assert sentence in out, sentence
    for english in ("Work out", "Fill in", "your answer", "(cut)", "Answers", "Kept p'", "Token picked", "Loss:", "Round every", "Step 1", "Picked"):
        assert english not in out, english


def test_the_key_table_lists_every_sampling_answer(run_cli):
    out = export(run_cli, str(SET), "-f", "md", "--key-table", "--lang", "en")
    assert "| **next-word** | — | kept and renormalised | 생선을 0.881, 우유를 0.119, 밥을 — |" in out
    assert "| **top-k** | — | token picked | 나 |" in out
    assert "| **three** | — | loss −ln p | 0.408, 1.551 |" in out
    assert "| **three** | — | perplexity | 2.663 |" in out
    assert "| **greedy** | — | probabilities | x 0.28, y 0.13, z 0.59 |" in out


def test_the_html_worksheet_has_a_box_for_every_asked_cell(run_cli):
    out = export(run_cli, str(SET), "-f", "html", "--lang", "en")
    # blank answer tables draw every empty cell as a box to write in: one a cell the banks ask
    assert out.count('<td class="box"></td>') == sum(len(q.cells) for q in questions())


@pytest.mark.pdf
@pytest.mark.cjk_font
def test_the_korean_pdf_prints_the_sheet_and_the_key(run_cli, tmp_path):
    out = export_pdf(run_cli, tmp_path / "sheet.pdf", str(SET), "--answers", "--lang", "ko")
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    flat = re.sub(r"\s", "", text)
    for words in ("고양이가 생선을", "생선을 우유를 밥을", "차례대로 구하세요", "토큰마다 채우기", "0.000 (제외)", "0.881", "2.663", "퍼플렉서티"):
        assert re.sub(r"\s", "", words) in flat, words
    png = tmp_path / "page"
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(out), str(png)], check=True)
    assert (tmp_path / "page-1.png").stat().st_size > 5000  # a page drawn (looked at by hand: Hangul, not boxes)


# --- Moodle --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_cloze_blank_parses_with_its_window_its_choices_and_the_diagnoses(run_cli, tmp_path, lang):
    data = export_bytes(run_cli, tmp_path, "bank.xml", str(SET), "--lang", lang)
    set_language(lang)
    expected = questions()
    found = moodle_questions(data)
    assert len(found) == len(expected)
    diagnosed: set[str] = set()
    for (category, element), question in zip(found, expected):
        assert category.split("/")[-1].startswith(question.problem.id)
        blanks, rest = parse_cloze(element.findtext("questiontext/text"), choices=True)
        assert BLANK.search(rest) is None and len(blanks) == len(question.cells)
        assert "0.000" not in shown(rest) or question.problem.id == "three"  # no answer in the text around the blanks
        for blank, cell in zip(blanks, question.cells):
            if isinstance(cell, sampling.PickCell):
                assert blank["type"] == "MULTICHOICE"
                assert [shown(a["text"]) for a in blank["alternatives"]] == list(cell.tokens)  # as listed, not shuffled
                assert [a["fraction"] for a in blank["alternatives"]] == [1.0 if i == cell.right else 0.0 for i in range(len(cell.tokens))]
                for index, mistake in cell.mistakes:
                    assert shown(blank["alternatives"][index]["feedback"]) == t(f"grading.diagnosis.{mistake.code}")
                    diagnosed.add(mistake.code)
                continue
            rights = [a for a in blank["alternatives"] if a["fraction"] == 1.0]
            assert rights[0]["value"] == float(cell_text(question, cell))  # the answer Moodle shows, as asked
            if cell.cut:
                assert rights == [{"fraction": 1.0, "value": 0.0, "tolerance": 0.0, "feedback": None}]
            wrong = blank["alternatives"][len(rights) :]
            assert len(wrong) == len(cell.mistakes) and all(a["fraction"] == 0.0 for a in wrong)
            for alternative, mistake in zip(wrong, cell.mistakes):
                assert shown(alternative["feedback"]) == t(f"grading.diagnosis.{mistake.code}")
                assert alternative["tolerance"] == pytest.approx(cell.tolerance)
                diagnosed.add(mistake.code)
        assert element.findtext("generalfeedback/text")  # the worked arithmetic after an attempt
    named = {"temperature_multiplied", "temperature_ignored", "temperature_after_softmax", "exp_not_normalized", "not_renormalized", "top_p_boundary", "ignored_draw", "log_base", "loss_sign"}
    assert named <= diagnosed, named - diagnosed


def test_the_kept_question_says_a_cut_tokens_p_is_zero_and_a_kept_token_typed_zero_is_the_top_p_mistake(run_cli, tmp_path):
    found = moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml", str(SET), "--lang", "en"))
    text = found[0][1].findtext("questiontext/text")
    assert "write 0 for a token that is cut" in shown(parse_cloze(text, choices=True)[1])
    blanks, _rest = parse_cloze(text, choices=True)
    kept = [b for b, c in zip(blanks, questions()[0].cells) if c.stage == "kept"]
    milk = [a for a in kept[1]["alternatives"] if a["value"] == 0.0]  # 우유를, kept: 0 is the cut one token early
    assert milk and shown(milk[0]["feedback"]) == t("grading.diagnosis.top_p_boundary")


def test_tokens_that_look_like_cloze_or_html_stay_text_in_the_choices(run_cli, tmp_path):
    path = tmp_path / "hostile.yaml"
    hostile = ["a}b", "c~d", "e#f", "<b>&amp;"]
    path.write_text(
        "title: h\nproblems:\n  - id: h\n    kind: sampling\n"
        f"    tokens: [{', '.join(repr(x) for x in hostile)}]\n"
        "    logits: [1, 2, 3, 0]\n    draw: 0.5\n    top_k: 2\n    stages: [kept, pick]\n",
        encoding="utf-8",
    )
    ((_category, element),) = moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml", str(path)))
    blanks, rest = parse_cloze(element.findtext("questiontext/text"), choices=True)
    assert len(blanks) == len(hostile) + 1  # no token opened a blank of its own
    assert [shown(a["text"]) for a in blanks[-1]["alternatives"]] == hostile
    for token in hostile:
        assert token in shown(rest)


# --- Canvas (QTI) --------------------------------------------------------------------------


@pytest.mark.qti_dtd
def test_the_sampling_package_validates_against_the_qti_dtd(run_cli, tmp_path):
    data = export_bytes(run_cli, tmp_path, "bank.zip", str(SET), "--lang", "ko")
    archive, _manifest, _quizzes = open_package(data)
    from lxml import etree

    dtd = etree.DTD(os.environ["ATTN_TUTOR_QTI_DTD"])
    for name in archive.namelist():
        if name == "imsmanifest.xml":
            continue
        root = etree.fromstring(archive.read(name))
        for element in root.iter():
            element.tag = etree.QName(element).localname
            for attribute in list(element.attrib):
                if attribute.startswith("{"):
                    del element.attrib[attribute]
        etree.cleanup_namespaces(root)
        assert dtd.validate(root), dtd.error_log.filter_from_errors()[:3]


def test_each_number_is_a_numerical_item_and_the_pick_a_choice_with_its_diagnosis(run_cli, tmp_path):
    _archive, _manifest, (quiz,) = open_package(export_bytes(run_cli, tmp_path, "bank.zip", str(SET), "--lang", "en"))
    sections = quiz.find(f"{QTI}assessment/{QTI}section").findall(f"{QTI}section")
    expected = questions()
    assert len(sections) == len(expected)
    for section, question in zip(sections, expected):
        items = section.findall(f"{QTI}item")
        assert len(items) == len(question.cells)
        for item, cell in zip(items, question.cells):
            fields = {f.findtext(f"{QTI}fieldlabel"): f.findtext(f"{QTI}fieldentry") for f in item.iter(f"{QTI}qtimetadatafield")}
            prompt = shown(item.findtext(f"{QTI}presentation/{QTI}material/{QTI}mattext"))
            feedback = {f.get("ident"): shown(f.findtext(f".//{QTI}mattext")) for f in item.findall(f"{QTI}itemfeedback")}
            if isinstance(cell, sampling.PickCell):
                assert fields["question_type"] == "multiple_choice_question" and "Which token is picked?" in prompt
                labels = item.findall(f".//{QTI}response_label")
                assert [shown(label.findtext(f".//{QTI}mattext")) for label in labels] == list(cell.tokens)
                scored = [c for c in item.iter(f"{QTI}respcondition") if c.findtext(f"{QTI}setvar") == "100"]
                assert [c.findtext(f".//{QTI}varequal") for c in scored] == [labels[cell.right].get("ident")]
                for index, mistake in cell.mistakes:
                    assert feedback[f"{labels[index].get('ident')}_fb"] == mistake.sentence
                continue
            assert fields["question_type"] == "numerical_question"
            assert item.find(f".//{QTI}varequal").text == cell_text(question, cell)
            if cell.stage == "kept":
                assert "A token top-k or top-p cuts has p' = 0: type 0." in prompt
            for mistake in cell.mistakes:
                assert mistake.sentence in feedback["general_incorrect_fb"]
    assert any(isinstance(c, sampling.PickCell) and c.mistakes for q in expected for c in q.cells)  # top-k's greedy 가


def test_the_bank_windows_are_the_markers(run_cli):
    """Each number's right window is the one kinds.sampling.marking.windows gives the marker."""
    for question in questions():
        problem, solution = question.problem, question.solution
        for cell in question.cells:
            if isinstance(cell, sampling.PickCell) or cell.cut:
                continue
            values = solution.stage_values(cell.stage)
            window = marking.windows(problem, cell.stage, values)[cell.index]
            assert (float(Decimal(cell.rights[0].low)), float(Decimal(cell.rights[0].high))) == window
            if cell.stage == "exp":
                shifted = marking.windows(problem, "exp", solution.step.shifted)[cell.index]
                assert shifted in [(float(Decimal(r.low)), float(Decimal(r.high))) for r in cell.rights]


@pytest.mark.xelatex
def test_the_korean_latex_sheet_and_key_compile(run_cli, tmp_path):
    (tmp_path / "sheet.tex").write_text(export(run_cli, str(SET), "-f", "tex", "--answers", "--lang", "ko"), encoding="utf-8")
    run = subprocess.run(
        ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:]
    text = re.sub(r"\s", "", subprocess.run(["pdftotext", "sheet.pdf", "-"], cwd=tmp_path, capture_output=True, text=True).stdout)
    assert "토큰마다채우기" in text and "0.000(제외)" in text and "2.663" in text
