"""A live session's storage, on SQLite (one file) or PostgreSQL (a URL): who joined, every answer
typed, the latest per item, the teacher's controls (peer instruction's focus, pause, hidden results
and rounds too), and a change number the teacher's map waits on.

By job: :mod:`.store` (the :class:`~.store.Store`: the session's records and all its SQL, the
tables written once for both databases; its records in :mod:`.records`, peer instruction's
state and rounds in :mod:`.rounds`), :mod:`.sqlite` and :mod:`.postgres` (what the two
databases do differently: connections, locking, errors, ``LISTEN``/``NOTIFY``), :mod:`.opening`
(a session opened at a path or URL, to serve or to read) and :mod:`.documents` (a session read as
``grade`` reads answer files: one more kind of source of a class).

May import core, problems, solve, marking and gradebook (every package below it); classroom,
live and cli import it.
"""
