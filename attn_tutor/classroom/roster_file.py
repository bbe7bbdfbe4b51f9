"""A class list exported from an LMS, read safely: who is in it, and its grade columns.

Pure but for reading the one file, through :mod:`attn_tutor.core.reading` (a regular
file only, at most :data:`~attn_tutor.core.model.ROSTER_BYTES_MAX` bytes, read as a
stream: only each student's own cells are kept, never the file's text). Matching
answer files to it is :mod:`attn_tutor.classroom.roster`.

Rosters read
    **Canvas**: the gradebook export (Grades → Export), whose header starts
    ``Student, ID`` (or ``LastName, FirstName, ID``, when the gradebook shows them
    apart) and goes on ``SIS User ID, SIS Login ID`` (optionally
    ``Integration ID``, ``Root Account``), ``Section``, then custom columns
    (``Notes``), one column per assignment titled ``Name (id)`` and the read-only
    totals, the course's and each assignment group's (``Assignments Current
    Score``), none of which is a grade column. Its ``Points
    Possible`` row, the one before every student and without an ID (a student
    called "Points Possible" has one), gives each assignment's points;
    ``Manual Posting``/``Muted`` rows are skipped, as Canvas's own importer skips
    them. ``Student`` is the sortable name, ``Kim, Minji``; the Student View
    account, ``Student, Test``, is marked as Canvas's test student.

    **Moodle**: the grader report's export or the participants list: ``First
    name``, ``Last name`` (or ``Surname``), ``ID number``, ``Email address``,
    optionally ``Username``, then grade items, each headed with its display type
    (``Quiz: Name (Real)``). The course and category totals (``Course total
    (Real)``, ``<category> total (Real)``), feedback columns and ``Last downloaded
    from this course`` are no grade items. Korean headers (``이름``, ``성``,
    ``학번``, ``이메일 주소``...) are read too.

    **Any other CSV** with a name column (``name``, ``student``, ``이름``) and/or an
    ID (``id``, ``student id``, ``학번``) or ``email`` column.

    Comma-, tab- (Moodle's plain-text export) or semicolon-separated, sniffed from
    the header line; UTF-8 with or without a byte-order mark, UTF-16 with one (or
    without, told by its zero bytes), else CP949 (EUC-KR), as Excel saves them.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from attn_tutor.core.errors import AttnTutorError, Location
from attn_tutor.core.model import ROSTER_BYTES_MAX
from attn_tutor.core.reading import InputRefused, open_text, read_regular

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
# Canvas's read-only totals, for the course and for each assignment group ("Assignments Current Score"),
# each optionally for a grading period ("Current Score (Fall 2020)"); compared folded.
CANVAS_TOTAL = re.compile(
    r"(\A|.*\s)(unposted )?(current|final|override) (score|points|grade|status)(\s\(.*\))?\Z", re.DOTALL
)
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


class RosterEntry(NamedTuple):
    """One student of the LMS's class list, with the cells the LMS wants back (only those: a large
    roster's grade columns are never kept). A NamedTuple: a large roster makes many, and one is made
    three times faster than a frozen dataclass. Matching tells entries apart by identity (two rows
    alike are two students)."""

    line: int
    name: str  # as the LMS shows it ("Kim, Minji", or first and last joined)
    first: str | None = None
    last: str | None = None
    email: str | None = None
    section: str | None = None
    ids: tuple[tuple[str, str], ...] = ()  # (field, value): ("ID number", "20231234"), ("SIS User ID", ...)

    def identifier(self, name: str) -> str:
        for label, value in self.ids:
            if label == name:
                return value
        return ""


@dataclass
class Roster:
    kind: str  # "canvas", "moodle" or "csv"
    file: str
    header: list[str]
    entries: list[RosterEntry]
    assignments: list[str] = field(default_factory=list)  # grade columns as headed in the file
    points_possible: dict[str, str] = field(default_factory=dict)  # Canvas: assignment column -> points
    points_line: int | None = None  # Canvas: the line of its Points Possible row
    test_students: list[RosterEntry] = field(default_factory=list)  # Canvas: the Student View account's rows

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
    text = DISPLAY_TYPE.sub("", column.strip())
    return text.split(":", 1)[1].strip() if ":" in text else text


# Moodle's export heads each grade item "<Module>: <name> (<display type>)" (or "<name> (<type>)" for a
# manual item), its totals "Course total (Real)" and "<category> total (Real)".
DISPLAY_TYPE = re.compile(r"\s*\((Real|Percentage|Letter|실수|백분율|문자|퍼센트|등급)\)\s*\Z", re.IGNORECASE)
FEEDBACK_COLUMN = re.compile(r"\((feedback|피드백)\)\s*\Z", re.IGNORECASE)
MOODLE_TOTAL = re.compile(r"(\A|\s)(course total|total|강좌 총점|과정 총점|총점|합계)\Z", re.IGNORECASE)
DELIMITERS = (",", "\t", ";")
POSTING_ROW = re.compile(r"\s*(muted|manual posting.*)?\s*", re.IGNORECASE)  # Canvas's rows about posting, not students
TEST_STUDENT = frozenset({"teststudent", "studenttest"})  # Canvas's Student View account ("Student, Test")


def moodle_summary(column: str) -> bool:
    """A column of Moodle's export that is no grade item to import into: a course or category total,
    or the export's time stamp."""
    title = fold(DISPLAY_TYPE.sub("", column.strip()))
    return ":" not in title and bool(MOODLE_TOTAL.search(title)) or fold(column) == MOODLE_EXPORT_TIME


