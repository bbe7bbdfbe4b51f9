"""A live session's storage: one :class:`Store`, on SQLite (one file) or PostgreSQL (a URL), its
records and all its SQL, the tables written once for both (:data:`TABLES`).

Open one with :func:`attn_tutor.sessions.opening.open_store`. Every method is synchronous and
thread-safe (the web app calls them from Starlette's threadpool). What is kept:

- the session (:meth:`Store.session`): the problem set's title, the reference ``grade`` loads it
  by (a packaged set's name, or the set file's absolute path), its *fingerprint* (a hash of what
  marks: every problem's numbers, rows, stages, decimals, tolerance — not its comments or lines),
  the mode (``practice`` | ``exam``), each problem's ``open`` and ``revealed``, when it was made;
- the students (:meth:`Store.join`): an id, the name they typed, a random token (their cookie) and
  the device id their browser sent, so one device rejoins as one student;
- every answer (:meth:`Store.save`): each attempt, kept, and the latest per (student, problem,
  row, stage), with the server's mark. ``save`` returns only after the transaction is committed,
  and is idempotent on ``(student, client_id)``: a resend gives back the first result, changing nothing;
- a change number (:meth:`Store.changes`, :meth:`Store.wait_change`), raised by every save and
  every control: within the process on SQLite (one worker), across processes on PostgreSQL
  (``LISTEN``/``NOTIFY``), so the teacher's map on any worker wakes.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed answer survives the process being
killed (``kill -9``), though the last few may be lost if the machine itself loses power. The file is
held with an exclusive ``flock`` while a writer has it open: a second ``serve`` on it is refused.

Every failure is a :class:`LiveError` with a catalogue sentence (exit status 1): a file held by
another process, a corrupt file, a file that is not a session, a session of another problem set, a
full disk, an unreachable PostgreSQL or a bad URL, a session written by a newer attn-tutor. Never a
traceback, never a silent fresh start.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import NamedTuple

from attn_tutor.core.errors import Location
from attn_tutor.core.model import ProblemSet, Stage
from attn_tutor.kinds.sampling.model import ALL_STAGES as SAMPLING_STAGES
from attn_tutor.sessions.records import (  # noqa: F401 - named here too, as they always were
    CONCEPT_STAGE,
    CONCEPTS,
    FIRST_SAVE,
    Latest,
    Lecture,
    LiveError,
    Mark,
    Round,
    Saved,
    keep_attempt,
    keep_latest,
)
from attn_tutor.sessions.rounds import ROUND_TABLES, Lecturing
from attn_tutor.sessions.tally import Tally

SCHEMA = 1  # the session tables' version; a session with a higher one is refused (made by a newer attn-tutor)
APPLICATION = "attn-tutor live session"
MODES = ("practice", "exam")
STAGE_ORDER = {stage.value: n for n, stage in enumerate(Stage)} | {
    stage: len(Stage) + n for n, stage in enumerate(SAMPLING_STAGES) if stage not in {s.value for s in Stage}
}
"""Stages in the order an answer file lists them: attention's, then a sampling problem's own (its
``scaled`` is attention's place: both come first after the scores)."""


TABLES = """
CREATE TABLE live_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE live_problems (
    problem TEXT PRIMARY KEY, position INTEGER NOT NULL, is_open INTEGER NOT NULL, revealed INTEGER NOT NULL);
CREATE TABLE live_students (
    id {id} PRIMARY KEY, name TEXT NOT NULL, token TEXT NOT NULL UNIQUE, device TEXT UNIQUE, joined TEXT NOT NULL);
CREATE TABLE live_attempts (
    id {id} PRIMARY KEY, student_id {integer} NOT NULL REFERENCES live_students (id), client_id TEXT NOT NULL,
    problem TEXT NOT NULL, row_key TEXT NOT NULL, stage TEXT NOT NULL, text TEXT NOT NULL,
    verdict TEXT NOT NULL, diagnosis TEXT, points {real} NOT NULL, saved TEXT NOT NULL,
    UNIQUE (student_id, client_id));
CREATE TABLE live_latest (
    student_id {integer} NOT NULL, problem TEXT NOT NULL, row_key TEXT NOT NULL, stage TEXT NOT NULL,
    attempt_id {integer} NOT NULL, text TEXT NOT NULL, verdict TEXT NOT NULL, diagnosis TEXT, points {real} NOT NULL,
    PRIMARY KEY (student_id, problem, row_key, stage));
"""
"""The session's tables, written once for SQLite and PostgreSQL: each fills in its own words for
``{id}`` (a row id the database gives), ``{integer}`` (a reference to one) and ``{real}`` (a double):
:attr:`Store.words`."""

class ProblemState(NamedTuple):
    open: bool
    revealed: bool


class Session(NamedTuple):
    """The session's record (:meth:`Store.session`)."""

    title: str | None
    set_ref: str  # what grade loads the set by: a packaged set's name or the set file's absolute path
    fingerprint: str
    mode: str  # "practice" | "exam"
    problems: dict[str, ProblemState]  # in the set's order
    created: str  # ISO 8601, UTC
    id: str  # random, made with the session
    lecture: Lecture = Lecture()
    rounds: tuple[tuple[tuple[str, str], Round], ...] = ()  # ((problem, row), its round now), oldest round first

    def round_of(self, problem: str, row: str) -> Round | None:
        """The item's round now, when it was asked again (else None: round 1, or a round on a fresh variant
        that is over, the problem asked again since on other numbers)."""
        found = dict(self.rounds).get((problem, row))
        if found is not None and found.variant is not None and self.variant_of(problem) != (row, found.variant):
            return None
        return found

    def variant_of(self, problem: str) -> tuple[str, int] | None:
        """(row, seed) when ``problem``'s latest round is on a fresh variant: its numbers are the variant's."""
        found = None
        for (p, row), current in self.rounds:
            if p == problem:
                found = (row, current.variant) if current.variant is not None else None
        return found


class Student(NamedTuple):
    id: int
    name: str
    token: str  # the student's secret (their cookie); never shown to anyone else


class Roll(NamedTuple):
    """Who is in the session (:meth:`Store.students`): joined, answered at least once, and each
    answering student's score (the sum of their latest answers' points), by student id."""

    joined: int
    answered: int
    scores: dict[int, float]


@contextlib.contextmanager
def full_at_start(where: str):
    """A full disk while a session starts said as such (``live.store.full_start``), not as an answer refused."""
    try:
        yield
    except LiveError as error:
        if error.problems[0].key != "live.store.full":
            raise
        raise LiveError("live.store.full_start", Location(where)) from None


def fingerprint(problem_set: ProblemSet) -> str:
    """A hash of what marks in ``problem_set``: the problems' fields but where they stand in their
    file (so comments and reformatting keep it; any changed number, row or stage changes it)."""
    marked: tuple = tuple(problem._replace(line=None) for problem in problem_set.problems)
    if problem_set.concepts:  # (a set without concept items keeps the fingerprint it had)
        marked += tuple(concept._replace(line=None) for concept in problem_set.concepts)
    return hashlib.sha256(repr(marked).encode("utf-8")).hexdigest()


def set_reference(problem_set: ProblemSet) -> str:
    """What an answer file's ``problem_set:`` names the set by: a packaged set's name, else its file's absolute path."""
    return problem_set.name or os.path.abspath(problem_set.source)


def class_map(groups) -> dict[str, dict[str, dict[str, int]]]:
    """The class map (:meth:`Store.counts`) from the latest answers' groups: (problem, row, stage,
    verdict, diagnosis, how many), as ``GROUP BY`` gives them or :class:`~attn_tutor.sessions.tally.Tally` keeps them."""
    found: dict[str, dict[str, dict[str, int]]] = {}
    for problem, row, stage, verdict, diagnosis, count in groups:
        key = f"concepts/{row}" if problem == CONCEPTS else f"{problem}/{row}/{stage}"
        item = found.setdefault(key, {"verdicts": {}, "diagnoses": {}})
        item["verdicts"][verdict] = item["verdicts"].get(verdict, 0) + int(count)
        if problem == CONCEPTS:  # a concept item's "diagnosis": the labels chosen (see CONCEPTS)
            options = item.setdefault("options", {})
            for label in (diagnosis or "").split():
                options[label] = options.get(label, 0) + int(count)
        elif diagnosis:
            item["diagnoses"][diagnosis] = item["diagnoses"].get(diagnosis, 0) + int(count)
    return found


class Store(Lecturing):
    """A session's storage; the SQL is one, the two backends differ in connections, placeholders and
    how a change reaches other processes. Use :func:`open_store`."""

    placeholder = "?"
    words: dict[str, str]  # the database's own words in TABLES
    where: str  # the file or URL (its password left out), for sentences
    alone = False  # True: no other process writes this session (a SQLite file held by this writer)
    readonly = False  # True: opened to read (grade): nothing is made, not even the rounds' tables
    connections = 1  # how many statements the store runs at once (PostgreSQL: its pool's connections)

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._seq = 0
        self._controls = 0  # the controls (mode, open, revealed) made through this store
        self._meta: Session | None = None
        self._tally: Tally | None = None  # the map's counts and the roll as committed, kept while alone
        self._rounds_there: bool | None = None  # the rounds' tables are there (None: not asked yet)

    # the backend's part
    def _transaction(self):  # a context manager yielding a cursor-like object with execute()
        raise NotImplementedError

    def _read(self):
        return self._transaction()

    def _bump(self, cur) -> int:
        raise NotImplementedError

    def _create_tables(self, cur) -> None:
        for statement in TABLES.format(**self.words).split(";"):
            if statement.strip():
                cur.execute(statement)

    def _has_tables(self, cur) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def gone(self) -> bool:
        """Whether the session is no longer where it was opened (a SQLite file removed or replaced)."""
        return False

    def rescue(self) -> str | None:
        """A session that is :meth:`gone`, copied where it can be found again: the copy's path (None: not gone)."""
        return None

    def _serial(self):
        """A lock held across a write's transaction and the tally's update, so the tally follows the
        commits in their order (SQLite: its one connection's lock; only a store that is :attr:`alone` tallies)."""
        return contextlib.nullcontext()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def starting(self):
        """A block of the session's start (made, opened, its secret kept): a full disk here is said as
        what it stopped, the session's start, not an answer (no answer was sent yet)."""
        with full_at_start(self.where):
            yield

    def _error(self, key: str, **args: object) -> LiveError:
        return LiveError(key, Location(self.where), **args)

    def _q(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    # opening
    def start(self, problem_set: ProblemSet | None, *, create: bool) -> None:
        with self._transaction() as cur:
            if not self._has_tables(cur):
                if not create:
                    raise self._error("live.store.not_session")
                if problem_set is None:  # pragma: no cover - open_store's callers pass a set to create
                    raise self._error("live.store.not_session")
                self._create_tables(cur)
                self._fill(cur, problem_set)
            if not self.readonly:
                for statement in ROUND_TABLES.format(**self.words).split(";"):
                    if statement.strip():
                        cur.execute(statement)
                self._rounds_there = True
            self._meta = self._load(cur)
        if problem_set is not None and self._meta.fingerprint != fingerprint(problem_set):
            raise self._error("live.store.other_set", title=self._meta.title or self._meta.set_ref)
        self._seq = self._current(self._meta)

    def _fill(self, cur, problem_set: ProblemSet) -> None:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        meta = {
            "application": APPLICATION, "schema": str(SCHEMA), "title": problem_set.title or "",
            "set_ref": set_reference(problem_set), "fingerprint": fingerprint(problem_set), "mode": "practice",
            "created": now, "id": uuid.uuid4().hex, "seq": "0",
        }  # fmt: skip
        for key, value in meta.items():
            cur.execute(self._q("INSERT INTO live_meta (key, value) VALUES (?, ?)"), (key, value))
        for position, problem in enumerate(problem_set.problems):
            cur.execute(
                self._q("INSERT INTO live_problems (problem, position, is_open, revealed) VALUES (?, ?, 1, 0)"),
                (problem.id, position),
            )
        if problem_set.concepts:
            cur.execute(
                self._q("INSERT INTO live_problems (problem, position, is_open, revealed) VALUES (?, ?, 1, 0)"),
                (CONCEPTS, len(problem_set.problems)),
            )

    def _load(self, cur) -> Session:
        meta = dict(cur.execute("SELECT key, value FROM live_meta").fetchall())
        if meta.get("application") != APPLICATION:
            raise self._error("live.store.not_session")
        try:
            schema = int(meta.get("schema", ""))
        except ValueError:
            raise self._error("live.store.corrupt", reason="schema") from None
        if schema > SCHEMA:
            raise self._error("live.store.newer", schema=schema, ours=SCHEMA)
        for key in ("set_ref", "fingerprint", "mode", "created", "id", "seq"):
            if key not in meta:
                raise self._error("live.store.corrupt", reason=f"no {key}")
        problems = {
            problem: ProblemState(bool(is_open), bool(revealed))
            for problem, is_open, revealed in cur.execute(
                "SELECT problem, is_open, revealed FROM live_problems ORDER BY position"
            ).fetchall()
        }
        self._meta_raw = meta
        focus = None
        with contextlib.suppress(ValueError, TypeError):  # kept as JSON: [problem, row]
            problem, row = json.loads(meta["focus"]) if meta.get("focus") else (None, None)
            focus = (str(problem), str(row)) if problem is not None else None
        lecture = Lecture(focus, meta.get("paused") == "1", meta.get("hidden") == "1")
        rounds: dict[tuple[str, str], Round] = {}
        if self._has_rounds(cur):
            for problem, row, number, variant in cur.execute(
                "SELECT problem, row_key, round, variant FROM live_rounds ORDER BY started, round"
            ).fetchall():
                rounds.pop((problem, row), None)  # the latest last
                rounds[problem, row] = Round(int(number), None if variant is None else int(variant))
        return Session(
            meta.get("title") or None, meta["set_ref"], meta["fingerprint"], meta["mode"], problems, meta["created"], meta["id"],
            lecture, tuple(rounds.items()),
        )  # fmt: skip

    def _current(self, session: Session | None) -> int:
        return int(self._meta_raw.get("seq", "0"))

    # the session
    def session(self) -> Session:
        """The session's record as it is now (the mode and each problem's state, read afresh)."""
        with self._read() as cur:
            self._meta = self._load(cur)
        return self._meta

    def teacher_secret(self, new: str) -> str:
        """The secret of the teacher's link: the one this session keeps, or ``new`` kept as it if it
        has none yet, so ``serve --db`` on the same session (after a crash, say) prints the same
        teacher's link and the teacher's open page keeps working."""
        with self._transaction() as cur:
            cur.execute(
                self._q("INSERT INTO live_meta (key, value) VALUES ('teacher_secret', ?) ON CONFLICT (key) DO NOTHING"), (new,)
            )
            return cur.execute("SELECT value FROM live_meta WHERE key = 'teacher_secret'").fetchone()[0]

    def set_mode(self, mode: str) -> int:
        """``practice`` or ``exam``; the new change number."""
        if mode not in MODES:
            raise LiveError("live.store.bad_mode", mode=mode, modes=", ".join(MODES))
        with self._transaction() as cur:
            cur.execute(self._q("UPDATE live_meta SET value = ? WHERE key = 'mode'"), (mode,))
            seq = self._bump(cur)
        return self._controlled(seq)

    def set_open(self, problem: str, is_open: bool) -> int:
        """Open or close ``problem``; the new change number."""
        return self._set_problem(problem, "is_open", is_open)

    def set_revealed(self, problem: str, revealed: bool) -> int:
        """Show or hide ``problem``'s worked solution to the class; the new change number."""
        return self._set_problem(problem, "revealed", revealed)

    def _set_problem(self, problem: str, column: str, value: bool) -> int:
        with self._transaction() as cur:
            found = cur.execute(self._q(f"UPDATE live_problems SET {column} = ? WHERE problem = ?"), (int(value), problem))
            if found.rowcount == 0:
                raise LiveError("live.store.no_problem", problem=problem)
            seq = self._bump(cur)
        return self._controlled(seq)

    def _controlled(self, seq: int) -> int:
        with self._changed:
            self._controls += 1
        return self._changed_to(seq)

    def session_version(self) -> int:
        """A number that changes whenever the session's record (:meth:`session`) may have: the count of
        controls made here when no other process writes the session (:attr:`alone`), else the change
        number (another worker's control reaches this one only as a change)."""
        if not self.alone:
            return self.changes()
        with self._changed:
            return self._controls

    # students
    def join(self, name: str, device: str | None = None) -> Student:
        """A student by the name they typed; the same ``device`` (an id their browser keeps) gives back
        the same student (their name as first typed). The token is theirs alone: their cookie."""
        with self._serial():
            return self._join(name, device)

    def _join(self, name: str, device: str | None) -> Student:
        with self._transaction() as cur:
            if device is not None:
                row = cur.execute(self._q("SELECT id, name, token FROM live_students WHERE device = ?"), (device,)).fetchone()
                if row is not None:
                    return Student(*row)
            token = secrets.token_urlsafe(32)
            now = datetime.now(UTC).isoformat(timespec="seconds")
            row = cur.execute(
                self._q(
                    "INSERT INTO live_students (name, token, device, joined) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (device) DO NOTHING RETURNING id"
                ),
                (name, token, device, now),
            ).fetchone()
            if row is None:  # the same device joined in another worker meanwhile: that student
                row = cur.execute(self._q("SELECT id, name, token FROM live_students WHERE device = ?"), (device,)).fetchone()
                return Student(*row)
            seq = self._bump(cur)
        student = Student(row[0], name, token)
        if self._tally is not None:
            self._tally.joined(student)
        self._changed_to(seq)
        return student

    def student(self, token: str) -> Student | None:
        """The student whose token this is, or None."""
        with self._read() as cur:
            row = cur.execute(self._q("SELECT id, name, token FROM live_students WHERE token = ?"), (token,)).fetchone()
        return None if row is None else Student(*row)

    def roster(self) -> list[tuple[Student, int, float]]:
        """Every student in order of joining, with how many items they answered and their score
        (for the teacher's page only: it holds names and tokens). Kept as answers are saved while
        this store is the session's one writer (:attr:`alone`), else read from the tables."""
        with self._serial():
            if self.alone:
                return self._tallied().roster()
        return self._roster_from_tables()

    def _roster_from_tables(self) -> list[tuple[Student, int, float]]:
        with self._read() as cur:
            rows = cur.execute(
                "SELECT s.id, s.name, s.token, COUNT(l.stage), COALESCE(SUM(l.points), 0) FROM live_students s"
                " LEFT JOIN live_latest l ON l.student_id = s.id GROUP BY s.id, s.name, s.token ORDER BY s.id"
            ).fetchall()
        return [(Student(i, name, token), int(count), float(points)) for i, name, token, count, points in rows]

    def students(self) -> Roll:
        """How many joined, how many answered, and each answering student's score."""
        with self._read() as cur:
            joined = cur.execute("SELECT COUNT(*) FROM live_students").fetchone()[0]
            scores = dict(cur.execute("SELECT student_id, SUM(points) FROM live_latest GROUP BY student_id").fetchall())
        return Roll(int(joined), len(scores), {int(k): float(v) for k, v in scores.items()})

    # answers
    def save(
        self, student_id: int, problem: str, row: str, stage: str, text: str, client_id: str, mark: Mark
    ) -> Saved:
        """Keep one answer (``text`` as typed, the server's ``mark``) as an attempt and as the
        student's latest for (problem, row, stage), committed before this returns. A ``client_id``
        this student saved before gives back that first save (and the item it was for: :attr:`Saved.item`)
        and changes nothing."""
        mark = Mark(*mark)
        with self._serial():
            saved = self._save(student_id, problem, row, stage, text, client_id, mark)
            if self._tally is not None and not saved.resent:
                self._tally.saved(student_id, (problem, row, stage), mark)
        if not saved.resent:
            self._changed_to(saved.seq)
        return saved

    def _save(self, student_id: int, problem: str, row: str, stage: str, text: str, client_id: str, mark: Mark) -> Saved:
        with self._transaction() as cur:
            found = keep_attempt(self._q, cur, self._seq, student_id, (problem, row, stage), text, client_id, mark)
            if isinstance(found, Saved):
                return found
            keep_latest(self._q, cur, student_id, (problem, row, stage), found, text, mark)
            seq = self._bump(cur)
        return Saved(client_id, mark.verdict, mark.diagnosis, float(mark.points), seq, False)

    def latest(self, student_id: int, problem: str | None = None, row: str | None = None) -> dict[tuple[str, str, str], Latest]:
        """The student's latest answer per (problem, row, stage); only ``problem``'s ``row`` when given."""
        sql = (
            "SELECT l.problem, l.row_key, l.stage, l.text, l.verdict, l.diagnosis, l.points, a.client_id"
            " FROM live_latest l JOIN live_attempts a ON a.id = l.attempt_id WHERE l.student_id = ?"
        )
        args: tuple = (student_id,)
        if problem is not None:
            sql, args = sql + " AND l.problem = ? AND l.row_key = ?", (student_id, problem, row)
        with self._read() as cur:
            rows = cur.execute(self._q(sql), args).fetchall()
        return {(p, r, s): Latest(text, v, d, float(pts), c) for p, r, s, text, v, d, pts, c in rows}

    def attempts(self, student_id: int) -> list[tuple[str, str, str, str, str]]:
        """Every answer the student saved, in order: (problem, row, stage, text, verdict)."""
        with self._read() as cur:
            return [
                tuple(row)
                for row in cur.execute(
                    self._q("SELECT problem, row_key, stage, text, verdict FROM live_attempts WHERE student_id = ? ORDER BY id"),
                    (student_id,),
                ).fetchall()
            ]

    def counts(self) -> dict[str, dict[str, dict[str, int]]]:
        """The class map over every student's latest answers: for each item ``problem/row/stage``,
        ``{"verdicts": {verdict: n}, "diagnoses": {code: n}}``; for a concept item ``concepts/<id>``,
        ``{"verdicts", "diagnoses": {}, "options": {label: n}}`` (each label chosen, counted once per student).
        Counted as answers are saved while this store is the session's one writer (:attr:`alone`), else
        read from the tables; either way the groups go through :func:`class_map`."""
        with self._serial():
            if self.alone:
                return class_map(self._tallied().groups())
        return class_map(self._groups_from_tables())

    def _groups_from_tables(self) -> list[tuple]:
        with self._read() as cur:
            return cur.execute(
                "SELECT problem, row_key, stage, verdict, diagnosis, COUNT(*) FROM live_latest"
                " GROUP BY problem, row_key, stage, verdict, diagnosis"
            ).fetchall()

    def _tallied(self) -> Tally:
        """The tally, read from the tables the first time (under :meth:`_serial`: no save in between)."""
        if self._tally is None:
            with self._read() as cur:
                latest = cur.execute(
                    "SELECT student_id, problem, row_key, stage, verdict, diagnosis, points FROM live_latest"
                    " ORDER BY student_id, problem, row_key, stage"
                ).fetchall()
            self._tally = Tally([student for student, _count, _points in self._roster_from_tables()], latest)
        return self._tally

    # changes
    def follow(self) -> None:
        """Start following the changes other processes make (PostgreSQL: the one listener of this
        process), so that :meth:`changes` and :meth:`session_version` need no query; a SQLite file has
        one writer, this process, and nothing to follow."""

    def changes(self) -> int:
        """The change number now: raised by every save, join and control."""
        with self._changed:
            return self._seq

    def wait_change(self, after_seq: int, timeout: float) -> int:
        """The change number once it is past ``after_seq``, or as it is after ``timeout`` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._seq > after_seq, timeout)
            return self._seq

    def _changed_to(self, seq: int) -> int:
        with self._changed:
            if seq > self._seq:
                self._seq = seq
                self._changed.notify_all()
            return self._seq

    # grade
    def answer_files(self) -> Iterator[tuple[str, dict]]:
        """Each student who answered, in order of joining: (their name, their answers in an answer
        file's shape ``{"student", "problem_set", "answers": {problem: {row: {stage: text}}}}``, and
        ``"concepts": {id: choice}`` when they chose any), with the text they typed last for each stage
        (problems in the set's order, stages in theirs; concept items in the order first answered)."""
        session = self.session()
        order = {problem: n for n, problem in enumerate(session.problems)}
        with self._read() as cur:
            rows = cur.execute(
                "SELECT s.id, s.name, l.problem, l.row_key, l.stage, l.text, l.attempt_id FROM live_latest l"
                " JOIN live_students s ON s.id = l.student_id ORDER BY s.id"
            ).fetchall()
        by_student: dict[int, tuple[str, list]] = {}
        for student_id, name, problem, row, stage, text, attempt in rows:
            by_student.setdefault(student_id, (name, []))[1].append((problem, row, stage, text, attempt))
        for name, items in by_student.values():
            first_row: dict[tuple[str, str], int] = {}
            for problem, row, _stage, _text, attempt in items:
                first_row[problem, row] = min(attempt, first_row.get((problem, row), attempt))
            items.sort(key=lambda i: (order.get(i[0], len(order)), i[0], first_row[i[0], i[1]], STAGE_ORDER.get(i[2], 9), i[2]))
            answers: dict[str, dict[str, dict[str, str]]] = {}
            concepts: dict[str, str] = {}
            for problem, row, stage, text, _attempt in items:
                if problem == CONCEPTS:
                    concepts[row] = text
                else:
                    answers.setdefault(problem, {}).setdefault(row, {})[stage] = text
            found = {"student": name, "problem_set": session.set_ref, "answers": answers}
            if concepts:
                found["concepts"] = concepts
            yield name, found
