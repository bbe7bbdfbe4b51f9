"""Concept items as a student sees them: labelled options in printed order, and the answer.

Public API::

    show(concept, problem_set, *, seed=None) -> ShownConcept
    show_all(problem_set, *, seed=None) -> list[ShownConcept]
    tie_findings(problem_set) -> list[Finding]          # validate: computed items whose answer is a tie
    answer_margin(concept, problem) -> Margin           # how clearly a computed item's answer stands out
    concept_dict(shown) -> dict                         # solve --format json's "concepts" entries

``ShownConcept(id, kind, stem, labels, options, answer, feedback, explanation, tied)``:
``labels`` are ``A``, ``B``, … in printed order, ``options`` the texts in that order,
``answer`` the right label (or labels, for ``several: true``; for an order item the labels
in the right order), ``feedback`` each label's sentence (None for a right option without
one), ``explanation`` the item's own text (for a computed item, followed by the worked
numbers).

Order of the options. ``seed=None`` keeps the file's order, and a computed item's options
are the problem's key tokens (or query rows) in the problem's order; an order item's steps
are always shown shuffled (with ``seed=None``, by a permutation fixed by the item's id).
A seed (a variant's seed) shuffles with ``random.Random(f"{seed}:{id}")``, so the
permutation is the same on every run and machine, differs between items, and the labels
of a variant's answer file refer to that variant's shuffle. An order item's permutation is
never the identity.

Computed items are worked out from the problem's numbers (the variant's, when
``problem_set`` is a variant's) by the numpy engine:

* ``most-attended`` / ``least-attended``: the key with the largest / smallest weight in
  ``row`` (among the keys the row may attend to; the options are those keys);
* ``most-uniform-row``: the row whose largest weight is nearest 1/n (n: the keys it may
  attend to); ``sharpest-row``: the row with the largest weight; the options are the rows
  that may attend to two keys or more;
* ``unscaled``: what ``row``'s weights become if the scores are not divided: ``sharper``
  (its largest weight grows), ``flatter`` (it shrinks) or ``unchanged``.

Every text is made here, in the language spoken: a set's text written ``{ko, en}`` shows its own
(:func:`local`), a computed item's slots are filled from the numbers it is shown for
(:func:`slots`, :func:`filled`), and what the tool writes itself (options of ``unscaled``,
feedback, worked numbers) is one catalogue sentence in that language.

Two candidates equal when rounded to the problem's ``decimals`` are a tie: a student
working to that precision cannot tell them apart. ``validate`` refuses a tie in the file
(:func:`tie_findings`), and :func:`answer_margin` says how far the right option stands from
the nearest other (the variants' draw keeps only numbers where that margin is clear). Numbers
that tie anyway (a file never validated) give ``tied=True`` and every tied option as the
answer, any one of which scores full marks.
"""

from __future__ import annotations

import math
import random
import zlib
from typing import NamedTuple

from attn_tutor.core import particles
from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.i18n import language, t
from attn_tutor.core.model import UNSCALED_ANSWERS, Bilingual, Concept, Problem, ProblemSet, SetText
from attn_tutor.core.rounding import fmt, rounded
from attn_tutor.problems.concept_fields import SLOT
from attn_tutor.render.blocks import Heading, Paragraph
from attn_tutor.solve import engine

LABELS = "ABCDEFGHIJKL"  # a computed item has at most TOKENS_MAX options


class ShownConcept(NamedTuple):
    id: str
    kind: str
    stem: str
    labels: tuple[str, ...]
    options: tuple[str, ...]
    answer: tuple[str, ...]
    feedback: dict[str, str | None]
    explanation: str | None
    tied: bool = False  # a computed item whose numbers tie: every tied label is right
    several: bool = False  # a choice item with several right options (the sheet says so)


class _Worked(NamedTuple):
    """A computed item worked out: options in the problem's order, the right ones, the numbers."""

    options: tuple[str, ...]
    right: tuple[int, ...]
    numbers: tuple[str, ...]  # each option's deciding number, as shown in the explanation
    tied: bool


