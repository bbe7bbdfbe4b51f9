"""Questions as Moodle XML: one Cloze (``multianswer``) question per problem and sheet, and one
``multichoice`` question per concept item and sheet (:func:`concept_element`).

Each question shows the problem's instructions and givens (HTML tables) and a table
per asked stage whose open cells are ``NUMERICAL`` blanks::

    {1:NUMERICAL:=0.786:0.0005~=0.78586:0.00064~%0%0.545:0.00064#You divided the scaled scores ...~...}

The first alternative (full marks) is the value rounded to the asked places, which
Moodle shows as "the correct answer" (``qtype_numerical_question::get_correct_answer``: the
first answer graded right), with a margin that stays inside the cell's window; the second
(full marks too, where the first does not fill it) is the window itself as its centre and
half-width, so the blank accepts exactly what ``grade``, the quiz, the page and the live class
accept (:func:`attn_tutor.export.bank.right_answer`). Every mistake that applies to the cell
(:mod:`attn_tutor.export.bank`) and lies outside the window follows as a 0% alternative whose
feedback is the diagnosis. Moodle's numerical marking takes the first alternative within its
tolerance (``get_matching_answer``; ``answer ± (tolerance + 1e-14·max(1, |answer|))``, ends
included), so the right answers always win where ranges overlap. The worked arithmetic is the general feedback, shown after an
attempt. All sheets of one problem share a category (``$course$/top/<set>/<problem>``,
each level escaped as Moodle's own export does), so a quiz's "random question" from
that category gives each student one variant of that problem (a whole problem, every
stage, is one question); and each variant's questions carry the variant as a tag
(``<tags>``, read by ``qformat_xml::import_question_tags``), so that one quiz per
variant, which keeps a student on one variant throughout, is the bank filtered by a tag.

Escaping follows Moodle's parser (question/type/multianswer/questiontype.php): a
blank runs from ``{n:TYPE:`` to the first ``}``; alternatives end at ``~``, an
answer at ``#``, feedback at ``~`` or ``}`` unless a backslash precedes them; the
feedback is then HTML-entity-decoded and ``\\}``, ``\\#`` unescaped, and shown as
HTML. So feedback is HTML-escaped, its ``&`` escaped once more (the decoding
removes one layer), and ``} # ~ / " '`` written as numeric character references,
which the parser never sees as syntax and the decoding turns back into the
characters; a backslash is written as a reference that survives the decoding
(``&amp;#92;``), since Moodle unescapes ``\\}`` and ``\\#`` after it. Text outside the blanks is HTML-escaped with ``{`` and ``}`` as
references too, so no token can open a blank or a ``{#1}`` placeholder. The XML
layer (ElementTree) escapes everything once more.

A concept item is a ``multichoice`` question per sheet, in a category of its own beside the
problems' (``$course$/top/<set>/<concept id>``, each variant tagged as a problem's are). Its
answers are the sheet's options in the sheet's order, labelled in their text as on the
sheet, so ``shuffleanswers`` is off and ``answernumbering`` is ``none``: a variant's labels
are its own, as its key says. Each answer carries its option's feedback; the explanation is
the general feedback. Grades are from Moodle's list (:data:`SHARES`): one right option 100,
the others 0; several right options (``single`` false) share 100 and each wrong one takes an
equal share away. An ``order`` item is a ``multichoice`` too, over whole orders (the right
one and each with two neighbouring steps swapped, each saying which): Moodle's ``ordering``
question type is core only since 4.4 and an import of an unknown type fails on the older
Moodles schools run, and a Cloze ``MULTICHOICE`` per position would give part marks for a
partly right order, which ``grade`` does not.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html import escape
from typing import BinaryIO

from attn_tutor.core.i18n import t
from attn_tutor.core.model import asked_row_indices, asked_stages
from attn_tutor.export import bank, bank_html, concept_sheet
from attn_tutor.export.bank import Cell, Question, decimal_text
from attn_tutor.export.xmlstream import Streamed, write_document
from attn_tutor.kinds.sampling import export as sampling
from attn_tutor.solve.concepts import show
from attn_tutor.solve.layout import explain_blocks, stage_table

_CLOZE = {"}": "&#125;", "{": "&#123;", "#": "&#35;", "~": "&#126;", "\\": "&#92;", "/": "&#47;", '"': "&#34;", "'": "&#39;"}
# In feedback a backslash stays a reference through Moodle's one decoding (``&amp;#92;`` -> ``&#92;``):
# decoded to ``\`` there, Moodle's unescaping of ``\}`` and ``\#`` would take it away.
_CLOZE_FEEDBACK = {**_CLOZE, "\\": "&amp;#92;"}


def text(value: str) -> str:
    """Plain text as HTML for a Cloze question's text: nothing in it reads as a blank."""
    return "".join(_CLOZE.get(ch, ch) for ch in escape(value, quote=False) if ch not in "\x00")


