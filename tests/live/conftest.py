"""The live tests' stores: ``live_store_url`` is a fresh session target on each backend.

``sqlite``: a file in the test's temporary folder. ``postgresql``: a schema of its own in the
database ``ATTN_TUTOR_TEST_PG`` names (made before the test, dropped after; its name carries the
pytest-xdist worker and a random part), as a URL whose
``search_path`` is that schema. Without ``ATTN_TUTOR_TEST_PG`` the PostgreSQL case is skipped,
and fails under ``CI=true`` (the ``postgresql`` marker; tests/helpers/tools.py).
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest


def pg_url_with_schema(base: str, schema: str) -> str:
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}"


@contextlib.contextmanager
def pg_schema() -> Iterator[str]:
    """A schema of its own in ATTN_TUTOR_TEST_PG's database, as a URL; dropped afterwards."""
    import psycopg

    base = os.environ["ATTN_TUTOR_TEST_PG"]
    # one a test, named for its pytest-xdist worker (gw0, gw1, …; "main" in one process), so that
    # workers side by side never share one and a schema left by a killed run says whose it was
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schema = f"test_{worker}_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield pg_url_with_schema(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def live_store_url(request, tmp_path):
    """A session target no session is in yet: a SQLite file path, or a PostgreSQL URL to an empty schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "session.sqlite")
        return
    with pg_schema() as url:
        yield url


@pytest.fixture
def live_pg_url():
    """PostgreSQL alone (the test is marked ``postgresql``): a URL to an empty schema."""
    with pg_schema() as url:
        yield url


@pytest.fixture
def store(live_store_url):
    """The packaged ch13 set's session, opened on each backend (a test file may make its own)."""
    from helpers.live_app import CH13

    from attn_tutor.sessions.opening import open_store

    with open_store(live_store_url, CH13, create=True) as opened:
        yield opened


@pytest.fixture
def app(store):
    """The live class's app on ``store``, in English (tests/helpers/live_app.py: its secret and student link)."""
    from helpers.live_app import CH13, SECRET, STUDENT_URL

    from attn_tutor.live.app import make_app

    return make_app(store, CH13, lang="en", secret=SECRET, student_url=STUDENT_URL)
