"""Peer instruction over HTTP, on SQLite and PostgreSQL (issue 36, items 2 and 3): the projector's view
(no names, no one's score), focus, pause (answers refused with 423, nothing lost), results hidden from
the projector, ask again (on the same numbers or a fresh variant), both rounds kept in the store and
carried by ``grade --json``; every new teacher action refused without the secret or the CSRF token.
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from helpers.live_app import CH13, ORIGIN, SECRET, csrf, joined
from helpers.page import script_json
from starlette.testclient import TestClient
from typer.testing import CliRunner

from attn_tutor.cli.app import app as cli_app
from attn_tutor.core.i18n import speaking
from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.live.app import make_app
from attn_tutor.live.lecture import distribution
from attn_tutor.sessions.opening import open_store
from attn_tutor.solve import engine
from attn_tutor.variants.generate import variant_set

CAT = CH13.get("cat-fish")
ROW = "먹었다"


def right_row(problem, token: str, stage: str) -> str:
    solution = engine.solve(problem)
    row = problem.row_index(token)
    if stage == "output":
        return ", ".join(fmt(v, problem.decimals) for v in solution.output[row])
    number = fmt_given if stage == "scores" else fmt
    return ", ".join(number(v, problem.decimals) for v in getattr(solution.heads[0], stage)[row])


def make(store, lang="en"):
    return make_app(store, CH13, lang=lang, secret=SECRET, student_url="http://192.0.2.7:8000/")


@pytest.fixture
def app(store):
    return make(store)


def send(client, stage="scores", text=None, client_id="c-1", problem="cat-fish", row=ROW):
    body = {"problem": problem, "row": row, "stage": stage, "text": text if text is not None else right_row(CAT, row, stage), "client_id": client_id}
    return client.post("/api/answer", json=body, headers=csrf(client))


def teacher(app) -> TestClient:
    client = TestClient(app, base_url=ORIGIN)
    assert client.get(f"/teacher?key={SECRET}", follow_redirects=False).status_code == 303
    client.get("/teacher")
    return client


def act(board: TestClient, action: str, **body):
    reply = board.post("/teacher/api/lecture", json={"action": action, **body}, headers=csrf(board))
    assert reply.status_code == 200, reply.text
    return reply.json()


def projector(board: TestClient) -> dict:
    reply = board.get("/teacher/api/projector")
    assert reply.status_code == 200, reply.text
    return reply.json()


def bars(view: dict, number: int) -> dict:
    [found] = [r for r in view["focus"]["rounds"] if r["round"] == number]
    return {"verdicts": {v["verdict"]: v["count"] for v in found["verdicts"]}, "diagnoses": {d["code"]: d["count"] for d in found["diagnoses"]},
            "shares": {v["verdict"]: v["share"] for v in found["verdicts"]}}  # fmt: skip


ACTIONS = [
    {"action": "focus", "problem": "cat-fish", "row": ROW},
    {"action": "focus", "concept": "why-scale"},
    {"action": "pause"},
    {"action": "resume"},
    {"action": "hide-results"},
    {"action": "show-results"},
    {"action": "ask-again"},
    {"action": "ask-again", "fresh_variant": True},
]


@pytest.mark.parametrize("body", ACTIONS, ids=lambda b: b["action"] + ("-fresh" if b.get("fresh_variant") else "") + ("-concept" if "concept" in b else ""))
def test_every_lecture_action_needs_the_secret_and_the_csrf_token(app, store, body):
    before = store.session()
    stranger = TestClient(app, base_url=ORIGIN)
    stranger.get("/")
    refused = stranger.post("/teacher/api/lecture", json=body, headers=csrf(stranger))
    assert refused.status_code == 403 and "error" in refused.json()
    board = teacher(app)
    without = board.post("/teacher/api/lecture", json=body)
    assert without.status_code == 403 and "error" in without.json()
    wrong = board.post("/teacher/api/lecture", json=body, headers={"X-CSRF-Token": "not-the-token-0123456789"})
    assert wrong.status_code == 403
    assert store.session() == before  # nothing changed by a refused request


def test_the_projector_needs_the_teacher_and_shows_no_name_or_score(app):
    kim = joined(app, "김민지", "device-kim-0123456789")
    send(kim, text="1, 6, 5")  # one slip
    stranger = TestClient(app, base_url=ORIGIN)
    for path in ("/teacher/projector", "/teacher/api/projector", "/teacher/projector/events"):
        assert stranger.get(path).status_code == 403
    assert stranger.get("/teacher/projector?key=wrong-key-0123456789").status_code == 403
    board = TestClient(app, base_url=ORIGIN)
    opened = board.get(f"/teacher/projector?key={SECRET}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/teacher/projector"
    page = board.get("/teacher/projector")
    assert page.status_code == 200 and "김민지" not in page.text
    assert "Content-Security-Policy" in page.headers and 'src="/assets/projector.js"' in page.text
    view = projector(board)
    assert "김민지" not in json.dumps(view, ensure_ascii=False) and "students" not in view and "score" not in json.dumps(view)
    assert view["joined"] == 1 and view["answered"] == 1
    data = script_json(page.text, "projector-data")
    assert data["view"]["joined"] == 1
    assert 'href="/teacher/projector"' in teacher(app).get("/teacher").text  # opened from the teacher's page


def test_focus_reaches_every_students_state_and_the_projector(app):
    kim = joined(app, "김민지", "device-kim-0123456789")
    board = teacher(app)
    assert kim.get("/api/state").json()["lecture"]["focus"] is None
    said = act(board, "focus", problem="cat-fish", row=ROW)
    assert said["focus"] == {"problem": "cat-fish", "row": ROW}
    assert kim.get("/api/state").json()["lecture"]["focus"] == {"problem": "cat-fish", "row": ROW}
    view = projector(board)
    assert view["focus"]["label"] == f"cat-fish, row {ROW}" and [s["stage"] for s in view["focus"]["stages"]] == ["scores", "scaled", "weights", "output"]
    act(board, "focus", concept="why-scale")
    assert kim.get("/api/state").json()["lecture"]["focus"] == {"concept": "why-scale"}
    act(board, "focus", clear=True)
    assert kim.get("/api/state").json()["lecture"]["focus"] is None


def test_the_projector_counts_verdicts_mistakes_and_who_checked_each_stage(app):
    board = teacher(app)
    act(board, "focus", problem="cat-fish", row=ROW)
    students = [joined(app, f"student {n}", f"device-{n:04d}-0123456789") for n in range(4)]
    send(students[0])
    send(students[1])
    send(students[2], text="1, 6, 5")  # a slip
    send(students[0], stage="scaled", client_id="c-2")
    view = projector(board)
    checked = {s["stage"]: s["checked"] for s in view["focus"]["stages"]}
    assert checked == {"scores": 3, "scaled": 1, "weights": 0, "output": 0}
    assert view["focus"]["answered"] == 3
    round1 = bars(view, 1)
    assert round1["verdicts"]["correct"] == 3 and round1["verdicts"]["wrong"] + round1["verdicts"]["partial"] == 1
    assert round1["shares"]["correct"] == 0.75


@pytest.mark.parametrize("status_word", ["pause"])
def test_paused_answers_are_refused_with_423_and_taken_once_resumed(app, store, status_word):
    kim = joined(app, "김민지", "device-kim-0123456789")
    board = teacher(app)
    act(board, status_word)
    assert kim.get("/api/state").json()["lecture"]["paused"] is True
    refused = send(kim)
    assert refused.status_code == 423 and "paused" in refused.json()["error"]
    assert store.counts() == {}  # nothing saved
    assert projector(board)["paused"] is True
    act(board, "resume")
    taken = send(kim)  # the same answer, sent again by the page
    assert taken.status_code == 200 and taken.json()["verdict"] == "correct"


def test_hidden_results_leave_the_projector_only_how_many_answered(app):
    board = teacher(app)
    act(board, "focus", problem="cat-fish", row=ROW)
    send(joined(app, "김민지", "device-kim-0123456789"))
    act(board, "hide-results")
    view = projector(board)
    assert view["hidden"] is True and "rounds" not in view["focus"] and view["focus"]["answered"] == 1
    assert teacher(app).get("/teacher/api/map").json()["map"][f"cat-fish/{ROW}/scores"]["verdicts"] == {"correct": 1}  # the teacher still sees it
    act(board, "show-results")
    assert bars(projector(board), 1)["verdicts"]["correct"] == 1


def test_ask_again_keeps_round_one_and_shows_both_rounds_side_by_side(app, store):
    board = teacher(app)
    act(board, "focus", problem="cat-fish", row=ROW)
    kim, park = joined(app, "김민지", "device-kim-0123456789"), joined(app, "박서준", "device-park-012345678")
    send(kim, text="1, 6, 5")
    send(park, text="1, 6, 5", client_id="p-1")
    said = act(board, "ask-again")
    assert said["rounds"] == [{"problem": "cat-fish", "row": ROW, "round": 2, "fresh": False}]
    state = kim.get("/api/state").json()
    assert state["lecture"]["rounds_key"] and not [a for a in state["answers"] if a["row"] == ROW]  # the row is fresh for round 2
    assert send(kim, client_id="c-2").json()["verdict"] == "correct"
    assert send(park, client_id="p-2").json()["verdict"] == "correct"
    view = projector(board)
    assert view["focus"]["round"] == 2
    first, second = bars(view, 1), bars(view, 2)
    assert first["verdicts"]["correct"] == 0 and second["verdicts"]["correct"] == 2
    assert sum(first["diagnoses"].values()) + first["verdicts"]["partial"] + first["verdicts"]["wrong"] >= 2
    # the teacher's map and grade read the last answer, as before
    assert teacher(app).get("/teacher/api/map").json()["map"][f"cat-fish/{ROW}/scores"]["verdicts"] == {"correct": 2}
    assert [(r["item"], r["round"], len(r["answers"])) for r in store.round_report()] == [(f"cat-fish/{ROW}", 1, 2), (f"cat-fish/{ROW}", 2, 2)]
    state = kim.get("/api/state").json()
    assert [a["text"] for a in state["answers"] if a["row"] == ROW] == [right_row(CAT, ROW, "scores")]


def test_ask_again_on_a_fresh_variant_gives_everyone_its_numbers_and_marks_by_them(app, store):
    board = teacher(app)
    act(board, "focus", problem="cat-fish", row=ROW)
    kim = joined(app, "김민지", "device-kim-0123456789")
    send(kim)
    page_before = kim.get("/").text
    said = act(board, "ask-again", fresh_variant=True)
    assert said["rounds"][0]["fresh"] is True
    seed = store.session().round_of("cat-fish", ROW).variant
    varied = variant_set(CH13, seed).get("cat-fish")
    assert engine.solve(varied).heads[0].scores.tolist() != engine.solve(CAT).heads[0].scores.tolist()
    page = kim.get("/").text
    assert page != page_before
    assert re.search(r'<meta name="attn-rounds" content="[0-9a-f]{16}">', page)
    assert send(kim, text=right_row(varied, ROW, "scores"), client_id="c-2").json()["verdict"] == "correct"
    other = send(kim, row="고양이가", client_id="c-3", text=right_row(varied, "고양이가", "scores"))
    assert other.status_code == 409 and ROW in other.json()["error"]  # the class is on this row's new numbers
    view = projector(board)
    assert bars(view, 1)["verdicts"]["correct"] == 1 and bars(view, 2)["verdicts"]["correct"] == 1
    [first, second] = store.round_report()
    assert first["variant"] is None and second["variant"] == seed
    # the set's own numbers keep the last answer on them: what grade marks
    [(_name, answers)] = list(store.answer_files())
    assert answers["answers"]["cat-fish"][ROW]["scores"] == right_row(CAT, ROW, "scores")


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"action": "jump"}, 400),
        ({"action": "focus", "problem": "no-such", "row": ROW}, 404),
        ({"action": "focus", "problem": "cat-fish", "row": "nowhere"}, 404),
        ({"action": "focus", "concept": "no-such-item"}, 404),
        ({"action": "ask-again"}, 409),  # nothing in focus
        ({"action": "ask-again", "fresh_variant": "yes"}, 400),
    ],
)
def test_a_bad_lecture_control_gets_a_sentence_and_changes_nothing(app, store, body, status):
    before = store.session()
    board = teacher(app)
    reply = board.post("/teacher/api/lecture", json=body, headers=csrf(board))
    assert reply.status_code == status and reply.json()["error"]
    assert store.session() == before


def test_a_concept_item_has_no_fresh_variant(app):
    board = teacher(app)
    act(board, "focus", concept="why-scale")
    reply = board.post("/teacher/api/lecture", json={"action": "ask-again", "fresh_variant": True}, headers=csrf(board))
    assert reply.status_code == 400 and "variant" in reply.json()["error"]
    kim = joined(app, "김민지", "device-kim-0123456789")
    first = kim.post("/api/answer", json={"concept": "why-scale", "text": "A", "client_id": "k-1"}, headers=csrf(kim))
    assert first.status_code == 200
    assert act(board, "ask-again")["rounds"] == [{"problem": "#concepts", "row": "why-scale", "round": 2, "fresh": False}]
    assert not [a for a in kim.get("/api/state").json()["answers"] if a.get("concept") == "why-scale"]  # asked afresh
    again = kim.post("/api/answer", json={"concept": "why-scale", "text": "B", "client_id": "k-2"}, headers=csrf(kim))
    assert again.status_code == 200 and again.json()["text"] == "B"
    view = projector(board)
    assert view["focus"]["label"] == "concept item why-scale" and [r["round"] for r in view["focus"]["rounds"]] == [1, 2]
    assert [r["answers"] for r in view["focus"]["rounds"]] == [1, 1]


def test_the_score_labels_end_at_full_marks_and_korean_names_the_stages(store):
    board = teacher(make(store, lang="ko"))
    page = board.get("/teacher").text
    bins = board.get("/teacher/api/map").json()["distribution"]
    top = len(board.get("/teacher/api/map").json()["items"])
    low = bins[-1]["low"]
    assert bins[-1]["high"] == top and bins[-1]["label"] == f"{low}점 이상 {top}점 이하"  # the last range holds full marks
    assert bins[0]["label"] == f"0점 이상 {bins[0]['high']}점 미만"
    assert f"{top}–{top}" not in page and f"{low}점 이상 {top}점 이하: 0명" in page
    assert f'<th scope="row">cat-fish, {ROW} 행: 스코어</th>' in page and f"cat-fish/{ROW}/scores</th>" not in page
    with speaking("ko"):  # ten points, a range a point wide: full marks alone, never "10–10점"
        ten = distribution([10.0, 9.5, 0.0], 10, 10)
    assert [b["label"] for b in ten][-2:] == ["9점 이상 10점 미만", "10점 (만점)"] and [b["count"] for b in ten][-2:] == [1, 1]
    with speaking("en"):
        assert distribution([], 10, 10)[-1]["label"] == "10 points (full marks)"


def test_grade_json_carries_each_round(live_store_url, tmp_path):
    target = live_store_url
    with open_store(target, CH13, create=True) as opened:
        app = make(opened)
        board = teacher(app)
        act(board, "focus", problem="cat-fish", row=ROW)
        kim = joined(app, "김민지", "device-kim-0123456789")
        send(kim, text="1, 6, 5")
        act(board, "ask-again")
        send(kim, client_id="c-2")
    out = tmp_path / "grades.json"
    result = CliRunner().invoke(cli_app, ["grade", str(target), "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [student["student"] for student in report["students"]] == ["김민지"]
    [scores] = [item for item in report["item_analysis"] if (item.get("problem"), item.get("row"), item.get("stage")) == ("cat-fish", ROW, "scores")]
    assert scores["counts"].get("correct") == 1  # the last answer, marked as today
    rounds = [(r["item"], r["round"], [(a["student"], a["text"], a["verdict"]) for a in r["answers"]]) for r in report["rounds"]]
    assert rounds[0][:2] == (f"cat-fish/{ROW}", 1) and rounds[0][2][0][:2] == ("김민지", "1, 6, 5") and rounds[0][2][0][2] != "correct"
    assert rounds[1] == (f"cat-fish/{ROW}", 2, [("김민지", right_row(CAT, ROW, "scores"), "correct")])


def test_a_session_made_before_the_rounds_is_graded_as_before_and_gains_them_when_served(tmp_path):
    target = tmp_path / "old.sqlite"
    with open_store(target, CH13, create=True) as opened:
        send(joined(make(opened), "김민지", "device-kim-0123456789"))
    with sqlite3.connect(target) as made_before:  # a session written before peer instruction
        made_before.execute("DROP TABLE live_rounds")
        made_before.execute("DROP TABLE live_round_answers")
    with open_store(target, None, create=False, readonly=True) as read:
        assert read.session().rounds == () and read.round_report() == []
    out = tmp_path / "grades.json"
    result = CliRunner().invoke(cli_app, ["grade", str(target), "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "rounds" not in json.loads(out.read_text(encoding="utf-8"))  # nothing asked again: the report as it was
    with open_store(target, CH13, create=False) as served:  # served again: the tables are made, the answers kept
        board = teacher(make(served))
        act(board, "focus", problem="cat-fish", row=ROW)
        act(board, "ask-again")
        assert [r["round"] for r in served.round_report()] == [1]


def test_a_fresh_variants_round_ends_when_the_problem_is_asked_again_on_its_own_numbers(app, store):
    board = teacher(app)
    kim = joined(app, "김민지", "device-kim-0123456789")
    original = kim.get("/").text
    act(board, "focus", problem="cat-fish", row=ROW)
    act(board, "ask-again", fresh_variant=True)
    assert kim.get("/").text != original
    act(board, "focus", problem="cat-fish", row="고양이가")
    act(board, "ask-again")  # the other row, on the set's own numbers: the class is back on them
    assert store.session().variant_of("cat-fish") is None
    page = kim.get("/").text
    assert script_json(page)["variants"] == script_json(original)["variants"]  # the set's numbers again
    reply = send(kim, client_id="c-9")  # the row asked on new numbers before: marked by the set's own now
    assert reply.status_code == 200 and reply.json()["verdict"] == "correct"
    assert teacher(app).get("/teacher/api/map").json()["map"][f"cat-fish/{ROW}/scores"]["verdicts"] == {"correct": 1}


def test_in_an_exam_the_projector_shows_no_verdict_until_the_problem_closes(app):
    board = teacher(app)
    assert board.post("/teacher/api/mode", json={"mode": "exam"}, headers=csrf(board)).status_code == 200
    act(board, "focus", problem="cat-fish", row=ROW)
    send(joined(app, "김민지", "device-kim-0123456789"), text="1, 6, 5")
    view = projector(board)
    assert view["focus"]["hidden"] is True and "rounds" not in view["focus"] and view["focus"]["answered"] == 1
    assert board.post("/teacher/api/problem/cat-fish", json={"open": False}, headers=csrf(board)).status_code == 200
    assert sum(v["count"] for v in projector(board)["focus"]["rounds"][0]["verdicts"]) == 1  # closed: the bars
