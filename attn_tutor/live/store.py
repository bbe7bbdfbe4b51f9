"""A live session's storage: one :class:`Store`, on SQLite (one file) or PostgreSQL (a URL).

Open one with :func:`open_store`. Every method is synchronous and thread-safe (the web
app calls them from Starlette's threadpool). What is kept:

- the session (:meth:`Store.session`): the problem set's title, the reference ``grade``
  loads it by (a packaged set's name, or the set file's absolute path), its
  *fingerprint* (a hash of what marks: every problem's numbers, rows, stages, decimals,
  tolerance — not its comments or lines), the mode (``practice`` | ``exam``), each
  problem's ``open`` and ``revealed``, when it was made;
- the students (:meth:`Store.join`): an id, the name they typed, a random token (their
  cookie) and the device id their browser sent, so one device rejoins as one student;
- every answer (:meth:`Store.save`): each attempt, kept, and the latest per
  (student, problem, row, stage), with the server's mark. ``save`` returns only after
  the transaction is committed, and is idempotent on ``(student, client_id)``: a
  resend gives back the first result and changes nothing;
- a change number (:meth:`Store.changes`, :meth:`Store.wait_change`), raised by every
  save and every control: within the process on SQLite (one worker), across processes
  on PostgreSQL (``LISTEN``/``NOTIFY``), so the teacher's map on any worker wakes.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed answer survives the
process being killed (``kill -9``), though the last few may be lost if the machine
itself loses power. The file is held with an exclusive ``flock`` while a writer has it
open, so a second ``serve`` on the same file is refused rather than sharing it.

Every failure is a :class:`LiveError` with a catalogue sentence (exit status 1): a
file held by another process, a corrupt file, a file that is not a session, a session
of another problem set, a full disk, an unreachable PostgreSQL or a bad URL, a session
written by a newer attn-tutor. Never a traceback, never a silent fresh start.
"""

from __future__ import annotations

import os
from pathlib import Path

from attn_tutor.core.model import ProblemSet
from attn_tutor.live.postgres import PostgresStore
from attn_tutor.live.session import (
    MODES,
    SCHEMA,
    Latest,
    LiveError,
    Mark,
    ProblemState,
    Roll,
    Saved,
    Session,
    Store,
    Student,
    fingerprint,
    set_reference,
)
from attn_tutor.live.sqlite import SqliteStore

__all__ = [
    "MODES", "SCHEMA", "Latest", "LiveError", "Mark", "PostgresStore", "ProblemState", "Roll", "Saved", "Session", "SqliteStore",
    "Store", "Student", "fingerprint", "is_postgres", "looks_like_session", "open_store", "set_reference",
]


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def looks_like_session(target: str | os.PathLike) -> bool:
    """Whether ``grade`` takes ``target`` for a session: a PostgreSQL URL, or a regular file ending
    ``.sqlite`` (or ``.db``) that starts as a SQLite database does."""
    text = os.fspath(target)
    if is_postgres(text):
        return True
    if not text.lower().endswith((".sqlite", ".sqlite3", ".db")):
        return False
    try:
        with open(text, "rb") as stream:
            return stream.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def open_store(target: str | os.PathLike, problem_set: ProblemSet | None, *, create: bool, readonly: bool = False) -> Store:
    """The session at ``target`` (a file path or a ``postgresql://`` URL).

    ``create``: make the session if there is none there yet (for ``problem_set``); an existing
    session is reopened (resumed) when it was made for the same set, refused otherwise.
    ``problem_set`` None (``grade``): whatever set the session names, unchecked here.
    ``readonly`` (``grade``): reads only; takes no lock, so it may read a session being served.
    """
    text = os.fspath(target)
    if is_postgres(text):
        store: Store = PostgresStore(text)
    else:
        store = SqliteStore(Path(text), create=create and not readonly, readonly=readonly)
    try:
        store.start(problem_set, create=create and not readonly)
    except BaseException:
        store.close()
        raise
    return store
