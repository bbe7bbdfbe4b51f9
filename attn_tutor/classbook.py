"""Class grading: read a class's answer files, mark each student with the quiz's rules, sum up.

No terminal and no rich here: the results are dataclasses (:class:`Gradebook`,
:class:`StudentResult`, :class:`ItemStats`); :func:`summary_blocks` lays them out as
document blocks and :func:`gradebook_csv` / :func:`gradebook_json` give the files.
Marking is the quiz's (:mod:`attn_tutor.grading`, unchanged), in exam mode.

Answer files
    **YAML**, one per student: ``student``, ``problem_set`` (a packaged set's name,
    or a path relative to the answer file), optional ``variant`` (a worksheet's seed)
    and ``answers: {problem id: {query row: {stage: answer}}}``. An answer is a list
    of numbers or one line of text typed as in the quiz. The file is read from the
    parser's events or with ``yaml.compose`` (``CSafeLoader`` when present; see
    Speed), so nothing is ever built from a tag and every message has a line. Every number is read from the text exactly as
    written, by the quiz's parser (:func:`attn_tutor.answers.parse_row`), not by
    YAML 1.1's rules: ``017`` is 17 (not 15), ``1:30`` and ``0x1F`` are refused,
    ``yes``/``no``/``on``/``off`` where a number belongs are refused with their own
    message; a duplicate key is an error and neither copy is used. An empty answer
    (``scores:``, ``[]``, ``""``) is simply missing.

    **CSV**, one row per student, as form tools export it: a ``student`` column, an
    optional ``variant`` column, then one column per answer named
    ``problem/row/stage``; other columns without a ``/`` (a form's ``Timestamp``,
    ``Email``) are ignored. UTF-8 with or without a byte-order mark.

Problem sets
    ``--problems`` (``problems=`` here) overrides every file's ``problem_set``; a file
    naming none gets the packaged default set, as ``solve`` and ``quiz`` do. A
    ``problem_set`` with no ``/`` or ``\\`` and no ``.yaml``/``.yml`` suffix is a
    packaged set's name; anything else is a path relative to the answer file. Each
    set is loaded once, each (set, variant) generated and solved once.

Errors are per student and never stop the batch
    A cell that does not parse, an answer with the wrong number of cells, an unknown
    problem, row or stage: a :class:`~attn_tutor.errors.Finding` with file and line,
    and the affected item is marked ``missing``. A file that cannot be read at all
    (not UTF-8, not YAML, not a mapping, its problem set missing or its variant bad)
    lists the student with the error and no marks (``report`` is None). Such a
    student counts neither in the item analysis nor in the score distribution.

Gradebook (CSV)
    ``student, variant, score, max_score, percent``, then for each item
    ``problem/row/stage points`` and ``problem/row/stage diagnosis``, then
    ``errors``. Items come in a stable order: problem-set order, then asked rows,
    then pipeline stages (several sets: in the order the sorted files first name
    them). The diagnosis cell holds the verdict, with the diagnosis's name after
    a colon when there is one, in the chosen language (``correct``, ``follow``,
    ``missing``, ``wrong: not divided by √d``, ``partial: rounded too soon``;
    ``오답: √d로 안 나눔``): points alone cannot tell a missing answer from a wrong
    one. The JSON keeps the codes. An item a student was not set (another
    problem set) is empty. Written as UTF-8 *with* a byte-order mark, so Excel shows
    Korean names (every CSV reader that matters skips it; Python's with
    ``utf-8-sig``), with ``\\r\\n`` line ends (RFC 4180) and minimal quoting. A text
    cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
    leading ``'`` (OWASP's advice against formula injection); numbers are written
    as numbers, so ``-1`` stays ``-1``.

Item analysis
    Per item, over the students who were set it and could be marked: the share of
    each of the five verdicts — ``partial`` is reported on its own, not folded into
    ``wrong`` (a row half right is a different teaching problem from a row all
    wrong); the shares add up to 100% — and the three most common diagnoses (ties
    in :data:`~attn_tutor.grading.DIAGNOSES` order).

Speed
    A class is dominated by reading its files (issue 4: at most 2× merely parsing
    them with ``CSafeLoader``; ``benchmarks/grade_speed.py`` measures it). An
    ordinary file is read in one pass over the C parser's events; a file with
    anything to report, or with anchors, aliases, tags or directives, is composed
    and walked node by node instead, so every message keeps its line (a test holds
    the two readers equal). Plain decimals skip the full answer parser (same
    result, tested) and other texts are parsed once per distinct text; each (set,
    variant) is loaded, generated and solved once. Marking follows
    :func:`attn_tutor.grading.mark_row`'s loop over grading's own
    ``mark_stage``/``advance`` so that each distinct (stage, answer, own earlier
    rows) is marked once and each distinct right answer is built once, without
    numpy; a property test holds it equal to ``mark_row`` on every ch13 problem.
    The gradebook writes each distinct item's cells, and the JSON each shared
    item's text, once.

Score distribution
    Ten bins of 10% (``[0, 10)``, ..., ``[80, 90)``, ``[90, 100]``), counted exactly
    (fractions, not floats), over the students who could be marked.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Sequence

from attn_tutor.errors import AttnTutorError, Finding, Location
from attn_tutor.i18n import t
from attn_tutor.model import STAGES, Problem, ProblemSet
from attn_tutor.problems import LOADER, is_plain

ANSWER_SUFFIXES = (".yaml", ".yml", ".csv")
POLICIES = ("full", "half", "none")
TOP_KEYS = ("student", "problem_set", "variant", "answers")
MAX_FILE_BYTES = 10_000_000
MAX_SEED = 2**63
_MEMO_LIMIT = 500_000  # marks a Marker remembers
BINS = 10
TOP_DIAGNOSES = 3
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

ItemKey = tuple[str, str, str]  # (problem, row, stage)

# Plain decimals, as most students type them, are read without the full parser.
# The result is identical (a test checks it against parse_row); anything else —
# fractions, brackets, arithmetic, full-width digits, "1e3" — goes to parse_row.
_NUMBER = r"-?[0-9]{1,15}(?:\.[0-9]{1,20})?"
_PLAIN_CELL = re.compile(_NUMBER + r"\Z")
_CELLS = r"(?P<cells>[ \t]*" + _NUMBER + r"(?:(?:[ \t]*,[ \t]*|[ \t]+)" + _NUMBER + r")*[ \t]*)"
_PLAIN_ROW = re.compile(r"[ \t]*(?:" + _CELLS.replace("cells", "c1") + r"|\(" + _CELLS.replace("cells", "c2") + r"\)|\[" + _CELLS + r"\])[ \t]*\Z")
_SEPARATORS = re.compile(r"[ \t]*,[ \t]*|[ \t]+")
_DECIMAL_INT = re.compile(r"[0-9]{1,19}\Z")
_YAML_BOOL = "tag:yaml.org,2002:bool"
_YAML_NULL = "tag:yaml.org,2002:null"
_YAML_STR = "tag:yaml.org,2002:str"


# --- what a student handed in -------------------------------------------------------------


@dataclass(frozen=True)
class NestedFinding(Finding):
    """A finding whose message wraps another catalogue message (the parser's, the loader's)."""

    inner: Finding | None = None

    def text(self, lang: str = "en") -> str:
        inner = self.inner.text(lang) if self.inner is not None else ""
        message = t(self.key, lang, **self.args, message=inner)
        return f"{self.where}: {message}" if self.where else message


@dataclass(frozen=True)
class Answer:
    """One answer as read: its numbers (None: blank or unreadable) and where it was."""

    values: tuple[float, ...] | None
    where: Location


@dataclass
class Submission:
    """One student's answers as read from a file, before they are checked against a problem set."""

    student: str
    file: str
    line: int | None = None  # the CSV row's line; None for a YAML file
    problem_set: str | None = None  # as written in the file
    base: str = "."  # the directory relative problem-set paths start from
    variant: int | None = None
    answers: dict[ItemKey, Answer] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    readable: bool = True  # False: nothing could be read; the student is listed with the error


