"""Reading an input file safely: a regular file only, under a size cap, never a hang.

Every file a command reads (problem sets, answer files) comes through here:

* The path is followed through symlinks and the target must be a *regular file*: a
  FIFO, a device (``/dev/zero``), a socket or a directory is refused with a sentence
  before a byte is read. The file is opened with ``O_NONBLOCK`` (so opening a FIFO
  can never wait for a writer) and checked again with ``fstat`` on the open
  descriptor, so a path swapped between the check and the open is caught too.
* It may be at most ``limit`` bytes (the caps are in :mod:`attn_tutor.core.model`),
  checked before reading and again while reading (a file that grows is cut off).

How a message quotes what was read is :mod:`attn_tutor.core.text`.
"""

from __future__ import annotations

import errno
import io
import os
import stat

from attn_tutor.core.errors import AttnTutorError, Location

_CHUNK = 1 << 20


class InputRefused(AttnTutorError):
    """An input path that is not a readable regular file within its size cap (exit status 1)."""


def file_kind(mode: int) -> str | None:
    """What a file of this ``st_mode`` is, when it is not a regular file; None when it is.

    One of ``directory``, ``symlink``, ``fifo``, ``device``, ``socket`` or ``other``:
    readers (here) and writers (:mod:`attn_tutor.core.writing`) each name them in their own words.
    """
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


_READ_REFUSALS = {"directory": "problems.is_directory", "fifo": "input.fifo", "device": "input.device", "socket": "input.socket"}


def _kind(mode: int) -> str | None:
    """The catalogue key for what a non-regular input is, or None for a regular file."""
    kind = file_kind(mode)
    return None if kind is None else _READ_REFUSALS.get(kind, "input.not_regular")


def open_regular(path: str | os.PathLike, limit: int) -> tuple[int, int]:
    """An open read-only descriptor of the regular file at ``path`` and its size; else InputRefused."""
    where = Location(os.fspath(path))
    try:
        before = os.stat(path)
    except FileNotFoundError:
        raise InputRefused("input.dangling_link" if os.path.islink(path) else "problems.not_found", where) from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise InputRefused("input.link_loop", where) from None
        raise InputRefused("problems.unreadable", where, reason=error.strerror or type(error).__name__) from None
    kind = _kind(before.st_mode)
    if kind is not None:
        raise InputRefused(kind, where)
    if before.st_size > limit:
        raise InputRefused("input.too_large", where, limit=f"{limit:,}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputRefused("problems.not_found", where) from None
    except OSError as error:
        raise InputRefused("problems.unreadable", where, reason=error.strerror or type(error).__name__) from None
    try:
        after = os.fstat(fd)
        kind = _kind(after.st_mode)
        if kind is not None:
            raise InputRefused(kind, where)
        if after.st_size > limit:
            raise InputRefused("input.too_large", where, limit=f"{limit:,}")
    except BaseException:
        os.close(fd)
        raise
    return fd, after.st_size


def read_regular(path: str | os.PathLike, limit: int) -> bytes:
    """The whole of the regular file at ``path``, at most ``limit`` bytes; else InputRefused."""
    fd, size = open_regular(path, limit)
    where = Location(os.fspath(path))
    try:
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total) or 1)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise InputRefused("input.too_large", where, limit=f"{limit:,}")
        return b"".join(chunks)
    except OSError as error:
        raise InputRefused("problems.unreadable", where, reason=error.strerror or type(error).__name__) from None
    finally:
        os.close(fd)


class _Capped(io.RawIOBase):
    """A raw stream over a descriptor that stops with InputRefused past ``limit`` bytes."""

    def __init__(self, fd: int, limit: int, where: Location) -> None:
        self._fd, self._limit, self._where, self._read = fd, limit, where, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = os.read(self._fd, len(buffer))
        self._read += len(data)
        if self._read > self._limit:
            raise InputRefused("input.too_large", self._where, limit=f"{self._limit:,}")
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def open_text(path: str | os.PathLike, limit: int, encoding: str = "utf-8-sig") -> io.TextIOWrapper:
    """The regular file at ``path`` as a text stream (``newline=""``, for csv), capped at ``limit`` bytes."""
    fd, _size = open_regular(path, limit)
    raw = _Capped(fd, limit, Location(os.fspath(path)))
    return io.TextIOWrapper(io.BufferedReader(raw, _CHUNK), encoding=encoding, errors="strict", newline="")
