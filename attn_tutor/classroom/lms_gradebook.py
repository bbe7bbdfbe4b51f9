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
    assignment (read strictly, :func:`parse_points`), else the marks' maximum when
    every student had the same. A matched student whose roster row has no Canvas
    ID, or the same one as another roster row, is not written (said, exit 1); one
    whose name says "Points Possible" (Canvas's importer takes any such row for the
    points row) is written with an empty Student cell, found by ID.

Moodle (Grades → Import → CSV file)
    ``First name, Last name, ID number, Email address`` (and ``Username`` when the
    roster has it), then the grade item. Moodle's importer stops the whole import
    at a row whose user it cannot find, so only matched students are written, and
    the column to map under "Identify user by" is the first of ``Email address``,
    ``ID number``, ``Username`` that every written student has, no other roster
    student has too (case-folded) and none that would need neutralising (:attr:`LmsFile.identifier`);
    with none, the run refuses and says why for each.

Both
    One row per matched student who could be marked, in roster order; students
    with no answer file get no row (the LMS keeps what it has), nor do students who
    could not be marked — the command lists both. The grade is the score, or the
    score scaled to ``out_of`` points, rounded half up to 2 places. UTF-8 with a
    byte-order mark (both importers skip it; Excel needs it for Korean), ``\\r\\n``
    line ends. Every text cell, the grade column's header from ``--assignment``
    included, that starts like a formula (``=``, ``+``, ``-``, ``@``, tab, CR: OWASP's
    CSV-injection rule) gets a leading ``'`` (:func:`cell_text`); a real number such
    as ``-5`` stays a number, and the identifier the LMS matches on is written as it is.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from attn_tutor.classroom.roster import Matching
from attn_tutor.classroom.roster_file import TITLE_AND_ID, Roster, fold, moodle_item_title
from attn_tutor.core.errors import AttnTutorError, Finding, Location
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
    notes: list[Finding] = field(default_factory=list)  # matched, marked rows left out, and why
    changed: list[Finding] = field(default_factory=list)  # rows written otherwise than the roster has them, and why


def grade_text(value: Decimal) -> str:
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def grade_value(score: float, max_score: float, out_of: Decimal | None) -> Decimal:
    if out_of is None or not max_score:
        return round_half_up(score, PLACES)
    exact = Fraction(repr(float(score))) * Fraction(str(out_of)) / Fraction(repr(float(max_score)))
    return round_half_up(float(exact), PLACES)


NUMBER = re.compile(r"[-+]?\d+(\.\d+)?\Z")


def cell_text(text: str) -> str:
    """A text cell as the LMS's spreadsheet should show it: a real number as it is (``-5``), anything
    else that starts like a formula (``=``, ``+``, ``-``, ``@``, tab, CR) after a ``'`` (OWASP)."""
    return text if NUMBER.match(text) else safe_text(text)


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


# --- Points Possible, read strictly ----------------------------------------------------------

_PLAIN = re.compile(r"\d+(\.\d+)?")
_THOUSANDS_POINT = re.compile(r"\d{1,3}(,\d{3})+(\.\d+)?")  # 1,000 / 1,000.50 / 1,000,000
_THOUSANDS_COMMA = re.compile(r"\d{1,3}(\.\d{3})+,\d+")  # 1.000,50
_DECIMAL_COMMA = re.compile(r"\d+,\d+")  # 10,5 (Excel in much of Europe)
POINTS_MAX = Decimal(1_000_000)  # as --out-of


def parse_points(value: str, column: str, where: Location) -> Decimal | None:
    """The roster's Points Possible cell for ``column`` as a number of points (None when empty);
    else AttnTutorError. ``1,000`` alone could be a thousand or one and is refused; a number is a
    plain decimal with at most the usual separators, finite, above 0 and at most 1,000,000."""
    text = value.strip()
    if not text:
        return None
    if re.fullmatch(r"\d{1,3},\d{3}", text):
        thousands, decimal = text.replace(",", ""), grade_text(Decimal(text.replace(",", ".")))
        raise AttnTutorError("lms.points_ambiguous", where, column=column, value=text, thousands=thousands, decimal=decimal)
    if _PLAIN.fullmatch(text):
        number = text
    elif _THOUSANDS_POINT.fullmatch(text):
        number = text.replace(",", "")
    elif _THOUSANDS_COMMA.fullmatch(text):
        number = text.replace(".", "").replace(",", ".")
    elif _DECIMAL_COMMA.fullmatch(text):
        number = text.replace(",", ".")
    else:
        number = None
    points = Decimal(number) if number is not None else None
    if points is None or not 0 < points <= POINTS_MAX:
        raise AttnTutorError("lms.points_not_a_number", where, column=column, value=text)
    return points


def roster_points(roster: Roster, column: str) -> Decimal | None:
    """The roster's Points Possible for this assignment column, checked (Canvas rosters only)."""
    value = roster.points_possible.get(column)
    if value is None:
        return None
    return parse_points(value, column, Location(roster.file, roster.points_line))


# --- the files ---------------------------------------------------------------------------------


def _shared(pairs, roster: Roster, value) -> dict[str, list[int]]:
    """Each value (folded) of a written row that another roster row has too (written or not: the LMS
    knows them all) -> the roster lines that have it."""
    written = {fold(text) for m, _ in pairs if (text := value(m.entry))}
    lines: dict[str, list[int]] = {}
    for entry in roster.entries:
        text = value(entry)
        if text and fold(text) in written:
            lines.setdefault(fold(text), []).append(entry.line)
    return {text: found for text, found in lines.items() if len(found) > 1}