def _best(values: list[float], decimals: int, largest: bool) -> tuple[tuple[int, ...], bool]:
    """The indices of the best value (all those equal to it at ``decimals``) and whether it is a tie."""
    if not values:
        return (), False
    near = [rounded(v, decimals) for v in values]
    top = max(near) if largest else min(near)
    best = tuple(i for i, v in enumerate(near) if v == top)
    return best, len(best) > 1


def work(concept: Concept, problem: Problem) -> _Worked:
    """A computed item's options and answer from ``problem``'s numbers (one head)."""
    import numpy as np

    solution = engine.solve(problem)
    head = solution.head
    decimals = problem.decimals
    if concept.ask in ("most-attended", "least-attended"):
        # the type: ignore below: a most/least-attended concept names its row (the loader checks)
        row = problem.row_index(concept.row)  # type: ignore[arg-type]
        allowed = [j for j, ok in enumerate(head.mask[row]) if ok]
        values = [float(head.weights[row, j]) for j in allowed]
        best, tied = _best(values, decimals, concept.ask == "most-attended")
        options = tuple(problem.keys[j] for j in allowed)
        return _Worked(options, best, tuple(fmt(v, decimals) for v in values), tied)
    if concept.ask in ("most-uniform-row", "sharpest-row"):
        rows = [i for i in range(len(problem.tokens)) if int(head.mask[i].sum()) >= 2]
        tops = [float(head.weights[i].max()) for i in rows]
        if concept.ask == "sharpest-row":
            values = tops
            best, tied = _best(values, decimals, True)
        else:
            values = [top - 1.0 / int(head.mask[i].sum()) for top, i in zip(tops, rows)]
            best, tied = _best(values, decimals, False)
        options = tuple(problem.tokens[i] for i in rows)
        return _Worked(options, best, tuple(fmt(v, decimals) for v in tops), tied)
    # unscaled: the row's weights from the unscaled scores beside its weights
    # the type: ignore below: a concept asked here names its row (the loader checks)
    row = problem.row_index(concept.row)  # type: ignore[arg-type]
    mask = head.mask[row]
    unscaled = engine.softmax(np.where(mask, head.scores[row], 0.0), mask)
    before, after = rounded(float(head.weights[row].max()), decimals), rounded(float(unscaled.max()), decimals)
    answer = 0 if after > before else 1 if after < before else 2
    options = tuple(t(f"concepts.unscaled.{word}") for word in UNSCALED_ANSWERS)
    numbers = (fmt(float(head.weights[row].max()), decimals), fmt(float(unscaled.max()), decimals), "")
    return _Worked(options, (answer,), numbers, False)


def _worked_text(concept: Concept, worked: _Worked) -> str:
    """The worked numbers of a computed item."""
    if concept.ask == "unscaled":
        return t("concepts.worked.unscaled", row=concept.row, before=worked.numbers[0], after=worked.numbers[1])
    pairs = ", ".join(f"{option} {number}" for option, number in zip(worked.options, worked.numbers))
    if concept.ask in ("most-attended", "least-attended"):
        return t("concepts.worked.weights", row=concept.row, pairs=pairs)
    return t("concepts.worked.rows", pairs=pairs)


def local(text: SetText) -> str:
    """A set's text in the language spoken: a :class:`Bilingual`'s own, a string as written."""
    return getattr(text, language()) if isinstance(text, Bilingual) else text


def filled(text: SetText, slots: dict[str, str] | None = None) -> str:
    """A set's text as a student reads it: in the language spoken, a computed item's slots filled
    from the variant's numbers (``slots``) and a particle marked after one, ``{answer}[이]``, chosen
    for the word it follows."""
    out = local(text)
    if slots is None:
        return out
    out = SLOT.sub(lambda match: slots.get(match[1], match[0]), out)
    parts = particles.MARKER.split(out)
    return particles.resolve(parts) if len(parts) > 1 else out


