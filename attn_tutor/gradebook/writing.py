"""The gradebook CSV and the JSON of every report."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

from attn_tutor.gradebook.analysis import bin_label
from attn_tutor.gradebook.records import FORMULA_STARTS, Gradebook, StudentResult


def number(x: float) -> str:
    """Points and scores as plain numbers: ``1``, ``0.5``, ``0.6667`` (the marker keeps 4 places)."""
    from attn_tutor.numbers import fmt_given

    return fmt_given(x, 4)


def verdict_cell(item, lang: str = "en") -> str:
    """The gradebook's verdict cell in ``lang``: ``wrong: not divided by √d``, ``오답: √d로 안 나눔``."""
    from attn_tutor.grading import diagnosis_name
    from attn_tutor.i18n import t

    verdict = t(f"grade.verdict.{item.verdict}", lang)
    return f"{verdict}: {diagnosis_name(item.diagnosis, lang)}" if item.diagnosis else verdict


def safe_text(text: str) -> str:
    """A text cell a spreadsheet shows rather than runs (OWASP: prefix a quote)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def gradebook_rows(book: Gradebook, lang: str = "en") -> list[list[str | float | int | Decimal | None]]:
    """The gradebook as typed cells: str is text, int/float/Decimal are numbers, None is empty.

    The percent is rounded half up to one place (a Decimal, written as is).
    """
    rows: list[list] = [list(_header(book))]
    for student in book.students:
        row: list = _student_cells(student)
        items = student.items()
        for column in book.columns:
            item = items.get(column)
            row += [None, None] if item is None else [item.points, verdict_cell(item, lang)]
        row.append("; ".join(f.text(lang) for f in student.findings) or None)
        rows.append(row)
    return rows


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


def gradebook_csv(book: Gradebook, lang: str = "en") -> bytes:
    """The gradebook file: UTF-8 with a byte-order mark, RFC 4180 line ends, formulas neutralised."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerows(_csv_rows(book, lang))
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _csv_rows(book: Gradebook, lang: str = "en"):
    """``[csv_cell(value) for value in row]`` for every row of :func:`gradebook_rows`, each item's
    two cells written once per distinct (points, verdict, diagnosis) (a test holds them equal)."""
    yield [csv_cell(value) for value in _header(book)]
    item_cells: dict[tuple, list[str]] = {}
    empty = ["", ""]
    for student in book.students:
        report = student.report
        row = [csv_cell(v) for v in _student_cells(student)]
        if report is None:
            row += empty * len(book.columns)
        else:
            items = {(i.problem, i.row, i.stage): i for i in report.items}
            for column in book.columns:
                item = items.get(column)
                if item is None:
                    row += empty
                    continue
                cell_key = (item.points, item.verdict, item.diagnosis)
                cells = item_cells.get(cell_key)
                if cells is None:
                    cells = item_cells[cell_key] = [csv_cell(item.points), csv_cell(verdict_cell(item, lang))]
                row += cells
        row.append(csv_cell("; ".join(f.text(lang) for f in student.findings) or None))
        yield row


def _header(book: Gradebook) -> list[str]:
    header = ["student", "variant", "score", "max_score", "percent"]
    for problem, token, stage in book.columns:
        name = f"{problem}/{token}/{stage}"
        header += [f"{name} points", f"{name} diagnosis"]
    header.append("errors")
    return header


def _student_cells(student: StudentResult) -> list:
    from attn_tutor.numbers import round_half_up

    percent = None if student.percent is None else round_half_up(student.percent, 1)
    return [student.student, student.variant, student.score, student.max_score, percent]


def gradebook_json(book: Gradebook, lang: str = "en") -> bytes:
    """Every student's full report (the quiz's ``--report`` shape), the analysis and the distribution.

    One object; each student, item and bin on a line of its own (readable, diffable,
    and written by json's C encoder, which ``indent`` would turn off: 10,000
    students in well under a second).
    """

    def dumps(value) -> str:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)

    def array(values) -> str:
        return array_text([dumps(v) for v in values])

    def array_text(texts: list[str]) -> str:
        return "[\n" + ",\n".join(texts) + "\n]" if texts else "[]"

    items: dict[int, tuple[object, str]] = {}  # id -> (item, its JSON): marks are shared between students

    def item_json(item) -> str:
        known = items.get(id(item))
        if known is None:
            known = items[id(item)] = (item, dumps(item.to_dict()))
        return known[1]

    def student_json(student: StudentResult) -> str:
        """``dumps(student.to_dict(lang))``, each item's text written once (a test holds them equal)."""
        report = student.report
        if report is None:
            return dumps(student.to_dict(lang))
        head = dumps({**student._head(lang), "report": 0})[:-2]
        fields = ("student", "problem_set", "seed", "mode", "score", "max_score")  # Report.to_dict's, in order
        body = dumps({**{name: getattr(report, name) for name in fields}, "items": 0})[:-2]
        return head + body + "[" + ", ".join(item_json(item) for item in report.items) + "]}}"

    parts = [
        f'"follow_through": {dumps(book.follow_through)}',
        f'"students": {array_text([student_json(student) for student in book.students])}',
        f'"item_analysis": {array([stats.to_dict() for stats in book.analysis()])}',
        '"distribution": '
        + array([{"bin": bin_label(index), "students": count} for index, count in enumerate(book.distribution())]),
    ]
    return ("{\n" + ",\n".join(parts) + "\n}\n").encode("utf-8")

