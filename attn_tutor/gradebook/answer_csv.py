"""A CSV answer file, one student per row, as form tools export it."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from attn_tutor.core.errors import AttnTutorError, Finding, Location
from attn_tutor.core.model import stage_name
from attn_tutor.core.text import excerpt
from attn_tutor.gradebook.cells import CellReader, finding_from, read_seed
from attn_tutor.gradebook.records import Answer, FileNote, ItemKey, Submission
from attn_tutor.kinds.sampling.model import ALL_STAGES as SAMPLING_STAGES

NAME_COLUMNS = ("student", "name", "이름", "성명")
"""Column names that hold the student's name (any case), as Google and MS Forms export them."""

VARIANT_COLUMNS = ("variant", "variant number", "variant no", "변형", "변형 번호", "변형번호", "변형 번호(variant)")
"""Column names that hold the variant number, as a teacher heads the question in a form: any heading
made of these words (``variant`` or ``변형``, then ``number``, ``no``, ``#``, ``번호``…: see
:func:`is_variant_heading`); another heading is named with ``--variant-column``."""

_VARIANT_WORDS = ("variant", "변형")
_NUMBER_WORDS = ("number", "num", "nr", "no", "id", "code", "번호", "코드")
_PUNCTUATION = re.compile(r"[\W_]+")  # spaces, brackets, dots, #, -, _: what separates a heading's words


def _heading(name: str) -> str:
    """A column's name as headings are compared: NFC, any case, runs of white space as one space."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def is_variant_heading(name: str) -> bool:
    """Whether a column's heading names the variant: compared as :func:`_heading` does, its words
    (whatever separates them: ``variant_number``, ``VARIANT NO.``, ``변형(번호)``, ``변형 번호 (variant)``)
    are a variant word and nothing but variant and number words."""
    rest = _PUNCTUATION.sub("", _heading(name))
    if not any(word in rest for word in _VARIANT_WORDS):
        return False
    for word in (*_VARIANT_WORDS, *_NUMBER_WORDS):  # longest first within each kind: number before no
        rest = rest.replace(word, "")
    return rest == ""


def variant_column_index(names: list[str], variant_column: str | None) -> int | None:
    """Which column holds the variant: ``variant_column`` if given, else the first whose heading names it."""
    if variant_column is not None:
        return column_index(names, (variant_column.strip(),))
    return next((index for index, name in enumerate(names) if is_variant_heading(name)), None)


def column_index(names: list[str], wanted: tuple[str, ...]) -> int | None:
    """The first column whose heading is one of ``wanted`` (compared as :func:`_heading` does)."""
    headings = [_heading(name) for name in names]
    for choice in wanted:
        if _heading(choice) in headings:
            return headings.index(_heading(choice))
    return None


_NAME_WORDS = ("student", "name", "이름", "성명")
_STUDENT_WORDS = ("student", "학생", "full", "your", "본인")  # what a form puts beside them: 학생 이름, Full name


def is_name_heading(name: str) -> bool:
    """Whether a column's heading names the student's name: compared as :func:`_heading` does, its
    words (whatever separates them: ``Student name``, ``학생 이름``, ``성명(Name)``) are a name word
    and nothing but name and student words (``Student ID``, ``First name``, ``학번`` are not)."""
    rest = _PUNCTUATION.sub("", _heading(name))
    if not any(word in rest for word in _NAME_WORDS):
        return False
    for word in (*_NAME_WORDS, *_STUDENT_WORDS):
        rest = rest.replace(word, "")
    return rest == ""


def name_column_index(names: list[str], name_column: str | None) -> int | None:
    """Which column holds the student's name: ``name_column`` if given, else the first of NAME_COLUMNS,
    else the first whose heading is made of name words (:func:`is_name_heading`)."""
    if name_column is not None:
        return column_index(names, (name_column.strip(),))
    found = column_index(names, NAME_COLUMNS)
    if found is None:
        found = next((index for index, name in enumerate(names) if is_name_heading(name)), None)
    return found


def read_csv_text(
    text: str, file: str, *, base: str = ".", cells: CellReader | None = None, name_column: str | None = None,
    variant_column: str | None = None,
) -> list[Submission | FileNote]:
    """Every student of a CSV answer file; a broken row never stops the others.

    The student's name is in the column ``name_column``, or else the first of
    :data:`NAME_COLUMNS` the header has; the variant in ``variant_column``, or else the
    first of :data:`VARIANT_COLUMNS`. A problem with the header (a bad or repeated
    answer column) is said once, as a row of its own (line 1, no student), not on every
    student's row; the columns not used are named once, in a :class:`FileNote`."""  # fmt: skip
    return read_csv_stream(
        io.StringIO(text, newline=""), file, base=base, cells=cells, name_column=name_column, variant_column=variant_column
    )  # fmt: skip


