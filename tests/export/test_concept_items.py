"""Concept items in every export format, read back as their consumer reads them (issue 21).

Worksheets and keys as Markdown (the text a student and a marker read), the compact key
table, Moodle XML as ``qformat_xml::import_multichoice`` reads it (answers, grades from
Moodle's list, feedback) and Canvas QTI items (the response that scores 100, the feedback
of each option), each for the set as written and for variants, whose options are shuffled
with the variant's seed and whose computed choices come from the variant's own numbers.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
import zipfile
from html import unescape
from pathlib import Path

import pytest
from helpers.concept_set import concept_set
from helpers.language import in_language

from attn_tutor.core.i18n import t
from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve import engine
from attn_tutor.solve.concepts import show
from attn_tutor.variants import sheets as variant_sheets

QTI = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
# question_bank::fraction_options_full (question/engine/bank.php), as percentages, and their negatives
MOODLE_GRADES = [1, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2, 0.1666667,
                 0.1428571, 0.125, 0.1111111, 0.1, 0.05, 0]  # fmt: skip


def shown_on(path, variants=None, seed=None):
    """Every sheet's concept items as shown on it, through the library (what the key must say)."""
    problem_set = load_problem_set(str(path))
    sheets = variant_sheets.make_sheets(problem_set, variants=variants, seed=seed)
    return [(sheet, [show(c, sheet.problem_set, seed=sheet.variant) for c in sheet.problem_set.concepts]) for sheet in sheets]


