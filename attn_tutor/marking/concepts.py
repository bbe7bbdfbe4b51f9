"""The one marker of concept items: the quiz, ``grade`` and the hand-back sheets use it.

Public API::

    mark_concept(shown, typed) -> ConceptMark
    parse_choice(shown, typed) -> (labels, problem)

What a student may type, for a shown item labelled ``A``, ``B``, …:

* a choice: ``B``, ``b``, ``2`` (the option's number, from 1) or ``(B)``;
* a choice with several right options: the labels in any order, ``A, C``, ``A C`` or ``AC``
  (``1, 3``);
* an order item: every label once, first step first: ``C A D B``, ``CADB``, ``C, A, D, B`` or
  ``3 1 4 2`` (``3142``).

Scores: a choice scores 1 for the right option and 0 for another; several right options
score 1 only for exactly the right set; an order item scores 1 only when the whole order is
right (0 otherwise: one step out of place is a wrong order). A computed item whose numbers
tie (``shown.tied``) scores 1 for any of the tied options. A blank answer is no answer
(0, nothing chosen, no problem); an answer that names no option, or two options where
one is asked, is ``problem`` (a catalogue key, shown by :func:`problem_text`) and scores 0.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from attn_tutor.core.i18n import t
from attn_tutor.render.blocks import Paragraph
from attn_tutor.solve.concepts import ShownConcept

_SEPARATORS = re.compile(r"[\s,;/·]+")
_ANSWER_MAX = 100  # characters of one typed answer: more is not a choice


class ConceptMark(NamedTuple):
    score: float  # 0 or 1
    chosen: tuple[str, ...]  # the labels read, in the order typed
    right: bool
    feedback: str | None  # the chosen option's sentence (the misconception), or why the answer is wrong
    problem: str | None  # a catalogue key when the answer could not be read as a choice


def _units(text: str, count: int) -> list[str] | None:
    """The labels or numbers typed, upper-cased; None when a piece is neither."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    text = text.replace("(", " ").replace(")", " ")
    pieces = [piece for piece in _SEPARATORS.split(text) if piece]
    units: list[str] = []
    for piece in pieces:
        if piece.isascii() and piece.isalpha():
            units.extend(piece.upper())
        elif piece.isascii() and piece.isdigit():
            if int(piece) <= count and not piece.startswith("0"):
                units.append(piece)  # one option's number
            elif count <= 9 and "0" not in piece:
                units.extend(piece)  # digits run together: 3142
            else:
                return None
        else:
            return None
    return units


def parse_choice(shown: ShownConcept, typed: str) -> tuple[tuple[str, ...], str | None]:
    """The labels ``typed`` names (numbers turned into labels), or a problem key."""
    if len(typed) > _ANSWER_MAX:
        return (), "concepts.answer_unreadable"
    units = _units(typed, len(shown.labels))
    if units is None:
        return (), "concepts.answer_unreadable"
    labels = []
    for unit in units:
        if unit.isdigit():
            number = int(unit)
            if not 1 <= number <= len(shown.labels):
                return (), "concepts.answer_unreadable"
            labels.append(shown.labels[number - 1])
        elif unit in shown.labels:
            labels.append(unit)
        else:
            return (), "concepts.answer_unreadable"
    if shown.kind == "order":
        if sorted(labels) != sorted(shown.labels):
            return tuple(labels), "concepts.answer_order"
    elif not shown.several and len(labels) != 1:
        return tuple(labels), "concepts.answer_one"
    elif len(set(labels)) != len(labels):
        return tuple(labels), "concepts.answer_repeated"
    return tuple(labels), None


def mark_concept(shown: ShownConcept, typed: str | None) -> ConceptMark:
    """Mark one typed answer against the shown item (its labels are the printed ones)."""
    if typed is None or not typed.strip():
        return ConceptMark(0.0, (), False, None, None)
    chosen, problem = parse_choice(shown, typed)
    if problem is not None:
        return ConceptMark(0.0, chosen, False, None, problem)
    if shown.kind == "order":
        right = chosen == shown.answer
        order = " ".join(shown.answer)
        feedback = None if right else t("concepts.order_wrong", answer=order)
    elif shown.several:
        right = set(chosen) == set(shown.answer)
        wrong = [shown.feedback.get(label) for label in chosen if label not in shown.answer]
        missed = [label for label in shown.answer if label not in chosen]
        sentences = [text for text in wrong if text]
        if missed:
            missing = ", ".join(missed)
            sentences.append(t("concepts.several_missed", labels=missing))
        feedback = " ".join(sentences) or None
    else:
        right = chosen[0] in shown.answer
        feedback = shown.feedback.get(chosen[0])
    return ConceptMark(1.0 if right else 0.0, chosen, right, feedback, None)


class ConceptResult(NamedTuple):
    """One concept item of a student's sheet, marked: what ``grade``'s reports, the gradebook, the
    hand-back sheets and the item statistics read (``chosen``: the labels of the student's own sheet)."""

    id: str
    kind: str
    chosen: tuple[str, ...]
    answer: tuple[str, ...]
    score: float
    right: bool
    feedback: str | None
    problem: str | None  # a catalogue key: the answer could not be read as a choice
    options: tuple[str, ...] = ()  # the labels there were, in printed order

    def to_dict(self) -> dict:
        return {
            "concept": self.id,
            "kind": self.kind,
            "chosen": list(self.chosen),
            "answer": list(self.answer),
            "score": self.score,
            "right": self.right,
            "feedback": self.feedback,
        }

    @property
    def typed(self) -> str:
        """The choice as a cell: ``B``, ``A, C`` or ``C A D B`` (empty: no answer)."""
        return (" " if self.kind == "order" else ", ").join(self.chosen)


def mark_result(shown: ShownConcept, typed: str | None) -> ConceptResult:
    """:func:`mark_concept` as a result to keep: the item's id, kind and answer with the mark."""
    mark = mark_concept(shown, typed)
    return ConceptResult(shown.id, shown.kind, mark.chosen if mark.problem is None else (), shown.answer,
                         mark.score, mark.right, mark.feedback, mark.problem, shown.labels)  # fmt: skip


def problem_text(shown: ShownConcept, mark: ConceptMark) -> str | None:
    """The sentence for an answer that could not be read (None when it was read)."""
    if mark.problem is None:
        return None
    return t(mark.problem, first=shown.labels[0], last=shown.labels[-1], count=len(shown.labels))


def concept_feedback(shown: ShownConcept, mark) -> list:
    """After a concept item (the quiz in practice, an exam's hand-back sheet): right or not, the
    chosen option's feedback, the answer and the explanation. ``mark``: a ConceptMark or ConceptResult."""
    joined = (" " if shown.kind == "order" else ", ").join
    key = "quiz.concept_right" if mark.right else "quiz.concept_wrong"
    lines = [t(key, chosen=joined(mark.chosen) or "—", answer=joined(shown.answer))]
    if mark.feedback and not mark.right:
        lines.append(mark.feedback)
    if shown.explanation:
        lines.append(shown.explanation)
    return [Paragraph(line) for line in lines]