def feedback(sentence: str) -> str:
    """A feedback sentence as the text after ``#`` in a Cloze alternative."""
    html = escape(sentence, quote=False).replace("&", "&amp;")
    return "".join(_CLOZE_FEEDBACK.get(ch, ch) for ch in html)


def blank(cell: Cell) -> str:
    """``{1:NUMERICAL:=rounded:margin~=centre:half~%0%wrong:tolerance#diagnosis~...}``: the right
    answer as rounded to the asked places with a margin that stays inside the cell's window (what
    Moodle shows as the correct answer: ``get_correct_answer`` takes the first answer graded right),
    then the window itself as a further full-marks answer, so that the blank accepts exactly the
    window the marker accepts (:func:`attn_tutor.export.bank.right_answer`). Moodle marks with the
    first answer within its tolerance (``get_matching_answer``), so the mistakes after them only
    speak outside the window."""
    return numerical((cell.right,), cell.mistakes, cell.tolerance)


def numerical(rights, mistakes, tolerance: float) -> str:
    """A NUMERICAL blank: each right answer (its rounded value with a margin, then its window where
    that does not fill it), then each mistake on its own range with its diagnosis (:func:`blank`)."""
    width = decimal_text(tolerance)
    alternatives = []
    for right in rights:
        alternatives.append(f"={right.text}:{right.margin}")
        if not right.whole:
            alternatives.append(f"={right.centre}:{right.half}")
    for mistake in mistakes:
        alternatives.append(f"%0%{decimal_text(mistake.value)}:{width}#{feedback(mistake.sentence)}")
    return "{1:NUMERICAL:" + "~".join(alternatives) + "}"


def choice_blank(cell: sampling.PickCell) -> str:
    """``{1:MULTICHOICE:=right~%0%other#diagnosis~...}``: the tokens in the order they are listed
    (not shuffled), the one picked worth 100; a token a known mistake picks carries its diagnosis."""
    wrong = dict(cell.mistakes)
    alternatives = []
    for index, token in enumerate(cell.tokens):
        mark = "=" if index == cell.right else "%0%"
        said = f"#{feedback(wrong[index].sentence)}" if index in wrong else ""
        alternatives.append(f"{mark}{text(token)}{said}")
    return "{1:MULTICHOICE:" + "~".join(alternatives) + "}"


def sampling_question_text(question: sampling.SamplingQuestion) -> str:
    """A sampling problem's Cloze text: what to write, the settings and logits, then the tables with
    a blank in each asked cell (a NUMERICAL blank a number, a MULTICHOICE one for the token picked)."""
    parts = bank_html.sampling_header(question, text)
    blanks = {(c.stage, c.index): c for c in question.cells}
    for grid in sampling.grids(question.problem):
        body = []
        for label, keys in grid.rows:
            cells = []
            for key in keys:
                cell = blanks.get(key)
                if cell is None:  # an infinite loss: no number to type
                    cells.append(text("—"))
                elif isinstance(cell, sampling.PickCell):
                    cells.append(choice_blank(cell))
                else:
                    cells.append(numerical(cell.rights, cell.mistakes, cell.tolerance))
            body.append((label, cells))
        parts.append(bank_html.table(grid.title, grid.header, body, text))
    return "\n".join(parts)


def question_text(question: Question | sampling.SamplingQuestion) -> str:
    """The Cloze question text: what to do, the givens, and a table of blanks per asked stage."""

    if isinstance(question, sampling.SamplingQuestion):
        return sampling_question_text(question)
    problem, solution = question.problem, question.solution
    parts = bank_html.header(question, text)
    blanks = {(c.row, c.stage, c.index): c for c in question.cells}
    rows = asked_row_indices(problem)
    for stage in asked_stages(problem):
        # one table per head before the output (heads side by side in a row), in head order
        for head, table in enumerate(stage_table(solution, stage, rows, problem.decimals, blank=True)):
            offset = 0 if stage == "output" else head * len(problem.keys)
            body = []
            for (label, *cells), row in zip(table.rows, rows):
                html_cells = []
                for j, cell_text in enumerate(cells):
                    cell = blanks.get((row, stage, offset + j))
                    html_cells.append(blank(cell) if cell is not None and cell_text == "" else text(cell_text))
                body.append((label, html_cells))
            parts.append(bank_html.table(table.title, table.header, body, text, table.note))
    return "\n".join(parts)


def question_of(sheet, problem):
    """One problem of one sheet with its asked cells: a sampling problem's own, or attention's."""
    if problem.kind == "sampling":
        return sampling.question(sheet, problem)
    return bank.question(sheet, problem)


