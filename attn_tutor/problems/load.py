"""Strict loading of problem-set YAML into :mod:`attn_tutor.core.model` objects.

Public API::

    load_text(text, source="<string>") -> ProblemSet
    load_path(path) -> ProblemSet
    load_problem_set(spec) -> ProblemSet        # None / packaged name / path
    packaged_sets() -> list[str]
    packaged_path(name) -> Path
    validate_path(path) -> list[Finding]        # [] means valid

Every check runs to the end and :class:`~attn_tutor.core.errors.InvalidProblemSet`
carries *every* finding, each with a catalogue key (``problems.*`` in
:mod:`attn_tutor.core.i18n`) and a 1-based ``file:line:column``.

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

import importlib.util
import os
from pathlib import Path
from typing import NamedTuple

from attn_tutor.core import yamlread
from attn_tutor.core.errors import Finding, InvalidProblemSet, Location
from attn_tutor.core.model import HAND_SIZED, KINDS, LARGE, Head, Limits, Matrix, Problem, ProblemSet
from attn_tutor.core.reading import InputRefused, read_regular
from attn_tutor.core.rounding import fmt_given, half_unit
from attn_tutor.core.yamlread import STR, MappingNode, Node, ScalarNode, SequenceNode, is_plain
from attn_tutor.kinds.sampling.fields import SamplingFields, kind_of
from attn_tutor.kinds.sampling.model import SamplingProblem
from attn_tutor.problems.choice import is_bare_name
from attn_tutor.problems.concept_fields import ConceptFields
from attn_tutor.problems.fields import (
    DEFAULT_DECIMALS,
    DEFAULT_TOLERANCE,
    HEAD_KEYS,
    NULLS,
    PROBLEM_KEYS,
    ReadMatrix,
)

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

TOP_KEYS = ("title", "problems", "concepts")

KIND_FIELDS = {"sampling": SamplingFields.sampling_problem}
"""How a problem of each kind but attention is read (attention: :meth:`_Reader._problem`)."""




def cell_count(problem: Problem | SamplingProblem) -> int:
    """The score cells a problem holds (the set's size limit): a sampling problem's logits."""
    if isinstance(problem, SamplingProblem):
        return len(problem.tokens) * len(problem.steps)
    return len(problem.heads) * len(problem.tokens) * len(problem.keys)


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
    return Path(__file__).resolve().parents[2] / "problems"


def packaged_sets() -> list[str]:
    """The names of the problem sets that ship with attn-tutor, sorted."""
    folder = _sets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file())


def packaged_path(name: str) -> Path:
    """The file of the packaged set ``name`` (it may not exist: check :func:`packaged_sets`)."""
    return _sets_dir() / f"{name}.yaml"


def load_problem_set(spec: str | None, limits: Limits = HAND_SIZED) -> ProblemSet:
    """``None`` → the packaged ``ch13``; a packaged set's bare name → that set; else a path.

    A bare name (no path separator, no ``.yaml``/``.yml`` suffix) that names a
    packaged set means the packaged set, even if a file of that name exists here.
    ``limits``: the hand-sized ones, or :data:`~attn_tutor.core.model.LARGE` for ``solve --large``.
    """
    if spec is None:
        spec = DEFAULT_SET
    if is_bare_name(spec):
        names = packaged_sets()
        if spec in names:
            path = packaged_path(spec)
            problem_set = load_text(_read_bytes(path, limits), source=str(path), limits=limits)
            return problem_set._replace(source=spec, name=spec)
        if not os.path.lexists(spec):
            raise InvalidProblemSet(
                "problems.no_such_set", Location(spec), sets=", ".join(names) or "-"
            )
    return load_path(spec, limits)


# --- files -----------------------------------------------------------------------


def _read_bytes(path: str | os.PathLike[str], limits: Limits = HAND_SIZED) -> bytes:
    """A problem-set file: a regular file (never a FIFO or device) of at most ``limits.file_bytes``."""

    try:
        return read_regular(path, limits.file_bytes)
    except InputRefused as error:
        found = error.problems[0]
        if found.key == "input.too_large":  # which limit: --large's own, or the hand-sized one --large lifts
            try:
                within_large = os.stat(path).st_size <= LARGE.file_bytes
            except OSError:
                within_large = False
            key = "problems.file_too_large_large" if limits == LARGE else "problems.file_too_large_lifted" if within_large else None
            if key is not None:
                raise InvalidProblemSet(key, found.where, limit=f"{limits.file_bytes:,}", large=f"{LARGE.file_bytes:,}") from None
        raise InvalidProblemSet.many(error.problems) from None


def load_path(path: str | os.PathLike[str], limits: Limits = HAND_SIZED) -> ProblemSet:
    """Read and check the problem-set file at ``path``."""
    return load_text(_read_bytes(path, limits), source=os.fspath(path), limits=limits)


def validate_path(path: str | os.PathLike[str]) -> list[Finding]:
    """Every finding in the file at ``path``; an empty list means it is valid."""
    try:
        load_path(path)
    except InvalidProblemSet as error:
        return list(error.problems)
    return []


def load_text(text: str | bytes, source: str = "<string>", limits: Limits = HAND_SIZED) -> ProblemSet:
    """Parse and check a problem set; raise :class:`InvalidProblemSet` with every finding."""
    return _Reader(source, limits).read(text)


# --- the reader ------------------------------------------------------------------


class _HeadRead(NamedTuple):
    head: Head | None
    projected: bool | None  # None: could not tell (both forms given)
    has_values: bool


class _Context(NamedTuple):
    """What a head's matrices are checked against."""

    n_queries: int | None
    n_keys: int | None
    keys_field: str  # "tokens" or "key_tokens"
    X: ReadMatrix | None
    top_level: bool  # the problem's own matrices, not a head under heads:


class _Reader(ConceptFields, SamplingFields):
    """The document: the top level, each problem and each head; every field read by :class:`Fields`."""

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
            isinstance(root, ScalarNode) and is_plain(root) and root.value in NULLS and root.tag != STR
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
            elif bad.reason:  # a syntax error the catalogue words, where the mistake is
                self.add(f"yaml.{bad.reason}", bad.where, **bad.fields)
            else:
                self.add("problems.yaml_syntax", bad.where, detail=bad.detail)
        return None

    def _scan(self, root: Node, text: str) -> bool:
        """Check tags and duplicate keys (:func:`attn_tutor.core.yamlread.scan`); False after
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
                assert issue.first is not None  # scan gives a duplicate key its first copy
                self.add("problems.duplicate_key", issue.node, path=issue.path, first_line=issue.first.start_mark.line + 1)
        if aliased:
            place, name = yamlread.first_alias(text, self.source)
            self.add("problems.alias", place, name=name)
        return not aliased

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
        if len(items) > self.limits.problems:
            self.over_limit(
                "problems.too_many_problems", top["problems"][1], len(items) <= LARGE.problems,
                path="problems", count=len(items), limit=self.limits.problems, large=LARGE.problems,
            )  # fmt: skip
            return None
        ids: dict[str, int] = {}
        problems = [self._problem(item, i, ids) for i, item in enumerate(items)]
        concepts = self._concepts(top["concepts"][1], problems) if "concepts" in top else ()  # type: ignore[arg-type]
        if self.findings:
            return None
        cells = sum(cell_count(p) for p in problems if p is not None)
        if cells > self.limits.cells:
            self.over_limit(
                "problems.too_many_cells", top["problems"][1], cells <= LARGE.cells,
                path="problems", count=cells, limit=self.limits.cells, large=LARGE.cells,
            )  # fmt: skip
            return None
        # a set holds problems of every kind; ProblemSet types them as attention's, whose fields most code reads
        return ProblemSet(tuple(p for p in problems if p is not None), title=title, source=self.source, concepts=concepts)  # type: ignore[misc]

    def _problem(self, node: Node, index: int, ids: dict[str, int]) -> Problem | SamplingProblem | None:
        path = f"problems[{index}]"
        kind, kind_node = kind_of(node)
        if kind is not None and kind not in KINDS:
            self.add("problems.unknown_kind", kind_node, path=f"{path}.kind", text=kind, kinds=", ".join(KINDS))
            return None
        if kind is not None and kind != "attention":
            return KIND_FIELDS[kind](self, node, path, lambda n, p: self._problem_id(n, p, ids), self._kind_options)
        before = len(self.findings)
        m = self._mapping(node, path, PROBLEM_KEYS if kind is None else (*PROBLEM_KEYS, "kind"), required=("id", "tokens"))
        if m is None:
            return None

        def value(key: str) -> Node | None:
            return m[key][1] if key in m else None

        problem_id = self._problem_id(value("id"), f"{path}.id", ids)
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

        context = _Context(n_q, n_k, keys_field, X, top_level="heads" not in m)
        heads, heads_complete = self._heads(m, node, path, context)

        self._check_x(m, node, path, heads, heads_complete, key_tokens, X)
        has_values = self._has_values(m, path, heads)

        options = self._options(m, path, tokens, n_k, has_values if heads_complete else None)

        if len(self.findings) > before:
            return None
        return Problem(
            # the type: ignore below: each field read without a finding is set (checked just above)
            id=problem_id,  # type: ignore[arg-type]
            tokens=tokens,  # type: ignore[arg-type]
            heads=tuple(h.head for h in heads),  # type: ignore[misc]
            title=title,
            key_tokens=key_tokens,
            X=X.value() if X is not None else None,
            multi_head="heads" in m,
            line=node.start_mark.line + 1,
            **options,
        )

    def _problem_id(self, node: Node | None, path: str, ids: dict[str, int]) -> str | None:
        """The problem's ``id``; one already used by an earlier problem is reported (``ids``: each id's first line)."""
        problem_id = self._text(node, path)
        if problem_id is not None:
            if problem_id in ids:
                self.add("problems.duplicate_id", node, id=problem_id, first_line=ids[problem_id])
            else:
                # the type: ignore below: a node read from the file carries its place
                ids[problem_id] = node.start_mark.line + 1  # type: ignore[union-attr]
        return problem_id

    def _check_x(self, m: dict, node: Node, path: str, heads: list[_HeadRead], heads_complete: bool, key_tokens, X) -> None:
        """``X`` given exactly when a head projects it, with as many rows as ``key_tokens``."""
        projected = any(h.projected for h in heads)
        if projected and "X" not in m:
            self.add("problems.needs_x", node, path=path)
        if "X" in m and heads_complete and heads and not projected:
            self.add("problems.unused_x", m["X"][0], path=f"{path}.X")
        if projected and key_tokens is not None and X is not None and len(key_tokens) != X.n_rows:
            self.add(
                "problems.key_tokens_vs_x",
                m["key_tokens"][1],
                path=f"{path}.key_tokens",
                count=len(key_tokens),
                expected=X.n_rows,
            )

    def _has_values(self, m: dict, path: str, heads: list[_HeadRead]) -> bool:
        """Whether every head gives its values ``V``; some but not all of ``heads:`` giving them is reported."""
        values = [h.has_values for h in heads]
        if "heads" in m and any(values) and not all(values):
            self.add("problems.values_partial", m["heads"][1], path=f"{path}.heads")
        return bool(heads) and all(values)

    def _kind_options(self, m: dict, path: str) -> dict:
        """The options every kind shares (decimals, tolerance), read as attention reads them."""
        options = self._options({k: v for k, v in m.items() if k in ("decimals", "tolerance")}, path, None, None, None)
        return {key: options[key] for key in ("decimals", "tolerance")}

    def _options(self, m: dict, path: str, tokens, n_k: int | None, has_values: bool | None) -> dict:
        """The problem's options, each at its default when not given (or when wrong: reported)."""

        def get(key: str) -> Node | None:
            return m[key][1] if key in m else None

        divide_by = self._divide_by(get("divide_by"), f"{path}.divide_by") if "divide_by" in m else None
        mask: str | Matrix = "none"
        if "mask" in m:
            mask = self._mask(get("mask"), f"{path}.mask", tokens, n_k)
        rows = self._rows(get("rows"), f"{path}.rows", tokens) if "rows" in m else None
        ask = (
            self._ask(get("ask"), f"{path}.ask", has_values)
            if "ask" in m
            else None
        )
        decimals = DEFAULT_DECIMALS
        if "decimals" in m:
            decimals = self._decimals(get("decimals"), f"{path}.decimals")
        tolerance = DEFAULT_TOLERANCE
        if "tolerance" in m:
            tolerance = self._tolerance(get("tolerance"), f"{path}.tolerance")
            if tolerance is not None and tolerance < half_unit(decimals) - 1e-15:
                # tighter than the printed answer itself: typing the key as shown would be marked wrong
                half = fmt_given(half_unit(decimals), decimals + 1)
                self.add("problems.tolerance_below_half", get("tolerance"), path=f"{path}.tolerance",
                         text=fmt_given(tolerance, 12), decimals=decimals, half=half)  # fmt: skip
        return dict(divide_by=divide_by, mask=mask, rows=rows, ask=ask, decimals=decimals, tolerance=tolerance)

    def _heads(self, m: dict, node: Node, path: str, context: _Context) -> tuple[list[_HeadRead], bool]:
        """The problem's heads (under ``heads:`` or its own Q, K, V) and whether every one could be
        read well enough to tell its form."""
        heads: list[_HeadRead] = []
        heads_complete = True  # every head could be read well enough to tell its form
        if "heads" in m:
            for key in HEAD_KEYS:
                if key in m:
                    self.add("problems.heads_and_matrices", m[key][0], path=f"{path}.{key}", field=key)
            items = self._list(m["heads"][1], f"{path}.heads")
            if items is not None and len(items) > self.limits.heads:
                self.over_limit(
                    "problems.too_many_heads", m["heads"][1], len(items) <= LARGE.heads,
                    path=f"{path}.heads", count=len(items), limit=self.limits.heads, large=LARGE.heads,
                )  # fmt: skip
                items = None
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
                heads.append(self._head(head_map, node, path, context))
        if any(h.projected is None for h in heads):
            heads_complete = False
        return heads, heads_complete

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
        matrices: dict[str, ReadMatrix | None] = {}
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
