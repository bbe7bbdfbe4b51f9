"""The live class behind the web app: what a student and the teacher see, and what a student saves.

:class:`LiveClass` is what every view shares (``request.app.state.live``): the open store, the
one marker as ``grade`` calls it (:mod:`attn_tutor.live.marks`; an answer is marked again here,
and the reply comes after the commit), the pages made once, the teacher's secret. It reads the
session again only after it may have changed, keeps each student once read (a student's record
never changes), answers ``GET /api/state`` (a student's view: in an exam, no marks until the
problem closes) and ``POST /api/answer`` (one checked stage, or one concept item's choice), makes
the teacher's snapshot (counts, the map, the score distribution, every student), the projector's
view without a name (:meth:`LiveClass.projector_snapshot`) and the students' view of the session;
the process's event streams get them from its one :class:`~attn_tutor.live.feed.Feed`. Peer
instruction: an answer is refused while the class is paused (423); an item asked again is answered
and marked as its round (on a fresh variant's numbers when the teacher drew one:
:meth:`LiveClass.variant`, the students' page made with them).
"""

from __future__ import annotations

import hashlib
import threading
import unicodedata
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import t
from attn_tutor.core.model import ProblemSet
from attn_tutor.core.rounding import fmt_given
from attn_tutor.core.text import is_unsafe_char
from attn_tutor.live import lecture, pages
from attn_tutor.live.feed import Feed
from attn_tutor.live.marks import Marks, RequestError
from attn_tutor.practice import data as page_data
from attn_tutor.sessions.practice import Practice
from attn_tutor.sessions.store import CONCEPT_STAGE, CONCEPTS, Mark, Saved, Session, Store
from attn_tutor.variants.generate import variant_set
from attn_tutor.variants.sheets import make_sheets

CLIENT_ID_LIMIT = 100
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")  # Hangul fillers, Braille blank, CGJ: letters that show nothing
DISTRIBUTION_BINS = 10  # the scores in about ten ranges of whole points


