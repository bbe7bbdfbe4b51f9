"""One marked student as every output needs them: made in whichever process marked them.

A :class:`StudentRow` is small and plain (strings, numbers, tuples), so a worker
process hands it back cheaply and the parent only merges: the gradebook's typed
cells, the class table's row, the error lines, the JSON text when asked for, and
whatever else the run asked the worker to make of the student (``grade --feedback``:
the hand-back sheet), so each answer file is read and marked once.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from attn_tutor.core.errors import Location
from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt, fmt_score, round_half_up
from attn_tutor.gradebook.records import ItemKey, StudentResult, concept_key, percent_of
from attn_tutor.marking.marker import diagnosis_name


class StudentRow(NamedTuple):
    cells: tuple  # student, variant, score, max_score, percent: typed (str, int, float, Decimal, None)
    items: tuple[tuple[ItemKey, float, str, str, str | None], ...]  # (column, points, verdict cell, verdict, diagnosis)
    errors: tuple[str, ...]  # each problem found, as a sentence in the run's language
    score: float | None  # None: the student could not be marked
    max_score: float | None
    set_key: str | None  # the problem set whose items the student was set (None: none could be solved)
    summary: tuple[str, ...]  # the class table's row
    json: bytes | None  # the student's full report as UTF-8 JSON (only when a JSON file is written): bytes, so the merging parent only writes it
    problem_set: str | None = None  # what marked the student (the gradebook's problem_set column)
    file: str = ""  # where the answers came from: a file, or file:line for a CSV row
    refused: bool = False  # the file was refused whole (a FIFO, over its size cap): its name is no student's
    of_file: bool = False  # the file's own row (a CSV header's problems): in the gradebook, but not a student
    set_file: str | None = None  # the problem-set file the row was marked against (an input: never overwritten)
    extra: object = None  # what grade_class's ``extra`` names, made where the student was marked (their hand-back sheet)
    chosen: tuple = ()  # (item, labels chosen[, (labels, right)]) of each choice item, in the file's labels (gradebook.choices)


def number(x: float) -> str:
    """Points and scores as plain numbers: ``1``, ``0.5``, ``0.67`` (half up from the exact value)."""

    return fmt_score(x)


def pct(value: float, decimals: int = 1) -> str:
    return fmt(value, decimals) + "%"


def verdict_cell(item) -> str:
    """The gradebook's verdict cell in the language spoken: ``wrong: not divided by √d``, ``오답: √d로 안 나눔``."""

    verdict = t(f"grade.verdict.{item.verdict}")
    return f"{verdict}: {diagnosis_name(item.diagnosis)}" if item.diagnosis else verdict


_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)  # what json.dumps would make for every call


def dumps(value) -> str:
    """JSON text as every output writes it: UTF-8 as is, never NaN (``json.dumps(value,
    ensure_ascii=False, allow_nan=False)``, through one encoder made once)."""
    return _ENCODER.encode(value)


ITEM_TEXTS = 10_000
"""Marked items a run remembers, each with its JSON text (:func:`student_json`, ~0.6 KB) and its row
entry (:func:`student_row`): so ~6 MB (a 10,000-file class: 87% of its items met from this memo,
against 88% with no bound)."""


def student_json(student: StudentResult, texts: dict | None = None) -> bytes:
    """``dumps(student.to_dict())`` as UTF-8, the same bytes, with each marked item's part made once a run.

    The marker hands back the very same :class:`~attn_tutor.marking.results.Item` for every row typed
    alike (most of a class's items: right rows, the usual slips), so ``texts``, the run's memo of
    ``id(item) -> (item, its JSON as UTF-8)``, turns each such item into text once (the item is held
    there, so its id is never another's); at most :data:`ITEM_TEXTS` are remembered. The parts are
    joined as bytes: a report's text is never made whole as a str and then encoded."""
    head = dumps(student.head())[:-1].encode("utf-8")  # a dict's text, less its closing brace
    report = student.report
    if report is None:
        return head + b', "report": null}'
    memo = {} if texts is None else texts
    parts = [head, b', "report": ', dumps(report.head())[:-1].encode("utf-8"), b', "items": [', b", ".join(_texts(report.items, memo)), b"]"]
    if report.concepts:  # a concept item's result is shared alike (the Grader's memo)
        parts += [b', "concepts": [', b", ".join(_texts(report.concepts, memo)), b"]"]
    parts.append(b"}}")
    return b"".join(parts)


