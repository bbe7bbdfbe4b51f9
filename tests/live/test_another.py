""""Another like this" over HTTP (Starlette's TestClient, SQLite and PostgreSQL), and `grade` of a session
with and without ``--include-practice``.

After a stage marked wrong or partly right, in practice, ``POST /api/another`` gives the student a fresh
variant of the problem (drawn as ``export --variants`` draws a sheet: a seed ``variant_set`` regenerates);
an answer to it (``/api/answer`` with ``variant``) is marked against the variant by the one marker and kept
as practice: in ``/api/state`` (so a reload draws it again), counted on the teacher's page, never in the
map, the scores or ``grade`` unless the teacher asks. An exam has none; the student's cookie and the
CSRF token guard it as every student route.
"""

from __future__ import annotations

import csv
import io

import pytest
from helpers.live_app import CH13, ORIGIN, SECRET, csrf, joined
from starlette.testclient import TestClient

from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.live.app import make_app
from attn_tutor.solve import engine
from attn_tutor.variants import fairness
from attn_tutor.variants.generate import variant_set

CAT = CH13.get("cat-fish")


def right_row(problem, token: str, stage: str) -> str:
    solution = engine.solve(problem)
    row = problem.row_index(token)
    head = solution.heads[0]
    if stage == "output":
        return ", ".join(fmt(v, problem.decimals) for v in solution.output[row])
    number = fmt_given if stage == "scores" else fmt
    return ", ".join(number(v, problem.decimals) for v in getattr(head, stage)[row])


def send(client, text, *, stage="scores", row="먹었다", client_id="c-1", **extra):
    body = {"problem": "cat-fish", "row": row, "stage": stage, "text": text, "client_id": client_id, **extra}
    return client.post("/api/answer", json=body, headers=csrf(client))


def another(client, **body):
    return client.post("/api/another", json={"problem": "cat-fish", **body}, headers=csrf(client))


def teacher(app) -> TestClient:
    client = TestClient(app, base_url=ORIGIN)
    assert client.get(f"/teacher?key={SECRET}", follow_redirects=False).status_code == 303
    return client


def test_after_a_partly_right_stage_a_fair_variant_is_drawn_marked_and_kept_as_practice(app):
    kim = joined(app)
    assert another(kim).status_code == 409  # nothing wrong yet: nothing to practise again
    assert "wrong or partly right" in another(kim).json()["error"]
    assert send(kim, "1, 6, 5").json()["verdict"] == "partial"
    reply = another(kim)
    assert reply.status_code == 200, reply.text
    drawn = reply.json()
    seed = drawn["variant"]
    varied = next(p for p in variant_set(CH13, seed).problems if p.id == "cat-fish")  # what grade regenerates from the seed
    assert fairness.givens(varied) != fairness.givens(CAT)
    assert drawn["data"]["id"] == "cat-fish" and drawn["data"]["heads"][0]["Q"] == [list(map(float, r)) for r in varied.heads[0].Q]
    assert str(seed) in drawn["title"]
    # the variant's right row is right; the original's right row is not (other numbers)
    right = send(kim, right_row(varied, "먹었다", "scores"), client_id="v-1", variant=seed).json()
    assert right["verdict"] == "correct" and right["variant"] == seed and right["saved"] is True
    assert send(kim, right_row(CAT, "먹었다", "scaled"), stage="scaled", client_id="v-2", variant=seed).json()["verdict"] != "correct"
    again = send(kim, right_row(varied, "먹었다", "scores"), client_id="v-1", variant=seed)  # a resend: the first reply, nothing new
    assert again.json()["verdict"] == "correct"
    state = kim.get("/api/state").json()
    assert state["variants"] == [{"problem": "cat-fish", "variant": seed}]
    practice = [a for a in state["answers"] if a.get("variant") == seed]
    assert {(a["stage"], a["verdict"]) for a in practice} == {("scores", "correct"), ("scaled", practice[1]["verdict"])} and len(practice) == 2
    # drawn again after a reload: the same variant, not a new one
    assert another(kim, variant=seed).json()["data"] == drawn["data"]
    # the teacher sees the practice counted apart; the map and the score hold only the set's own answer
    board = teacher(app).get("/teacher/api/map").json()
    assert board["practice"]["cat-fish"] == {"variants": 1, "students": 1, "answers": 2}
    assert board["map"]["cat-fish/먹었다/scores"]["verdicts"] == {"partial": 1}
    assert board["students"][0]["answered"] == 1
    page = teacher(app).get("/teacher").text
    assert 'data-practice-count="cat-fish"' in page and "1 drawn by 1 student" in page


