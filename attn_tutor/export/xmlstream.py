"""XML written as a stream, element by element, with the bytes ElementTree would give for the whole tree.

A question bank of 30 variants is tens of megabytes of XML: built as one ElementTree
and serialised at once it costs several times that in memory. Here a document is a
tree of :class:`Streamed` containers whose children come from an iterator, each child
either another container or an ordinary ``Element`` that is built, written and
dropped. The text is what ``ET.indent(root)`` then ``ET.tostring(root,
encoding="unicode")`` gives for the tree built whole (two spaces a level, a
childless container as ``<tag />``), so streaming changes no byte; the tests check
it against the whole tree. (lxml's incremental ``etree.xmlfile`` would write other
bytes: ``<tag/>``, the declaration in single quotes, namespaces before attributes; see
docs/architecture.md.)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO

SPACE = "  "
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


@dataclass
class Streamed:
    """An element whose children are made as they are written."""

    tag: str
    attrib: dict[str, str] = field(default_factory=dict)
    children: Iterable[ET.Element | Streamed] = ()


def _start_tag(node: Streamed) -> str:
    empty = ET.tostring(ET.Element(node.tag, node.attrib), encoding="unicode")  # <tag a="b" />
    return empty[: -len(" />")] + ">"


def serialize(write: Callable[[str], None], node: ET.Element | Streamed, level: int = 0) -> None:
    """Write ``node`` (without a tail) as it stands in a tree indented by ``ET.indent`` at ``level``."""
    if isinstance(node, ET.Element):
        ET.indent(node, SPACE, level)
        node.tail = None
        write(ET.tostring(node, encoding="unicode"))
        return
    children = iter(node.children)
    first = next(children, None)
    if first is None:
        write(ET.tostring(ET.Element(node.tag, node.attrib), encoding="unicode"))
        return
    write(_start_tag(node))
    inner = "\n" + SPACE * (level + 1)
    write(inner)
    serialize(write, first, level + 1)
    for child in children:
        write(inner)
        serialize(write, child, level + 1)
    write("\n" + SPACE * level + f"</{node.tag}>")


class Utf8Writer:
    """Text written to a binary stream as UTF-8, in pieces of about ``chunk`` characters."""

    def __init__(self, stream: IO[bytes], chunk: int = 1 << 16) -> None:
        self.stream, self.chunk = stream, chunk
        self.parts: list[str] = []
        self.size = 0

    def __call__(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.chunk:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.stream.write("".join(self.parts).encode("utf-8"))
            self.parts, self.size = [], 0


def write_document(stream: IO[bytes], root: ET.Element | Streamed) -> None:
    """An XML file: the declaration, ``root`` and a final newline, as UTF-8 bytes to ``stream``."""
    write = Utf8Writer(stream)
    write(DECLARATION)
    serialize(write, root)
    write("\n")
    write.flush()


def materialize(node: ET.Element | Streamed) -> ET.Element:
    """The whole tree of ``node`` as one ElementTree element (what streaming avoids; for checking it)."""
    if isinstance(node, ET.Element):
        return node
    element = ET.Element(node.tag, node.attrib)
    element.extend(materialize(child) for child in node.children)
    return element


def whole_document(root: ET.Element | Streamed) -> bytes:
    """The bytes of :func:`write_document`, made the old way: the whole tree, indented, then serialised."""
    element = materialize(root)
    ET.indent(element, SPACE)
    return (DECLARATION + ET.tostring(element, encoding="unicode") + "\n").encode("utf-8")
