"""The live app's CSRF check: route middleware before every view that changes something.

A double-submit cookie, as datasette's ``asgi-csrf`` keeps one: a page or a JSON reply hands the
browser a token in the HttpOnly ``attn_csrf`` cookie (:func:`csrf_of`, :func:`with_csrf`) and in
its body; a state-changing request sends it back in the ``X-CSRF-Token`` header. :class:`CSRFCheck`
refuses, in this order, a foreign ``Origin`` (or a cross-site ``Sec-Fetch-Site``), a body that is
not ``application/json``, and a header that is not the cookie. It is pure ASGI middleware and wraps
single routes (``Route(..., middleware=...)``), not the app, so it answers where the view's first line
did: after the router's 404 and 405, and after the teacher's check on the teacher's routes. A
refusal is a :class:`RequestError`, answered by the app's one handler like a view's.
"""

from __future__ import annotations

import hmac
import secrets

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from attn_tutor.live.marks import RequestError

CSRF_COOKIE = "attn_csrf"


class CSRFCheck:
    """Route middleware: the request comes from this site's page (:func:`check`), or is refused."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        check(Request(scope))
        await self.app(scope, receive, send)


def check(request: Request) -> None:
    """The checks every state-changing request passes before its body is read."""
    origin = request.headers.get("origin")
    own = f"{request.scope['scheme']}://{request.headers.get('host', '')}"
    if (origin is not None and origin != own) or request.headers.get("sec-fetch-site") == "cross-site":
        raise RequestError(403, "live.error.origin", origin=(origin or "cross-site")[:100])
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(415, "live.error.content_type")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get("x-csrf-token", "")
    if not cookie or not hmac.compare_digest(cookie.encode("utf-8", "replace"), header.encode("utf-8", "replace")):
        raise RequestError(403, "live.error.csrf")


def csrf_of(request: Request) -> tuple[str, bool]:
    """The browser's CSRF token (its HttpOnly cookie), or a new one (True: set it)."""
    token = request.cookies.get(CSRF_COOKIE, "")
    if 20 <= len(token) <= 100 and token.isascii() and token.replace("-", "").replace("_", "").isalnum():
        return token, False
    return secrets.token_urlsafe(32), True


def with_csrf(response: Response, csrf: tuple[str, bool]) -> Response:
    if csrf[1]:
        response.set_cookie(CSRF_COOKIE, csrf[0], httponly=True, samesite="strict", path="/")
    return response
