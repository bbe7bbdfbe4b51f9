"""The red team's findings on the live app (issue 20), each as what a teacher or a student would
notice, over HTTP (Starlette's TestClient) on SQLite and PostgreSQL; each failed before its fix."""

from __future__ import annotations

import pytest
from helpers.live_app import CH13, ORIGIN, csrf
from starlette.testclient import TestClient

from attn_tutor.core.rounding import fmt_given
from attn_tutor.live.app import make_app
from attn_tutor.sessions.opening import open_store
from attn_tutor.solve import engine

CAT = CH13.get("cat-fish")
SECRET = "teacher-secret-red-0123456789abcdef"


def right_scores(token: str) -> str:
    solution = engine.solve(CAT)
    return ", ".join(fmt_given(v, CAT.decimals) for v in solution.heads[0].scores[CAT.row_index(token)])


@pytest.fixture
def store(live_store_url):
    with open_store(live_store_url, CH13, create=True) as opened:
        yield opened


def browser(app, address: str = "192.0.2.10") -> TestClient:
    """A browser at ``address`` that has loaded the students' page (its CSRF cookie)."""
    client = TestClient(app, base_url=ORIGIN, client=(address, 50000))
    client.get("/")
    return client


def join(client: TestClient, name: str, **extra):
    return client.post("/api/join", json={"name": name, **extra}, headers=csrf(client))


def test_one_address_cannot_fill_the_class_with_joins_and_the_rest_of_the_room_still_joins(store):
    app = make_app(store, CH13, lang="en", secret=SECRET, join_rate=(3, 0.0))
    bot = browser(app, "192.0.2.66")
    replies = [join(bot, f"bot {n}").status_code for n in range(6)]
    assert replies == [200, 200, 200, 429, 429, 429]
    assert "wait" in join(bot, "bot 9").json()["error"]
    assert store.students().joined == 3  # the teacher's count: three, not ten
    kim = browser(app, "192.0.2.11")
    assert join(kim, "김민지", device="device-kim-000001").status_code == 200
    assert store.students().joined == 4


@pytest.mark.parametrize(
    "name",
    ["\u3164", "\u115f\u1160", "김민지\u3164", "\uffa0", "\u2800", "Kim\u034f"],
    ids=["hangul-filler", "choseong-jungseong-fillers", "filler-after-a-name", "halfwidth-filler", "braille-blank", "grapheme-joiner"],
)
def test_a_name_of_letters_that_show_nothing_is_refused_so_the_roster_has_no_blank_or_twin_rows(store, name):
    app = make_app(store, CH13, lang="en", secret=SECRET)
    client = browser(app)
    reply = join(client, name)
    assert reply.status_code == 400
    assert "invisible" in reply.json()["error"]
    assert store.students().joined == 0
    assert join(client, "김민지").status_code == 200


@pytest.mark.parametrize("where", ["missing", "a-file"], ids=["folder-missing", "folder-is-a-file"])
def test_serve_where_the_session_file_cannot_be_made_says_so_with_status_1(tmp_path, run_cli, where):
    (tmp_path / "a-file").write_text("not a folder\n", encoding="utf-8")
    db = tmp_path / where / "class.sqlite"
    result = run_cli("serve", "ch13", "--host", "127.0.0.1", "--port", "0", "--db", str(db))
    assert result.exit_code == 1, result.output
    assert "cannot write the session file here" in result.output and "--db FILE" in result.output
    assert "Traceback" not in result.output


def test_the_teachers_event_stream_outlives_the_database_going_away_and_says_why(store, monkeypatch):
    from attn_tutor.live import app as live_app
    from attn_tutor.sessions.store import LiveError

    monkeypatch.setattr(live_app, "EVENTS_WAIT", 0.01)
    failures = iter([LiveError("live.store.unreachable", reason="server closed the connection")] * 2)
    real = store.changes

    def changes():
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return real()

    monkeypatch.setattr(store, "changes", changes)
    app = make_app(store, CH13, lang="en", secret=SECRET)
    board = TestClient(app, base_url=ORIGIN)
    board.get(f"/teacher?key={SECRET}", follow_redirects=False)
    lines = []
    with board.stream("GET", "/teacher/events") as stream:
        for line in stream.iter_lines():
            lines.append(line)
            if line.startswith("event: map"):
                break
    assert any("cannot reach the PostgreSQL database" in line for line in lines)  # said, then the map once it is back
