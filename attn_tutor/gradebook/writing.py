"""The gradebook CSV and the JSON of every report, written one student at a time.

:class:`GradebookWriter` takes each :class:`~attn_tutor.gradebook.rows.StudentRow`
as it is merged and spools it to a temporary file, so nothing but counts stays in
memory; at the end the CSV is written under its final header (the item columns
are only known once every problem set has been seen). The students' reports go,
as they come, straight into the JSON file's own temporary file
(:meth:`GradebookWriter.reports_to`), laid out as the file will be, so that at the
end only the class's item analysis and notes follow them; only a class with a
student named in two places has its reports copied again, each such student's
with the error that says so.
"""

from __future__ import annotations

import codecs
import csv
import itertools
import json
import os
import tempfile
import unicodedata
from array import array
from collections.abc import Sequence
from decimal import Decimal
from typing import BinaryIO

from attn_tutor.core.i18n import t
from attn_tutor.core.spool import Spool
from attn_tutor.gradebook.analysis import Tally, bin_label
from attn_tutor.gradebook.itemstats import caution
from attn_tutor.gradebook.records import FORMULA_STARTS, item_name
from attn_tutor.gradebook.rows import dumps, number
from attn_tutor.gradebook.summary import caution_text

HEAD = ("student", "variant", "score", "max_score", "percent")
LEFT_OUT = "grade.left_out."  # the catalogue keys of the files a run leaves out, with why
MEMO = 10_000  # distinct item points and verdict cells the CSV writer formats once and remembers


def safe_text(text: str) -> str:
    """A text cell a spreadsheet shows rather than runs (OWASP: prefix a quote)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):  # not expected; never let True become 1
        return safe_text(str(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, Decimal):
        return f"{value:f}"
    return safe_text(str(value))


def header(columns) -> list[str]:
    cells = list(HEAD)
    for column in columns:
        name = item_name(column)  # concepts/<id> for a concept item
        cells += [f"{name} points", f"{name} diagnosis"]
    cells += ["problem_set", "file", "errors"]
    return cells


def is_gradebook_header(cells: list[str]) -> bool:
    """Whether a CSV's first row is exactly a gradebook's header (:func:`header`, of any items)."""
    cells = [cell.strip() for cell in cells]
    if cells[:1] and cells[0].startswith("\ufeff"):
        cells[0] = cells[0][1:]
    if len(cells) < len(HEAD) + 3 or (len(cells) - len(HEAD) - 3) % 2 or tuple(cells[: len(HEAD)]) != HEAD:
        return False
    if cells[-3:] != ["problem_set", "file", "errors"]:
        return False
    pairs = cells[len(HEAD) : -3]
    for points, diagnosis in zip(pairs[::2], pairs[1::2]):
        name = points.removesuffix(" points")
        if name == points or diagnosis != f"{name} diagnosis" or (name.count("/") < 2 and not name.startswith("concepts/")):
            return False
    return True


def student_key(name: str | None) -> str:
    """A student's name as two places are compared: NFC, runs of white space as one space."""

    return " ".join(unicodedata.normalize("NFC", name or "").split())


def _record(row, index: dict, name: str) -> tuple:
    """What the gradebook keeps of a student: typed cells, (column number, points, verdict cell),
    the problem set and file, the errors and ``name``, the one they are compared by (:func:`student_key`)."""
    items = tuple((index[column], points, cell) for column, points, cell, _verdict, _diagnosis in row.items if column in index)
    return row.cells, items, (row.problem_set, row.file), row.errors, name


def _typed(record: tuple, width: int, repeated: dict | None = None, texts: dict | None = None) -> list:
    """A student's gradebook row: their cells, then each of the ``width`` items' points and verdict
    cell at its column's place (empty where they were not set it), the problem set, the file and the
    errors (with the repeat's, for a student named in two places). As typed cells (None is empty),
    or with ``texts`` (a memo, filled as it goes) as the CSV's text cells (:func:`csv_cell`), each
    distinct item points and verdict cell formatted once."""
    cells, items, source, errors, name = record
    if repeated and name in repeated:
        said = f"{source[1]}: " + t("grade.duplicate_student", student=name, places=", ".join(repeated[name]))
        if said not in errors:
            errors = (*errors, said)
    start = len(cells)
    if texts is None:
        out: list = list(cells) + [None] * (2 * width) + [*source, "; ".join(errors) or None]
        for column, points, cell in items:
            out[start + 2 * column] = points
            out[start + 2 * column + 1] = cell
        return out
    out = [csv_cell(value) for value in cells] + [""] * (2 * width) + [csv_cell(source[0]), csv_cell(source[1]), safe_text("; ".join(errors))]
    for column, points, cell in items:
        at = start + 2 * column
        text = texts.get(points)  # (a float's and a text's own: an int equal to a float is not looked up)
        out[at] = text if text is not None and points.__class__ is float else _remembered(points, texts)
        text = texts.get(cell)
        out[at + 1] = text if text is not None and cell.__class__ is str else _remembered(cell, texts)
    return out


