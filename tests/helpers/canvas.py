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