def slots(concept: Concept, problem: Problem, worked: _Worked) -> dict[str, str]:
    """A computed item's slots (``CONCEPT_SLOTS``), from ``problem``'s own numbers: the right
    option, the next best (``runner_up``: "—" where there is none), the key the row attends to
    most (``top``), each with its number as the worked numbers show it."""
    solution = engine.solve(problem)
    head, decimals = solution.head, problem.decimals
    out = {"answer": ", ".join(worked.options[i] for i in worked.right)}
    if concept.row is not None:
        row = problem.row_index(concept.row)
        top = max((j for j, ok in enumerate(head.mask[row]) if ok), key=lambda j: float(head.weights[row, j]))
        out.update(row=concept.row, top=problem.keys[top], top_weight=fmt(float(head.weights[row, top]), decimals))
    if concept.ask == "unscaled":
        out["unscaled_weight"] = worked.numbers[1]
        return out
    if concept.ask in ("most-attended", "least-attended"):
        row = problem.row_index(concept.row)  # type: ignore[arg-type]  # a row ask names its row (the loader checks)
        values = [float(head.weights[row, j]) for j, ok in enumerate(head.mask[row]) if ok]
        rank = [-v for v in values] if concept.ask == "most-attended" else values
    else:  # the row asks: each row's largest weight (sharpest), or its distance from 1/n (most uniform)
        sizes = [int(n) for n in head.mask.sum(axis=1) if n >= 2]
        tops = [float(head.weights[i].max()) for i in range(len(problem.tokens)) if int(head.mask[i].sum()) >= 2]
        rank = [-top for top in tops] if concept.ask == "sharpest-row" else [top - 1.0 / n for top, n in zip(tops, sizes)]
    others = sorted((i for i in range(len(rank)) if i not in worked.right), key=lambda i: rank[i])
    out["answer_weight"] = worked.numbers[worked.right[0]] if worked.right else "—"
    out["runner_up"] = worked.options[others[0]] if others else "—"
    out["runner_up_weight"] = worked.numbers[others[0]] if others else "—"
    return out


def _permutation(n: int, seed: int | None, concept: Concept) -> list[int]:
    """The printed order of ``n`` options: the file's without a seed (but never for an order item)."""
    order = list(range(n))
    if seed is None and concept.kind != "order":
        return order
    rng = random.Random(f"{seed}:{concept.id}" if seed is not None else zlib.crc32(concept.id.encode()))
    for _ in range(20):
        rng.shuffle(order)
        if concept.kind != "order" or order != sorted(order):
            return order
    return order[1:] + order[:1]  # pragma: no cover - twenty identities in a row


def show(concept: Concept, problem_set: ProblemSet, *, seed: int | None = None) -> ShownConcept:
    """The item as printed, in the language spoken: options labelled in (shuffled, with a seed)
    order, with its answer; every text a student reads of it is made here (:func:`filled`), a
    computed item's from ``problem_set``'s own numbers (a variant's, for a variant)."""
    values = None
    explanation = None if concept.explanation is None else filled(concept.explanation)
    tied = False
    if concept.kind == "order":
        texts = tuple(local(step) for step in concept.steps)
        feedback_of: tuple[str | None, ...] = (None,) * len(texts)
        right: tuple[int, ...] = tuple(range(len(texts)))
    elif concept.kind == "computed":
        # the type: ignore below: a computed concept names its problem (the loader checks)
        problem = problem_set.get(concept.problem)  # type: ignore[arg-type]
        worked = work(concept, problem)
        values = slots(concept, problem, worked)
        texts, right, tied = worked.options, worked.right, worked.tied
        feedback_of = tuple(None if i in right else _computed_feedback(concept, worked, i) for i in range(len(texts)))
        numbers = _worked_text(concept, worked)
        explanation = f"{filled(concept.explanation, values)} {numbers}" if concept.explanation is not None else numbers
    else:
        texts = tuple(local(option.text) for option in concept.options)
        feedback_of = tuple(None if option.feedback is None else local(option.feedback) for option in concept.options)
        right = tuple(i for i, option in enumerate(concept.options) if option.right)
    order = _permutation(len(texts), seed, concept)
    labels = tuple(LABELS[: len(texts)])
    label_of = {original: labels[place] for place, original in enumerate(order)}
    if concept.kind == "order":
        answer = tuple(label_of[i] for i in right)
    else:
        answer = tuple(sorted(label_of[i] for i in right))
    return ShownConcept(
        id=concept.id,
        kind=concept.kind,
        stem=filled(concept.stem, values),
        labels=labels,
        options=tuple(texts[i] for i in order),
        answer=answer,
        feedback={labels[place]: feedback_of[original] for place, original in enumerate(order)},
        explanation=explanation,
        tied=tied,
        several=concept.several,
    )