@dataclass
class StudentResult:
    """One student in the gradebook: the quiz's report (None when unmarkable) and every problem found."""

    student: str
    file: str
    line: int | None
    variant: int | None
    problem_set: str | None
    report: object | None  # attn_tutor.grading.Report
    findings: list[Finding]

    @property
    def score(self) -> float | None:
        return None if self.report is None else self.report.score

    @property
    def max_score(self) -> float | None:
        return None if self.report is None else self.report.max_score

    @property
    def percent(self) -> float | None:
        if self.report is None or not self.report.max_score:
            return None
        return 100.0 * self.report.score / self.report.max_score

    def items(self) -> dict[ItemKey, object]:
        if self.report is None:
            return {}
        return {(i.problem, i.row, i.stage): i for i in self.report.items}

    def to_dict(self, lang: str = "en") -> dict:
        return {**self._head(lang), "report": None if self.report is None else self.report.to_dict()}

    def _head(self, lang: str) -> dict:
        return {
            "student": self.student,
            "file": self.file,
            "line": self.line,
            "variant": self.variant,
            "errors": [f.text(lang) for f in self.findings],
        }


@dataclass(frozen=True)
class ItemStats:
    """How the class did on one (problem, row, stage)."""

    problem: str
    row: str
    stage: str
    students: int  # marked students who were set this item
    counts: tuple[tuple[str, int], ...]  # (verdict, count) in VERDICTS order
    diagnoses: tuple[tuple[str, int], ...]  # the most common first, at most TOP_DIAGNOSES

    @property
    def name(self) -> str:
        return f"{self.problem}/{self.row}/{self.stage}"

    def count(self, verdict: str) -> int:
        return dict(self.counts).get(verdict, 0)

    def percent(self, verdict: str) -> float:
        return 100.0 * self.count(verdict) / self.students if self.students else 0.0

    def to_dict(self) -> dict:
        return {
            "problem": self.problem,
            "row": self.row,
            "stage": self.stage,
            "students": self.students,
            "counts": dict(self.counts),
            "diagnoses": dict(self.diagnoses),
        }


@dataclass
class Gradebook:
    """A graded class: every student, the item columns, the analysis and the distribution."""

    students: list[StudentResult]
    columns: list[ItemKey]
    follow_through: str = "full"

    @property
    def failed(self) -> list[StudentResult]:
        """Students with any problem reported (a file, a row or a cell)."""
        return [s for s in self.students if s.findings]

    @property
    def marked(self) -> list[StudentResult]:
        return [s for s in self.students if s.report is not None]

    def analysis(self) -> list[ItemStats]:
        return item_analysis(self)

    def distribution(self) -> list[int]:
        return score_distribution(self)


# --- reading answer files ------------------------------------------------------------------


def _where(file: str, node) -> Location:
    return Location.of_mark(file, node.start_mark)




_PARSED: dict[str, tuple[float, ...] | AttnTutorError] = {}
_PARSED_LIMIT = 100_000


def parse_cells(text: str) -> tuple[float, ...]:
    """A row as the quiz reads it (raises AnswerError).

    Plain decimals take a fast path; everything else goes to
    :func:`attn_tutor.answers.parse_row`, once per distinct text (a class types the
    same rows again and again).
    """
    plain = _PLAIN_ROW.match(text)
    if plain:
        inner = plain.group("c1") or plain.group("c2") or plain.group("cells")
        return tuple(float(cell) + 0.0 for cell in _SEPARATORS.split(inner.strip(" \t")))  # + 0.0: no -0
    known = _PARSED.get(text)
    if known is None:
        from attn_tutor.answers import parse_row

        try:
            known = tuple(parse_row(text))
        except AttnTutorError as error:
            known = error
        if len(_PARSED) < _PARSED_LIMIT:
            _PARSED[text] = known
    if isinstance(known, AttnTutorError):
        raise known
    return known


