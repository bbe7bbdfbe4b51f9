"""Document blocks as a PDF, typeset by Typst (the ``typst`` package ships its compiler).

The same blocks as the HTML and LaTeX worksheets: each
:class:`~attn_tutor.render.blocks.PageBreak` starts a new page (one per variant), every
table sits in an unbreakable block with its title and note, so no table is split
across pages (worked arithmetic may continue on the next page, and so may a key
table longer than a page, its header repeated), and answer boxes
are empty cells with solid black borders, tall enough to write in, that print the
same in black and white. A4 by default, or Letter.

Every text enters the Typst source as a string literal (:func:`string`), never as
markup, so no token can be read as Typst syntax (``#``, ``*``, ``$``, ``[`` ...).

Korean needs a Hangul font. :func:`hangul_font` takes the first of the usual ones
(Noto Sans CJK KR, Noto Sans KR, NanumGothic, Malgun Gothic, Apple SD Gothic Neo,
UnDotum) that Typst can *load* — a damaged file of the right name is skipped with a
sentence — from the folders in ``ATTN_TUTOR_FONT_DIRS`` first, then the system's
font folders, and last the subset of Noto Sans CJK KR that ships inside the package
(``render/fonts/``), so a PDF needs no system font. Typst is handed that font's
folder alone (the system's other fonts are not searched: faster, and the same fonts
every run). If none loads and the document has Hangul, :func:`render_pdf` refuses
with a sentence naming what to install rather than print empty boxes. The PDF has no
creation date, so the same input gives the same bytes.

A long document (many variants) is typeset in chunks of pages that end at a page
break, each chunk's source made as it is written out, by a Python process of its own
(:func:`typeset_files`) that hands Typst's memory back when it ends, so memory stays flat
however many variants there are; :mod:`attn_tutor.render.pdfjoin` then joins the chunks
into one PDF with one outline, continuous page numbers and the document's metadata.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeGuard

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import language, set_language, t
from attn_tutor.render import pdfjoin, terminal
from attn_tutor.render.blocks import Bars, Block, Fields, Heading, Instructions, Math, PageBreak, Paragraph, Table, display_width

# Hangul families in order of preference, and (lower-cased) file names that usually hold one:
# a file of such a name that does not load is named when it is skipped
HANGUL_FONTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Noto Sans CJK KR", ("notosanscjk-regular.ttc", "notosanscjkkr-regular.otf", "notosanscjk-regular.otf")),
    ("Noto Sans KR", ("notosanskr-regular.ttf", "notosanskr-regular.otf", "notosanskr[wght].ttf", "notosanskr-variablefont_wght.ttf")),
    ("NanumGothic", ("nanumgothic.ttf", "nanumgothic-regular.ttf")),
    ("Malgun Gothic", ("malgun.ttf",)),
    ("Apple SD Gothic Neo", ("applesdgothicneo.ttc",)),
    ("UnDotum", ("undotum.ttf",)),
)
BUNDLED_FONTS = Path(__file__).with_name("fonts")  # a subset of Noto Sans CJK KR, regular and bold (fonts/README.md)
_FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")
EMBEDDED_FALLBACK = ("Libertinus Serif", "New Computer Modern Math")  # shipped inside Typst: symbols such as ᵀ
MONO = "DejaVu Sans Mono"  # shipped inside Typst
WIDE = 7  # tables with more columns than this share the page width
_NUMERIC = re.compile(r"[-+0-9.,|—∞()% ]*")  # a column of numbers is aligned right, others left
LONG = 30  # a table with more rows than this (a key table) may run over pages, its header repeated


def user_font_dirs() -> list[Path]:
    """The folders named in ``ATTN_TUTOR_FONT_DIRS`` (separated by ``os.pathsep``): searched first."""
    return [Path(p) for p in os.environ.get("ATTN_TUTOR_FONT_DIRS", "").split(os.pathsep) if p]


def system_font_dirs() -> list[Path]:
    """The folders where this system keeps fonts."""
    home = Path.home()
    if sys.platform == "darwin":
        return [Path("/System/Library/Fonts"), Path("/Library/Fonts"), home / "Library/Fonts"]
    if sys.platform == "win32":
        windir = Path(os.environ.get("WINDIR", r"C:\Windows"))
        dirs = [windir / "Fonts"]
        if os.environ.get("LOCALAPPDATA"):
            dirs.append(Path(os.environ["LOCALAPPDATA"]) / "Microsoft/Windows/Fonts")
        return dirs
    data_dirs = os.environ.get("XDG_DATA_DIRS", "/usr/local/share:/usr/share").split(":")
    return [Path(d) / "fonts" for d in data_dirs if d] + [home / ".local/share/fonts", home / ".fonts"]


def font_dirs() -> list[Path]:
    """Where a Hangul font is looked for, in order: ``ATTN_TUTOR_FONT_DIRS``, the system's folders,
    then the package's own font."""
    return [*user_font_dirs(), *system_font_dirs(), BUNDLED_FONTS]


