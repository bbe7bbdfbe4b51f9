"""Reading YAML strictly: the one module that talks to PyYAML's reader.

Both the problem-set loader (:mod:`attn_tutor.problems.load`) and the answer-file
reader (:mod:`attn_tutor.gradebook.answer_yaml`) read through here:

* :func:`compose` — the text to a node tree with the C parser when the wheel has
  it (:func:`loader`); a syntax error becomes one :class:`BadYaml` (kind, place,
  details) whatever PyYAML class it was.
* :func:`scan` — every distinct node visited once: tags outside YAML's core ones,
  non-scalar keys and duplicate keys listed in document order, and whether a node
  was met twice (an alias), without ever expanding one. :func:`first_alias` finds
  the alias in the text to point at.
* :func:`split_keys` — a mapping's (key, value) pairs, its non-scalar keys and
  its repeated keys (each repeat with the first copy).
* :func:`where` — a node's or an event's place as a 1-based :class:`Location`.
* :func:`read_plain` — a hand-written reader for the strict subset of YAML that
  ordinary files use (block mappings by indentation, one-line scalars, one-line flow
  lists of plain scalars, comments); None on anything else, so the caller composes.
  A test holds the answer reader's fast path equal to its composed one; ``grade_speed.py
  --fast-path`` measures what it earns (rapidyaml was weighed: see docs/architecture.md).
* :func:`resolve_plain` — what a plain scalar resolves to, as the composer resolves it.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple, cast

from attn_tutor.core.errors import Location
from attn_tutor.core.text import excerpt

__all__ = [
    "LOADER", "BadYaml", "Leaf", "compose", "first_alias", "is_plain", "read_plain",
    "resolve_plain", "scan", "short_tag", "split_keys", "where",
    "MappingNode", "Node", "ScalarNode", "SequenceNode",
]  # fmt: skip

LOADER = None  # the PyYAML loader class to use; None: the C parser where the wheel has it (see loader())

CORE = "tag:yaml.org,2002:"
STR, NULL, BOOL = CORE + "str", CORE + "null", CORE + "bool"
SEQ, MAP = CORE + "seq", CORE + "map"
SCALAR_TAGS = frozenset(CORE + name for name in ("str", "int", "float", "bool", "null", "timestamp", "merge", "value"))


class _NodeKind(type):
    """PyYAML's node classes, told apart without importing PyYAML (``--help`` stays fast).

    ``isinstance(node, ScalarNode)`` holds for exactly the nodes whose class
    ``yaml.nodes.ScalarNode`` would hold for: PyYAML's nodes carry their kind as ``id``.
    """

    ids: tuple[str, ...]

    def __instancecheck__(cls, node) -> bool:
        return getattr(type(node), "id", None) in cls.ids  # as _kind says it, without a second call


def _kind(node) -> str | None:
    """A node's kind, as PyYAML's node class says it: "scalar", "sequence", "mapping" (None: not a node)."""
    return getattr(type(node), "id", None)


class Node(metaclass=_NodeKind):
    ids: tuple[str, ...] = ("scalar", "sequence", "mapping")
    # what PyYAML's nodes carry, as its stubs say (for the type checker: a node here is always PyYAML's)
    tag: str
    value: Any
    start_mark: Any
    end_mark: Any


class ScalarNode(Node):
    ids = ("scalar",)
    style: str | None


class SequenceNode(Node):
    ids = ("sequence",)


class MappingNode(Node):
    ids = ("mapping",)


def loader():
    """The loader class: :data:`LOADER` if set, else PyYAML's C loader where present."""
    import yaml

    return LOADER or getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def is_plain(node) -> bool:
    """An unquoted scalar (node or event): its style is None (pure-Python loader) or "" (C loader)."""
    return not node.style


def where(file: str, node) -> Location:
    """Where a node or event starts, 1-based."""
    return Location.of_mark(file, node.start_mark)


def short_tag(tag: str) -> str:
    return "!!" + tag[len(CORE) :] if tag.startswith(CORE) else tag


# --- composing ------------------------------------------------------------------


