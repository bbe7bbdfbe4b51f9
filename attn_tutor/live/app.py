"""The live class's web app (Starlette): the students' page and API, the teacher's page and controls.

:func:`make_app` builds it around an open :class:`attn_tutor.live.store.Store`. Routes (the HTTP
API, with bodies and status codes, is ``docs/live.md``):

- ``GET /`` the students' page; ``GET /assets/NAME`` its scripts and stylesheets;
- ``POST /api/join``, ``GET /api/state``, ``POST /api/answer``: a student joins, reads their own
  answers and the session's state, saves one checked stage (marked again here, by the one
  marker as ``grade`` calls it: :mod:`attn_tutor.live.marks`; the reply comes after the commit);
- ``GET /teacher`` (``?key=SECRET`` once, then a cookie), ``GET /teacher/api/map``,
  ``GET /teacher/events`` (server-sent events: the map again after each change),
  ``POST /teacher/api/problem/{id}``, ``POST /teacher/api/mode``, ``GET /teacher/qr.svg``.

Security: the teacher's secret is compared in constant time and then kept in an HttpOnly,
SameSite=Strict cookie scoped to ``/teacher``; a student is known only by their own token (an
HttpOnly cookie) and reads and writes only their own answers; every state-changing request needs
``Content-Type: application/json``, an ``X-CSRF-Token`` header equal to the HttpOnly ``attn_csrf``
cookie (double submit), and no foreign ``Origin``; bodies are capped (:data:`BODY_LIMIT`), answers
at the parser's own limit, and each student's requests by a token bucket (429). Every refusal is
a 4xx with ``{"error": sentence}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import io
import json
import math
import threading
import unicodedata
from collections.abc import Callable
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import t
from attn_tutor.core.model import ProblemSet
from attn_tutor.core.rounding import fmt_given
from attn_tutor.core.text import is_unsafe_char
from attn_tutor.live import pages
from attn_tutor.live.auth import STUDENT_COOKIE, TEACHER_COOKIE, Student, TeacherOnly, is_secret, is_teacher
from attn_tutor.live.csrf import CSRFCheck, csrf_of, with_csrf
from attn_tutor.live.jsonbody import JSONBody, body_of
from attn_tutor.live.marks import Marks, RequestError
from attn_tutor.live.ratelimit import RateLimit, RateLimited
from attn_tutor.live.session import CONCEPT_STAGE, CONCEPTS
from attn_tutor.live.store import Mark, Store
from attn_tutor.practice.page import SERVED_CSP

BODY_LIMIT = 16 * 1024  # bytes of a request body: an answer is at most 1,000 characters
RATE = (60, 10.0)  # each student's bucket: 60 requests at once, refilled 10 a second
JOIN_RATE = (1000, 5.0)  # each address's joins: a class at once (one NAT, a proxy), not a script's ten thousand
CLIENT_ID_LIMIT = 100
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")  # Hangul fillers, Braille blank, CGJ: letters that show nothing
EVENTS_WAIT = 2.0  # seconds the event stream waits for a change before a keep-alive line
DISTRIBUTION_BINS = 10  # the scores in about ten ranges of whole points
EVENTS_GAP = 0.25  # at most four maps a second, however fast answers come (on PostgreSQL each one reads every answer)
HEADERS = {
    "Content-Security-Policy": SERVED_CSP + "; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class LiveApp:
    """What the routes share: the store, the marker, the pages made once, the secrets."""

    def __init__(self, store: Store, problem_set: ProblemSet, *, lang: str, secret: str, student_url: str | None,
                 set_name: str) -> None:  # fmt: skip
        self.store = store
        self.problem_set = problem_set
        self.lang = lang
        self.secret = secret
        self.student_url = student_url
        self.marks = Marks(problem_set)
        self.title = pages.title_of(problem_set, lang)
        self.items = pages.item_keys(problem_set)
        data = pages.practice_data(problem_set, lang=lang, set_name=set_name, title=self.title)
        self.data = {"practice": data, "exam": pages.exam_data(data)}
        self.solutions = pages.solutions_html(problem_set, lang)
        self._pages: dict[tuple[str, str], str] = {}
        self._session = (None, None)
        self._session_lock = threading.Lock()
        self._students: dict[str, Any] = {}  # token -> Student: a student's record never changes once joined

    # --- helpers ---------------------------------------------------------------------

    async def call(self, work: Callable, *args):
        """A student's request's work: here, on the event loop, when the store is a SQLite file this
        process holds (a save is a few hundred microseconds of local work: the trip to a worker thread
        and back would cost the loop more than the work itself); in a worker thread on PostgreSQL,
        where each call waits on the network and the server's disk."""
        if self.store.alone:
            return work(*args)
        return await run_in_threadpool(work, *args)

    def session(self):
        """The session record, read again only after it may have changed (:meth:`Store.session_version`)."""
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
            self._pages[key] = pages.student_page(self.data[mode], title=self.title, lang=self.lang, mode=mode, session_id=session_id)
        return self._pages[key]

    def error(self, status: int, key: str, **args) -> JSONResponse:
        return JSONResponse({"error": t(key, self.lang, **args)}, status_code=status, headers=HEADERS)

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
        """:meth:`student_by` for the route middleware (:class:`Student`): a student already known
        is found here, on the event loop; one not yet known is read as a request's work (:meth:`call`)."""
        known = self._students.get(token) if token else None
        return known if known is not None else await self.call(self.student_by, token)

    def shows_marks(self, session, problem: str) -> bool:
        """Whether a student sees the verdicts of ``problem`` now: always in practice, after it closes in an exam."""
        return session.mode != "exam" or not session.problems[problem].open

    def state(self, student) -> dict:
        """A student's view: the session's state and their own answers (marks as they may see them)."""
        session = self.session()
        problems = {}
        for pid, state in session.problems.items():
            if pid == CONCEPTS:
                continue
            problems[pid] = {"open": state.open, "revealed": state.revealed}
            if state.revealed:
                problems[pid]["solution_html"] = self.solutions[pid]
        answers = []
        if student is not None:
            for (problem, row, stage), latest in self.store.latest(student.id).items():
                if problem not in session.problems:
                    continue
                if problem == CONCEPTS:
                    if row in self.marks.concepts:
                        answers.append(self.concept_reply(session, row, latest.text, latest.client_id, latest))
                    continue
                answer = {"problem": problem, "row": row, "stage": stage, "text": latest.text, "client_id": latest.client_id}
                if self.shows_marks(session, problem):
                    answer.update(verdict=latest.verdict, diagnosis=latest.diagnosis, points=latest.points)
                answers.append(answer)
        found = {"joined": student is not None, "name": None if student is None else student.name, "mode": session.mode,
                 "session": session.id, "problems": problems, "answers": answers}  # fmt: skip
        if CONCEPTS in session.problems:
            found["concepts"] = {"open": session.problems[CONCEPTS].open}
        return found

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
            saved = self.store.save(student.id, item.problem, item.row, item.stage, text, client_id, Mark(*mark))
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


