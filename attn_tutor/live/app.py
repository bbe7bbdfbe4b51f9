"""The live class's web app (Starlette): the students' page and API, the teacher's page and controls.

:func:`make_app` builds it around an open :class:`attn_tutor.sessions.store.Store`. Routes (the HTTP
API, with bodies and status codes, is ``docs/live.md``):

- ``GET /`` the students' page; ``GET /assets/NAME`` its scripts and stylesheets;
- ``POST /api/join``, ``GET /api/state``, ``POST /api/answer``: a student joins, reads their own
  answers and the session's state, saves one checked stage (marked again here, by the one
  marker as ``grade`` calls it: :mod:`attn_tutor.live.marks`; the reply comes after the commit);
  ``POST /api/another``: "another like this", a fair variant of a problem to practise on (practice only);
  ``GET /api/events`` (server-sent events: the session's state again after each control);
- ``GET /teacher`` (``?key=SECRET`` once, then a cookie), ``GET /teacher/api/map``,
  ``GET /teacher/events`` (server-sent events: the map again after each change),
  ``POST /teacher/api/problem/{id}``, ``POST /teacher/api/mode``, ``GET /teacher/qr.svg``;
- peer instruction: ``GET /teacher/projector`` (the projector's page: no names, no one's score),
  ``GET /teacher/projector/events`` and ``GET /teacher/api/projector`` (its view), and
  ``POST /teacher/api/lecture`` (focus, pause, resume, hide-results, show-results, ask-again).

Security: the teacher's secret is compared in constant time and then kept in an HttpOnly,
SameSite=Strict cookie scoped to ``/teacher``; a student is known only by their own token (an
HttpOnly cookie) and reads and writes only their own answers; every state-changing request needs
``Content-Type: application/json``, an ``X-CSRF-Token`` header equal to the HttpOnly ``attn_csrf``
cookie (double submit), and no foreign ``Origin``; bodies are capped (:data:`BODY_LIMIT`), answers
at the parser's own limit, and each student's requests by a token bucket (429). Every refusal is
a 4xx with ``{"error": sentence}`` and changes nothing.

By job: the views (:mod:`attn_tutor.live.views`) do each route's work with the live class they
share (:mod:`attn_tutor.live.liveclass`: the store, the marker, what each one sees). In front of
a view stand its route's middleware, pure ASGI, in the order they answer: the teacher's cookie
(:mod:`attn_tutor.live.auth`, 403); the CSRF check (:mod:`attn_tutor.live.csrf`: a foreign origin
403, not JSON 415, the token 403); the body (:mod:`attn_tutor.live.jsonbody`: over
:data:`BODY_LIMIT` 413, not a JSON object 400); the student (:mod:`attn_tutor.live.auth`: 401
where one must have joined); the rate last (:mod:`attn_tutor.live.ratelimit`, 429), so a request
refused before it spends no token. They wrap routes, not the app, so the router's 404 and 405
answer first, and they raise :class:`RequestError` for the app's one handler, as a view does.
In front of them all, :class:`Speaking` sets each request's language: the session's.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.routing import Route

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import reset_language, set_language, speaking
from attn_tutor.core.model import ProblemSet
from attn_tutor.live import views
from attn_tutor.live.auth import Student, TeacherOnly, checked_secret
from attn_tutor.live.csrf import CSRFCheck
from attn_tutor.live.jsonbody import JSONBody
from attn_tutor.live.liveclass import LiveClass
from attn_tutor.live.marks import RequestError
from attn_tutor.live.ratelimit import RateLimit, RateLimited
from attn_tutor.sessions.store import Store

BODY_LIMIT = 16 * 1024  # bytes of a request body: an answer is at most 1,000 characters
RATE = (60, 10.0)  # each student's bucket: 60 requests at once, refilled 10 a second
JOIN_RATE = (1000, 5.0)  # each address's joins: a class at once (one NAT, a proxy), not a script's ten thousand
EVENTS_WAIT = 2.0  # seconds the event stream waits for a change before a keep-alive line
STUDENT_EVENTS_WAIT = 15.0  # a student's stream's keep-alive line: a class's 500 streams each 2 s would cost the loop 250 wakes a second
EVENTS_GAP = 0.25  # at most four maps a second in a process, however fast answers come (on PostgreSQL each one reads every answer)


def by_address(request: Request) -> tuple:
    """The joins' rate: each address's (a class at once, from one NAT or proxy)."""
    return ("join", request.client.host if request.client else None)


def by_student(request: Request) -> tuple | None:
    """The requests' rate: each student's (:class:`Student` found them); none for a stranger's."""
    student = request.state.student
    return None if student is None else ("student", student.id)