def _font_tiers(dirs: list[Path]) -> list[list[Path]]:
    """``dirs`` in tiers that are searched one after the other: the user's, the system's, the package's."""
    user = set(user_font_dirs())
    tiers: list[list[Path]] = [[], [], []]
    for folder in dirs:
        tiers[0 if folder in user else 2 if folder == BUNDLED_FONTS else 1].append(folder)
    return [tier for tier in tiers if tier]


def _font_files(folders: list[Path]) -> list[Path]:
    files = []
    for top in folders:
        if top.is_dir():
            for folder, _subdirs, names in os.walk(top):
                files += [Path(folder) / name for name in sorted(names) if name.lower().endswith(_FONT_SUFFIXES)]
    return files


def _loadable(folders: list[Path]) -> tuple[tuple[str, str], ...]:
    """(family, file) of every face in ``folders`` that Typst can load."""
    key = [str(f) for f in folders if f.is_dir()]
    if not key:
        return ()
    import typst

    found = typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=key).fonts()
    return tuple(sorted({(face.family, str(face.path)) for face in found if face.path}))


_searched: dict[tuple[Path, ...], tuple[tuple[str, Path] | None, tuple[Path, ...]]] = {}


def _search(dirs: tuple[Path, ...]) -> tuple[tuple[str, Path] | None, tuple[Path, ...]]:
    """The Hangul font of :func:`hangul_font` and the damaged files passed over on the way (once per process)."""
    if dirs in _searched:
        return _searched[dirs]
    rank = {family: n for n, (family, _) in enumerate(HANGUL_FONTS)}
    hinted = {name for _, names in HANGUL_FONTS for name in names}
    skipped: list[Path] = []
    found = None
    for tier in _font_tiers(list(dirs)):
        faces = _loadable(tier)
        loaded = {os.path.realpath(path) for _, path in faces}
        skipped += [
            f
            for f in _font_files(tier)
            if (f.name.lower() in hinted or f.parent == BUNDLED_FONTS) and os.path.realpath(f) not in loaded
        ]
        best = min((face for face in faces if face[0] in rank), key=lambda face: (rank[face[0]], face[1]), default=None)
        if best is not None:
            found = best[0], Path(best[1]).parent
            break
    _searched[dirs] = found, tuple(skipped)
    return _searched[dirs]


def hangul_font(dirs: list[Path] | None = None, *, skipped: list[Path] | None = None) -> tuple[str, Path] | None:
    """The first Hangul font that loads: its family and the folder holding it; None if there is none.

    Fonts are checked by loading them (Typst's own reader), not by their names: a damaged
    ``NanumGothic.ttf`` is passed over, and appended to ``skipped`` when given. Folders are
    searched in tiers (:func:`font_dirs`); within one, the family earliest in :data:`HANGUL_FONTS` wins.
    """
    found, passed_over = _search(tuple(font_dirs() if dirs is None else dirs))
    if skipped is not None:
        skipped += passed_over
    return found


def has_hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" or "\u1100" <= ch <= "\u11ff" or "\u3130" <= ch <= "\u318f" for ch in text)


