"""Hand-back sheets' files: each marked student's sheet (a
:class:`~attn_tutor.gradebook.handback.Sheet`, made in the worker that marked them) under a file
name of their own.

:class:`SheetFiles` spools each row's page under a file name of its own student's
(:class:`FileNames`: safe on any system, distinct), checks every target once the class is
marked, and writes them through :mod:`attn_tutor.core.writing`. The sheet itself, its blocks and
its page, is :mod:`attn_tutor.gradebook.handback`'s.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from attn_tutor.core.errors import AttnTutorError, Finding, UsageError
from attn_tutor.core.i18n import language, t
from attn_tutor.core.spool import Spool
from attn_tutor.core.text import excerpt
from attn_tutor.core.writing import InputFiles, make_directory, refuse_overwrite, write_atomic
from attn_tutor.gradebook.handback import FORMATS
from attn_tutor.render import typst as typeset  # its names looked up when used: tests point font_dirs elsewhere

MAX_NAME_BYTES = 120  # of the stem; file systems allow 255 bytes a name
_RESERVED = re.compile(r"(?i)\A(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)\Z")  # Windows devices
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]')


# --- file names ----------------------------------------------------------------------------


def is_device_name(stem: str) -> bool:
    """Whether Windows takes a file named ``stem`` (with any extension after it) for a device: the
    part before the first dot, trailing spaces and dots dropped as Windows drops them, is one of
    ``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM0``–``COM9``, ``LPT0``–``LPT9``, ``CONIN$``,
    ``CONOUT$`` (any case)."""
    return _RESERVED.match(stem.split(".", 1)[0].rstrip(" .")) is not None


def safe_stem(name: str) -> str:
    """A file-name stem for a student's name: NFC, no separators, controls or reserved names."""
    text = unicodedata.normalize("NFC", name or "")
    text = _UNSAFE.sub("_", text)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else "_" for ch in text)
    text = re.sub(r"\s+", " ", text).strip(" ._")  # no leading dot (hidden), no trailing dot or space (Windows)
    text = re.sub(r"\A-+", "_", text)  # a leading "-" reads as an option to every command
    if not text or set(text) <= {".", "_", " "}:
        text = "student"
    if is_device_name(text):
        text = "_" + text
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_NAME_BYTES:
        text = encoded[:MAX_NAME_BYTES].decode("utf-8", "ignore").rstrip(" ._") or "student"
    return text


class FileNames:
    """One distinct file name per student, given as the students come: equal or
    case-insensitively equal names (the same file on Windows and macOS) get ``-2``,
    ``-3``... in the order met."""

    def __init__(self, suffix: str = ".html") -> None:
        self.suffix = suffix
        self._taken: set[str] = set()

    def name(self, student: str) -> str:
        stem = safe_stem(student)
        candidate, n = stem, 1
        while unicodedata.normalize("NFC", (candidate + self.suffix).casefold()) in self._taken:
            n += 1
            candidate = f"{stem}-{n}"
        self._taken.add(unicodedata.normalize("NFC", (candidate + self.suffix).casefold()))
        return candidate + self.suffix


def file_names(names: Sequence[str], suffix: str = ".html") -> list[str]:
    """One distinct file name per student, in order (see :class:`FileNames`)."""
    given = FileNames(suffix)
    return [given.name(name) for name in names]


def needs_hangul(names: Sequence[str], columns) -> bool:
    """Whether a class's sheets will have Korean in them: the language, a name, a problem or token."""

    return (
        language() == "ko"
        or any(typeset.has_hangul(name or "") for name in names)
        or any(typeset.has_hangul(problem + token) for problem, token, _ in columns)
    )


class SheetFiles:
    """``--feedback DIR``: each row's sheet under a file name of its own student's, spooled as the rows
    come (so memory stays flat), checked once the class is marked, then written."""

    def __init__(self, directory: Path, format: str = "html", *, force: bool = False) -> None:
        self.directory, self.format, self.force = Path(directory), format, force
        self.names: list[str] = []  # every student's name, in gradebook order
        self.targets: list[Path] = []  # the file each of them gets
        self._given = FileNames(FORMATS[format])
        self._spool = Spool()
        self.problems: list[Finding] = []  # what stopped the first sheet that could not be made

    def add(self, row) -> None:
        """One marked student's row: its sheet (``row.extra``, a :class:`Sheet`) under their own name.
        A row with no student (a CSV header's problems, a row without a name) is for the teacher,
        not a sheet to hand back."""
        name = row.cells[0] or ""
        if not name.strip():
            return
        target = self.directory / self._given.name(name)
        self.names.append(name)
        self.targets.append(target)
        if row.extra.page is None and not self.problems:
            self.problems = list(row.extra.problems)
        self._spool.add((target, row.extra))

    def check(self, columns, others: dict[str, str], inputs: InputFiles | None = None) -> None:
        """Before any file is written: a Hangul font for Korean PDFs, no target that is another output
        (``others``: real path -> its option) or one of the run's ``inputs`` (even with ``--force``),
        every sheet made, and, without ``--force``, none already there."""
        if self.format == "pdf" and typeset.hangul_font() is None and needs_hangul(self.names, columns):
            raise AttnTutorError("export.no_hangul_font", dirs=", ".join(str(d) for d in typeset.font_dirs()))
        if self.problems:
            raise AttnTutorError.many(self.problems)
        for target in self.targets:
            clash = others.get(os.path.realpath(target))
            if clash is not None:
                raise UsageError("grade.outputs_clash", first=clash, second="--feedback", path=str(target))
            if inputs is not None and inputs.holds(target):
                raise UsageError("files.sheet_is_input", path=str(target), student=excerpt(self.names[self.targets.index(target)]))
        if self.directory.is_dir():  # a directory still to be made holds no file to clobber
            for target in self.targets:
                refuse_overwrite(target, self.force)

    def write(self) -> str:
        """Every sheet, each whole or not at all; the line saying where they went."""
        make_directory(self.directory)
        for target, sheet in self._spool:
            write_atomic(target, sheet.page, replace=self.force)
        return t("feedback.written", count=len(self.targets), path=str(self.directory))

    def close(self) -> None:
        self._spool.close()
