"""Spools: objects written to a temporary file as they come and read back in order, so a class
of any size holds one object in memory at a time (:class:`Spool`), and arrays of numbers that
grow a block at a time in memory and are kept on disk between blocks (:class:`ArraySpool`).

Their files are in the temporary directory (``TMPDIR``); one that cannot be made, written or read
back (a full disk) is said as :class:`~attn_tutor.core.errors.AttnTutorError` ``files.spool_failed``,
naming that directory, never as a traceback."""

from __future__ import annotations

import pickle
import tempfile
import weakref
from array import array
from collections.abc import Iterator
from typing import NoReturn

from attn_tutor.core.errors import AttnTutorError


def _failed(error: OSError) -> NoReturn:
    raise AttnTutorError("files.spool_failed", directory=tempfile.gettempdir(), reason=error.strerror or str(error)) from None


def _temporary_file():
    try:
        return tempfile.TemporaryFile()
    except OSError as error:
        _failed(error)


class Spool:
    """Add objects one by one; iterate to read them all back, first to last (each time from the start:
    one reading at a time, since every reading moves the one file's position). ``len``: how many.
    The file (already unlinked: nothing is left on disk) is closed by :meth:`close`, or when the
    spool itself goes (a class table drawn after its run is over)."""

    def __init__(self) -> None:
        self._file = _temporary_file()
        self._closing = weakref.finalize(self, self._file.close)  # once, whichever comes first
        self._count = 0
        self._read = False  # read since the last add: the next add first goes back to the end

    def add(self, item: object) -> None:
        try:
            if self._read:
                self._file.seek(0, 2)
                self._read = False
            pickle.dump(item, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        except OSError as error:
            _failed(error)
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator:
        self._read = True
        try:
            self._file.seek(0)
        except OSError as error:
            _failed(error)
        while True:
            try:
                item = pickle.load(self._file)
            except EOFError:
                return
            except OSError as error:
                _failed(error)
            yield item

    def close(self) -> None:
        self._closing()


class ArraySpool:
    """Typed arrays (:class:`array.array`) by key, each grown in memory by whoever holds it and moved
    to a temporary file whenever :meth:`spill` is called, so a class of any size holds one block of
    each: :meth:`read` gives one back whole, its spilled parts and what it holds now, as bytes.

    ``new(key, typecode)`` makes a key's array (the one object to append to for as long as the spool
    lasts: a spill empties it in place). The file goes as :class:`Spool`'s does."""

    def __init__(self) -> None:
        self._file = _temporary_file()
        self._closing = weakref.finalize(self, self._file.close)
        self._arrays: dict[object, array] = {}
        self._parts: dict[object, list[tuple[int, int]]] = {}  # key -> (offset, size) of each spilled part
        self._size = 0  # bytes written

    def new(self, key: object, typecode: str) -> array:
        made = self._arrays[key] = array(typecode)
        self._parts[key] = []
        return made

    def spill(self) -> None:
        """Every array's numbers written to the file and emptied (each kept, empty, for more)."""
        try:
            self._file.seek(self._size)  # (a reading moved the position)
            for key, held in self._arrays.items():
                if held:
                    data = held.tobytes()
                    self._file.write(data)
                    self._parts[key].append((self._size, len(data)))
                    self._size += len(data)
                    del held[:]  # its buffer freed
        except OSError as error:
            _failed(error)

    def read(self, key: object) -> bytes:
        """All of ``key``'s numbers in the order they were appended, as the bytes of its array."""
        parts = []
        try:
            if self._parts[key]:
                self._file.flush()
                for offset, size in self._parts[key]:
                    self._file.seek(offset)
                    parts.append(self._file.read(size))
        except OSError as error:
            _failed(error)
        parts.append(self._arrays[key].tobytes())
        return b"".join(parts)

    def close(self) -> None:
        self._closing()