def _parse_one(text: str) -> tuple[float, ...]:
    if _PLAIN_CELL.match(text):
        return (float(text) + 0.0,)
    from attn_tutor.answers import parse_row

    return tuple(parse_row(text))


def _finding_from(error: AttnTutorError, where: Location, item: str) -> Finding:
    """An AnswerError re-homed to the answer file's line, its message kept in the catalogue."""
    first = error.problems[0]
    return NestedFinding("grade.in_item", {"item": item}, where, inner=Finding(first.key, dict(first.args)))


def read_value(node, file: str, item: str, findings: list[Finding]) -> tuple[float, ...] | None:
    """One answer node: a list of numbers or a line of text. None when blank or unreadable."""
    import yaml

    if type(node) is yaml.SequenceNode and node.value:  # the common case: a list of plain decimals
        match = _PLAIN_CELL.match
        texts = [cell.value for cell in node.value if type(cell) is yaml.ScalarNode]
        if len(texts) == len(node.value) and all(match(text) for text in texts):
            return tuple(float(text) + 0.0 for text in texts)
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _YAML_NULL or (is_plain(node) and node.value == ""):
            return None
        if node.tag == _YAML_BOOL and is_plain(node):
            findings.append(Finding("grade.boolean", {"item": item, "value": node.value}, _where(file, node)))
            return None
        if node.value.strip() == "":
            return None
        try:
            return parse_cells(node.value)
        except AttnTutorError as error:
            findings.append(_finding_from(error, _where(file, node), item))
            return None
    if isinstance(node, yaml.SequenceNode):
        if not node.value:
            return None
        values: list[float] = []
        ok = True
        for cell in node.value:
            if not isinstance(cell, yaml.ScalarNode):
                findings.append(Finding("grade.not_a_number", {"item": item}, _where(file, cell)))
                ok = False
                continue
            if is_plain(cell) and cell.tag == _YAML_BOOL:
                findings.append(Finding("grade.boolean", {"item": item, "value": cell.value}, _where(file, cell)))
                ok = False
                continue
            if cell.tag == _YAML_NULL or cell.value.strip() == "":
                findings.append(Finding("grade.empty_cell", {"item": item}, _where(file, cell)))
                ok = False
                continue
            try:
                numbers = _parse_one(cell.value)
            except AttnTutorError as error:
                findings.append(_finding_from(error, _where(file, cell), item))
                ok = False
                continue
            if len(numbers) != 1:
                findings.append(Finding("grade.one_number", {"item": item, "value": cell.value}, _where(file, cell)))
                ok = False
                continue
            values.append(numbers[0])
        return tuple(values) if ok else None
    findings.append(Finding("grade.bad_answer_shape", {"item": item}, _where(file, node)))
    return None


def _pairs(node, file: str, what: str, findings: list[Finding]) -> list[tuple[str, object]]:
    """A mapping's (key, value node) pairs; duplicate keys reported and dropped, both copies."""
    import yaml

    if not isinstance(node, yaml.MappingNode):
        findings.append(Finding("grade.not_mapping", {"what": what}, _where(file, node)))
        return []
    pairs = []
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            findings.append(Finding("grade.bad_key", {"what": what}, _where(file, key)))
            continue
        pairs.append((key, value))
    names = [key.value for key, _ in pairs]
    if len(set(names)) == len(names):
        return [(key.value, value) for key, value in pairs]
    seen = Counter(names)
    out = []
    reported: set[str] = set()
    for key, value in pairs:
        if seen[key.value] > 1:
            if key.value in reported:  # one message, at the second copy
                findings.append(Finding("grade.duplicate_key", {"key": key.value, "what": what}, _where(file, key)))
            reported.add(key.value)
            continue
        out.append((key.value, value))
    return out


def read_yaml_text(text: str, file: str, *, base: str = ".", default_student: str = "") -> Submission:
    """One student's YAML answer file; never raises for bad content.

    A file as students hand it in is read from the parser's events in one pass
    (:func:`_read_yaml_events`); anything out of the ordinary — an error, a
    finding, a tag, an anchor, a duplicate key — sends the file through
    :func:`_read_yaml_nodes`, which composes it and reports every problem with its
    line. Both give the same :class:`Submission` for a file the fast one accepts (a
    test holds them equal).
    """
    sub = _read_yaml_events(text, file, base=base, default_student=default_student)
    if sub is None:
        sub = _read_yaml_nodes(text, file, base=base, default_student=default_student)
    return sub


class _Unusual(Exception):
    """The fast reader met something only the composing reader handles."""


_PLAIN_TAGS: dict[str, str] = {}


def _plain_tag(value: str) -> str:
    """The tag YAML resolves a plain scalar to (the C composer asks the same resolver)."""
    tag = _PLAIN_TAGS.get(value)
    if tag is None:
        import yaml

        tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False))
        if len(_PLAIN_TAGS) < _PARSED_LIMIT:
            _PLAIN_TAGS[value] = tag
    return tag


