"""Concept items in the live class (issues 20 and 21), over HTTP on SQLite and PostgreSQL: a choice
sent with ``POST /api/answer {"concept", "text", "client_id"}`` is marked by the one concept marker
against the item as the page shows it, saved, acknowledged and counted on the teacher's map; in an
exam the page carries no answer, feedback or explanation of any concept item and the server says
nothing of the marks until the teacher closes the concept items.
"""

from __future__ import annotations

import re

import pytest
from helpers.live_app import CH13, ORIGIN, SECRET, csrf, joined
from helpers.page import script_json
from starlette.testclient import TestClient

from attn_tutor.live.app import make_app
from attn_tutor.marking.concepts import mark_concept
from attn_tutor.sessions.opening import open_store
from attn_tutor.solve.concepts import show

SHOWN = {c.id: show(c, CH13) for c in CH13.concepts}


def right(concept: str) -> str:
    return " ".join(SHOWN[concept].answer)


def wrong(concept: str) -> str:
    return next(label for label in SHOWN[concept].labels if label not in SHOWN[concept].answer)


@pytest.fixture
def app(live_store_url):
    with open_store(live_store_url, CH13, create=True) as store:
        yield make_app(store, CH13, lang="en", secret=SECRET, student_url="http://192.0.2.7:8000/")


def choose(client, concept, text, client_id="k-1"):
    return client.post("/api/answer", json={"concept": concept, "text": text, "client_id": client_id}, headers=csrf(client))


def teacher(app) -> TestClient:
    client = TestClient(app, base_url=ORIGIN)
    assert client.get(f"/teacher?key={SECRET}", follow_redirects=False).status_code == 303
    client.get("/teacher")
    return client


def control(client, body, problem="%23concepts"):
    client.get("/teacher/api/map")
    return client.post(f"/teacher/api/problem/{problem}", json=body, headers=csrf(client))


# --- right, wrong, as the one marker marks them -------------------------------------------


@pytest.mark.parametrize(
    "concept, text",
    [
        ("why-scale", right("why-scale")),
        ("why-scale", right("why-scale").lower()),
        ("why-scale", f"({right('why-scale')})"),
        ("qkv-library", str(SHOWN["qkv-library"].labels.index(right("qkv-library")) + 1)),  # its number
        ("eat-attends", right("eat-attends")),  # computed from the problem's numbers
        ("steps", right("steps")),
        ("steps", right("steps").replace(" ", "")),
        ("steps", ", ".join(right("steps").split())),
    ],
)
def test_a_right_choice_is_saved_marked_right_and_found_again(app, concept, text):
    kim = joined(app)
    reply = choose(kim, concept, text)
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["saved"] is True and body["concept"] == concept and body["client_id"] == "k-1"
    assert (body["verdict"], body["points"]) == ("correct", 1.0)
    assert body["answer"] == list(SHOWN[concept].answer) and body["explanation"] == SHOWN[concept].explanation
    [saved] = [a for a in kim.get("/api/state").json()["answers"] if a.get("concept") == concept]
    assert (saved["text"], saved["verdict"]) == (text, "correct")


@pytest.mark.parametrize("concept", ["why-scale", "qkv-mixed", "meet-attends", "widget-uniform", "why-positional"])
def test_a_wrong_choice_is_marked_wrong_with_the_misconception_it_reveals(app, concept):
    kim = joined(app)
    label = wrong(concept)
    body = choose(kim, concept, label).json()
    assert (body["verdict"], body["points"], body["chosen"]) == ("wrong", 0.0, [label])
    assert body["feedback"] == SHOWN[concept].feedback[label] == mark_concept(SHOWN[concept], label).feedback
    assert body["feedback"]  # every wrong option has its sentence


def test_a_wrong_order_is_wrong_and_a_resend_gives_the_first_answer_back(app):
    kim = joined(app)
    backwards = " ".join(reversed(right("steps").split()))
    first = choose(kim, "steps", backwards, "same-id").json()
    assert first["verdict"] == "wrong"
    again = choose(kim, "steps", backwards, "same-id").json()
    assert again == first
    board = teacher(app).get("/teacher/api/map").json()
    assert board["map"]["concepts/steps"]["verdicts"] == {"wrong": 1}


# --- refused: unreadable, unknown, closed --------------------------------------------------


@pytest.mark.parametrize(
    "concept, text, said",
    [
        ("why-scale", "Z", "A"),  # names no option: says which there are
        ("why-scale", "A, B", "one"),  # two where one is asked
        ("why-scale", "   ", "blank"),
        ("why-scale", "7", "A"),
        ("steps", "A B", "all 4 labels"),  # an order needs every step
    ],
)
def test_an_unreadable_choice_is_refused_with_a_sentence_and_nothing_is_saved(app, concept, text, said):
    kim = joined(app)
    reply = choose(kim, concept, text)
    assert reply.status_code == 422
    assert said.lower() in reply.json()["error"].lower()
    assert kim.get("/api/state").json()["answers"] == []
    assert teacher(app).get("/teacher/api/map").json()["map"] == {}


@pytest.mark.parametrize("concept", ["no-such-item", 7, None, ["why-scale"]])
def test_an_unknown_concept_item_is_a_404_naming_the_sessions_items(app, concept):
    kim = joined(app)
    reply = choose(kim, concept, "A")
    assert reply.status_code == 404
    assert "why-scale" in reply.json()["error"] and "steps" in reply.json()["error"]