def sniff(line: str) -> str:
    """The delimiter of a roster from its first line: the most common of comma, tab and semicolon
    outside quotes (Canvas writes commas, Moodle's plain-text export tabs, Excel in some locales
    semicolons); comma on a tie."""
    counts = dict.fromkeys(DELIMITERS, 0)
    quoted = False
    for char in line:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in counts:
            counts[char] += 1
    return max(DELIMITERS, key=lambda d: counts[d])  # max keeps the first of equals: comma


def read_roster_text(text: str, file: str) -> Roster:
    """A roster from its text (BOM already removed or not). Raises AttnTutorError with file:line."""
    return _parse(io.StringIO(text.lstrip("\ufeff"), newline=""), file)


def _parse(lines, file: str) -> Roster:
    """A roster from an iterator of its lines, read as a stream: only each entry's own cells are kept."""
    lines = iter(lines)
    start = []  # the blank lines before the header, and the header's first line, to sniff the delimiter
    for line in lines:
        start.append(line)
        if line.strip():
            break
    reader = csv.reader(itertools.chain(start, lines), delimiter=sniff(start[-1] if start else ""), strict=True)  # an open quote is an error, not the rest of the file
    ended = [0]  # the line the last whole record ended on: a bad record starts on the next

    def records():
        for row in reader:
            ended[0] = reader.line_num
            if any(cell.strip() for cell in row):
                yield reader.line_num, row

    rows = records()
    try:
        header_line, header = next(rows, (0, None))
        if header is None:
            raise AttnTutorError("roster.empty", Location(file))
        header = [cell.strip() for cell in header]
        folded = [fold(cell) for cell in header]
        if len(folded) >= 3 and "student" in folded[0] and folded[1] == "id":
            return _canvas(header, rows, file)
        if len(folded) >= 4 and folded[:3] == ["lastname", "firstname", "id"]:  # "first and last names separately"
            return _canvas(header, rows, file, split_name=True)
        return _other(header, folded, rows, file, header_line)
    except csv.Error as error:
        raise AttnTutorError("roster.bad_csv", Location(file, ended[0] + 1), problem=str(error)) from None


