"""The live class at its edges (issue 35, rule 9 and rule 10's live part): each edge a sentence and the
right status, nothing acknowledged that is not stored, and tests that fail when the student is taken
from anywhere but the cookie or the CSRF check is skipped.
"""

from __future__ import annotations

import csv
import io
import os
import shlex
import shutil
import subprocess
import sys

import pytest
from helpers.live_app import CH13, ORIGIN, SECRET, csrf, joined
from starlette.testclient import TestClient

from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.live.app import make_app
from attn_tutor.sessions.opening import open_store
from attn_tutor.sessions.store import Mark
from attn_tutor.solve import engine

CAT = CH13.get("cat-fish")


def right_row(token: str, stage: str) -> str:
    solution = engine.solve(CAT)
    values = getattr(solution.heads[0], stage)[CAT.row_index(token)]
    number = fmt_given if stage == "scores" else fmt
    return ", ".join(number(v, CAT.decimals) for v in values)


def send(client, row="먹었다", stage="scores", client_id="c-1", text=None, **extra):
    body = {"problem": "cat-fish", "row": row, "stage": stage, "client_id": client_id,
            "text": right_row(row, stage) if text is None else text}  # fmt: skip
    return client.post("/api/answer", json={**body, **extra}, headers=csrf(client))


def answers_of(client) -> list[tuple]:
    return sorted((a.get("problem"), a.get("row"), a.get("stage"), a["text"]) for a in client.get("/api/state").json()["answers"])


# --- a client_id names one answer ----------------------------------------------------------


@pytest.mark.parametrize(
    "first, then",
    [
        ({"stage": "scores"}, {"stage": "weights"}),
        ({"row": "먹었다"}, {"row": "고양이가"}),
        ({"stage": "scores"}, {"concept": "why-scale", "text": "A"}),
        ({"concept": "why-scale", "text": "A"}, {"stage": "scores"}),
    ],
)
def test_a_client_id_used_for_another_item_is_refused_with_409_and_nothing_is_stored(app, first, then):
    kim = joined(app, "김민지", "device-0001-abcdef")
    def body(fields):
        if "concept" in fields:
            return kim.post("/api/answer", json={**fields, "client_id": "same"}, headers=csrf(kim))
        return send(kim, client_id="same", **fields)
    assert body(first).status_code == 200
    before = answers_of(kim)
    reply = body(then)
    assert reply.status_code == 409, reply.text
    said = reply.json()["error"]
    assert "same" in said and "nothing was saved" in said
    assert answers_of(kim) == before
    assert body(first).status_code == 200  # the first item's resend is still its first answer, acknowledged


# --- the teacher's secret ------------------------------------------------------------------


@pytest.mark.parametrize("secret", [None, "", "short", "x" * 15, "teacher\n-secret-0123456789"])
def test_a_missing_empty_or_short_teacher_secret_is_refused_with_a_sentence(store, secret):
    from attn_tutor.core.errors import AttnTutorError

    with pytest.raises(AttnTutorError) as refused:
        make_app(store, CH13, lang="en", secret=secret)  # type: ignore[arg-type]
    [said] = refused.value.messages()
    assert "at least 16" in said and store.where.split("@")[-1] in said


@pytest.mark.parametrize("stored", ["", "abc", "x" * 15])
def test_serve_refuses_a_session_whose_teacher_secret_is_empty_or_short(tmp_path, run_cli, stored):
    db = tmp_path / "class.sqlite"
    with open_store(db, CH13, create=True) as opened:
        assert opened.teacher_secret(stored) == stored
    result = run_cli("serve", "ch13", "--db", str(db), "--host", "127.0.0.1", "--port", "0")
    assert result.exit_code == 1, result.output
    assert "teacher secret is" in " ".join(result.output.split()) and "Traceback" not in result.output
    assert "teacher:" not in result.output  # no link printed, nothing served


# --- rule 10: tests that fail when the student or the CSRF check is taken from the wrong place --


