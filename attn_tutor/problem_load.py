"""Strict loading of problem-set YAML into :mod:`attn_tutor.model` objects.

Public API::

    load_text(text, source="<string>") -> ProblemSet
    load_path(path) -> ProblemSet
    load_problem_set(spec) -> ProblemSet        # None / packaged name / path
    packaged_sets() -> list[str]
    packaged_path(name) -> Path
    validate_path(path) -> list[Finding]        # [] means valid

Every check runs to the end and :class:`~attn_tutor.errors.InvalidProblemSet`
carries *every* finding, each with a catalogue key (``problems.*`` in
:mod:`attn_tutor.i18n`) and a 1-based ``file:line:column``.

How the YAML is read
--------------------
The text is *composed* (``yaml.compose`` with the C loader when present) into a
node tree and every value is built here from the nodes; no Python object is ever
constructed from a tag. Decisions, each covered by a test:

* Numbers are read from the text of *plain* scalars with a strict decimal
  pattern (``[-+]? digits [. digits] [e[-+]digits]``), not from PyYAML's YAML 1.1
  resolution. So ``1e3`` and ``-2.5e-1`` are numbers (PyYAML would leave ``1e3`` a
  string), ``017`` is seventeen (not octal 15), and ``1:30`` (sexagesimal 90),
  ``0x1F``, ``1_000`` and ``1/3`` are errors. ``yes``/``no``/``on``/``off``/
  ``true``/``false`` where a number belongs get their own message, as do
  ``.inf``/``.nan`` and magnitudes beyond 1e15 (which also keeps every score the
  engine computes finite).
* A *quoted* number (``"1"``, ``'0.5'``) or one tagged ``!!str`` is an error: the
  quotes say "text", and silently converting would hide the teacher's mistake.
* Text fields (``id``, ``title``, tokens, ``rows``, ``ask``) take the scalar's
  text as written, quoted or not: ``id: 1`` is the id ``"1"``, ``id: 01`` is
  ``"01"``. An empty value (nothing, ``~`` or ``null``) is an error.
* Explicit tags other than YAML's own core ones (``!!str``, ``!!int``,
  ``!!float``, ``!!bool``, ``!!null``, ``!!seq``, ``!!map``) are errors with their
  location, e.g. ``!!python/object``.
* Aliases (``*name``) are refused outright, with the place of the first one:
  anchors add nothing to a problem set, and refusing them makes "billion laughs"
  documents harmless (the tree is walked once per distinct node, so a shared
  node is noticed without ever expanding it).
* Duplicate mapping keys, which PyYAML silently accepts (last one wins), are
  errors; so is a second YAML document in the file.
* A UTF-8 byte-order mark, CRLF line ends, comments and flow style are fine;
  bytes that are not UTF-8 are an error at the offending byte.

In messages, ``problems[i]`` and ``heads[i]`` are YAML paths counted from 0;
rows, entries and list items are counted from 1, as a teacher counts them.
"""

from __future__ import annotations

import difflib
import importlib.util
import math
import os
import re
from typing import NamedTuple
from pathlib import Path

from attn_tutor import yamlread
from attn_tutor.errors import Finding, InvalidProblemSet, Location
from attn_tutor.model import DECIMALS_MAX, STAGES, Head, Matrix, Problem, ProblemSet, stage_name
from attn_tutor.yamlread import MappingNode, Node, ScalarNode, SequenceNode, is_plain

__all__ = [
    "DEFAULT_SET",
    "load_path",
    "load_problem_set",
    "load_text",
    "packaged_path",
    "packaged_sets",
    "validate_path",
]

DEFAULT_SET = "ch13"

TOP_KEYS = ("title", "problems")
HEAD_KEYS = ("Q", "K", "V", "W_Q", "W_K", "W_V")
PROBLEM_KEYS = (
    "id", "title", "tokens", "key_tokens", "X", *HEAD_KEYS, "heads",
    "divide_by", "mask", "rows", "ask", "decimals", "tolerance",
)  # fmt: skip

