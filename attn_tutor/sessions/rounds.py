"""Peer instruction in a live session: the lecture's state (the item in focus, answers paused, results
hidden) and each item's rounds (asked again, on the set's numbers or on a fresh variant), kept by
:class:`Lecturing`, the part of :class:`attn_tutor.sessions.store.Store` that keeps them (its SQL, for
SQLite and PostgreSQL alike, as the store's own)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from attn_tutor.sessions.records import CONCEPTS, Latest, Mark, Round, Saved, keep_attempt, keep_latest

ROUND_TABLES = """
CREATE TABLE IF NOT EXISTS live_rounds (
    problem TEXT NOT NULL, row_key TEXT NOT NULL, round INTEGER NOT NULL, variant {integer}, started TEXT NOT NULL,
    PRIMARY KEY (problem, row_key, round));
CREATE TABLE IF NOT EXISTS live_round_answers (
    problem TEXT NOT NULL, row_key TEXT NOT NULL, round INTEGER NOT NULL, student_id {integer} NOT NULL,
    stage TEXT NOT NULL, client_id TEXT NOT NULL, text TEXT NOT NULL, verdict TEXT NOT NULL, diagnosis TEXT,
    points {real} NOT NULL, PRIMARY KEY (problem, row_key, round, student_id, stage));