def _read_yaml_events(text: str, file: str, *, base: str = ".", default_student: str = "") -> Submission | None:
    """An ordinary answer file from the C parser's events, or None: let :func:`_read_yaml_nodes` read it.

    Mirrors :func:`_read_yaml_nodes` for files in which it finds nothing to report;
    gives up (None) wherever that would report something or where the node graph
    could differ from the events (anchors, aliases, tags, directives, several
    documents). Numbers are read from the text, as there.
    """
    import yaml
    from yaml.events import (
        DocumentEndEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
        StreamStartEvent,
    )

    try:
        loader = LOADER(text)
    except Exception:  # noqa: BLE001 - whatever it is, the composing reader meets it too
        return None
    sub = Submission(student=default_student, file=file, base=base)
    try:
        event = loader.get_event

        def key() -> str | None:
            """The next mapping key, or None at the mapping's end."""
            e = event()
            cls = e.__class__
            if cls is MappingEndEvent:
                return None
            if cls is not ScalarEvent or e.anchor is not None or e.tag is not None:
                raise _Unusual
            return e.value

        def start(e, cls) -> None:
            if e.__class__ is not cls or e.anchor is not None or e.tag is not None:
                raise _Unusual

        def text_value(e) -> str:
            """A non-empty scalar, as student and problem_set want it."""
            if e.__class__ is not ScalarEvent or e.anchor is not None or e.tag is not None:
                raise _Unusual
            if not e.style and _plain_tag(e.value) == _YAML_NULL:
                raise _Unusual
            value = e.value.strip()
            if not value:
                raise _Unusual
            return value

        if event().__class__ is not StreamStartEvent:
            raise _Unusual
        e = event()
        if e.__class__ is not DocumentStartEvent or e.version is not None or e.tags is not None:
            raise _Unusual
        start(event(), MappingStartEvent)
        seen: set[str] = set()
        answers = sub.answers
        match = _PLAIN_CELL.match
        while (name := key()) is not None:
            if name in seen:
                raise _Unusual
            seen.add(name)
            if name == "student":
                sub.student = text_value(event())
            elif name == "problem_set":
                sub.problem_set = text_value(event())
            elif name == "variant":
                e = event()
                if e.__class__ is not ScalarEvent or e.anchor is not None or e.tag is not None:
                    raise _Unusual
                seed = _seed(e.value)
                if seed is None:
                    raise _Unusual
                sub.variant = seed
            elif name == "answers":
                e = event()
                if e.__class__ is ScalarEvent:
                    if e.anchor is not None or e.tag is not None or e.style or _plain_tag(e.value) != _YAML_NULL:
                        raise _Unusual
                    continue
                start(e, MappingStartEvent)
                problems: set[str] = set()
                while (problem := key()) is not None:
                    if problem in problems:
                        raise _Unusual
                    problems.add(problem)
                    start(event(), MappingStartEvent)
                    rows: set[str] = set()
                    while (row := key()) is not None:
                        if row in rows:
                            raise _Unusual
                        rows.add(row)
                        start(event(), MappingStartEvent)
                        stages: set[str] = set()
                        while (stage := key()) is not None:
                            if stage in stages:
                                raise _Unusual
                            stages.add(stage)
                            e = event()
                            cls = e.__class__
                            if e.anchor is not None or e.tag is not None:
                                raise _Unusual
                            if cls is ScalarEvent:
                                value = e.value
                                if not e.style and (value == "" or _plain_tag(value) != _YAML_STR):
                                    tag = _plain_tag(value) if value else _YAML_NULL
                                    if tag == _YAML_BOOL:
                                        raise _Unusual
                                    values = None if tag == _YAML_NULL else _cells_or_unusual(value)
                                elif value.strip() == "":
                                    values = None
                                else:
                                    values = _cells_or_unusual(value)
                            elif cls is SequenceStartEvent:
                                cells = []
                                while (c := event()).__class__ is ScalarEvent:
                                    if c.anchor is not None or c.tag is not None or not match(c.value):
                                        raise _Unusual
                                    cells.append(float(c.value) + 0.0)
                                if c.__class__ is not SequenceEndEvent:
                                    raise _Unusual
                                values = tuple(cells) if cells else None
                            else:
                                raise _Unusual
                            mark = e.start_mark
                            answers[(problem, row, stage)] = Answer(values, Location.of_mark(file, mark))
            else:
                raise _Unusual
        if event().__class__ is not DocumentEndEvent or event().__class__ is not StreamEndEvent:
            raise _Unusual
    except (_Unusual, yaml.YAMLError):
        return None
    finally:
        loader.dispose()
    return sub


def _cells_or_unusual(text: str) -> tuple[float, ...] | None:
    if text.strip() == "":
        return None
    try:
        return parse_cells(text)
    except AttnTutorError:
        raise _Unusual from None


def _read_yaml_nodes(text: str, file: str, *, base: str = ".", default_student: str = "") -> Submission:
    """One student's YAML answer file, composed: every problem found, each with its line."""
    import yaml

    sub = Submission(student=default_student, file=file, base=base)
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = Location.of_mark(file, mark) if mark else Location(file)
        sub.findings.append(Finding("grade.bad_yaml", {"problem": str(error.problem or error.context)}, where))
        sub.readable = False
        return sub
    except yaml.YAMLError as error:
        sub.findings.append(Finding("grade.bad_yaml", {"problem": str(error)}, Location(file)))
        sub.readable = False
        return sub
    if root is None:
        sub.findings.append(Finding("grade.empty_file", {}, Location(file)))
        sub.readable = False
        return sub
    if not isinstance(root, yaml.MappingNode):
        sub.findings.append(Finding("grade.not_answer_file", {}, _where(file, root)))
        sub.readable = False
        return sub
    for key, value in _pairs(root, file, "the file", sub.findings):
        if key == "student":
            if isinstance(value, yaml.ScalarNode) and value.tag != _YAML_NULL and value.value.strip():
                sub.student = value.value.strip()
            else:
                sub.findings.append(Finding("grade.bad_student", {}, _where(file, value)))
        elif key == "problem_set":
            if isinstance(value, yaml.ScalarNode) and value.tag != _YAML_NULL and value.value.strip():
                sub.problem_set = value.value.strip()
            else:
                sub.findings.append(Finding("grade.bad_problem_set", {}, _where(file, value)))
                sub.readable = False
        elif key == "variant":
            seed = _seed(value.value if isinstance(value, yaml.ScalarNode) else None)
            if seed is None:
                text_value = value.value if isinstance(value, yaml.ScalarNode) else "…"
                sub.findings.append(Finding("grade.bad_variant", {"value": text_value}, _where(file, value)))
                sub.readable = False
            else:
                sub.variant = seed
        elif key == "answers":
            _read_answers(value, file, sub)
        else:
            sub.findings.append(Finding("grade.unknown_key", {"key": key, "keys": ", ".join(TOP_KEYS)}, _where(file, value)))
    return sub