def exported(run_cli, tmp_path, name, *args) -> Path:
    """``attn-tutor export ARGS -o NAME`` in ``tmp_path``, succeeding; the file it wrote."""
    out = tmp_path / name
    result = run_cli("export", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


def export_text(run_cli, tmp_path, name, *args) -> str:
    return exported(run_cli, tmp_path, name, *args).read_text(encoding="utf-8")


def bank(run_cli, tmp_path, fmt: str, variants: int | None, seed: int) -> tuple[bytes, list]:
    """The concept set's question bank in ``fmt`` (one sheet, or ``variants`` sheets from ``seed``),
    and each sheet's concept items as the library shows them (what the bank must carry)."""
    path = concept_set(tmp_path)
    args = [] if variants is None else ["--variants", str(variants), "--seed", str(seed)]
    data = exported(run_cli, tmp_path, "bank.xml" if fmt == "moodle" else "bank.zip", str(path), "-f", fmt, *args).read_bytes()
    return data, shown_on(path, variants=variants, seed=seed if variants else None)


def written(shown) -> str:
    return " ".join(shown.answer) if shown.kind == "order" else ", ".join(shown.answer)


def key_line(shown, lang: str) -> str:
    """The key's answer line: the right label(s), or where a variant's numbers tie, any of them."""
    return in_language(lang, t, "export.concept.right_any" if shown.tied else "export.concept.right", labels=written(shown))


# --- worksheets and keys ----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_worksheet_asks_every_item_with_its_labelled_options_and_no_answer(run_cli, tmp_path, lang):
    path = concept_set(tmp_path)
    (sheet, items), = shown_on(path)
    text = export_text(run_cli, tmp_path, "sheet.md", str(path), "--lang", lang)
    assert in_language(lang, t, "export.concepts") in text
    for number, shown in enumerate(items, start=1):
        assert in_language(lang, t, "export.concept.heading", n=number, id=shown.id) in text
        for label, option in zip(shown.labels, shown.options):
            assert f"({label}) {option}" in text
        if shown.several:  # the stem says how many options are right
            assert f"{shown.stem} {in_language(lang, t, 'export.concept.several', count=len(shown.answer))}" in text
        if shown.explanation:
            assert shown.explanation not in text  # the questions alone: no explanation, no feedback
        for sentence in shown.feedback.values():
            assert sentence is None or sentence not in text
    assert text.count(in_language(lang, t, "export.concept.answer")) >= len(items)  # a blank to write on per item


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_key_gives_the_right_labels_each_wrong_options_feedback_and_why(run_cli, tmp_path, lang):
    path = concept_set(tmp_path)
    (sheet, items), = in_language(lang, shown_on, path)  # the feedback a computed item writes: in the key's language
    text = export_text(run_cli, tmp_path, "key.md", str(path), "--key-only", "--lang", lang)
    for shown in items:
        assert key_line(shown, lang) in text
        if shown.kind != "order":
            for label in shown.labels:
                if label not in shown.answer and shown.feedback.get(label):
                    assert in_language(lang, t, "export.concept.wrong", label=label, feedback=shown.feedback[label]) in text
        if shown.explanation:
            assert shown.explanation in text


def test_each_variant_prints_its_own_order_and_its_key_matches(run_cli, tmp_path):
    path = concept_set(tmp_path)
    sheets = shown_on(path, variants=5, seed=7)
    text = export_text(run_cli, tmp_path, "both.md", str(path), "--variants", "5", "--seed", "7", "--answers")
    orders = set()
    for sheet, items in sheets:
        heading = in_language("en", t, "export.sheet_variant", title="Concepts on every sheet", seed=sheet.variant)
        key_heading = in_language("en", t, "export.key_variant", title="Concepts on every sheet", seed=sheet.variant)
        questions = text.split(heading + "\n", 1)[1].split("\n# ", 1)[0]  # up to the next sheet's heading
        key = text.split(key_heading + "\n", 1)[1].split("\n# ", 1)[0]
        for shown in items:
            lines = [f"({label}) {option}" for label, option in zip(shown.labels, shown.options)]
            # the sheet's options in the sheet's order, and the key's answer for those labels
            positions = [questions.index(line) for line in lines]
            assert positions == sorted(positions)
            assert key_line(shown, "en") in key
            orders.add((shown.id, shown.options))
    assert len(orders) > len(sheets[0][1])  # shuffled per variant: not every sheet has one order


def test_a_computed_choice_is_right_for_each_variants_own_numbers(tmp_path):
    path = concept_set(tmp_path)
    for sheet, items in shown_on(path, variants=6, seed=11):
        (shown,) = [s for s in items if s.id == "eat-attends"]
        problem = sheet.problem_set.get("cat-fish")
        weights = engine.solve(problem).heads[0].weights[problem.row_index("먹었다")]
        most = {key for key, w in zip(problem.keys, weights) if round(w, 3) == round(weights.max(), 3)}
        assert {shown.options[shown.labels.index(label)] for label in shown.answer} == most, sheet.variant
        assert shown.tied == (len(most) > 1)


def test_the_key_table_has_a_line_per_item_and_variant(run_cli, tmp_path):
    path = concept_set(tmp_path)
    text = export_text(run_cli, tmp_path, "table.md", str(path), "--variants", "3", "--seed", "5", "--key-table")
    lines = text.splitlines()
    for sheet, items in shown_on(path, variants=3, seed=5):
        for shown in items:
            cells = [str(sheet.variant), shown.id, "—", in_language("en", t, "export.key_table.concept"), written(shown)]
            assert any([c.strip().strip("*") for c in line.strip("|").split("|")] == cells for line in lines), cells


# --- Moodle XML -------------------------------------------------------------------------


def moodle_concepts(data: bytes) -> list[ET.Element]:
    return [q for q in ET.fromstring(data).iter("question") if q.get("type") == "multichoice"]


def moodle_text(element) -> str:
    return unescape(element.findtext("text") or "")


@pytest.mark.parametrize("variants", [None, 3])
def test_moodle_multichoice_answers_feedback_and_grades_as_moodle_imports_them(run_cli, tmp_path, variants):
    data, sheets = bank(run_cli, tmp_path, "moodle", variants, seed=4)
    questions = moodle_concepts(data)
    expected = [(sheet, shown) for index in range(len(sheets[0][1])) for sheet, items in sheets for shown in [items[index]]]
    assert len(questions) == len(expected)
    for question, (sheet, shown) in zip(questions, expected):
        name = question.find("name").findtext("text")
        assert name.startswith(shown.id) and (sheet.variant is None or str(sheet.variant) in name)
        several = shown.several
        assert question.findtext("single") == ("false" if several else "true")
        assert question.findtext("shuffleanswers") == "false" and question.findtext("answernumbering") == "none"
        answers = question.findall("answer")
        grades = [float(a.get("fraction")) / 100 for a in answers]
        for grade in grades:  # qformat_default: an answer's grade must be in Moodle's list (within 0.00001)
            assert any(abs(abs(grade) - allowed) < 0.00001 for allowed in MOODLE_GRADES), grade
        if several:  # qtype_multichoice::save_question_options: positive grades add up to 100%
            assert round(sum(g for g in grades if g > 0), 2) == 1
            assert sum(grades) <= 0.0000001  # choosing every answer scores nothing
        else:  # one right answer (any of the tied ones where a computed item's numbers tie)
            assert grades.count(1) == (len(shown.answer) if shown.kind != "order" else 1)
            assert grades.count(0) == len(grades) - grades.count(1)
        right = [moodle_text(a) for a, g in zip(answers, grades) if g > 0]
        if shown.kind == "order":
            assert right == [" ".join(shown.answer)]
            assert all(moodle_text(a.find("feedback")) for a, g in zip(answers, grades) if g <= 0)
        else:
            assert right == [f"({label}) {shown.options[shown.labels.index(label)]}" for label in shown.answer]
            for answer, label in zip(answers, shown.labels):  # in the sheet's order, each with its feedback
                assert moodle_text(answer).startswith(f"({label}) ")
                if label not in shown.answer and shown.feedback.get(label):
                    assert moodle_text(answer.find("feedback")) == f"<p>{shown.feedback[label]}</p>"
        if shown.explanation:
            assert shown.explanation in moodle_text(question.find("generalfeedback"))


def test_moodle_puts_each_concept_items_variants_in_one_category(run_cli, tmp_path):
    path = concept_set(tmp_path)
    out = tmp_path / "bank.xml"
    assert run_cli("export", str(path), "-f", "moodle", "-o", str(out), "--variants", "2", "--seed", "9").exit_code == 0
    category = None
    seen: dict[str, set[str]] = {}
    for question in ET.fromstring(out.read_bytes()).iter("question"):
        if question.get("type") == "category":
            category = question.find("category").findtext("text")
        elif question.get("type") == "multichoice":
            seen.setdefault(category, set()).add(question.find("name").findtext("text").split(" — ")[0])
    assert {c.rsplit("/", 1)[1]: ids for c, ids in seen.items()} == {i: {i} for i in ("why-scale", "which-sum-to-one", "eat-attends", "steps")}


# --- Canvas QTI -------------------------------------------------------------------------


def qti_concept_items(data: bytes) -> list[tuple[str, ET.Element]]:
    """(quiz title, item) for every choice item of every quiz in the package."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    found = []
    for name in archive.namelist():
        if name == "imsmanifest.xml":
            continue
        quiz = ET.fromstring(archive.read(name))
        title = quiz.find(f"{QTI}assessment").get("title")
        for item in quiz.iter(f"{QTI}item"):
            kind = {f.findtext(f"{QTI}fieldlabel"): f.findtext(f"{QTI}fieldentry") for f in item.iter(f"{QTI}qtimetadatafield")}
            if kind["question_type"] in ("multiple_choice_question", "multiple_answers_question"):
                found.append((title, item))
    return found


def qti_scores(item) -> tuple[set[str], set[str]]:
    """The choice idents that score 100 (each alone, or together where one condition names several),
    and those that must not be chosen."""
    chosen: set[str] = set()
    excluded: set[str] = set()
    for condition in item.iter(f"{QTI}respcondition"):
        setvar = condition.find(f"{QTI}setvar")
        if setvar is not None and setvar.text == "100":
            var = condition.find(f"{QTI}conditionvar")
            mustnot = {v.text for n in var.iter(f"{QTI}not") for v in n.iter(f"{QTI}varequal")}
            chosen |= {v.text for v in var.iter(f"{QTI}varequal")} - mustnot
            excluded |= mustnot
    assert chosen, "no condition scores 100"
    return chosen, excluded


@pytest.mark.parametrize("variants", [None, 2])
def test_qti_items_score_the_right_options_and_give_each_options_feedback(run_cli, tmp_path, variants):
    data, sheets = bank(run_cli, tmp_path, "qti", variants, seed=6)
    items = qti_concept_items(data)
    assert len(items) == sum(len(shown) for _, shown in sheets)
    by_title = {}
    for title, item in items:
        by_title.setdefault(title, []).append(item)
    for sheet, shown_items in sheets:
        quiz = [v for k, v in by_title.items() if sheet.variant is None or k.endswith(str(sheet.variant))]
        (quiz,) = quiz
        for item, shown in zip(quiz, shown_items):
            several = shown.several
            response = item.find(f".//{QTI}response_lid")
            assert response.get("rcardinality") == ("Multiple" if several else "Single")
            labels = {
                label.get("ident"): unescape(label.findtext(f".//{QTI}mattext"))
                for label in response.iter(f"{QTI}response_label")
            }
            chosen, excluded = qti_scores(item)
            feedback = {fb.get("ident"): unescape(fb.findtext(f".//{QTI}mattext")) for fb in item.iter(f"{QTI}itemfeedback")}
            if shown.kind == "order":
                assert [labels[i] for i in chosen] == [" ".join(shown.answer)]
                continue
            assert sorted(labels[i] for i in chosen) == sorted(
                f"({label}) {shown.options[shown.labels.index(label)]}" for label in shown.answer
            )
            assert (len(excluded) == len(shown.labels) - len(shown.answer)) if several else not excluded
            for ident, text in labels.items():
                label = text[1 : text.index(")")]
                if label not in shown.answer and shown.feedback.get(label):
                    assert feedback[f"{ident}_fb"] == f"<p>{shown.feedback[label]}</p>"
            if shown.explanation:
                assert feedback["general_fb"] == f"<p>{shown.explanation}</p>"


# --- text that HTML, XML or Cloze would read as syntax ------------------------------------

HOSTILE = "<b>x</b> &amp; {1:SHORTANSWER:=y} ~#} \\ 'q' \"r\""


def hostile_set(tmp_path):
    text = concept_set(tmp_path).read_text(encoding="utf-8")
    text = text.replace('"계산을 빠르게 하려고 (to compute faster)"', json.dumps(HOSTILE))  # JSON: a YAML double-quoted scalar
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_option_holding_html_or_cloze_syntax_reads_back_as_written(run_cli, tmp_path):
    path = hostile_set(tmp_path)
    (sheet, items), = shown_on(path)
    option = next(o for o in items[0].options if o.startswith("<b>"))
    label = items[0].labels[items[0].options.index(option)]
    out = tmp_path / "bank.xml"
    assert run_cli("export", str(path), "-f", "moodle", "-o", str(out)).exit_code == 0
    (question,) = [q for q in moodle_concepts(out.read_bytes()) if q.find("name").findtext("text") == "why-scale"]
    html = [a.findtext("text") for a in question.findall("answer") if moodle_text(a).startswith(f"({label})")]
    assert html == [f"({label}) " + option.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")]  # text, not tags
    zipped = tmp_path / "bank.zip"
    assert run_cli("export", str(path), "-f", "qti", "-o", str(zipped)).exit_code == 0
    texts = [unescape(label_.findtext(f".//{QTI}mattext")) for _, item in qti_concept_items(zipped.read_bytes())
             for label_ in item.iter(f"{QTI}response_label")]  # fmt: skip
    assert f"({label}) {option}" in texts
    page = export_text(run_cli, tmp_path, "sheet.html", str(path))
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


def test_an_order_items_right_order_is_not_always_the_first_choice(tmp_path):
    """The banks do not shuffle (the labels are the sheet's): the orders offered are sorted, so where
    the right one stands follows the variant's labels, not the item."""
    from attn_tutor.export.concept_sheet import order_choices

    places = set()
    for _sheet, items in shown_on(concept_set(tmp_path), variants=8, seed=2):
        (shown,) = [s for s in items if s.kind == "order"]
        choices = order_choices(shown)
        assert [c.text for c in choices] == sorted(c.text for c in choices)
        assert [c.text for c in choices if c.right] == [" ".join(shown.answer)]
        assert len(choices) == len(shown.labels)  # the right order and each neighbouring swap
        places.add([c.right for c in choices].index(True))
    assert len(places) > 1
