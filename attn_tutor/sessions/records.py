"""A live session's records that the store and its rounds share: what a save is given and gives back,
what a student's latest answer is, the lecture's state and an item's round, the one error (see
:mod:`attn_tutor.sessions.store`, which names them all too); and how an answer is kept, the SQL
both saves run in their transaction (:func:`keep_attempt`, :func:`keep_latest`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

from attn_tutor.core.errors import AttnTutorError

# A concept item's answer is kept as (CONCEPTS, its id, CONCEPT_STAGE): no problem id has a "#"
# and no problem a stage "concept". CONCEPTS is also the row of live_problems that opens and
# closes the concept items together (in a set that has any); the map keys them ``concepts/<id>``.
CONCEPTS = "#concepts"
CONCEPT_STAGE = "concept"

FIRST_SAVE = (
    "SELECT verdict, diagnosis, points, problem, row_key, stage FROM live_attempts WHERE student_id = ? AND client_id = ?"
)
"""A resent ``client_id``'s first save: its mark and the item it was for (a client id names one answer)."""


class LiveError(AttnTutorError):
    """A live session that cannot be opened, read or written: one catalogue sentence, exit status 1."""


class Mark(NamedTuple):
    """The server's mark of one stage, as :meth:`Store.save` keeps it: the verdict
    (``correct``, ``follow_through``, ``partial``, ``wrong``, ``missing``), the diagnosis code
    (None: none), and the points it earns (the score distribution sums them per student)."""

    verdict: str
    diagnosis: str | None = None
    points: float = 0.0


class Lecture(NamedTuple):
    """What the teacher has the class doing (peer instruction): the item in focus (``(problem, row)``,
    or ``(CONCEPTS, id)``; None: none), answers paused, the results hidden from the projector."""

    focus: tuple[str, str] | None = None
    paused: bool = False
    hidden: bool = False


class Round(NamedTuple):
    """An item's round now (:meth:`Store.ask_again`): its number (2, 3, …) and the variant's seed (None: the set's numbers)."""

    round: int
    variant: int | None


class Saved(NamedTuple):
    """What :meth:`Store.save` gives back once the answer is committed (a resend: the first save's)."""

    client_id: str
    verdict: str
    diagnosis: str | None
    points: float
    seq: int  # the change number after this save
    resent: bool  # True: this client_id was saved before; nothing changed
    item: tuple[str, str, str] | None = None  # (problem, row, stage) the client_id was first saved for


class Latest(NamedTuple):
    text: str
    verdict: str
    diagnosis: str | None
    points: float
    client_id: str


ATTEMPT = (
    "INSERT INTO live_attempts (student_id, client_id, problem, row_key, stage, text, verdict, diagnosis, points, saved)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (student_id, client_id) DO NOTHING RETURNING id"
)
LATEST = (
    "INSERT INTO live_latest (student_id, problem, row_key, stage, attempt_id, text, verdict, diagnosis, points)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (student_id, problem, row_key, stage) DO UPDATE SET"
    " attempt_id = excluded.attempt_id, text = excluded.text, verdict = excluded.verdict,"
    " diagnosis = excluded.diagnosis, points = excluded.points"
)


def keep_attempt(q, cur, seq: int, student_id: int, item: tuple[str, str, str], text: str, client_id: str, mark: Mark) -> int | Saved:
    """One answer to ``item`` (problem, row, stage) kept as an attempt, in ``cur``'s transaction (``q``:
    the store's placeholders): its id; a ``client_id`` this student saved before: that first save
    (:attr:`Saved.resent`, at change number ``seq``), and nothing kept."""
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    found = cur.execute(q(ATTEMPT), (student_id, client_id, *item, text, mark.verdict, mark.diagnosis, float(mark.points), now)).fetchone()
    if found is None:
        first = cur.execute(q(FIRST_SAVE), (student_id, client_id)).fetchone()
        return Saved(client_id, first[0], first[1], float(first[2]), seq, True, tuple(first[3:6]))
    return int(found[0])


def keep_latest(q, cur, student_id: int, item: tuple[str, str, str], attempt_id: int, text: str, mark: Mark) -> None:
    """The attempt ``attempt_id`` made the student's latest answer to ``item``, in ``cur``'s transaction."""
    cur.execute(q(LATEST), (student_id, *item, attempt_id, text, mark.verdict, mark.diagnosis, float(mark.points)))
