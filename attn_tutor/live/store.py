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

import json
import os
from pathlib import Path

from attn_tutor.core.errors import AttnTutorError, Location
from attn_tutor.core.model import ProblemSet
from attn_tutor.gradebook.records import Document
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
from attn_tutor.problems.load import load_problem_set

__all__ = [
    "MODES", "SCHEMA", "Latest", "LiveError", "Mark", "PostgresStore", "ProblemState", "Roll", "Saved", "Session", "SqliteStore",
    "Store", "Student", "fingerprint", "is_postgres", "open_store", "set_reference",
    "is_session_target", "session_documents", "answer_file_text",
]


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


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


def is_session_target(target: str) -> bool:
    """Whether ``grade`` reads ``target`` as a live session: a ``postgresql://`` URL, or a path ending
    ``.sqlite`` or ``.sqlite3`` (whatever is in it: a file there that is no session is said to be none)."""
    return is_postgres(target) or target.lower().endswith((".sqlite", ".sqlite3"))


def session_documents(target: str) -> list[Document]:
    """Each student who answered in the session at ``target``, in order of joining, as the text of the
    answer file holding the answers they typed last (see :meth:`Store.answer_files`): ``grade`` marks
    them as it marks that file. Read-only (a session still being served may be graded). The set the
    session names must still be the set it was made for (its fingerprint), or it is said."""
    with open_store(target, None, create=False, readonly=True) as store:
        session = store.session()
        try:
            current = load_problem_set(session.set_ref)
        except AttnTutorError:  # gone or broken: the grader says so of each student (or --problems stands in)
            current = None
        if current is not None and fingerprint(current) != session.fingerprint:
            raise LiveError("live.store.changed_set", Location(store.where), set=session.set_ref)
        where = store.where
        return [
            Document(f"{where}#{number}", answer_file_text(answers), name)
            for number, (name, answers) in enumerate(store.answer_files(), start=1)
        ]


def answer_file_text(answers: dict) -> str:
    """An answer file's YAML for ``answers`` (:meth:`Store.answer_files`' shape): every name and text a
    double-quoted scalar, so whatever a student typed is read back as that string."""
    lines = [f"student: {_quoted(answers['student'])}", f"problem_set: {_quoted(answers['problem_set'])}", "answers:"]
    for problem, rows in answers["answers"].items():
        lines.append(f"  {_quoted(problem)}:")
        for row, stages in rows.items():
            lines.append(f"    {_quoted(row)}:")
            lines.extend(f"      {_quoted(stage)}: {_quoted(text)}" for stage, text in stages.items())
    if not answers["answers"]:
        lines[-1] = "answers: {}"
    if answers.get("concepts"):
        lines.append("concepts:")
        lines.extend(f"  {_quoted(concept)}: {_quoted(text)}" for concept, text in answers["concepts"].items())
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar: JSON's escapes are YAML's (every control character escaped)."""
    return json.dumps(text, ensure_ascii=False)