"""
"""Peer instruction's rounds (:meth:`Store.ask_again`), made beside :data:`TABLES` in every session opened
to serve (a session made before them gains them then): each item asked again (``problem``, ``row_key``:
a problem's row, or ``#concepts`` and a concept item's id) with the round's number (2, 3, …; round 1 is
what came before) and the variant drawn for it (None: the set's own numbers); and each student's last
answer of each round, per stage. ``live_latest`` keeps holding the last answer on the set's own
numbers, so ``grade`` marks what it marked before; a round on a fresh variant lives here only."""

LECTURE_KEYS = ("focus", "paused", "hidden")  # live_meta's keys of the lecture's state (absent: none, no, no)


class Lecturing:
    """The store's peer instruction (a base of :class:`attn_tutor.sessions.store.Store`, which gives
    the transactions, the change number and the tally these use)."""

    _seq: int
    _tally: Any
    _rounds_there: bool | None  # the rounds' tables are there (None: not asked yet)

    def _transaction(self) -> Any:
        raise NotImplementedError

    def _read(self) -> Any:
        raise NotImplementedError

    def _q(self, sql: str) -> str:
        raise NotImplementedError

    def _bump(self, cur) -> int:
        raise NotImplementedError

    def _serial(self) -> Any:
        raise NotImplementedError

    def _controlled(self, seq: int) -> int:
        raise NotImplementedError

    def _changed_to(self, seq: int) -> int:
        raise NotImplementedError

    def _has_rounds(self, cur) -> bool:
        """Whether the rounds' tables are there: made at the start of a session opened to serve, so asked
        of the database once, only by a store that reads (a session made before them, read by grade, has none)."""
        if self._rounds_there is None:
            self._rounds_there = self._rounds_exist(cur)
        return self._rounds_there

    def _rounds_exist(self, cur) -> bool:
        raise NotImplementedError

    def set_lecture(self, *, focus: tuple[str, str] | None | bool = False, paused: bool | None = None,
                    hidden: bool | None = None) -> int:  # fmt: skip
        """Change the lecture's state (:class:`Lecture`): ``focus`` an item (``(problem, row)``), None for
        none, False to leave it; ``paused``, ``hidden`` True/False, None to leave them. The new change number."""
        values = {}
        if focus is not False:
            values["focus"] = "" if focus is None or focus is True else json.dumps(list(focus), ensure_ascii=False)
        if paused is not None:
            values["paused"] = "1" if paused else "0"
        if hidden is not None:
            values["hidden"] = "1" if hidden else "0"
        with self._transaction() as cur:
            for key, value in values.items():
                cur.execute(
                    self._q("INSERT INTO live_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
                    (key, value),
                )
            seq = self._bump(cur)
        return self._controlled(seq)

    def ask_again(self, problem: str, row: str, variant: int | None = None) -> Round:
        """A new round on the item (``problem``'s ``row``, or ``CONCEPTS`` and a concept item's id): the
        students answer it again, on the set's numbers or on the variant of seed ``variant``. The first
        time, round 1 is kept as it stands (each student's latest answers to the item). The new round."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._transaction() as cur:
            last = cur.execute(self._q("SELECT MAX(round) FROM live_rounds WHERE problem = ? AND row_key = ?"), (problem, row)).fetchone()[0]
            if last is None:
                cur.execute(
                    self._q(
                        "INSERT INTO live_round_answers (problem, row_key, round, student_id, stage, client_id, text, verdict, diagnosis, points)"
                        " SELECT l.problem, l.row_key, 1, l.student_id, l.stage, a.client_id, l.text, l.verdict, l.diagnosis, l.points"
                        " FROM live_latest l JOIN live_attempts a ON a.id = l.attempt_id WHERE l.problem = ? AND l.row_key = ?"
                    ),
                    (problem, row),
                )
                last = 1
            cur.execute(
                self._q("INSERT INTO live_rounds (problem, row_key, round, variant, started) VALUES (?, ?, ?, ?, ?)"),
                (problem, row, int(last) + 1, variant, now),
            )
            seq = self._bump(cur)
        self._controlled(seq)
        return Round(int(last) + 1, variant)

    def save_round(self, student_id: int, problem: str, row: str, stage: str, text: str, client_id: str, mark: Mark,
                   number: int, *, latest: bool) -> Saved:  # fmt: skip
        """As :meth:`save`, for an item in round ``number`` (:meth:`ask_again`): kept as an attempt, as the
        student's answer of that round, and (``latest``: on the set's own numbers) as their latest."""
        mark = Mark(*mark)
        with self._serial():
            saved = self._save_round(student_id, problem, row, stage, text, client_id, mark, number, latest)
            if self._tally is not None and latest and not saved.resent:
                self._tally.saved(student_id, (problem, row, stage), mark)
        if not saved.resent:
            self._changed_to(saved.seq)
        return saved

    def _save_round(self, student_id, problem, row, stage, text, client_id, mark: Mark, number: int, latest: bool) -> Saved:
        marked = (mark.verdict, mark.diagnosis, float(mark.points))
        with self._transaction() as cur:
            found = keep_attempt(self._q, cur, self._seq, student_id, (problem, row, stage), text, client_id, mark)
            if isinstance(found, Saved):
                return found
            if latest:
                keep_latest(self._q, cur, student_id, (problem, row, stage), found, text, mark)
            cur.execute(
                self._q(
                    "INSERT INTO live_round_answers (problem, row_key, round, student_id, stage, client_id, text, verdict, diagnosis, points)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (problem, row_key, round, student_id, stage) DO UPDATE SET"
                    " client_id = excluded.client_id, text = excluded.text, verdict = excluded.verdict,"
                    " diagnosis = excluded.diagnosis, points = excluded.points"
                ),
                (problem, row, number, student_id, stage, client_id, text, *marked),
            )
            seq = self._bump(cur)
        return Saved(client_id, mark.verdict, mark.diagnosis, float(mark.points), seq, False)

    def round_latest(self, student_id: int, problem: str, row: str, number: int) -> dict[tuple[str, str, str], Latest]:
        """The student's answers to the item in round ``number``, per stage (as :meth:`latest`)."""
        with self._read() as cur:
            rows = cur.execute(
                self._q(
                    "SELECT stage, text, verdict, diagnosis, points, client_id FROM live_round_answers"
                    " WHERE student_id = ? AND problem = ? AND row_key = ? AND round = ?"
                ),
                (student_id, problem, row, number),
            ).fetchall()
        return {(problem, row, s): Latest(text, v, d, float(pts), c) for s, text, v, d, pts, c in rows}

    def round_counts(self, problem: str, row: str) -> list[tuple[int, int | None, str, str, str | None, int]]:
        """The item's rounds, counted: (round, its variant, stage, verdict, diagnosis, how many) groups, round 1 first."""
        with self._read() as cur:
            if not self._has_rounds(cur):
                return []
            variants = dict(cur.execute(self._q("SELECT round, variant FROM live_rounds WHERE problem = ? AND row_key = ?"), (problem, row)).fetchall())
            groups = cur.execute(
                self._q(
                    "SELECT round, stage, verdict, diagnosis, COUNT(*) FROM live_round_answers"
                    " WHERE problem = ? AND row_key = ? GROUP BY round, stage, verdict, diagnosis"
                ),
                (problem, row),
            ).fetchall()
        found = [(int(r), variants.get(r), s, v, d, int(n)) for r, s, v, d, n in groups]
        return sorted(found, key=lambda g: (g[0], g[2], g[3], g[4] or ""))

    def variants_drawn(self) -> int:
        """How many rounds were asked on a fresh variant (the next draws the one after them)."""
        with self._read() as cur:
            if not self._has_rounds(cur):
                return 0
            return int(cur.execute("SELECT COUNT(*) FROM live_rounds WHERE variant IS NOT NULL").fetchone()[0])

    def round_students(self, problem: str, row: str, number: int) -> int:
        """How many students answered the item in round ``number``."""
        with self._read() as cur:
            return int(cur.execute(
                self._q("SELECT COUNT(DISTINCT student_id) FROM live_round_answers WHERE problem = ? AND row_key = ? AND round = ?"),
                (problem, row, number),
            ).fetchone()[0])  # fmt: skip

    def round_report(self) -> list[dict]:
        """Every round of every item asked again, for ``grade --json``: the item, the round, its variant
        (None: the set's numbers) and each student's answers of that round (name, stage, text, mark),
        in order of item, round, joining and stage."""
        with self._read() as cur:
            if not self._has_rounds(cur):
                return []
            rows = cur.execute(
                "SELECT a.problem, a.row_key, a.round, r.variant, s.id, s.name, a.stage, a.text, a.verdict, a.diagnosis, a.points"
                " FROM live_round_answers a JOIN live_students s ON s.id = a.student_id"
                " LEFT JOIN live_rounds r ON r.problem = a.problem AND r.row_key = a.row_key AND r.round = a.round"
                " ORDER BY a.problem, a.row_key, a.round, s.id, a.stage"
            ).fetchall()
        found: dict[tuple, dict] = {}
        for problem, row, number, variant, _student, name, stage, text, verdict, diagnosis, points in rows:
            key = (problem, row, int(number))
            item = f"concepts/{row}" if problem == CONCEPTS else f"{problem}/{row}" if row else problem  # a sampling problem: no row
            entry = found.setdefault(key, {"item": item, "round": int(number), "variant": variant, "answers": []})
            entry["answers"].append({"student": name, "stage": stage, "text": text, "verdict": verdict,
                                     "diagnosis": diagnosis, "points": float(points)})  # fmt: skip
        return list(found.values())
