"""A state-changing request's body: at most the app's limit of bytes, and one JSON object.

:class:`JSONBody` is the route middleware after the CSRF check (:mod:`attn_tutor.live.csrf`)
and before who asks and the rate limit: it reads the body (refused as soon as it is over the
limit: 413) and parses it (not a JSON object: 400), and the view finds it in ``request.state``
(:func:`body_of`). A refusal is a :class:`RequestError`, answered by the app's one handler.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from attn_tutor.live.marks import RequestError


class JSONBody:
    """Route middleware: the request's JSON object, read once (:func:`read`), for the view."""

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        request.state.body = await read(request, self.limit)
        await self.app(scope, receive, send)


async def read(request: Request, limit: int) -> dict:
    """The request's JSON object: at most ``limit`` bytes, as it says and as it comes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise RequestError(413, "live.error.too_large", limit=limit)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestError(413, "live.error.too_large", limit=limit)
        chunks.append(chunk)
    try:
        value = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise RequestError(400, "live.error.bad_json") from None
    if not isinstance(value, dict):
        raise RequestError(400, "live.error.bad_json")
    return value


def body_of(request: Request) -> dict:
    """The JSON object :class:`JSONBody` read, in front of this request's view."""
    return request.state.body
