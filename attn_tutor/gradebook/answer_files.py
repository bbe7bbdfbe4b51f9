"""Finding a class's answer files and reading each: YAML or CSV, never raising for bad content."""

from __future__ import annotations

import csv
import itertools
import os
import re
import stat
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from attn_tutor.core import yamlread
from attn_tutor.core.errors import AttnTutorError, Finding, Location
from attn_tutor.core.model import ANSWER_FILE_BYTES_MAX, CSV_BYTES_MAX
from attn_tutor.core.reading import InputRefused, open_text, read_regular
from attn_tutor.gradebook.answer_csv import read_csv_stream
from attn_tutor.gradebook.answer_yaml import read_yaml_text
from attn_tutor.gradebook.cells import CellReader
from attn_tutor.gradebook.records import ANSWER_SUFFIXES, Document, FileNote, Submission
from attn_tutor.gradebook.writing import is_gradebook_header
from attn_tutor.problems.load import load_text


def _decode(data: bytes, file: str) -> tuple[str | None, Finding | None]:
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        return None, Finding("grade.not_utf8", {"offset": error.start}, Location(file))


_TOP_KEY = re.compile(r"^(problems|student|answers)[ \t]*:", re.M)
_NAMED = re.compile(r"""(?:^|[\s{,])["']?(problems|student|answers)["']?[ \t]*:""", re.M)


def top_level_keys(text: str, key: str = "problems") -> set[str]:
    """Which of ``problems``, ``student`` and ``answers`` are top-level keys of ``text`` — in any
    style YAML writes them (a block, a flow mapping ``{problems: [...]}``, quoted keys) — when
    ``key`` may be one of them (a plain search first: most answer files have no ``problems``).
    Text that is not YAML gives the keys that start a line, as a teacher or student writes one."""
    if key not in text or not any(found.group(1) == key for found in _NAMED.finditer(text)):
        return set()
    try:
        root = yamlread.compose(text, "")
    except yamlread.BadYaml:
        return {found.group(1) for found in _TOP_KEY.finditer(text)}
    if not isinstance(root, yamlread.MappingNode):
        return set()
    names = {name.value for name, _value in root.value if isinstance(name, yamlread.ScalarNode)}
    return names & {"problems", "student", "answers"}


def problem_set_like(text: str, file: str) -> str | None:
    """``"set"``: a problem set, not answers (``problems:`` at the top, no ``student:`` or
    ``answers:``, and it loads as a problem set); ``"broken"``: shaped like one but it does not load
    (read as an answer file, and said); None: an answer file."""
    keys = top_level_keys(text)
    if "problems" not in keys or keys & {"student", "answers"}:
        return None
    try:
        load_text(text, file)
    except AttnTutorError:
        return "broken"
    return "set"