def read_csv_stream(
    stream, file: str, *, base: str = ".", cells: CellReader | None = None, name_column: str | None = None,
    variant_column: str | None = None,
) -> list[Submission | FileNote]:
    """:func:`read_csv_text` over lines of text (a stream opened with ``newline=""``), read row by row.

    An answer, ``variant`` or ``problem_set`` cell that runs over a line break — a
    form never writes one there; an unclosed quote swallowing the next students'
    rows does — makes the row an error naming its line.
    """
    cells = cells or CellReader()
    reader = csv.reader(stream)
    columns = _read_header(reader, file, name_column, variant_column)
    if isinstance(columns, Submission):
        return [columns]
    said: list[Submission | FileNote] = []
    if columns.findings:  # the header's problems: the file's, said once
        said.append(Submission("", file, 1, findings=list(columns.findings), readable=False, of_file=True))
    if columns.unused:
        names = ", ".join(f"'{excerpt(columns.names[i], 30)}'" for i in columns.unused)
        said.append(FileNote(file, "grade.unused_columns", {"columns": names}))
    rows = list(_read_rows(reader, file, columns, base, cells))
    if not rows:  # a form exported before anyone answered: no student, but named
        said.append(FileNote(file, "grade.left_out.no_rows"))
    if columns.filled:  # a column with no heading and something in it: not read, and said (once)
        numbers = ", ".join(str(index + 1) for index in sorted(columns.filled))
        said.append(FileNote(file, "grade.unused_blank_columns", {"columns": numbers}))
    return said + rows


@dataclass
class _Columns:
    """Where a CSV answer file keeps what: the header's names and the columns found in it."""

    names: list[str]  # the header's cells, stripped
    student: int
    variant: int | None
    problem_set: int | None
    items: dict[int, ItemKey]  # the ``problem/row/stage`` columns by position
    findings: list[Finding]  # what is wrong with the header, said once for the file
    unused: list[int]  # the columns read as nothing (a timestamp, an e-mail), named once
    blank: list[int] = field(default_factory=list)  # the columns with no heading: named once if a row fills one
    filled: set[int] = field(default_factory=set)  # those of them that a row has something in
    concepts: dict[int, str] = field(default_factory=dict)  # the ``concepts/<id>`` columns by position


