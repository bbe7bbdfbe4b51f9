"""The grade column in an LMS's own gradebook-import layout (``grade --csv-layout canvas|moodle``).

Pure: the marked students (:class:`~attn_tutor.classroom.roster.Graded`), their roster and the
matching in; the file's bytes out.

Canvas (Grades → Import)
    ``Student, ID, SIS User ID, SIS Login ID, Section, <assignment> (<id>)``, the
    header Canvas's own importer looks for (``Student`` and ``ID`` first,
    ``Section`` closing the student columns), the cells copied from the roster so
    Canvas finds each student by ID first. The assignment column keeps the
    roster's ``Name (id)`` when the roster has that assignment, so the grades land
    in it; otherwise it is the bare name and Canvas offers to create the
    assignment. A ``Points Possible`` row follows the header when the points are
    known: ``--out-of``, else the roster's own ``Points Possible`` for that
    assignment, else the marks' maximum when every student had the same.

Moodle (Grades → Import → CSV file)
    ``First name, Last name, ID number, Email address`` (and ``Username`` when the
    roster has it), then the grade item. Moodle's importer stops the whole import
    at a row whose user it cannot find, so only matched students are written, and
    the column to map under "Identify user by" is the first of ``Email address``,
    ``ID number``, ``Username`` that every written student has (:attr:`LmsFile.identifier`).

Both
    One row per matched student who could be marked, in roster order; students
    with no answer file get no row (the LMS keeps what it has), nor do students who
    could not be marked — the command lists both. The grade is the score, or the
    score scaled to ``out_of`` points, rounded half up to 2 places. UTF-8 with a
    byte-order mark (both importers skip it; Excel needs it for Korean), ``\\r\\n``
    line ends; name and section cells that start like a formula get a leading
    ``'`` (identifier cells are copied unchanged: the LMS matches on them).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from attn_tutor.classroom.roster import TITLE_AND_ID, Matching, Roster, moodle_item_title
from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.rounding import round_half_up
from attn_tutor.gradebook.writing import safe_text

LAYOUTS = ("canvas", "moodle")
CANVAS_HEAD = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_HEAD = ("First name", "Last name", "ID number", "Email address")
MOODLE_IDENTIFIERS = ("Email address", "ID number", "Username")
POINTS_POSSIBLE = "Points Possible"
PLACES = 2


@dataclass
class LmsFile:
    data: bytes
    column: str  # the grade column's header
    identifier: str | None  # Moodle: the column to map users by
    written: int  # student rows
    unmarked: list[int] = field(default_factory=list)  # matched students with no marks (not written)
    out_of: Decimal | None = None
    roster_points: Decimal | None = None  # Canvas: the roster's Points Possible, when --out-of differs from it


def grade_text(value: Decimal) -> str:
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def grade_value(score: float, max_score: float, out_of: Decimal | None) -> Decimal:


    if out_of is None or not max_score:
        return round_half_up(score, PLACES)
    exact = Fraction(repr(float(score))) * Fraction(str(out_of)) / Fraction(repr(float(max_score)))
    return round_half_up(float(exact), PLACES)


def _safe(text: str) -> str:

    return safe_text(text)


def _encode(rows: list[list[str]]) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n").writerows(rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _written(students: Sequence, matching: Matching) -> tuple[list, list[int]]:
    """(match, student) pairs to write, in roster order, and the matched students with no marks."""
    pairs, unmarked = [], []
    for m in sorted(matching.matches, key=lambda m: m.entry.line):
        student = students[m.student]
        if student.score is None:
            unmarked.append(m.student)
        else:
            pairs.append((m, student))
    return pairs, sorted(unmarked)


def _out_of(pairs, out_of: Decimal | None, roster_points: str | None) -> Decimal | None:
    if out_of is not None:
        return out_of
    if roster_points:
        try:
            points = Decimal(roster_points.replace(",", "."))
        except ArithmeticError:
            points = None
        if points is not None and points.is_finite() and points > 0:
            return points
    return None


def canvas_csv(students: Sequence, matching: Matching, roster: Roster, *, assignment: str, out_of: Decimal | None = None) -> LmsFile:
    column = roster.assignment_column(assignment) or assignment
    pairs, unmarked = _written(students, matching)
    scale = _out_of(pairs, out_of, roster.points_possible.get(column))
    listed = _out_of(pairs, None, roster.points_possible.get(column))
    rows: list[list[str]] = [[*CANVAS_HEAD, column]]
    maxima = {student.max_score for _, student in pairs}
    points = scale if scale is not None else (Decimal(repr(float(maxima.pop()))) if len(maxima) == 1 else None)
    if points is not None:
        rows.append([POINTS_POSSIBLE, "", "", "", "", grade_text(points)])
    for m, student in pairs:
        entry = m.entry
        rows.append(
            [
                _safe(entry.cell("Student") or entry.name),
                entry.identifier("ID"),
                entry.identifier("SIS User ID"),
                entry.identifier("SIS Login ID"),
                _safe(entry.section or ""),
                grade_text(grade_value(student.score, student.max_score, scale)),
            ]
        )
    differs = listed if listed is not None and scale is not None and listed != scale else None
    return LmsFile(_encode(rows), column, None, len(pairs), unmarked, scale, differs)


def moodle_csv(students: Sequence, matching: Matching, roster: Roster, *, assignment: str, out_of: Decimal | None = None) -> LmsFile:
    column = roster.assignment_column(assignment) or assignment
    pairs, unmarked = _written(students, matching)
    values = {
        "Email address": lambda e: e.email or "",
        "ID number": lambda e: e.identifier("ID number"),
        "Username": lambda e: e.identifier("Username"),
    }
    identifier = next(
        (name for name in MOODLE_IDENTIFIERS if pairs and all(values[name](m.entry) for m, _ in pairs)), None
    )
    if pairs and identifier is None:
        raise AttnTutorError("lms.moodle_no_identifier", file=roster.file)
    usernames = any(entry.identifier("Username") for entry in roster.entries)
    head = [*MOODLE_HEAD, *(["Username"] if usernames else []), column]
    rows: list[list[str]] = [head]
    for m, student in pairs:
        entry = m.entry
        first, last = (entry.first, entry.last) if entry.first or entry.last else (entry.name, "")
        row = [_safe(first or ""), _safe(last or ""), values["ID number"](entry), values["Email address"](entry)]
        if usernames:
            row.append(values["Username"](entry))
        row.append(grade_text(grade_value(student.score, student.max_score, out_of)))
        rows.append(row)
    return LmsFile(_encode(rows), column, identifier, len(pairs), unmarked, out_of)


def lms_csv(layout: str, students: Sequence, matching: Matching, roster: Roster, *, assignment: str, out_of: Decimal | None = None) -> LmsFile:
    if layout == "canvas":
        return canvas_csv(students, matching, roster, assignment=assignment, out_of=out_of)
    return moodle_csv(students, matching, roster, assignment=assignment, out_of=out_of)


def default_assignment(roster: Roster) -> str | None:
    """The roster's one assignment column's title, when it has exactly one (an export of one assignment)."""
    if len(roster.assignments) != 1:
        return None

    column = roster.assignments[0]
    title = TITLE_AND_ID.match(column)
    if roster.kind == "canvas":
        return title.group(1) if title else column
    return moodle_item_title(column)
