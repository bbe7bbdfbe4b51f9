"""The event streams (``GET /teacher/events``, ``GET /api/events``), on SQLite and PostgreSQL: a
student's stream says the session's state at once and again after the teacher's control; a stranger
gets none; and many open streams cost a worker no thread and no connection each (one feed a process),
so an answer is acknowledged and reaches every open teacher's page with 80 streams open."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers.live_app import CH13, ORIGIN, SECRET
from helpers.serve import Server
from starlette.testclient import TestClient

from attn_tutor.live import app as live_app
from attn_tutor.live.app import make_app
from attn_tutor.sessions.opening import open_store

FIRST = CH13.problems[0].id


def events_of(lines, name: str, count: int, limit: int = 2000):
    """The first ``count`` events called ``name`` in a stream's lines (their JSON), reading at most ``limit`` lines."""
    found, last = [], ""
    for n, line in enumerate(lines):
        if line.startswith("data:") and last == f"event: {name}":
            found.append(json.loads(line[5:]))
            if len(found) == count:
                return found
        last = line
        if n >= limit:
            break
    return found


def test_a_students_stream_says_the_state_at_once_and_again_when_the_teacher_closes_a_problem(store, monkeypatch):
    monkeypatch.setattr(live_app, "EVENTS_WAIT", 0.05)  # keep-alive lines often: the reading below is bounded by lines
    monkeypatch.setattr(live_app, "STUDENT_EVENTS_WAIT", 0.05)
    app = make_app(store, CH13, lang="en", secret=SECRET)
    student = TestClient(app, base_url=ORIGIN)
    token = student.get("/api/state").json()["csrf"]
    assert student.post("/api/join", json={"name": "김민지"}, headers={"X-CSRF-Token": token}).status_code == 200
    teacher = TestClient(app, base_url=ORIGIN)
    teacher.get(f"/teacher?key={SECRET}", follow_redirects=False)
    teacher_token = teacher.get("/teacher/api/map").json()["csrf"]
    with student.stream("GET", "/api/events") as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        (first,) = events_of(lines, "state", 1)
        assert first["problems"][FIRST] == {"open": True, "revealed": False} and first["mode"] == "practice"
        assert "answers" not in first and "name" not in first  # the session's state, nobody's answers
        closing = threading.Thread(
            target=lambda: teacher.post(f"/teacher/api/problem/{FIRST}", json={"open": False}, headers={"X-CSRF-Token": teacher_token})
        )
        closing.start()
        (second,) = events_of(lines, "state", 1)
        closing.join()
    assert second["problems"][FIRST]["open"] is False


def test_a_stranger_has_no_stream_but_a_sentence(store):
    app = make_app(store, CH13, lang="en", secret=SECRET)
    stranger = TestClient(app, base_url=ORIGIN)
    refused = stranger.get("/api/events")
    assert refused.status_code == 401 and "join" in refused.json()["error"].lower()


def server_threads(server: Server) -> list[int]:
    """How many threads each of the server's processes (the one server, or each worker) has now."""
    pids = [server.process.pid]
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children").read_text().split()
    pids += [int(c) for c in children]
    return [len(list(Path(f"/proc/{pid}/task").iterdir())) for pid in pids if Path(f"/proc/{pid}/task").exists()]