class BadYaml(Exception):
    """Text that is not YAML. ``kind``: control_character, multiple_documents, tab or syntax.

    ``where`` is the place to point at; ``detail`` the parser's words with the
    context's place; ``problem`` its words alone (what answer files quote); ``char``
    the code point of a control character; ``reason`` and ``fields`` the catalogue's
    sentence ``yaml.<reason>`` for a syntax error it knows (:func:`_syntax`), pointing
    where the mistake is rather than where the parser noticed it (an unclosed ``[``
    or a key without ``:`` is noticed at the next line's first token).
    """

    def __init__(
        self, kind: str, where: Location, detail: str = "", problem: str = "", char: int | None = None,
        reason: str = "", args: dict | None = None,
    ) -> None:  # fmt: skip
        super().__init__(detail or problem or kind)
        self.kind, self.where, self.detail, self.problem, self.char = kind, where, detail, problem, char
        # a syntax error told in the catalogue's words: the key "yaml.<reason>" and its arguments ("" if unknown)
        self.reason, self.fields = reason, args or {}


def compose(text: str, source: str) -> Node | None:
    """The one document in ``text`` (None if empty); raises :class:`BadYaml`."""
    import yaml

    try:
        return cast(Node | None, yaml.compose(text, Loader=loader()))  # PyYAML's node: see Node
    except yaml.reader.ReaderError as error:
        char = error.character if isinstance(error.character, int) else ord(error.character)
        index = text.find(chr(char))
        line = text.count("\n", 0, index) + 1 if index >= 0 else None
        column = index - (text.rfind("\n", 0, index) + 1) + 1 if index >= 0 else None
        raise BadYaml("control_character", Location(source, line, column), problem=str(error), char=char) from None
    except yaml.MarkedYAMLError as error:
        raise _marked(error, text, source) from None
    except yaml.YAMLError as error:  # pragma: no cover - every PyYAML error is one of the above
        raise BadYaml("syntax", Location(source), detail=str(error), problem=str(error)) from None
    except RecursionError:  # the pure-Python composer on absurd nesting (libyaml stops at 1000)
        detail = "exceeded maximum nesting depth"
        raise BadYaml("syntax", Location(source), detail=detail, problem=detail) from None


def _marked(error, text: str, source: str) -> BadYaml:
    mark = error.problem_mark or error.context_mark
    place = Location.of_mark(source, mark) if mark else Location(source)
    problem = error.problem or ""
    words = str(error.problem or error.context)
    if error.context == "expected a single document in the stream":
        return BadYaml("multiple_documents", place, problem=words)
    if "tab" in problem or (mark and _char_at(text, mark) == "\t"):
        return BadYaml("tab", place, problem=words)
    detail = problem
    if error.context:
        cm = error.context_mark
        said_at = f" (line {cm.line + 1}, column {cm.column + 1})" if cm else ""
        detail = f"{problem}, {error.context}{said_at}"
    reason, args, at = _syntax(error, text, source)
    return BadYaml("syntax", at or place, detail=detail, problem=words, reason=reason, args=args)


# --- syntax errors in the catalogue's words, at the right place -------------------------------

_LINE_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
#
# PyYAML's C and Python parsers word their errors differently ("mapping values are not
# allowed in this context" / "... here"); each rule below matches both. A rule gives the
# catalogue key's reason, its arguments, and where the mistake is.


