"""A class list exported from an LMS, and which answer file belongs to which student.

Pure: text in, records out; no terminal, no files written. Used by ``grade
--roster`` (the LMS gradebook layouts in :mod:`attn_tutor.classroom.lms_gradebook`).

Rosters read
    **Canvas**: the gradebook export (Grades → Export), whose header starts
    ``Student, ID`` and goes on ``SIS User ID, SIS Login ID`` (optionally
    ``Integration ID``, ``Root Account``), ``Section``, then one column per
    assignment titled ``Name (id)`` and the read-only totals. Its ``Points
    Possible`` row gives each assignment's points; ``Manual Posting``/``Muted``
    rows are skipped, as Canvas's own importer skips them. ``Student`` is the
    sortable name, ``Kim, Minji``.

    **Moodle**: the grader report's CSV export or the participants list: ``First
    name``, ``Last name`` (or ``Surname``), ``ID number``, ``Email address``,
    optionally ``Username``, then grade items (``Quiz: Name (Real)``) and ``Last
    downloaded from this course``. Korean headers (``이름``, ``성``, ``학번``,
    ``이메일 주소``...) are read too.

    **Any other CSV** with a name column (``name``, ``student``, ``이름``) and/or an
    ID (``id``, ``student id``, ``학번``) or ``email`` column.

    UTF-8 with or without a byte-order mark, comma- or semicolon-separated.

Matching an answer file's ``student`` to a roster entry, in this order
    1. the whole text is one of the entry's identifiers (``ID number``, ``SIS User
       ID``, ``SIS Login ID``, ``ID``, ``Username``);
    2. it is the entry's email address;
    3. it is the entry's name: first and last name in either order, with or
       without spaces (``김민지`` = ``김 민지``; ``Minji Kim`` = ``Kim, Minji``);
    4. one of its words is an identifier of at least 4 characters with a digit in it
       (``김민지 20231234``, as students write name and 학번).
    Every comparison is on NFKC-normalised, case-folded text with spaces
    collapsed, so full-width letters and digits, other cases and decomposed
    Hangul (macOS file names) compare equal. A step that fits several entries
    stops there: the student is *ambiguous* and the candidates are named. An entry
    claimed by two answer files is matched to neither (a *duplicate*). Nothing is
    dropped silently: every answer-file student is matched (with how) or listed as
    unmatched, and every roster entry without an answer file is listed as absent.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from attn_tutor.core.errors import AttnTutorError, Location
from attn_tutor.core.i18n import t
from attn_tutor.render.blocks import Table

MIN_ID_IN_NAME = 4

# Header names as LMSs write them (compared folded), English and Korean.
FIRST_NAME = ("first name", "firstname", "given name", "이름")
LAST_NAME = ("last name", "lastname", "surname", "family name", "성")
ID_NUMBER = ("id number", "idnumber", "student id", "student number", "학번", "id 번호", "아이디 번호")
EMAIL = ("email address", "email", "e-mail", "e-mail address", "이메일", "이메일 주소", "전자우편", "전자 우편 주소")
USERNAME = ("username", "user name", "login", "사용자명", "사용자 이름", "아이디")
NAME = ("name", "full name", "student", "student name", "성명", "학생", "학생 이름")
SECTION = ("section", "group", "groups", "분반", "반", "그룹")
MOODLE_EXPORT_TIME = "last downloaded from this course"
CANVAS_TOTALS = (
    "current score", "current points", "current grade", "final score", "final points", "final grade",
    "override score", "override grade", "override status", "unposted current score", "unposted final score",
    "unposted current points", "unposted final points", "unposted current grade", "unposted final grade",
)  # fmt: skip
CANVAS_IDS = ("ID", "SIS User ID", "SIS Login ID", "Integration ID")
TITLE_AND_ID = re.compile(r"\A(.*)\s\((\d+)\)\Z", re.DOTALL)  # Canvas's Assignment.title_and_id


def fold(text: str) -> str:
    """Text as matching compares it: NFKC, case-folded, spaces collapsed."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return " ".join(text.split())


def _name_parts(text: str) -> list[str]:
    return [part for part in re.split(r"[\s,]+", fold(text)) if part]


def name_keys(name: str, first: str | None = None, last: str | None = None) -> frozenset[str]:
    """Every way of writing this name that counts as the same: order and spaces do not matter."""
    keys: set[str] = set()
    if first and last:
        a, b = "".join(_name_parts(first)), "".join(_name_parts(last))
        keys |= {a + b, b + a}
    folded = fold(name)
    if "," in folded:  # "Kim, Minji": last, first
        last_part, first_part = folded.split(",", 1)
        a, b = "".join(_name_parts(first_part)), "".join(_name_parts(last_part))
        if a and b:
            keys |= {a + b, b + a}
    parts = _name_parts(name)
    if parts:
        keys |= {"".join(parts), "".join(reversed(parts))}
    keys.discard("")
    return frozenset(keys)


