"""Finding a class's answer files and reading each: YAML or CSV, never raising for bad content."""

from __future__ import annotations

import csv
import itertools
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.model import ANSWER_FILE_BYTES_MAX, CSV_BYTES_MAX
from attn_tutor.core.reading import InputRefused, open_text, read_regular
from attn_tutor.gradebook.answer_csv import read_csv_stream
from attn_tutor.gradebook.answer_yaml import read_yaml_text
from attn_tutor.gradebook.cells import CellReader
from attn_tutor.gradebook.records import ANSWER_SUFFIXES, Submission


def _decode(data: bytes, file: str) -> tuple[str | None, Finding | None]:
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        return None, Finding("grade.not_utf8", {"offset": error.start}, Location(file))


def looks_like_problem_set(text: str) -> bool:
    """A YAML file with ``problems:`` and no ``answers:`` at the top: a problem set, not answers."""
    if not text.startswith("problems") and "\nproblems" not in text:  # a plain search first: the regex is slower
        return False
    return re.search(r"^problems[ \t]*:", text, re.M) is not None and re.search(r"^answers[ \t]*:", text, re.M) is None


def looks_like_gradebook(text: str) -> bool:
    first = text.split("\n", 1)[0].lower()
    return "max_score" in first and "percent" in first


def read_answer_file(
    path: str | Path, *, skip_foreign: bool = False, cells: CellReader | None = None, name_column: str | None = None
) -> list[Submission]:
    """Every student in one answer file (YAML: one; CSV: one per row).

    ``skip_foreign`` (used when scanning directories): a problem-set YAML file or a
    gradebook CSV sitting among the answers gives no students instead of errors.
    """

    path = Path(path)
    file = str(path)
    stem = path.stem
    base = str(path.parent)
    try:
        if path.suffix.lower() == ".csv":  # read as a stream: a class of 50,000 is a few MB
            with open_text(path, CSV_BYTES_MAX) as stream:
                first = stream.readline()
                if skip_foreign and looks_like_gradebook(first):
                    return []
                return read_csv_stream(itertools.chain((first,), stream), file, base=base, cells=cells, name_column=name_column)
        data = read_regular(path, ANSWER_FILE_BYTES_MAX)
    except InputRefused as error:  # not a regular file, or over its size cap: never read, never a hang
        return [Submission(stem, file, findings=list(error.problems), readable=False, refused=True)]
    except UnicodeDecodeError as error:  # in a CSV's first line
        return [Submission(stem, file, findings=[Finding("grade.not_utf8", {"offset": error.start}, Location(file))], readable=False)]
    except OSError as error:
        return [Submission(stem, file, findings=[Finding("grade.unreadable", {"reason": error.strerror or str(error)}, Location(file))], readable=False)]
    text, problem = _decode(data, file)
    if problem is not None:
        return [Submission(stem, file, findings=[problem], readable=False)]
    if skip_foreign and looks_like_problem_set(text):
        return []
    return [read_yaml_text(text, file, base=base, default_student=stem, cells=cells)]


def csv_without_problem_set(files) -> str | None:
    """The first CSV answer file whose header has no ``problem_set`` column (it needs ``--problems``), or None.

    Read before any marking: only each CSV's first line, safely (a FIFO or an oversized
    file is left for the reader to refuse)."""


    for path, from_dir in files:
        if Path(path).suffix.lower() != ".csv":
            continue
        try:
            with open_text(path, CSV_BYTES_MAX) as stream:
                first = stream.readline()
        except (InputRefused, OSError, UnicodeDecodeError):
            continue
        if from_dir and looks_like_gradebook(first):
            continue
        header = next(csv.reader([first]), [])
        if "problem_set" not in (cell.strip().lower() for cell in header):
            return str(path)
    return None


def find_answer_files(paths: Sequence[str | Path], *, exclude: Iterable[str | Path] = ()) -> list[tuple[Path, bool]]:
    """Answer files under ``paths`` in a stable order, each with whether it came from a directory.

    A file is taken whatever its name; a directory gives every ``.yaml``, ``.yml``
    and ``.csv`` file inside it, recursively, sorted by path, skipping hidden files
    and directories and the files in ``exclude`` (the outputs). A file named twice
    is graded once.
    """
    skip = {os.path.realpath(p) for p in exclude}
    found: list[tuple[Path, bool]] = []
    seen: set[str] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            inside = []
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in files:
                    if not name.startswith(".") and name.lower().endswith(ANSWER_SUFFIXES):
                        inside.append(Path(root, name))
            candidates = [(p, True) for p in sorted(inside, key=lambda p: p.relative_to(path).parts)]
        else:
            candidates = [(path, False)]
        for candidate, from_dir in candidates:
            real = os.path.realpath(candidate)
            if real in skip or real in seen:
                continue
            seen.add(real)
            found.append((candidate, from_dir))
    return found

