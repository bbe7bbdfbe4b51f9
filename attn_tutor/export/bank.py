"""What a quiz system needs to mark a worksheet by itself: every asked cell, its exact value
and tolerance, and the known mistakes that would give another number there.

Pure: reads solved problems, returns records. The Moodle and QTI writers
(:mod:`attn_tutor.export.moodle`, :mod:`attn_tutor.export.qti`) both read these
records, so the two systems ask the same cells and give the same feedback.

An *asked cell* is an open cell (one the query may attend to; every output cell)
of an asked row and asked stage, as on the worksheet. For each one the record
lists, in :data:`attn_tutor.marking.marker.DIAGNOSES` order, the mistakes that apply:
those the marker lists for the row (:meth:`attn_tutor.marking.marker.Marker.exact_mistakes`:
made from the exact earlier stages, since a quiz system cannot carry a student's
own numbers forward, and changing the row beyond the tolerance, as ``grade``
requires before it names a diagnosis) that change *this* cell by more than the
tolerance. Two mistakes giving the same number in a cell (within
the tolerance) keep only the first: a quiz system would never reach the second.
``rounding`` names a band around the right answer, not a value, so it has no
alternative of its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from decimal import Decimal, localcontext
from typing import NamedTuple

from attn_tutor.core.i18n import t
from attn_tutor.core.model import Problem, asked_row_indices, asked_stages
from attn_tutor.core.rounding import round_half_up
from attn_tutor.marking import marker as grading
from attn_tutor.marking.marker import EPS, Marker
from attn_tutor.marking.tolerance import window
from attn_tutor.solve import engine


class Mistake(NamedTuple):
    code: str  # a diagnosis code (attn_tutor.marking.marker.DIAGNOSES)
    value: float
    sentence: str  # the diagnosis, in the chosen language


class Answer(NamedTuple):
    """The right answer of a cell as a quiz system is told it (see :func:`right_answer`): the rounded
    value with a margin that keeps inside the cell's window, and the window itself."""

    text: str  # the exact value rounded half up to the asked places, as a student writes it: "1.414"
    margin: str  # how far from ``text`` an answer may be and stay inside the window: text ± margin ⊆ [low, high]
    low: str  # the window (attn_tutor.marking.tolerance.window): what the marker takes as right
    high: str
    centre: str  # (low + high) / 2 and (high - low) / 2: the window as a value and a tolerance
    half: str
    whole: bool  # text ± margin is the whole window already (the rounded value is its centre): no second answer


class Cell(NamedTuple):
    """One asked cell: the number a student types into one box."""

    row: int
    token: str  # the query token of the row
    stage: str
    index: int  # type: ignore[assignment]  # a field may shadow tuple.index (NamedTuple allows it); position in the stage's row (heads side by side)
    column: str  # the key token (with "[h] " in a multi-head problem), or the output component "1", "2", ...
    value: float  # exact
    tolerance: float
    mistakes: tuple[Mistake, ...]  # only those outside the right answer's range (a quiz system reaches them)
    right: Answer


class Question(NamedTuple):
    """One problem of one sheet: its givens and every asked cell."""

    problem: Problem
    variant: int | None
    solution: engine.Solution
    cells: tuple[Cell, ...]


def applicable_mistakes(solution, row: int, stage: str, marker=None) -> list[tuple[str, tuple[float | None, ...]]]:
    """Each diagnosis that could be named for this row and stage, with its mistaken row.

    The marker's own list (:meth:`attn_tutor.marking.marker.Marker.exact_mistakes`): made from
    the exact earlier stages, and only those that change the numbers beyond the
    tolerance, as marking requires before it names a diagnosis. ``None`` in an
    unmarked cell.
    """

    marker = Marker() if marker is None else marker
    return [(mistake.code, mistake.row) for mistake in marker.exact_mistakes(solution, row, stage)]


def _columns(solution, stage: str) -> list[str]:
    problem = solution.problem
    if stage == "output":
        return [str(c + 1) for c in range(solution.output.shape[1])]
    many = len(solution.heads) > 1
    return [f"[{h}] {key}" if many else key for h in range(1, len(solution.heads) + 1) for key in problem.keys]


def asked_cells(solution, marker=None) -> tuple[Cell, ...]:
    """Every asked cell of a solved problem, in the order the worksheet's tables read: stage by
    stage, head by head (one table each before the output), each table's rows in the asked order."""

    marker = grading.Marker() if marker is None else marker
    problem = solution.problem
    rows = asked_row_indices(problem)
    cells: list[Cell] = []
    for stage in asked_stages(problem):
        columns = _columns(solution, stage)
        mistakes = {row: applicable_mistakes(solution, row, stage, marker) for row in rows}
        if stage == "output":
            tables = [range(len(columns))]
        else:
            tables = [range(part.start, part.stop) for part in grading.segments(solution, stage)]
        for table in tables:
            for row in rows:
                exact = solution.stage_row(stage, row)
                open_ = grading.open_cells(solution, row, stage)
                for i in table:
                    value = float(exact[i])
                    if open_[i] and math.isfinite(value):
                        tolerance = grading.stage_tolerance(problem, stage)  # the teacher's, or the default that fits decimals
                        right = right_answer(value, tolerance, problem.decimals)
                        chosen = _cell_mistakes(value, [(code, made[i]) for code, made in mistakes[row]], tolerance)
                        chosen = tuple(m for m in chosen if not Decimal(right.low) <= Decimal(repr(m.value)) <= Decimal(right.high))  # never reached
                        cells.append(Cell(row, problem.tokens[row], stage, i, columns[i], value, tolerance, chosen, right))
    return tuple(cells)