def string(text: str) -> str:
    """``text`` as a Typst string literal. Control characters become U+FFFD."""
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch in "\n\t":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cs") or ch in "\u2028\u2029\u0085":
            out.append("\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _strong(text: str) -> str:
    return f"strong({string(text)})"


def _table(block: Table) -> str:
    columns = len(block.header) - 1
    wide = columns > WIDE
    if block.blank:
        # a box is 20 mm, wider when its key needs it (never broken inside a word), 1fr when many
        boxes = [max(20.0, round(display_width(h) * 1.9 + 5.0, 1)) for h in block.header[1:]]
        wide = wide or sum(boxes) > 150
        spec = "(auto, " + ", ".join("1fr" if wide else f"{b:g}mm" for b in boxes) + ",)"
        stroke = "1.2pt + black"
        rows = "(auto, 11mm)"
        align = "(left + horizon, " + ", ".join(["center + horizon"] * columns) + ",)"
    else:
        spec = "(auto, " + ", ".join(["1fr" if wide else "auto"] * columns) + ",)"
        stroke = "0.6pt + luma(35%)"
        rows = "auto"
        sides = ["right" if all(_NUMERIC.fullmatch(row[c]) for row in block.rows) else "left" for c in range(1, columns + 1)]
        align = "(left + horizon, " + ", ".join(f"{side} + horizon" for side in sides) + ",)"
    cells = [f"table.header({', '.join(_strong(h) for h in block.header)})"]
    for row in block.rows:
        cells.append(_strong(row[0]))
        for cell in row[1:]:
            if cell == "—":
                cells.append(f"table.cell(fill: luma(85%), align: center + horizon, {string(cell)})")
            else:
                cells.append(string(cell))
    size = "8.5pt" if wide else "10pt"
    breakable = "true" if len(block.rows) > LONG else "false"
    parts = [f"#block(breakable: {breakable}, width: 100%, below: 5mm, {{"]
    if block.title:
        parts.append(f"  block(below: 2mm, sticky: true, {_strong(block.title)})")
    parts.append(
        f"  text(size: {size}, table(columns: {spec}, rows: {rows}, align: {align}, stroke: {stroke}, "
        f"inset: (x: 2mm, y: 1.4mm), {', '.join(cells)}))"
    )
    if block.note:
        parts.append(f"  block(above: 1.5mm, text(size: 9pt, {string(block.note)}))")
    parts.append("})")
    return "\n".join(parts)


def _math(block: Math) -> str:
    lines = []
    if block.title:
        lines.append(f"#block(sticky: true, below: 2mm, {_strong(block.title)})")
    body = "(" + ", ".join(string(line) for line in block.lines) + ",).join(\"\\n\")"
    lines.append(
        "#block(breakable: true, width: 100%, inset: (left: 3mm, y: 1mm), stroke: (left: 1.5pt + black), below: 5mm, "
        f"raw({body}, block: true))"
    )
    return "\n".join(lines)


def _bars(block: Bars) -> str:
    cells = []
    for bar in block.bars:
        length = round(max(0.0, min(1.0, bar.fraction)) * 60, 1)
        cells += [string(bar.label), f"box(width: {length:g}mm, height: 3mm, fill: black)", string(bar.text)]
    return (
        f"#block(breakable: false, below: 5mm, {{ block(below: 2mm, {_strong(block.title)}); "
        f"grid(columns: (auto, 62mm, auto), column-gutter: 3mm, row-gutter: 1.5mm, align: horizon, {', '.join(cells)}) }})"
    )


def _fields(block: Fields) -> str:
    cells = []
    for label, value in block.fields:
        if value:
            cells.append(
                f"[#strong({string(label + ':')}) #box(stroke: 1.2pt + black, inset: (x: 2mm, y: 1.2mm), raw({string(value)}))]"
            )
        else:
            cells.append(f"[#strong({string(label)}) #box(width: 38mm, height: 5mm, stroke: (bottom: 0.8pt + black))]")
    return f"#block(below: 5mm, grid(columns: {len(cells)}, column-gutter: 6mm, align: bottom, {', '.join(cells)}))"


def _block(block: Block) -> str:
    if isinstance(block, Heading):
        return f"#heading(level: {min(max(block.level, 1), 3)}, {string(block.text)})"
    if isinstance(block, Paragraph):
        return f"#par({string(block.text)})"
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Bars):
        return _bars(block)
    if isinstance(block, Math):
        return _math(block)
    if isinstance(block, Instructions):
        return "#enum(" + ", ".join(string(item) for item in block.items) + ",)"
    if isinstance(block, Fields):
        return _fields(block)
    if isinstance(block, PageBreak):
        return "#pagebreak()"
    raise TypeError(f"cannot draw {type(block).__name__} with Typst")


NUMBERED = '"1 / 1"'  # the footer: "page / pages"