def _read_header(reader, file: str, name_column: str | None, variant_column: str | None = None) -> _Columns | Submission:
    """The header's columns, or the file's one error when it has no usable header."""
    try:
        header = next(reader, None)
    except UnicodeDecodeError as error:
        return Submission("", file, 1, findings=[Finding("grade.not_utf8", {"offset": error.start}, Location(file, 1))], readable=False, of_file=True)
    except csv.Error as error:
        return Submission("", file, 1, findings=[Finding("grade.bad_csv", {"problem": str(error)}, Location(file, 1))], readable=False, of_file=True)
    if header is None:
        return Submission("", file, findings=[Finding("grade.empty_file", {}, Location(file))], readable=False, of_file=True)
    names = [cell.strip() for cell in header]
    lowered = [name.lower() for name in names]
    student_col = name_column_index(names, name_column)
    if student_col is None:
        if name_column is not None:
            finding = Finding("grade.csv_no_name_column", {"column": name_column, "columns": ", ".join(names)}, Location(file, 1))
        else:
            finding = Finding("grade.csv_no_student", {}, Location(file, 1))
        return Submission("", file, 1, findings=[finding], readable=False, of_file=True)
    variant_col = variant_column_index(names, variant_column)
    if variant_col is None and variant_column is not None:
        finding = Finding("grade.csv_no_variant_column", {"column": variant_column, "columns": ", ".join(names)}, Location(file, 1))
        return Submission("", file, 1, findings=[finding], readable=False, of_file=True)
    set_col = lowered.index("problem_set") if "problem_set" in lowered else None
    header_findings: list[Finding] = []
    concept_cols = concept_columns(names, file, header_findings)
    item_cols = _item_columns(names, file, header_findings, skip=concept_cols)
    used = {student_col, variant_col, set_col, *item_cols, *concept_cols}
    named = {index for index, name in enumerate(names) if "/" in name}  # answer columns: used, or reported above
    unused = [index for index, name in enumerate(names) if index not in used and index not in named and name]
    blank = [index for index, name in enumerate(names) if not name and index not in used]
    return _Columns(names, student_col, variant_col, set_col, item_cols, header_findings, unused, blank, concepts=concept_cols)


def _read_rows(reader, file: str, columns: _Columns, base: str, cells: CellReader) -> Iterator[Submission]:
    """Each student row after the header (blank rows passed over); a row that cannot be read
    at all ends the file with an error naming its line."""
    last_line = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except UnicodeDecodeError:
            where = Location(file, last_line + 1)
            yield Submission("", file, last_line + 1, findings=[Finding("grade.not_utf8_line", {}, where)], readable=False, of_file=True)
            return
        except csv.Error as error:
            where = Location(file, last_line + 1)
            yield Submission("", file, last_line + 1, findings=[Finding("grade.bad_csv", {"problem": str(error)}, where)], readable=False, of_file=True)
            return
        line = last_line + 1
        last_line = reader.line_num
        for index in columns.blank:
            if index < len(row) and row[index].strip():
                columns.filled.add(index)
        if any(cell.strip() for cell in row):
            yield _submission(row, file, line, last_line, columns, base, cells)


def _submission(
    row: list[str], file: str, line: int, last_line: int, columns: _Columns, base: str, cells: CellReader
) -> Submission:
    """One student's row, from line ``line`` to ``last_line`` of the file."""
    names = columns.names
    student = row[columns.student].strip() if columns.student < len(row) else ""
    sub = Submission(student, file, line, base=base)
    sub.set_column = columns.problem_set is not None
    if last_line > line:  # an answer cell that swallowed a line break: an unclosed quote takes the next rows
        _check_line_breaks(sub, row, line, last_line, columns)
    if not sub.student:
        sub.findings.append(Finding("grade.no_student", {}, Location(file, line)))
    variant_col, set_col = columns.variant, columns.problem_set
    if variant_col is not None and variant_col < len(row) and row[variant_col].strip():
        seed = read_seed(row[variant_col])
        if seed is None:
            sub.findings.append(Finding("grade.bad_variant", {"value": excerpt(row[variant_col])}, Location(file, line, variant_col + 1)))
            sub.readable = False
        sub.variant = seed
    if set_col is not None and set_col < len(row) and row[set_col].strip():
        sub.problem_set = row[set_col].strip()
    if len(row) > len(names) and any(cell.strip() for cell in row[len(names):]):
        sub.findings.append(Finding("grade.extra_cells", {"given": len(row), "expected": len(names)}, Location(file, line)))
    _read_answers(sub, row, file, line, columns, cells)
    for index, concept_id in columns.concepts.items():
        cell = row[index].strip() if index < len(row) else ""
        sub.concepts[concept_id] = (cell or None, Location(file, line, index + 1))
    return sub


