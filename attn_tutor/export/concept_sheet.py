"""Concept items on a sheet: the questions and the key as document blocks, and what the banks ask.

Pure: reads a sheet, returns blocks and records. Each item is shown as
:func:`attn_tutor.solve.concepts.show` shows it, with the sheet's variant as the seed
(``None`` for the set as written): a variant's computed choices are worked out from its own
numbers and its options shuffled with its own fixed seed, so each student's labels are
their own, and the key, the Moodle and the Canvas banks of that variant use the same ones.

The worksheet prints, after the problems, each item's stem (with how many are right, "(2 right)", when several
options are), its labelled options and a blank to write the answer on; the key
prints the right label(s), the feedback of every wrong option and the explanation.

An ``order`` item has no wrong options of its own; a quiz system that asks it as one
multiple-choice question (Moodle, Canvas: neither has an ordering question in every
version) is offered the right order and each order with two neighbouring steps swapped
(:func:`order_choices`), every one with a sentence saying which two; like ``grade``, it
is right only when the whole order is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from attn_tutor.core.i18n import t
from attn_tutor.render.blocks import Block, Fields, Heading, Paragraph
from attn_tutor.solve.concepts import show


class Choice(NamedTuple):
    """One answer a quiz system offers: its text, whether it is right, and its feedback."""

    text: str
    right: bool
    feedback: str | None


def shown_concepts(sheet) -> list:
    """Every concept item of one sheet as shown on it (:class:`attn_tutor.solve.concepts.ShownConcept`)."""
    problem_set = sheet.problem_set
    return [show(concept, problem_set, seed=sheet.variant) for concept in problem_set.concepts]


def stem(shown) -> str:
    """The stem as printed: with how many options are right ("(2 right)") when several are."""
    return f"{shown.stem} {t('export.concept.several', count=len(shown.answer))}" if shown.several else shown.stem


def how_to_answer(shown) -> str:
    """What to write: one letter, every right one's (saying how many), or for numbers that tie any one of them."""
    if shown.kind == "order":
        return t("export.concept.order")
    if shown.several:
        return t("export.concept.choose_several", count=len(shown.answer))
    return t("export.concept.choose_tied", count=len(shown.answer)) if shown.tied else t("export.concept.choose")


def option_line(label: str, text: str) -> str:
    return t("export.concept.option", label=label, text=text)


def answer_text(shown) -> str:
    """The right answer as a student writes it: ``B``, ``A, C``, for an order ``C A D B`` (for a
    computed item whose numbers tie, the tied labels, any one of which is right)."""
    return " ".join(shown.answer) if shown.kind == "order" else ", ".join(shown.answer)


def _item_blocks(shown, number: int) -> list[Block]:
    """What a sheet and a key both print of an item: its heading, the stem, the labelled options."""
    return [
        Heading(t("export.concept.heading", n=number, id=shown.id), level=3),
        Paragraph(stem(shown)),
        *(Paragraph(option_line(label, text)) for label, text in zip(shown.labels, shown.options)),
    ]


def question_blocks(shown_items: list) -> list[Block]:
    """The worksheet's concept questions: stem, labelled options, what to write, a blank."""
    if not shown_items:
        return []
    blocks: list[Block] = [Heading(t("export.concepts"), level=2)]
    for number, shown in enumerate(shown_items, start=1):
        blocks.extend(_item_blocks(shown, number))
        blocks.append(Paragraph(how_to_answer(shown)))
        blocks.append(Fields(((t("export.concept.answer"), ""),)))
    return blocks


def key_blocks(shown_items: list) -> list[Block]:
    """The key's concept answers: the options, the right label(s), each wrong option's feedback, why."""
    if not shown_items:
        return []
    blocks: list[Block] = [Heading(t("export.concepts"), level=2)]
    for number, shown in enumerate(shown_items, start=1):
        blocks.extend(_item_blocks(shown, number))
        right = "export.concept.right_any" if shown.tied else "export.concept.right"
        blocks.append(Paragraph(t(right, labels=answer_text(shown))))
        if shown.kind != "order":
            for label in shown.labels:
                sentence = shown.feedback.get(label)
                if label not in shown.answer and sentence:
                    blocks.append(Paragraph(t("export.concept.wrong", label=label, feedback=sentence)))
        if shown.explanation:
            blocks.append(Paragraph(t("export.concept.explanation", text=shown.explanation)))
    return blocks


def key_rows(shown_items: list) -> Iterator[tuple[str, str, str, str]]:
    """The concept items' lines of the compact key table: id, —, "concept", the answer."""
    for shown in shown_items:
        yield (shown.id, "—", t("export.key_table.concept"), answer_text(shown))


def order_choices(shown) -> list[Choice]:
    """An ``order`` item as one multiple choice: the right order and each order with two
    neighbouring steps swapped, written as the steps' labels (``C A D B``), in the labels'
    alphabetical order (the right one is not always first: the banks do not shuffle)."""
    text = dict(zip(shown.labels, shown.options))
    right = list(shown.answer)
    choices = [Choice(" ".join(right), True, None)]
    for i in range(len(right) - 1):
        swapped = right[:i] + [right[i + 1], right[i]] + right[i + 2 :]
        sentence = t("export.concept.order_swap", first=text[right[i]], second=text[right[i + 1]])
        choices.append(Choice(" ".join(swapped), False, sentence))
    return sorted(choices)


def choices(shown) -> list[Choice]:
    """What a quiz system offers for an item, in the sheet's order: each labelled option as
    ``(A) text`` with its feedback, or for an order the orders of :func:`order_choices`."""
    if shown.kind == "order":
        return order_choices(shown)
    return [
        Choice(option_line(label, text), label in shown.answer, shown.feedback.get(label))
        for label, text in zip(shown.labels, shown.options)
    ]
