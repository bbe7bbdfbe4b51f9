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
