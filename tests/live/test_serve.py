"""attn-tutor serve as a teacher runs it: a real uvicorn on 127.0.0.1, its printed links, a student
answering and the teacher's event stream carrying the new map, and a clean stop on Ctrl-C and
SIGTERM; a port in use, bad options and --workers with SQLite each get a sentence and a status."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading

import httpx2
import pytest

from attn_tutor.problems.load import load_problem_set
from attn_tutor.sessions.opening import open_store

CH13 = load_problem_set("ch13")
ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "ATTN_TUTOR_LANG": "en", "COLUMNS": "100"}


class Served:
    """``attn-tutor serve`` running in a child process; its printed student and teacher links."""

    def __init__(self, *args: str, cwd) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "attn_tutor", "serve", "--host", "127.0.0.1", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=ENV,
        )  # fmt: skip
        self.lines = []
        for _ in range(2):
            line = self.process.stdout.readline()
            assert line, self.process.stderr.read()
            self.lines.append(line.rstrip("\n"))
        self.student = self.lines[0].removeprefix("student: ")
        self.teacher = self.lines[1].removeprefix("teacher: ")
        self.rest = []
        while True:  # the notes and the QR code, up to the stop hint
            line = self.process.stdout.readline()
            self.rest.append(line.rstrip("\n"))
            if "Ctrl-C" in line or not line:
                break

    def stop(self, signum=signal.SIGINT) -> tuple[int, str]:
        self.process.send_signal(signum)
        try:
            _, stderr = self.process.communicate(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.communicate()
        return self.process.returncode, stderr


@pytest.fixture
def served(tmp_path, live_store_url):
    server = Served("--db", live_store_url, cwd=tmp_path)
    yield server
    if server.process.poll() is None:
        server.stop()


def test_serve_prints_the_links_and_a_student_answer_reaches_the_teachers_events(served):
    assert re.fullmatch(r"student: http://127\.0\.0\.1:\d+/", served.lines[0])
    assert re.fullmatch(r"teacher: http://127\.0\.0\.1:\d+/teacher\?key=[\w-]{20,}", served.lines[1])
    assert any("127.0.0.1 only" in line for line in served.rest)
    assert any("█" in line or "▀" in line for line in served.rest)  # the QR code
    with httpx2.Client(base_url=served.student, timeout=10) as student, httpx2.Client(timeout=10, follow_redirects=True) as teacher:
        assert teacher.get(served.teacher).status_code == 200  # the key once, then the cookie
        with teacher.stream("GET", served.student + "teacher/events") as events:
            lines = events.iter_lines()
            assert next(line for line in lines if line.startswith("event:")) == "event: map"
            student.get("/")
            token = {"X-CSRF-Token": student.cookies["attn_csrf"]}
            assert student.post("/api/join", json={"name": "김민지"}, headers=token).status_code == 200
            reply = student.post(
                "/api/answer", headers=token,
                json={"problem": "cat-fish", "row": "먹었다", "stage": "scores", "text": "1, 6, 5", "client_id": "c-1"},
            )  # fmt: skip
            assert reply.json()["verdict"] == "partial"
            for line in lines:
                if line.startswith("data:") and '"cat-fish/먹었다/scores":{' in line:
                    assert '"partial":1' in line
                    break
    code, said = served.stop()
    assert code == 0 and "Stopped" in said and "Traceback" not in said


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_stop_cleanly_and_the_session_reopens(tmp_path, signum):
    server = Served(cwd=tmp_path)
    said = [line for line in server.rest if "kept in" in line]
    assert said, server.rest
    [db] = list(tmp_path.glob("ch13-*.sqlite"))
    assert str(db) in said[0]
    code, stderr = server.stop(signum)
    assert code == 0 and "Traceback" not in stderr
    with open_store(str(db), CH13, create=False) as store:  # closed: no lock left behind
        assert store.session().mode == "practice"


def test_serve_again_on_the_same_session_prints_the_same_teachers_link(tmp_path):
    """After a crash or a stop, ``serve --db`` on the session keeps the teacher's secret: the link
    the teacher has open (and its cookie) still works, and a new session gets a new one."""
    db = str(tmp_path / "class.sqlite")
    first = Served("--db", db, cwd=tmp_path)
    first.process.kill()  # kill -9: no clean stop
    first.process.communicate()
    again = Served("--db", db, cwd=tmp_path)
    try:
        assert again.teacher.split("?key=")[1] == first.teacher.split("?key=")[1]
        with httpx2.Client(timeout=10, follow_redirects=True) as teacher:
            page = teacher.get(first.teacher.replace(first.teacher.split("/teacher")[0], again.teacher.split("/teacher")[0]))
            assert page.status_code == 200 and "data-map" in page.text
    finally:
        again.stop()
    other = Served("--db", str(tmp_path / "other.sqlite"), cwd=tmp_path)
    try:
        assert other.teacher.split("?key=")[1] != first.teacher.split("?key=")[1]
    finally:
        other.stop()


def test_a_port_in_use_is_a_sentence_and_status_1(tmp_path, run_cli):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        result = subprocess.run(
            [sys.executable, "-m", "attn_tutor", "serve", "--host", "127.0.0.1", "--port", port, "--db", str(tmp_path / "s.sqlite")],
            capture_output=True, text=True, env=ENV, timeout=60,
        )  # fmt: skip
    assert result.returncode == 1
    assert f"Port {port} on 127.0.0.1 is in use" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize(
    "args,said",
    [
        (["--workers", "2"], "needs a PostgreSQL database"),
        (["--workers", "2", "--db", "s.sqlite"], "needs a PostgreSQL database"),
        (["--workers", "0"], "at least 1"),
        (["--mode", "quiz"], "practice or exam"),
        (["--port", "70000"], "0 to 65535"),
        (["--lang", "fr"], "fr"),
    ],
)
def test_bad_options_are_usage_errors(tmp_path, run_cli, monkeypatch, args, said):
    monkeypatch.chdir(tmp_path)
    result = run_cli("serve", *args)
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_set_that_does_not_load_is_a_sentence(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("serve", "no-such-set.yaml", "--port", "0", "--host", "127.0.0.1")
    assert result.exit_code == 1 and "no-such-set.yaml" in result.output
    assert list(tmp_path.iterdir()) == []


def test_serve_in_korean(tmp_path):
    server = Served("--lang", "ko", cwd=tmp_path)
    assert server.lines[0].startswith("student: http://")
    assert any("Ctrl-C를" in line for line in server.rest)
    code, said = server.stop()
    assert code == 0 and "멈췄습니다" in said


def test_serve_has_help_in_both_languages(run_cli):
    for lang, word in (("en", "live class"), ("ko", "실시간 수업")):
        result = run_cli("serve", "--help", "--lang", lang)
        assert result.exit_code == 0 and word in result.output and "--workers" in result.output


@pytest.mark.postgresql
def test_workers_on_postgresql_share_one_session_and_the_teachers_map(tmp_path, live_pg_url):
    server = Served("--db", live_pg_url, "--workers", "2", cwd=tmp_path)
    try:
        with httpx2.Client(timeout=20, follow_redirects=True) as teacher:
            assert teacher.get(server.teacher).status_code == 200
            with teacher.stream("GET", server.student + "teacher/events") as events:
                lines = events.iter_lines()
                for n in range(4):  # a new connection each: the kernel hands them to either worker
                    with httpx2.Client(base_url=server.student, timeout=20) as student:
                        student.get("/")
                        token = {"X-CSRF-Token": student.cookies["attn_csrf"]}
                        assert student.post("/api/join", json={"name": f"s{n}"}, headers=token).status_code == 200
                        body = {"problem": "cat-fish", "row": "먹었다", "stage": "scores", "text": "1, 6, 5", "client_id": "c"}
                        assert student.post("/api/answer", json=body, headers=token).json()["verdict"] == "partial"
                for line in lines:
                    if '"cat-fish/먹었다/scores":{"verdicts":{"partial":4}' in line:
                        break
    finally:
        code, said = server.stop()
    assert code == 0 and "Traceback" not in said


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_that_comes_before_the_server_has_started_stops_it_as_it_starts(signum):
    """Ctrl-C (or SIGTERM) in the moment between the printed links and uvicorn taking the signals
    over: noted, and the server stops as soon as it has started, cleanly. (Python's own Ctrl-C there
    is a KeyboardInterrupt that a finalizer may swallow, leaving the server running; SIGTERM there
    would end the process at once.)"""
    from attn_tutor.cli import serve as command

    async def app(scope, receive, send):  # pragma: no cover - nothing connects
        raise AssertionError("no request was expected")

    rescued = []

    def rescue():  # only if the stop was lost: a second Ctrl-C a minute later, so the test fails rather than hangs
        rescued.append(True)
        os.kill(os.getpid(), signal.SIGINT)

    listener = command._listen("127.0.0.1", 0)
    watchdog = threading.Timer(60, rescue)
    try:
        with command._stops_noted() as stops:
            os.kill(os.getpid(), signum)  # delivered here, at once: noted, not raised
            assert stops == [signum]
            watchdog.start()
            command._serve_one(app, listener, stops)  # returns: stopped as soon as it started
        assert not rescued
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handed back as they were
    finally:
        watchdog.cancel()
        listener.close()
