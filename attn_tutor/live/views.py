"""The live app's views: the students' page and API, the teacher's page and controls, the refusals.

Each view does one route's work once its route middleware let the request through
(:mod:`attn_tutor.live.app` lists them: the teacher's check, the CSRF check, the JSON body, the
student, the rate): it reads what they found in ``request.state``, asks the live class
(:class:`attn_tutor.live.liveclass.LiveClass`, ``request.app.state.live``) or the store, and
answers with :data:`HEADERS`. A refusal, a view's or a middleware's, is a :class:`RequestError`
answered by :func:`refused` (``{"error": sentence}``, its 4xx); the store's failures by
:func:`failed` (503); the router's 404 and 405 by :func:`http_error`.
"""

from __future__ import annotations

import io

import segno
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import t
from attn_tutor.live import lecture, pages
from attn_tutor.live.auth import STUDENT_COOKIE, TEACHER_COOKIE, is_secret, is_teacher
from attn_tutor.live.csrf import csrf_of, with_csrf
from attn_tutor.live.jsonbody import body_of
from attn_tutor.live.liveclass import LiveClass, checked_name, lecture_state
from attn_tutor.live.marks import RequestError
from attn_tutor.practice import data as page_data
from attn_tutor.practice.page import SERVED_CSP
from attn_tutor.sessions.store import CONCEPTS