def canvas_csv(students: Sequence, matching: Matching, roster: Roster, *, assignment: str, out_of: Decimal | None = None) -> LmsFile:
    """Canvas finds each row's student by its Canvas ID first (then SIS IDs, then the name), and takes
    any row whose Student cell says Points Possible for the points row: so a row is written only with a
    Canvas ID that no other written row has, and a student called "Points Possible" with an empty
    Student cell."""
    column = roster.assignment_column(assignment) or assignment
    pairs, unmarked = _written(students, matching)
    notes: list[Finding] = []
    changed: list[Finding] = []
    kept = []
    for m, student in pairs:
        if not m.entry.identifier("ID").isdigit():
            notes.append(Finding("lms.no_canvas_id", {"roster": roster.file, "line": m.entry.line, "name": m.entry.name or "—"}))
        else:
            kept.append((m, student))
    shared = _shared(kept, roster, lambda entry: entry.identifier("ID"))
    for value, lines in shared.items():
        notes.append(
            Finding("lms.duplicate_id", {"roster": roster.file, "lines": ", ".join(map(str, lines)), "column": "ID", "value": value})
        )
    pairs = [(m, student) for m, student in kept if fold(m.entry.identifier("ID")) not in shared]
    try:
        listed = roster_points(roster, column)
    except AttnTutorError:
        if out_of is None:
            raise
        listed = None  # --out-of says the points: the roster's unreadable cell does not matter
    scale = out_of if out_of is not None else listed
    rows: list[list[str]] = [[*CANVAS_HEAD, cell_text(column)]]
    maxima = {student.max_score for _, student in pairs}
    points = scale if scale is not None else (Decimal(repr(float(maxima.pop()))) if len(maxima) == 1 else None)
    if points is not None:
        rows.append([POINTS_POSSIBLE, "", "", "", "", grade_text(points)])
    for m, student in pairs:
        entry = m.entry
        name = entry.name
        if "points possible" in fold(name):
            changed.append(Finding("lms.points_possible_name", {"roster": roster.file, "line": entry.line, "name": name}))
            name = ""
        rows.append(
            [
                cell_text(name),
                entry.identifier("ID"),
                cell_text(entry.identifier("SIS User ID")),
                cell_text(entry.identifier("SIS Login ID")),
                cell_text(entry.section or ""),
                grade_text(grade_value(student.score, student.max_score, scale)),
            ]
        )
    differs = listed if listed is not None and scale is not None and listed != scale else None
    return LmsFile(_encode(rows), column, None, len(pairs), unmarked, scale, differs, notes, changed)


def _identifier_problem(name: str, pairs, roster: Roster, value) -> Finding | None:
    """Why this column cannot identify the written rows for Moodle (None: it can)."""
    for m, _ in pairs:
        text = value(m.entry)
        if not text:
            return Finding("lms.identifier_empty", {"column": name, "name": m.entry.name or "—"})
        if cell_text(text) != text:
            return Finding("lms.identifier_formula", {"column": name, "value": text})
    shared = _shared(pairs, roster, value)
    for text, lines in shared.items():
        return Finding("lms.identifier_shared", {"column": name, "value": text, "lines": ", ".join(map(str, lines))})
    return None


def moodle_csv(students: Sequence, matching: Matching, roster: Roster, *, assignment: str, out_of: Decimal | None = None) -> LmsFile:
    """Moodle maps each row to a user by one column the teacher picks ("Identify user by"): the first of
    Email address, ID number and Username that every written row has, no two alike, as written."""
    column = roster.assignment_column(assignment) or assignment
    pairs, unmarked = _written(students, matching)
    values = {
        "Email address": lambda e: e.email or "",
        "ID number": lambda e: e.identifier("ID number"),
        "Username": lambda e: e.identifier("Username"),
    }
    identifier, why = None, []
    for name in MOODLE_IDENTIFIERS if pairs else ():
        problem = _identifier_problem(name, pairs, roster, values[name])
        if problem is None:
            identifier = name
            break
        why.append(problem)
    if pairs and identifier is None:
        raise AttnTutorError.many([Finding("lms.moodle_no_identifier", {"file": roster.file}), *why])
    usernames = any(entry.identifier("Username") for entry in roster.entries)
    head = [*MOODLE_HEAD, *(["Username"] if usernames else []), cell_text(column)]
    rows: list[list[str]] = [head]

    def cell(name: str, entry) -> str:
        text = values[name](entry)
        return text if name == identifier else cell_text(text)

    for m, student in pairs:
        entry = m.entry
        first, last = (entry.first, entry.last) if entry.first or entry.last else (entry.name, "")
        row = [cell_text(first or ""), cell_text(last or ""), cell("ID number", entry), cell("Email address", entry)]
        if usernames:
            row.append(cell("Username", entry))
        row.append(grade_text(grade_value(student.score, student.max_score, out_of)))
        rows.append(row)
    return LmsFile(_encode(rows), column, identifier, len(pairs), unmarked, out_of)


def lms_csv(layout: str, students: Sequence, matching: Matching, roster: Roster, *, assignment: str, out_of: Decimal | None = None) -> LmsFile:
    if layout == "canvas":
        return canvas_csv(students, matching, roster, assignment=assignment, out_of=out_of)
    return moodle_csv(students, matching, roster, assignment=assignment, out_of=out_of)


def default_assignment(roster: Roster) -> str | None:
    """The roster's one assignment column's title, when it has exactly one (an export of one
    assignment; Moodle's totals and time stamp are no assignments)."""
    if len(roster.assignments) != 1:
        return None

    column = roster.assignments[0]
    title = TITLE_AND_ID.match(column)
    if roster.kind == "canvas":
        return title.group(1) if title else column
    return moodle_item_title(column)
