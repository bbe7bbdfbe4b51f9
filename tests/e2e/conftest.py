"""The end-to-end tests' browser: Debian's chromium, launched headless through pip's playwright.

Tests that use it are marked ``browser`` (tests/helpers/tools.py): tests/conftest.py skips
them where chromium or playwright is missing, and fails them under CI=true, before this
fixture is ever set up.
"""

from __future__ import annotations

import pytest
from helpers import tools

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