def is_answer_file(path: str | Path) -> bool:
    """Whether ``validate`` takes ``path`` for an answer file rather than a problem set: a CSV, or a
    YAML file with a top-level ``student:`` or ``answers:`` (read safely: a file that cannot be
    read is left for the problem-set loader to say why)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        return True
    try:
        text = read_regular(path, ANSWER_FILE_BYTES_MAX).decode("utf-8-sig", errors="replace")
    except (InputRefused, OSError):
        return False
    if top_level_keys(text, "student") | top_level_keys(text, "answers"):
        return True
    folded = text.casefold()  # 'Student:', 'Answers:' — misspelt keys of an answer file, said as such
    return bool(top_level_keys(folded, "student") | top_level_keys(folded, "answers"))


def looks_like_gradebook(first_line: str) -> bool:
    """A gradebook ``grade --csv`` wrote: its header exactly (one file's first line, not a form that
    happens to have a "max_score" or "percent" column)."""
    header = next(csv.reader([first_line.rstrip("\r\n")]), [])
    return is_gradebook_header(header)


def read_answer_file(
    path: str | Path | Document, *, skip_foreign: bool = False, cells: CellReader | None = None, name_column: str | None = None,
    variant_column: str | None = None,
) -> list[Submission | FileNote]:
    """Every student in one answer file (YAML: one; CSV: one per row), and what is said of the file
    as a whole (:class:`FileNote`: a CSV's unused columns; why a file in a folder holds no students).

    ``skip_foreign`` (used when scanning directories): a problem-set YAML file or a
    gradebook CSV sitting among the answers gives no students but a :class:`FileNote`
    saying what it is.
    """

    if isinstance(path, Document):  # a live session's student: the text of an answer file, from no file
        return [read_yaml_text(path.text, path.file, base=path.base, default_student=path.student, cells=cells)]
    path = Path(path)
    file = str(path)
    stem = path.stem
    base = str(path.parent)
    try:
        if path.suffix.lower() == ".csv":  # read as a stream: a class of 50,000 is a few MB
            with open_text(path, CSV_BYTES_MAX) as stream:
                first = stream.readline()
                if not first:
                    return [Submission("", file, findings=[Finding("grade.empty_file", {}, Location(file))], readable=False, of_file=True)]
                if skip_foreign and looks_like_gradebook(first):
                    return [FileNote(file, "grade.left_out.gradebook")]
                return read_csv_stream(
                    itertools.chain((first,), stream), file, base=base, cells=cells, name_column=name_column, variant_column=variant_column
                )  # fmt: skip
        data = read_regular(path, ANSWER_FILE_BYTES_MAX)
    except InputRefused as error:  # not a regular file, or over its size cap: never read, never a hang
        return [Submission(stem, file, findings=list(error.problems), readable=False, refused=True)]
    except UnicodeDecodeError as error:  # in a CSV's first line: the file's own error, no student's
        return [Submission("", file, findings=[Finding("grade.not_utf8", {"offset": error.start}, Location(file))], readable=False, of_file=True)]
    except OSError as error:
        return [Submission(stem, file, findings=[Finding("grade.unreadable", {"reason": error.strerror or str(error)}, Location(file))], readable=False)]
    text, problem = _decode(data, file)
    if problem is not None:
        return [Submission(stem, file, findings=[problem], readable=False)]
    assert text is not None  # decoded, as no problem says
    kind = problem_set_like(text, file) if skip_foreign else None
    if kind == "set":
        return [FileNote(file, "grade.left_out.problem_set")]
    sub = read_yaml_text(text, file, base=base, default_student=stem, cells=cells)
    if kind == "broken":
        sub.findings.insert(0, Finding("grade.broken_problem_set", {"file": file}, Location(file)))
    return [sub]


def csv_without_problem_set(files) -> str | None:
    """The first CSV answer file whose header has no ``problem_set`` column (it needs ``--problems``), or None.

    Read before any marking: only each CSV's first line, safely (a FIFO or an oversized
    file is left for the reader to refuse)."""


    for path, from_dir in files:
        if type(path) is Document or Path(path).suffix.lower() != ".csv":
            continue
        try:
            with open_text(path, CSV_BYTES_MAX) as stream:
                first = stream.readline()
        except (InputRefused, OSError, UnicodeDecodeError):
            continue
        if (from_dir and looks_like_gradebook(first)) or not first.strip():  # an empty file: its own error
            continue
        header = next(csv.reader([first]), [])
        if "problem_set" not in (cell.strip().lower() for cell in header):
            return str(path)
    return None


def find_answer_files(paths: Sequence[str | Path], *, exclude: Iterable[str | Path] = ()) -> Sequence[tuple[Path, bool]]:
    """The answer files under ``paths`` (see :func:`survey`; what it leaves out is not said)."""
    return survey(paths, exclude=[("", Path(p)) for p in exclude]).files


def _file_id(path: str | Path) -> tuple[int, int] | str:
    """A regular file's (device, inode): one file under two names (a hard link) is one; anything else
    (a link to nowhere, a FIFO) its own path, left for its reader to say what is wrong."""
    try:
        found = os.stat(path)
    except OSError:
        return str(path)
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else str(path)


class AnswerFiles(Sequence):
    """The answer files of a run, in order, each as ``(Path, from_dir)``, held compactly — one
    string of every path, the end of each, a byte for each ``from_dir`` (about 80 bytes a file,
    against some 500 for a list of tuples of :class:`Path`). A slice is a plain list."""

    def __init__(self, files: Iterable[tuple[str | os.PathLike, bool]] = ()) -> None:
        texts, ends, from_dirs, end = [], array("q"), bytearray(), 0
        for path, from_dir in files:
            text = os.fspath(path)
            texts.append(text)
            end += len(text)
            ends.append(end)
            from_dirs.append(bool(from_dir))
        self._text, self._ends, self._from_dir = "".join(texts), ends, from_dirs

    def __len__(self) -> int:
        return len(self._ends)

    def _one(self, index: int) -> tuple[Path, bool]:
        start = self._ends[index - 1] if index else 0
        return Path(self._text[start : self._ends[index]]), bool(self._from_dir[index])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._one(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._one(index)

    def __iter__(self) -> Iterator[tuple[Path, bool]]:
        return (self._one(i) for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    # the type: ignore below: unhashable, as a list is: typeshed wants a method
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"AnswerFiles({list(self)!r})"


def _file_key(path: str) -> int | str:
    """:func:`_file_id` as one int (device and inode side by side), or the path itself."""
    found = _file_id(path)
    return found if isinstance(found, str) else (found[0] << 64) | found[1]


class Survey(NamedTuple):
    """What a run finds under its paths: the answer files to read (each with whether it came from a
    directory), and every other file there, with why it is left out."""

    files: Sequence  # AnswerFiles; with a live session's Documents after them, a list
    left_out: list[FileNote]


def _folder_files(path: Path, left_out: list[FileNote]) -> list[tuple[str, str]]:
    """The answer files in a folder, recursively, sorted by their parts under it (as ``Path.parts``
    sort), each with its real path; every other entry put in ``left_out``, with why (see :func:`survey`).

    Each folder's name and real path are worked out once: a file's name is the folder's joined
    to it, as ``Path(folder, name)`` gives it, and its real path the folder's joined to it, as
    ``os.path.realpath`` gives it, unless the file is a link (then its own real path)."""
    inside: list[tuple] = []
    base = str(path)

    def unreadable(error: OSError) -> None:  # a folder os.walk cannot list
        reason = error.strerror or type(error).__name__
        left_out.append(FileNote(str(error.filename), "grade.left_out.unreadable_folder", {"reason": reason}, problem=True))

    for root, dirs, files in os.walk(base, onerror=unreadable):
        below = [part for part in root[len(base) :].split(os.sep) if part]  # the folder's parts under the path
        head = str(Path(root))
        head = "" if head == "." else head if head.endswith(os.sep) else head + os.sep  # so head + name == str(Path(root, name))
        real_root = None
        kept = []
        for name in sorted(dirs):
            where = head + name
            if name.startswith("."):
                left_out.append(FileNote(where, "grade.left_out.hidden"))
            elif os.path.islink(where):  # os.walk does not follow it: a loop, or a folder graded twice
                left_out.append(FileNote(where, "grade.left_out.folder_link"))
            else:
                kept.append(name)
        dirs[:] = kept
        for name in files:
            where = head + name
            if name.startswith("."):
                left_out.append(FileNote(where, "grade.left_out.hidden"))
            elif name.lower().endswith(ANSWER_SUFFIXES):
                if os.path.islink(where):
                    real = os.path.realpath(where)
                else:
                    real_root = os.path.realpath(root) if real_root is None else real_root
                    real = os.path.join(real_root, name)
                inside.append((*below, name, (where, real)))
            else:
                left_out.append(FileNote(where, "grade.left_out.not_answers"))
    inside.sort(key=lambda entry: entry[:-1])  # by the parts under the path, as Path.parts sort
    return [entry[-1] for entry in inside]


def survey(paths: Sequence[str | Path], *, exclude: Sequence[tuple[str, Path]] = ()) -> Survey:
    """Answer files under ``paths`` in a stable order, and every other entry of a folder named.

    A file is taken whatever its name; a directory gives every ``.yaml``, ``.yml`` and
    ``.csv`` file inside it, recursively, sorted by path. Left out, and named: a hidden
    file or folder (a name starting with a dot), a file of another kind, a link to a folder
    (not followed), a folder that cannot be listed, and the files in ``exclude`` (``(option, path)``: the run's other inputs
    and its outputs). A file named twice (a link to it, or its folder given twice) is graded
    once, and its other names said. A link that leads nowhere, a FIFO
    or a file that cannot be read is taken: its reader says what is wrong, for that file alone.
    """
    skip = {os.path.realpath(p): option for option, p in exclude}
    found: list[tuple[str, bool]] = []
    left_out: list[FileNote] = []
    seen: dict[str | int, str] = {}  # each file's (device, inode), or real path if not a regular file -> where first found
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            candidates = [(where, real, True) for where, real in _folder_files(path, left_out)]
        else:
            candidates = [(str(path), os.path.realpath(path), False)]
        for candidate, real, from_dir in candidates:
            if real in skip:
                left_out.append(FileNote(candidate, "grade.left_out.input", {"option": skip[real] or "—"}))
                continue
            key = _file_key(candidate)
            same = seen.get(real) or seen.get(key)
            if same is not None:
                left_out.append(FileNote(candidate, "grade.left_out.same_file", {"first": same}))
                continue
            if isinstance(key, str):  # a regular file is known by its (device, inode), whatever its name
                seen[real] = candidate
            seen[key] = candidate
            found.append((candidate, from_dir))
    left_out.sort(key=lambda left: left.file)
    return Survey(AnswerFiles(found), left_out)