@pytest.mark.parametrize("where", ["token", "student", "attn_student"])
def test_a_body_naming_another_students_token_saves_for_the_cookies_student_only(app, store, where):
    kim = joined(app, "김민지", "device-0001-abcdef")
    lee = joined(app, "이서준", "device-0002-abcdef")
    lee_token = next(student.token for student, _, _ in store.roster() if student.name == "이서준")
    reply = send(kim, client_id="k-1", **{where: lee_token})
    assert reply.status_code in (200, 400), reply.text
    assert answers_of(lee) == []  # nothing saved for the student the body names
    saved_for = {student.name: count for student, count, _ in store.roster()}
    assert saved_for["이서준"] == 0
    if reply.status_code == 200:  # saved, then for the cookie's student
        assert answers_of(kim) == [("cat-fish", "먹었다", "scores", right_row("먹었다", "scores"))]
        assert saved_for["김민지"] == 1


def without_csrf_cookie(client: TestClient) -> TestClient:
    client.cookies.delete("attn_csrf")
    assert "attn_csrf" not in client.cookies
    return client


@pytest.mark.parametrize("header", ["", "x", "a" * 43, "null", "undefined", None])
@pytest.mark.parametrize("route", ["join", "answer", "teacher"])
def test_no_csrf_cookie_with_any_header_is_403_and_changes_nothing(app, store, route, header):
    headers = {} if header is None else {"X-CSRF-Token": header}
    if route == "join":
        client = without_csrf_cookie(TestClient(app, base_url=ORIGIN))
        reply = client.post("/api/join", json={"name": "박지우", "device": "device-0003-abcdef"}, headers=headers)
    elif route == "answer":
        client = without_csrf_cookie(joined(app, "김민지", "device-0001-abcdef"))
        reply = client.post("/api/answer", headers=headers, json={"problem": "cat-fish", "row": "먹었다", "stage": "scores",
                                                                  "text": right_row("먹었다", "scores"), "client_id": "c-1"})  # fmt: skip
    else:
        client = TestClient(app, base_url=ORIGIN)
        client.get(f"/teacher?key={SECRET}", follow_redirects=False)
        client = without_csrf_cookie(client)
        reply = client.post("/teacher/api/mode", json={"mode": "exam"}, headers=headers)
    assert reply.status_code == 403, reply.text
    assert "CSRF" in reply.json()["error"] or "token" in reply.json()["error"]
    assert store.session().mode == "practice"
    assert [a for _, a, _ in store.roster()] in ([], [0])  # no one joined by the refused join; no answer saved


# --- the session file removed or replaced while serving ---------------------------------------


def _remove(db):
    for path in db.parent.glob(db.name + "*"):  # the file, its -wal and -shm, as a teacher's rm session* would
        path.unlink()


def _replace(db):
    other = db.with_name("other.sqlite")
    with open_store(other, CH13, create=True):
        pass
    os.replace(other, db)


@pytest.mark.parametrize("change", [_remove, _replace])
def test_a_session_file_removed_or_replaced_while_serving_stops_acknowledgements_with_a_sentence(tmp_path, change):
    db = tmp_path / "class.sqlite"
    with open_store(db, CH13, create=True) as store:
        app = make_app(store, CH13, lang="en", secret=SECRET)
        kim = joined(app, "김민지", "device-0001-abcdef")
        assert send(kim, client_id="c-1").status_code == 200
        change(db)
        reply = send(kim, row="고양이가", client_id="c-2")
        assert reply.status_code == 503, reply.text  # the page keeps a 503's answer and sends it again later
        assert "removed or replaced" in reply.json()["error"] and "saved" not in reply.json()
        late = TestClient(app, base_url=ORIGIN)
        late.get("/")
        assert late.post("/api/join", json={"name": "이서준"}, headers=csrf(late)).status_code == 503
        rescued = store.rescue()
    assert rescued is not None and rescued != str(db)
    with open_store(rescued, CH13, create=False, readonly=True) as copy:  # every answer acknowledged, and none other
        [(name, answers)] = list(copy.answer_files())
    assert name == "김민지" and answers["answers"] == {"cat-fish": {"먹었다": {"scores": right_row("먹었다", "scores")}}}