def _syntax(error, text: str, source: str) -> tuple[str, dict, Location | None]:
    context, problem = error.context or "", error.problem or ""
    pm, cm = error.problem_mark, error.context_mark
    lines = _LINE_BREAKS.split(text)  # as PyYAML counts lines: \u2028 and \x85 break them too

    def at(line: int, column: int) -> Location:  # 0-based in, 1-based out
        return Location(source, line + 1, column + 1)

    def opened(mark) -> dict:
        return {"open": _char_of(text, mark) or "[", "line": mark.line + 1, "column": mark.column + 1}

    if "mapping values are not allowed" in problem and pm:
        return "colon_in_value", {}, at(pm.line, pm.column)
    if "simple key" in context and "expected ':'" in problem and cm:
        return "missing_colon", {"text": excerpt(lines[cm.line].strip())}, at(cm.line, _content_end(lines[cm.line]))
    if "quoted scalar" in context and "end of stream" in problem and cm:
        return "unclosed_quote", {"quote": _char_of(text, cm) or '"'}, at(cm.line, cm.column)
    if "escape character" in problem and pm:
        line = text_line(lines, pm.line)
        column = pm.column - 1 if line[pm.column : pm.column + 1] != "\\" and line[pm.column - 1 : pm.column] == "\\" else pm.column
        return "escape", {}, at(pm.line, column)
    if ("flow sequence" in context or "flow mapping" in context or "flow node" in context) and (pm or cm):
        noticed = pm or cm
        bracket = opened(cm) if cm and _char_of(text, cm) in ("[", "{") else _unclosed_bracket(text, noticed)
        if bracket is not None:
            bracket["close"] = "]" if bracket["open"] == "[" else "}"
            last = _last_content(lines, noticed.line, noticed.column)
            if last is not None and last[0] < noticed.line:  # noticed on a later line: the bracket was never closed
                return "unclosed_bracket", bracket, at(*last)
            before = _last_content(lines, noticed.line, 0)
            if noticed.line >= bracket["line"] and before is not None and lines[before[0]][before[1] - 1] not in ",[{":
                return "unclosed_bracket", bracket, at(*before)  # a new line that does not go on the list above
            return "flow_expected", bracket, at(noticed.line, noticed.column)
    if "cannot start any token" in problem and pm:
        return "reserved_character", {"char": _char_of(text, pm)}, at(pm.line, pm.column)
    if "undefined alias" in problem and pm:
        name = re.match(r"\*([^\s,\[\]{}]*)", text_line(lines, pm.line)[pm.column :])
        return "undefined_alias", {"name": excerpt(name.group(1) if name else "")}, at(pm.line, pm.column)
    if ("an alias" in context or "an anchor" in context) and cm:
        return "bad_anchor", {"char": _char_of(text, cm)}, at(cm.line, cm.column)
    if "block scalar" in context and cm:
        return "block_scalar", {"char": _char_of(text, cm)}, at(cm.line, cm.column)
    if "directive" in context or "document start" in problem:
        for number, line in enumerate(lines):
            if line.startswith("%"):
                return "directive", {}, at(number, 0)
    if ("block collection" in context or "block mapping" in context) and pm and cm:
        last = _last_content(lines, pm.line, pm.column)
        kind = "list" if "collection" in context else "mapping"
        for number in range(cm.line, min(pm.line + 1, len(lines))):
            item = re.match(r"\s*-(?=[^\s-])", lines[number])
            if item:  # "-id: a": a key named "-id", not a list item
                return "dash_space", {"text": excerpt(lines[number].strip()[1:])}, at(number, item.end() - 1)
        if last is not None and last[0] == pm.line:  # more on the line after a value that was complete
            return "after_value", {"text": excerpt(lines[pm.line][pm.column :].strip())}, at(pm.line, pm.column)
        return f"indentation_{kind}", {"line": cm.line + 1, "column": cm.column + 1}, at(pm.line, pm.column)
    return "", {}, None


def text_line(lines: list[str], index: int) -> str:
    return lines[index] if 0 <= index < len(lines) else ""


def _content_end(line: str) -> int:
    """The 0-based column just after a line's last character before any comment."""
    body = re.sub(r"\s+#.*$", "", line).rstrip()
    return len(body)


def _last_content(lines: list[str], line: int, column: int) -> tuple[int, int] | None:
    """The end (line, column after it; 0-based) of the last content before a place, comments and blanks skipped."""
    head = text_line(lines, line)[:column]
    if head.strip() and not head.lstrip().startswith("#"):
        return line, len(head.rstrip())
    for number in range(min(line, len(lines)) - 1, -1, -1):
        end = _content_end(lines[number])
        if end and not lines[number].lstrip().startswith("#"):
            return number, end
    return None


def _char_of(text: str, mark) -> str:
    return text[mark.index] if 0 <= mark.index < len(text) else ""