def _read_answers(node, file: str, sub: Submission) -> None:
    import yaml

    if isinstance(node, yaml.ScalarNode) and node.tag == _YAML_NULL:
        return  # `answers:` left empty: every item missing
    for problem, rows in _pairs(node, file, "answers", sub.findings):
        for row, stages in _pairs(rows, file, f"answers.{problem}", sub.findings):
            for stage, value in _pairs(stages, file, f"answers.{problem}.{row}", sub.findings):
                item = f"{problem}/{row}/{stage}"
                values = read_value(value, file, item, sub.findings)
                sub.answers[(problem, row, stage)] = Answer(values, _where(file, value))


def _seed(text: str | None) -> int | None:
    if text is None:
        return None
    text = text.strip()
    if not _DECIMAL_INT.match(text):
        return None
    value = int(text)
    return value if value < MAX_SEED else None


def read_csv_text(text: str, file: str, *, base: str = ".") -> list[Submission]:
    """Every student of a CSV answer file; a broken row never stops the others."""
    subs: list[Submission] = []
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as error:
        return [Submission("", file, 1, findings=[Finding("grade.bad_csv", {"problem": str(error)}, Location(file, 1))], readable=False)]
    if header is None:
        return [Submission("", file, findings=[Finding("grade.empty_file", {}, Location(file))], readable=False)]
    names = [cell.strip() for cell in header]
    lowered = [name.lower() for name in names]
    header_findings: list[Finding] = []
    if "student" not in lowered:
        return [Submission("", file, 1, findings=[Finding("grade.csv_no_student", {}, Location(file, 1))], readable=False)]
    student_col = lowered.index("student")
    variant_col = lowered.index("variant") if "variant" in lowered else None
    set_col = lowered.index("problem_set") if "problem_set" in lowered else None
    item_cols: dict[int, ItemKey] = {}
    seen: Counter[ItemKey] = Counter()
    for index, name in enumerate(names):
        if "/" not in name:
            continue
        parts = [part.strip() for part in name.rsplit("/", 2)]
        if len(parts) != 3 or not all(parts):
            header_findings.append(Finding("grade.bad_column", {"column": name}, Location(file, 1, index + 1)))
            continue
        key = (parts[0], parts[1], parts[2])
        seen[key] += 1
        item_cols[index] = key
    reported: set[ItemKey] = set()
    for index, key in list(item_cols.items()):
        if seen[key] > 1:
            if key in reported:  # one message, at the second copy
                header_findings.append(Finding("grade.duplicate_column", {"column": names[index]}, Location(file, 1, index + 1)))
            reported.add(key)
            del item_cols[index]
    last_line = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            where = Location(file, last_line + 1)
            subs.append(Submission("", file, last_line + 1, findings=[Finding("grade.bad_csv", {"problem": str(error)}, where)], readable=False))
            break
        line = last_line + 1
        last_line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        sub = Submission(row[student_col].strip() if student_col < len(row) else "", file, line, base=base)
        sub.findings.extend(header_findings)
        if not sub.student:
            sub.findings.append(Finding("grade.no_student", {}, Location(file, line)))
        if variant_col is not None and variant_col < len(row) and row[variant_col].strip():
            seed = _seed(row[variant_col])
            if seed is None:
                sub.findings.append(Finding("grade.bad_variant", {"value": row[variant_col]}, Location(file, line, variant_col + 1)))
                sub.readable = False
            sub.variant = seed
        if set_col is not None and set_col < len(row) and row[set_col].strip():
            sub.problem_set = row[set_col].strip()
        if len(row) > len(names) and any(cell.strip() for cell in row[len(names):]):
            sub.findings.append(Finding("grade.extra_cells", {"given": len(row), "expected": len(names)}, Location(file, line)))
        for index, key in item_cols.items():
            cell = row[index] if index < len(row) else ""
            where = Location(file, line, index + 1)
            if not cell.strip():
                sub.answers[key] = Answer(None, where)
                continue
            try:
                values: tuple[float, ...] | None = parse_cells(cell)
            except AttnTutorError as error:
                sub.findings.append(_finding_from(error, where, names[index]))
                values = None
            sub.answers[key] = Answer(values, where)
        subs.append(sub)
    return subs


def _decode(data: bytes, file: str) -> tuple[str | None, Finding | None]:
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        return None, Finding("grade.not_utf8", {"offset": error.start}, Location(file))


def looks_like_problem_set(text: str) -> bool:
    """A YAML file with ``problems:`` and no ``answers:`` at the top: a problem set, not answers."""
    return re.search(r"^problems[ \t]*:", text, re.M) is not None and re.search(r"^answers[ \t]*:", text, re.M) is None


def looks_like_gradebook(text: str) -> bool:
    first = text.split("\n", 1)[0].lower()
    return "max_score" in first and "percent" in first


def read_answer_file(path: str | Path, *, skip_foreign: bool = False) -> list[Submission]:
    """Every student in one answer file (YAML: one; CSV: one per row).

    ``skip_foreign`` (used when scanning directories): a problem-set YAML file or a
    gradebook CSV sitting among the answers gives no students instead of errors.
    """
    path = Path(path)
    file = str(path)
    stem = path.stem
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return [Submission(stem, file, findings=[Finding("grade.too_large", {"limit": MAX_FILE_BYTES}, Location(file))], readable=False)]
        data = path.read_bytes()
    except OSError as error:
        return [Submission(stem, file, findings=[Finding("grade.unreadable", {"reason": error.strerror or str(error)}, Location(file))], readable=False)]
    text, problem = _decode(data, file)
    if problem is not None:
        return [Submission(stem, file, findings=[problem], readable=False)]
    base = str(path.parent)
    if path.suffix.lower() == ".csv":
        if skip_foreign and looks_like_gradebook(text):
            return []
        return read_csv_text(text, file, base=base)
    if skip_foreign and looks_like_problem_set(text):
        return []
    return [read_yaml_text(text, file, base=base, default_student=stem)]


