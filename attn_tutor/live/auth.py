"""Who asks the live app: the teacher, by the secret, or a student, by their token.

The teacher's secret comes once in ``/teacher?key=SECRET``, is compared in constant time and then
kept in an HttpOnly, SameSite=Strict cookie scoped to ``/teacher`` (:data:`TEACHER_COOKIE`);
:class:`TeacherOnly` is the route middleware in front of every teacher's route but the page itself
(which answers a stranger with an HTML page, not JSON). A student is known only by the token of
the HttpOnly :data:`STUDENT_COOKIE` that joining sets. Both are pure ASGI middleware on single
routes; a refusal is a :class:`RequestError`, answered by the app's one handler.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from attn_tutor.core.errors import AttnTutorError, Location
from attn_tutor.live.marks import RequestError

STUDENT_COOKIE = "attn_student"
TEACHER_COOKIE = "attn_teacher"
SECRET_MIN = 16  # characters of the teacher's secret at least (serve makes 32: 24 random bytes)


def checked_secret(secret: str | None, where: str) -> str:
    """The teacher's secret, refused when missing, empty or short (an empty one would open every
    teacher's route to a request with no cookie): a sentence naming the session ``where`` it is kept."""
    if not isinstance(secret, str) or len(secret) < SECRET_MIN or not secret.isprintable():
        length = len(secret) if isinstance(secret, str) else 0
        raise AttnTutorError("live.secret_short", Location(where), length=length, minimum=SECRET_MIN)
    return secret


def is_secret(given: str, secret: str) -> bool:
    """Whether ``given`` is the teacher's secret (compared in constant time)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode("utf-8"))


def is_teacher(request: Request, secret: str) -> bool:
    return is_secret(request.cookies.get(TEACHER_COOKIE, ""), secret)


class TeacherOnly:
    """Route middleware: the teacher's cookie holds the secret, or the request is refused (403)."""

    def __init__(self, app: ASGIApp, *, secret: str) -> None:
        self.app, self.secret = app, secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_teacher(Request(scope), self.secret):
            raise RequestError(403, "live.error.teacher")
        await self.app(scope, receive, send)


class Student:
    """Route middleware: the student whose token the request's cookie holds, in
    ``request.state.student`` (None: no one who joined); ``required``: a request from no one who
    joined is refused (401). ``find(token)`` reads the student (once: they never change)."""

    def __init__(self, app: ASGIApp, *, find: Callable[[str | None], Awaitable[Any]], required: bool = False) -> None:
        self.app, self.find, self.required = app, find, required

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        student = await self.find(request.cookies.get(STUDENT_COOKIE))
        if student is None and self.required:
            raise RequestError(401, "live.error.not_joined")
        request.state.student = student
        await self.app(scope, receive, send)