def _unclosed_bracket(text: str, mark) -> dict | None:
    """The last '[' or '{' before ``mark`` that is not closed before it (quotes and comments skipped)."""
    if mark is None:
        return None
    stack: list[int] = []
    quote = ""
    for index, ch in enumerate(text[: mark.index]):
        if quote:
            quote = "" if ch == quote or (quote == "\n" and ch in "\r\x85\u2028\u2029") else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (index == 0 or text[index - 1] in " \t\n"):
            quote = "\n"  # a comment, to the end of its line
        elif ch in "[{":
            stack.append(index)
        elif ch in "]}" and stack:
            stack.pop()
    if not stack:
        return None
    index = stack[-1]
    before = _LINE_BREAKS.split(text[:index])
    return {"open": text[index], "line": len(before), "column": len(before[-1]) + 1}


def _char_at(text: str, mark) -> str:
    lines = text.splitlines()
    if 0 <= mark.line < len(lines) and 0 <= mark.column < len(lines[mark.line]):
        return lines[mark.line][mark.column]
    return ""


# --- checking the tree ----------------------------------------------------------


def split_keys(node: MappingNode) -> tuple[list[tuple[ScalarNode, Node]], list[Node], list[tuple[ScalarNode, ScalarNode]]]:
    """A mapping's (scalar key, value) pairs, its non-scalar keys, and each repeated key with its first copy."""
    pairs, bad, repeats = [], [], []
    first: dict[str, ScalarNode] = {}
    for key, value in node.value:
        if not isinstance(key, ScalarNode):
            bad.append(key)
            continue
        pairs.append((key, value))
        if key.value in first:
            repeats.append((key, first[key.value]))
        else:
            first[key.value] = key
    return pairs, bad, repeats


class Issue(NamedTuple):
    """Something :func:`scan` found: kind is tag, bad_key or duplicate_key."""

    kind: str
    node: Node
    path: str  # the YAML path of the mapping (bad_key) or the key's own path (duplicate_key)
    first: Node | None = None  # duplicate_key: the first copy


def _join(path: str, key: str) -> str:
    """A YAML path for a message; a key from the file is quoted short and sanitised."""

    key = excerpt(key, 30)
    return f"{path}.{key}" if path else key


def scan(root: Node) -> tuple[list[Issue], bool]:
    """(issues, aliased): a node's tag outside YAML's core ones (its children then skipped),
    non-scalar keys and repeated keys; ``aliased`` when some node is met twice (an alias or
    a cycle), each distinct node visited once so nothing is ever expanded."""
    issues: list[Issue] = []
    seen: set[int] = set()
    stack: list[tuple[Node, str]] = [(root, "")]
    aliased = False
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            aliased = True
            continue
        seen.add(id(node))
        kind = _kind(node)  # once per node: each isinstance of a node kind is a call of its own
        if kind == "scalar":
            allowed = node.tag in SCALAR_TAGS
        elif kind == "sequence":
            allowed = node.tag == SEQ
        else:
            allowed = node.tag == MAP
        if not allowed:
            issues.append(Issue("tag", node, path))
            continue
        if kind == "sequence":
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(node.value))
        elif kind == "mapping":
            first: dict[str, Node] = {}
            for key, value in node.value:
                stack.append((key, path))
                if _kind(key) != "scalar":
                    issues.append(Issue("bad_key", key, path))
                    continue
                child = _join(path, key.value)
                if key.value in first:
                    issues.append(Issue("duplicate_key", key, child, first[key.value]))
                else:
                    first[key.value] = key
                stack.append((value, child))
    return issues, aliased


def first_alias(text: str, source: str) -> tuple[Location, str]:
    """The first alias in the text: its place and its anchor's name."""
    import yaml

    for event in yaml.parse(text, Loader=loader()):
        if isinstance(event, yaml.AliasEvent):
            return Location.of_mark(source, event.start_mark), event.anchor or "?"  # (an alias always names one)
    return Location(source), "?"  # pragma: no cover


# --- the fast path --------------------------------------------------------------