def _remembered(value, texts: dict) -> str:
    """``value``'s CSV text, kept in ``texts`` (up to MEMO of them) when it is a float or a text."""
    text = csv_cell(value)
    if (value.__class__ is float or value.__class__ is str) and len(texts) < MEMO:
        texts[value] = text
    return text


def _write_csv(stream, rows) -> None:
    """Rows of text cells as the gradebook file: UTF-8 with a byte-order mark, RFC 4180 line ends."""
    text = codecs.getwriter("utf-8")(stream)
    text.write("\ufeff")
    csv.writer(text, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n").writerows(rows)
    text.flush()


class GradebookWriter:
    """The CSV and JSON files of one run, fed a student at a time in gradebook order.

    Nothing of a student stays in memory but an 8-byte hash of their name: each row's CSV record,
    JSON report and (name, place, had errors) go to files on disk (the reports to the JSON file's
    own temporary file when :meth:`reports_to` names it, else to a spool laid out the same way).
    The students named in more than one place are found once the class is in, from the hashes (a
    hash met twice is read back from the spool of names and compared by the names themselves, so a
    collision changes nothing)."""

    def __init__(self, tally: Tally, *, csv_file: bool = True, json_file: bool = False) -> None:
        self.tally = tally
        self._hashes = array("q")  # hash(name) of each named row that was not refused
        self._who = Spool()  # (name or "" when refused, place, no other error) of every row, in order
        self._csv = Spool() if csv_file else None
        self._index: dict = {}
        self._students = 0
        self._json: BinaryIO | None = None  # the reports so far, as the JSON file has them: its head, then each report
        if json_file:
            self.reports_to(tempfile.TemporaryFile())
        self._repeated: dict[str, list[str]] | None = None  # found once, when first asked
        self._newly_failed = 0

    def add(self, row) -> None:
        """One student: call after ``tally.add(row)``, so the student's columns are known."""
        key = student_key(row.cells[0])
        if self._csv is not None:
            index = self._index
            if len(index) != len(self.tally.columns):
                index.update((column, i) for i, column in enumerate(self.tally.columns) if column not in index)
            self._csv.add(_record(row, index, key))
        if self._json is not None:
            self._json.write(b",\n" if self._students else b"[\n")
            self._json.write(row.json)
        name = "" if row.refused else key
        if name:
            self._hashes.append(hash(name))
        self._who.add((name, row.file, not row.errors))
        self._students += 1
        self._repeated = None

    def reports_to(self, stream: BinaryIO) -> None:
        """Each student's report, from now on (before the first student), into ``stream``: a new
        file open for reading and writing, the JSON file's own temporary file, which
        :meth:`write_json` then ends in place unless a student was named in two places."""
        if self._students:
            raise ValueError("the reports' file is named before the first student")
        if self._json is not None:
            self._json.close()
        self._json = stream
        stream.write(self._head())

    def _head(self) -> bytes:
        return b'{\n"follow_through": ' + dumps(str(self.tally.follow_through)).encode("utf-8") + b',\n"students": '

    def in_place(self) -> bool:
        """Whether :meth:`write_json` can end the reports' own file (no student named in two places)."""
        return not self.repeated()

    def _with_repeat(self, line: bytes, name: str, place: str, places: list[str]) -> bytes:
        student = json.loads(line)
        said = f"{place}: " + t("grade.duplicate_student", student=name, places=", ".join(places))
        if said not in student["errors"]:
            student["errors"].append(said)
        return dumps(student).encode("utf-8")

    def newly_failed(self) -> int:
        """Rows whose only problem is that their student appears elsewhere too (not in the tally's count)."""
        self.repeated()
        return self._newly_failed

    def repeated(self) -> dict[str, list[str]]:
        """The students who appear in more than one place, with every place (each row gets an error)."""
        if self._repeated is None:
            twice: set[int] = set()
            seen: set[int] = set()
            for key in self._hashes:
                (twice if key in seen else seen).add(key)
            del seen
            places: dict[str, list[str]] = {}
            clean: dict[str, int] = {}
            if twice:
                for name, place, no_error in iter(self._who):
                    if name and hash(name) in twice:
                        places.setdefault(name, []).append(place)
                        clean[name] = clean.get(name, 0) + no_error
            self._repeated = {name: where for name, where in places.items() if len(where) > 1}
            self._newly_failed = sum(clean[name] for name in self._repeated)
        return self._repeated

    def typed_rows(self):
        """The gradebook as typed cells: str is text, int/float/Decimal are numbers, None is empty."""
        columns = self.tally.columns
        repeated = self.repeated()
        assert self._csv is not None  # made with csv_file
        yield header(columns)
        for record in iter(self._csv):
            yield _typed(record, len(columns), repeated)

    def write_csv(self, stream) -> None:
        """The gradebook file: :meth:`typed_rows` as text, formulas neutralised (:func:`csv_cell`)."""
        columns = self.tally.columns
        repeated = self.repeated()
        texts: dict = {}
        assert self._csv is not None  # made with csv_file
        rows = (_typed(record, len(columns), repeated, texts) for record in iter(self._csv))
        _write_csv(stream, itertools.chain([[csv_cell(cell) for cell in header(columns)]], rows))

    def write_json(self, stream: BinaryIO, files: Sequence = (), rounds: Sequence[dict] | None = None) -> None:
        """One object; each student, item and bin on a line of its own (readable, diffable).
        ``files`` (:class:`~attn_tutor.gradebook.records.FileNote`): what is said of files as a whole,
        as ``"not_marked"`` (each file under a graded folder left out: its path, why as a code and
        as the summary's sentence) and ``"file_notes"`` (a CSV's unused columns). ``rounds`` (live
        sessions graded): each round of each item asked again, as ``"rounds"``, a round on a line."""
        tally = self.tally
        if stream is self._json and self.in_place():  # the reports are there already: the rest follows them
            stream.seek(0, os.SEEK_END)
        elif stream is self._json:
            raise ValueError("a class with a repeated student is written to a new file")
        else:
            stream.write(self._head())
            self._copy_reports(stream)
        stream.write(b"\n]" if self._students else b"[]")
        analysis = [dumps(stats.to_dict()) for stats in tally.analysis()]
        bins = [dumps({"bin": bin_label(i), "students": count}) for i, count in enumerate(tally.distribution())]
        left = [note for note in files if note.key.startswith(LEFT_OUT)]
        not_marked = [dumps({"file": n.file, "why": n.key[len(LEFT_OUT):], "message": n.text()}) for n in left]
        said = [dumps({"file": n.file, "message": n.text()}) for n in files if not n.key.startswith(LEFT_OUT)]
        named = [("item_analysis", analysis), ("distribution", bins), ("not_marked", not_marked), ("file_notes", said)]
        if rounds is not None:
            named.append(("rounds", [dumps(one) for one in rounds]))
        for name, texts in named:
            body = "[\n" + ",\n".join(texts) + "\n]" if texts else "[]"
            stream.write(f',\n"{name}": {body}'.encode())
        found = caution(list(tally.statistics().values()))
        note = None if found is None else {**found.to_dict(), "message": caution_text(found)}
        stream.write(f',\n"statistics_caution": {dumps(note)}'.encode())
        stream.write(b"\n}\n")

    def _copy_reports(self, stream) -> None:
        """The reports from their own file to ``stream``, each repeated student's with the error
        that says so (known only once every student is in)."""
        if not self._students:
            return
        repeated = self.repeated()
        assert self._json is not None  # a student's report went somewhere
        self._json.seek(len(self._head()) + 2)  # after the head and the list's "[\n"
        for number_, (line, (name, place, _clean)) in enumerate(zip(self._json, self._who)):
            line = line.removesuffix(b"\n").removesuffix(b",")  # a report is one line, and ends with "}"
            if name in repeated:
                line = self._with_repeat(line, name, place, repeated[name])
            stream.write((b",\n" if number_ else b"[\n") + line)

    def close(self) -> None:
        for spool in (self._csv, self._json, self._who):
            if spool is not None:
                spool.close()
