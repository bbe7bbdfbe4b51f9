"""Reading YAML strictly: the one module that talks to PyYAML's reader.

Both the problem-set loader (:mod:`attn_tutor.problem_load`) and the answer-file
reader (:mod:`attn_tutor.gradebook.answer_yaml`) read through here:

* :func:`compose` — the text to a node tree with the C parser when the wheel has
  it (:data:`LOADER`); a syntax error becomes one :class:`BadYaml` (kind, place,
  details) whatever PyYAML class it was.
* :func:`scan` — every distinct node visited once: tags outside YAML's core ones,
  non-scalar keys and duplicate keys listed in document order, and whether a node
  was met twice (an alias), without ever expanding one. :func:`first_alias` finds
  the alias in the text to point at.
* :func:`split_keys` — a mapping's (key, value) pairs, its non-scalar keys and
  its repeated keys (each repeat with the first copy).
* :func:`where` — a node's or an event's place as a 1-based :class:`Location`.
* :class:`Events` — the parser's events one by one for a fast path that gives up
  (:class:`Unusual`) on anything the composing path would have to report; a test
  holds the answer reader's fast path equal to its composed one.
* :class:`PlainTags` — what a plain scalar resolves to, remembered per reader
  object (never in a module-level cache).
"""

from __future__ import annotations

from typing import NamedTuple

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
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from attn_tutor.errors import Location

__all__ = [
    "LOADER", "BadYaml", "Events", "PlainTags", "Unusual", "compose", "first_alias", "is_plain",
    "resolve_plain", "scan", "short_tag", "split_keys", "where",
    "MappingNode", "Node", "ScalarNode", "SequenceNode",
    "DocumentEndEvent", "DocumentStartEvent", "MappingEndEvent", "MappingStartEvent", "ScalarEvent",
    "SequenceEndEvent", "SequenceStartEvent", "StreamEndEvent", "StreamStartEvent",
]  # fmt: skip

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser where the wheel has it

CORE = "tag:yaml.org,2002:"
STR, NULL, BOOL = CORE + "str", CORE + "null", CORE + "bool"
SEQ, MAP = CORE + "seq", CORE + "map"
SCALAR_TAGS = frozenset(CORE + name for name in ("str", "int", "float", "bool", "null", "timestamp", "merge", "value"))
YAMLError = yaml.YAMLError


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
    the code point of a control character.
    """

    def __init__(self, kind: str, where: Location, detail: str = "", problem: str = "", char: int | None = None) -> None:
        super().__init__(detail or problem or kind)
        self.kind, self.where, self.detail, self.problem, self.char = kind, where, detail, problem, char


def compose(text: str, source: str) -> Node | None:
    """The one document in ``text`` (None if empty); raises :class:`BadYaml`."""
    try:
        return yaml.compose(text, Loader=LOADER)
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


def _marked(error: yaml.MarkedYAMLError, text: str, source: str) -> BadYaml:
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
        at = f" (line {cm.line + 1}, column {cm.column + 1})" if cm else ""
        detail = f"{problem}, {error.context}{at}"
    return BadYaml("syntax", place, detail=detail, problem=words)


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
    from attn_tutor.inputs import excerpt

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
        if isinstance(node, ScalarNode):
            allowed = node.tag in SCALAR_TAGS
        elif isinstance(node, SequenceNode):
            allowed = node.tag == SEQ
        else:
            allowed = node.tag == MAP
        if not allowed:
            issues.append(Issue("tag", node, path))
            continue
        if isinstance(node, SequenceNode):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(node.value))
        elif isinstance(node, MappingNode):
            first: dict[str, Node] = {}
            for key, value in node.value:
                stack.append((key, path))
                if not isinstance(key, ScalarNode):
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
    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, yaml.AliasEvent):
            return Location.of_mark(source, event.start_mark), event.anchor
    return Location(source), "?"  # pragma: no cover


# --- the fast path --------------------------------------------------------------


class Unusual(Exception):
    """The fast path met something only the composing path handles."""


_RESOLVER = yaml.resolver.Resolver()  # stateless: resolving a plain scalar's tag


def resolve_plain(value: str) -> str:
    """The tag YAML resolves a plain scalar with this text to."""
    return _RESOLVER.resolve(ScalarNode, value, (True, False))


class PlainTags:
    """What YAML resolves a plain scalar to (the C composer asks the same resolver), remembered."""

    def __init__(self, limit: int = 100_000) -> None:
        self._known: dict[str, str] = {}
        self._limit = limit

    def __call__(self, value: str) -> str:
        tag = self._known.get(value)
        if tag is None:
            tag = resolve_plain(value)
            if len(self._known) < self._limit:
                self._known[value] = tag
        return tag


class Events:
    """The parser's events for one document, for a reader that gives up on anything unusual.

    Use as a context manager; every helper raises :class:`Unusual` where the node
    graph could differ from the events or where the composing path would report
    something: anchors, aliases, tags, directives, several documents, a syntax error.
    """

    def __init__(self, text: str) -> None:
        try:
            self._loader = LOADER(text)
        except Exception:  # noqa: BLE001 - whatever it is, the composing reader meets it too
            raise Unusual from None
        self.next = self._loader.get_event  # the parser's own method: this is the hot loop

    def __enter__(self) -> Events:
        return self

    def __exit__(self, kind, error, trace) -> None:
        self._loader.dispose()
        if kind is not None and issubclass(kind, yaml.YAMLError):
            raise Unusual from None

    def begin(self) -> None:
        """The stream's start, a plain document's start (no directives) and a mapping's start."""
        if self.next().__class__ is not StreamStartEvent:
            raise Unusual
        e = self.next()
        if e.__class__ is not DocumentStartEvent or e.version is not None or e.tags is not None:
            raise Unusual
        self.start(self.next(), MappingStartEvent)

    def end(self) -> None:
        """The document's end and the stream's: nothing after the first document."""
        if self.next().__class__ is not DocumentEndEvent or self.next().__class__ is not StreamEndEvent:
            raise Unusual

    def key(self) -> str | None:
        """The next mapping key, or None at the mapping's end."""
        e = self.next()
        cls = e.__class__
        if cls is MappingEndEvent:
            return None
        if cls is not ScalarEvent or e.anchor is not None or e.tag is not None:
            raise Unusual
        return e.value

    @staticmethod
    def start(e, cls) -> None:
        if e.__class__ is not cls or e.anchor is not None or e.tag is not None:
            raise Unusual

    def scalar(self):
        """The next event, which must be an untagged, unanchored scalar."""
        e = self.next()
        if e.__class__ is not ScalarEvent or e.anchor is not None or e.tag is not None:
            raise Unusual
        return e