def _head(*, title: str, paper: str, font: str | None, numbering: str = NUMBERED) -> str:
    """The document's settings: page, fonts, headings, and the pages' ``numbering`` (Typst: a pattern or none)."""
    families = ([font] if font else []) + list(EMBEDDED_FALLBACK)
    fonts = "(" + ", ".join(string(f) for f in families) + ",)"
    mono = "(" + ", ".join(string(f) for f in [MONO, *([font] if font else []), *EMBEDDED_FALLBACK]) + ",)"
    head = [
        "// A worksheet made by attn-tutor.",
        f"#set document(title: {string(title)}, date: none)",
        f"#set page(paper: {string('us-letter' if paper == 'letter' else 'a4')}, margin: (x: 14mm, top: 14mm, bottom: 16mm), "
        f"numbering: {numbering})",
        f"#set text(font: {fonts}, size: 10.5pt, lang: {string('ko' if language() == 'ko' else 'en')})",
        "#set par(leading: 0.65em, spacing: 1em)",
        "#set enum(spacing: 0.8em)",
        f"#show raw: set text(font: {mono}, size: 9pt)",
        "#show heading: set block(sticky: true, above: 1.4em, below: 0.8em)",
        "#show heading.where(level: 1): set text(size: 16pt)",
        "#show heading.where(level: 2): it => block(width: 100%, stroke: (top: 1.5pt + black), inset: (top: 1.5mm), "
        "sticky: true, above: 1.6em, below: 0.8em, text(size: 13pt, it.body))",
        "#show heading.where(level: 3): set text(size: 11pt)",
        "#show table.cell.where(y: 0): set align(center + horizon)",
    ]
    return "\n".join(head) + "\n\n"


def source(blocks: list[Block], *, title: str, paper: str = "a4", font: str | None = None) -> str:
    """The Typst document for ``blocks``; ``font`` is the Hangul family (None: Typst's own fonts)."""
    return _head(title=title, paper=paper, font=font) + "\n\n".join(_body(blocks)) + "\n"


def footers(first: int, pages: int, total: int, *, title: str, paper: str = "a4", font: str | None = None) -> str:
    """``pages`` empty pages holding only the footers of pages ``first``, ``first + 1`` ... of ``total``
    ("12 / 140", as :data:`NUMBERED` prints them): laid over the pages of a document typeset in
    chunks (:func:`render_pdf`), so its numbers run on as in one document."""
    numbering = f'(..n) => numbering({NUMBERED}, n.pos().first(), {total})'
    return (
        _head(title=title, paper=paper, font=font, numbering=numbering)
        + f"#counter(page).update({first})\n#box()\n#for _ in range({pages - 1}) {{ pagebreak() }}\n"
    )  # box(): the first page is set in the document's font too


LINE_MM = 178.0  # the text width of A4 less the margins, a little to spare on Letter


def _side_by_side(block: Block) -> TypeGuard[Table]:
    """A small table of values (givens, a key's stage): set beside its neighbours, as the HTML does."""
    return isinstance(block, Table) and not block.blank and len(block.header) - 1 <= WIDE and len(block.rows) <= LONG


def _width_mm(block: Table) -> float:
    """About how wide a table of values is set (10 pt text: a wide character ~3.7 mm)."""
    columns = list(zip(block.header, *block.rows))
    width = sum(max(display_width(cell) for cell in column) * 1.9 + 4.0 for column in columns)
    return max(width, display_width(block.title or "") * 2.1)


def _body(blocks: list[Block]) -> list[str]:
    """Each block's source; runs of small tables of values share a row while they fit the line."""
    out: list[str] = []
    run: list[Table] = []

    def flush() -> None:
        while run:
            row: list[Table] = []
            used = 0.0
            while run and (not row or used + _width_mm(run[0]) + 8.0 <= LINE_MM):
                used += _width_mm(run[0]) + 8.0
                row.append(run.pop(0))
            if len(row) == 1:
                out.append(_table(row[0]))
            else:
                cells = ", ".join("[" + _table(table) + "]" for table in row)
                out.append(f"#grid(columns: {len(row)}, column-gutter: 8mm, align: top, {cells})")

    for block in blocks:
        if _side_by_side(block):
            run.append(block)
            continue
        flush()
        out.append(_block(block))
    flush()
    return out


def _all_text(blocks: list[Block]) -> str:
    parts: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    for block in blocks:
        walk(tuple(block))
    return "\n".join(parts)