def test_serve_stopped_after_its_file_was_removed_says_where_the_answers_are_not_that_they_are_in_it(tmp_path):
    import httpx2
    from helpers.serve import Server

    db = tmp_path / "class.sqlite"
    server = Server(str(db))
    server.start()
    try:
        with httpx2.Client(base_url=server.student_url, timeout=10) as student:
            student.get("/")
            token = {"X-CSRF-Token": student.cookies["attn_csrf"]}
            assert student.post("/api/join", json={"name": "김민지"}, headers=token).status_code == 200
            body = {"problem": "cat-fish", "row": "먹었다", "stage": "scores", "text": "1, 6, 5", "client_id": "c-1"}
            assert student.post("/api/answer", json=body, headers=token).status_code == 200
            _remove(db)
            refused = student.post("/api/answer", json={**body, "client_id": "c-2", "row": "고양이가"}, headers=token)
            assert refused.status_code == 503 and "removed or replaced" in refused.json()["error"]
    finally:
        server.stop()
    said = " ".join(" ".join(server.lines).split())
    assert "every answer is saved in" not in said and "Traceback" not in said
    [rescued] = list(tmp_path.glob("class-rescued-*.sqlite"))
    assert f"every answer saved before is now in {rescued}" in said
    with open_store(rescued, CH13, create=False, readonly=True) as copy:
        [(name, answers)] = list(copy.answer_files())
    assert answers["answers"] == {"cat-fish": {"먹었다": {"scores": "1, 6, 5"}}}


# --- a session on a read-only file system ---------------------------------------------------


def _session_with_answers(folder, *, left_wal: bool):
    """A session with two students' answers in ``folder``; ``left_wal``: as a server killed mid-class
    leaves it (the answers still in the WAL beside the file, not yet in the file itself)."""
    folder.mkdir()
    db = folder / "class.sqlite"
    store = open_store(db, CH13, create=True)
    for number, name in enumerate(["김민지", "이서준"], start=1):
        student = store.join(name, f"device-{number:04}-abcdefghij")
        store.save(student.id, "cat-fish", "먹었다", "scores", right_row("먹었다", "scores"), f"c-{number}", Mark("correct", None, 1.0))
    if left_wal:
        held = folder.with_name("held")
        held.mkdir()
        for path in folder.iterdir():  # the file, its WAL and index as they are while it is served
            shutil.copy(path, held / path.name)
        store.close()
        shutil.rmtree(folder)
        held.rename(folder)
        assert (folder / "class.sqlite-wal").stat().st_size > 0
    else:
        store.close()
        assert not (folder / "class.sqlite-wal").exists()
    return db


@pytest.mark.parametrize("left_wal", [False, True], ids=["closed cleanly", "a WAL left by a killed server"])
def test_grade_reads_a_session_on_a_read_only_file_system(tmp_path, left_wal):
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        pytest.skip("mounting a read-only folder needs unshare -m (util-linux, and the right to mount)")
    db = _session_with_answers(tmp_path / "ro", left_wal=left_wal)
    out = tmp_path / "out"
    out.mkdir()
    folder = shlex.quote(str(db.parent))
    script = (f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} && ! touch {folder}/x 2>/dev/null && "
              f"{shlex.quote(sys.executable)} -m attn_tutor grade {shlex.quote(str(db))} --csv {shlex.quote(str(out / 'g.csv'))} --lang en")  # fmt: skip
    result = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = list(csv.DictReader(io.StringIO((out / "g.csv").read_text(encoding="utf-8-sig"))))
    assert [(row["student"], row["cat-fish/먹었다/scores points"]) for row in rows] == [("김민지", "1"), ("이서준", "1")]
    assert sorted(p.name for p in db.parent.iterdir()) == sorted(["class.sqlite"] + (["class.sqlite-shm", "class.sqlite-wal"] if left_wal else []))


# --- a full disk at start-up ------------------------------------------------------------------