@functools.cache
def _resolver():
    import yaml

    return yaml.resolver.Resolver()  # stateless: resolving a plain scalar's tag


def resolve_plain(value: str) -> str:
    """The tag YAML resolves a plain scalar with this text to."""
    import yaml

    return _resolver().resolve(yaml.ScalarNode, value, (True, False))


class Leaf(NamedTuple):
    """A value :func:`read_plain` read, with where it starts (1-based, as :func:`where` gives).

    ``style``: "" plain, "'" or '"' quoted (``value`` the text between the quotes,
    escapes applied), "[" a flow list (``value`` the tuple of its items' texts, every
    item plain). An empty value is a plain "" placed just after its colon, where the
    composer places it.
    """

    value: str | tuple[str, ...]
    style: str
    line: int
    column: int


# What the fast path reads (the patterns' sources; compiled by _fast_path() when a
# reader is first made: `solve` composes and never compiles them, at start-up). Any
# other character (a tab, a control character, a lone CR, NEL, LS/PS, a BOM, a
# surrogate) in a line sends the text to the composer. Written as the odd characters
# themselves: the complement of the readable ranges, the same set, compiles in a
# seventh of the time.
_ODD = r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
_INDICATORS = r"""\-?:,\[\]{}#&*!|>'"%@`"""
# A plain scalar in block context: not starting with an indicator ("-" only before a
# non-space, as in -1), no ": " or final ":", no " #" (a comment starts there).
_PLAIN = rf"(?:[^{_INDICATORS} ]|-(?! |$))(?:[^ :]|:(?! |$)| +(?=[^ #]))*"
# One line of a block mapping: indent, plain key, colon, then nothing, a plain scalar,
# a single-quoted scalar without '' in it, a double-quoted one with only one-letter
# escapes, or a one-line flow list; then spaces or a comment.
_LINE = (
    rf"( *)(?!\.\.\.)([^{_INDICATORS} ][^:#]*?) *(:)"
    rf"""(?: +(?:({_PLAIN})|'([^']*)'|"((?:[^"\\]|\\[0abtnvfre "/\\N_LP])*)"|\[([^\[\]{{}}#'"]*)\]))?(?: +#.*| *)\Z"""
)
# A flow list's inside: plain items (no ":" or "?" in them), separated by commas.
_ITEM = r"(?:[^\-?:,#&*!|>%@` ]|-(?![ ,]|$))(?:[^ :?,]| +(?=[^ ,]))*"
_ITEMS = rf" *(?:{_ITEM} *(?:, *{_ITEM} *)*)?\Z"
_ESCAPE = r"\\(.)"
_ESCAPED = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
            " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}  # fmt: skip
_SKIP = r" *(?:#.*)?\Z"  # a blank line or a comment line
_DOCUMENT_START = r"---(?: +#.*| *)\Z"


@functools.cache
def _fast_path() -> tuple[re.Pattern, ...]:
    """The fast path's patterns (odd, line, items, escape, skip, document start), compiled
    once, when the first reader is made."""
    return tuple(map(re.compile, (_ODD, _LINE, _ITEMS, _ESCAPE, _SKIP, _DOCUMENT_START)))


_MAX_DEPTH = 64  # deeper nesting is left to the composer (libyaml has its own limit)
_MAX_KEY = 1000  # YAML's simple keys stop at 1024 characters
_BLANK = ("blank",)  # a line read as blank or a comment


def read_plain(text: str) -> dict | None:
    """An ordinary YAML document as a tree, or None; see :class:`PlainReader` (one-off, nothing kept)."""
    return PlainReader()(text)


