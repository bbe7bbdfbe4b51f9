"""The end-to-end tests' browser: Debian's chromium, launched headless through pip's playwright;
and the live-class tests' ``serve``: `attn-tutor serve` on loopback, in a process of its own.

Tests that use the browser are marked ``browser`` (tests/helpers/tools.py): tests/conftest.py skips
them where chromium or playwright is missing, and fails them under CI=true, before this
fixture is ever set up.
"""

from __future__ import annotations

import pytest
from helpers import tools
from helpers.serve import Server

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=tools.chromium(), args=ARGS)
        yield launched
        launched.close()


LIVE_EXPECTED = ("Failed to load resource", "The Content Security Policy directive 'frame-ancestors' is ignored")
"""What chromium says of a live page that is no error of ours: a resource while the server is down
(killed on purpose) or refused (an LTI refusal's 4xx), and the CSP's frame-ancestors in the page's <meta> copy (it counts in the
HTTP header the app sends; the meta copy is ignored)."""


@pytest.fixture
def people(browser):
    """``people(width)``: one person's browser on a live page (a phone or the teacher's laptop); at the
    end, no script error and no CSP violation but :data:`LIVE_EXPECTED`."""
    from helpers.watched import People

    crowd = People(browser, expected=LIVE_EXPECTED)
    yield crowd.watched
    assert crowd.close() == []


@pytest.fixture
def serve(tmp_path):
    """``serve(mode=...)``: a server on a fresh SQLite file in the test's folder, on a port the
    system chose (tests/helpers/serve.py); every one started is stopped at the end."""
    started: list[Server] = []

    def _serve(mode: str = "practice") -> Server:
        started.append(Server(str(tmp_path / "class.sqlite"), mode=mode))
        started[-1].start()
        return started[-1]

    yield _serve
    for server in started:
        server.stop()


@pytest.fixture
def shots(tmp_path):
    """The folder a test's screenshots go to, to be looked at: ``ATTN_TUTOR_SHOTS``, or the test's own."""
    import os
    from pathlib import Path

    folder = Path(os.environ.get("ATTN_TUTOR_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