HEADERS = {
    "Content-Security-Policy": SERVED_CSP + "; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def json_error(live: LiveClass, status: int, key: str, **args) -> JSONResponse:
    """A refusal of the view's own: ``{"error": sentence}`` in the session's language."""
    return JSONResponse({"error": t(key, **args)}, status_code=status, headers=HEADERS)


# --- the students ----------------------------------------------------------------


async def student_page(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    session = await run_in_threadpool(live.session)
    html = await run_in_threadpool(live.student_page, session)  # (a fresh variant's page is made once, off the loop)
    return with_csrf(HTMLResponse(html, headers=HEADERS), csrf_of(request))


async def asset(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    found = pages.asset(request.path_params["name"], page_data.kinds_of(live.problem_set))
    if found is None:
        return json_error(live, 404, "live.error.not_found", path=request.url.path[:100])
    text, media = found
    return Response(text, media_type=media, headers={**HEADERS, "Cache-Control": "no-cache"})


async def no_icon(request: Request) -> Response:
    """No icon (a browser asks for one): nothing, rather than a 404 in its console."""
    return Response(status_code=204, headers=HEADERS)


async def join(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    body = body_of(request)
    name = checked_name(body.get("name"))
    device = body.get("device")
    if device is not None and not (isinstance(device, str) and 16 <= len(device) <= 100 and device.isascii() and device.isprintable()):
        raise RequestError(400, "live.error.field", field="device", kind="16-100 printable characters")
    student = await live.call(live.store.join, name, device)
    csrf = csrf_of(request)
    response = JSONResponse({"student": {"name": student.name}, "csrf": csrf[0]}, headers=HEADERS)
    response.set_cookie(STUDENT_COOKIE, student.token, httponly=True, samesite="lax", path="/", max_age=7 * 24 * 3600)
    return with_csrf(response, csrf)


async def state(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    payload = await live.call(live.state, request.state.student)
    csrf = csrf_of(request)
    return with_csrf(JSONResponse({**payload, "csrf": csrf[0]}, headers=HEADERS), csrf)


async def student_events(request: Request) -> Response:
    """A joined student's event stream: the session's state at once and after each control (the process's one feed)."""
    live: LiveClass = request.app.state.live
    return event_stream(live.feed.stream("state", request.is_disconnected))


async def answer(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    body = body_of(request)
    if "variant" in body:  # a variant not solved since the server started is drawn again from its seed: off the event loop
        reply = await run_in_threadpool(live.answer, request.state.student, body)
    else:
        reply = await live.call(live.answer, request.state.student, body)
    return JSONResponse(reply, headers=HEADERS)


async def another(request: Request) -> Response:
    """"Another like this": a variant of a problem for the student (drawn in a worker thread: a fair draw
    may take a few tenths of a second, which the event loop must not wait for)."""
    live: LiveClass = request.app.state.live
    reply = await run_in_threadpool(live.another, request.state.student, body_of(request))
    return JSONResponse(reply, headers=HEADERS)


# --- the teacher -----------------------------------------------------------------


def student_url(request: Request) -> str:
    live: LiveClass = request.app.state.live
    return live.student_url or str(request.base_url)


async def teacher_page(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    refused = teacher_only(request, "/teacher")
    if refused is not None:
        return refused
    snapshot = await run_in_threadpool(live.snapshot)
    html = pages.teacher_page(live.problem_set, snapshot, title=live.title, student_url=student_url(request), grades_url=live.grades_url)
    return with_csrf(HTMLResponse(html, headers=HEADERS), csrf_of(request))


def teacher_only(request: Request, path: str) -> Response | None:
    """A teacher's page asked for: None when the teacher's cookie holds the secret; with ``?key=SECRET``,
    303 to ``path`` with the cookie; else 403 with a page of the sentence."""
    live: LiveClass = request.app.state.live
    key = request.query_params.get("key")
    if key is not None:
        if not is_secret(key, live.secret):
            return HTMLResponse(pages.message_page(t("live.error.teacher")), status_code=403, headers=HEADERS)
        response = RedirectResponse(path, status_code=303, headers=HEADERS)
        response.set_cookie(TEACHER_COOKIE, live.secret, httponly=True, samesite="strict", path="/teacher")
        return response
    if not is_teacher(request, live.secret):
        return HTMLResponse(pages.message_page(t("live.error.teacher")), status_code=403, headers=HEADERS)
    return None


async def teacher_map(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    payload = await run_in_threadpool(live.snapshot)
    csrf = csrf_of(request)
    return with_csrf(JSONResponse({**payload, "csrf": csrf[0]}, headers=HEADERS), csrf)


async def events(request: Request) -> Response:
    """The teacher's event stream: the map at once and after each change (the process's one feed)."""
    live: LiveClass = request.app.state.live
    return event_stream(live.feed.stream("map", request.is_disconnected))


def event_stream(stream) -> StreamingResponse:
    return StreamingResponse(stream, media_type="text/event-stream", headers={**HEADERS, "X-Accel-Buffering": "no"})


async def problem_control(request: Request) -> Response:
    live: LiveClass = request.app.state.live
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


async def projector_page(request: Request) -> Response:
    """The projector's page: the teacher's (cookie) as every teacher's route, without a name or anyone's score."""
    live: LiveClass = request.app.state.live
    refused = teacher_only(request, "/teacher/projector")
    if refused is not None:
        return refused
    view = await run_in_threadpool(live.projector_snapshot)
    html = pages.projector_page(view, title=live.title, student_url=student_url(request), kinds=page_data.kinds_of(live.problem_set))
    return HTMLResponse(html, headers=HEADERS)


async def projector_events(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    return event_stream(live.feed.stream("projector", request.is_disconnected))


async def projector_view(request: Request) -> Response:
    live: LiveClass = request.app.state.live
    return JSONResponse(await run_in_threadpool(live.projector_snapshot), headers=HEADERS)


async def lecture_control(request: Request) -> Response:
    """``POST /teacher/api/lecture`` ``{"action": …}``: focus, pause, resume, hide-results, show-results,
    ask-again (see :func:`attn_tutor.live.lecture.lecture_change`); 200 with the lecture as every page sees it."""
    live: LiveClass = request.app.state.live
    change = lecture.lecture_change(body_of(request), live.problem_set)
    store = live.store
    if change.action == "focus":
        await run_in_threadpool(lambda: store.set_lecture(focus=change.focus))
    elif change.action in ("pause", "resume"):
        await run_in_threadpool(lambda: store.set_lecture(paused=change.action == "pause"))
    elif change.action in ("hide-results", "show-results"):
        await run_in_threadpool(lambda: store.set_lecture(hidden=change.action == "hide-results"))
    else:
        await run_in_threadpool(ask_again, live, change.fresh_variant)
    session = await run_in_threadpool(live.session)
    return JSONResponse(lecture_state(session), headers=HEADERS)


def ask_again(live: LiveClass, fresh: bool) -> None:
    """A new round on the item in focus (409 when none is, or a fresh variant for a concept item)."""
    session = live.session()
    focus = session.lecture.focus
    if focus is None:
        raise RequestError(409, "live.error.no_focus")
    if fresh and focus[0] == CONCEPTS:
        raise RequestError(400, "live.error.concept_variant")
    live.store.ask_again(focus[0], focus[1], live.fresh_variant(session) if fresh else None)


async def mode_control(request: Request) -> Response:
    live: LiveClass = request.app.state.live
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
    return JSONResponse({"error": error.messages()[0]}, status_code=error.status, headers=HEADERS)


def failed(request: Request, error: AttnTutorError) -> Response:  # the store: locked, full, unreachable
    return JSONResponse({"error": error.messages()[0]}, status_code=503, headers=HEADERS)


def http_error(request: Request, error: HTTPException) -> Response:
    live: LiveClass = request.app.state.live
    if error.status_code == 405:
        return json_error(live, 405, "live.error.method", method=request.method[:10], path=request.url.path[:100])
    return json_error(live, error.status_code if error.status_code >= 400 else 404, "live.error.not_found", path=request.url.path[:100])