DEFAULT_DECIMALS = 3
MAX_DECIMALS = DECIMALS_MAX
DEFAULT_TOLERANCE = None  # the default that fits decimals: attn_tutor.tolerance
MAX_TOLERANCE = 1.0
# Entries beyond 1e15 cannot be worked by hand and stop being exact integers in a
# float; with |entry| <= 1e15 and 1e-15 <= divide_by <= 1e15 every projected and
# scaled score stays far below the float64 limit.
MAX_MAGNITUDE = 1e15
MIN_DIVISOR, MAX_DIVISOR = 1e-15, 1e15

_STR = yamlread.STR

_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_INTEGER = re.compile(r"[-+]?[0-9]+")
_NON_FINITE = re.compile(r"[-+]?\.?(?:inf|infinity|nan)", re.IGNORECASE)
_BOOLEANS = frozenset({"yes", "no", "on", "off", "true", "false"})  # what PyYAML reads as bools
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})



# --- packaged sets ---------------------------------------------------------------


def _sets_dir() -> Path:
    """Where the packaged YAML lives.

    Installed, ``problems/`` is the package ``attn_tutor.sets`` (a namespace
    package: pyproject maps the folder to it); in a source checkout it is the
    top-level ``problems/`` folder. ``importlib.util.find_spec`` gives the same
    folder as ``importlib.resources.files`` without importing ``importlib.resources``
    (and with it ``tempfile`` and ``zipfile``: about 5 ms of start-up). attn-tutor
    is never installed zipped, so the folder is always a real directory.
    """
    try:
        spec = importlib.util.find_spec("attn_tutor.sets")
    except (ImportError, ValueError):
        spec = None
    if spec is not None:
        for location in spec.submodule_search_locations or ():
            folder = Path(location)
            if folder.is_dir():
                return folder
    return Path(__file__).resolve().parent.parent / "problems"


def packaged_sets() -> list[str]:
    """The names of the problem sets that ship with attn-tutor, sorted."""
    folder = _sets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file())


def packaged_path(name: str) -> Path:
    """The file of the packaged set ``name`` (it may not exist: check :func:`packaged_sets`)."""
    return _sets_dir() / f"{name}.yaml"


def _is_bare_name(spec: str) -> bool:
    if "/" in spec or "\\" in spec or os.sep in spec or (os.altsep and os.altsep in spec):
        return False
    return not spec.lower().endswith((".yaml", ".yml"))


def load_problem_set(spec: str | None) -> ProblemSet:
    """``None`` → the packaged ``ch13``; a packaged set's bare name → that set; else a path.

    A bare name (no path separator, no ``.yaml``/``.yml`` suffix) that names a
    packaged set means the packaged set, even if a file of that name exists here.
    """
    if spec is None:
        spec = DEFAULT_SET
    if _is_bare_name(spec):
        names = packaged_sets()
        if spec in names:
            path = packaged_path(spec)
            problem_set = load_text(_read_bytes(path), source=str(path))
            return problem_set._replace(source=spec, name=spec)
        if not os.path.lexists(spec):
            raise InvalidProblemSet(
                "problems.no_such_set", Location(spec), sets=", ".join(names) or "-"
            )
    return load_path(spec)


# --- files -----------------------------------------------------------------------


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    where = Location(os.fspath(path))
    p = Path(path)
    if p.is_dir():
        raise InvalidProblemSet("problems.is_directory", where)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise InvalidProblemSet("problems.not_found", where) from None
    except IsADirectoryError:
        raise InvalidProblemSet("problems.is_directory", where) from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InvalidProblemSet("problems.unreadable", where, reason=reason) from None


def load_path(path: str | os.PathLike[str]) -> ProblemSet:
    """Read and check the problem-set file at ``path``."""
    return load_text(_read_bytes(path), source=os.fspath(path))


def validate_path(path: str | os.PathLike[str]) -> list[Finding]:
    """Every finding in the file at ``path``; an empty list means it is valid."""
    try:
        load_path(path)
    except InvalidProblemSet as error:
        return list(error.problems)
    return []


def load_text(text: str | bytes, source: str = "<string>") -> ProblemSet:
    """Parse and check a problem set; raise :class:`InvalidProblemSet` with every finding."""
    return _Reader(source).read(text)


