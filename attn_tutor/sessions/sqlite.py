"""A live session in one SQLite file: one connection and one lock, WAL, ``synchronous=NORMAL``, the
file held with ``flock`` while a writer has it open (see :mod:`attn_tutor.sessions.store`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
from datetime import datetime
from pathlib import Path

from attn_tutor.sessions.store import LiveError, Store

BUSY_MS = 2000  # how long SQLite waits for a lock another process holds before saying so

# sqlite3 result codes (error.sqlite_errorcode & 0xff)
_BUSY, _LOCKED, _CORRUPT, _FULL, _CANTOPEN, _NOTADB, _READONLY, _IOERR = 5, 6, 11, 13, 14, 26, 8, 10


def _unwritable(path: Path) -> bool:
    """Whether nothing can write beside ``path`` (a read-only file system, a folder this process may
    not write) and no WAL is left beside it: SQLite could not make the WAL's index there to read it,
    and no one can change the file while it is read, so it is opened ``immutable`` (read as it stands,
    no locks, no index). A WAL left by a server that was killed holds answers: read with it (SQLite
    reads a WAL and its index read-only when both are there)."""
    folder = path.absolute().parent
    with contextlib.suppress(OSError):
        if os.path.getsize(f"{path}-wal") > 0:
            return False
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return not os.access(folder, os.W_OK) and not os.path.exists(f"{path}-shm")


class SqliteStore(Store):
    """A session in one SQLite file: one connection, one lock, WAL, ``synchronous=NORMAL``."""

    words = {"id": "INTEGER", "integer": "INTEGER", "real": "REAL"}  # an INTEGER PRIMARY KEY is the rowid

    def __init__(self, path: Path, *, create: bool, readonly: bool = False) -> None:
        super().__init__()
        self.path, self.where, self.readonly = path, str(path), readonly
        self._lock = threading.RLock()
        self._holder: int | None = None
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file held: gone() compares the path's
        self.connection: sqlite3.Connection | None = None
        existed = path.exists()
        if not existed and not create:
            raise self._error("live.store.no_session")
        if existed and not path.is_file():
            raise self._error("live.store.not_session")
        try:
            self._open(path, existed=existed, readonly=readonly)
        except BaseException:
            self.close()
            raise
        self.alone = self._holder is not None  # the file held (flock): no other process writes it

    def _open(self, path: Path, *, existed: bool, readonly: bool) -> None:
        with self._sqlite_errors():
            if not readonly:
                self._hold(path)
            uri = path.absolute().as_uri() + ("?mode=rwc" if not readonly else "?mode=ro&immutable=1" if _unwritable(path) else "?mode=ro")
            self.connection = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1000)
            if existed:  # read before anything is written: another program's database is left as it was
                self._check_header(path)
                self._has_tables(self.connection.cursor())
                found = self.connection.execute("PRAGMA quick_check").fetchone()[0]
                if found != "ok":
                    raise self._error("live.store.corrupt", reason=found)
            if not readonly:
                mode = self.connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if mode.lower() != "wal":  # pragma: no cover - a file system without shared memory
                    raise self._error("live.store.locked")
                self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.execute("PRAGMA foreign_keys=ON")

    def _check_header(self, path: Path) -> None:
        try:
            with open(path, "rb") as stream:
                head = stream.read(16)
        except OSError as error:
            raise self._error("live.store.unreadable", reason=error.strerror or str(error)) from None
        if head and head != b"SQLite format 3\x00":
            raise self._error("live.store.not_session")

    def _hold(self, path: Path) -> None:
        """The file held exclusively (``flock``, apart from SQLite's own locks) while this store is
        open: a second writer (another ``serve``) is refused at once; the kernel lets go when the
        process ends, however it ends."""
        try:
            holder = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:  # a folder that is not there, not a folder, or not writable
            raise self._error("live.store.cannot_write", reason=error.strerror or str(error)) from None
        try:
            fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(holder)
            raise self._error("live.store.in_use") from None
        self._holder = holder
        found = os.fstat(holder)
        self._identity = (found.st_dev, found.st_ino)

    def gone(self) -> bool:
        """Whether the file this store writes is no longer the one at its path (removed, or replaced by
        another): what it would save from now on would be saved nowhere anyone finds it."""
        if self._identity is None:
            return False
        try:
            found = os.stat(self.path)
        except OSError:
            return True
        return (found.st_dev, found.st_ino) != self._identity

    def rescue(self) -> str | None:
        """When the file is :meth:`gone`: every answer it holds (this store still has it open) copied to
        a new file beside where it was, whose path is returned (never over a file). None: not gone."""
        if not self.gone() or self.connection is None:
            return None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target, number = self.path.with_name(f"{self.path.stem}-rescued-{stamp}{self.path.suffix}"), 1
        while os.path.lexists(target):
            number += 1
            target = self.path.with_name(f"{self.path.stem}-rescued-{stamp}-{number}{self.path.suffix}")
        with self._lock, self._sqlite_errors():
            copy = sqlite3.connect(f"{target.absolute().as_uri()}?mode=rwc", uri=True)
            try:
                self.connection.backup(copy)
            finally:
                copy.close()
        return str(target)

    @contextlib.contextmanager
    def _sqlite_errors(self):
        try:
            yield
        except sqlite3.Error as error:
            raise self._said(error) from None

    def _said(self, error: sqlite3.Error) -> LiveError:
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
        if code in (_BUSY, _LOCKED):
            return self._error("live.store.locked")
        if code == _FULL:
            return self._error("live.store.full")
        if code == _NOTADB:
            return self._error("live.store.not_session")
        if code == _CORRUPT:
            return self._error("live.store.corrupt", reason=str(error))
        if code in (_CANTOPEN, _READONLY, _IOERR):
            return self._error("live.store.unreadable", reason=str(error))
        return self._error("live.store.refused", reason=str(error))

    @contextlib.contextmanager
    def _transaction(self):
        with self._read() as cur:  # the lock, the open connection and its errors as sentences; then BEGIN
            if self.gone():  # nothing acknowledged that the file at the path will not hold
                raise self._error("live.store.gone")
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                if self.connection is not None and self.connection.in_transaction:  # (not closed meanwhile)
                    self.connection.rollback()
                raise
            cur.execute("COMMIT")

    def _serial(self):
        return self._lock  # re-entrant: the transaction inside takes it again

    @contextlib.contextmanager
    def _read(self):
        with self._lock:
            if self.connection is None:
                raise self._error("live.store.closed")
            with self._sqlite_errors():
                yield self.connection.cursor()

    def _has_tables(self, cur) -> bool:
        names = {row[0] for row in cur.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
        if not names:
            return False
        if "live_meta" not in names:
            raise self._error("live.store.not_session")
        return True

    def _rounds_exist(self, cur) -> bool:
        return cur.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'live_rounds'").fetchone() is not None

    def _bump(self, cur) -> int:
        cur.execute("UPDATE live_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'seq'")
        return self._seq_from(cur)

    def _seq_from(self, cur) -> int:
        return int(cur.execute("SELECT value FROM live_meta WHERE key = 'seq'").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self.connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    self.connection.close()
                self.connection = None
            if self._holder is not None:
                os.close(self._holder)  # after SQLite's own descriptors: closing one drops a process's POSIX locks
                self._holder = None
