"""The live class's app in-process for the HTTP tests (tests/live/): Starlette's TestClient at the
origin the CSRF check expects, a student joined, the headers a changing request carries.

The fixtures that open a session on both stores and make its app are in tests/live/conftest.py
(``store``, ``app``); these are the pieces every test file uses with them.
"""

from __future__ import annotations

from starlette.testclient import TestClient

from attn_tutor.problems.load import load_problem_set

SECRET = "teacher-secret-0123456789abcdef"
ORIGIN = "http://testserver"
STUDENT_URL = "http://192.0.2.7:8000/"
CH13 = load_problem_set("ch13")


def csrf(client: TestClient) -> dict:
    """The double-submit header of ``client``'s CSRF cookie (every changing request carries it)."""
    return {"X-CSRF-Token": client.cookies.get("attn_csrf")}


def client_for(app) -> TestClient:
    """A browser that has loaded the students' page (its CSRF cookie)."""
    client = TestClient(app, base_url=ORIGIN)
    client.get("/")
    return client


def joined(app, name: str = "김민지", device: str = "device-0001-abcdef") -> TestClient:
    """A browser that has joined as ``name`` from ``device``."""
    client = client_for(app)
    reply = client.post("/api/join", json={"name": name, "device": device}, headers=csrf(client))
    assert reply.status_code == 200, reply.text
    return client