def find_answer_files(paths: Sequence[str | Path], *, exclude: Iterable[str | Path] = ()) -> list[tuple[Path, bool]]:
    """Answer files under ``paths`` in a stable order, each with whether it came from a directory.

    A file is taken whatever its name; a directory gives every ``.yaml``, ``.yml``
    and ``.csv`` file inside it, recursively, sorted by path, skipping hidden files
    and directories and the files in ``exclude`` (the outputs). A file named twice
    is graded once.
    """
    skip = {os.path.realpath(p) for p in exclude}
    found: list[tuple[Path, bool]] = []
    seen: set[str] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            inside = []
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in files:
                    if not name.startswith(".") and name.lower().endswith(ANSWER_SUFFIXES):
                        inside.append(Path(root, name))
            candidates = [(p, True) for p in sorted(inside, key=lambda p: p.relative_to(path).parts)]
        else:
            candidates = [(path, False)]
        for candidate, from_dir in candidates:
            real = os.path.realpath(candidate)
            if real in skip or real in seen:
                continue
            seen.add(real)
            found.append((candidate, from_dir))
    return found


# --- marking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _RowPlan:
    """What marking one asked row needs, worked out once per (set, variant); and its marks so far."""

    row: int
    asked: frozenset
    exact: dict  # stage -> ((exact, marked) per cell, expected, all-correct cells, tolerance + EPS)
    eps: float
    steps: tuple  # (stage, asked, previous stage) for every stage of the problem, in order
    correct: dict = field(default_factory=dict)  # (stage, given) -> the correct Item, or False
    marks: dict = field(default_factory=dict)  # (stage, given, own previous row, own scores) -> Item


