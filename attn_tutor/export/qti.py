"""Questions as an IMS QTI 1.2 package (a zip with ``imsmanifest.xml``), as Canvas imports it.

The package holds one quiz (``assessment``, a resource of its own in the manifest) per
sheet: the set as written, or with ``--variants`` one per variant, so that a student
keeps one variant through the whole quiz and can carry each stage into the next
(Canvas imports every assessment of a package as a quiz of its own, to be assigned to
a group or section). Each quiz has a section per problem (no random draw, so Canvas
lists its items as they stand) and in it, in worksheet order, a numerical item per
asked cell, showing the problem's givens, so that it stands alone. Every ident is made
with a stable hash of the set (:func:`set_key`): two banks never share one.

An item is Canvas's ``numerical_question``: a ``render_fib fibtype="Decimal"``
box; the right answer is an exact answer with a margin worth 100: ``varequal``
the value rounded to the asked places (what Canvas shows as the correct answer), or
the range ``vargte``/``varlte`` around it that stays inside the cell's window (Canvas reads the
two as an exact answer whose margin is ``varlte`` minus the value); then, where that does not
fill the window, the window itself as a range worth 100 (Canvas: a range answer). The two
together accept exactly what the marker accepts (:func:`attn_tutor.export.bank.right_answer`).
Each mistake that applies to the cell (:mod:`attn_tutor.export.bank`) is a further condition on its
own range, worth 0, whose feedback is the diagnosis. Canvas reads every plain
range or exact answer of a numerical item as another *right* answer, so a
mistake's range is written inside an ``<or>`` with no exact value, a form
Canvas's importer passes over; QTI systems that follow the specification show
its feedback. Canvas shows the item's general incorrect feedback instead, which
lists every diagnosis with the number it gives ("≈ 4.243: You did not divide by
√d ...").

After the problems, each quiz has a section of the sheet's concept items
(:func:`concept_item`): a ``multiple_choice_question`` (``multiple_answers_question`` when
several options are right), its options in the sheet's order and labelled as on it, each
option's feedback shown when it is chosen.

Everything is built with ElementTree; the zip is deterministic (fixed file times,
fixed order), so the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from typing import BinaryIO

from attn_tutor.core.i18n import language, t
from attn_tutor.core.rounding import fmt
from attn_tutor.export import bank, bank_html, concept_sheet
from attn_tutor.export.bank import Cell, Question, bounds
from attn_tutor.export.xmlstream import Streamed, write_document
from attn_tutor.kinds.sampling import export as sampling
from attn_tutor.kinds.sampling.model import TOKEN_STAGES
from attn_tutor.problems.listing import stage_label

QTI_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"
QTI_LOCATION = f"{QTI_NS} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"
CP_LOCATION = f"{CP_NS} http://www.imsglobal.org/xsd/imscp_v1p1.xsd"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


# Canvas reads a QTI 1.2 package through instructure/QTIMigrationTool (lib/imsqtiv1.py, MatText.MakeText:
# a text/html mattext is passed on as its source text, in a ``div class="html"``), then canvas-lms's
# gems/plugins/qti_exporter/lib/qti/html_helper.rb, HtmlHelper#detect_html: a feedback or option whose
# sanitised HTML is a single text node (a text-only <p>) is kept as plain text, which
# HtmlHelper#clear_html makes by removing the tags, decoding the *decimal* entities (&#39;) only and
# deleting every named one (&amp;); a hex entity (&#x27;) is left as it is, and Canvas shows it so
# (choice_interaction.rb, ChoiceInteraction#get_answers, reads an option's text with clear_html too).
# So every text is written as its characters, with only the three that HTML needs escaped, each as a
# decimal entity, which both that plain reading and an HTML parser (Canvas's other reading, and
# every other QTI consumer) give back as the character: no named or hex entity anywhere.
_DECIMAL = {"&": "&#38;", "<": "&#60;", ">": "&#62;"}


def text(value: str) -> str:
    """Plain text as HTML that Canvas shows as written, whether it reads it as HTML or as plain text."""
    return "".join(_DECIMAL.get(ch, ch) for ch in value)


def ident(*parts: object) -> str:
    """A stable identifier (an XML name) made from what it names."""
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode("utf-8"), digest_size=12).hexdigest()
    return "g" + digest


def _field(parent: ET.Element, label: str, entry: str) -> None:
    field = ET.SubElement(parent, "qtimetadatafield")
    ET.SubElement(field, "fieldlabel").text = label
    ET.SubElement(field, "fieldentry").text = entry


def _mattext(parent: ET.Element, html: str) -> None:
    material = ET.SubElement(parent, "material")
    ET.SubElement(material, "mattext", {"texttype": "text/html"}).text = html


def _range(parent: ET.Element, low: str, high: str) -> None:
    ET.SubElement(parent, "vargte", {"respident": "response1"}).text = low
    ET.SubElement(parent, "varlte", {"respident": "response1"}).text = high


def stage_name(stage: str) -> str:
    return t(f"export.stage.{stage}")


def prompt(question: Question, cell: Cell) -> str:
    """The item's question: the problem's header and givens, then the one cell asked."""

    parts = bank_html.header(question, text)
    asked = t(
        "export.qti_prompt",
        stage=stage_name(cell.stage),
        row=cell.token,
        column=cell.column,
        decimals=question.problem.decimals,
    )
    parts.append(f"<p><strong>{text(asked)}</strong></p>")
    return "\n".join(parts)


def incorrect_feedback(cell: Cell, decimals: int) -> str:
    """Every diagnosis of the cell with the number it gives: what Canvas shows for any wrong answer."""

    return _incorrect(cell.mistakes, decimals)


def item(question: Question, cell: Cell, key: str) -> ET.Element:
    """One cell's numerical item; ``key`` (:func:`set_key`) makes its ident the set's own."""
    problem = question.problem
    name = " · ".join(
        part
        for part in (
            problem.id,
            None if question.variant is None else t("export.variant_number", seed=question.variant),
            cell.token,
            t(f"quiz.stage.{cell.stage}"),
            cell.column,
        )
        if part is not None
    )
    element = ET.Element("item", {"ident": ident("item", key, problem.id, question.variant, cell.row, cell.stage, cell.index), "title": name})
    meta = ET.SubElement(ET.SubElement(element, "itemmetadata"), "qtimetadata")
    _field(meta, "question_type", "numerical_question")
    _field(meta, "points_possible", "1")
    presentation = ET.SubElement(element, "presentation")
    _mattext(presentation, prompt(question, cell))
    response = ET.SubElement(presentation, "response_str", {"ident": "response1", "rcardinality": "Single"})
    ET.SubElement(ET.SubElement(response, "render_fib", {"fibtype": "Decimal"}), "response_label", {"ident": "answer1"})

    _numerical_scoring(element, (cell.right,), cell.mistakes, cell.tolerance, incorrect_feedback(cell, problem.decimals))
    return element


def _numerical_scoring(element: ET.Element, rights, mistakes, tolerance: float, general: str) -> None:
    """A numerical item's scoring and feedback (:func:`item`): each right answer an exact value
    with a margin, then its window where that does not fill it, each worth 100; each mistake's
    range worth 0 with its diagnosis; then ``general`` (every diagnosis) for any other answer."""
    processing = ET.SubElement(element, "resprocessing")
    ET.SubElement(
        ET.SubElement(processing, "outcomes"),
        "decvar",
        {"maxvalue": "100", "minvalue": "0", "varname": "SCORE", "vartype": "Decimal"},
    )
    for answer in rights:
        right = ET.SubElement(processing, "respcondition", {"continue": "No"})
        either = ET.SubElement(ET.SubElement(right, "conditionvar"), "or")
        ET.SubElement(either, "varequal", {"respident": "response1"}).text = answer.text
        _range(ET.SubElement(either, "and"), *bounds(float(answer.text), float(answer.margin)))
        ET.SubElement(right, "setvar", {"action": "Set", "varname": "SCORE"}).text = "100"
        if not answer.whole:  # the rest of the window: a range answer
            rest = ET.SubElement(processing, "respcondition", {"continue": "No"})
            _range(ET.SubElement(ET.SubElement(rest, "conditionvar"), "and"), answer.low, answer.high)
            ET.SubElement(rest, "setvar", {"action": "Set", "varname": "SCORE"}).text = "100"
    feedback_ids: list[tuple[str, str | None]] = []
    for number, mistake in enumerate(mistakes, start=1):
        low, high = bounds(mistake.value, tolerance)
        condition = ET.SubElement(processing, "respcondition", {"continue": "No", "title": mistake.code})
        _range(ET.SubElement(ET.SubElement(ET.SubElement(condition, "conditionvar"), "or"), "and"), low, high)
        ET.SubElement(condition, "setvar", {"action": "Set", "varname": "SCORE"}).text = "0"
        feedback_id = f"mistake{number}_fb"
        ET.SubElement(condition, "displayfeedback", {"feedbacktype": "Response", "linkrefid": feedback_id})
        feedback_ids.append((feedback_id, mistake.sentence))
    if general:
        other = ET.SubElement(processing, "respcondition", {"continue": "No"})
        ET.SubElement(ET.SubElement(other, "conditionvar"), "other")
        ET.SubElement(other, "displayfeedback", {"feedbacktype": "Response", "linkrefid": "general_incorrect_fb"})
        feedback_ids.append(("general_incorrect_fb", None))
    for feedback_id, sentence in feedback_ids:
        node = ET.SubElement(element, "itemfeedback", {"ident": feedback_id})
        _mattext(ET.SubElement(node, "flow_mat"), general if sentence is None else f"<p>{text(sentence)}</p>")


def _incorrect(mistakes, decimals: int) -> str:
    """Every diagnosis with the number it gives (:func:`incorrect_feedback`)."""
    if not mistakes:
        return ""
    items = "".join(f"<li>{text(t('export.qti_mistake', value=fmt(m.value, decimals), sentence=m.sentence))}</li>" for m in mistakes)
    return f"<p>{text(t('export.qti_mistakes'))}</p><ul>{items}</ul>"


def _item_name(question, *parts: str | None) -> str:
    problem = question.problem
    variant = None if question.variant is None else t("export.variant_number", seed=question.variant)
    return " · ".join(part for part in (problem.id, variant, *parts) if part is not None)


def sampling_prompt(question: sampling.SamplingQuestion, asked: str) -> str:
    """A sampling item's question: the problem's header, settings and logits, then the one cell asked."""
    parts = bank_html.sampling_header(question, text)
    parts.append(f"<p><strong>{text(asked)}</strong></p>")
    return "\n".join(parts)


def sampling_item(question: sampling.SamplingQuestion, cell: sampling.NumberCell, key: str) -> ET.Element:
    """One number of a sampling problem as a numerical item: each right window (e^x: also
    e^(z/T - max)'s; a cut token's p': exactly 0), then the mistakes, as :func:`item` writes them."""
    problem = question.problem
    stage = stage_label(problem, cell.stage)
    if cell.stage in TOKEN_STAGES:
        asked = t("export.sampling.qti_prompt", stage=stage, token=cell.column, decimals=problem.decimals)
        if cell.stage == "kept":
            asked += " " + t("export.sampling.cut_zero")
    elif cell.column != stage:  # a continuation's loss: a step each
        asked = t("export.sampling.qti_prompt_one", stage=f"{stage} · {cell.column}", decimals=problem.decimals)
    else:
        asked = t("export.sampling.qti_prompt_one", stage=stage, decimals=problem.decimals)
    title = _item_name(question, stage, None if cell.column == stage else cell.column)
    element = ET.Element("item", {"ident": ident("item", key, problem.id, question.variant, "", cell.stage, cell.index), "title": title})
    meta = ET.SubElement(ET.SubElement(element, "itemmetadata"), "qtimetadata")
    _field(meta, "question_type", "numerical_question")
    _field(meta, "points_possible", "1")
    presentation = ET.SubElement(element, "presentation")
    _mattext(presentation, sampling_prompt(question, asked))
    response = ET.SubElement(presentation, "response_str", {"ident": "response1", "rcardinality": "Single"})
    ET.SubElement(ET.SubElement(response, "render_fib", {"fibtype": "Decimal"}), "response_label", {"ident": "answer1"})
    _numerical_scoring(element, cell.rights, cell.mistakes, cell.tolerance, _incorrect(cell.mistakes, problem.decimals))
    return element


def pick_item(question: sampling.SamplingQuestion, cell: sampling.PickCell, key: str) -> ET.Element:
    """The token picked as Canvas's ``multiple_choice_question``: the tokens in the order they are
    listed, the one picked worth 100; a token a known mistake picks shows its diagnosis when chosen."""
    problem = question.problem
    stage = stage_label(problem, "pick")
    element = ET.Element("item", {"ident": ident("item", key, problem.id, question.variant, "", "pick", 0), "title": _item_name(question, stage)})
    meta = ET.SubElement(ET.SubElement(element, "itemmetadata"), "qtimetadata")
    _field(meta, "question_type", "multiple_choice_question")
    _field(meta, "points_possible", "1")
    presentation = ET.SubElement(element, "presentation")
    _mattext(presentation, sampling_prompt(question, t("export.sampling.pick_prompt")))
    response = ET.SubElement(presentation, "response_lid", {"ident": "response1", "rcardinality": "Single"})
    render = ET.SubElement(response, "render_choice", {"shuffle": "No"})
    idents = [f"choice{number}" for number in range(1, len(cell.tokens) + 1)]
    for choice_ident, token in zip(idents, cell.tokens):
        _mattext(ET.SubElement(render, "response_label", {"ident": choice_ident}), text(token))
    wrong = dict(cell.mistakes)
    choices = [
        concept_sheet.Choice(token, index == cell.right, wrong[index].sentence if index in wrong else None)
        for index, token in enumerate(cell.tokens)
    ]
    feedback = _concept_processing(ET.SubElement(element, "resprocessing"), idents, choices, False, None)
    for feedback_id, sentence in feedback:
        node = ET.SubElement(element, "itemfeedback", {"ident": feedback_id})
        _mattext(ET.SubElement(node, "flow_mat"), f"<p>{text(sentence)}</p>")
    return element


def _sampling_items(question: sampling.SamplingQuestion, key: str) -> Iterator[ET.Element]:
    for cell in question.cells:
        yield pick_item(question, cell, key) if isinstance(cell, sampling.PickCell) else sampling_item(question, cell, key)


def concept_item(shown, variant: int | None, key: str) -> ET.Element:
    """One concept item of one sheet: Canvas's ``multiple_choice_question`` (several right options:
    ``multiple_answers_question``), the options in the sheet's order and labelled as on it; each
    option's feedback is shown when it is chosen (``displayfeedback`` of an ``itemfeedback``), the
    explanation with every answer (``general_fb``). An order offers the orders of
    :func:`attn_tutor.export.concept_sheet.order_choices`, one of them right."""
    choices = concept_sheet.choices(shown)
    several = shown.several
    name = shown.id if variant is None else f"{shown.id} · {t('export.variant_number', seed=variant)}"
    element = ET.Element("item", {"ident": ident("concept", key, shown.id, variant), "title": name})
    meta = ET.SubElement(ET.SubElement(element, "itemmetadata"), "qtimetadata")
    _field(meta, "question_type", "multiple_answers_question" if several else "multiple_choice_question")
    _field(meta, "points_possible", "1")
    presentation = ET.SubElement(element, "presentation")
    question = [f"<p>{text(concept_sheet.stem(shown))}</p>"]
    if shown.kind == "order":
        question += [f"<p>{text(concept_sheet.option_line(label, step))}</p>" for label, step in zip(shown.labels, shown.options)]
        question.append(f"<p>{text(t('export.concept.order_choose'))}</p>")
    _mattext(presentation, "\n".join(question))
    response = ET.SubElement(presentation, "response_lid", {"ident": "response1", "rcardinality": "Multiple" if several else "Single"})
    render = ET.SubElement(response, "render_choice")
    idents = [f"choice{number}" for number in range(1, len(choices) + 1)]
    for choice_ident, choice in zip(idents, choices):
        _mattext(ET.SubElement(render, "response_label", {"ident": choice_ident}), text(choice.text))

    feedback = _concept_processing(ET.SubElement(element, "resprocessing"), idents, choices, several, shown.explanation)
    for feedback_id, sentence in feedback:
        node = ET.SubElement(element, "itemfeedback", {"ident": feedback_id})
        _mattext(ET.SubElement(node, "flow_mat"), f"<p>{text(sentence)}</p>")
    return element


def _concept_processing(processing: ET.Element, idents: list[str], choices, several: bool, explanation: str | None) -> list[tuple[str, str]]:
    """A concept item's scoring: the explanation shown with every answer, each option's feedback when
    it is chosen, then 100 for the right answer; returns the feedback to write (ident, sentence)."""
    ET.SubElement(
        ET.SubElement(processing, "outcomes"),
        "decvar",
        {"maxvalue": "100", "minvalue": "0", "varname": "SCORE", "vartype": "Decimal"},
    )
    feedback = []
    if explanation:
        shown_always = ET.SubElement(processing, "respcondition", {"continue": "Yes"})
        ET.SubElement(ET.SubElement(shown_always, "conditionvar"), "other")
        ET.SubElement(shown_always, "displayfeedback", {"feedbacktype": "Response", "linkrefid": "general_fb"})
        feedback.append(("general_fb", explanation))
    for choice_ident, choice in zip(idents, choices):
        if choice.feedback:
            condition = ET.SubElement(processing, "respcondition", {"continue": "Yes"})
            ET.SubElement(ET.SubElement(condition, "conditionvar"), "varequal", {"respident": "response1"}).text = choice_ident
            ET.SubElement(condition, "displayfeedback", {"feedbacktype": "Response", "linkrefid": f"{choice_ident}_fb"})
            feedback.append((f"{choice_ident}_fb", choice.feedback))
    if several:  # every right option chosen and no wrong one, as Canvas writes it
        right = ET.SubElement(processing, "respcondition", {"continue": "No"})
        condition = ET.SubElement(ET.SubElement(right, "conditionvar"), "and")
        for choice_ident, choice in zip(idents, choices):
            if choice.right:
                ET.SubElement(condition, "varequal", {"respident": "response1"}).text = choice_ident
            else:
                ET.SubElement(ET.SubElement(condition, "not"), "varequal", {"respident": "response1"}).text = choice_ident
        ET.SubElement(right, "setvar", {"action": "Set", "varname": "SCORE"}).text = "100"
    else:  # one condition per right option: more than one only where a computed item's numbers tie
        for choice_ident, choice in zip(idents, choices):
            if choice.right:
                right = ET.SubElement(processing, "respcondition", {"continue": "No"})
                ET.SubElement(ET.SubElement(right, "conditionvar"), "varequal", {"respident": "response1"}).text = choice_ident
                ET.SubElement(right, "setvar", {"action": "Set", "varname": "SCORE"}).text = "100"
    return feedback


def set_key(sheets, set_title: str) -> str:
    """A stable hash of what a bank holds: its title, its language and every sheet's problems as
    given (not where they stand in the file). Every ident in the package is made with it, so two
    banks share none (the English and the Korean bank of one set imported into one course included:
    Canvas would take the second for an update of the first), and the same bank made again has the
    same idents."""
    parts: list[object] = [set_title, language()]
    for sheet in sheets:
        parts.append(sheet.variant)
        parts.extend(repr(problem._replace(line=None)) for problem in sheet.problem_set.problems)
        parts.extend(repr(concept._replace(line=None)) for concept in sheet.problem_set.concepts)
    return ident("set", *parts)


def assessment_title(set_title: str, sheet) -> str:
    return set_title if sheet.variant is None else f"{set_title} — {t('export.variant_number', seed=sheet.variant)}"


def assessment(sheet, *, set_title: str, key: str) -> Streamed:
    """One quiz: every asked cell of one sheet (a variant, or the set as written), a section per
    problem, its items made as they are written."""
    identifier = ident("assessment", key, sheet.variant)
    parts = _assessment_parts(sheet, key)
    return Streamed(
        "questestinterop",
        {"xmlns": QTI_NS, "xmlns:xsi": XSI_NS, "xsi:schemaLocation": QTI_LOCATION},
        [Streamed("assessment", {"ident": identifier, "title": assessment_title(set_title, sheet)}, parts)],
    )


def _assessment_parts(sheet, key: str) -> Iterator[ET.Element | Streamed]:
    meta = ET.Element("qtimetadata")
    _field(meta, "cc_maxattempts", "1")
    yield meta
    yield Streamed("section", {"ident": "root_section"}, _problem_sections(sheet, key))


def _problem_sections(sheet, key: str) -> Iterator[Streamed]:
    for problem in sheet.problem_set.problems:
        title = f"{problem.id} — {problem.title}" if problem.title else problem.id
        if problem.kind == "sampling":
            items: Iterator[ET.Element] = _sampling_items(sampling.question(sheet, problem), key)
        else:
            question = bank.question(sheet, problem)
            items = (item(question, cell, key) for cell in question.cells)
        yield Streamed("section", {"ident": ident("problem", key, sheet.variant, problem.id), "title": title}, items)
    shown = concept_sheet.shown_concepts(sheet)
    if shown:
        yield Streamed(
            "section",
            {"ident": ident("concepts", key, sheet.variant), "title": t("export.concepts")},
            (concept_item(item_shown, sheet.variant, key) for item_shown in shown),
        )


def manifest(key: str, quizzes: dict[str, str], title: str) -> ET.Element:
    """The package's manifest: one QTI resource per quiz (``quizzes``: identifier -> file)."""
    root = ET.Element(
        "manifest",
        {"identifier": ident("manifest", key), "xmlns": CP_NS, "xmlns:xsi": XSI_NS, "xsi:schemaLocation": CP_LOCATION},
    )
    metadata = ET.SubElement(root, "metadata")
    ET.SubElement(metadata, "schema").text = "IMS Content"
    ET.SubElement(metadata, "schemaversion").text = "1.1.3"
    ET.SubElement(root, "organizations")
    resources = ET.SubElement(root, "resources")
    for identifier, name in quizzes.items():
        resource = ET.SubElement(resources, "resource", {"identifier": identifier, "type": "imsqti_xmlv1p2", "href": name})
        ET.SubElement(resource, "file", {"href": name})
    return root


def package(sheets, *, set_title: str) -> dict[str, ET.Element | Streamed]:
    """The package's files, in zip order: ``imsmanifest.xml``, then one quiz per sheet (each made
    as it is written), so that a student keeps one variant through the whole quiz."""
    key = set_key(sheets, set_title)
    quizzes = {ident("assessment", key, sheet.variant): sheet for sheet in sheets}
    paths = {identifier: f"{identifier}/{identifier}.xml" for identifier in quizzes}
    files: dict[str, ET.Element | Streamed] = {"imsmanifest.xml": manifest(key, paths, set_title)}
    for identifier, sheet in quizzes.items():
        files[paths[identifier]] = assessment(sheet, set_title=set_title, key=key)
    return files


def zip_info(name: str) -> zipfile.ZipInfo:
    """A file's entry in the zip: fixed time and permissions, deflated, so the same input gives the same bytes."""
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def write(stream: BinaryIO, sheets, *, set_title: str) -> None:
    """The package as a zip written to ``stream`` (seekable), every file listed in the manifest,
    each item compressed as soon as it is made."""
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, root in package(sheets, set_title=set_title).items():
            with archive.open(zip_info(name), "w") as entry:
                write_document(entry, root)