class LiveClass:
    """What the routes share: the store, the marker, the pages made once, the secret."""

    def __init__(self, store: Store, problem_set: ProblemSet, *, lang: str, secret: str, student_url: str | None,
                 set_name: str, events_wait: float, events_gap: float, student_events_wait: float) -> None:  # fmt: skip
        self.store = store
        self.practice = Practice(store)  # "another like this"
        self.practice.ensure()
        self.problem_set = problem_set
        self.lang = lang
        self.secret = secret
        self.student_url = student_url
        self.grades_url: str | None = None  # the grades sent to the course (an LTI activity's: /teacher/lti), linked from the teacher's page
        self.marks = Marks(problem_set)
        self.title = pages.title_of(problem_set)
        self.items = pages.item_keys(problem_set)
        self.set_name = set_name
        data = pages.practice_data(problem_set, set_name=set_name, title=self.title)
        self.data = {"practice": data, "exam": pages.exam_data(data)}
        self.solutions = pages.solutions_html(problem_set)
        self._pages: dict[tuple, str] = {}
        self._variants: dict[int, tuple[Marks, dict[str, str]]] = {}  # a fresh variant's seed -> its marker and solutions
        self._variants_lock = threading.Lock()
        self._session: tuple[int | None, Session | None] = (None, None)  # (the store's session version, the session read at it)
        self._session_lock = threading.Lock()
        self._students: dict[str, Any] = {}  # token -> Student: a student's record never changes once joined
        # the event streams of this process, fed by one follower of the store (no thread, connection or query a stream)
        self.feed = Feed(store, views={"map": self.snapshot, "projector": self.projector_snapshot, "state": self.student_state},
                         lang=lang, wait=events_wait, gap=events_gap, quiet=student_events_wait)  # fmt: skip
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

    def student_page(self, session: Session) -> str:
        """The students' page for the session as it is: its mode, and a fresh variant's numbers for each
        problem asked again on one (:meth:`Session.variant_of`)."""
        varied = tuple((p.id, found[1]) for p in self.problem_set.problems if (found := session.variant_of(p.id)) is not None)
        key = (session.mode, session.id, varied)
        if key not in self._pages:
            data = self.data[session.mode]
            if varied:
                seeds = dict(varied)
                numbers = self.problem_set._replace(problems=tuple(
                    self.variant(seeds[p.id])[0].problems[p.id] if p.id in seeds else p for p in self.problem_set.problems
                ))  # fmt: skip
                data = pages.practice_data(numbers, set_name=self.set_name, title=self.title)
                data = pages.exam_data(data) if session.mode == "exam" else data
            self._pages[key] = pages.student_page(data, title=self.title, mode=session.mode, session_id=session.id,
                                                  rounds=rounds_key(session))  # fmt: skip
        return self._pages[key]

    def variant(self, seed: int) -> tuple[Marks, dict[str, str]]:
        """A fresh variant's marker and worked solutions (made once), by its seed."""
        with self._variants_lock:
            found = self._variants.get(seed)
        if found is None:
            varied = variant_set(self.problem_set, seed)
            found = (Marks(varied), pages.solutions_html(varied))
            with self._variants_lock:
                self._variants[seed] = found
        return found

    def fresh_variant(self, session: Session) -> int:
        """The seed of the next fresh variant for the class: the next sheet of the session's own batch, drawn
        as ``export --variants`` draws them (:func:`attn_tutor.variants.sheets.make_sheets`: fair, and unlike
        every sheet drawn before it in the session)."""
        drawn = self.store.variants_drawn()
        try:
            return make_sheets(self.problem_set, variants=drawn + 1, seed=int(session.id[:8], 16))[-1].variant or 0
        except AttnTutorError as error:  # no more variants of this set: said
            refused = RequestError(409, error.problems[0].key)
            refused.problems = list(error.problems)
            raise refused from None

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
                varied = session.variant_of(pid)
                problems[pid]["solution_html"] = (self.variant(varied[1])[1] if varied else self.solutions)[pid]
        found: dict[str, object] = {"mode": session.mode, "session": session.id, "problems": problems,
                                    "lecture": lecture_state(session)}  # fmt: skip
        if CONCEPTS in session.problems:
            found["concepts"] = {"open": session.problems[CONCEPTS].open}
        return found

    def state(self, student) -> dict:
        """A student's view: the session's state and their own answers (marks as they may see them)."""
        session = self.session()
        answers = []
        if student is not None:
            mine = dict(self.store.latest(student.id))
            for (problem, row), _round in session.rounds:  # an item asked again: the round's answers, not the last
                current = session.round_of(problem, row)
                if current is None:
                    continue
                for key in [k for k in mine if k[0] == problem and (k[1] == row or session.variant_of(problem))]:
                    del mine[key]
                mine.update(self.store.round_latest(student.id, problem, row, current.round))
            for (problem, row, stage), latest in mine.items():
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
        variants = []
        if student is not None and session.mode == "practice":  # "another like this": practice only
            variants = [{"problem": p, "variant": v} for p, v in self.practice.drawn(student.id) if p in self.marks.problems]
            for (problem, seed, row, stage), latest in self.practice.latest(student.id).items():
                answers.append({"problem": problem, "variant": seed, "row": row, "stage": stage, "text": latest.text,
                                "client_id": latest.client_id, "verdict": latest.verdict, "diagnosis": latest.diagnosis,
                                "points": latest.points})  # fmt: skip
        found = {"joined": student is not None, "name": None if student is None else student.name, **self.session_view(session),
                 "answers": answers, "variants": variants}  # fmt: skip
        if student is not None:  # what the page keeps typed text under: this student's, not another's on the same device
            found["key"] = hashlib.sha256(student.token.encode("utf-8")).hexdigest()[:16]
        return found

    def answer(self, student, body: dict) -> dict:
        """Save one checked stage, marked by the server; after the commit, what the student may see of it."""
        if "concept" in body:
            return self.concept_answer(student, body)
        if "variant" in body:
            return self.variant_answer(student, body)
        item = self.marks.item(body.get("problem"), body.get("row"), body.get("stage"))
        text = _field(body, "text", str, "string")
        client_id = _checked_client_id(_field(body, "client_id", str, "string"))
        session = self.session()
        current, varied = session.round_of(item.problem, item.row), session.variant_of(item.problem)
        if current is not None:  # asked again: the round's answers to the row are what the marker reads
            latest = self.store.round_latest(student.id, item.problem, item.row, current.round)
        else:
            latest = self.store.latest(student.id, item.problem, item.row)  # the row's stages: all the marker reads
        mine = latest.get((item.problem, item.row, item.stage))
        if mine is not None and mine.client_id == client_id:  # a resend of what is saved: the first answer
            verdict, diagnosis, points = mine.verdict, mine.diagnosis, mine.points
        else:
            self.taking(session, item.problem)
            if varied is not None and varied[0] != item.row:  # the class is on new numbers, for one row
                raise RequestError(409, "live.error.other_row", problem=item.problem, row=varied[0])
            others = {s: a.text for (p, r, s), a in latest.items() if p == item.problem and r == item.row and s != item.stage}
            mark = (self.variant(varied[1])[0] if varied else self.marks).mark(item, text, others)
            if current is not None:
                saved = self.store.save_round(student.id, item.problem, item.row, item.stage, text, client_id, Mark(*mark),
                                              current.round, latest=current.variant is None)  # fmt: skip
            else:
                saved = self.store.save(student.id, item.problem, item.row, item.stage, text, client_id, Mark(*mark))
            saved = _unreused(saved, (item.problem, item.row, item.stage))
            verdict, diagnosis, points = saved.verdict, saved.diagnosis, saved.points
        reply = {"saved": True, "client_id": client_id, "problem": item.problem, "row": item.row, "stage": item.stage}
        if self.shows_marks(session, item.problem):
            reply.update(verdict=verdict, diagnosis=diagnosis, points=points)
        return reply

    def taking(self, session: Session, problem: str) -> None:
        """Whether a new answer to ``problem`` is taken now: not while the teacher has paused the class
        (423), nor while the problem (or the concept items) is closed (409)."""
        if session.lecture.paused:
            raise RequestError(423, "live.error.paused")
        if not session.problems[problem].open:
            if problem == CONCEPTS:
                raise RequestError(409, "live.error.concepts_closed")
            raise RequestError(409, "live.error.closed", problem=problem)

    # --- "another like this" (practice only) ---------------------------------------------

    def another(self, student, body: dict) -> dict:
        """``{"problem": id}``: a fresh variant of the problem for this student, drawn fair (see
        :meth:`attn_tutor.live.marks.Marks.draw`) and kept (so a reload draws it again); ``{"problem",
        "variant": seed}``: one they drew before, again. Practice only, an open problem, and a new one
        only after a stage of the problem (or of a variant of it) was marked wrong or partly right.
        The reply carries the variant as the page draws a problem (its data, marked in the browser)."""
        problem = body.get("problem")
        if not isinstance(problem, str) or problem not in self.marks.problems:
            raise RequestError(404, "live.error.unknown_problem", problem=str(problem)[:60], ids=", ".join(self.marks.problems))
        session = self.session()
        if session.mode != "practice":
            raise RequestError(409, "live.error.another_exam")
        self.taking(session, problem)
        taken = [seed for _p, seed in self.practice.drawn(student.id, problem)]
        if "variant" in body:
            seed = body["variant"]
            if not isinstance(seed, int) or isinstance(seed, bool) or seed not in taken:
                raise RequestError(404, "live.error.unknown_variant", problem=problem, variant=str(seed)[:30])
        else:
            stumbled = any(a.verdict in ("wrong", "partial") for (p, _r, _s), a in self.store.latest(student.id).items() if p == problem)
            stumbled = stumbled or any(a.verdict in ("wrong", "partial") for (p, *_rest), a in self.practice.latest(student.id).items() if p == problem)
            if not stumbled:
                raise RequestError(409, "live.error.another_not_yet", problem=problem)
            seed = self.marks.draw(problem, taken)
            self.practice.ask(student.id, problem, seed)
        varied, _solution = self.marks.variant(problem, seed)
        data = page_data.problem_data(varied)
        return {"problem": problem, "variant": seed, "title": t("live.another_title", variant=seed), "data": data}

    def variant_answer(self, student, body: dict) -> dict:
        """Save one stage of a variant the student drew (``variant``: its seed), marked by the one marker
        against that variant, kept as practice (:meth:`attn_tutor.sessions.practice.Practice.save`): marks shown at once."""
        seed = body.get("variant")
        problem = body.get("problem")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RequestError(400, "live.error.field", field="variant", kind="integer")
        item = self.marks.item(problem, body.get("row"), body.get("stage"))._replace(variant=seed)
        text = _field(body, "text", str, "string")
        client_id = _checked_client_id(_field(body, "client_id", str, "string"))
        session = self.session()
        if (item.problem, seed) not in self.practice.drawn(student.id, item.problem):
            raise RequestError(404, "live.error.unknown_variant", problem=item.problem, variant=str(seed)[:30])
        latest = self.practice.latest(student.id, item.problem, seed, item.row)
        mine = latest.get((item.problem, seed, item.row, item.stage))
        if mine is not None and mine.client_id == client_id:  # a resend of what is saved: the first answer
            verdict, diagnosis, points = mine.verdict, mine.diagnosis, mine.points
        else:
            if session.mode != "practice":
                raise RequestError(409, "live.error.another_exam")
            self.taking(session, item.problem)
            others = {s: a.text for (_p, _v, _r, s), a in latest.items() if s != item.stage}
            mark = self.marks.mark(item, text, others)
            saved = _unreused(self.practice.save(student.id, item.problem, seed, item.row, item.stage, text, client_id, Mark(*mark)),
                              (f"{item.problem}@{seed}", item.row, item.stage))  # fmt: skip
            verdict, diagnosis, points = saved.verdict, saved.diagnosis, saved.points
        return {"saved": True, "client_id": client_id, "problem": item.problem, "variant": seed, "row": item.row, "stage": item.stage,
                "verdict": verdict, "diagnosis": diagnosis, "points": points}  # fmt: skip

    def concept_answer(self, student, body: dict) -> dict:
        """Save one concept item's choice (``{"concept": id, "text": "B", "client_id"}``), marked by the
        one concept marker against the item as the page shows it; after the commit, what the student may see."""
        shown = self.marks.concept(body.get("concept"))
        text = _field(body, "text", str, "string")
        client_id = _checked_client_id(_field(body, "client_id", str, "string"))
        session = self.session()
        current = session.round_of(CONCEPTS, shown.id)
        if current is not None:  # asked again: the round's choice
            mine = self.store.round_latest(student.id, CONCEPTS, shown.id, current.round).get((CONCEPTS, shown.id, CONCEPT_STAGE))
        else:
            mine = self.store.latest(student.id, CONCEPTS, shown.id).get((CONCEPTS, shown.id, CONCEPT_STAGE))
        if mine is not None and mine.client_id == client_id:  # a resend of what is saved: the first answer
            return self.concept_reply(session, shown.id, mine.text, client_id, mine)
        self.taking(session, CONCEPTS)
        mark = self.marks.mark_concept(shown, text)
        chosen = None if shown.kind == "order" else " ".join(mark.chosen)  # the map counts each label chosen
        marked = Mark("correct" if mark.right else "wrong", chosen, mark.score)
        if current is not None:
            saved = self.store.save_round(student.id, CONCEPTS, shown.id, CONCEPT_STAGE, text, client_id, marked, current.round, latest=True)
        else:
            saved = self.store.save(student.id, CONCEPTS, shown.id, CONCEPT_STAGE, text, client_id, marked)
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
            "distribution": lecture.distribution(scores, top, DISTRIBUTION_BINS),
            "students": students,
            "lecture": lecture_state(session),
            "seq": self.store.changes(),
            "practice": self.practice.counts(),  # "another like this", per problem: never in the map or the scores
        }

    def projector_snapshot(self) -> dict:
        """The projector's view (``/teacher/projector``): what :meth:`snapshot` holds without a name or
        anyone's score: the counts, the item in focus (:func:`attn_tutor.live.lecture.focus_view`), the
        score distribution."""
        session = self.session()
        roster = self.store.roster()
        scores = [score for _student, answered, score in roster if answered]
        return {
            "joined": len(roster),
            "answered": len(scores),
            "mode": session.mode,
            "paused": session.lecture.paused,
            "hidden": session.lecture.hidden,
            "focus": lecture.focus_view(self.store, session, self.problem_set, self.store.counts()),
            "max": len(self.items),
            "distribution": lecture.distribution(scores, len(self.items), DISTRIBUTION_BINS),
            "seq": self.store.changes(),
        }


def rounds_key(session: Session) -> str:
    """A short name of the session's rounds as they are: a student's page reloads when it changes (an item
    asked again, on its numbers or a fresh variant's). Empty when no item was asked again."""
    if not session.rounds:
        return ""
    return hashlib.sha256(repr(session.rounds).encode("utf-8")).hexdigest()[:16]


def lecture_state(session: Session) -> dict:
    """What every page knows of the lecture: the item in focus (``{"problem", "row"}`` or ``{"concept"}``),
    paused, results hidden, the rounds' key (:func:`rounds_key`) and each item asked again with its round."""
    focus = session.lecture.focus
    where = None if focus is None else {"concept": focus[1]} if focus[0] == CONCEPTS else {"problem": focus[0], "row": focus[1]}
    rounds = [{"problem": p, "row": r, "round": c.round, "fresh": c.variant is not None} for (p, r), c in session.rounds]
    return {"focus": where, "paused": session.lecture.paused, "hidden": session.lecture.hidden,
            "rounds_key": rounds_key(session), "rounds": rounds}  # fmt: skip


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