class Marker:
    """Marks submissions, loading each problem set once and solving each (set, variant) once."""

    def __init__(self, *, problems: str | None = None, follow_through: str = "full") -> None:
        if follow_through not in POLICIES:
            raise ValueError(follow_through)
        self.override = problems
        self.follow_through = follow_through
        self._sets: dict[str, ProblemSet | AttnTutorError] = {}
        self._solved: dict[tuple[str, int | None], tuple | AttnTutorError] = {}
        self._exact: dict[tuple, _RowPlan] = {}
        self._memo_size = 0  # marks remembered, over every row plan
        self.order: list[ItemKey] = []  # every item column, in first-seen set order
        self._ordered: set[str] = set()
        self._names: list[str] | None = None
        if problems is not None:
            loaded = self._load(problems, problems)
            if isinstance(loaded, AttnTutorError):
                raise loaded

    def _load(self, key: str, spec: str | None) -> ProblemSet | AttnTutorError:
        if key not in self._sets:
            from attn_tutor.problems import load_problem_set

            try:
                self._sets[key] = load_problem_set(spec)
            except AttnTutorError as error:
                self._sets[key] = error
        return self._sets[key]

    def resolve(self, sub: Submission) -> tuple[str, str]:
        """The problem set's cache key (what load_problem_set is given) and the label reports carry."""
        if self.override is not None:
            return self.override, self.override
        spec = sub.problem_set
        if spec is None:
            from attn_tutor.problems import DEFAULT_SET

            return DEFAULT_SET, DEFAULT_SET
        bare = not ("/" in spec or "\\" in spec or spec.lower().endswith((".yaml", ".yml")))
        if bare and spec in self._packaged():
            return spec, spec
        return os.path.normpath(os.path.join(sub.base, spec)), spec

    def _packaged(self) -> list[str]:
        if self._names is None:
            from attn_tutor.problems import packaged_sets

            self._names = packaged_sets()
        return self._names

    def solved(self, key: str, seed: int | None):
        """(problem set, {problem id: Solution}) for a set and a variant, or the error."""
        cache = (key, seed)
        if cache not in self._solved:
            base = self._load(key, key)
            if isinstance(base, AttnTutorError):
                self._solved[cache] = base
            else:
                from attn_tutor import engine

                try:
                    if seed is not None:
                        from attn_tutor.generate import regenerate

                        base = regenerate(base, seed)  # the same function as solve --variant
                    solutions = {p.id: engine.solve(p) for p in base.problems}
                    from attn_tutor.grading import open_cells

                    widths = {
                        (p.id, token, stage): tuple(open_cells(solutions[p.id], p.row_index(token), stage).tolist())
                        for p in base.problems
                        for token in p.asked_rows
                        for stage in p.asked_stages
                    }
                    self._solved[cache] = (base, solutions, widths)
                    self._remember_columns(key, base)
                except AttnTutorError as error:
                    self._solved[cache] = error
        return self._solved[cache]

    def _remember_columns(self, key: str, problem_set: ProblemSet) -> None:
        if key in self._ordered:
            return
        self._ordered.add(key)
        known = set(self.order)
        for column in columns_of(problem_set):
            if column not in known:
                known.add(column)
                self.order.append(column)

    def mark(self, sub: Submission) -> StudentResult:
        from attn_tutor.grading import Report

        findings = list(sub.findings)
        key, label = self.resolve(sub)
        result = StudentResult(sub.student, sub.file, sub.line, sub.variant, label, None, findings)
        if not sub.readable:
            return result
        solved = self.solved(key, sub.variant)
        if isinstance(solved, AttnTutorError):
            where = Location(sub.file, sub.line)
            for problem in solved.problems:
                findings.append(NestedFinding("grade.problem_set_error", {"name": label}, where, inner=problem))
            return result
        problem_set, solutions, widths = solved
        answers = self._check(sub, problem_set, widths, findings)
        items = []
        for problem in problem_set.problems:
            solution = solutions[problem.id]
            for token in problem.asked_rows:
                row_answers = {stage: answers.get((problem.id, token, stage)) for stage in problem.asked_stages}
                items.extend(self._mark_row(key, sub.variant, solution, problem, token, row_answers))
        result.report = Report(sub.student, label, sub.variant, "exam", items)
        return result

    def _mark_row(self, key, seed, solution, problem: Problem, token: str, answers: dict) -> list:
        """grading.mark_row in exam mode, stage by stage, with each stage's marks reused.

        This is mark_row's own loop over grading's public pieces (mark_stage, advance),
        so that a stage marked once is not marked again: a stage's item depends only on
        its answer and the student's own rows it is carried from (the previous stage's,
        and for the weights the scores, which ``skipped_scaling`` is made from). A
        stage right in every cell is ``correct`` whatever came before, so it is built
        without numpy. A test checks all of this against mark_row itself.
        """
        from attn_tutor.grading import Item, advance, mark_stage

        plan = self._plan(key, seed, solution, problem, token)
        row = plan.row
        correct_items, marks = plan.correct, plan.marks
        items = []
        own: dict[str, tuple[float, ...]] = {}
        for stage, asked, before in plan.steps:
            given = answers.get(stage) if asked else None
            if asked:
                item = None
                if given is not None:
                    item = correct_items.get((stage, given))
                    if item is None:
                        pairs, expected, cells, tolerance = plan.exact[stage]
                        if len(given) == len(pairs) and all(
                            not marked or abs(value - exact) <= tolerance for value, (exact, marked) in zip(given, pairs)
                        ):
                            item = Item(
                                problem=problem.id, row=token, stage=stage, expected=expected, given=tuple(given),
                                cells=cells, verdict="correct", diagnosis=None, hints=0, points=1.0, max_points=1.0,
                            )  # fmt: skip
                        else:
                            item = False
                        if self._memo_size < _MEMO_LIMIT:
                            self._memo_size += 1
                            correct_items[(stage, given)] = item
                if not item:
                    memo = (
                        stage, given,
                        own.get(before) if before else None,
                        own.get("scores") if stage == "weights" else None,
                    )  # fmt: skip
                    item = marks.get(memo)
                    if item is None:
                        item = mark_stage(solution, row, stage, given, own, follow_through=self.follow_through)
                        if self._memo_size < _MEMO_LIMIT:
                            self._memo_size += 1
                            marks[memo] = item
                items.append(item)
            if given is not None:
                own[stage] = tuple(given)  # what advance does in exam mode, without the copying
            elif before is not None and before in own:
                own = advance(solution, row, stage, None, own, "exam")
        return items

    def _plan(self, key, seed, solution, problem: Problem, token: str) -> "_RowPlan":
        cache = (key, seed, problem.id, token)
        plan = self._exact.get(cache)
        if plan is None:
            from attn_tutor.grading import EPS, marked_cells, previous_stage, stage_tolerance

            row = problem.row_index(token)
            exact = {}
            for stage in problem.asked_stages:
                values = [float(v) for v in solution.stage_row(stage, row)]
                marked = [bool(m) for m in marked_cells(solution, row, stage)]
                exact[stage] = (
                    tuple(zip(values, marked)),
                    tuple(v if m else None for v, m in zip(values, marked)),
                    tuple("correct" if m else "masked" for m in marked),
                    stage_tolerance(problem, stage) + EPS,
                )
            asked = frozenset(problem.asked_stages)
            steps = tuple((stage, stage in asked, previous_stage(stage)) for stage in problem.stages)
            plan = _RowPlan(row, asked, exact, EPS, steps)
            self._exact[cache] = plan
        return plan

    def _check(self, sub: Submission, problem_set: ProblemSet, widths: dict, findings: list[Finding]) -> dict:
        """The answers that fit the problem set (``widths``: every asked item's open cells); the rest reported.

        A row with the masked cells left out is filled in as the quiz does (:func:`attn_tutor.grading.full_row`)."""
        from attn_tutor.grading import full_row

        good: dict[ItemKey, tuple[float, ...]] = {}
        for item_key, answer in sub.answers.items():
            open_ = widths.get(item_key)
            if open_ is not None:
                if answer.values is None:
                    continue
                if len(answer.values) == len(open_):
                    good[item_key] = answer.values
                    continue
                full = full_row(answer.values, open_)  # the masked cells left out, as the quiz takes them
                if full is not None:
                    good[item_key] = tuple(full)
                    continue
            problem_id, token, stage = item_key
            item = f"{problem_id}/{token}/{stage}"
            if open_ is not None:
                args = {"item": item, "given": len(answer.values), "expected": len(open_)}
                if all(open_):
                    findings.append(Finding("grade.wrong_count", args, answer.where))
                else:
                    args["open"] = sum(open_)
                    findings.append(Finding("grade.wrong_count_masked", args, answer.where))
            elif problem_id not in problem_set.ids:
                findings.append(
                    Finding("grade.unknown_problem", {"item": item, "problem": problem_id, "ids": ", ".join(problem_set.ids)}, answer.where)
                )
            elif token not in (problem := problem_set.get(problem_id)).asked_rows:
                findings.append(
                    Finding("grade.unknown_row", {"item": item, "problem": problem_id, "row": token, "rows": ", ".join(problem.asked_rows)}, answer.where)
                )
            else:
                findings.append(
                    Finding("grade.unknown_stage", {"item": item, "stage": stage, "stages": ", ".join(problem.asked_stages)}, answer.where)
                )
        return good


def columns_of(problem_set: ProblemSet) -> list[ItemKey]:
    """Every item of a set in gradebook order: problems, then asked rows, then pipeline stages."""
    return [
        (problem.id, token, stage)
        for problem in problem_set.problems
        for token in problem.asked_rows
        for stage in STAGES
        if stage in problem.asked_stages
    ]


def grade_files(
    paths: Sequence[str | Path],
    *,
    problems: str | None = None,
    follow_through: str = "full",
    exclude: Iterable[str | Path] = (),
) -> Gradebook:
    """Read and mark every answer file under ``paths``. Raises only for a bad ``problems``."""
    return grade_found(find_answer_files(paths, exclude=exclude), problems=problems, follow_through=follow_through)


