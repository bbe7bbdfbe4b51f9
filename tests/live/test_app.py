"""The live app over HTTP (Starlette's TestClient), on SQLite and PostgreSQL: what a student and a
teacher would notice, and every security point of issue 20 with a hostile request each.

Each hostile request gets a 4xx with a sentence, and the session is unharmed after it: the
student's answers and the class's map are as they were, and a good answer still saves.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers.live_app import CH13, ORIGIN, SECRET, client_for, csrf, joined
from helpers.page import script_json
from starlette.testclient import TestClient

from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.gradebook.grader import check_answer_file
from attn_tutor.live.app import make_app
from attn_tutor.marking.answers import parse_row
from attn_tutor.solve import engine

CAT = CH13.get("cat-fish")


def right_row(problem, token: str, stage: str) -> str:
    """The row a student who works correctly types, rounded as asked."""
    solution = engine.solve(problem)
    row = problem.row_index(token)
    head = solution.heads[0]
    if stage == "output":
        return ", ".join(fmt(v, problem.decimals) for v in solution.output[row])
    values = getattr(head, stage)[row]
    number = fmt_given if stage == "scores" else fmt
    return ", ".join(number(v, problem.decimals) for v in values)


def send(client, problem="cat-fish", row="먹었다", stage="scores", text=None, client_id="c-1", **extra):
    body = {"problem": problem, "row": row, "stage": stage, "text": text if text is not None else right_row(CAT, row, stage), "client_id": client_id}
    return client.post("/api/answer", json={**body, **extra}, headers=csrf(client))


def teacher(app) -> TestClient:
    client = TestClient(app, base_url=ORIGIN)
    reply = client.get(f"/teacher?key={SECRET}", follow_redirects=False)
    assert reply.status_code == 303 and reply.headers["location"] == "/teacher"
    client.get("/teacher")
    return client


def snapshot(app) -> dict:
    reply = teacher(app).get("/teacher/api/map")
    assert reply.status_code == 200, reply.text
    return reply.json()


# --- the round trip ----------------------------------------------------------------------


def test_a_student_joins_answers_and_finds_the_answer_again_with_the_servers_mark(app):
    kim = joined(app)
    reply = send(kim, text=right_row(CAT, "먹었다", "scores"))
    assert reply.status_code == 200
    assert reply.json()["saved"] is True and reply.json()["verdict"] == "correct"
    state = kim.get("/api/state").json()
    assert state["joined"] and state["name"] == "김민지" and state["mode"] == "practice"
    [answer] = state["answers"]
    assert (answer["problem"], answer["row"], answer["stage"], answer["verdict"]) == ("cat-fish", "먹었다", "scores", "correct")
    assert answer["text"] == right_row(CAT, "먹었다", "scores")


def test_the_same_device_rejoins_as_the_same_student_with_their_answers(app):
    first = joined(app, device="phone-0001-abcdef")
    send(first)
    again = joined(app, name="someone else", device="phone-0001-abcdef")
    state = again.get("/api/state").json()
    assert state["name"] == "김민지" and len(state["answers"]) == 1


@pytest.mark.parametrize(
    "texts",
    [
        {"scores": None, "scaled": None, "weights": None, "output": None},  # all right
        {"scores": None, "scaled": "1, 6, 4", "weights": None},  # not scaled, then right from the exact row
        {"scores": "1, 6, 5", "scaled": "0.707, 4.243, 3.536"},  # a slip carried through
        {"scores": "6, 1, 4", "scaled": "0.5, 3, 2", "output": "1, 2"},
    ],
)
def test_the_servers_mark_is_the_one_grade_gives_the_same_answers(app, texts, tmp_path):
    """The server marks each stage as it comes; grade marks the answer file of the same last texts: equal."""
    kim = joined(app)
    marks = {}
    for n, (stage, text) in enumerate(texts.items()):
        typed = text if text is not None else right_row(CAT, "먹었다", stage)
        texts[stage] = typed
        reply = send(kim, stage=stage, text=typed, client_id=f"c-{n}")
        assert reply.status_code == 200, reply.text
        marks[stage] = (reply.json()["verdict"], reply.json()["diagnosis"])
    answers = {stage: parse_row(text) for stage, text in texts.items()}
    path = tmp_path / "kim.yaml"
    path.write_text(json.dumps({"student": "김민지", "problem_set": "ch13", "answers": {"cat-fish": {"먹었다": answers}}}), encoding="utf-8")
    [result], _ = check_answer_file(str(path))
    graded = {item.stage: (item.verdict, item.diagnosis) for item in result.report.items if item.problem == "cat-fish" and item.row == "먹었다"}
    # the last stage the server marked saw every earlier one: it is what grade gives
    last = list(texts)[-1]
    assert marks[last] == graded[last]
    assert marks["scores"] == graded["scores"]


# --- exam mode ---------------------------------------------------------------------------


def test_in_an_exam_verdicts_are_hidden_until_the_problem_is_closed_then_shown(app):
    boss = teacher(app)
    assert boss.post("/teacher/api/mode", json={"mode": "exam"}, headers=csrf(boss)).json() == {"mode": "exam"}
    kim = joined(app)
    reply = send(kim, text="1, 6, 5").json()
    assert reply["saved"] and "verdict" not in reply and "diagnosis" not in reply
    assert all("verdict" not in a for a in kim.get("/api/state").json()["answers"])
    page = kim.get("/").text
    assert 'name="attn-mode" content="exam"' in page
    assert boss.post("/teacher/api/problem/cat-fish", json={"open": False}, headers=csrf(boss)).json()["open"] is False
    [answer] = kim.get("/api/state").json()["answers"]
    assert answer["verdict"] == "partial"


def test_an_exam_page_carries_none_of_the_answers(app, store):
    kim = joined(app)
    practice = kim.get("/").text
    store.set_mode("exam")
    exam = kim.get("/").text
    data = script_json(exam)
    problem = data["variants"][0]["problems"][0]
    assert "weights" not in problem["heads"][0] and "scores" not in problem["heads"][0] and "output" not in problem
    exact = right_row(CAT, "먹었다", "weights").split(", ")[0]
    weights = script_json(practice)
    assert "weights" in weights["variants"][0]["problems"][0]["heads"][0]
    assert exact not in json.dumps(problem["heads"])


def test_a_closed_problem_takes_no_answer_and_a_revealed_one_shows_its_solution(app):
    boss = teacher(app)
    kim = joined(app)
    boss.post("/teacher/api/problem/cat-fish", json={"open": False, "revealed": True}, headers=csrf(boss))
    reply = send(kim)
    assert reply.status_code == 409 and "cat-fish" in reply.json()["error"]
    assert kim.get("/api/state").json()["answers"] == []
    solution = kim.get("/api/state").json()["problems"]["cat-fish"]["solution_html"]
    assert "먹었다" in solution and "<script" not in solution


# --- the teacher ------------------------------------------------------------------------


def test_the_map_counts_each_verdict_and_diagnosis_over_the_latest_answers(app):
    for n in range(3):
        student = joined(app, name=f"s{n}", device=f"device-{n:04d}-abcdefgh")
        send(student, stage="scores")
        send(student, stage="scaled", text="1, 6, 4" if n else right_row(CAT, "먹었다", "scaled"), client_id="c-2")
    shot = snapshot(app)
    assert (shot["joined"], shot["answered"]) == (3, 3)
    scaled = shot["map"]["cat-fish/먹었다/scaled"]
    assert scaled["verdicts"] == {"correct": 1, "wrong": 2}
    assert scaled["diagnoses"] == {"not_scaled": 2}
    page = teacher(app).get("/teacher").text
    row = re.search(r'<tr data-map-item="cat-fish/먹었다/scaled">.*?</tr>', page).group(0)
    assert '<span data-map-diagnosis="not_scaled">2</span>' in row
    assert '<td data-map-verdict="correct">1</td>' in row
    assert sum(b["count"] for b in shot["distribution"]) == 3


def test_names_are_escaped_on_the_teachers_page_and_shown_to_no_student(app):
    name = '<img src=x onerror="alert(1)">&'
    mallory = joined(app, name=name, device="device-mallory-0001")
    send(mallory)
    kim = joined(app, device="device-kim-000001")
    for text in (kim.get("/").text, kim.get("/api/state").text):
        assert "onerror" not in text and "김민지" not in kim.get("/").text
    page = teacher(app).get("/teacher").text
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in page and "<img src=x" not in page


def test_the_pages_run_no_script_but_the_servers_own_files(app):
    kim = joined(app, name="</script><script>alert(1)</script>")
    pages = [kim.get("/"), teacher(app).get("/teacher")]
    for page in pages:
        policy = page.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe" not in policy and "frame-ancestors 'none'" in policy
        for tag in re.findall(r"<script[^>]*>", page.text):
            assert tag.startswith('<script src="/assets/') or 'type="application/json"' in tag, tag
        assert "<script>alert(1)" not in page.text
    assert kim.get("/assets/live.js").headers["content-type"].startswith("text/javascript")
    assert kim.get("/assets/../app.py").status_code == 404


def test_the_qr_code_is_the_student_link(app):
    reply = teacher(app).get("/teacher/qr.svg")
    assert reply.status_code == 200 and reply.headers["content-type"] == "image/svg+xml"
    assert reply.text.startswith("<svg")


# --- security ------------------------------------------------------------------------------


TEACHER_ROUTES = [
    ("GET", "/teacher", None),
    ("GET", "/teacher/api/map", None),
    ("GET", "/teacher/events", None),
    ("GET", "/teacher/qr.svg", None),
    ("POST", "/teacher/api/problem/cat-fish", {"open": False}),
    ("POST", "/teacher/api/mode", {"mode": "exam"}),
]


@pytest.mark.parametrize("cookie", [None, "", "wrong", SECRET + "x", SECRET[:-1], "%ED%82%A4" * 5, "a b\"c"])
@pytest.mark.parametrize("method,path,body", TEACHER_ROUTES)
def test_every_teacher_page_and_action_needs_the_secret(app, store, method, path, body, cookie):
    kim = joined(app)
    if cookie is not None:
        kim.cookies.set("attn_teacher", cookie, path="/teacher")
    reply = kim.request(method, path, json=body, headers=csrf(kim))
    assert reply.status_code == 403
    assert "teacher" in reply.text
    assert store.session().mode == "practice" and store.session().problems["cat-fish"].open


@pytest.mark.parametrize("key", ["wrong", "", SECRET.upper(), SECRET + "%00", "키"])
def test_a_wrong_teacher_key_is_refused_and_sets_no_cookie(app, key):
    client = TestClient(app, base_url=ORIGIN)
    reply = client.get("/teacher", params={"key": key}, follow_redirects=False)
    assert reply.status_code == 403 and "attn_teacher" not in reply.headers.get("set-cookie", "")


def test_cookies_are_httponly_and_samesite(app):
    client = TestClient(app, base_url=ORIGIN)
    page = client.get("/")
    assert re.search(r"attn_csrf=[^;]+;.*HttpOnly.*SameSite=strict", page.headers["set-cookie"], re.I)
    joined_reply = client.post("/api/join", json={"name": "kim"}, headers=csrf(client))
    assert re.search(r"attn_student=[^;]+;.*HttpOnly.*SameSite=lax", joined_reply.headers["set-cookie"], re.I)
    boss = client.get(f"/teacher?key={SECRET}", follow_redirects=False)
    assert re.search(r"attn_teacher=[^;]+;.*HttpOnly.*Path=/teacher.*SameSite=strict", boss.headers["set-cookie"], re.I)


HOSTILE = {
    "no CSRF header": (dict(headers={}), 403),
    "a wrong CSRF header": (dict(headers={"X-CSRF-Token": "x" * 43}), 403),
    "another site's Origin": (dict(origin="http://evil.example"), 403),
    "a cross-site fetch": (dict(extra_headers={"Sec-Fetch-Site": "cross-site"}), 403),
    "a form post": (dict(raw=b"problem=cat-fish", content_type="application/x-www-form-urlencoded"), 415),
    "text/plain": (dict(raw=b"{}", content_type="text/plain"), 415),
    "not JSON": (dict(raw=b"{problem:", content_type="application/json"), 400),
    "a JSON list": (dict(raw=b"[1, 2]", content_type="application/json"), 400),
    "deep nesting": (dict(raw=b"[" * 5000 + b"]" * 5000, content_type="application/json"), 400),
    "a huge body": (dict(raw=b'{"text": "' + b"1" * 20000 + b'"}', content_type="application/json"), 413),
    "an answer over the parser's limit": (dict(body={"text": "1, " * 400}), 413),
    "an unknown problem": (dict(body={"problem": "no-such"}), 404),
    "an unknown row": (dict(body={"row": "nobody"}), 404),
    "a row index out of range": (dict(body={"row": 99}), 404),
    "an unknown stage": (dict(body={"stage": "softmax"}), 404),
    "a stage of another kind": (dict(body={"stage": ["scores"]}), 404),
    "no text": (dict(body={"text": None}), 400),
    "a lone surrogate": (dict(raw=json.dumps({"problem": "cat-fish", "row": "먹었다", "stage": "scores", "text": "\ud800", "client_id": "x"}).encode(), content_type="application/json"), 400),
    "no client id": (dict(body={"client_id": ""}), 400),
    "a client id too long": (dict(body={"client_id": "c" * 101}), 400),
    "an answer that cannot be read": (dict(body={"text": "1, 2, (3"}), 422),
    "too few numbers": (dict(body={"text": "1, 2"}), 422),
    "someone else's student id": (dict(body={"student_id": 1, "student": "other"}), 200),
}


def hostile(client, *, headers=None, origin=None, extra_headers=None, raw=None, content_type=None, body=None):
    sent = {"X-CSRF-Token": client.cookies.get("attn_csrf")} if headers is None else headers
    if origin is not None:
        sent = {**sent, "Origin": origin}
    sent = {**sent, **(extra_headers or {})}
    if raw is not None:
        return client.post("/api/answer", content=raw, headers={**sent, "Content-Type": content_type})
    payload = {"problem": "cat-fish", "row": "먹었다", "stage": "scores", "text": "1, 6, 5", "client_id": "hostile-1", **(body or {})}
    return client.post("/api/answer", json=payload, headers=sent)


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_answer_gets_a_sentence_and_leaves_the_session_unharmed(app, case):
    kim = joined(app)
    other = joined(app, name="박서준", device="device-other-0001")
    assert send(other, stage="scores", client_id="o-1").status_code == 200
    before_map = snapshot(app)["map"]
    kwargs, status = HOSTILE[case]
    reply = hostile(kim, **kwargs)
    assert reply.status_code == status, reply.text
    if status != 200:
        assert isinstance(reply.json()["error"], str) and len(reply.json()["error"]) > 10
        assert kim.get("/api/state").json()["answers"] == []
        assert snapshot(app)["map"] == before_map
    # the other student's answer is theirs alone, untouched; a good answer still saves
    assert [a["text"] for a in other.get("/api/state").json()["answers"]] == [right_row(CAT, "먹었다", "scores")]
    assert send(kim, stage="scores", client_id="good-1").json()["verdict"] == "correct"


def test_a_student_never_reads_another_students_answers(app):
    kim = joined(app)
    send(kim, text="1, 6, 5")
    park = joined(app, name="박서준", device="device-park-00001")
    state = park.get("/api/state").json()
    assert state["answers"] == [] and "1, 6, 5" not in json.dumps(state)
    assert park.get("/teacher/api/map").status_code == 403


def test_an_answer_without_joining_is_refused(app):
    client = client_for(app)
    reply = send(client)
    assert reply.status_code == 401 and "Join" in reply.json()["error"]


@pytest.mark.parametrize(
    "name,status",
    [("", 400), ("   ", 400), ("kim\u202e", 400), ("kim\x00", 400), ("k" * 81, 400), (12, 400), ("김" * 80, 200)],
)
def test_a_name_is_checked(app, name, status):
    client = client_for(app)
    reply = client.post("/api/join", json={"name": name}, headers=csrf(client))
    assert reply.status_code == status
    if status != 200:
        assert reply.json()["error"]


def test_each_student_is_rate_limited_with_a_sentence_and_others_are_not(store):
    app = make_app(store, CH13, lang="en", secret=SECRET, rate=(3, 0.0))
    kim = joined(app)
    replies = [send(kim, client_id=f"c-{n}").status_code for n in range(5)]
    assert replies == [200, 200, 200, 429, 429]
    reply = send(kim, client_id="c-9")
    assert "wait" in reply.json()["error"]
    park = joined(app, name="박서준", device="device-park-00001")
    assert send(park).status_code == 200
    assert len(store.attempts(kim_id(store, "김민지"))) == 3


def kim_id(store, name):
    return next(student.id for student, _, _ in store.roster() if student.name == name)


def test_a_resent_answer_is_acknowledged_once_with_its_first_mark(app, store):
    kim = joined(app)
    first = send(kim, text="1, 6, 5", client_id="same").json()
    again = send(kim, text="1, 6, 4", client_id="same").json()
    assert first == again
    assert len(store.attempts(kim_id(store, "김민지"))) == 1


@pytest.mark.parametrize(
    "method,path,status",
    [("GET", "/nowhere", 404), ("POST", "/", 405), ("GET", "/api/answer", 405), ("DELETE", "/api/state", 405), ("GET", "/assets/x.js", 404)],
)
def test_an_unknown_page_or_method_gets_a_sentence(app, method, path, status):
    reply = client_for(app).request(method, path)
    assert reply.status_code == status and reply.json()["error"]


@pytest.mark.parametrize(
    "path,body,status",
    [
        ("/teacher/api/mode", {"mode": "quiz"}, 400),
        ("/teacher/api/mode", {}, 400),
        ("/teacher/api/problem/no-such", {"open": True}, 404),
        ("/teacher/api/problem/cat-fish", {"open": "yes"}, 400),
        ("/teacher/api/problem/cat-fish", {}, 400),
    ],
)
def test_a_bad_teacher_control_gets_a_sentence_and_changes_nothing(app, store, path, body, status):
    boss = teacher(app)
    reply = boss.post(path, json=body, headers=csrf(boss))
    assert reply.status_code == status and reply.json()["error"]
    assert store.session().mode == "practice" and all(s.open for s in store.session().problems.values())


def test_a_teacher_control_needs_the_csrf_token_too(app, store):
    boss = teacher(app)
    assert boss.post("/teacher/api/mode", json={"mode": "exam"}).status_code == 403
    assert boss.post("/teacher/api/mode", json={"mode": "exam"}, headers={**csrf(boss), "Origin": "http://evil.example"}).status_code == 403
    assert store.session().mode == "practice"


def test_korean_sentences_with_lang_ko(store):
    app = make_app(store, CH13, lang="ko", secret=SECRET)
    client = client_for(app)
    reply = send(client)
    assert reply.status_code == 401 and "참여" in reply.json()["error"]
    assert '<html lang="ko">' in client.get("/").text


def test_a_plain_serves_teacher_page_has_no_link_to_lti_grades(app):
    """Only an LTI activity's teacher's page links to the grades sent to the course (tests/live/test_lti.py)."""
    page = teacher(app).get("/teacher").text
    assert "data-lti-grades-link" not in page and "/teacher/lti" not in page and "Grades sent to the course" not in page