class PlainReader:
    """A hand-written reader for the strict subset of YAML that ordinary files use.

    ``reader(text)`` gives nested dicts of str keys with :class:`Leaf` values, or None.
    The subset: block mappings nested by indentation (spaces, any consistent width),
    plain keys that YAML resolves to str, each key once per mapping; on the key's line
    nothing (a deeper mapping follows, or the value is empty), a one-line plain or
    quoted scalar, or a one-line flow list of plain scalars; blank lines, comments,
    one leading ``---``, LF or CRLF line ends. Anything else — tabs, anchors, aliases,
    tags, block scalars, sequences, flow mappings, multi-line scalars, directives,
    several documents, odd characters — gives None: :func:`compose` reads it and
    reports what is wrong. Places equal the composer's (a test holds them equal).

    One per run: each distinct line's reading is remembered (a class's files share
    most of their lines), up to ``limit`` lines; nothing is kept between runs.
    """

    def __init__(self, limit: int = 50_000) -> None:
        self._odd, self._key_line, self._items, self._escape, self._skip, self._document_start = _fast_path()
        self._lines: dict[str, tuple] = {}
        self._limit = limit

    def __call__(self, text: str) -> dict | None:
        if "\r" in text:
            text = text.replace("\r\n", "\n")  # a lone CR is left in its line, for _line to refuse
        indents: list[int] = []  # each open mapping's indent, outermost first
        maps: list[dict] = []
        pending = None  # (mapping, key, indent) of the last key if nothing followed its colon
        mapping: dict = {}
        top, started, known, new = -1, False, self._lines, tuple.__new__
        for number, line in enumerate(text.split("\n"), 1):
            info = known.get(line)
            if info is None:
                info = self._line(line)
                if info is None:  # neither a key's line nor a blank one: perhaps the document's start
                    if maps or started or self._odd.search(line) is not None or not self._document_start.match(line):
                        return None  # (held to the odd characters as every line: a lone CR in its comment breaks the line)
                    started = True
                    continue
                if len(known) < self._limit:
                    known[line] = info
            if info is _BLANK:
                continue
            indent, key, style, value, column = info
            if pending is not None:  # the last key had nothing after its colon
                parent, above, outer = pending
                pending = None
                if indent > outer:  # its value is a mapping, nested by this line's indent
                    if len(maps) >= _MAX_DEPTH:
                        return None
                    parent[above] = mapping = {}
                    indents.append(indent)
                    maps.append(mapping)
                    top = indent
            if indent != top:
                if not _close(indents, maps, indent):
                    return None
                mapping, top = maps[-1], indent
            if key in mapping:
                return None
            if style is None:
                mapping[key] = new(Leaf, ("", "", number, column))
                pending = (mapping, key, indent)
            else:
                mapping[key] = new(Leaf, (value, style, number, column))
        return maps[0] if maps else None

    def _line(self, line: str) -> tuple | None:
        """(indent, key, style, value, column) for a key's line (style None: nothing after the
        colon, column the empty value's), :data:`_BLANK` for a blank or comment line, else None
        (also for any character outside :data:`_ODD`'s set: only remembered lines skip the check)."""
        if self._odd.search(line) is not None:
            return None
        m = self._key_line.match(line)
        if m is None:
            return _BLANK if self._skip.match(line) else None
        indent, key, kind = m.end(1), m.group(2), m.lastindex
        if m.start(3) - indent > _MAX_KEY or resolve_plain(key) != STR:
            return None
        if kind == 3:
            return (indent, key, None, "", m.end(3) + 1)
        if kind == 4:
            return (indent, key, "", m.group(4), m.start(4) + 1)
        if kind == 5:  # quoted: the place is the opening quote's
            return (indent, key, "'", m.group(5), m.start(5))
        if kind == 6:
            value = m.group(6)
            return (indent, key, '"', self._escape.sub(_unescape, value) if "\\" in value else value, m.start(6))
        inside = m.group(7)
        if self._items.match(inside) is None:
            return None
        items = tuple(item.strip(" ") for item in inside.split(",")) if inside.strip(" ") else ()
        return (indent, key, "[", items, m.start(7))


def _close(indents: list[int], maps: list[dict], indent: int) -> bool:
    """Back to the open mapping at ``indent`` (the first one: the document's); False where YAML would not nest so."""
    if not maps:
        indents.append(indent)
        maps.append({})
        return True
    while indents[-1] > indent:
        indents.pop()
        maps.pop()
        if not indents:
            return False
    return indents[-1] == indent


def _unescape(m: re.Match) -> str:
    return _ESCAPED[m.group(1)]
