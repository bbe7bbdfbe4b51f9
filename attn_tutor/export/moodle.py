"""Questions as Moodle XML: one Cloze (``multianswer``) question per problem and sheet.

Each question shows the problem's instructions and givens (HTML tables) and a table
per asked stage whose open cells are ``NUMERICAL`` blanks::

    {1:NUMERICAL:=0.786:0.00540~%0%0.545:0.005#You divided the scaled scores ...~...}

The first alternative (full marks) is the value rounded to the asked places, which
Moodle shows as "the correct answer", with a margin wide enough that the exact value
± the problem's tolerance is inside (:func:`attn_tutor.export.bank.right_answer`);
every mistake that applies to the cell (:mod:`attn_tutor.export.bank`) and lies
outside that range follows as a 0% alternative whose feedback is the diagnosis. Moodle's numerical marking takes
the first alternative within its tolerance, so the right answer always wins where
ranges overlap. The worked arithmetic is the general feedback, shown after an
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
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html import escape
from typing import BinaryIO

from attn_tutor.core.i18n import t
from attn_tutor.core.model import asked_row_indices, asked_stages
from attn_tutor.export import bank, bank_html
from attn_tutor.export.bank import Cell, Question, decimal_text
from attn_tutor.export.xmlstream import Streamed, write_document
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
    """``{1:NUMERICAL:=rounded:margin~%0%wrong:tolerance#diagnosis~...}``: the right answer as
    rounded to the asked places (what Moodle shows as the correct answer), its margin wide enough for
    the exact value ± the tolerance (:func:`attn_tutor.export.bank.right_answer`)."""
    tolerance = decimal_text(cell.tolerance)
    alternatives = [f"={cell.right.text}:{cell.right.margin}"]
    for mistake in cell.mistakes:
        alternatives.append(f"%0%{decimal_text(mistake.value)}:{tolerance}#{feedback(mistake.sentence)}")
    return "{1:NUMERICAL:" + "~".join(alternatives) + "}"


def question_text(question: Question, lang: str) -> str:
    """The Cloze question text: what to do, the givens, and a table of blanks per asked stage."""

    problem, solution = question.problem, question.solution
    parts = bank_html.header(question, lang, text)
    blanks = {(c.row, c.stage, c.index): c for c in question.cells}
    rows = asked_row_indices(problem)
    for stage in asked_stages(problem):
        # one table per head before the output (heads side by side in a row), in head order
        for head, table in enumerate(stage_table(solution, stage, rows, problem.decimals, lang, blank=True)):
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


def general_feedback(question: Question, lang: str) -> str:
    """The worked arithmetic of each asked row, shown after an attempt."""

    problem = question.problem
    parts = []
    for row in asked_row_indices(problem):
        for block in explain_blocks(question.solution, row, problem.decimals, lang, asked_stages(problem)):
            parts.append(f"<p><strong>{text(block.title)}</strong></p><pre>{text(chr(10).join(block.lines))}</pre>")
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


def document(sheets, lang: str, *, set_title: str) -> Streamed:
    """A Moodle XML question file: per problem a category, then its questions (one per sheet,
    tagged with its variant), each question made as it is written."""
    return Streamed("quiz", {}, _elements(sheets, lang, set_title))


def _elements(sheets, lang: str, set_title: str) -> Iterator[ET.Element]:
    for problem in sheets[0].problem_set.problems:
        category = ET.Element("question", {"type": "category"})
        _text_element(category, "category", category_path(set_title, problem))
        _text_element(category, "info", "", html=True)
        yield category
        for sheet in sheets:
            yield question_element(bank.question(sheet, sheet.problem_set.get(problem.id), lang), lang)


def question_element(question: Question, lang: str) -> ET.Element:
    """One Cloze question: a problem of one sheet."""
    problem_id = question.problem.id
    element = ET.Element("question", {"type": "cloze"})
    variant = None if question.variant is None else t("export.variant_number", lang, seed=question.variant)
    _text_element(element, "name", problem_id if variant is None else f"{problem_id} — {variant}")
    _text_element(element, "questiontext", question_text(question, lang), html=True)
    _text_element(element, "generalfeedback", general_feedback(question, lang), html=True)
    ET.SubElement(element, "penalty").text = "0.3333333"
    ET.SubElement(element, "hidden").text = "0"
    # no <idnumber>: it must be unique in its category, so importing the file twice would clash
    if variant is not None:
        # a tag per variant (qformat_xml::import_question_tags): filter the bank by it to make one quiz per variant
        ET.SubElement(ET.SubElement(ET.SubElement(element, "tags"), "tag"), "text").text = variant
    return element


def write(stream: BinaryIO, sheets, lang: str, *, set_title: str) -> None:
    """The Moodle XML file, written to ``stream`` question by question."""
    write_document(stream, document(sheets, lang, set_title=set_title))
