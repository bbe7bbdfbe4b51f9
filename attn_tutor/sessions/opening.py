"""A live session opened where it is kept: a SQLite file's path or a ``postgresql://`` URL, to serve
(made or resumed for a problem set) or to read (``grade``: no lock, so a session being served may
be read). What is kept and how: :mod:`attn_tutor.sessions.store`."""

from __future__ import annotations

import os
from pathlib import Path

from attn_tutor.core.model import ProblemSet
from attn_tutor.sessions.postgres import PostgresStore
from attn_tutor.sessions.sqlite import SqliteStore
from attn_tutor.sessions.store import Store, full_at_start


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
    with full_at_start(text if not is_postgres(text) else text.split("@")[-1]):
        if is_postgres(text):
            store: Store = PostgresStore(text)
        else:
            store = SqliteStore(Path(text), create=create and not readonly, readonly=readonly)
    store.readonly = readonly
    try:
        with store.starting():
            store.start(problem_set, create=create and not readonly)
    except BaseException:
        store.close()
        raise
    return store