def _give_back_memory() -> None:
    """Hand the memory a chunk freed back to the system (glibc keeps it otherwise, and the heap
    grows by fragments chunk after chunk: 2.5 MB a chunk); elsewhere nothing to do."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):  # not glibc (musl): no malloc_trim
            pass


_told: set[Path] = set()
CHUNK_CHARS = 240_000  # Typst source typeset at once (about 60 pages): Typst's memory grows with it
# Typst keeps what a compile made until ten compiles have not used it (typst-py calls comemo::evict(10)
# after each): so many empty compiles after a chunk let its layouts go before the next chunk's are made,
# and memory stays that of one chunk (without them, of ten: 1.15x the memory, 0.85x the time, at 100 variants)
SETTLE = 9


def _pages(blocks: list[Block]) -> Iterator[list[Block]]:
    """``blocks`` cut at every page break, a page at a time."""
    page: list[Block] = []
    for block in blocks:
        if isinstance(block, PageBreak):
            yield page
            page = []
        else:
            page.append(block)
    yield page


def _chunks(bodies: Iterable[str]) -> Iterator[list[str]]:
    """Consecutive pages' sources, packed while they stay under :data:`CHUNK_CHARS` (a longer page is a
    chunk alone), a chunk at a time: a long document's source is never held whole."""
    chunk: list[str] = []
    size = 0
    for body in bodies:
        if chunk and size + len(body) > CHUNK_CHARS:
            yield chunk
            chunk, size = [], 0
        chunk.append(body)
        size += len(body)
    yield chunk


def render_pdf(
    blocks: list[Block], *, title: str, paper: str = "a4", font_dirs_: list[Path] | None = None, quiet: bool = True
) -> bytes:
    """The PDF's bytes. Refuses (``export.no_hangul_font``) when Korean text has no font to print in.

    A document longer than :data:`CHUNK_CHARS` of Typst source is typeset in chunks that
    end at page breaks and joined (:func:`attn_tutor.render.pdfjoin.join`): one outline,
    the page numbers of one document laid over from :func:`footers`, the same bytes for
    the same input. ``quiet=False`` lets Typst's warnings through (the tests make them errors).
    """
    skipped: list[Path] = []
    found = hangul_font(font_dirs_, skipped=skipped)
    for path in skipped:
        if path not in _told:  # once a run, not once a hand-back sheet
            _told.add(path)
            terminal.plain(t("export.font_unreadable", path=str(path)), stderr=True)
    if found is None and has_hangul(_all_text(blocks) + title):
        searched = ", ".join(str(d) for d in (font_dirs() if font_dirs_ is None else font_dirs_))
        raise AttnTutorError("export.no_hangul_font", dirs=searched)
    family, folder = found if found is not None else (None, None)
    settings: dict[str, Any] = {"title": title, "paper": paper, "font": family}
    chunks = _chunks("\n\n".join(_body(page)) for page in _pages(blocks))
    first = next(chunks)
    second = next(chunks, None)
    if second is None:
        compile_, _ = _typesetter(folder, quiet)
        return compile_(_head(**settings) + "\n\n#pagebreak()\n\n".join(first) + "\n")
    chunks = itertools.chain((first, second), chunks)
    del first, second  # each chunk's source let go once written
    return _joined(chunks, settings, folder, quiet)


def _typesetter(folder: Path | str | None, quiet: bool):
    """``(compile_, settle)``: a Typst compiler that sees the fonts of ``folder`` only (None: Typst's own),
    as a function from a document's source to its PDF, and one that lets the last compile's layouts go."""
    import typst

    compiler = typst.Compiler(font_paths=[str(folder)] if folder else [], ignore_system_fonts=True)

    def compile_(document: str) -> bytes:
        with warnings.catch_warnings():
            if quiet:
                warnings.simplefilter("ignore")  # about our own source, not the user's input; tests see them
            try:
                # untagged: a tagged PDF is seven times the size and twice the memory; the HTML
                # export is the accessible one (screen readers), the PDF is for printing
                pdf = compiler.compile(document.encode("utf-8"), format="pdf", pdf_tags=False)
            except Exception as error:  # typst.TypstError: our source did not compile; say so in a sentence
                first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                raise AttnTutorError("export.pdf_failed", reason=first) from None
        assert isinstance(pdf, bytes)  # one PDF, given no output path: its bytes
        return pdf

    def settle() -> None:  # the last compile's cached layouts let go (comemo evicts after 10 compiles)
        for _ in range(SETTLE):
            compiler.compile(b"", format="pdf", pdf_tags=False)
        _give_back_memory()

    return compile_, settle


