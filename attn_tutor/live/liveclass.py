"""The live class behind the web app: what a student and the teacher see, and what a student saves.

:class:`LiveClass` is what every view shares (``request.app.state.live``): the open store, the
one marker as ``grade`` calls it (:mod:`attn_tutor.live.marks`; an answer is marked again here,
and the reply comes after the commit), the pages made once, the teacher's secret. It reads the
session again only after it may have changed, keeps each student once read (a student's record
never changes), answers ``GET /api/state`` (a student's view: in an exam, no marks until the
problem closes) and ``POST /api/answer`` (one checked stage, or one concept item's choice), makes
the teacher's snapshot (counts, the map, the score distribution, every student), and the
students' view of the session; the process's event streams get them from its one
:class:`~attn_tutor.live.feed.Feed`.
"""

from __future__ import annotations

import math
import threading
import unicodedata
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread

from attn_tutor.core.model import ProblemSet
from attn_tutor.core.rounding import fmt_given
from attn_tutor.core.text import is_unsafe_char
from attn_tutor.live import pages
from attn_tutor.live.feed import Feed
from attn_tutor.live.marks import Marks, RequestError
from attn_tutor.sessions.store import CONCEPT_STAGE, CONCEPTS, Mark, Saved, Session, Store

CLIENT_ID_LIMIT = 100
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")  # Hangul fillers, Braille blank, CGJ: letters that show nothing
DISTRIBUTION_BINS = 10  # the scores in about ten ranges of whole points


