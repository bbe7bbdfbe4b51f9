"""Cells as students type them: plain decimals fast, anything else through the quiz's parser."""

from __future__ import annotations

import re

from attn_tutor.core.errors import AttnTutorError, Finding, Location
from attn_tutor.core.model import SEED_MAX
from attn_tutor.gradebook.records import NestedFinding
from attn_tutor.marking.answers import MAX_LENGTH, MAX_MAGNITUDE, parse_row

# Plain decimals, as most students type them, are read without the full parser.
# The result is identical (a test checks it against parse_row); anything else —
# fractions, brackets, arithmetic, full-width digits, "1e3" — goes to parse_row.
_NUMBER = r"-?[0-9]{1,15}(?:\.[0-9]{1,20})?"
PLAIN_CELL = re.compile(_NUMBER + r"\Z")
# Worked cells as the quiz reads them: 78.6% (exactly 0.786) and 8.48/4 (a plain quotient).
_WORKED = _NUMBER + r"(?:%|/[0-9]{1,15}(?:\.[0-9]{1,20})?)?"


def _row_of(cell: str) -> re.Pattern:
    cells = r"(?P<cells>[ \t]*" + cell + r"(?:(?:[ \t]*,[ \t]*|[ \t]+)" + cell + r")*[ \t]*)"
    return re.compile(r"[ \t]*(?:" + cells.replace("cells", "c1") + r"|\(" + cells.replace("cells", "c2") + r"\)|\[" + cells + r"\])[ \t]*\Z")


_PLAIN_ROW, _WORKED_ROW = _row_of(_NUMBER), _row_of(_WORKED)
_SEPARATORS = re.compile(r"[ \t]*,[ \t]*|[ \t]+")


class CellReader:
    """Reads rows of cells for one grading run, each distinct non-plain text parsed once.

    One per run (or per worker process); nothing is kept between runs.
    """

    def __init__(self, limit: int = 100_000) -> None:
        self._parsed: dict[str, tuple[float, ...] | AttnTutorError] = {}
        self._limit = limit
        self.plain_answers: object = None  # the YAML answer reader's fast path for this run (answer_yaml.PlainAnswers)

    def row(self, text: str) -> tuple[float, ...]:
        """A row as the quiz reads it (raises AnswerError).

        Plain decimals take a fast path, percentages and quotients a second one (tests
        hold both equal to the parser); everything else goes to
        :func:`attn_tutor.marking.answers.parse_row`, once per distinct text (a class types the
        same rows again and again).
        """
        plain = _PLAIN_ROW.match(text) if len(text) <= MAX_LENGTH else None
        if plain:
            inner = plain.group("c1") or plain.group("c2") or plain.group("cells")
            return tuple(float(cell) + 0.0 for cell in _SEPARATORS.split(inner.strip(" \t")))  # + 0.0: no -0
        known = self._parsed.get(text)
        if known is None and len(text) <= MAX_LENGTH and (worked := _WORKED_ROW.match(text)):
            known = _worked_cells(worked.group("c1") or worked.group("c2") or worked.group("cells"))
        if known is None:

            try:
                known = tuple(parse_row(text))
            except AttnTutorError as error:
                known = error
            if len(self._parsed) < self._limit:
                self._parsed[text] = known
        if isinstance(known, AttnTutorError):
            raise known
        return known


def _worked_cells(inner: str) -> tuple[float, ...] | None:
    """Cells of plain decimals, percentages and quotients, valued as :func:`attn_tutor.marking.answers.parse_row`
    values them; None where it would refuse one (a zero divisor, a quotient too large)."""
    values = []
    for cell in _SEPARATORS.split(inner.strip(" \t")):
        if cell[-1] == "%":
            value = float(cell[:-1] + "e-2")  # the decimal shifted, rounded once: as Decimal.scaleb(-2)
        elif "/" in cell:
            top, _, bottom = cell.partition("/")
            a, b = float(top), float(bottom)
            if b == 0:
                return None
            value = a / b
            if not abs(value) <= max(MAX_MAGNITUDE, abs(a), b):
                return None
        else:
            value = float(cell)
        values.append(value + 0.0)  # + 0.0: no -0
    return tuple(values)


def parse_cells(text: str) -> tuple[float, ...]:
    """A row as the quiz reads it (raises AnswerError); see :meth:`CellReader.row`."""
    return CellReader().row(text)


def parse_one(text: str) -> tuple[float, ...]:
    if PLAIN_CELL.match(text):
        return (float(text) + 0.0,)

    return tuple(parse_row(text))


def finding_from(error: AttnTutorError, where: Location, item: str) -> Finding:
    """An AnswerError re-homed to the answer file's line, its message kept in the catalogue."""
    first = error.problems[0]
    return NestedFinding("grade.in_item", {"item": item}, where, inner=Finding(first.key, dict(first.args)))


_DECIMAL_INT = re.compile(r"[0-9]{1,19}\Z")


def read_seed(text: str | None) -> int | None:
    """A variant number as written in an answer file, or None if it is not one."""

    if text is None:
        return None
    text = text.strip()
    if not _DECIMAL_INT.match(text):
        return None
    value = int(text)
    return value if value <= SEED_MAX else None
