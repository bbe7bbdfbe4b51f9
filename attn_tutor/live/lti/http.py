"""HTTP to a platform, in a worker thread (never on the event loop): JSON in and out, bounded in
time and size; a refusal or an unreachable platform is a :class:`PlatformError` with the reason."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

HTTP_TIMEOUT = 10.0  # seconds a platform has to answer
RESPONSE_LIMIT = 1024 * 1024  # bytes of an answer at most


class PlatformError(Exception):
    """The platform refused, or could not be reached (the reason, for the queue's ``error``)."""


def call(method: str, url: str, *, token: str | None = None, body: Any = None, form: dict | None = None,
         kind: str = "application/json", accept: str = "application/json") -> Any:  # fmt: skip
    """``method`` on ``url`` (a bearer ``token``; a JSON ``body`` of media type ``kind``, or a ``form``): the JSON answer, or None."""
    headers = {"Accept": accept, "User-Agent": "attn-tutor"}
    data = None
    if form is not None:
        data, headers["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    elif body is not None:
        data, headers["Content-Type"] = json.dumps(body, ensure_ascii=False).encode(), kind
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:  # noqa: S310 (the platform's https URLs)
            text = response.read(RESPONSE_LIMIT)
    except urllib.error.HTTPError as error:
        raise PlatformError(f"{method} {url}: HTTP {error.code}") from None
    except (OSError, ValueError) as error:
        raise PlatformError(f"{method} {url}: {error}") from None
    try:
        return json.loads(text) if text.strip() else None
    except ValueError:
        raise PlatformError(f"{method} {url}: not JSON") from None
