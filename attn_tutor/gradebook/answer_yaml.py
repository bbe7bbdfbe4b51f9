"""One student's YAML answer file, read through :mod:`attn_tutor.core.yamlread`.

Two paths give the same :class:`~attn_tutor.gradebook.records.Submission`
(a test holds them equal):

* :func:`read_plain_file` — a file as students hand it in, read from the tree of
  :class:`yamlread.PlainReader` in one pass (:class:`PlainAnswers`, one per run,
  kept on the run's cell reader). It gives up (None) on anything out of the
  ordinary: YAML outside that reader's subset, a finding to report, a boolean
  answer, an unreadable row.
* :func:`read_nodes` — every other file, composed: every problem reported with
  its file:line:column.
"""

from __future__ import annotations

from attn_tutor.core import yamlread
from attn_tutor.core.errors import AttnTutorError, Finding, Location
from attn_tutor.core.text import did_you_mean, excerpt
from attn_tutor.core.yamlread import BOOL, NULL, STR, MappingNode, ScalarNode, SequenceNode, is_plain, resolve_plain, where
from attn_tutor.gradebook.cells import PLAIN_CELL, CellReader, finding_from, parse_one, read_seed
from attn_tutor.gradebook.records import TOP_KEYS, Answer, Submission
from attn_tutor.kinds.sampling.model import ALL_STAGES as SAMPLING_STAGES


def read_yaml_text(
    text: str, file: str, *, base: str = ".", default_student: str = "", cells: CellReader | None = None
) -> Submission:
    """One student's YAML answer file; never raises for bad content (``cells``: the run's cell reader)."""
    cells = cells or CellReader()
    sub = read_plain_file(text, file, base=base, default_student=default_student, cells=cells)
    if sub is None:
        sub = read_nodes(text, file, base=base, default_student=default_student, cells=cells)
    return sub


# --- the fast path: an ordinary file ----------------------------------------------------


class _GiveUp(Exception):
    """Something only :func:`read_nodes` reads or reports."""


_UNREAD = object()


def read_plain_file(
    text: str, file: str, *, base: str = ".", default_student: str = "", cells: CellReader | None = None
) -> Submission | None:
    """An ordinary answer file, or None: let :func:`read_nodes` read it.

    Mirrors :func:`read_nodes` for files in which it finds nothing to report;
    numbers are read from the text, as there.
    """
    cells = cells or CellReader()
    plain = cells.plain_answers
    if not isinstance(plain, PlainAnswers):  # (None: not made yet)
        plain = cells.plain_answers = PlainAnswers(cells)
    return plain.read(text, Submission(student=default_student, file=file, base=base))


class PlainAnswers:
    """The fast path for one run: :class:`yamlread.PlainReader` and each distinct answer's numbers, remembered."""

    def __init__(self, cells: CellReader, limit: int = 20_000) -> None:
        # limit: answers remembered, and lines by the reader (~2,500 students' worth: what comes later
        # is mostly met once, and memory stays flat as the class grows)
        self.cells = cells
        self.yaml = yamlread.PlainReader(limit)
        self._quoted: dict[str | tuple[str, ...], tuple[float, ...] | None] = {}  # quoted texts and flow lists
        self._plain: dict[str, tuple[float, ...] | None] = {}
        self._limit = limit

    def read(self, text: str, sub: Submission) -> Submission | None:
        root = self.yaml(text)
        if root is None:
            return None
        try:
            for name, node in root.items():
                if name == "student" or name == "problem_set":
                    setattr(sub, name, self.text_value(node))
                elif name == "variant":
                    plain = type(node) is yamlread.Leaf and node.style != "[" and isinstance(node.value, str)  # (not a flow list)
                    seed = read_seed(node.value) if plain else None
                    if seed is None:
                        return None
                    sub.variant = seed
                elif name == "answers":
                    self.answers(node, sub.answers, sub.file)
                else:  # concepts: (read by read_nodes, with their places) and anything else
                    return None
        except _GiveUp:
            return None
        return sub

    def text_value(self, node) -> str:
        """A non-empty scalar, as student and problem_set want it (its tag not remembered: a name comes once)."""
        if type(node) is not yamlread.Leaf or node.style == "[" or not isinstance(node.value, str):  # (a flow list's is a tuple)
            raise _GiveUp
        if not node.style and resolve_plain(node.value) == NULL:
            raise _GiveUp
        value = node.value.strip()
        if not value:
            raise _GiveUp
        return value

    def answers(self, node, answers: dict, file: str) -> None:
        """``answers:`` three mappings deep (problem, row, stage); the hot loop."""
        if type(node) is not dict:
            if node.style or resolve_plain(node.value) != NULL:
                raise _GiveUp
            return  # `answers:` left empty: every item missing
        quoted, plain, value, new = self._quoted, self._plain, self.value, tuple.__new__
        for problem, rows in node.items():
            if type(rows) is not dict:
                raise _GiveUp
            for row, stages in rows.items():
                if type(stages) is not dict or row in SAMPLING_STAGES:  # (a sampling stage: read by read_nodes)
                    raise _GiveUp
                for stage, leaf in stages.items():
                    if type(leaf) is dict:
                        raise _GiveUp
                    text, style, line, column = leaf
                    values = (quoted if style else plain).get(text, _UNREAD)
                    if values is _UNREAD:
                        values = value(text, style)
                    answers[(problem, row, stage)] = new(Answer, (values, new(Location, (file, line, column)), None))  # Answer(values, Location(...)), made faster

    def value(self, text, style: str) -> tuple[float, ...] | None:
        """One answer: a scalar typed as in the quiz or a flow list of plain decimals (remembered)."""
        if style == "[":
            if not all(map(PLAIN_CELL.match, text)):
                raise _GiveUp
            values: tuple[float, ...] | None = tuple(map(float, text))
            values = (tuple(value + 0.0 for value in values) if 0.0 in values else values) if values else None  # no -0
        elif not style and (text == "" or resolve_plain(text) != STR):
            tag = resolve_plain(text) if text else NULL
            if tag == BOOL:
                raise _GiveUp
            values = None if tag == NULL else self.row(text)
        else:
            values = None if text.strip() == "" else self.row(text)
        known = self._quoted if style else self._plain
        if len(known) < self._limit:
            known[text] = values
        return values

    def row(self, text: str) -> tuple[float, ...] | None:
        if text.strip() == "":
            return None
        try:
            return self.cells.row(text)
        except AttnTutorError:
            raise _GiveUp from None


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
        return _unreadable(sub, _bad_yaml(bad))
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
        elif key == "concepts":
            _read_concepts(value, file, sub)
        elif key == "problems":  # answers written where a problem set lists its problems
            sub.findings.append(Finding("grade.problems_for_answers", {}, where(file, value)))
        else:
            args = {"key": excerpt(key), "keys": ", ".join(TOP_KEYS)}
            suggestion = did_you_mean(key, TOP_KEYS) if isinstance(key, str) else None
            if suggestion is None:
                sub.findings.append(Finding("grade.unknown_key", args, where(file, value)))
            else:
                sub.findings.append(Finding("grade.unknown_key_suggest", {**args, "suggestion": suggestion}, where(file, value)))
    return sub


