"""A spool: objects written to a temporary file as they come and read back in order, so a
class of any size holds one object in memory at a time."""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator


class Spool:
    """Add objects one by one; iterate to read them all back, first to last (each time from the start)."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()

    def add(self, item: object) -> None:
        pickle.dump(item, self._file, protocol=pickle.HIGHEST_PROTOCOL)

    def __iter__(self) -> Iterator:
        self._file.seek(0)
        while True:
            try:
                yield pickle.load(self._file)
            except EOFError:
                return

    def close(self) -> None:
        self._file.close()