def grade_found(
    files: Sequence[tuple[Path, bool]], *, problems: str | None = None, follow_through: str = "full"
) -> Gradebook:
    """Mark the files :func:`find_answer_files` found, in that order."""
    marker = Marker(problems=problems, follow_through=follow_through)
    students = []
    for path, from_dir in files:
        for sub in read_answer_file(path, skip_foreign=from_dir):
            students.append(marker.mark(sub))
    return Gradebook(students, list(marker.order), follow_through)


def grade_submissions(subs: Iterable[Submission], *, problems: str | None = None, follow_through: str = "full") -> Gradebook:
    marker = Marker(problems=problems, follow_through=follow_through)
    students = [marker.mark(sub) for sub in subs]
    return Gradebook(students, list(marker.order), follow_through)


# --- summing up ----------------------------------------------------------------------------


def item_analysis(book: Gradebook) -> list[ItemStats]:
    from attn_tutor.grading import DIAGNOSES, VERDICTS

    verdicts: dict[ItemKey, Counter[str]] = {column: Counter() for column in book.columns}
    diagnoses: dict[ItemKey, Counter[str]] = {column: Counter() for column in book.columns}
    for student in book.marked:
        for item in student.report.items:
            key = (item.problem, item.row, item.stage)
            if key not in verdicts:
                continue
            verdicts[key][item.verdict] += 1
            if item.diagnosis:
                diagnoses[key][item.diagnosis] += 1
    rank = {code: index for index, code in enumerate(DIAGNOSES)}
    stats = []
    for key in book.columns:
        common = sorted(diagnoses[key].items(), key=lambda pair: (-pair[1], rank.get(pair[0], len(rank)), pair[0]))
        stats.append(
            ItemStats(
                *key,
                students=sum(verdicts[key].values()),
                counts=tuple((verdict, verdicts[key][verdict]) for verdict in VERDICTS),
                diagnoses=tuple(common[:TOP_DIAGNOSES]),
            )
        )
    return stats


def score_bin(score: float, max_score: float) -> int:
    """Which 10% bin a score falls in: 0..9, a full score in the last."""
    if max_score <= 0:
        return 0
    # From the decimal the marker rounded to (repr), not the binary float: 0.7 of 1 is 70%.
    index = int(Fraction(repr(float(score))) * BINS // Fraction(repr(float(max_score))))
    return max(0, min(index, BINS - 1))


def score_distribution(book: Gradebook) -> list[int]:
    counts = [0] * BINS
    for student in book.marked:
        counts[score_bin(student.score, student.max_score)] += 1
    return counts


def bin_label(index: int) -> str:
    low, high = index * 100 // BINS, (index + 1) * 100 // BINS
    return f"{low}–{high}%"


# --- files ---------------------------------------------------------------------------------


def _number(x: float) -> str:
    """Points and scores as plain numbers: ``1``, ``0.5``, ``0.6667`` (the marker keeps 4 places)."""
    from attn_tutor.numbers import fmt_given

    return fmt_given(x, 4)


def verdict_cell(item, lang: str = "en") -> str:
    """The gradebook's verdict cell in ``lang``: ``wrong: not divided by √d``, ``오답: √d로 안 나눔``."""
    from attn_tutor.grading import diagnosis_name

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
        return _number(value)
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


# --- what the terminal shows ---------------------------------------------------------------


def _pct(value: float, decimals: int = 1) -> str:
    from attn_tutor.numbers import fmt

    return fmt(value, decimals) + "%"


def summary_blocks(book: Gradebook, lang: str = "en") -> list:
    """The class table, the item analysis and the score distribution as document blocks."""
    from attn_tutor.document import Bar, Bars, Table

    blocks: list = []
    rows = []
    for student in book.students:
        marked = student.report is not None
        rows.append(
            (
                student.student or "—",
                "" if student.variant is None else str(student.variant),
                _number(student.score) if marked else "—",
                _number(student.max_score) if marked else "—",
                _pct(student.percent) if student.percent is not None else "—",
                str(len(student.findings)) if student.findings else "",
            )
        )
    blocks.append(
        Table(
            tuple(t(f"grade.col.{name}", lang) for name in ("student", "variant", "score", "max_score", "percent", "errors")),
            tuple(rows),
            title=t("grade.class_title", lang, count=len(book.students)),
        )
    )
    from attn_tutor.grading import VERDICTS, diagnosis_name

    groups: dict[str, list[ItemStats]] = {}
    for stats in book.analysis():
        groups.setdefault(stats.problem, []).append(stats)
    header = (
        t("grade.col.item", lang),
        t("grade.col.n", lang),
        *(t(f"grade.verdict.{verdict}", lang) for verdict in VERDICTS),
    )
    for problem, group in groups.items():
        rows = tuple(
            (f"{stats.row} · {t(f'quiz.stage.{stats.stage}', lang)}", str(stats.students), *(_pct(stats.percent(v), 0) for v in VERDICTS))
            for stats in group
        )
        blocks.append(Table(header, rows, title=t("grade.analysis_title", lang, problem=problem)))
        mistakes = tuple(
            (
                f"{stats.row} · {t(f'quiz.stage.{stats.stage}', lang)}",
                ", ".join(f"{diagnosis_name(code, lang)} ×{count}" for code, count in stats.diagnoses),
            )
            for stats in group
            if stats.diagnoses
        )
        if mistakes:
            blocks.append(
                Table(
                    (t("grade.col.item", lang), t("grade.col.diagnoses", lang)),
                    mistakes,
                    title=t("grade.mistakes_title", lang, problem=problem),
                )
            )
    counts = book.distribution()
    total = sum(counts)
    top = max(counts) if counts else 0
    bars = tuple(
        Bar(bin_label(index), count / top if top else 0.0, f"{count} ({_pct(100.0 * count / total) if total else '0.0%'})")
        for index, count in enumerate(counts)
    )
    blocks.append(Bars(t("grade.distribution_title", lang, count=total), bars))
    return blocks