def _canvas(header: list[str], body, file: str, *, split_name: bool = False) -> Roster:
    """``split_name``: the export shows ``LastName, FirstName`` in two columns (a gradebook setting);
    the entry's name is then ``Last, First``, as the one ``Student`` column has it."""
    info = {"student", "lastname", "firstname", "id", "sis user id", "sis login id", "integration id", "root account", "section"}
    assignments = [column for column in header[2:] if fold(column) not in info and not CANVAS_TOTAL.match(fold(column))]
    if any(TITLE_AND_ID.match(column) for column in assignments):  # Canvas heads each assignment "Name (id)": the rest
        assignments = [column for column in assignments if TITLE_AND_ID.match(column)]  # are custom columns (Notes)
    id_columns = [(name, header.index(name)) for name in CANVAS_IDS if name in header]
    section_col = next((index for index, column in enumerate(header) if fold(column) == "section"), None)
    points: dict[str, str] = {}
    points_line: int | None = None
    entries: list[RosterEntry] = []
    tests: list[RosterEntry] = []

    for line, row in body:
        width = len(row)
        student = row[0].strip()
        if split_name and width > 1 and row[1].strip():
            student = f"{student}, {row[1].strip()}" if student else row[1].strip()
        ids = tuple((name, value) for name, index in id_columns if index < width and (value := row[index].strip()))
        if not entries and points_line is None and not ids and "points possible" in fold(student):
            # Canvas's own row: before every student and without an ID (a student of that name has one)
            cells = dict(zip(header, (cell.strip() for cell in row)))
            points = {column: cells.get(column, "") for column in assignments if cells.get(column, "")}
            points_line = line
            continue
        if all(POSTING_ROW.fullmatch(cell) for cell in row):
            continue
        if not student and not ids:
            continue
        last, _, first = student.partition(",")
        section = row[section_col].strip() if section_col is not None and section_col < width else ""
        entry = RosterEntry(line, student, first.strip() or None, last.strip() if first.strip() else None, None, section or None, ids)
        entries.append(entry)
        if "test" in student.lower() and name_keys(student) & TEST_STUDENT:
            tests.append(entry)
    return Roster("canvas", file, header, entries, assignments, points, points_line, tests)


def column_index(folded: list[str], names: Sequence[str]) -> int | None:
    for index, cell in enumerate(folded):
        if cell in names:
            return index
    return None


def _other(header: list[str], folded: list[str], body, file: str, header_line: int) -> Roster:
    first_col, last_col = column_index(folded, FIRST_NAME), column_index(folded, LAST_NAME)
    name_col = column_index(folded, NAME)
    id_col, email_col = column_index(folded, ID_NUMBER), column_index(folded, EMAIL)
    user_col, section_col = column_index(folded, USERNAME), column_index(folded, SECTION)
    if first_col is not None and last_col is None and name_col is None:
        name_col, first_col = first_col, None  # a lone "이름" column is the whole name
    has_name = (first_col is not None and last_col is not None) or name_col is not None
    if not has_name and id_col is None and email_col is None and user_col is None:
        raise AttnTutorError("roster.no_columns", Location(file, header_line))
    moodle = first_col is not None and last_col is not None
    known = {i for i in (first_col, last_col, name_col, id_col, email_col, user_col, section_col) if i is not None}
    assignments = _moodle_items(header, known) if moodle else []
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
            )
        )
    return Roster("moodle" if moodle else "csv", file, header, entries, assignments)


def _moodle_items(header: list[str], known: set[int]) -> list[str]:
    """The grade items of a Moodle export: the columns headed with a display type (``(Real)``), not a
    total, not feedback; an item exported in several display types once (``(Real)`` first)."""
    items: dict[str, str] = {}
    for index, column in enumerate(header):
        if index in known or not DISPLAY_TYPE.search(column) or FEEDBACK_COLUMN.search(column) or moodle_summary(column):
            continue
        title = fold(DISPLAY_TYPE.sub("", column))
        if title not in items or fold(column).endswith(("(real)", "(실수)")):
            items[title] = column
    return list(items.values())


def _hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" or "\u1100" <= ch <= "\u11ff" for ch in unicodedata.normalize("NFC", text))


def _full_name(first: str, last: str) -> str:
    """As the class writes it: 김민지 (family name first, no space) for Korean, Minji Kim otherwise."""
    if first and last and _hangul(first) and _hangul(last):
        return last + first
    return " ".join(part for part in (first, last) if part)


# --- reading the file ----------------------------------------------------------------------


