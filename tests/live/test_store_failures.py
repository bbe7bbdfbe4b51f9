"""A live session that cannot be used gets one sentence (a LiveError, exit status 1), never a
traceback and never a fresh session in its place; and no acknowledged answer is lost when the
server is killed.

The kill test runs a child process that saves answers and prints each acknowledgement; the test
reads its pipe up to a chosen count, kills it with SIGKILL there, reopens the session and finds
every acknowledged answer (no sleeps: the pipe says where the child is).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from attn_tutor.problems.load import load_problem_set
from attn_tutor.sessions import sqlite as sqlite_backend
from attn_tutor.sessions.opening import open_store
from attn_tutor.sessions.store import SCHEMA, LiveError, Mark

CH13 = load_problem_set("ch13")
FIRST = CH13.problems[0].id


def refused(target, *, create=True, problem_set=CH13, **kw) -> str:
    with pytest.raises(LiveError) as raised:
        open_store(target, problem_set, create=create, **kw)
    assert raised.value.exit_code == 1
    return str(raised.value)


def made(path, answers: int = 3) -> None:
    with open_store(path, CH13, create=True) as store:
        kim = store.join("김민지", "d")
        for n in range(answers):
            store.save(kim.id, FIRST, "먹었다", "scores", f"1 6 {n}", f"c{n}", Mark("wrong"))


# --- files that are not a usable session ------------------------------------------------------


def test_no_session_where_one_is_asked_for(tmp_path):
    where = tmp_path / "missing.sqlite"
    assert refused(where, create=False) == f"{where}: there is no session here; start one with attn-tutor serve, or check the path"
    assert not where.exists()


@pytest.mark.parametrize(
    "content",
    [b"student: kim\nanswers: {}\n", b"\x00" * 5000, b"SQLite format 3\x00" + b"\xff" * 84],
    ids=["a text file", "zeros", "a broken header"],
)
def test_a_file_that_is_not_a_session_is_said_to_be_none_and_left_as_it_was(tmp_path, content):
    where = tmp_path / "s.sqlite"
    where.write_bytes(content)
    message = refused(where)
    assert "is not an attn-tutor session database" in message or "damaged" in message, message
    assert where.read_bytes() == content


def test_another_programs_database_is_not_a_session_and_is_not_written(tmp_path):
    where = tmp_path / "theirs.sqlite"
    with sqlite3.connect(where) as conn:
        conn.execute("CREATE TABLE grades (name TEXT)")
    before = where.read_bytes()
    assert refused(where).endswith("this is not an attn-tutor session database (serve makes those; give serve a new file name to start one)")
    with sqlite3.connect(where) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["grades"]
    assert where.read_bytes()[:100] == before[:100]


def test_a_database_holding_another_programs_tables_is_not_made_a_session(live_store_url):
    raw(live_store_url, "CREATE TABLE grades (name TEXT)")
    assert refused(live_store_url).endswith("this is not an attn-tutor session database (serve makes those; give serve a new file name to start one)")
    raw(live_store_url, "SELECT name FROM grades")  # still there, and nothing of ours beside it
    with pytest.raises(Exception):  # noqa: B017 - sqlite3's or psycopg's own error
        raw(live_store_url, "SELECT 1 FROM live_meta")


def test_a_damaged_session_file_is_said_to_be_damaged(tmp_path):
    where = tmp_path / "s.sqlite"
    made(where, answers=200)
    data = bytearray(where.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[2 * page : 2 * page + 200] = b"\xa5" * 200  # a table's page: its header overwritten
    where.write_bytes(bytes(data))
    message = refused(where)
    assert "the session database is damaged" in message and "keep the file for its answers" in message


def raw(target: str, sql: str) -> None:
    """``sql`` run on the session's database by another program (sqlite3, or psycopg in its schema)."""
    if target.startswith("postgresql"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute(sql)
    else:
        conn = sqlite3.connect(target)
        try:
            with conn:
                conn.execute(sql)
        finally:
            conn.close()


def test_a_session_from_a_newer_attn_tutor_is_refused_with_both_versions(live_store_url):
    made(live_store_url)
    raw(live_store_url, f"UPDATE live_meta SET value = '{SCHEMA + 1}' WHERE key = 'schema'")
    message = refused(live_store_url)
    assert message.endswith(f"written by a newer attn-tutor (session format {SCHEMA + 1}, this one reads up to {SCHEMA}); upgrade attn-tutor")


# --- locks ---------------------------------------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import sys
    from attn_tutor.sessions.opening import open_store
    from attn_tutor.problems.load import load_problem_set
    store = open_store(sys.argv[1], load_problem_set("ch13"), create=True)
    print("open", flush=True)
    sys.stdin.read()
    """
)


def child(script: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
    )


def test_a_second_serve_on_the_same_file_is_refused_while_the_first_has_it(tmp_path):
    where = tmp_path / "s.sqlite"
    made(where)
    first = child(HOLDER, str(where))
    try:
        assert first.stdout.readline() == "open\n"
        message = refused(where)
        assert message == f"{where}: another attn-tutor serve is using this session file; stop it first, or give another file with --db"
        with open_store(where, None, create=False, readonly=True) as reader:  # grade may still read it
            assert reader.students().joined == 1
    finally:
        first.stdin.close()
        first.wait(60)
        first.stdout.close()
    open_store(where, CH13, create=True).close()  # and once the first has stopped, it opens


def test_a_lock_another_program_holds_is_said_after_a_short_wait(tmp_path, monkeypatch):
    where = tmp_path / "s.sqlite"
    made(where)
    monkeypatch.setattr(sqlite_backend, "BUSY_MS", 50)
    other = sqlite3.connect(where, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert refused(where).endswith("the session database is locked by another program; close it and try again")
    finally:
        other.execute("ROLLBACK")
        other.close()


# --- a full disk -------------------------------------------------------------------------------


def test_a_full_disk_refuses_the_answer_with_a_sentence_and_keeps_the_session_whole(tmp_path):
    where = tmp_path / "s.sqlite"
    with open_store(where, CH13, create=True) as store:
        kim = store.join("김민지", "d")
        store.save(kim.id, FIRST, "먹었다", "scores", "1 6 4", "first", Mark("correct", None, 1))
        pages = store.connection.execute("PRAGMA page_count").fetchone()[0]
        store.connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLITE_FULL once the file must grow
        with pytest.raises(LiveError) as raised:
            for n in range(10_000):
                store.save(kim.id, FIRST, "먹었다", "scaled", "x" * 500, f"c{n}", Mark("wrong"))
        assert str(raised.value) == (
            f"{where}: the disk holding the session database is full: the answer was not saved;"
            " free some space (the students' pages keep it and send it again)"
        )
        refused_id = f"c{n}"
        assert refused_id not in {a for a in [v.client_id for v in store.latest(kim.id).values()]}
        store.connection.execute("PRAGMA max_page_count = 1073741823")  # space again: the same answer is saved
        assert not store.save(kim.id, FIRST, "먹었다", "scaled", "x" * 500, refused_id, Mark("wrong")).resent
    with open_store(where, CH13, create=True) as store:
        assert store.latest(kim.id)[FIRST, "먹었다", "scores"].text == "1 6 4"


# --- PostgreSQL that cannot be reached ---------------------------------------------------------


@pytest.mark.parametrize(
    "url, start",
    [
        ("postgresql://nobody@127.0.0.1:1/none", "postgresql://nobody@127.0.0.1:1/none: cannot reach the PostgreSQL database: "),
        ("postgresql://nobody:secret@127.0.0.1:1/none", "postgresql://nobody@127.0.0.1:1/none: cannot reach the PostgreSQL database: "),
        ("postgresql://%zz@127.0.0.1/none", "postgresql://%zz@127.0.0.1/none: not a PostgreSQL URL libpq can read ("),
    ],
    ids=["refused", "its password never said", "a bad URL"],
)
def test_a_postgresql_that_cannot_be_reached_is_said_with_its_url_and_no_password(url, start):
    message = refused(url)
    assert message.startswith(start), message
    assert "secret" not in message


# --- kill -9 -------------------------------------------------------------------------------------

SAVER = textwrap.dedent(
    """
    import sys
    from attn_tutor.sessions.opening import open_store
    from attn_tutor.sessions.store import Mark
    from attn_tutor.problems.load import load_problem_set
    store = open_store(sys.argv[1], load_problem_set("ch13"), create=True)
    kim = store.join("김민지", "device")
    for n in range(1_000_000):
        store.save(kim.id, "cat-fish", "먹었다", "scores", f"1 6 {n}", f"c{n}", Mark("wrong"))
        print(n, flush=True)  # the acknowledgement: after the commit
    """
)


@pytest.mark.parametrize("kill_at", [1, 57, 400])
def test_every_acknowledged_answer_is_there_after_kill_9(live_store_url, kill_at):
    saver = child(SAVER, live_store_url)
    acked = []
    try:
        while len(acked) < kill_at:
            line = saver.stdout.readline()
            assert line, "the saver stopped before it was killed"
            acked.append(int(line))
        os.kill(saver.pid, signal.SIGKILL)
        acked.extend(int(line) for line in saver.stdout.read().split())  # acknowledged before the kill landed
    finally:
        saver.kill()
        saver.wait(60)
        saver.stdout.close()
        saver.stdin.close()
    assert saver.returncode == -signal.SIGKILL
    with open_store(live_store_url, CH13, create=True) as store:
        (kim,) = [student for student, _answered, _points in store.roster()]
        kept = {attempt[3] for attempt in store.attempts(kim.id)}
        assert {f"1 6 {n}" for n in acked} <= kept
        assert len(kept) - len(acked) <= 1  # at most the one committed as the kill came, not yet acknowledged


def test_a_session_missing_part_of_its_record_is_said_to_be_damaged(live_store_url):
    made(live_store_url)
    raw(live_store_url, "DELETE FROM live_meta WHERE key = 'fingerprint'")
    assert "the session database is damaged (no fingerprint)" in refused(live_store_url)