def _computed_feedback(concept: Concept, worked: _Worked, index: int) -> str:
    """Why a wrong option of a computed item is wrong: its own number beside the right one's (an
    unscaled item: what the weights do; its numbers are the explanation's)."""
    right = worked.right[0]
    if concept.ask == "unscaled":
        return t("concepts.feedback.unscaled", right=worked.options[right])
    key = "concepts.feedback.computed" if concept.ask in ("most-attended", "least-attended") else "concepts.feedback.computed_rows"
    return t(key, chosen=worked.options[index], chosen_number=worked.numbers[index],
             right=worked.options[right], right_number=worked.numbers[right])  # fmt: skip


def show_all(problem_set: ProblemSet, *, seed: int | None = None) -> list[ShownConcept]:
    return [show(concept, problem_set, seed=seed) for concept in problem_set.concepts]


class Margin(NamedTuple):
    """How clearly a computed item's right option stands out from the others, from exact values.

    ``gap``: the smallest distance between the right option's deciding value (a weight, a row's
    largest weight, or for ``unscaled`` the largest weight with and without the division) and
    another option's (``inf`` with a single option, or an ``unscaled`` row that does not change);
    ``distinct``: no other option's value equals the right one's at the problem's decimals (a
    student cannot tell values apart that round alike); ``right``/``other``: the right option and
    the option nearest it (indices into :func:`work`'s options; ``other`` None when there is none),
    ``values``: each option's deciding value."""

    gap: float
    distinct: bool
    right: int
    other: int | None
    values: tuple[float, ...]


def _deciding(concept: Concept, problem: Problem) -> tuple[list[float], bool]:
    """Each option's deciding value (in :func:`work`'s order) and whether the largest one is right."""
    head = engine.solve(problem).head
    if concept.ask in ("most-attended", "least-attended"):
        # the type: ignore below: a most/least-attended concept names its row (the loader checks)
        row = problem.row_index(concept.row)  # type: ignore[arg-type]
        values = [float(head.weights[row, j]) for j, ok in enumerate(head.mask[row]) if ok]
        return values, concept.ask == "most-attended"
    rows = [i for i in range(len(problem.tokens)) if int(head.mask[i].sum()) >= 2]
    tops = [float(head.weights[i].max()) for i in rows]
    if concept.ask == "sharpest-row":
        return tops, True
    return [top - 1.0 / int(head.mask[i].sum()) for top, i in zip(tops, rows)], False


def _unscaled_margin(concept: Concept, problem: Problem) -> Margin:
    """``unscaled``: the row's largest weight with the division and without it; an exact
    "unchanged" (no division, or a row that does not move) is clear."""
    import numpy as np

    head = engine.solve(problem).head
    # the type: ignore below: an unscaled concept names its row (the loader checks)
    row = problem.row_index(concept.row)  # type: ignore[arg-type]
    mask = head.mask[row]
    before = float(head.weights[row].max())
    after = float(engine.softmax(np.where(mask, head.scores[row], 0.0), mask).max())
    if abs(after - before) <= 1e-12:
        return Margin(math.inf, True, 2, None, (before, after))
    distinct = rounded(after, problem.decimals) != rounded(before, problem.decimals)
    return Margin(abs(after - before), distinct, 0 if after > before else 1, 2, (before, after))