def _encoding(start: bytes) -> str | None:
    """The encoding a byte-order mark (or UTF-16's zero bytes) says; None: UTF-8, else CP949."""
    if start.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if len(start) >= 2 and start[0] and not start[1]:
        return "utf-16-le"  # Excel's "Unicode text" without its mark
    if len(start) >= 2 and not start[0] and start[1]:
        return "utf-16-be"
    return None


def decode_excel(data: bytes) -> str:
    """A small file's bytes as text, in the encodings Excel writes, decided as for the roster: the
    byte-order mark (or UTF-16's zero bytes), else UTF-8, else CP949 when nothing before UTF-8's first
    bad byte was non-ASCII. Raises the UnicodeDecodeError of the encoding that should have held."""
    named = _encoding(data[:4])
    if named:
        return data.decode(named)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        if not data[: error.start].isascii():
            raise
        try:
            return data.decode("cp949")
        except UnicodeDecodeError:
            raise error from None


def read_roster(path, limit: int | None = None) -> Roster:
    """The roster at ``path`` through the safe reader (a regular file, at most ``limit`` bytes), read
    as a stream in the encodings Excel writes: UTF-8 with or without a byte-order mark, UTF-16 with
    one, else CP949 (EUC-KR); comma-, tab- or semicolon-separated (``limit``: by default
    :data:`~attn_tutor.core.model.ROSTER_BYTES_MAX`)."""
    path = os.fspath(path)
    limit = ROSTER_BYTES_MAX if limit is None else limit
    try:
        return _read(path, limit)
    except InputRefused as error:
        key = error.problems[0].key
        if key == "problems.is_directory":
            raise AttnTutorError("roster.is_directory", Location(path)) from None
        if key == "input.too_large":
            raise AttnTutorError("roster.too_large", Location(path), limit=f"{limit:,}") from None
        raise


def _read(path: str, limit: int) -> Roster:
    with open_text(path, limit, "latin-1") as probe:
        start = probe.read(4).encode("latin-1")
    named = _encoding(start)
    for encoding in (named,) if named else ("utf-8", "cp949"):
        with open_text(path, limit, encoding) as stream:
            try:
                return _parse(stream, path)
            except UnicodeDecodeError:
                pass
        if encoding == "utf-8" and _first_bad_byte(path, limit, "utf-8")[2]:
            break  # UTF-8 that goes wrong after Korean text is broken UTF-8, not CP949
    offset, line, _ = _first_bad_byte(path, limit, named or "utf-8")
    raise AttnTutorError("roster.bad_encoding", Location(path, line), offset=offset)


def _first_bad_byte(path: str, limit: int, encoding: str) -> tuple[int, int, bool]:
    """Where the text stops being ``encoding``: (byte offset from 0, line from 1, whether any byte
    before it is not ASCII). Read whole, only once reading it as a stream has failed."""
    data = read_regular(path, limit)
    try:
        data.decode(encoding)
    except UnicodeDecodeError as error:
        return error.start, data.count(b"\n", 0, error.start) + 1, not data[: error.start].isascii()
    return len(data), data.count(b"\n") + 1, False  # pragma: no cover - only called once decoding failed


# --- looking a student up ---------------------------------------------------------------


class Index:
    """A roster looked up by identifier, email and name (every key folded)."""

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

    def identifier(self, key: str) -> list[tuple[RosterEntry, str]]:
        """The entries with this identifier or email (Canvas keeps the email as SIS Login ID), and which."""
        return _unique(self.ids.get(key, []) + [(entry, "email") for entry in self.emails.get(key, [])])

    def named(self, name: str) -> list[RosterEntry]:
        """The entries whose name is written ``name`` (in any order, with or without spaces)."""
        found = [(entry, "name") for key in name_keys(name) for entry in self.names.get(key, [])]
        return [entry for entry, _ in _unique(found)]


def _unique(pairs: list[tuple[RosterEntry, str]]) -> list[tuple[RosterEntry, str]]:
    seen: dict[int, tuple[RosterEntry, str]] = {}
    for pair in pairs:
        seen.setdefault(id(pair[0]), pair)
    return list(seen.values())
