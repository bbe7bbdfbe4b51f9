"""One student's YAML answer file, read through :mod:`attn_tutor.yamlread`.

A file as students hand it in is read from the parser's events in one pass
(:func:`read_events`); anything out of the ordinary — an error, a finding, a tag,
an anchor, a duplicate key — sends the file through :func:`read_nodes`, which
composes it and reports every problem with its line. Both give the same
:class:`~attn_tutor.gradebook.records.Submission` for a file the fast one accepts
(a test holds them equal).
"""

from __future__ import annotations

from attn_tutor import yamlread
from attn_tutor.errors import AttnTutorError, Finding, Location
from attn_tutor.gradebook.cells import PLAIN_CELL, CellReader, finding_from, parse_one, read_seed
from attn_tutor.gradebook.records import TOP_KEYS, Answer, Submission
from attn_tutor.inputs import excerpt
from attn_tutor.yamlread import (
    BOOL,
    NULL,
    STR,
    MappingNode,
    MappingStartEvent,
    ScalarEvent,
    ScalarNode,
    SequenceEndEvent,
    SequenceNode,
    SequenceStartEvent,
    Unusual,
    is_plain,
    where,
)


def read_yaml_text(
    text: str, file: str, *, base: str = ".", default_student: str = "", cells: CellReader | None = None
) -> Submission:
    """One student's YAML answer file; never raises for bad content (``cells``: the run's cell reader)."""
    cells = cells or CellReader()
    sub = read_events(text, file, base=base, default_student=default_student, cells=cells)
    if sub is None:
        sub = read_nodes(text, file, base=base, default_student=default_student, cells=cells)
    return sub


# --- the fast path: events --------------------------------------------------------------


def read_events(
    text: str, file: str, *, base: str = ".", default_student: str = "", cells: CellReader | None = None
) -> Submission | None:
    """An ordinary answer file from the C parser's events, or None: let :func:`read_nodes` read it.

    Mirrors :func:`read_nodes` for files in which it finds nothing to report;
    gives up (None) wherever that would report something or where the node graph
    could differ from the events (anchors, aliases, tags, directives, several
    documents). Numbers are read from the text, as there.
    """
    cells = cells or CellReader()
    sub = Submission(student=default_student, file=file, base=base)
    try:
        with yamlread.Events(text) as events:
            _EventReader(events, cells, sub).top()
    except Unusual:
        return None
    return sub


def _once(name: str, seen: set[str]) -> None:
    """A mapping key met for the first time (a repeat is unusual)."""
    if name in seen:
        raise Unusual
    seen.add(name)


class _EventReader:
    def __init__(self, events: yamlread.Events, cells: CellReader, sub: Submission) -> None:
        self.events, self.cells, self.sub, self.tag = events, cells, sub, cells.tags()

    def top(self) -> None:
        events, sub = self.events, self.sub
        events.begin()
        seen: set[str] = set()
        while (name := events.key()) is not None:
            _once(name, seen)
            if name == "student":
                sub.student = self.text_value()
            elif name == "problem_set":
                sub.problem_set = self.text_value()
            elif name == "variant":
                seed = read_seed(events.scalar().value)
                if seed is None:
                    raise Unusual
                sub.variant = seed
            elif name == "answers":
                self.answers()
            else:
                raise Unusual
        events.end()

    def text_value(self) -> str:
        """A non-empty scalar, as student and problem_set want it."""
        e = self.events.scalar()
        if not e.style and self.tag(e.value) == NULL:
            raise Unusual
        value = e.value.strip()
        if not value:
            raise Unusual
        return value

    def answers(self) -> None:
        """``answers:`` three mappings deep (problem, row, stage), each key once; the hot loop."""
        events, answers, file = self.events, self.sub.answers, self.sub.file
        e = events.next()
        if e.__class__ is ScalarEvent:
            if e.anchor is not None or e.tag is not None or e.style or self.tag(e.value) != NULL:
                raise Unusual
            return
        start, key, next_event, value = events.start, events.key, events.next, self.value
        start(e, MappingStartEvent)
        problems: set[str] = set()
        while (problem := key()) is not None:
            _once(problem, problems)
            start(next_event(), MappingStartEvent)
            rows: set[str] = set()
            while (row := key()) is not None:
                _once(row, rows)
                start(next_event(), MappingStartEvent)
                stages: set[str] = set()
                while (stage := key()) is not None:
                    _once(stage, stages)
                    e = next_event()
                    mark = e.start_mark
                    answers[(problem, row, stage)] = Answer(value(e), Location(file, mark.line + 1, mark.column + 1))

    def value(self, e) -> tuple[float, ...] | None:
        """One answer: a scalar typed as in the quiz or a flow list of plain decimals."""
        if e.anchor is not None or e.tag is not None:
            raise Unusual
        cls = e.__class__
        if cls is SequenceStartEvent:
            found = []
            match, next_event = PLAIN_CELL.match, self.events.next
            while (c := next_event()).__class__ is ScalarEvent:
                if c.anchor is not None or c.tag is not None or not match(c.value):
                    raise Unusual
                found.append(float(c.value) + 0.0)
            if c.__class__ is not SequenceEndEvent:
                raise Unusual
            return tuple(found) if found else None
        if cls is ScalarEvent:
            value = e.value
            if not e.style and (value == "" or self.tag(value) != STR):
                tag = self.tag(value) if value else NULL
                if tag == BOOL:
                    raise Unusual
                return None if tag == NULL else self.row(value)
            return None if value.strip() == "" else self.row(value)
        raise Unusual

    def row(self, text: str) -> tuple[float, ...] | None:
        if text.strip() == "":
            return None
        try:
            return self.cells.row(text)
        except AttnTutorError:
            raise Unusual from None


