"""A live session's "another like this": the variants each student drew of a problem and their answers
to them, kept apart from the set's own answers (:class:`Practice`, over an open
:class:`~attn_tutor.sessions.store.Store`), so that the teacher's map, the scores and ``grade`` never
count them; ``grade --include-practice`` asks for them (:meth:`Practice.files`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

from attn_tutor.core.i18n import t
from attn_tutor.sessions.store import FIRST_SAVE, STAGE_ORDER, Latest, LiveError, Mark, Saved, Store

PRACTICE_TABLES = """
CREATE TABLE IF NOT EXISTS live_variants (
    student_id {integer} NOT NULL, problem TEXT NOT NULL, variant {integer} NOT NULL, asked TEXT NOT NULL,
    PRIMARY KEY (student_id, problem, variant));
CREATE TABLE IF NOT EXISTS live_practice (
    id {id} PRIMARY KEY, student_id {integer} NOT NULL, client_id TEXT NOT NULL, problem TEXT NOT NULL,
    variant {integer} NOT NULL, row_key TEXT NOT NULL, stage TEXT NOT NULL, text TEXT NOT NULL,
    verdict TEXT NOT NULL, diagnosis TEXT, points {real} NOT NULL, saved TEXT NOT NULL,
    UNIQUE (student_id, client_id));