def answer_margin(concept: Concept, problem: Problem) -> Margin:
    """How clearly a computed item's answer stands out in ``problem``'s numbers (see :class:`Margin`).

    The right option is the best exact value; the margin is its distance to the nearest other
    option's. A caller compares ``gap`` with the weights stage's tolerance (the marking's, a level
    above): an answer is clear when ``distinct`` and ``gap`` is larger than that tolerance."""
    if concept.ask == "unscaled":
        return _unscaled_margin(concept, problem)
    values, largest = _deciding(concept, problem)
    right = max(range(len(values)), key=lambda i: values[i] if largest else -values[i])
    others = [i for i in range(len(values)) if i != right]
    if not others:
        return Margin(math.inf, True, right, None, tuple(values))
    other = min(others, key=lambda i: abs(values[i] - values[right]))
    near = rounded(values[right], problem.decimals)
    distinct = all(rounded(values[i], problem.decimals) != near for i in others)
    return Margin(abs(values[right] - values[other]), distinct, right, other, tuple(values))


def tie_findings(problem_set: ProblemSet) -> list[Finding]:
    """A finding for each computed item whose answer, from the file's own numbers, is a tie."""
    findings = []
    for index, concept in enumerate(problem_set.concepts):
        if concept.kind != "computed":
            continue
        # the type: ignore below: a computed concept names its problem (the loader checks)
        problem = problem_set.get(concept.problem)  # type: ignore[arg-type]
        worked = work(concept, problem)
        if worked.tied or len(worked.options) < 2:
            tied = ", ".join(worked.options[i] for i in worked.right)
            where = Location(problem_set.source, concept.line)
            findings.append(Finding("problems.concept_tie", dict(path=f"concepts[{index}]", problem=problem.id, tied=tied, decimals=problem.decimals), where))
    return findings


def concept_dict(shown: ShownConcept) -> dict:
    """One entry of ``solve --format json``'s ``"concepts"``."""
    out: dict[str, object] = {
        "id": shown.id,
        "kind": shown.kind,
        "stem": shown.stem,
        "options": list(shown.options),
        "labels": list(shown.labels),
        "answer": list(shown.answer),
        "explanation": shown.explanation,
        "feedback": dict(shown.feedback),
    }
    if shown.several:
        out["several"] = True
    if shown.tied:
        out["tied"] = True
    return out


def concept_blocks(items: list[ShownConcept], *, answers: bool = True, start: int = 1) -> list:
    """The items as document blocks, under one heading: each stem, then its options a line each,
    labelled (with ``answers``: ✓ by the right one, each wrong one's feedback after it, then the
    answer and the explanation)."""
    if not items:
        return []
    blocks: list = [Heading(t("concepts.heading"), level=2)]
    for number, shown in enumerate(items, start=start):
        blocks.append(Heading(f"{number}. {shown.stem}", level=3))
        note = {"order": "concepts.order_note", "computed": None}.get(shown.kind, "concepts.several_note" if shown.several else None)
        if note:
            blocks.append(Paragraph(t(note, count=len(shown.answer))))  # several: how many are right
        for label, text in zip(shown.labels, shown.options):  # a paragraph each: long options wrap on any page
            line = f"{label}. {text}"
            if answers and shown.kind != "order":
                line += " ✓" if label in shown.answer else f" — {shown.feedback.get(label)}" if shown.feedback.get(label) else ""
            blocks.append(Paragraph(line))
        if answers:
            key = "concepts.answer_tied" if shown.tied else "concepts.answer_order_line" if shown.kind == "order" else "concepts.answer_line"
            blocks.append(Paragraph(t(key, answer=(" " if shown.kind == "order" else ", ").join(shown.answer))))
            if shown.explanation:
                blocks.append(Paragraph(shown.explanation))
    return blocks
