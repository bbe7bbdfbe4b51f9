"""Which worker marks which answer file: each variant's students on one worker, the rest spread evenly.

A worker's marker keeps its caches per (problem set, variant), and a variant's first
students cost it far more than the rest (the variant is generated and solved, its
mistake rows built). :class:`Router` sends every student of one variant to the same
worker, so that cold work is done once per run instead of once per worker, and spreads
the files without a variant so that every worker gets about the same number of bytes.

The hint comes from :func:`peek`: the first few KiB of a YAML file, read as safely as
any input (:func:`attn_tutor.core.reading.open_regular`: a regular file only, never a hang),
searched for a top-level ``variant:`` line. It only routes: the worker reads and checks
the whole file itself, so a wrong or missing hint costs speed, never a mark.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from attn_tutor.core.model import ANSWER_FILE_BYTES_MAX, CSV_BYTES_MAX
from attn_tutor.core.reading import InputRefused, open_regular
from attn_tutor.gradebook.records import Document

PEEK_BYTES = 4096  # how much of a file's start is searched for its variant
FILE_COST = 1024  # what a file costs a worker beyond its bytes (opening, a row to build)
SPILL = 1 << 20  # a variant's owner this many bytes ahead of the least-loaded worker hands it on

_VARIANT = re.compile(rb"""variant[ \t]*:[ \t]*(["']?)([-+]?[0-9]+)\1[ \t]*(?:#[^\n]*)?\r?$""", re.M)
_SET = re.compile(rb"problem_set[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?$", re.M)

Key = tuple[bytes, bytes]  # (the problem_set line's value, the variant), as written


def peek(path: str | os.PathLike | Document) -> tuple[Key | None, int]:
    """A YAML answer file's routing hint (its problem set and variant, as written) and its size.

    No hint for a CSV file, a file without a top-level ``variant:`` in its first
    :data:`PEEK_BYTES`, or a file that is not a readable regular file within its cap
    (size 0): the worker that reads it in full says what is wrong with it.
    """

    if isinstance(path, Document):  # a live session's student: no file to peek at, and no variant
        return None, len(path.text)
    name = os.fspath(path)  # a string: a Path would be parsed again for each use
    is_csv = name[-4:].lower() == ".csv"
    try:
        fd, size = open_regular(name, CSV_BYTES_MAX if is_csv else ANSWER_FILE_BYTES_MAX)
    except (InputRefused, OSError):
        return None, 0
    try:
        head = b"" if is_csv else os.read(fd, PEEK_BYTES)
    except OSError:
        return None, size
    finally:
        os.close(fd)
    head = head.removeprefix(b"\xef\xbb\xbf")
    variant = _top_level(head, b"variant", _VARIANT)
    if variant is None:
        return None, size
    problem_set = _top_level(head, b"problem_set", _SET)
    return (b"" if problem_set is None else problem_set.group(1), variant.group(2)), size


def _top_level(head: bytes, name: bytes, line: re.Pattern) -> re.Match | None:
    """The first line of ``head`` that starts with ``name`` and matches ``line`` (found by a
    plain search first: most files have no variant, and a regex scanning every line is slower)."""
    at = 0
    if not head.startswith(name):
        at = head.find(b"\n" + name) + 1
        if at == 0:
            return None
    while True:
        found = line.match(head, at)
        if found is not None:
            return found
        at = head.find(b"\n" + name, at) + 1
        if at == 0:
            return None


class Router:
    """Shares out a run's files, a window at a time, among ``workers`` workers.

    A variant is owned by the worker that was least loaded when it was first seen; its
    files all go there, unless that worker is ``spill`` bytes ahead of the least-loaded
    one (a class mostly on a few variants), which then takes the variant over: no worker
    is ever more than ``spill`` and one file ahead of another. Files without a hint go, one by one, to the least-loaded worker.
    """

    def __init__(self, workers: int, hint: Callable[[Path], tuple[Key | None, int]] = peek, spill: int = SPILL) -> None:
        self.loads = [0] * workers  # the bytes given to each worker so far (and FILE_COST a file)
        self.owners: dict[Key, int] = {}
        self.hint, self.spill = hint, spill

    def split(self, paths: Sequence[Path]) -> list[list[int]]:
        """For each worker, the positions in ``paths`` it marks, in order (some lists may be empty)."""
        parts: list[list[int]] = [[] for _ in self.loads]
        free = []
        for position, path in enumerate(paths):
            key, size = self.hint(path)
            if key is None:
                free.append((position, size + FILE_COST))
            else:
                self._give(parts, self._owner(key), position, size + FILE_COST)
        for position, cost in free:
            self._give(parts, self._least_loaded(), position, cost)
        for part in parts:
            part.sort()
        return parts

    def _owner(self, key: Key) -> int:
        owner = self.owners.get(key)
        least = self._least_loaded()
        if owner is None or self.loads[owner] - self.loads[least] > self.spill:
            owner = self.owners[key] = least
        return owner

    def _least_loaded(self) -> int:
        return min(range(len(self.loads)), key=self.loads.__getitem__)

    def _give(self, parts: list[list[int]], worker: int, position: int, cost: int) -> None:
        parts[worker].append(position)
        self.loads[worker] += cost