def _checked_client_id(client_id: str) -> str:
    if not 0 < len(client_id) <= CLIENT_ID_LIMIT or any(is_unsafe_char(c) for c in client_id):
        raise RequestError(400, "live.error.field", field="client_id", kind=f"1-{CLIENT_ID_LIMIT} printable characters")
    return client_id


def _checked_name(value) -> str:
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


# --- the students ----------------------------------------------------------------


async def student_page(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    session = await run_in_threadpool(live.session)
    return with_csrf(HTMLResponse(live.student_page(session.mode, session.id), headers=HEADERS), csrf_of(request))


async def asset(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    found = pages.asset(request.path_params["name"])
    if found is None:
        return live.error(404, "live.error.not_found", path=request.url.path[:100])
    text, media = found
    return Response(text, media_type=media, headers={**HEADERS, "Cache-Control": "no-cache"})


async def no_icon(request: Request) -> Response:
    """No icon (a browser asks for one): nothing, rather than a 404 in its console."""
    return Response(status_code=204, headers=HEADERS)


async def join(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    body = body_of(request)
    name = _checked_name(body.get("name"))
    device = body.get("device")
    if device is not None and not (isinstance(device, str) and 16 <= len(device) <= 100 and device.isascii() and device.isprintable()):
        raise RequestError(400, "live.error.field", field="device", kind="16-100 printable characters")
    student = await live.call(live.store.join, name, device)
    csrf = csrf_of(request)
    response = JSONResponse({"student": {"name": student.name}, "csrf": csrf[0]}, headers=HEADERS)
    response.set_cookie(STUDENT_COOKIE, student.token, httponly=True, samesite="lax", path="/", max_age=7 * 24 * 3600)
    return with_csrf(response, csrf)


async def state(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    payload = await live.call(live.state, request.state.student)
    csrf = csrf_of(request)
    return with_csrf(JSONResponse({**payload, "csrf": csrf[0]}, headers=HEADERS), csrf)


async def answer(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    reply = await live.call(live.answer, request.state.student, body_of(request))
    return JSONResponse(reply, headers=HEADERS)


# --- the teacher -----------------------------------------------------------------


def student_url(request: Request) -> str:
    live: LiveApp = request.app.state.live
    return live.student_url or str(request.base_url)


async def teacher_page(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    key = request.query_params.get("key")
    if key is not None:
        if not is_secret(key, live.secret):
            return HTMLResponse(pages.message_page(t("live.error.teacher", live.lang), lang=live.lang), status_code=403, headers=HEADERS)
        response = RedirectResponse("/teacher", status_code=303, headers=HEADERS)
        response.set_cookie(TEACHER_COOKIE, live.secret, httponly=True, samesite="strict", path="/teacher")
        return response
    if not is_teacher(request, live.secret):
        return HTMLResponse(pages.message_page(t("live.error.teacher", live.lang), lang=live.lang), status_code=403, headers=HEADERS)
    snapshot = await run_in_threadpool(live.snapshot)
    html = pages.teacher_page(live.problem_set, snapshot, title=live.title, lang=live.lang, student_url=student_url(request))
    return with_csrf(HTMLResponse(html, headers=HEADERS), csrf_of(request))


async def teacher_map(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    payload = await run_in_threadpool(live.snapshot)
    csrf = csrf_of(request)
    return with_csrf(JSONResponse({**payload, "csrf": csrf[0]}, headers=HEADERS), csrf)


async def events(request: Request) -> Response:
    live: LiveApp = request.app.state.live

    async def stream():
        last = -1
        while not await request.is_disconnected():
            try:
                seq = (
                    await run_in_threadpool(live.store.wait_change, last, EVENTS_WAIT)
                    if last >= 0
                    else await run_in_threadpool(live.store.changes)
                )
                payload = await run_in_threadpool(live.snapshot) if seq != last else None
            except AttnTutorError as error:  # the database went away: said, and tried again until it is back
                yield f": {error.messages(live.lang)[0]}\n\n"
                await asyncio.sleep(EVENTS_WAIT)
                continue
            if payload is not None:
                last = seq
                yield f"event: map\ndata: {json.dumps(payload, ensure_ascii=False, separators=(',', ':'))}\n\n"
                await asyncio.sleep(EVENTS_GAP)
            else:
                yield ": waiting\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream", headers={**HEADERS, "X-Accel-Buffering": "no"})


async def problem_control(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    body = body_of(request)
    problem = request.path_params["problem"]
    if problem == CONCEPTS and CONCEPTS in (await run_in_threadpool(live.session)).problems:  # the concept items: open or closed
        if set(body) != {"open"} or not isinstance(body["open"], bool):
            raise RequestError(400, "live.error.field", field="open", kind="true or false")
        await run_in_threadpool(live.store.set_open, CONCEPTS, body["open"])
        return JSONResponse({"problem": CONCEPTS, "open": body["open"], "revealed": False}, headers=HEADERS)
    if problem not in live.marks.problems:
        raise RequestError(404, "live.error.unknown_problem", problem=problem[:60], ids=", ".join(live.marks.problems))
    changes = {name: body[name] for name in ("open", "revealed") if name in body}
    if not changes:
        raise RequestError(400, "live.error.field", field="open/revealed", kind="true or false")
    for name, value in changes.items():
        if not isinstance(value, bool):
            raise RequestError(400, "live.error.field", field=name, kind="true or false")
    if "open" in changes:
        await run_in_threadpool(live.store.set_open, problem, changes["open"])
    if "revealed" in changes:
        await run_in_threadpool(live.store.set_revealed, problem, changes["revealed"])
    session = await run_in_threadpool(live.session)
    state = session.problems[problem]
    return JSONResponse({"problem": problem, "open": state.open, "revealed": state.revealed}, headers=HEADERS)


async def mode_control(request: Request) -> Response:
    live: LiveApp = request.app.state.live
    body = body_of(request)
    mode = body.get("mode")
    if mode not in ("practice", "exam"):
        raise RequestError(400, "live.error.bad_mode", mode=str(mode)[:40])
    await run_in_threadpool(live.store.set_mode, mode)
    return JSONResponse({"mode": mode}, headers=HEADERS)


async def qr(request: Request) -> Response:
    out = io.BytesIO()
    segno.make(student_url(request), error="m").save(out, kind="svg", scale=10, border=2, xmldecl=False, svgns=True)
    return Response(out.getvalue(), media_type="image/svg+xml", headers=HEADERS)


# --- errors ----------------------------------------------------------------------


def refused(request: Request, error: RequestError) -> Response:
    live: LiveApp = request.app.state.live
    return JSONResponse({"error": error.messages(live.lang)[0]}, status_code=error.status, headers=HEADERS)


def failed(request: Request, error: AttnTutorError) -> Response:  # the store: locked, full, unreachable
    live: LiveApp = request.app.state.live
    return JSONResponse({"error": error.messages(live.lang)[0]}, status_code=503, headers=HEADERS)


def http_error(request: Request, error: HTTPException) -> Response:
    live: LiveApp = request.app.state.live
    if error.status_code == 405:
        return live.error(405, "live.error.method", method=request.method[:10], path=request.url.path[:100])
    return live.error(error.status_code if error.status_code >= 400 else 404, "live.error.not_found", path=request.url.path[:100])


def by_address(request: Request) -> tuple:
    """The joins' rate: each address's (a class at once, from one NAT or proxy)."""
    return ("join", request.client.host if request.client else None)


def by_student(request: Request) -> tuple | None:
    """The requests' rate: each student's (:class:`Student` found them); none for a stranger's."""
    student = request.state.student
    return None if student is None else ("student", student.id)


def make_app(store: Store, problem_set: ProblemSet, *, lang: str, secret: str, student_url: str | None = None,
             set_name: str | None = None, rate: tuple[int, float] = RATE, body_limit: int = BODY_LIMIT,
             join_rate: tuple[int, float] = JOIN_RATE) -> Starlette:  # fmt: skip
    """The app for one session: ``store`` open for ``problem_set``; ``secret`` the teacher's;
    ``student_url`` the address students use (the QR code; default: the request's own)."""
    live = LiveApp(store, problem_set, lang=lang, secret=secret, student_url=student_url,
                   set_name=set_name or problem_set.name or problem_set.source)  # fmt: skip

    # each route's checks, in the order they answer: the teacher's; the CSRF check and the body;
    # the student; the rate last (a request refused before it spends no token)
    teacher = [Middleware(TeacherOnly, secret=secret)]
    changes = [Middleware(CSRFCheck), Middleware(JSONBody, limit=body_limit)]
    each_student = RateLimit(*rate)
    student = [Middleware(Student, find=live.find_student), Middleware(RateLimited, bucket=each_student, key=by_student)]
    joined = [Middleware(Student, find=live.find_student, required=True), Middleware(RateLimited, bucket=each_student, key=by_student)]
    joins = [Middleware(RateLimited, bucket=RateLimit(*join_rate), key=by_address)]
    routes = [
        Route("/", student_page, methods=["GET"]),
        Route("/assets/{name}", asset, methods=["GET"]),
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Route("/api/join", join, methods=["POST"], middleware=changes + joins),
        Route("/api/state", state, methods=["GET"], middleware=student),
        Route("/api/answer", answer, methods=["POST"], middleware=changes + joined),
        Route("/teacher", teacher_page, methods=["GET"]),
        Route("/teacher/api/map", teacher_map, methods=["GET"], middleware=teacher),
        Route("/teacher/events", events, methods=["GET"], middleware=teacher),
        Route("/teacher/api/problem/{problem}", problem_control, methods=["POST"], middleware=teacher + changes),
        Route("/teacher/api/mode", mode_control, methods=["POST"], middleware=teacher + changes),
        Route("/teacher/qr.svg", qr, methods=["GET"], middleware=teacher),
    ]
    app = Starlette(routes=routes, exception_handlers={RequestError: refused, AttnTutorError: failed, HTTPException: http_error})
    app.state.live = live
    return app
