"""``grade --match FILE``: the teacher's word on which roster student an answer file is.

A CSV with the columns ``student`` (as the answer file writes it) and ``id`` (the
roster student's ID number, SIS ID, Canvas ID, username or e-mail), or a YAML
mapping ``student: id``; read through the safe reader, in the encodings Excel writes
(as the roster: UTF-8, UTF-16, CP949), every line checked against the
roster before any marking (an ID that no one or several have, a student mapped
twice), each problem with file:line:column.
"""

from __future__ import annotations

import csv
import io
import os

from attn_tutor.classroom.roster_file import Index, Roster, RosterEntry, column_index, decode_excel, fold, sniff
from attn_tutor.core import yamlread
from attn_tutor.core.errors import AttnTutorError, Finding, Location
from attn_tutor.core.model import MATCH_BYTES_MAX
from attn_tutor.core.reading import InputRefused, read_regular


class Overrides:
    """A ``--match`` file read against the roster: answer-file student (folded) -> (entry, "file:line")."""

    def __init__(self, file: str, mapped: dict[str, tuple[RosterEntry, str, str]]) -> None:
        self.file = file
        self.mapped = mapped  # fold(student) -> (entry, where, the student as the file wrote it)
        self.used: set[str] = set()

    def get(self, student: str) -> tuple[RosterEntry, str] | None:
        key = fold(student)
        found = self.mapped.get(key)
        if found is None:
            return None
        self.used.add(key)
        return found[0], found[1]

    def unused(self) -> list[tuple[str, str]]:
        """(where, student) of each line no answer file's student used."""
        return [(where, written) for key, (_, where, written) in self.mapped.items() if key not in self.used]


MATCH_STUDENT = ("student", "answer file student", "학생", "답안 학생", "답안의 학생", "이름")
MATCH_ID = ("id", "roster id", "identifier", "id number", "학번", "email", "이메일", "e-mail", "명단 id")


def read_overrides(path, roster: Roster) -> Overrides:
    """A ``--match`` file (CSV with the columns ``student,id``, or a YAML mapping ``student: id``) through
    the safe reader, each ID resolved to exactly one roster entry. Raises AttnTutorError listing
    every bad line with file:line:column."""
    path = os.fspath(path)
    try:
        data = read_regular(path, MATCH_BYTES_MAX)
    except InputRefused as error:
        if error.problems[0].key == "problems.is_directory":
            raise AttnTutorError("match.is_directory", Location(path)) from None
        raise
    try:
        text = decode_excel(data)
    except UnicodeDecodeError as error:
        raise AttnTutorError("match.bad_encoding", Location(path, data.count(b"\n", 0, error.start) + 1), offset=error.start) from None
    if path.lower().endswith((".yaml", ".yml")):
        pairs = _yaml_pairs(text, path)
    else:
        pairs = _csv_pairs(text, path)
    index = Index(roster.entries)
    problems: list[Finding] = []
    mapped: dict[str, tuple[RosterEntry, str, str]] = {}
    for (student, student_at), (value, value_at) in pairs:
        if not fold(student):
            problems.append(Finding("match.no_student", {}, student_at))
            continue
        if not fold(value):
            problems.append(Finding("match.no_id", {"student": student}, value_at))
            continue
        found = index.identifier(fold(value))
        if not found:
            problems.append(Finding("match.id_not_in_roster", {"id": value, "roster": roster.file}, value_at))
            continue
        if len(found) > 1:
            lines = ", ".join(str(entry.line) for entry, _ in found)
            problems.append(Finding("match.id_ambiguous", {"id": value, "roster": roster.file, "lines": lines}, value_at))
            continue
        key = fold(student)
        if key in mapped:
            problems.append(Finding("match.repeated", {"student": student, "first": mapped[key][1]}, student_at))
            continue
        mapped[key] = (found[0][0], f"{path}:{student_at.line}", student)
    if problems:
        raise AttnTutorError.many(problems)
    return Overrides(path, mapped)


Place = tuple[str, Location]


def _csv_pairs(text: str, path: str) -> list[tuple[Place, Place]]:
    lines = io.StringIO(text, newline="")
    first = text.split("\n", 1)[0]
    reader = csv.reader(lines, delimiter=sniff(first), strict=True)
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            rows.append((reader.line_num, row))
    except csv.Error as error:  # the bad record starts after the last whole one
        raise AttnTutorError("match.bad_csv", Location(path, (rows[-1][0] if rows else 0) + 1), problem=str(error)) from None
    rows = [(line, row) for line, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise AttnTutorError("match.empty", Location(path))
    header_line, header = rows[0]
    folded = [fold(cell) for cell in header]
    student_col, id_col = column_index(folded, MATCH_STUDENT), column_index(folded, MATCH_ID)
    if student_col is None or id_col is None:
        raise AttnTutorError("match.no_columns", Location(path, header_line, 1))
    delimiter, raw = sniff(first), text.splitlines()

    def place(line: int, row: list[str], col: int) -> Place:
        cell = row[col].strip() if col < len(row) else ""
        columns = _columns_at(raw[line - 1], delimiter) if line <= len(raw) else []
        return cell, Location(path, line, columns[col] if col < len(columns) else None)

    return [(place(line, row, student_col), place(line, row, id_col)) for line, row in rows[1:]]


def _columns_at(line: str, delimiter: str) -> list[int]:
    """The 1-based column each field of a (header) line starts at."""
    starts, quoted = [1], False
    for number, char in enumerate(line, start=1):
        if char == '"':
            quoted = not quoted
        elif char == delimiter and not quoted:
            starts.append(number + 1)
    return starts


def _yaml_pairs(text: str, path: str) -> list[tuple[Place, Place]]:
    try:
        root = yamlread.compose(text, path)
    except yamlread.BadYaml as error:
        raise AttnTutorError("match.bad_yaml", error.where, problem=error.problem or error.kind) from None
    if root is None:
        raise AttnTutorError("match.empty", Location(path))
    if not isinstance(root, yamlread.MappingNode):
        raise AttnTutorError("match.not_mapping", yamlread.where(path, root))
    pairs, bad, _repeats = yamlread.split_keys(root)
    problems = [Finding("match.not_text", {}, yamlread.where(path, node)) for node in bad]
    result = []
    for key, value in pairs:
        if not isinstance(value, yamlread.ScalarNode):
            problems.append(Finding("match.not_text", {}, yamlread.where(path, value)))
            continue
        result.append(((key.value, yamlread.where(path, key)), (value.value, yamlread.where(path, value))))
    if problems:
        raise AttnTutorError.many(problems)
    return result
