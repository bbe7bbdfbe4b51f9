"""The live app's rate limit: a token bucket per key, and the route middleware that spends it.

:class:`RateLimited` stands last in front of a route's view, after the CSRF check, the body and
who asks, so a request they refuse spends no token: each student's requests (``GET /api/state``,
``POST /api/answer``) share one bucket, and each address's joins another. A request over its rate is a :class:`RequestError` (429), answered
by the app's one handler. Pure ASGI middleware on single routes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from attn_tutor.live.marks import RequestError


class RateLimit:
    """A token bucket per key: ``capacity`` at once, ``per_second`` refilled (thread-safe)."""

    def __init__(self, capacity: int, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity, self.per_second, self.clock = capacity, per_second, clock
        self._buckets: dict[Any, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key) -> bool:
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(key, (float(self.capacity), now))
            tokens = min(float(self.capacity), tokens + (now - then) * self.per_second)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > 100_000:  # forget the full ones: a full bucket is a new bucket
                self._buckets = {k: v for k, v in self._buckets.items() if v[0] < self.capacity - 1}
            return True


class RateLimited:
    """Route middleware: ``key(request)``'s bucket spends a token, or the request is refused (429);
    a request whose key is None is not counted."""

    def __init__(self, app: ASGIApp, *, bucket: RateLimit, key: Callable[[Request], Any]) -> None:
        self.app, self.bucket, self.key = app, bucket, key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self.key(Request(scope))
        if key is not None and not self.bucket.allow(key):
            raise RequestError(429, "live.error.rate")
        await self.app(scope, receive, send)