def _texts(marked, memo: dict) -> list[bytes]:
    """Each marked item's (or concept result's) ``dumps(to_dict())`` as UTF-8, from ``memo`` where it is known."""
    return _entries(marked, memo, _text)


def _text(item) -> bytes:
    return dumps(item.to_dict()).encode("utf-8")


def _entry(item, verdicts: dict | None) -> tuple:
    """A marked item as a row carries it: (column, points, verdict cell, verdict, diagnosis); the
    verdict cell from ``verdicts``, the run's memo by (verdict, diagnosis), where it is known."""
    verdict, diagnosis = item.verdict, item.diagnosis
    cells = {} if verdicts is None else verdicts
    cell = cells.get((verdict, diagnosis))
    if cell is None:
        cell = cells[(verdict, diagnosis)] = verdict_cell(item)
    return ((item.problem, item.row, item.stage), item.points, cell, verdict, diagnosis)


def _concept_entry(result) -> tuple:
    """A marked concept item as a row carries it: its points, and the labels chosen on the student's own sheet."""
    verdict = "correct" if result.right else "missing" if not result.chosen else "wrong"
    cell = t(f"grade.concept_cell.{verdict}", choice=result.typed)
    return (concept_key(result.id), result.score, cell, verdict, None)


def _entries(marked, memo: dict, make) -> list:
    """Each marked item's (or concept result's) entry, ``make(item)``, from ``memo`` where it is known:
    the marker and the Grader hand back the very same item for many students, so each entry is made
    once a run (and, shared, sent once a chunk); the item is held there, so its id is never another's."""
    found = []
    for item in marked:
        known = memo.get(id(item))
        if known is None or known[0] is not item:
            known = (item, make(item))
            if len(memo) < ITEM_TEXTS:
                memo[id(item)] = known
        found.append(known[1])
    return found


def student_row(
    student: StudentResult,
    *,
    with_json: bool = False,
    verdicts: dict | None = None,
    extra: object = None,
    texts: dict | None = None,
    entries: dict | None = None,
) -> StudentRow:
    """``verdicts``: the run's memo of verdict cells by (verdict, diagnosis), filled as they are met
    (a class has a few dozen distinct cells and a hundred thousand items); ``texts``: its memo of
    items' JSON (:func:`student_json`); ``entries``: its memo of ``id(item) -> (item, its entry in
    the row's items)``, so the students who share an item share its entry (at most :data:`ITEM_TEXTS`).
    ``extra``: carried as is."""

    report = student.report
    score, max_score = (None, None) if report is None else (report.score, report.max_score)
    percent = None if report is None else percent_of(report.score, report.max_score)
    rounded = None if percent is None else round_half_up(percent, 1)
    items: tuple = ()
    if report is not None:
        memo = {} if entries is None else entries
        found = _entries(report.items, memo, lambda item: _entry(item, verdicts))
        if report.concepts:  # a concept item: its points, and the labels chosen on the student's own sheet
            found += _entries(report.concepts, memo, lambda result: _concept_entry(result))
        items = tuple(found)
    summary = (
        student.student or "—",
        "" if student.variant is None else str(student.variant),
        number(score) if score is not None else "—",  # (marked)
        number(max_score) if max_score is not None else "—",
        pct(percent) if percent is not None else "—",
        str(len(student.findings)) if student.findings else "",
    )
    return StudentRow(
        cells=(student.student, student.variant, score, max_score, rounded),
        items=items,
        errors=tuple(f.text() for f in student.findings),
        score=score,
        max_score=max_score,
        set_key=student.set_key,
        summary=summary,
        json=student_json(student, texts) if with_json else None,
        problem_set=student.problem_set,
        file=str(Location(student.file, student.line)),
        refused=student.refused,
        of_file=student.of_file,
        set_file=student.set_file,
        extra=extra,
    )