class LiveClass:
    """What the routes share: the store, the marker, the pages made once, the secret."""

    def __init__(self, store: Store, problem_set: ProblemSet, *, lang: str, secret: str, student_url: str | None,
                 set_name: str, events_wait: float, events_gap: float, student_events_wait: float) -> None:  # fmt: skip
        self.store = store
        self.problem_set = problem_set
        self.lang = lang
        self.secret = secret
        self.student_url = student_url
        self.marks = Marks(problem_set)
        self.title = pages.title_of(problem_set)
        self.items = pages.item_keys(problem_set)
        data = pages.practice_data(problem_set, set_name=set_name, title=self.title)
        self.data = {"practice": data, "exam": pages.exam_data(data)}
        self.solutions = pages.solutions_html(problem_set)
        self._pages: dict[tuple[str, str], str] = {}
        self._session: tuple[int | None, Session | None] = (None, None)  # (the store's session version, the session read at it)
        self._session_lock = threading.Lock()
        self._students: dict[str, Any] = {}  # token -> Student: a student's record never changes once joined
        # the event streams of this process, fed by one follower of the store (no thread, connection or query a stream)
        self.feed = Feed(store, snapshot=self.snapshot, student_state=self.student_state, lang=lang, wait=events_wait, gap=events_gap,
                         quiet=student_events_wait)  # fmt: skip
        self._threads: anyio.CapacityLimiter | None = None  # made on the event loop, at the first request
        self._following = False  # the store follows other processes' changes from the first request this process serves

    # --- helpers ---------------------------------------------------------------------

    async def call(self, work: Callable, *args):
        """A student's request's work: here, on the event loop, when the store is a SQLite file this
        process holds (a save is a few hundred microseconds of local work: the trip to a worker thread
        and back would cost the loop more than the work itself); in a worker thread on PostgreSQL,
        where each call waits on the network and the server's disk."""
        if self.store.alone:
            return work(*args)
        return await anyio.to_thread.run_sync(work, *args, limiter=self._limiter())

    def _limiter(self) -> anyio.CapacityLimiter:
        """As many threads at once for the students' requests as the store has connections: more would only
        wait for one, each waking the others (measured: CPU an answer on PostgreSQL)."""
        if self._threads is None:
            self._threads = anyio.CapacityLimiter(self.store.connections)
        return self._threads

    def session(self):
        """The session record, read again only after it may have changed (:meth:`Store.session_version`)."""
        if not self._following:  # PostgreSQL: this process's one listener (an answer then reads no change number);
            self._following = True  # from a request, so that serve --workers's supervisor, which serves none, has none
            self.store.follow()
        version = self.store.session_version()
        with self._session_lock:
            known_version, known = self._session
        if known is not None and known_version == version:
            return known
        session = self.store.session()  # read after the version: at least as new as it
        with self._session_lock:
            self._session = (version, session)
        return session

    def student_page(self, mode: str, session_id: str) -> str:
        key = (mode, session_id)
        if key not in self._pages:
            self._pages[key] = pages.student_page(self.data[mode], title=self.title, mode=mode, session_id=session_id)
        return self._pages[key]

    def student_by(self, token: str | None):
        """The student whose token this is (read once, then kept: it never changes), or None."""
        if not token or len(token) > 200:
            return None
        student = self._students.get(token)
        if student is None:
            student = self.store.student(token)
            if student is not None and len(self._students) < 100_000:
                self._students[token] = student
        return student

    async def find_student(self, token: str | None):
        """:meth:`student_by` for the route middleware (:class:`attn_tutor.live.auth.Student`): a student already known
        is found here, on the event loop; one not yet known is read as a request's work (:meth:`call`)."""
        known = self._students.get(token) if token else None
        return known if known is not None else await self.call(self.student_by, token)

    def shows_marks(self, session, problem: str) -> bool:
        """Whether a student sees the verdicts of ``problem`` now: always in practice, after it closes in an exam."""
        return session.mode != "exam" or not session.problems[problem].open

    def student_state(self) -> dict:
        """What every student's page is told of the session (``GET /api/events``): :meth:`state` without
        a student's own answers or the solutions' text (a revealed problem's comes with ``/api/state``)."""
        return self.session_view(self.session(), solutions=False)

    def session_view(self, session, *, solutions: bool = True) -> dict:
        """The session as a student sees it: its id, the mode, each problem open or closed and revealed (with
        the worked solution's HTML, if ``solutions``), and the concept items open or closed."""
        problems: dict[str, dict[str, object]] = {}
        for pid, state in session.problems.items():
            if pid == CONCEPTS:
                continue
            problems[pid] = {"open": state.open, "revealed": state.revealed}
            if solutions and state.revealed:
                problems[pid]["solution_html"] = self.solutions[pid]
        found: dict[str, object] = {"mode": session.mode, "session": session.id, "problems": problems}
        if CONCEPTS in session.problems:
            found["concepts"] = {"open": session.problems[CONCEPTS].open}
        return found

    def state(self, student) -> dict:
        """A student's view: the session's state and their own answers (marks as they may see them)."""
        session = self.session()
        answers = []
        if student is not None:
            for (problem, row, stage), latest in self.store.latest(student.id).items():
                if problem not in session.problems:
                    continue
                if problem == CONCEPTS:
                    if row in self.marks.concepts:
                        answers.append(self.concept_reply(session, row, latest.text, latest.client_id, latest))
                    continue
                answer: dict[str, object] = {"problem": problem, "row": row, "stage": stage, "text": latest.text, "client_id": latest.client_id}
                if self.shows_marks(session, problem):
                    answer.update(verdict=latest.verdict, diagnosis=latest.diagnosis, points=latest.points)
                answers.append(answer)
        return {"joined": student is not None, "name": None if student is None else student.name, **self.session_view(session),
                "answers": answers}  # fmt: skip

    def answer(self, student, body: dict) -> dict:
        """Save one checked stage, marked by the server; after the commit, what the student may see of it."""
        if "concept" in body:
            return self.concept_answer(student, body)
        item = self.marks.item(body.get("problem"), body.get("row"), body.get("stage"))
        text = _field(body, "text", str, "string")
        client_id = _checked_client_id(_field(body, "client_id", str, "string"))
        session = self.session()
        latest = self.store.latest(student.id, item.problem, item.row)  # the row's stages: all the marker reads
        mine = latest.get((item.problem, item.row, item.stage))
        if mine is not None and mine.client_id == client_id:  # a resend of what is saved: the first answer
            verdict, diagnosis, points = mine.verdict, mine.diagnosis, mine.points
        else:
            if not session.problems[item.problem].open:
                raise RequestError(409, "live.error.closed", problem=item.problem)
            others = {s: a.text for (p, r, s), a in latest.items() if p == item.problem and r == item.row and s != item.stage}
            mark = self.marks.mark(item, text, others)
            saved = _unreused(self.store.save(student.id, item.problem, item.row, item.stage, text, client_id, Mark(*mark)),
                              (item.problem, item.row, item.stage))  # fmt: skip
            verdict, diagnosis, points = saved.verdict, saved.diagnosis, saved.points
        reply = {"saved": True, "client_id": client_id, "problem": item.problem, "row": item.row, "stage": item.stage}
        if self.shows_marks(session, item.problem):
            reply.update(verdict=verdict, diagnosis=diagnosis, points=points)
        return reply

    def concept_answer(self, student, body: dict) -> dict:
        """Save one concept item's choice (``{"concept": id, "text": "B", "client_id"}``), marked by the
        one concept marker against the item as the page shows it; after the commit, what the student may see."""
        shown = self.marks.concept(body.get("concept"))
        text = _field(body, "text", str, "string")
        client_id = _checked_client_id(_field(body, "client_id", str, "string"))
        session = self.session()
        mine = self.store.latest(student.id, CONCEPTS, shown.id).get((CONCEPTS, shown.id, CONCEPT_STAGE))
        if mine is not None and mine.client_id == client_id:  # a resend of what is saved: the first answer
            return self.concept_reply(session, shown.id, mine.text, client_id, mine)
        if not session.problems[CONCEPTS].open:
            raise RequestError(409, "live.error.concepts_closed")
        mark = self.marks.mark_concept(shown, text)
        chosen = None if shown.kind == "order" else " ".join(mark.chosen)  # the map counts each label chosen
        saved = self.store.save(student.id, CONCEPTS, shown.id, CONCEPT_STAGE, text, client_id,
                                Mark("correct" if mark.right else "wrong", chosen, mark.score))  # fmt: skip
        _unreused(saved, (CONCEPTS, shown.id, CONCEPT_STAGE))
        return self.concept_reply(session, shown.id, text, client_id, saved)

    def concept_reply(self, session, concept: str, text: str, client_id: str, mark) -> dict:
        """A saved choice as the student may see it: its mark, feedback, answer and explanation only
        where they see marks (practice, or an exam once the concept items are closed)."""
        reply = {"saved": True, "concept": concept, "text": text, "client_id": client_id}
        if self.shows_marks(session, CONCEPTS):
            shown = self.marks.concepts[concept]
            marked = self.marks.mark_concept(shown, text)
            reply.update(verdict=mark.verdict, points=mark.points, chosen=list(marked.chosen), answer=list(shown.answer),
                         feedback=marked.feedback, explanation=shown.explanation)  # fmt: skip
        return reply

    def snapshot(self) -> dict:
        """The teacher's view: counts, the map, the score distribution, every student (names: here only)."""
        session = self.session()
        roster = self.store.roster()  # the roll (Store.students) counted from it; kept as answers are saved on a SQLite file
        scores = [score for _student, answered, score in roster if answered]
        top = len(self.items)
        width = max(1, math.ceil(top / DISTRIBUTION_BINS))
        bins = [0] * (top // width + 1)
        for score in scores:
            bins[min(len(bins) - 1, max(0, math.floor(score + 1e-9)) // width)] += 1
        students = [
            {"name": student.name, "answered": answered, "score": score, "score_text": fmt_given(score, 2)}
            for student, answered, score in roster
        ]
        return {
            "joined": len(roster),
            "answered": len(scores),
            "mode": session.mode,
            "problems": {pid: {"open": s.open, "revealed": s.revealed} for pid, s in session.problems.items()},
            "items": self.items,
            "map": self.store.counts(),
            "max": top,
            "distribution": [{"low": k * width, "high": min(top, (k + 1) * width), "count": n} for k, n in enumerate(bins)],
            "students": students,
            "seq": self.store.changes(),
        }


def _field(body: dict, name: str, kind: type, said: str):
    value = body.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) != (kind is bool):
        raise RequestError(400, "live.error.field", field=name, kind=said)
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from a JSON \ud800 escape
            raise RequestError(400, "live.error.field", field=name, kind=said) from None
    return value


def _unreused(saved: Saved, item: tuple[str, str, str]) -> Saved:
    """The save, unless its ``client_id`` was first saved for another item: then nothing was stored
    for this one, and it is refused (409) rather than acknowledged."""
    if saved.resent and saved.item is not None and tuple(saved.item) != item:
        first = saved.item[1] if saved.item[0] == CONCEPTS else "/".join(saved.item)
        raise RequestError(409, "live.error.client_id_reused", client_id=saved.client_id[:40], first=first[:120])
    return saved


def _checked_client_id(client_id: str) -> str:
    if not 0 < len(client_id) <= CLIENT_ID_LIMIT or any(is_unsafe_char(c) for c in client_id):
        raise RequestError(400, "live.error.field", field="client_id", kind=f"1-{CLIENT_ID_LIMIT} printable characters")
    return client_id


def checked_name(value) -> str:
    """A joining student's name: NFC, trimmed, visible, at most the page's limit."""
    if not isinstance(value, str):
        raise RequestError(400, "live.error.field", field="name", kind="string")
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise RequestError(400, "live.error.name_blank")
    for ch in name:
        if is_unsafe_char(ch) or ch in BLANK_LETTERS:
            raise RequestError(400, "live.error.name_unsafe", char=f"U+{ord(ch):04X}")
    if len(name) > pages.NAME_LIMIT:
        raise RequestError(400, "live.error.name_too_long", count=len(name), limit=pages.NAME_LIMIT)
    return name