def test_a_second_variant_is_another_one(app):
    kim = joined(app)
    send(kim, "1, 6, 5")
    first, second = another(kim).json()["variant"], another(kim).json()["variant"]
    assert first != second
    assert kim.get("/api/state").json()["variants"] == [{"problem": "cat-fish", "variant": first}, {"problem": "cat-fish", "variant": second}]


def test_refusals_each_with_a_sentence(app, store):
    kim = joined(app)
    send(kim, "1, 6, 5")
    seed = another(kim).json()["variant"]
    lee = joined(app, name="Lee", device="device-0002-abcdef")
    # another student's variant is not theirs to answer or to draw again
    assert send(lee, "1, 2, 3", client_id="x", variant=seed).status_code == 404
    assert another(lee, variant=seed).status_code == 404
    assert another(kim, problem="no-such").status_code == 404
    assert send(kim, "1, 2, 3", client_id="y", variant="42").status_code == 400
    # a stranger, no CSRF token, a foreign origin
    stranger = TestClient(app, base_url=ORIGIN)
    stranger.get("/")
    assert another(stranger).status_code == 401
    assert kim.post("/api/another", json={"problem": "cat-fish"}).status_code == 403
    assert kim.post("/api/another", json={"problem": "cat-fish"}, headers={**csrf(kim), "Origin": "http://evil.example"}).status_code == 403
    # closed: no new variant, no answer to one
    store.set_open("cat-fish", False)
    closed = another(kim)
    assert closed.status_code == 409 and "closed" in closed.json()["error"]
    assert send(kim, "1, 2, 3", client_id="z", variant=seed).status_code == 409
    store.set_open("cat-fish", True)
    # an exam: none at all, and the state carries no variant
    store.set_mode("exam")
    exam = another(kim)
    assert exam.status_code == 409 and "practice" in exam.json()["error"]
    assert kim.get("/api/state").json()["variants"] == []
    for reply in (closed, exam):
        assert "Traceback" not in reply.text and set(reply.json()) == {"error"}


def test_korean_sentences(store):
    app = make_app(store, CH13, lang="ko", secret=SECRET)
    kim = joined(app)
    said = another(kim).json()["error"]
    assert "부분 정답" in said and not any("a" <= c <= "z" for c in said.replace("cat-fish", ""))


def graded(run_cli, where, *options):
    result = run_cli("grade", where, "--csv", "g.csv", "--force", *options)
    assert result.exit_code == 0, result.output
    with open("g.csv", encoding="utf-8-sig") as f:
        return list(csv.DictReader(io.StringIO(f.read())))


def test_grade_counts_practice_only_when_asked(app, store, live_store_url, run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kim = joined(app)
    points = send(kim, "1, 6, 5").json()["points"]
    seed = another(kim).json()["variant"]
    varied = next(p for p in variant_set(CH13, seed).problems if p.id == "cat-fish")
    for n, stage in enumerate(("scores", "scaled", "weights", "output")):
        if stage in varied.asked_stages:
            assert send(kim, right_row(varied, "먹었다", stage), stage=stage, client_id=f"v-{n}", variant=seed).json()["verdict"] == "correct"
    if live_store_url.endswith(".sqlite"):
        store.close()  # grade reads the file as a teacher does, after class
    plain = graded(run_cli, live_store_url)
    assert [row["student"] for row in plain] == ["김민지"] and float(plain[0]["score"]) == pytest.approx(points, abs=0.005)
    both = graded(run_cli, live_store_url, "--include-practice")
    assert [row["student"] for row in both] == ["김민지", f"김민지 (another like this: variant {seed})"]
    assert both[0] == plain[0]
    practice = both[1]
    assert practice["variant"] == str(seed)  # re-marked from its seed, as grade marks a sheet
    asked = sum(1 for stage in varied.asked_stages)
    assert float(practice["score"]) == asked  # every stage of the 먹었다 row right, marked as the server did