# --- the reader ------------------------------------------------------------------


class _Matrix(NamedTuple):
    """A matrix as read: rows of floats (None where an entry was bad)."""

    node: Node
    rows: list[list[float | None]]
    width: int | None  # the common row length, None if rows are missing or ragged

    @property
    def n_rows(self) -> int:
        return len(self.node.value)

    def value(self) -> Matrix:
        return tuple(tuple(row) for row in self.rows)  # type: ignore[arg-type]


class _HeadRead(NamedTuple):
    head: Head | None
    projected: bool | None  # None: could not tell (both forms given)
    has_values: bool


class _Context(NamedTuple):
    """What a head's matrices are checked against."""

    n_queries: int | None
    n_keys: int | None
    keys_field: str  # "tokens" or "key_tokens"
    X: _Matrix | None
    top_level: bool  # the problem's own matrices, not a head under heads:


def _shown(node: Node) -> str:
    """A scalar as the teacher wrote it, for quoting in a message."""
    if isinstance(node, ScalarNode):
        if node.style in ('"', "'"):
            return f"{node.style}{node.value}{node.style}"
        return f"'{node.value.strip()}'"
    return "[...]" if isinstance(node, SequenceNode) else "{...}"


def _suggest(word: str, choices) -> str | None:
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return lowered[word.lower()]
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.findings: list[Finding] = []
        self.bad: set[int] = set()  # nodes already reported (a bad tag): skip them later

    # -- findings -----------------------------------------------------------------

    def add(self, message: str, where: Node | Location | None = None, /, **args: object) -> None:
        if isinstance(where, Node):
            where = Location.of_mark(self.source, where.start_mark)
        elif where is None:
            where = Location(self.source)
        self.findings.append(Finding(message, args, where))

    def fail(self) -> InvalidProblemSet:
        order = sorted(
            self.findings, key=lambda f: (f.where.line or 0, f.where.column or 0) if f.where else (0, 0)
        )
        return InvalidProblemSet.many(order)

    # -- text to nodes ------------------------------------------------------------

    def read(self, text: str | bytes) -> ProblemSet:
        if isinstance(text, (bytes, bytearray, memoryview)):
            data = bytes(text)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as error:
                line = data.count(b"\n", 0, error.start) + 1
                start = data.rfind(b"\n", 0, error.start) + 1
                column = len(data[start : error.start].decode("utf-8", "replace")) + 1
                where = Location(self.source, line, column)
                raise InvalidProblemSet(
                    "problems.not_utf8", where, byte=f"0x{data[error.start]:02X}"
                ) from None
        if text.startswith("\ufeff"):
            text = text[1:]
        root = self._compose(text)
        if self.findings:
            raise self.fail()
        if root is None or (
            isinstance(root, ScalarNode) and is_plain(root) and root.value in _NULLS and root.tag != _STR
        ):
            raise InvalidProblemSet("problems.empty_file", Location(self.source))
        if not self._scan(root, text):
            raise self.fail()
        problem_set = self._top(root)
        if self.findings or problem_set is None:
            raise self.fail()
        return problem_set

    def _compose(self, text: str) -> Node | None:
        try:
            return yamlread.compose(text, self.source)
        except yamlread.BadYaml as bad:
            if bad.kind == "control_character":
                self.add("problems.control_character", bad.where, char=f"U+{bad.char:04X}")
            elif bad.kind in ("multiple_documents", "tab"):
                self.add(f"problems.{bad.kind}", bad.where)
            else:
                self.add("problems.yaml_syntax", bad.where, detail=bad.detail)
        return None

    def _scan(self, root: Node, text: str) -> bool:
        """Check tags and duplicate keys (:func:`attn_tutor.yamlread.scan`); False after
        reporting the first alias in the text, if any node is shared."""
        issues, aliased = yamlread.scan(root)
        for issue in issues:
            if issue.kind == "tag":
                self.add("problems.tag", issue.node, tag=yamlread.short_tag(issue.node.tag))
                self.bad.add(id(issue.node))
            elif issue.kind == "bad_key":
                self.add("problems.bad_key", issue.node, path=issue.path or "-")
                self.bad.add(id(issue.node))
            else:
                self.add("problems.duplicate_key", issue.node, path=issue.path, first_line=issue.first.start_mark.line + 1)
        if aliased:
            place, name = yamlread.first_alias(text, self.source)
            self.add("problems.alias", place, name=name)
        return not aliased

    # -- generic shapes -----------------------------------------------------------

    def _usable(self, node: Node | None) -> bool:
        return node is not None and id(node) not in self.bad

    def _mapping(
        self,
        node: Node,
        path: str,
        allowed: tuple[str, ...],
        required: tuple[str, ...] = (),
        in_head: bool = False,
    ) -> dict[str, tuple[ScalarNode, Node]] | None:
        if not self._usable(node):
            return None
        if not isinstance(node, MappingNode):
            self.add("problems.expected_mapping", node, path=path)
            return None
        found: dict[str, tuple[ScalarNode, Node]] = {}
        for key, value in node.value:
            if not isinstance(key, ScalarNode) or id(key) in self.bad:
                continue  # reported by _scan
            name = key.value
            if name in allowed:
                found.setdefault(name, (key, value))  # a duplicate was reported by _scan
                continue
            if in_head and name in PROBLEM_KEYS:
                self.add("problems.key_not_in_head", key, path=_join(path, name), field=name)
                continue
            suggestion = _suggest(name, allowed)
            if suggestion:
                self.add("problems.unknown_key_suggest", key, path=_join(path, name), suggestion=suggestion)
            else:
                self.add("problems.unknown_key", key, path=_join(path, name), allowed=", ".join(allowed))
        for name in required:
            if name not in found:
                self.add("problems.missing_key", node, path=path, field=name)
        return found

    def _list(self, node: Node | None, path: str, not_a_list: str = "problems.expected_list") -> list[Node] | None:
        """A non-empty sequence's items; ``not_a_list`` is the message key when it is something else."""
        if not self._usable(node):
            return None
        if isinstance(node, ScalarNode) and is_plain(node) and node.value in _NULLS:
            self.add("problems.empty_list", node, path=path)
            return None
        if not isinstance(node, SequenceNode):
            self.add(not_a_list, node, path=path)
            return None
        if not node.value:
            self.add("problems.empty_list", node, path=path)
            return None
        return list(node.value)

    def _text(self, node: Node | None, path: str) -> str | None:
        if not self._usable(node):
            return None
        if not isinstance(node, ScalarNode):
            self.add("problems.expected_text", node, path=path)
            return None
        value = node.value.strip("\n") if node.style in ("|", ">") else node.value
        if (is_plain(node) and value in _NULLS) or not value.strip():
            self.add("problems.empty_text", node, path=path)
            return None
        return value

    def _text_list(self, node: Node | None, path: str) -> list[tuple[str, Node]] | None:
        items = self._list(node, path)
        if items is None:
            return None
        out: list[tuple[str, Node]] = []
        ok = True
        for i, item in enumerate(items, start=1):
            if not self._usable(item):
                ok = False
            elif not isinstance(item, ScalarNode):
                self.add("problems.item_not_text", item, path=path, item=i)
                ok = False
            elif (is_plain(item) and item.value in _NULLS) or not item.value.strip():
                self.add("problems.empty_item", item, path=path, item=i)
                ok = False
            else:
                out.append((item.value, item))
        return out if ok else None

    def _tokens(self, node: Node | None, path: str) -> tuple[str, ...] | None:
        items = self._text_list(node, path)
        if items is None:
            return None
        first: dict[str, int] = {}
        for i, (token, item) in enumerate(items, start=1):
            if token in first:
                self.add("problems.duplicate_token", item, path=path, token=token, first=first[token], second=i)
            else:
                first[token] = i
        # Returned even with a repeat (reported above), so the rows can still be counted.
        return tuple(t for t, _ in items)

    # -- numbers ------------------------------------------------------------------

    def _number(self, node: Node) -> tuple[float | None, str | None]:
        """(value, None) or (None, what is wrong): one of the ``problems.entry_*`` kinds."""
        if not isinstance(node, ScalarNode):
            return None, "not_scalar"
        text = node.value
        if not is_plain(node):
            return None, "quoted"
        if node.tag == _STR and yamlread.resolve_plain(text) != _STR:
            return None, "quoted"  # written with an explicit !!str
        if text in _NULLS:
            return None, "missing"
        if _NUMBER.fullmatch(text):
            value = float(text)
            if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
                return None, "too_large"
            return value, None
        if text.lower() in _BOOLEANS:
            return None, "boolean"
        if _NON_FINITE.fullmatch(text):
            return None, "not_finite"
        return None, "not_number"

    def _matrix(
        self, node: Node | None, path: str, ref_width: int | None = None, ref: str | None = None
    ) -> _Matrix | None:
        """A list of rows of numbers; row lengths checked against ``ref``'s width or row 1."""
        if self._list(node, path, "problems.expected_matrix") is None:
            return None
        if all(isinstance(row, ScalarNode) for row in node.value):  # a flat list: [1, 2]
            self.add("problems.expected_matrix", node, path=path)
            return None
        rows: list[list[float | None]] = []
        lengths: list[int | None] = []
        for r, row in enumerate(node.value, start=1):
            if not self._usable(row):
                rows.append([])
                lengths.append(None)
                continue
            if not isinstance(row, SequenceNode):
                self.add("problems.row_not_list", row, path=path, row=r)
                rows.append([])
                lengths.append(None)
                continue
            if not row.value:
                self.add("problems.empty_row", row, path=path, row=r)
                rows.append([])
                lengths.append(None)
                continue
            values: list[float | None] = []
            for c, entry in enumerate(row.value, start=1):
                if not self._usable(entry):
                    values.append(None)
                    continue
                value, problem = self._number(entry)
                if problem is not None:
                    self.add(f"problems.entry_{problem}", entry, path=path, row=r, col=c, text=_shown(entry))
                values.append(value)
            rows.append(values)
            lengths.append(len(values))
        width: int | None
        if ref_width is not None:
            width = ref_width
            for r, (row, n) in enumerate(zip(node.value, lengths), start=1):
                if n is not None and n != ref_width:
                    self.add(_one("problems.row_length_dk", n), row, path=path, row=r, count=n, ref=ref, expected=ref_width)
                    width = None
        else:
            width = lengths[0]
            if width is not None:
                for r, (row, n) in enumerate(zip(node.value, lengths), start=1):
                    if n is not None and n != lengths[0]:
                        self.add(_one("problems.row_length", n), row, path=path, row=r, count=n, expected=lengths[0])
                        width = None
        if None in lengths:
            width = None
        return _Matrix(node, rows, width)

    def _count_rows(self, matrix: _Matrix | None, path: str, expected: int | None, field: str) -> None:
        if matrix is not None and expected is not None and matrix.n_rows != expected:
            self.add(
                "problems.rows_vs_tokens",
                matrix.node,
                path=path,
                count=matrix.n_rows,
                tokens_key=field,
                expected=expected,
            )

    # -- the document -------------------------------------------------------------

    def _top(self, root: Node) -> ProblemSet | None:
        if id(root) in self.bad:  # a bad tag on the whole document, reported by _scan
            return None
        if isinstance(root, SequenceNode):
            self.add("problems.top_is_list", root)
            return None
        if not isinstance(root, MappingNode):
            self.add("problems.not_mapping_top", root)
            return None
        top = self._mapping(root, "", TOP_KEYS) or {}
        title = self._text(top["title"][1], "title") if "title" in top else None
        if "problems" not in top:
            self.add("problems.missing_problems", root)
            return None
        items = self._list(top["problems"][1], "problems")
        if items is None:
            return None
        ids: dict[str, int] = {}
        problems = [self._problem(item, i, ids) for i, item in enumerate(items)]
        if self.findings:
            return None
        return ProblemSet(tuple(p for p in problems if p is not None), title=title, source=self.source)

    def _problem(self, node: Node, index: int, ids: dict[str, int]) -> Problem | None:
        path = f"problems[{index}]"
        before = len(self.findings)
        m = self._mapping(node, path, PROBLEM_KEYS, required=("id", "tokens"))
        if m is None:
            return None

        def value(key: str) -> Node | None:
            return m[key][1] if key in m else None

        problem_id = self._text(value("id"), f"{path}.id")
        if problem_id is not None:
            id_node = value("id")
            if problem_id in ids:
                self.add("problems.duplicate_id", id_node, id=problem_id, first_line=ids[problem_id])
            else:
                ids[problem_id] = id_node.start_mark.line + 1  # type: ignore[union-attr]
        title = self._text(value("title"), f"{path}.title") if "title" in m else None
        tokens = self._tokens(value("tokens"), f"{path}.tokens")
        key_tokens = self._tokens(value("key_tokens"), f"{path}.key_tokens") if "key_tokens" in m else None
        n_q = len(tokens) if tokens is not None else None
        if "key_tokens" in m:
            n_k, keys_field = (len(key_tokens) if key_tokens is not None else None), "key_tokens"
        else:
            n_k, keys_field = n_q, "tokens"

        X = self._matrix(value("X"), f"{path}.X") if "X" in m else None
        self._count_rows(X, f"{path}.X", n_q, "tokens")

        heads: list[_HeadRead] = []
        heads_complete = True  # every head could be read well enough to tell its form
        if "heads" in m:
            for key in HEAD_KEYS:
                if key in m:
                    self.add("problems.heads_and_matrices", m[key][0], path=f"{path}.{key}", field=key)
            context = _Context(n_q, n_k, keys_field, X, top_level=False)
            items = self._list(value("heads"), f"{path}.heads")
            heads_complete = items is not None
            for i, item in enumerate(items or []):
                head_path = f"{path}.heads[{i}]"
                head_map = self._mapping(item, head_path, HEAD_KEYS, in_head=True)
                if head_map is None:
                    heads_complete = False
                    continue
                heads.append(self._head(head_map, item, head_path, context))
        else:
            head_map = {key: m[key] for key in HEAD_KEYS if key in m}
            if not head_map and "X" not in m:
                self.add("problems.no_matrices", node, path=path)
                heads_complete = False
            else:
                context = _Context(n_q, n_k, keys_field, X, top_level=True)
                heads.append(self._head(head_map, node, path, context))
        if any(h.projected is None for h in heads):
            heads_complete = False

        projected = any(h.projected for h in heads)
        if projected and "X" not in m:
            self.add("problems.needs_x", node, path=path)
        if "X" in m and heads_complete and heads and not projected:
            self.add("problems.unused_x", m["X"][0], path=f"{path}.X")
        if projected and key_tokens is not None and X is not None and len(key_tokens) != X.n_rows:
            self.add(
                "problems.key_tokens_vs_x",
                value("key_tokens"),
                path=f"{path}.key_tokens",
                count=len(key_tokens),
                expected=X.n_rows,
            )
        values = [h.has_values for h in heads]
        if "heads" in m and any(values) and not all(values):
            self.add("problems.values_partial", value("heads"), path=f"{path}.heads")
        has_values = bool(heads) and all(values)

        divide_by = self._divide_by(value("divide_by"), f"{path}.divide_by") if "divide_by" in m else None
        mask: str | Matrix = "none"
        if "mask" in m:
            mask = self._mask(value("mask"), f"{path}.mask", tokens, n_k)  # type: ignore[assignment]
        rows = self._rows(value("rows"), f"{path}.rows", tokens) if "rows" in m else None
        ask = (
            self._ask(value("ask"), f"{path}.ask", has_values if heads_complete else None)
            if "ask" in m
            else None
        )
        decimals = DEFAULT_DECIMALS
        if "decimals" in m:
            decimals = self._decimals(value("decimals"), f"{path}.decimals")  # type: ignore[assignment]
        tolerance = DEFAULT_TOLERANCE
        if "tolerance" in m:
            tolerance = self._tolerance(value("tolerance"), f"{path}.tolerance")  # type: ignore[assignment]

        if len(self.findings) > before:
            return None
        return Problem(
            id=problem_id,  # type: ignore[arg-type]
            tokens=tokens,  # type: ignore[arg-type]
            heads=tuple(h.head for h in heads),  # type: ignore[misc]
            title=title,
            key_tokens=key_tokens,
            X=X.value() if X is not None else None,
            multi_head="heads" in m,
            divide_by=divide_by,
            mask=mask,
            rows=rows,
            ask=ask,
            decimals=decimals,
            tolerance=tolerance,
            line=node.start_mark.line + 1,
        )

    def _head(
        self, m: dict[str, tuple[ScalarNode, Node]], node: Node, path: str, context: _Context
    ) -> _HeadRead:
        direct = [k for k in ("Q", "K", "V") if k in m]
        projection = [k for k in ("W_Q", "W_K", "W_V") if k in m]
        has_values = "V" in m or "W_V" in m
        if direct and projection:
            self.add(
                "problems.mixed_forms",
                m[projection[0]][0],
                path=path,
                direct=direct[0],
                projected=projection[0],
            )
            return _HeadRead(None, None, has_values)
        if not direct and not projection and not context.top_level:
            self.add("problems.head_no_matrices", node, path=path)
            return _HeadRead(None, None, has_values)

        def get(key: str) -> Node | None:
            return m[key][1] if key in m else None

        if direct:
            for key in ("Q", "K"):
                if key not in m:
                    self.add("problems.missing_key", node, path=path, field=key)
            Q = self._matrix(get("Q"), f"{path}.Q")
            self._count_rows(Q, f"{path}.Q", context.n_queries, "tokens")
            K = self._matrix(get("K"), f"{path}.K", Q.width if Q else None, "Q")
            self._count_rows(K, f"{path}.K", context.n_keys, context.keys_field)
            V = self._matrix(get("V"), f"{path}.V")
            self._count_rows(V, f"{path}.V", context.n_keys, context.keys_field)
            head = None
            if Q is not None and K is not None:
                head = Head(Q=Q.value(), K=K.value(), V=V.value() if V else None)
            return _HeadRead(head, False, has_values)

        for key in ("W_Q", "W_K"):
            if key not in m:
                self.add("problems.missing_key", node, path=path, field=key)
        d_in = context.X.width if context.X is not None else None
        matrices = {}
        for key in ("W_Q", "W_K", "W_V"):
            if key == "W_K":
                W_Q = matrices["W_Q"]
                W = self._matrix(get(key), f"{path}.{key}", W_Q.width if W_Q else None, "W_Q")
            else:
                W = self._matrix(get(key), f"{path}.{key}")
            if W is not None and d_in is not None and W.n_rows != d_in:
                self.add("problems.w_rows", W.node, path=f"{path}.{key}", count=W.n_rows, expected=d_in)
            matrices[key] = W
        head = None
        if matrices["W_Q"] is not None and matrices["W_K"] is not None:
            head = Head(
                W_Q=matrices["W_Q"].value(),
                W_K=matrices["W_K"].value(),
                W_V=matrices["W_V"].value() if matrices["W_V"] else None,
            )
        return _HeadRead(head, True, has_values)

    # -- the options ----------------------------------------------------------------

    def _scalar(self, node: Node | None, path: str) -> ScalarNode | None:
        if not self._usable(node):
            return None
        if not isinstance(node, ScalarNode):
            self.add("problems.expected_text", node, path=path)
            return None
        return node

    def _divide_by(self, node: Node | None, path: str) -> float | None:
        scalar = self._scalar(node, path)
        if scalar is None:
            return None
        if scalar.value == "sqrt_d":
            return None
        value, problem = self._number(scalar)
        if problem is None and value is not None and MIN_DIVISOR <= value <= MAX_DIVISOR:
            return value
        self.add("problems.divide_by", scalar, path=path, text=_shown(scalar))
        return None

    def _mask(self, node: Node | None, path: str, tokens, n_keys: int | None):
        if not self._usable(node):
            return "none"
        if isinstance(node, ScalarNode):
            if node.value in ("none", "causal"):
                return node.value
            self.add("problems.mask_word", node, path=path, text=_shown(node))
            return "none"
        rows = self._list(node, path)
        if rows is None:
            return "none"
        n_queries = len(tokens) if tokens is not None else None
        if n_queries is not None and len(rows) != n_queries:
            self.add("problems.mask_rows", node, path=path, count=len(rows), expected=n_queries)
        out: list[tuple[int, ...]] = []
        for r, row in enumerate(rows, start=1):
            if not self._usable(row):
                continue
            if not isinstance(row, SequenceNode):
                self.add("problems.row_not_list", row, path=path, row=r)
                continue
            if not row.value:
                self.add("problems.empty_row", row, path=path, row=r)
                continue
            if n_keys is not None and len(row.value) != n_keys:
                self.add("problems.mask_row_length", row, path=path, row=r, count=len(row.value), expected=n_keys)
            entries: list[int] = []
            for c, entry in enumerate(row.value, start=1):
                if not self._usable(entry):
                    continue
                value, problem = self._number(entry)
                if problem == "boolean":
                    self.add("problems.entry_boolean", entry, path=path, row=r, col=c, text=_shown(entry))
                elif problem is not None or value not in (0.0, 1.0):
                    self.add("problems.mask_entry", entry, path=path, row=r, col=c, text=_shown(entry))
                else:
                    entries.append(int(value))  # type: ignore[arg-type]
            if len(entries) == len(row.value) and not any(entries):
                token = tokens[r - 1] if tokens is not None and r <= len(tokens) else "?"
                self.add("problems.mask_empty_row", row, path=path, row=r, token=token)
            out.append(tuple(entries))
        return tuple(out)

    def _rows(self, node: Node | None, path: str, tokens) -> tuple[str, ...] | None:
        items = self._text_list(node, path)
        if items is None:
            return None
        seen: set[str] = set()
        out = []
        for token, item in items:
            if token in seen:
                self.add("problems.duplicate_entry", item, path=path, value=token)
                continue
            seen.add(token)
            if tokens is not None and token not in tokens:
                suggestion = _suggest(token, tokens)
                if suggestion:
                    self.add("problems.unknown_row_suggest", item, path=path, token=token, suggestion=suggestion)
                else:
                    self.add("problems.unknown_row", item, path=path, token=token, tokens=", ".join(tokens))
            out.append(token)
        return tuple(out)

    def _ask(self, node: Node | None, path: str, has_values: bool | None) -> tuple[str, ...] | None:
        items = self._text_list(node, path)
        if items is None:
            return None
        asked: set[str] = set()
        for word, item in items:
            stage = stage_name(word)  # softmax: the weights
            if stage in asked:
                self.add("problems.duplicate_entry", item, path=path, value=stage)
            elif stage not in STAGES:
                suggestion = _suggest(stage, STAGES)
                if suggestion:
                    self.add("problems.unknown_stage_suggest", item, path=path, stage=stage, suggestion=suggestion)
                else:
                    self.add("problems.unknown_stage", item, path=path, stage=stage)
            elif stage == "output" and has_values is False:
                self.add("problems.output_without_values", item, path=path)
            asked.add(stage)
        return tuple(stage for stage in STAGES if stage in asked)

    def _decimals(self, node: Node | None, path: str) -> int:
        scalar = self._scalar(node, path)
        if scalar is None:
            return DEFAULT_DECIMALS
        value, problem = self._number(scalar)
        if problem is None and _INTEGER.fullmatch(scalar.value) and 0 <= int(scalar.value) <= MAX_DECIMALS:
            return int(scalar.value)
        self.add("problems.decimals", scalar, path=path, text=_shown(scalar))
        return DEFAULT_DECIMALS

    def _tolerance(self, node: Node | None, path: str) -> float | None:
        scalar = self._scalar(node, path)
        if scalar is None:
            return DEFAULT_TOLERANCE
        value, problem = self._number(scalar)
        if problem is None and value is not None and 0 < value <= MAX_TOLERANCE:
            return value
        self.add("problems.tolerance", scalar, path=path, text=_shown(scalar))
        return DEFAULT_TOLERANCE


def _one(message: str, count: int) -> str:
    """The singular form of a "has N numbers" message when N is 1."""
    return f"{message}_1" if count == 1 else message

