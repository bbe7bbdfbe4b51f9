"""Reading a problem set's fields from YAML nodes: shapes, text, numbers, matrices and options.

The generic half of the loader (:mod:`attn_tutor.problems.load`): :class:`Fields`
reads one field at a time, reports each finding with its place and keeps going,
so a teacher sees every problem at once. The rules for numbers are in the
loader's docstring.
"""

from __future__ import annotations

import math
import re
import unicodedata
from decimal import Decimal
from typing import NamedTuple

from attn_tutor.core.errors import Finding, InvalidProblemSet, Location
from attn_tutor.core.model import (
    DECIMALS_MAX,
    DIVIDE_BY_MAX,
    DIVIDE_BY_MIN,
    ENTRY_DECIMALS_MAX,
    ENTRY_MAX,
    HAND_SIZED,
    LARGE,
    NUMBER_MAX,
    STAGES,
    TEXT_MAX,
    TOLERANCE_MAX,
    Limits,
    Matrix,
    stage_name,
)
from attn_tutor.core.text import did_you_mean, excerpt, first_unsafe
from attn_tutor.core.yamlread import STR, MappingNode, Node, ScalarNode, SequenceNode, is_plain, resolve_plain

HEAD_KEYS = ("Q", "K", "V", "W_Q", "W_K", "W_V")
PROBLEM_KEYS = (
    "id", "title", "tokens", "key_tokens", "X", *HEAD_KEYS, "heads",
    "divide_by", "mask", "rows", "ask", "decimals", "tolerance",
)  # fmt: skip

DEFAULT_DECIMALS = 3
DEFAULT_TOLERANCE = None  # the default that fits decimals: attn_tutor.marking.tolerance


_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_INTEGER = re.compile(r"[-+]?[0-9]+")
_NON_FINITE = re.compile(r"[-+]?\.?(?:inf|infinity|nan)", re.IGNORECASE)
_BOOLEANS = frozenset({"yes", "no", "on", "off", "true", "false"})  # what PyYAML reads as bools
NULLS = frozenset({"", "~", "null", "Null", "NULL"})



class ReadMatrix(NamedTuple):
    """A matrix as read: rows of floats (None where an entry was bad)."""

    node: Node
    rows: list[list[float | None]]
    width: int | None  # the common row length, None if rows are missing or ragged

    @property
    def n_rows(self) -> int:
        return len(self.node.value)

    def value(self) -> Matrix:
        # the type: ignore below: read only when no entry was bad (a bad one is a finding, and the set is refused)
        return tuple(tuple(row) for row in self.rows)  # type: ignore[arg-type]


def shown(node: Node) -> str:
    """A scalar as the teacher wrote it, for quoting in a message."""

    if isinstance(node, ScalarNode):
        if node.style in ('"', "'"):
            return f"{node.style}{excerpt(node.value)}{node.style}"
        return f"'{excerpt(node.value.strip())}'"
    return "[...]" if isinstance(node, SequenceNode) else "{...}"


def _join(path: str, key: str) -> str:
    """A YAML path for a message; a key from the file is quoted short and sanitised."""

    key = excerpt(key, 30)
    return f"{path}.{key}" if path else key


def _hand_sized(text: str, value: float) -> str | None:
    """None for an entry a student can work by hand; else why not: too large, or too many decimals."""
    if abs(value) > ENTRY_MAX:
        return "too_large"
    if "." not in text and "e" not in text and "E" not in text:
        return None  # an integer has no decimals (most entries: no Decimal made at start-up)
    exponent = Decimal(text).normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > ENTRY_DECIMALS_MAX:
        return "decimals"
    return None