def test_a_choice_without_joining_or_without_its_fields_is_refused(app):
    client = TestClient(app, base_url=ORIGIN)
    client.get("/")
    assert choose(client, "why-scale", "A").status_code == 401
    kim = joined(app)
    assert kim.post("/api/answer", json={"concept": "why-scale", "client_id": "x"}, headers=csrf(kim)).status_code == 400
    assert kim.post("/api/answer", json={"concept": "why-scale", "text": 1, "client_id": "x"}, headers=csrf(kim)).status_code == 400
    assert kim.post("/api/answer", json={"concept": "why-scale", "text": "A"}, headers=csrf(kim)).status_code == 400


# --- the teacher's map ----------------------------------------------------------------------


def test_the_map_counts_each_label_chosen_and_right_and_wrong(app):
    label = wrong("why-scale")
    for n, text in enumerate([right("why-scale"), label, label, right("why-scale").lower()]):
        assert choose(joined(app, f"student {n}", f"device-{n:04}-abcdefgh"), "why-scale", text).status_code == 200
    choose(joined(app, "order", "device-9999-abcdefgh"), "steps", right("steps"))
    board = teacher(app)
    data = board.get("/teacher/api/map").json()
    assert data["map"]["concepts/why-scale"]["verdicts"] == {"correct": 2, "wrong": 2}
    assert data["map"]["concepts/why-scale"]["options"] == {right("why-scale"): 2, label: 2}
    assert data["map"]["concepts/steps"]["verdicts"] == {"correct": 1}
    assert "concepts/why-scale" in data["items"] and data["max"] == len(data["items"])
    html = board.get("/teacher").text
    row = re.search(r'<tr data-map-item="concepts/why-scale".*?</tr>', html, re.S).group(0)
    assert f'<span data-map-option="{label}">2</span>' in row and '<td data-map-verdict="correct">2</td>' in row
    assert all(f'data-map-option="{x}"' in row for x in SHOWN["why-scale"].labels)
    assert "data-map-option" not in re.search(r'<tr data-map-item="concepts/steps".*?</tr>', html, re.S).group(0)
    assert 'data-problem-control="#concepts"' in html


# --- exam: nothing to read until the teacher closes them ------------------------------------


def secrets_of_the_answers() -> list[str]:
    """The start of each explanation and wrong option's feedback: text only the answer holds."""
    return [text[:20] for shown in SHOWN.values() for text in [shown.explanation, *shown.feedback.values()] if text]


def test_an_exam_page_carries_no_answer_feedback_or_explanation_of_a_concept_item(app):
    practice = TestClient(app, base_url=ORIGIN).get("/").text  # (the page in practice does carry them)
    assert all(text in practice for text in secrets_of_the_answers())
    board = teacher(app)
    board.get("/teacher/api/map")
    assert board.post("/teacher/api/mode", json={"mode": "exam"}, headers=csrf(board)).status_code == 200
    html = TestClient(app, base_url=ORIGIN).get("/").text
    data = script_json(html)
    assert [c["id"] for c in data["concepts"]] == list(SHOWN)
    for base, own in zip(data["concepts"], data["variants"][0]["concepts"]):
        assert set(base["feedback"]) == {None} and base["explanation"] is None
        assert set(own) & {"answer", "scores", "feedback", "explanation"} == set()
        assert [base["options"][i] for i in own["order"]] == list(SHOWN[base["id"]].options)
    assert [text for text in secrets_of_the_answers() if text in html] == []


def test_in_an_exam_a_choice_is_kept_unmarked_until_the_concept_items_close(app):
    board = teacher(app)
    board.get("/teacher/api/map")
    board.post("/teacher/api/mode", json={"mode": "exam"}, headers=csrf(board))
    kim = joined(app)
    reply = choose(kim, "why-scale", wrong("why-scale")).json()
    assert reply == {"saved": True, "concept": "why-scale", "text": wrong("why-scale"), "client_id": "k-1"}
    [kept] = kim.get("/api/state").json()["answers"]
    assert set(kept) == {"saved", "concept", "text", "client_id"}
    assert kim.get("/api/state").json()["concepts"] == {"open": True}
    assert control(board, {"open": False}).json() == {"problem": "#concepts", "open": False, "revealed": False}
    state = kim.get("/api/state").json()
    assert state["concepts"] == {"open": False} and "#concepts" not in state["problems"]
    [marked] = state["answers"]
    assert (marked["verdict"], marked["answer"], marked["feedback"]) == (
        "wrong",
        list(SHOWN["why-scale"].answer),
        SHOWN["why-scale"].feedback[wrong("why-scale")],
    )
    closed = choose(kim, "steps", right("steps"), "k-2")
    assert closed.status_code == 409 and "closed" in closed.json()["error"]
    assert control(board, {"open": True}).status_code == 200
    assert choose(kim, "steps", right("steps"), "k-2").status_code == 200
    assert control(board, {"revealed": True}).status_code == 400  # they open and close; nothing to reveal


def test_the_concept_items_control_is_the_teachers_only(app):
    kim = joined(app)
    reply = kim.post("/teacher/api/problem/%23concepts", json={"open": False}, headers=csrf(kim))
    assert reply.status_code == 403
    assert choose(kim, "why-scale", "A").status_code == 200