def general_feedback(question: Question | sampling.SamplingQuestion) -> str:
    """The worked arithmetic of each asked row, shown after an attempt."""

    if isinstance(question, sampling.SamplingQuestion):
        return bank_html.sampling_feedback(question, text)
    problem = question.problem
    parts = []
    for row in asked_row_indices(problem):
        for block in explain_blocks(question.solution, row, problem.decimals, asked_stages(problem)):
            parts.append(f"<p><strong>{text(block.title or '')}</strong></p><pre>{text(chr(10).join(block.lines))}</pre>")
    return "\n".join(parts)


def category_name(name: str) -> str:
    """One level of a Moodle category path: the name as Moodle stores it (:func:`stored_name`), then
    written as Moodle's own export writes it (``qformat_default::assemble_category_path``,
    question/format.php): a ``/`` doubled, and a space before a leading or after a trailing ``/``, so
    the level neither splits nor merges with the next when Moodle reads the path back
    (``split_category_path``: split at a lone ``/``, trim, ``//`` -> ``/``)."""
    escaped = stored_name(name).replace("/", "//")
    if escaped.startswith("/"):
        escaped = " " + escaped
    if escaped.endswith("/"):
        escaped = escaped + " "
    return escaped


# Moodle keeps a category name in question_categories.name, a varchar(255): a longer name is a
# database error that stops the whole import (qformat_default::create_category_path inserts it as is).
CATEGORY_NAME_MAX = 255
# A category name is HTML to Moodle: split_category_path cleans it with clean_param(PARAM_TEXT),
# which strips whatever looks like a tag (a title "Attention <Q, K>" would become "Attention", and
# two sets differing only there would share a category), and format_string shows it as HTML. So
# ``&`` and ``<`` go as references, which the cleaning leaves and the page shows as the characters.
_NAME_REFERENCES = {"&": "&amp;", "<": "&lt;"}


def stored_name(name: str) -> str:
    """A category name as Moodle must be given it to show ``name`` as written: ``&`` and ``<`` as
    references, at most 255 characters stored (cut short, ending in ``…``, never inside a reference)."""
    pieces = [_NAME_REFERENCES.get(ch, ch) for ch in name]
    if sum(map(len, pieces)) <= CATEGORY_NAME_MAX:
        return "".join(pieces)
    kept, size = [], 0
    for piece in pieces:
        if size + len(piece) > CATEGORY_NAME_MAX - 1:
            break
        kept.append(piece)
        size += len(piece)
    return "".join(kept).rstrip() + "…"


def problem_category(problem) -> str:
    """A problem's category name, ``<id> — <title>`` (cut to Moodle's length by :func:`stored_name`,
    from the end of the title: an id of a set's 200 characters stays whole)."""
    return f"{problem.id} — {problem.title}" if problem.title else problem.id


def category_path(set_title: str, problem) -> str:
    """``$course$/top/<set>/<problem>``, each level written as :func:`category_name` says."""
    return "$course$/top/" + "/".join(category_name(part) for part in (set_title, problem_category(problem)))


def _text_element(parent: ET.Element, tag: str, value: str, html: bool = False) -> ET.Element:
    element = ET.SubElement(parent, tag, {"format": "html"} if html else {})
    ET.SubElement(element, "text").text = value
    return element


def document(sheets, *, set_title: str) -> Streamed:
    """A Moodle XML question file: per problem a category, then its questions (one per sheet,
    tagged with its variant), each question made as it is written."""
    return Streamed("quiz", {}, _elements(sheets, set_title))


def _elements(sheets, set_title: str) -> Iterator[ET.Element]:
    for problem in sheets[0].problem_set.problems:
        category = ET.Element("question", {"type": "category"})
        _text_element(category, "category", category_path(set_title, problem))
        _text_element(category, "info", "", html=True)
        yield category
        for sheet in sheets:
            yield question_element(question_of(sheet, sheet.problem_set.get(problem.id)))
    for number, concept in enumerate(sheets[0].problem_set.concepts):
        category = ET.Element("question", {"type": "category"})
        _text_element(category, "category", concept_category_path(set_title, concept.id))
        _text_element(category, "info", "", html=True)
        yield category
        for sheet in sheets:
            shown = show(sheet.problem_set.concepts[number], sheet.problem_set, seed=sheet.variant)
            yield concept_element(shown, sheet.variant)


def concept_category_path(set_title: str, concept_id: str) -> str:
    """``$course$/top/<set>/<concept id>``: a concept item's variants share a category, as a problem's do."""
    return "$course$/top/" + "/".join(category_name(part) for part in (set_title, concept_id))