class Fields:
    """Findings so far and the readers of each kind of field (the loader's :class:`_Reader` builds on it)."""

    def __init__(self, source: str, limits: Limits = HAND_SIZED) -> None:
        self.source = source
        self.limits = limits
        self.findings: list[Finding] = []
        self.bad: set[int] = set()  # nodes already reported (a bad tag): skip them later

    # -- findings -----------------------------------------------------------------

    def add(self, message: str, where: Node | Location | None = None, /, **args: object) -> None:
        if isinstance(where, Node):
            where = Location.of_mark(self.source, where.start_mark)
        elif where is None:
            where = Location(self.source)
        self.findings.append(Finding(message, args, where))

    def over_limit(self, key: str, where: Node | None, within_large: bool, **args: object) -> None:
        """A size past ``self.limits``, said with the limit it is past: under ``solve --large``
        ``key``'s ``_large`` sentence (even --large allows no more); past the hand-sized limit but
        ``within_large``, ``key``'s ``_lifted`` sentence (how far --large goes); else ``key``'s own."""
        if self.limits == LARGE:
            key += "_large"
        elif within_large:
            key += "_lifted"
        self.add(key, where, **args)

    def fail(self) -> InvalidProblemSet:
        order = sorted(
            self.findings, key=lambda f: (f.where.line or 0, f.where.column or 0) if f.where else (0, 0)
        )
        return InvalidProblemSet.many(order)

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
            suggestion = did_you_mean(name, allowed)
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
        if isinstance(node, ScalarNode) and is_plain(node) and node.value in NULLS:
            self.add("problems.empty_list", node, path=path)
            return None
        if not isinstance(node, SequenceNode):
            self.add(not_a_list, node, path=path)
            return None
        if not node.value:
            self.add("problems.empty_list", node, path=path)
            return None
        return list(node.value)

    def _text(self, node: Node | None, path: str, limit: int = TEXT_MAX) -> str | None:
        node = self._scalar(node, path)
        if node is None:
            return None
        value = node.value.strip("\n") if node.style in ("|", ">") else node.value
        if (is_plain(node) and value in NULLS) or not value.strip():
            self.add("problems.empty_text", node, path=path)
            return None
        return self._clean(value, node, path, limit)

    def _clean(self, value: str, node: Node, path: str, limit: int = TEXT_MAX) -> str | None:
        """Text from the file, NFC-normalised; a control or invisible character, or an overlong text, is an error."""

        at = first_unsafe(value)
        if at is not None:
            self.add("problems.unsafe_character", node, path=path, char=f"U+{ord(value[at]):04X}", position=at + 1)
            return None
        if len(value) > limit:
            self.add("problems.text_too_long", node, path=path, count=len(value), limit=limit)
            return None
        return unicodedata.normalize("NFC", value)

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
            elif (is_plain(item) and item.value in NULLS) or not item.value.strip():
                self.add("problems.empty_item", item, path=path, item=i)
                ok = False
            elif (clean := self._clean(item.value, item, f"{path} entry {i}")) is None:
                ok = False
            else:
                out.append((clean, item))
        return out if ok else None

    def _tokens(self, node: Node | None, path: str) -> tuple[str, ...] | None:
        items = self._text_list(node, path)
        if items is None:
            return None
        if len(items) > self.limits.tokens:
            self.over_limit(
                "problems.too_many_tokens", node, len(items) <= LARGE.tokens,
                path=path, count=len(items), limit=self.limits.tokens, large=LARGE.tokens,
            )  # fmt: skip
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
        if node.tag == STR and resolve_plain(text) != STR:
            return None, "quoted"  # written with an explicit !!str
        if text in NULLS:
            return None, "missing"
        if _NUMBER.fullmatch(text):
            value = float(text)
            if not math.isfinite(value) or abs(value) > NUMBER_MAX:
                return None, "too_large"
            return value, None
        if text.lower() in _BOOLEANS:
            return None, "boolean"
        if _NON_FINITE.fullmatch(text):
            return None, "not_finite"
        return None, "not_number"

    def _matrix(
        self, node: Node | None, path: str, ref_width: int | None = None, ref: str | None = None
    ) -> ReadMatrix | None:
        """A list of rows of numbers; row lengths checked against ``ref``'s width or row 1."""
        if self._list(node, path, "problems.expected_matrix") is None:
            return None
        assert isinstance(node, SequenceNode)  # _list read its items
        if all(isinstance(row, ScalarNode) for row in node.value):  # a flat list: [1, 2]
            self.add("problems.expected_matrix", node, path=path)
            return None
        if self._too_large(node, path):
            return None
        rows = [self._matrix_row(row, path, r) for r, row in enumerate(node.value, start=1)]
        lengths = [None if values is None else len(values) for values in rows]
        width = self._width(node, path, lengths, ref_width, ref)
        return ReadMatrix(node, [values or [] for values in rows], width)

    def _too_large(self, node: SequenceNode, path: str) -> bool:
        """True, after saying so in one sentence (not a finding per entry), for a matrix larger than the limits."""
        most_rows, most_cols = max(self.limits.tokens, self.limits.dim), self.limits.dim
        if len(node.value) > most_rows or any(isinstance(row, SequenceNode) and len(row.value) > most_cols for row in node.value):
            widest = max((len(row.value) for row in node.value if isinstance(row, SequenceNode)), default=0)
            large_rows = max(LARGE.tokens, LARGE.dim)
            self.over_limit(
                "problems.matrix_too_large", node, len(node.value) <= large_rows and widest <= LARGE.dim,
                path=path, rows=len(node.value), cols=widest, max_rows=most_rows, max_cols=most_cols,
                large_rows=large_rows, large_cols=LARGE.dim,
            )  # fmt: skip
            return True
        return False

    def _matrix_row(self, row: Node, path: str, r: int) -> list[float | None] | None:
        """Row ``r``'s numbers (None for an entry that is wrong: reported), or None for a row that is not a list of entries."""
        if not self._usable(row):
            return None
        if not isinstance(row, SequenceNode):
            self.add("problems.row_not_list", row, path=path, row=r)
            return None
        if not row.value:
            self.add("problems.empty_row", row, path=path, row=r)
            return None
        values: list[float | None] = []
        for c, entry in enumerate(row.value, start=1):
            if not self._usable(entry):
                values.append(None)
                continue
            value, problem = self._number(entry)
            if problem is None:
                problem = _hand_sized(entry.value, value)  # type: ignore[arg-type]  # no problem: value is a number
            if problem is not None:
                self.add(f"problems.entry_{problem}", entry, path=path, row=r, col=c, text=shown(entry))
                value = None
            values.append(value)
        return values

    def _width(self, node: SequenceNode, path: str, lengths: list[int | None], ref_width: int | None, ref: str | None) -> int | None:
        """The matrix's width: ``ref_width`` or row 1's length, each row of another length reported;
        None when a row differs or could not be read."""
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
        return width

    def _count_rows(self, matrix: ReadMatrix | None, path: str, expected: int | None, field: str) -> None:
        if matrix is not None and expected is not None and matrix.n_rows != expected:
            self.add(
                "problems.rows_vs_tokens",
                matrix.node,
                path=path,
                count=matrix.n_rows,
                tokens_key=field,
                expected=expected,
            )

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
        if problem is None and value is not None and DIVIDE_BY_MIN <= value <= DIVIDE_BY_MAX:
            return value
        self.add("problems.divide_by", scalar, path=path, text=shown(scalar))
        return None

    def _mask(self, node: Node | None, path: str, tokens, n_keys: int | None):
        if not self._usable(node):
            return "none"
        if isinstance(node, ScalarNode):
            if node.value in ("none", "causal"):
                return node.value
            self.add("problems.mask_word", node, path=path, text=shown(node))
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
                    self.add("problems.entry_boolean", entry, path=path, row=r, col=c, text=shown(entry))
                elif problem is not None or value not in (0.0, 1.0):
                    self.add("problems.mask_entry", entry, path=path, row=r, col=c, text=shown(entry))
                else:
                    entries.append(int(value))
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
                suggestion = did_you_mean(token, tokens)
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
                suggestion = did_you_mean(stage, STAGES)
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
        if problem is None and _INTEGER.fullmatch(scalar.value) and 0 <= int(scalar.value) <= DECIMALS_MAX:
            return int(scalar.value)
        self.add("problems.decimals", scalar, path=path, text=shown(scalar))
        return DEFAULT_DECIMALS

    def _tolerance(self, node: Node | None, path: str) -> float | None:
        scalar = self._scalar(node, path)
        if scalar is None:
            return DEFAULT_TOLERANCE
        value, problem = self._number(scalar)
        if problem is None and value is not None and 0 < value <= TOLERANCE_MAX:
            return value
        self.add("problems.tolerance", scalar, path=path, text=shown(scalar))
        return DEFAULT_TOLERANCE


def _one(message: str, count: int) -> str:
    """The singular form of a "has N numbers" message when N is 1."""
    return f"{message}_1" if count == 1 else message