"""
"""The practice tables: the variants each student drew of a problem (their seeds, as ``export
--variants`` numbers a sheet) and every answer to one, apart from ``live_attempts``/``live_latest``.
Made by the server (:meth:`Practice.ensure`) in a session new or made before them (``IF NOT EXISTS``);
each database fills in its own words as for :data:`~attn_tutor.sessions.store.TABLES`."""


class Practice:
    """The practice tables of ``store``'s session: every method synchronous, thread-safe and committed
    before it returns, as the store's own."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def ensure(self) -> None:
        """The tables, made if the session has none yet (a server's start; several workers at once:
        one makes them, the others find them)."""
        store = self.store
        try:
            with store._transaction() as cur:
                if not self._has_tables(cur):
                    for statement in PRACTICE_TABLES.format(**store.words).split(";"):
                        if statement.strip():
                            cur.execute(statement)
        except LiveError:
            with store._read() as cur:
                if not self._has_tables(cur):
                    raise

    def _has_tables(self, cur) -> bool:
        """Whether the session has the practice tables (a session made before them, read by ``grade``, has not)."""
        if self.store.placeholder == "?":  # SQLite
            sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'live_practice'"
        else:
            sql = "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'live_practice'"
        return cur.execute(sql).fetchone() is not None

    def ask(self, student_id: int, problem: str, variant: int) -> int:
        """Note that the student drew ``variant`` (a seed) of ``problem``; the new change number (the
        teacher's page counts them). Drawing the same one again changes nothing."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self.store._transaction() as cur:
            cur.execute(
                self.store._q("INSERT INTO live_variants (student_id, problem, variant, asked) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"),
                (student_id, problem, int(variant), now),
            )
            seq = self.store._bump(cur)
        return self.store._changed_to(seq)

    def drawn(self, student_id: int, problem: str | None = None) -> list[tuple[str, int]]:
        """The variants the student drew, in the order drawn: (problem, variant); only ``problem``'s when given."""
        sql = "SELECT problem, variant FROM live_variants WHERE student_id = ?"
        args: tuple = (student_id,)
        if problem is not None:
            sql, args = sql + " AND problem = ?", (student_id, problem)
        with self.store._read() as cur:
            return [(p, int(v)) for p, v in cur.execute(self.store._q(sql + " ORDER BY asked, variant"), args).fetchall()]

    def save(self, student_id: int, problem: str, variant: int, row: str, stage: str, text: str, client_id: str,
                      mark: Mark) -> Saved:  # fmt: skip
        """Keep one answer to a variant the student drew, as :meth:`Store.save` keeps one (committed before this
        returns, once per ``client_id``: a client id the student used for any answer gives that first save
        back); never in the map, the scores or ``grade`` unless asked (:meth:`files`)."""
        mark = Mark(*mark)
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self.store._transaction() as cur:
            first = cur.execute(self.store._q(FIRST_SAVE), (student_id, client_id)).fetchone()
            if first is not None:  # used for an answer to the set itself
                return Saved(client_id, first[0], first[1], float(first[2]), self.store._seq, True, tuple(first[3:6]))
            found = cur.execute(
                self.store._q(
                    "INSERT INTO live_practice (student_id, client_id, problem, variant, row_key, stage, text, verdict, diagnosis,"
                    " points, saved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (student_id, client_id) DO NOTHING RETURNING id"
                ),
                (student_id, client_id, problem, int(variant), row, stage, text, mark.verdict, mark.diagnosis, float(mark.points), now),
            ).fetchone()
            if found is None:
                first = cur.execute(
                    self.store._q("SELECT verdict, diagnosis, points, problem, row_key, stage, variant FROM live_practice"
                            " WHERE student_id = ? AND client_id = ?"),
                    (student_id, client_id),
                ).fetchone()  # fmt: skip
                item = (f"{first[3]}@{first[6]}", first[4], first[5])
                return Saved(client_id, first[0], first[1], float(first[2]), self.store._seq, True, item)
            seq = self.store._bump(cur)
        self.store._changed_to(seq)
        return Saved(client_id, mark.verdict, mark.diagnosis, float(mark.points), seq, False)

    def latest(self, student_id: int, problem: str | None = None, variant: int | None = None,
                        row: str | None = None) -> dict[tuple[str, int, str, str], Latest]:  # fmt: skip
        """The student's latest answer to each (problem, variant, row, stage) of the variants they drew;
        only ``problem``'s ``variant``'s ``row`` when given."""
        sql = (
            "SELECT problem, variant, row_key, stage, text, verdict, diagnosis, points, client_id FROM live_practice"
            " WHERE id IN (SELECT MAX(id) FROM live_practice WHERE student_id = ?{where} GROUP BY problem, variant, row_key, stage)"
        )
        args: tuple = (student_id,)
        if problem is not None:
            sql, args = sql.format(where=" AND problem = ? AND variant = ? AND row_key = ?"), (student_id, problem, int(variant or 0), row)
        else:
            sql = sql.format(where="")
        with self.store._read() as cur:
            rows = cur.execute(self.store._q(sql), args).fetchall()
        return {(p, int(v), r, s): Latest(text, verdict, d, float(pts), c) for p, v, r, s, text, verdict, d, pts, c in rows}

    def counts(self) -> dict[str, dict[str, int]]:
        """For the teacher: per problem, how many variants were drawn ("another like this"), by how many
        students, and how many answers to them were saved."""
        with self.store._read() as cur:
            if not self._has_tables(cur):
                return {}
            drawn = cur.execute("SELECT problem, COUNT(*), COUNT(DISTINCT student_id) FROM live_variants GROUP BY problem").fetchall()
            answered = dict(cur.execute("SELECT problem, COUNT(*) FROM live_practice GROUP BY problem").fetchall())
        return {p: {"variants": int(n), "students": int(k), "answers": int(answered.get(p, 0))} for p, n, k in drawn}

    def files(self) -> Iterator[tuple[str, dict]]:
        """Each variant a student answered, in order of joining and then of answering: (their name marked
        as practice on that variant, ``live.practice_student``, so the row is never taken for theirs; an
        answer file's shape with ``"variant"`` and the text they typed last for each stage of it).
        ``grade --include-practice`` marks these as well (the variant regenerated from its seed)."""
        session = self.store.session()
        with self.store._read() as cur:
            if not self._has_tables(cur):
                return
            rows = cur.execute(
                "SELECT s.id, s.name, p.problem, p.variant, p.row_key, p.stage, p.text FROM live_practice p"
                " JOIN live_students s ON s.id = p.student_id"
                " WHERE p.id IN (SELECT MAX(id) FROM live_practice GROUP BY student_id, problem, variant, row_key, stage)"
                " ORDER BY s.id, p.id"
            ).fetchall()
        grouped: dict[tuple[int, str, int], tuple[str, dict]] = {}
        for student_id, name, problem, variant, row, stage, text in rows:
            entry = grouped.setdefault((student_id, problem, int(variant)), (name, {}))
            entry[1].setdefault(row, {})[stage] = text
        for (_student, problem, variant), (name, by_row) in grouped.items():
            answers = {problem: {row: dict(sorted(stages.items(), key=lambda s: STAGE_ORDER.get(s[0], 9))) for row, stages in by_row.items()}}
            named = t("live.practice_student", name=name, variant=variant)  # a row of its own, never the student's
            yield named, {"student": named, "problem_set": session.set_ref, "variant": variant, "answers": answers}
