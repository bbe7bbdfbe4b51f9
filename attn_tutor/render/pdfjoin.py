"""PDFs typeset in chunks, joined into the one document they would have been.

:func:`attn_tutor.render.typst.render_pdf` typesets a long document (hundreds of
variants) a chunk of pages at a time, so that Typst's memory stays flat; this joins
the chunks with pikepdf (qpdf): every page in order, one outline (each chunk's
bookmarks in turn), page labels 1, 2, 3 ... over the whole document, the first
chunk's title, language and viewer settings, its XMP metadata with the whole page
count, and the page numbers of one document ("12 / 140"), typeset once for all pages
by Typst and laid over each page. The bytes depend only on the chunks' bytes.

pikepdf rather than pypdf: joining 7,000 pages takes it a fifth of the time and a
third of the memory (qpdf is C++ and copies streams without decoding them).

The chunks are files, not bytes: qpdf reads a file's objects as they are needed and
leaves the copied pages' stream data in the chunk's file until it writes the joined
document, straight to a file too, so the join holds the pages' dictionaries, not their
content (999 variants, 7,000 pages).
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

FOOTER_PAGES = 1000  # footers typeset at once (each batch embeds its digits once)


def page_count(path: Path) -> int:
    """How many pages the PDF file ``path`` has."""
    import pikepdf

    with pikepdf.Pdf.open(path) as pdf:
        return len(pdf.pages)


def join(parts: list[Path], footers: list[Path], output: Path) -> None:
    """``output``: one PDF of the pages of the PDF files ``parts``, in turn, with the pages of the PDF
    files ``footers`` (only the page numbers, :data:`FOOTER_PAGES` pages a file but the last) laid over
    them one to one. The files must stay where they are until ``output`` is written."""
    import pikepdf

    sources = [pikepdf.Pdf.open(part) for part in parts]
    total = sum(len(source.pages) for source in sources)
    out = pikepdf.Pdf.new()
    first = sources[0]
    outlines: list[pikepdf.Dictionary] = []
    for source in sources:
        out.pages.extend(source.pages)
        tree = source.Root.get("/Outlines")
        if tree is not None and "/First" in tree:
            outlines.append(out.copy_foreign(tree))  # its page references are the pages just copied
    # each footer a small form laid over its page, under a name of our own (add_overlay's are random);
    # the streams that wrap the page's own content, and each batch's resources, shared by every page
    before = out.make_indirect(out.make_stream(b"q\n"))
    after = out.make_indirect(out.make_stream(b"Q\nq /PageNumber Do Q\n"))
    start = 0
    for numbers_file in footers:
        numbers = pikepdf.Pdf.open(numbers_file)
        sources.append(numbers)
        count = len(numbers.pages)
        if start + count > total:
            raise ValueError(f"{start + count} footers for {total} pages")
        resources = shared = None
        for page, footer in zip(out.pages[start : start + count], numbers.pages):
            if footer.Resources.unparse() != shared:
                shared = footer.Resources.unparse()
                resources = out.copy_foreign(numbers.make_indirect(footer.Resources))
            form = out.make_stream(
                footer.Contents.read_bytes(), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                BBox=pikepdf.Array([float(x) for x in footer.MediaBox]), Resources=resources,
            )
            page.add_resource(form, pikepdf.Name.XObject, pikepdf.Name("/PageNumber"))
            page.contents_add(before, prepend=True)
            page.contents_add(after)
        start += count
    if start != total:
        raise ValueError(f"{start} footers for {total} pages")
    _join_outlines(out, outlines)
    out.Root.PageLabels = pikepdf.Dictionary(Nums=pikepdf.Array([0, pikepdf.Dictionary(S=pikepdf.Name.D, St=1)]))
    for key in ("/Lang", "/ViewerPreferences"):
        if key in first.Root:
            out.Root[key] = _copy(out, first, first.Root[key])
    if "/Info" in first.trailer:
        out.trailer.Info = _copy(out, first, first.trailer.Info)
    if "/Metadata" in first.Root:
        out.Root.Metadata = out.make_stream(_metadata(first.Root.Metadata.read_bytes(), total, parts))
        out.Root.Metadata.Type = pikepdf.Name.Metadata
        out.Root.Metadata.Subtype = pikepdf.Name.XML
    out.save(output, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    for source in sources:
        source.close()


def _copy(out, source, obj):
    """``obj`` of ``source`` copied into ``out`` (a direct object by way of an indirect one)."""
    return out.copy_foreign(obj if obj.is_indirect else source.make_indirect(obj))


def _join_outlines(out, trees: list) -> None:
    """The chunks' outlines as one: their top-level items in turn under one root."""
    import pikepdf

    if not trees:
        return
    root = out.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Outlines))
    count = 0
    last = None
    for tree in trees:
        item = tree.First
        if last is not None:
            last.Next = item
            item.Prev = last
        while True:
            item.Parent = root
            if "/Next" not in item:
                break
            item = item.Next
        last = item
        count += int(tree.get("/Count", 0))
    root.First = trees[0].First
    root.Last = last
    root.Count = count
    out.Root.Outlines = root


def _metadata(xmp: bytes, pages: int, parts: list[Path]) -> bytes:
    """The first chunk's XMP with the whole document's page count and an identifier of all of it."""
    text = xmp.decode("utf-8")
    text = re.sub(r"<xmpTPg:NPages>\d+</xmpTPg:NPages>", f"<xmpTPg:NPages>{pages}</xmpTPg:NPages>", text)
    digest = hashlib.sha256()
    for part in parts:
        with part.open("rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    ident = base64.b64encode(digest.digest()[:16]).decode("ascii")
    text = re.sub(r"<xmpMM:(InstanceID|DocumentID)>[^<]*</xmpMM:\1>", lambda m: f"<xmpMM:{m[1]}>{ident}</xmpMM:{m[1]}>", text)
    return text.encode("utf-8")