class Speaking:
    """Each request in the session's language (:func:`attn_tutor.core.i18n.language`), its
    response and its handlers' too: pure ASGI, so a streamed response is sent while it holds
    (the threads of ``run_in_threadpool`` start with the request's context)."""

    def __init__(self, app, lang: str) -> None:
        self.app, self.lang = app, lang

    async def __call__(self, scope, receive, send) -> None:
        token = set_language(self.lang)
        try:
            await self.app(scope, receive, send)
        finally:
            reset_language(token)


def make_app(store: Store, problem_set: ProblemSet, *, lang: str, secret: str, student_url: str | None = None,
             set_name: str | None = None, rate: tuple[int, float] = RATE, body_limit: int = BODY_LIMIT,
             join_rate: tuple[int, float] = JOIN_RATE, grades_url: str | None = None) -> Starlette:  # fmt: skip
    """The app for one session: ``store`` open for ``problem_set``; ``secret`` the teacher's;
    ``student_url`` the address students use (the QR code; default: the request's own); ``grades_url``
    the page of the grades sent to the course, linked from the teacher's page (``serve --lti``'s ``/teacher/lti``). A missing,
    empty or short ``secret`` is refused (:func:`attn_tutor.live.auth.checked_secret`)."""
    secret = checked_secret(secret, store.where)
    with speaking(lang):  # the pages made once, in the session's language
        live = LiveClass(store, problem_set, lang=lang, secret=secret, student_url=student_url,
                         set_name=set_name or problem_set.name or problem_set.source, events_wait=EVENTS_WAIT, events_gap=EVENTS_GAP,
                         student_events_wait=STUDENT_EVENTS_WAIT)  # fmt: skip
        live.grades_url = grades_url

    # each route's checks before its view, in the order they answer (see the module's docstring)
    teacher = [Middleware(TeacherOnly, secret=secret)]
    changes = [Middleware(CSRFCheck), Middleware(JSONBody, limit=body_limit)]
    per_student = Middleware(RateLimited, bucket=RateLimit(*rate), key=by_student)  # state and answers: one bucket
    anyone = [Middleware(Student, find=live.find_student), per_student]
    joined = [Middleware(Student, find=live.find_student, required=True), per_student]
    joins = [Middleware(RateLimited, bucket=RateLimit(*join_rate), key=by_address)]
    routes = [
        Route("/", views.student_page, methods=["GET"]),
        Route("/assets/{name}", views.asset, methods=["GET"]),
        Route("/favicon.ico", views.no_icon, methods=["GET"]),
        Route("/api/join", views.join, methods=["POST"], middleware=changes + joins),
        Route("/api/state", views.state, methods=["GET"], middleware=anyone),
        Route("/api/answer", views.answer, methods=["POST"], middleware=changes + joined),
        Route("/api/another", views.another, methods=["POST"], middleware=changes + joined),
        Route("/api/events", views.student_events, methods=["GET"], middleware=joined),
        Route("/teacher", views.teacher_page, methods=["GET"]),
        Route("/teacher/api/map", views.teacher_map, methods=["GET"], middleware=teacher),
        Route("/teacher/events", views.events, methods=["GET"], middleware=teacher),
        Route("/teacher/api/problem/{problem}", views.problem_control, methods=["POST"], middleware=teacher + changes),
        Route("/teacher/api/mode", views.mode_control, methods=["POST"], middleware=teacher + changes),
        Route("/teacher/qr.svg", views.qr, methods=["GET"], middleware=teacher),
        Route("/teacher/projector", views.projector_page, methods=["GET"]),
        Route("/teacher/projector/events", views.projector_events, methods=["GET"], middleware=teacher),
        Route("/teacher/api/projector", views.projector_view, methods=["GET"], middleware=teacher),
        Route("/teacher/api/lecture", views.lecture_control, methods=["POST"], middleware=teacher + changes),
    ]
    handlers = {RequestError: views.refused, AttnTutorError: views.failed, HTTPException: views.http_error}
    # Starlette types every handler as taking any Exception; each here is registered for its own class only
    app = Starlette(routes=routes, middleware=[Middleware(Speaking, lang=lang)], exception_handlers=handlers)  # type: ignore[arg-type]
    app.state.live = live
    return app