def _joined(chunks: Iterator[list[str]], settings: dict, folder: Path | None, quiet: bool) -> bytes:
    """The PDF of ``chunks`` (lists of pages' source): each chunk's source written to a file as it is
    made, all typeset with their page numbers by another process (:func:`typeset_files`), then
    joined by :func:`pdfjoin.join`.

    Another process, because Typst's memory is the process's: what it loaded and cached (the
    Hangul fonts, its layouts) stays after the compiler is dropped, about 130 MB, and would sit
    under the join; a process of its own hands all of it back when it ends. This one never
    loads Typst's compiler, and holds the blocks and the join only."""
    head = _head(**settings, numbering="none")
    with tempfile.TemporaryDirectory(prefix="attn-tutor-pdf-") as tmp:
        count = 0
        for chunk in chunks:
            (Path(tmp) / f"chunk-{count:05d}.typ").write_text(head + "\n\n#pagebreak()\n\n".join(chunk) + "\n", encoding="utf-8")
            count += 1
            del chunk
        _typeset_apart(Path(tmp), settings, folder, quiet)
        parts = [Path(tmp) / f"chunk-{n:05d}.pdf" for n in range(count)]
        numbers = sorted(Path(tmp).glob("footers-*.pdf"))
        joined = Path(tmp) / "joined.pdf"
        pdfjoin.join(parts, numbers, joined)
        _give_back_memory()  # the join's objects, before the joined file is read
        return joined.read_bytes()


def _typeset_apart(directory: Path, settings: dict, folder: Path | None, quiet: bool) -> None:
    """:func:`typeset_files` of ``directory`` run by a new Python process; its failure raised here as
    ``export.pdf_failed`` with the sentence it gave (or how it ended)."""
    root = str(Path(__file__).resolve().parents[2])  # the folder that holds this attn_tutor package
    code = "import sys; sys.path.insert(0, sys.argv[1]); from attn_tutor.render.typst import typeset_files; typeset_files(*sys.argv[2:])"
    told = {**settings, "language": language()}  # a new process speaks only what it is told
    command = [sys.executable, "-c", code, root, str(directory), json.dumps(told), str(folder or ""),
               "quiet" if quiet else "warnings", str(pdfjoin.FOOTER_PAGES)]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise AttnTutorError("export.pdf_failed", reason=lines[-1] if lines else f"exit status {done.returncode}")


def typeset_files(directory: str, settings: str, folder: str, quiet: str, footer_pages: str) -> None:
    """In a process of its own (:func:`_typeset_apart`): every ``chunk-NNNNN.typ`` of ``directory``
    typeset into ``chunk-NNNNN.pdf``, in turn (the source removed once typeset), then the page numbers of all their pages into
    ``footers-NNNNNNN.pdf``, ``footer_pages`` pages a file. ``settings`` is the document's
    :func:`footers` settings as JSON, with the language it is in; ``quiet`` is ``"quiet"`` or ``"warnings"`` (Typst's warnings
    are then errors). A failure is written to standard error as one sentence, and the process ends
    with status 1."""
    if quiet != "quiet":
        warnings.simplefilter("error")
    compile_, settle = _typesetter(folder or None, quiet == "quiet")
    pages = int(footer_pages)
    told = json.loads(settings)
    set_language(told.pop("language"))  # this process's, for its whole life
    try:
        total = 0
        for source in sorted(Path(directory).glob("chunk-*.typ")):
            source.with_suffix(".pdf").write_bytes(compile_(source.read_text(encoding="utf-8")))
            source.unlink()  # done with: the sources on disk shrink as the PDFs grow
            settle()
            total += pdfjoin.page_count(source.with_suffix(".pdf"))
        for start in range(0, total, pages):
            document = footers(start + 1, min(pages, total - start), total, **told)
            (Path(directory) / f"footers-{start:07d}.pdf").write_bytes(compile_(document))
            settle()
    except AttnTutorError as error:
        sys.stderr.write(str(error.problems[0].args.get("reason", error)) + "\n")
        raise SystemExit(1) from None