def _check_line_breaks(sub: Submission, row: list[str], line: int, last_line: int, columns: _Columns) -> None:
    """A row that ran over several lines: an error at the first answer, variant or set cell holding a line break."""
    wanted = (*columns.items, columns.variant, columns.problem_set)
    broken = [i for i in wanted if i is not None and i < len(row) and ("\n" in row[i] or "\r" in row[i])]
    if broken:
        column = min(broken) + 1
        sub.findings.append(
            Finding("grade.csv_line_break", {"column": column, "lines": last_line - line + 1, "last": last_line}, Location(sub.file, line, column))
        )
        sub.readable = False


def _read_answers(sub: Submission, row: list[str], file: str, line: int, columns: _Columns, cells: CellReader) -> None:
    """The row's answer cells into ``sub.answers``: a blank cell unanswered, a bad one a finding."""
    for index, key in columns.items.items():
        cell = row[index] if index < len(row) else ""
        where = Location(file, line, index + 1)
        if not cell.strip():
            sub.answers[key] = Answer(None, where)
            continue
        if key[1] == "" and key[2] == "pick":  # a sampling problem's token picked
            sub.answers[key] = Answer(None, where, cell.strip())
            continue
        try:
            values: tuple[float, ...] | None = cells.row(cell)
        except AttnTutorError as error:
            sub.findings.append(finding_from(error, where, columns.names[index]))
            values = None
        sub.answers[key] = Answer(values, where)


CONCEPTS_PREFIX = "concepts/"


def concept_columns(names: list[str], file: str, findings: list[Finding]) -> dict[int, str]:
    """The ``concepts/<id>`` columns by position (a concept item's choice); a repeated one reported and left out."""
    found: dict[int, str] = {}
    seen: Counter[str] = Counter()
    for index, name in enumerate(names):
        if name.startswith(CONCEPTS_PREFIX) and "/" not in name[len(CONCEPTS_PREFIX):] and name[len(CONCEPTS_PREFIX):].strip():
            found[index] = name[len(CONCEPTS_PREFIX):].strip()
            seen[found[index]] += 1
    reported: set[str] = set()
    for index, concept_id in list(found.items()):
        if seen[concept_id] > 1:
            if concept_id in reported:
                findings.append(Finding("grade.duplicate_column", {"column": names[index]}, Location(file, 1, index + 1)))
            reported.add(concept_id)
            del found[index]
    return found


def _item_columns(names: list[str], file: str, findings: list[Finding], skip=()) -> dict[int, ItemKey]:
    """The ``problem/row/stage`` columns by position; bad and repeated ones reported and left out
    (``skip``: the concept items' columns)."""
    item_cols: dict[int, ItemKey] = {}
    seen: Counter[ItemKey] = Counter()
    for index, name in enumerate(names):
        if "/" not in name or index in skip or name.startswith(CONCEPTS_PREFIX):
            continue
        parts = [part.strip() for part in name.rsplit("/", 2)]
        if len(parts) == 2 and parts[1] in SAMPLING_STAGES and parts[0]:  # a sampling problem's stage: no row
            parts = [parts[0], "", parts[1]]
        elif len(parts) != 3 or not all(parts):
            findings.append(Finding("grade.bad_column", {"column": name}, Location(file, 1, index + 1)))
            continue
        key = (parts[0], parts[1], stage_name(parts[2]))
        seen[key] += 1
        item_cols[index] = key
    reported: set[ItemKey] = set()
    for index, key in list(item_cols.items()):
        if seen[key] > 1:
            if key in reported:  # one message, at the second copy
                findings.append(Finding("grade.duplicate_column", {"column": names[index]}, Location(file, 1, index + 1)))
            reported.add(key)
            del item_cols[index]
    return item_cols
