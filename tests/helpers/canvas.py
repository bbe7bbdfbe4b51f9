"""A Canvas numerical question read back as Canvas marks it, from the QTI 1.2 the banks write.

Canvas converts a QTI 1.2 package to QTI 2.1 (instructure/QTIMigrationTool, text passed
through) and reads each numerical item with ``Qti::NumericInteraction#get_canvas_answers``
(canvas-lms gems/plugins/qti_exporter/lib/qti/numeric_interaction.rb): an ``<or>`` with
an exact value and a ``vargte``/``varlte`` range is an *exact answer* whose margin is
``BigDecimal(upper) - BigDecimal(exact)``, both kept as Ruby floats::

    answer[:exact] = exact.to_f
    margin = BigDecimal(upper.text) - BigDecimal(exact) rescue "0.0"
    answer[:margin] = margin.to_f

(the "precision answer" guess needs a ``vargt`` lower bound, which the banks never
write). A student's answer is then marked by
``Quizzes::QuizQuestion::NumericalQuestion#correct_answer_parts``
(app/models/quizzes/quiz_question/numerical_question.rb) in BigDecimal::

    val = BigDecimal(answer[:exact].to_s); margin = BigDecimal(answer[:margin].to_s)
    answer_number >= val - margin && answer_number <= val + margin

Ruby's ``Float#to_s`` is the shortest text that reads back as the same float, the
number Python's ``repr`` writes.
"""

from __future__ import annotations

import html
import re
from decimal import Decimal, localcontext


def _float_text(x: float) -> Decimal:
    return Decimal(repr(float(x)))


def exact_answer(exact: str, upper: str) -> tuple[Decimal, Decimal]:
    """(exact, margin) as Canvas keeps them after the import."""
    with localcontext() as context:
        context.prec = 80
        return _float_text(float(exact)), _float_text(float(Decimal(upper) - Decimal(exact)))


def numerical_accepts(exact: str, upper: str, typed: str) -> bool:
    """Whether Canvas marks ``typed`` right for the exact answer ``exact`` with the range's ``upper`` bound."""
    value, margin = exact_answer(exact, upper)
    with localcontext() as context:
        context.prec = 80
        number = Decimal(typed)
        return value - margin <= number <= value + margin


def range_accepts(low: str, high: str, typed: str) -> bool:
    """Whether Canvas marks ``typed`` right for a range answer (``vargte``/``varlte`` in an ``<and>``
    with no exact value): the importer keeps ``start`` and ``end`` as Ruby floats (``text.to_f``), and
    ``correct_answer_parts`` compares in BigDecimal of their ``to_s``, ends included."""
    with localcontext() as context:
        context.prec = 80
        return _float_text(float(low)) <= Decimal(typed) <= _float_text(float(high))


# --- text: what Canvas shows of a QTI text -------------------------------------------------
#
# QTIMigrationTool (lib/imsqtiv1.py, MatText.MakeText) passes a text/html mattext on as its source
# text; canvas-lms (gems/plugins/qti_exporter/lib/qti/html_helper.rb, HtmlHelper#detect_html) keeps a
# feedback or an option whose sanitised HTML is one text node (a text-only <p>) as plain text, made by
# HtmlHelper#clear_html (ChoiceInteraction#get_answers reads an option's text with it too):
#
#     text.gsub(%r{</?[^>\n]*>}, "").gsub(/&#\d+;/) { |m| m[2..].to_i.chr(text.encoding) rescue '' }
#         .gsub(/&\w+;/, "").gsub(/(?:\\r\\n)+/, "\n")
#
# detect_html collapses white space first (``node.text.gsub(/\s+/, " ")``) and strips the result.

_TAG = re.compile(r"</?[^>\n]*>")
_DECIMAL = re.compile(r"&#\d+;")
_NAMED = re.compile(r"&\w+;")
_CRLF = re.compile(r"(?:\\r\\n)+")
ENTITY_NOT_DECIMAL = re.compile(r"&(?!#\d+;)")


def _decimal(match: re.Match) -> str:
    try:
        return chr(int(match.group()[2:-1]))
    except (ValueError, OverflowError):
        return ""


def clear_html(text: str) -> str:
    """canvas-lms's HtmlHelper#clear_html, in Python."""
    return _CRLF.sub("\n", _NAMED.sub("", _DECIMAL.sub(_decimal, _TAG.sub("", text))))


def plain_text(source: str) -> str:
    """What Canvas shows of an HTML text it keeps as plain text (detect_html's ``text``)."""
    return clear_html(re.sub(r"\s+", " ", source)).strip()


def meant_text(source: str) -> str:
    """What the HTML says, as a browser reads it: the tags removed, every entity decoded."""
    return re.sub(r"\s+", " ", html.unescape(_TAG.sub("", source))).strip()