@dataclass(frozen=True)
class RosterEntry:
    """One student of the LMS's class list, with the cells the LMS wants back."""

    line: int
    name: str  # as the LMS shows it ("Kim, Minji", or first and last joined)
    first: str | None = None
    last: str | None = None
    email: str | None = None
    section: str | None = None
    ids: tuple[tuple[str, str], ...] = ()  # (field, value): ("ID number", "20231234"), ("SIS User ID", ...)
    cells: tuple[tuple[str, str], ...] = ()  # the row as read, (header, value)

    def cell(self, header: str) -> str:
        return dict(self.cells).get(header, "")

    def identifier(self, name: str) -> str:
        return dict(self.ids).get(name, "")


@dataclass
class Roster:
    kind: str  # "canvas", "moodle" or "csv"
    file: str
    header: list[str]
    entries: list[RosterEntry]
    assignments: list[str] = field(default_factory=list)  # grade columns as headed in the file
    points_possible: dict[str, str] = field(default_factory=dict)  # Canvas: assignment column -> points

    def assignment_column(self, name: str) -> str | None:
        """The roster's column for an assignment named ``name`` (Canvas: ``name (id)``), if any."""
        wanted = fold(name)
        for column in self.assignments:
            if fold(column) == wanted:
                return column
        for column in self.assignments:
            title = TITLE_AND_ID.match(column)
            if title and fold(title.group(1)) == wanted:
                return column
            if fold(moodle_item_title(column)) == wanted:
                return column
        return None


def moodle_item_title(column: str) -> str:
    """``Quiz: Attention (Real)`` -> ``Attention``."""
    text = re.sub(r"\s*\((Real|Percentage|Letter|실수|백분율|문자)\)\s*\Z", "", column.strip())
    return text.split(":", 1)[1].strip() if ":" in text else text


def _sniff(text: str) -> str:
    first = text.split("\n", 1)[0]
    return ";" if first.count(";") > first.count(",") else ","