def _cell_mistakes(value: float, made: list[tuple[str, float | None]], tolerance: float) -> tuple[Mistake, ...]:
    """The mistakes that give this cell another number, each number once (the first mistake's)."""

    chosen: list[Mistake] = []
    for code, wrong in made:
        if wrong is None or not math.isfinite(wrong) or abs(wrong - value) <= tolerance + EPS:
            continue
        if any(abs(wrong - other.value) <= tolerance + EPS for other in chosen):
            continue
        chosen.append(Mistake(code, wrong, t(f"grading.diagnosis.{code}")))
    return tuple(chosen)


def question(sheet, problem: Problem) -> Question:
    """One problem of one sheet (the set as written, or a variant), solved, with every asked cell."""
    solution = engine.solve(problem)
    return Question(problem, sheet.variant, solution, asked_cells(solution, Marker()))


def sheet_questions(sheet) -> Iterator[Question]:
    """The questions of one sheet, in the set's order, each made when it is asked for."""
    for problem in sheet.problem_set.problems:
        yield question(sheet, problem)


def questions(sheets) -> list[Question]:
    """One question per problem of each sheet (a sheet is the set as written, or a variant)."""
    return [q for sheet in sheets for q in sheet_questions(sheet)]


def decimal_text(x: float) -> str:
    """A float as a plain decimal numeral, exactly as Python reads it back: no exponent, no ``-0``."""
    return _plain(Decimal(repr(float(x))))


def bounds(value: float, tolerance: float) -> tuple[str, str]:
    """The accepted range ``value ± tolerance`` as decimals, computed without binary noise."""
    v, tol = Decimal(repr(float(value))), Decimal(repr(float(tolerance)))
    return _plain(v - tol), _plain(v + tol)


def right_answer(value: float, tolerance: float, decimals: int) -> Answer:
    """The right answer as Moodle and Canvas are told it, accepting exactly what the marker accepts.

    The marker takes a typed number as right when it lies in the cell's window
    (:func:`attn_tutor.marking.tolerance.window`: ``exact ± tolerance``, its ends decimals of a few
    more places than asked). The systems show one right answer, the first: the value rounded half
    up to ``decimals`` places (in the window whenever the tolerance is at least half a unit, as
    ``validate`` requires; else the window's centre).
    So the bank gives it a margin that stays inside the window (``min(high - text, text - low)``:
    one end of it is an end of the window) and then the window as a whole, as a second right
    answer (Moodle: ``centre:half``; Canvas: the range ``low``–``high``). Their union is the window.
    Every number is a short decimal that reads back as written.
    """

    text = _fixed(round_half_up(value, decimals))
    low, high = window(value, tolerance, decimals)
    rounded = Decimal(text)
    with localcontext() as context:
        context.prec = 80
        centre, half = _in_doubles((low + high) / 2, (high - low) / 2, low, high)
        if not low <= rounded <= high:  # a tolerance under half a unit (validate refuses it): show the window's centre
            return Answer(_plain(centre), _plain(half), _plain(low), _plain(high), _plain(centre), _plain(half), True)
        margin = max(Decimal(0), min(high - rounded, rounded - low))
        whole = rounded - margin == low and rounded + margin == high
        if whole:
            margin = _in_doubles(rounded, margin, low, high)[1]
    return Answer(text, _plain(margin), _plain(low), _plain(high), _plain(centre), _plain(half), whole)


def _in_doubles(centre: Decimal, half: Decimal, low: Decimal, high: Decimal) -> tuple[Decimal, Decimal]:
    """``centre ± half`` covering ``[low, high]`` also when a system computes it in doubles: ``half``
    widened, where it must be, three places past the window's ends (a number typed with no more
    places than the ends is inside iff it is inside the window)."""
    places = min(_places(low), _places(high))
    step = Decimal(1).scaleb(-places - 3)
    while float(centre) - float(half) > float(low) or float(centre) + float(half) < float(high):
        half += step
    return centre, half


def _places(d: Decimal) -> int:
    """The places after the point of a finite decimal as written (0.0050 has 4)."""
    exponent = d.as_tuple().exponent
    return -exponent if isinstance(exponent, int) else 0


def _fixed(d: Decimal) -> str:
    """A rounded number with its places, as a student writes it (no ``-0``)."""
    text = format(d, "f")
    return text[1:] if text.startswith("-") and Decimal(text) == 0 else text


def _plain(d: Decimal) -> str:
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text