def _bad_yaml(bad: yamlread.BadYaml) -> Finding:
    """Text that is not YAML, in the catalogue's words where it has them (as for problem sets)."""
    if bad.kind == "tab":
        return Finding("problems.tab", {}, bad.where)
    if bad.kind == "control_character":
        return Finding("problems.control_character", {"char": f"U+{bad.char:04X}"}, bad.where)
    if bad.kind == "multiple_documents":
        return Finding("yaml.multiple_documents", {}, bad.where)
    if bad.reason:
        return Finding(f"yaml.{bad.reason}", bad.fields, bad.where)
    return Finding("grade.bad_yaml", {"problem": bad.problem}, bad.where)


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
            if _sampling_stage(row, stages):  # a sampling problem's stage, straight under its id
                sub.answers[(problem, "", row)] = _sampling_answer(row, stages, file, f"{problem}/{row}", sub.findings, cells)
                continue
            for stage, value in _pairs(stages, file, f"answers.{problem}.{row}", sub.findings):
                item = f"{problem}/{row}/{stage}"
                values = read_value(value, file, item, sub.findings, cells)
                sub.answers[(problem, row, stage)] = Answer(values, where(file, value))


ROW_STAGES = ("scores", "scaled", "weights", "softmax", "output")


def _sampling_stage(key: str, node) -> bool:
    """Whether ``answers.<id>.<key>`` is a sampling problem's stage rather than an attention row:
    a stage's name with a number, a list or a token (``kept``: a mapping of tokens, not of stages)."""
    if key not in SAMPLING_STAGES:
        return False
    if not isinstance(node, MappingNode):
        return True
    return key == "kept" and not any(isinstance(k, ScalarNode) and k.value in ROW_STAGES for k, _ in node.value)


def _sampling_answer(stage: str, node, file: str, item: str, findings: list[Finding], cells: CellReader) -> Answer:
    """A sampling stage's answer: numbers; ``pick`` a token; ``kept`` {token: probability}."""
    at = where(file, node)
    if stage == "pick":
        if isinstance(node, ScalarNode) and node.tag != NULL and node.value.strip():
            return Answer(None, at, node.value.strip())
        if not isinstance(node, ScalarNode):
            findings.append(Finding("grade.bad_answer_shape", {"item": item}, at))
        return Answer(None, at)
    if stage == "kept" and isinstance(node, MappingNode):
        pairs, said = [], len(findings)
        for token, value in _pairs(node, file, f"answers.{item}", findings):
            number = read_value(value, file, f"{item}/{token}", findings, cells)
            if number is not None and len(number) != 1:
                findings.append(Finding("grade.wrong_count", {"item": f"{item}/{token}", "given": len(number), "expected": 1}, where(file, value)))
                number = None
            pairs.append((token, None if number is None else number[0]))
        if len(findings) > said:
            return Answer(None, at)  # a probability that could not be read: the stage is not marked, as any unreadable answer
        return Answer(None, at, tuple(pairs))
    return Answer(read_value(node, file, item, findings, cells), at)


def _read_concepts(node, file: str, sub: Submission) -> None:
    """``concepts:``: concept id -> the choice as typed (``B``, ``"C A D B"``, ``2``); marked by the grader."""
    if isinstance(node, ScalarNode) and node.tag == NULL:
        return  # left empty: every concept item unanswered
    for concept_id, value in _pairs(node, file, "concepts", sub.findings):
        if not isinstance(value, ScalarNode):
            sub.findings.append(Finding("grade.concept_not_text", {"item": f"concepts/{concept_id}"}, where(file, value)))
            sub.concepts[concept_id] = (None, where(file, value))
        elif value.tag == NULL or (is_plain(value) and value.value.strip() == ""):
            sub.concepts[concept_id] = (None, where(file, value))
        else:
            sub.concepts[concept_id] = (value.value, where(file, value))


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