# The grades Moodle allows an answer (question_bank::fraction_options_full, question/engine/bank.php:
# 1, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2, 0.1666667,
# 0.1428571, 0.125, 0.1111111, 0.1, 0.05, 0 and their negatives); the import refuses any other
# (qformat_default::importprocess, match_grade_options: within 0.00001). 1/k of them, as percentages:
SHARES = {1: "100", 2: "50", 3: "33.33333", 4: "25", 5: "20", 6: "16.66667", 7: "14.28571", 8: "12.5", 9: "11.11111", 10: "10"}


def fractions(choices, several: bool) -> list[str]:
    """Each answer's grade in percent: a right answer 100 and the others 0 (a computed item whose
    numbers tie has several right answers, any one of which is right); for an item with several
    right options, these share 100 (Moodle requires the positive grades to add up to 100%, rounded
    to two places) and each wrong one takes an equal share of -100 away, so that choosing every
    answer scores 0."""
    right = sum(choice.right for choice in choices)
    if not several:
        return ["100" if choice.right else "0" for choice in choices]
    wrong = len(choices) - right
    return [SHARES[right] if choice.right else ("-" + SHARES[wrong] if wrong else "0") for choice in choices]


def concept_text(shown) -> str:
    """A concept item's question text: its stem, and for an order its labelled steps."""
    parts = [f"<p>{escape(concept_sheet.stem(shown), quote=False)}</p>"]
    if shown.kind == "order":
        for label, step in zip(shown.labels, shown.options):
            parts.append(f"<p>{escape(concept_sheet.option_line(label, step), quote=False)}</p>")
        parts.append(f"<p>{escape(t('export.concept.order_choose'), quote=False)}</p>")
    return "\n".join(parts)


def concept_element(shown, variant: int | None) -> ET.Element:
    """One concept item of one sheet as a ``multichoice`` question: the options in the sheet's order
    and labelled as on it (``shuffleanswers`` off, no numbering of Moodle's own), each answer with its
    feedback; several right options make a ``single`` false question; an order offers the orders of
    :func:`attn_tutor.export.concept_sheet.order_choices`."""
    element = ET.Element("question", {"type": "multichoice"})
    label = None if variant is None else t("export.variant_number", seed=variant)
    _text_element(element, "name", shown.id if label is None else f"{shown.id} — {label}")
    _text_element(element, "questiontext", concept_text(shown), html=True)
    explanation = "" if not shown.explanation else f"<p>{escape(shown.explanation, quote=False)}</p>"
    _text_element(element, "generalfeedback", explanation, html=True)
    ET.SubElement(element, "defaultgrade").text = "1"
    ET.SubElement(element, "penalty").text = "0.3333333"
    ET.SubElement(element, "hidden").text = "0"
    choices = concept_sheet.choices(shown)
    several = shown.several
    ET.SubElement(element, "single").text = "false" if several else "true"
    ET.SubElement(element, "shuffleanswers").text = "false"  # shuffled per variant already: labels as on the sheet
    ET.SubElement(element, "answernumbering").text = "none"  # the labels are in the answers' text
    for choice, fraction in zip(choices, fractions(choices, several)):
        answer = ET.SubElement(element, "answer", {"fraction": fraction, "format": "html"})
        ET.SubElement(answer, "text").text = escape(choice.text, quote=False)
        _text_element(answer, "feedback", "" if not choice.feedback else f"<p>{escape(choice.feedback, quote=False)}</p>", html=True)
    if label is not None:
        ET.SubElement(ET.SubElement(ET.SubElement(element, "tags"), "tag"), "text").text = label
    return element


def question_element(question: Question | sampling.SamplingQuestion) -> ET.Element:
    """One Cloze question: a problem of one sheet."""
    problem_id = question.problem.id
    element = ET.Element("question", {"type": "cloze"})
    variant = None if question.variant is None else t("export.variant_number", seed=question.variant)
    _text_element(element, "name", problem_id if variant is None else f"{problem_id} — {variant}")
    _text_element(element, "questiontext", question_text(question), html=True)
    _text_element(element, "generalfeedback", general_feedback(question), html=True)
    ET.SubElement(element, "penalty").text = "0.3333333"
    ET.SubElement(element, "hidden").text = "0"
    # no <idnumber>: it must be unique in its category, so importing the file twice would clash
    if variant is not None:
        # a tag per variant (qformat_xml::import_question_tags): filter the bank by it to make one quiz per variant
        ET.SubElement(ET.SubElement(ET.SubElement(element, "tags"), "tag"), "text").text = variant
    return element


def write(stream: BinaryIO, sheets, *, set_title: str) -> None:
    """The Moodle XML file, written to ``stream`` question by question."""
    write_document(stream, document(sheets, set_title=set_title))