# --- the located path: nodes ------------------------------------------------------------


def read_nodes(
    text: str, file: str, *, base: str = ".", default_student: str = "", cells: CellReader | None = None
) -> Submission:
    """One student's YAML answer file, composed: every problem found, each with its line."""
    cells = cells or CellReader()
    sub = Submission(student=default_student, file=file, base=base)
    try:
        root = yamlread.compose(text, file)
    except yamlread.BadYaml as bad:
        return _unreadable(sub, Finding("grade.bad_yaml", {"problem": bad.problem}, bad.where))
    if root is None:
        return _unreadable(sub, Finding("grade.empty_file", {}, Location(file)))
    if not isinstance(root, MappingNode):
        return _unreadable(sub, Finding("grade.not_answer_file", {}, where(file, root)))
    for key, value in _pairs(root, file, "the file", sub.findings):
        if key in ("student", "problem_set"):
            if isinstance(value, ScalarNode) and value.tag != NULL and value.value.strip():
                setattr(sub, key, value.value.strip())
            else:
                sub.findings.append(Finding(f"grade.bad_{key}", {}, where(file, value)))
                sub.readable = sub.readable and key == "student"
        elif key == "variant":
            seed = read_seed(value.value if isinstance(value, ScalarNode) else None)
            if seed is None:
                text_value = value.value if isinstance(value, ScalarNode) else "…"
                sub.findings.append(Finding("grade.bad_variant", {"value": excerpt(text_value)}, where(file, value)))
                sub.readable = False
            else:
                sub.variant = seed
        elif key == "answers":
            _read_answers(value, file, sub, cells)
        else:
            sub.findings.append(Finding("grade.unknown_key", {"key": excerpt(key), "keys": ", ".join(TOP_KEYS)}, where(file, value)))
    return sub


def _unreadable(sub: Submission, finding: Finding) -> Submission:
    sub.findings.append(finding)
    sub.readable = False
    return sub


def _pairs(node, file: str, what: str, findings: list[Finding]) -> list[tuple[str, object]]:
    """A mapping's (key, value node) pairs; duplicate keys reported at each repeat and dropped, every copy."""
    if not isinstance(node, MappingNode):
        findings.append(Finding("grade.not_mapping", {"what": what}, where(file, node)))
        return []
    pairs, bad, repeats = yamlread.split_keys(node)
    for key in bad:
        findings.append(Finding("grade.bad_key", {"what": what}, where(file, key)))
    if not repeats:
        return [(key.value, value) for key, value in pairs]
    for key, _ in repeats:
        findings.append(Finding("grade.duplicate_key", {"key": key.value, "what": what}, where(file, key)))
    repeated = {key.value for key, _ in repeats}
    return [(key.value, value) for key, value in pairs if key.value not in repeated]


def _read_answers(node, file: str, sub: Submission, cells: CellReader) -> None:
    if isinstance(node, ScalarNode) and node.tag == NULL:
        return  # `answers:` left empty: every item missing
    for problem, rows in _pairs(node, file, "answers", sub.findings):
        for row, stages in _pairs(rows, file, f"answers.{problem}", sub.findings):
            for stage, value in _pairs(stages, file, f"answers.{problem}.{row}", sub.findings):
                item = f"{problem}/{row}/{stage}"
                values = read_value(value, file, item, sub.findings, cells)
                sub.answers[(problem, row, stage)] = Answer(values, where(file, value))


def read_value(node, file: str, item: str, findings: list[Finding], cells: CellReader | None = None) -> tuple[float, ...] | None:
    """One answer node: a list of numbers or a line of text. None when blank or unreadable."""
    if type(node) is SequenceNode and node.value:  # the common case: a list of plain decimals
        match = PLAIN_CELL.match
        texts = [cell.value for cell in node.value if type(cell) is ScalarNode]
        if len(texts) == len(node.value) and all(match(text) for text in texts):
            return tuple(float(text) + 0.0 for text in texts)
    if isinstance(node, ScalarNode):
        if node.tag == NULL or (is_plain(node) and node.value == ""):
            return None
        if node.tag == BOOL and is_plain(node):
            findings.append(Finding("grade.boolean", {"item": item, "value": node.value}, where(file, node)))
            return None
        if node.value.strip() == "":
            return None
        try:
            return (cells or CellReader()).row(node.value)
        except AttnTutorError as error:
            findings.append(finding_from(error, where(file, node), item))
            return None
    if isinstance(node, SequenceNode):
        return _read_list(node, file, item, findings) if node.value else None
    findings.append(Finding("grade.bad_answer_shape", {"item": item}, where(file, node)))
    return None


def _read_list(node, file: str, item: str, findings: list[Finding]) -> tuple[float, ...] | None:
    """A list of cells, one number each; every bad cell reported."""
    values: list[float] = []
    ok = True
    for cell in node.value:
        problem = None
        if not isinstance(cell, ScalarNode):
            problem = Finding("grade.not_a_number", {"item": item}, where(file, cell))
        elif is_plain(cell) and cell.tag == BOOL:
            problem = Finding("grade.boolean", {"item": item, "value": cell.value}, where(file, cell))
        elif cell.tag == NULL or cell.value.strip() == "":
            problem = Finding("grade.empty_cell", {"item": item}, where(file, cell))
        else:
            try:
                numbers = parse_one(cell.value)
            except AttnTutorError as error:
                problem = finding_from(error, where(file, cell), item)
            else:
                if len(numbers) != 1:
                    problem = Finding("grade.one_number", {"item": item, "value": excerpt(cell.value)}, where(file, cell))
                else:
                    values.append(numbers[0])
        if problem is not None:
            findings.append(problem)
            ok = False
    return tuple(values) if ok else None
