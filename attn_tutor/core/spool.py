"""A spool: objects written to a temporary file as they come and read back in order, so a
class of any size holds one object in memory at a time."""

from __future__ import annotations

import pickle
import tempfile
import weakref
from collections.abc import Iterator


class Spool:
    """Add objects one by one; iterate to read them all back, first to last (each time from the start:
    one reading at a time, since every reading moves the one file's position). ``len``: how many.
    The file (already unlinked: nothing is left on disk) is closed by :meth:`close`, or when the
    spool itself goes (a class table drawn after its run is over)."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()
        self._closing = weakref.finalize(self, self._file.close)  # once, whichever comes first
        self._count = 0
        self._read = False  # read since the last add: the next add first goes back to the end

    def add(self, item: object) -> None:
        if self._read:
            self._file.seek(0, 2)
            self._read = False
        pickle.dump(item, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator:
        self._read = True
        self._file.seek(0)
        while True:
            try:
                yield pickle.load(self._file)
            except EOFError:
                return

    def close(self) -> None:
        self._closing()