def _full_from(step: str):
    """SQLite's own SQLITE_FULL at ``step`` of the start: the file may not grow past its pages then."""
    from attn_tutor.sessions.sqlite import SqliteStore

    original = getattr(SqliteStore, step)

    def full(self, cur, *args, **kwargs):
        pages = cur.execute("PRAGMA page_count").fetchone()[0]
        cur.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        return original(self, cur, *args, **kwargs)

    return step, full


def test_a_full_disk_at_start_up_says_the_session_could_not_start_not_that_an_answer_was_lost(tmp_path, run_cli, monkeypatch):
    from attn_tutor.sessions.sqlite import SqliteStore

    monkeypatch.setattr(SqliteStore, *_full_from("_create_tables"))
    result = run_cli("serve", "ch13", "--db", str(tmp_path / "class.sqlite"), "--host", "127.0.0.1", "--port", "0")
    said = " ".join(result.output.split())
    assert result.exit_code == 1, said
    assert "is full: the session could not be started" in said and "the answer was not saved" not in said
    assert "Traceback" not in said and "teacher:" not in said


def test_a_full_disk_while_serving_still_says_the_answer_was_not_saved(tmp_path):
    with open_store(tmp_path / "s.sqlite", CH13, create=True) as store:
        kim = store.join("김민지", "device-0001-abcdefghij")
        pages = store.connection.execute("PRAGMA page_count").fetchone()[0]
        store.connection.execute(f"PRAGMA max_page_count = {pages}")
        from attn_tutor.sessions.store import LiveError

        with pytest.raises(LiveError) as raised:
            for n in range(10_000):
                store.save(kim.id, "cat-fish", "먹었다", "scaled", "x" * 500, f"c{n}", Mark("wrong"))
    assert "the answer was not saved" in str(raised.value)


# --- a header timeout and a cap on partial requests ---------------------------------------------


@pytest.fixture
def server(tmp_path):
    from helpers.serve import Server

    running = Server(str(tmp_path / "class.sqlite"))
    running.start()
    yield running
    running.stop()


def _partial(port: int):
    import socket

    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and then nothing more
    return sock


def _read_all(sock) -> bytes:
    got = b""
    while chunk := sock.recv(4096):
        got += chunk
    return got


def test_a_request_whose_headers_never_finish_gets_408_and_is_closed_within_the_header_timeout(server):
    import time

    from attn_tutor.cli.serve import HEADER_TIMEOUT

    with _partial(server.port) as slow:
        started = time.monotonic()
        answer = _read_all(slow)  # blocks until the server closes it
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408 ") and b"did not come within 10 seconds" in answer
    assert HEADER_TIMEOUT - 1 < waited < HEADER_TIMEOUT + 10
    import httpx2

    assert httpx2.get(server.student_url, timeout=10).status_code == 200  # the server serves on


def test_connections_past_the_cap_on_partial_requests_are_turned_away_and_the_others_served(server):
    import socket

    import httpx2

    from attn_tutor.cli.serve import PARTIAL_LIMIT

    held = [_partial(server.port) for _ in range(PARTIAL_LIMIT)]
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as one_more:  # turned away as it connects
            answer = _read_all(one_more)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"Too many connections" in answer
    finally:
        for sock in held:
            sock.close()
    for _ in range(50):  # the held ones closed: the server lets them go as it reads each close
        reply = httpx2.get(server.student_url, timeout=10)
        if reply.status_code == 200:
            break
    assert reply.status_code == 200


def test_the_edges_sentences_are_korean_in_a_korean_session(tmp_path):
    db = tmp_path / "class.sqlite"
    with open_store(db, CH13, create=True) as store:
        app = make_app(store, CH13, lang="ko", secret=SECRET)
        kim = joined(app, "김민지", "device-0001-abcdef")
        assert send(kim, client_id="same").status_code == 200
        reused = send(kim, stage="weights", client_id="same")
        assert reused.status_code == 409 and "이미 cat-fish/먹었다/scores에 쓰였습니다" in reused.json()["error"]
        _remove(db)
        gone = send(kim, row="고양이가", client_id="c-2")
        assert gone.status_code == 503 and "세션 파일이 지워지거나" in gone.json()["error"]
        assert "removed" not in gone.json()["error"] and "nothing was saved" not in reused.json()["error"]