@pytest.mark.parametrize("streams", [80])
def test_eighty_open_streams_hold_no_thread_each_and_every_one_shows_the_answer(live_store_url, tmp_path, streams):
    """Before: each teacher's stream held a worker thread (anyio has 40), and 60 of them on PostgreSQL
    kept an answer waiting 3.5 s. Now a worker follows the store once, whatever is open."""
    import httpx2 as httpx

    workers = 2 if live_store_url.startswith("postgresql") else 1
    server = Server(live_store_url, workers=workers)
    server.start()
    try:
        url = urlsplit(server.teacher_url)
        base = f"{url.scheme}://{url.netloc}"

        async def scenario():
            async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(60.0)) as teacher, httpx.AsyncClient(
                base_url=base, timeout=httpx.Timeout(60.0)
            ) as student:  # fmt: skip
                assert (await teacher.get(f"{url.path}?{url.query}")).status_code == 303
                token = (await student.get("/api/state")).json()["csrf"]
                joined = await student.post("/api/join", json={"name": "김민지"}, headers={"X-CSRF-Token": token})
                assert joined.status_code == 200
                opened: list[asyncio.Future] = []
                seen_first = asyncio.Queue()
                counted = []

                async def follow():
                    async with teacher.stream("GET", "/teacher/events") as stream:
                        maps = 0
                        async for line in stream.aiter_lines():
                            if line.startswith("data:"):
                                maps += 1
                                payload = json.loads(line[5:])
                                if maps == 1:
                                    await seen_first.put(True)
                                item = payload["map"].get(f"{FIRST}/먹었다/scores")
                                if item and sum(item["verdicts"].values()) == 1:
                                    counted.append(True)
                                    return

                opened = [asyncio.ensure_future(follow()) for _ in range(streams)]
                for _ in range(streams):  # every stream has its first map: all open
                    await asyncio.wait_for(seen_first.get(), 60)
                threads = server_threads(server)
                reply = await student.post(
                    "/api/answer",
                    json={"problem": FIRST, "row": "먹었다", "stage": "scores", "text": "1 6 4", "client_id": "c-1"},
                    headers={"X-CSRF-Token": joined.json()["csrf"]},
                )
                await asyncio.wait_for(asyncio.gather(*opened), 60)
                return threads, reply, counted

        threads, reply, counted = asyncio.run(scenario())
    finally:
        server.stop()
    assert reply.status_code == 200 and reply.json()["saved"] is True
    assert len(counted) == streams  # every open teacher's page shows the answer
    assert max(threads) < 40, threads  # not a thread a stream (anyio's pool has 40)


def test_phones_between_two_answers_leave_room_for_a_new_connection(tmp_path):
    """More kept-alive connections than the cap on half-sent requests, each idle after a reply (a class's
    phones between two answers): a new connection (a student's stream, a latecomer) is served, not 503."""
    import socket

    from attn_tutor.cli.serve import PARTIAL_LIMIT

    server = Server(str(tmp_path / "class.sqlite"))
    server.start()
    phones = []
    try:
        for _ in range(PARTIAL_LIMIT + 20):
            phone = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            phone.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            reply = b""
            while b"\r\n\r\n" not in reply:
                reply += phone.recv(65536)
            assert reply.startswith(b"HTTP/1.1 200 ")
            phones.append(phone)  # kept alive, idle
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as latecomer:
            latecomer.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := latecomer.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 ") and b'"joined":false' in answer
    finally:
        for phone in phones:
            phone.close()
        server.stop()


@pytest.mark.postgresql
def test_a_problem_closed_on_one_worker_is_closed_on_the_other_without_a_query_an_answer(live_pg_url):
    """Two workers (two apps on one PostgreSQL session): the teacher closes a problem on one; the
    other hears it by its one listener and reads the session again, and refuses the next answer (409)."""
    import time

    with open_store(live_pg_url, CH13, create=True) as one_store, open_store(live_pg_url, CH13, create=False) as other_store:
        one, other = make_app(one_store, CH13, lang="en", secret=SECRET), make_app(other_store, CH13, lang="en", secret=SECRET)
        student = TestClient(other, base_url=ORIGIN)
        token = student.get("/api/state").json()["csrf"]  # (the first request: the worker starts following)
        token = student.post("/api/join", json={"name": "김민지"}, headers={"X-CSRF-Token": token}).json()["csrf"]
        answer = {"problem": FIRST, "row": "먹었다", "stage": "scores", "text": "1 6 4"}
        assert student.post("/api/answer", json={**answer, "client_id": "a"}, headers={"X-CSRF-Token": token}).status_code == 200
        teacher = TestClient(one, base_url=ORIGIN)
        teacher.get(f"/teacher?key={SECRET}", follow_redirects=False)
        teacher_token = teacher.get("/teacher/api/map").json()["csrf"]
        heard = other_store.session_version()
        closed = teacher.post(f"/teacher/api/problem/{FIRST}", json={"open": False}, headers={"X-CSRF-Token": teacher_token})
        assert closed.status_code == 200
        deadline = time.monotonic() + 30
        while other_store.session_version() == heard and time.monotonic() < deadline:  # the NOTIFY on its way
            time.sleep(0.01)
        refused = student.post("/api/answer", json={**answer, "client_id": "b"}, headers={"X-CSRF-Token": token})
        assert refused.status_code == 409 and "closed" in refused.json()["error"]
        assert student.get("/api/state").json()["problems"][FIRST]["open"] is False