def read_roster_text(text: str, file: str) -> Roster:
    """A roster from its text (BOM already removed or not). Raises AttnTutorError with file:line."""
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_sniff(text), strict=True)  # an open quote is an error, not the rest of the file
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as error:
        raise AttnTutorError("roster.bad_csv", Location(file, reader.line_num + 1), problem=str(error)) from None
    rows = [(line, row) for line, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise AttnTutorError("roster.empty", Location(file))
    header_line, header = rows[0]
    header = [cell.strip() for cell in header]
    folded = [fold(cell) for cell in header]
    body = rows[1:]
    if len(folded) >= 3 and "student" in folded[0] and folded[1] == "id":
        return _canvas(header, body, file)
    return _other(header, folded, body, file, header_line)


def _canvas(header: list[str], body, file: str) -> Roster:
    info = {"student", "id", "sis user id", "sis login id", "integration id", "root account", "section"}
    assignments = [
        column for column in header[2:] if fold(column) not in info and not fold(column).startswith(CANVAS_TOTALS)
    ]
    points: dict[str, str] = {}
    entries = []
    for line, row in body:
        cells = dict(zip(header, (cell.strip() for cell in row)))
        student = cells.get(header[0], "")
        if "points possible" in fold(student):
            points = {column: cells.get(column, "") for column in assignments if cells.get(column, "")}
            continue
        if all(re.fullmatch(r"\s*(muted|manual posting.*)?\s*", cell, re.IGNORECASE) for cell in row):
            continue
        ids = tuple((name, cells[name]) for name in CANVAS_IDS if cells.get(name))
        if not student and not ids:
            continue
        section = next((cells[c] for c in header if fold(c) == "section" and cells.get(c)), None)
        last, _, first = student.partition(",")
        entries.append(
            RosterEntry(
                line=line,
                name=student,
                first=first.strip() or None,
                last=last.strip() if first.strip() else None,
                section=section,
                ids=ids,
                cells=tuple(cells.items()),
            )
        )
    return Roster("canvas", file, header, entries, assignments, points)


def _column(folded: list[str], names: Sequence[str]) -> int | None:
    for index, cell in enumerate(folded):
        if cell in names:
            return index
    return None


def _other(header: list[str], folded: list[str], body, file: str, header_line: int) -> Roster:
    first_col, last_col = _column(folded, FIRST_NAME), _column(folded, LAST_NAME)
    name_col = _column(folded, NAME)
    id_col, email_col = _column(folded, ID_NUMBER), _column(folded, EMAIL)
    user_col, section_col = _column(folded, USERNAME), _column(folded, SECTION)
    if first_col is not None and last_col is None and name_col is None:
        name_col, first_col = first_col, None  # a lone "이름" column is the whole name
    has_name = (first_col is not None and last_col is not None) or name_col is not None
    if not has_name and id_col is None and email_col is None and user_col is None:
        raise AttnTutorError("roster.no_columns", Location(file, header_line))
    moodle = first_col is not None and last_col is not None
    known = {i for i in (first_col, last_col, name_col, id_col, email_col, user_col, section_col) if i is not None}
    assignments = [
        column
        for index, column in enumerate(header)
        if index not in known and column and fold(column) not in ("institution", "department", "소속", "부서", MOODLE_EXPORT_TIME)
        and moodle
    ]
    entries = []

    def get(row, index):
        return row[index].strip() if index is not None and index < len(row) else ""

    for line, row in body:
        first, last = get(row, first_col), get(row, last_col)
        name = get(row, name_col) or _full_name(first, last)
        ids = tuple(
            (label, value)
            for label, index in (("ID number", id_col), ("Username", user_col))
            if (value := get(row, index))
        )
        email = get(row, email_col) or None
        if not name and not ids and not email:
            continue
        entries.append(
            RosterEntry(
                line=line,
                name=name,
                first=first or None,
                last=last or None,
                email=email,
                section=get(row, section_col) or None,
                ids=ids,
                cells=tuple(zip(header, (cell.strip() for cell in row))),
            )
        )
    return Roster("moodle" if moodle else "csv", file, header, entries, assignments)


def _hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" or "\u1100" <= ch <= "\u11ff" for ch in unicodedata.normalize("NFC", text))


def _full_name(first: str, last: str) -> str:
    """As the class writes it: 김민지 (family name first, no space) for Korean, Minji Kim otherwise."""
    if first and last and _hangul(first) and _hangul(last):
        return last + first
    return " ".join(part for part in (first, last) if part)


def read_roster(path) -> Roster:

    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise AttnTutorError("roster.unreadable", Location(str(path)), reason=error.strerror or str(error)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise AttnTutorError("roster.not_utf8", Location(str(path)), offset=error.start) from None
    return read_roster_text(text, str(path))


# --- matching ------------------------------------------------------------------------------


class Graded(NamedTuple):
    """What matching and the LMS file need of a marked student (from the gradebook's row)."""

    student: str
    where: str  # the answer file (and CSV line), for messages
    score: float | None  # None: the student could not be marked
    max_score: float | None

    @classmethod
    def of(cls, row) -> Graded:
        """From a :class:`~attn_tutor.gradebook.rows.StudentRow`."""
        return cls(row.cells[0] or "", row.file, row.score, row.max_score)


HOW = ("id", "email", "name", "id_in_name")
REASONS = ("none", "ambiguous", "duplicate")


@dataclass(frozen=True)
class Match:
    student: int  # index into the students matched
    entry: RosterEntry
    how: str  # one of HOW
    field: str  # which roster field: "ID number", "SIS Login ID", "email", "name"


@dataclass(frozen=True)
class Unmatched:
    student: int
    reason: str  # one of REASONS
    candidates: tuple[RosterEntry, ...] = ()  # ambiguous: the entries it fits; duplicate: the entry claimed
    others: tuple[int, ...] = ()  # duplicate: the other students claiming the same entry


@dataclass
class Matching:
    matches: list[Match]
    unmatched: list[Unmatched]
    absent: list[RosterEntry]  # roster entries no answer file matched

    def __post_init__(self) -> None:
        self._by_student = {m.student: m for m in self.matches}

    def of(self, student: int) -> Match | None:
        return self._by_student.get(student)


class _Index:
    def __init__(self, entries: Sequence[RosterEntry]) -> None:
        self.ids: dict[str, list[tuple[RosterEntry, str]]] = {}
        self.emails: dict[str, list[RosterEntry]] = {}
        self.names: dict[str, list[RosterEntry]] = {}
        for entry in entries:
            for label, value in entry.ids:
                self.ids.setdefault(fold(value), []).append((entry, label))
            if entry.email:
                self.emails.setdefault(fold(entry.email), []).append(entry)
            for key in name_keys(entry.name, entry.first, entry.last):
                self.names.setdefault(key, []).append(entry)


def _unique(entries) -> list:
    seen: dict[int, object] = {}
    for entry in entries:
        seen.setdefault(id(entry[0] if isinstance(entry, tuple) else entry), entry)
    return list(seen.values())


def _find(text: str, index: _Index) -> tuple[str, list] | None:
    """(how, candidates) for the first step that fits; candidates are (entry, field)."""
    key = fold(text)
    if not key:
        return None
    found = _unique(index.ids.get(key, []))
    if found:
        return "id", found
    found = _unique(index.emails.get(key, []))
    if found:
        return "email", [(entry, "email") for entry in found]
    named = []
    for name_key in name_keys(text):
        named.extend(index.names.get(name_key, []))
    found = _unique(named)
    if found:
        return "name", [(entry, "name") for entry in found]
    words = [
        word for word in re.split(r"[\s,;()\[\]<>/]+", key) if len(word) >= MIN_ID_IN_NAME and any(c.isdigit() for c in word)
    ]  # a 학번, not a word of a name that happens to be someone's username
    hits = []
    for word in words:
        hits.extend(index.ids.get(word, []))
    found = _unique(hits)
    if found:
        return "id_in_name", found
    return None


def match(students: Sequence[str], roster: Roster) -> Matching:
    """Which roster entry each answer-file student is (by the order in the module docstring)."""
    index = _Index(roster.entries)
    claimed: dict[int, list[tuple[int, str, str]]] = {}  # id(entry) -> [(student, how, field)]
    by_id = {id(entry): entry for entry in roster.entries}
    unmatched: list[Unmatched] = []
    for number, text in enumerate(students):
        found = _find(text or "", index)
        if found is None:
            unmatched.append(Unmatched(number, "none"))
            continue
        how, candidates = found
        if len(candidates) > 1:
            unmatched.append(Unmatched(number, "ambiguous", tuple(entry for entry, _ in candidates)))
            continue
        entry, label = candidates[0]
        claimed.setdefault(id(entry), []).append((number, how, label))
    matches = []
    for key, claims in claimed.items():
        entry = by_id[key]
        if len(claims) == 1:
            number, how, label = claims[0]
            matches.append(Match(number, entry, how, label))
            continue
        numbers = tuple(number for number, _, _ in claims)
        for number in numbers:
            unmatched.append(Unmatched(number, "duplicate", (entry,), tuple(n for n in numbers if n != number)))
    matches.sort(key=lambda m: m.student)
    unmatched.sort(key=lambda u: u.student)
    taken = {id(m.entry) for m in matches} | {id(u.candidates[0]) for u in unmatched if u.reason == "duplicate"}
    absent = [entry for entry in roster.entries if id(entry) not in taken]
    return Matching(matches, unmatched, absent)


# --- what the teacher is told --------------------------------------------------------------


def how_text(m: Match, lang: str) -> str:

    return t(f"roster.how.{m.how}", lang, field=m.field)


def matching_blocks(students: Sequence, matching: Matching, lang: str) -> list:
    """A table of every match (answer file's student, roster name and line, how)."""

    rows = tuple(
        (students[m.student].student or "—", m.entry.name or "—", str(m.entry.line), how_text(m, lang))
        for m in matching.matches
    )
    header = tuple(t(f"roster.col.{name}", lang) for name in ("student", "entry", "line", "how"))
    title = t("roster.match_title", lang, matched=len(matching.matches), total=len(students))
    return [Table(header, rows, title=title)]


def unmatched_messages(students: Sequence, matching: Matching, roster: Roster, lang: str, *, lms: bool = False) -> list[str]:
    """One sentence per answer-file student who is not matched, with the file it came from
    (``lms``: an LMS file is being written, which leaves them out)."""

    lines = []
    for u in matching.unmatched:
        student = students[u.student]
        where = student.where
        name = student.student or t("feedback.no_name", lang)
        if u.reason == "ambiguous":
            candidates = "; ".join(f"{e.name} ({roster.file}:{e.line})" for e in u.candidates)
            lines.append(t("roster.unmatched.ambiguous", lang, where=where, student=name, candidates=candidates))
        elif u.reason == "duplicate":
            others = ", ".join(students[o].where for o in u.others)
            lines.append(t("roster.unmatched.duplicate", lang, where=where, student=name, others=others))
        else:
            lines.append(t("roster.unmatched.none", lang, where=where, student=name, roster=roster.file))
    if lms:
        lines = [t("roster.not_written", lang, message=line) for line in lines]
    return lines


def absent_message(matching: Matching, lang: str) -> str | None:

    if not matching.absent:
        return None
    return t("roster.absent", lang, names=", ".join(f"{e.name or '—'} ({e.line})" for e in matching.absent))
