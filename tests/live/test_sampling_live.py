"""The live class with ``kind: sampling`` problems (issue 38), over HTTP on SQLite and PostgreSQL: every
stage of a ch14 problem answered as typed and marked by the server (verdict, the mistake named, points;
follow-through from the student's own earlier stage), the teacher's map and the projector naming the
new mistakes, exam mode hiding them, peer instruction and "another like this" on a sampling problem,
``grade SESSION`` giving the marks the live class gave, a set mixing attention and sampling problems,
and ``serve ch14`` starting and serving the students' page.
"""

from __future__ import annotations

import json
import subprocess
import sys

import httpx2
import pytest
import yaml
from helpers.live_app import ORIGIN, SECRET, STUDENT_URL, csrf, joined
from starlette.testclient import TestClient

from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.gradebook.grader import check_answer_file
from attn_tutor.kinds.sampling import engine as sampling_engine
from attn_tutor.live.app import make_app
from attn_tutor.problems.load import load_problem_set
from attn_tutor.sessions.opening import open_store
from attn_tutor.solve import engine
from attn_tutor.variants.generate import variant_set

CH13 = load_problem_set("ch13")
CH14 = load_problem_set("ch14")
MAT = CH14.get("cat-mat-en")  # T = 2, top-k 2, u = 0.7, target mat: scaled, exp, probabilities, kept, pick, loss
LOSS = CH14.get("cat-sentence-loss")  # a continuation: loss (a step each), perplexity


def right(problem, stage: str) -> str:
    """What a student who works ``stage`` correctly types: the numbers rounded as asked, a cut token
    as 0, the pick as its token."""
    values = sampling_engine.solve(problem).stage_values(stage)
    if stage == "pick":
        return values[0]
    return " ".join("0" if v is None else fmt(v, problem.decimals) for v in values)


def send(client, stage: str, text: str, *, problem: str = "cat-mat-en", client_id: str | None = None, **extra):
    body = {"problem": problem, "row": "", "stage": stage, "text": text, "client_id": client_id or f"{problem}-{stage}", **extra}
    return client.post("/api/answer", json=body, headers=csrf(client))


def teacher(app) -> TestClient:
    client = TestClient(app, base_url=ORIGIN)
    assert client.get(f"/teacher?key={SECRET}", follow_redirects=False).status_code == 303
    client.get("/teacher")  # its CSRF cookie
    return client


def act(board: TestClient, action: str, **body) -> dict:
    reply = board.post("/teacher/api/lecture", json={"action": action, **body}, headers=csrf(board))
    assert reply.status_code == 200, reply.text
    return reply.json()


@pytest.fixture
def store(live_store_url):
    with open_store(live_store_url, CH14, create=True) as opened:
        yield opened


@pytest.fixture
def app(store):
    return make_app(store, CH14, lang="en", secret=SECRET, student_url=STUDENT_URL)


# --- a student answers every stage ---------------------------------------------------------


def test_every_stage_of_a_sampling_problem_is_marked_by_the_server_with_its_mistake_named(app):
    kim = joined(app)
    for stage in MAT.asked_stages:
        reply = send(kim, stage, right(MAT, stage))
        assert reply.status_code == 200, reply.text
        assert reply.json() | {"client_id": None} == {
            "saved": True, "client_id": None, "problem": "cat-mat-en", "row": "", "stage": stage,
            "verdict": "correct", "diagnosis": None, "points": 1.0,
        }  # fmt: skip
    park = joined(app, "박서준", "device-park-012345678")
    wrong = {
        "scaled": ("4.8 3.2 1.6 -1.6", "temperature_multiplied"),  # z·T, not z/T
        "kept": ("0.431 0.289 0 0", "not_renormalized"),  # the top two kept as they were
        "pick": ("mat", "ignored_draw"),  # the most likely, not the one u = 0.7 falls on
        "loss": ("-0.842", "loss_sign"),
    }
    for stage, (text, code) in wrong.items():
        reply = send(park, stage, text).json()
        assert (reply["verdict"], reply["diagnosis"], reply["points"]) == ("wrong", code, 0.0), (stage, reply)
    # the student's page finds each answer again, as typed, with the server's mark
    answers = {a["stage"]: a for a in park.get("/api/state").json()["answers"]}
    assert {stage: (a["row"], a["text"], a["diagnosis"]) for stage, a in answers.items()} == {
        stage: ("", text, code) for stage, (text, code) in wrong.items()
    }


def test_a_later_stage_follows_through_from_the_students_own_earlier_one(app):
    kim = joined(app)
    assert send(kim, "scaled", "4.8 3.2 1.6 -1.6").json()["verdict"] == "wrong"
    own = sampling_engine.softmax((4.8, 3.2, 1.6, -1.6))  # the probabilities from that scaled row
    reply = send(kim, "probabilities", " ".join(fmt(p, 3) for p in own)).json()
    assert reply["verdict"] == "follow_through" and reply["points"] == 1.0


def test_an_unreadable_answer_gets_a_sentence_and_nothing_is_saved(app):
    kim = joined(app)
    reply = send(kim, "pick", "cat")
    assert reply.status_code == 422 and "cat" in reply.json()["error"] and "mat, sofa, roof, moon" in reply.json()["error"]
    reply = send(kim, "scaled", "1.2 0.8")
    assert reply.status_code == 422 and "4" in reply.json()["error"]
    assert send(kim, "kept", "1 2", problem="cat-mat-en", row="mat").status_code == 404  # a sampling problem has no rows
    assert kim.get("/api/state").json()["answers"] == []


def test_a_continuations_loss_and_perplexity(app):
    kim = joined(app)
    assert send(kim, "loss", right(LOSS, "loss"), problem="cat-sentence-loss").json()["verdict"] == "correct"
    reply = send(kim, "perplexity", "0.297", problem="cat-sentence-loss").json()  # the mean loss, not e to it
    assert reply["verdict"] == "wrong"
    assert send(kim, "perplexity", right(LOSS, "perplexity"), problem="cat-sentence-loss", client_id="p-2").json()["verdict"] == "correct"


# --- the teacher, the projector, exam mode --------------------------------------------------------


def test_the_map_names_the_sampling_mistakes_and_labels_an_item_without_a_row(app):
    for n, name in enumerate(("김민지", "박서준")):
        student = joined(app, name, f"device-{n}-0123456789abc")
        send(student, "scaled", "4.8 3.2 1.6 -1.6")
    send(joined(app, "최유진", "device-9-0123456789abc"), "scaled", right(MAT, "scaled"))
    board = teacher(app)
    snapshot = board.get("/teacher/api/map").json()
    assert "cat-mat-en//scaled" in snapshot["items"] and "cat-mat-en//pick" in snapshot["items"]
    assert snapshot["map"]["cat-mat-en//scaled"] == {"verdicts": {"wrong": 2, "correct": 1}, "diagnoses": {"temperature_multiplied": 2}}
    page = board.get("/teacher").text
    assert 'data-map-item="cat-mat-en//scaled"' in page
    assert 'data-map-diagnosis="temperature_multiplied"' in page and "data-map-diagnosis=\"top_k_tie\"" in page
    assert "problem cat-mat-en: kept and renormalised" in page  # the item named without an empty row
    assert "cat-mat-en, row" not in page
    assert '<span class="label">multiplied by T</span> <span data-map-diagnosis="temperature_multiplied">2</span>' in page


def test_the_projector_shows_a_sampling_problem_in_focus_with_its_stages_and_mistakes(app):
    board = teacher(app)
    act(board, "focus", problem="cat-mat-en", row="")
    kim = joined(app)
    send(kim, "scaled", "4.8 3.2 1.6 -1.6")
    send(kim, "kept", "0.431 0.289 0 0")
    assert kim.get("/api/state").json()["lecture"]["focus"] == {"problem": "cat-mat-en", "row": ""}
    view = board.get("/teacher/api/projector").json()["focus"]
    assert view["label"] == "problem cat-mat-en"
    assert [s["stage"] for s in view["stages"]] == list(MAT.asked_stages)
    assert {s["stage"]: s["checked"] for s in view["stages"]}["kept"] == 1
    [first] = view["rounds"]
    names = {d["code"]: d["name"] for d in first["diagnoses"]}
    assert set(names) == {"temperature_multiplied", "not_renormalized"} and all(name and name != code for code, name in names.items())


def test_in_an_exam_the_marks_are_hidden_until_the_problem_closes(app):
    board = teacher(app)
    assert board.post("/teacher/api/mode", json={"mode": "exam"}, headers=csrf(board)).status_code == 200
    kim = joined(app)
    reply = send(kim, "kept", "0.431 0.289 0 0").json()
    assert reply["saved"] and "verdict" not in reply and "diagnosis" not in reply
    page = kim.get("/").text
    for value in sampling_engine.solve(MAT).stage_values("kept"):  # no number a student is asked for is on the page
        if value is not None:
            assert fmt(value, 3) not in page and repr(value) not in page
    assert board.post("/teacher/api/problem/cat-mat-en", json={"open": False}, headers=csrf(board)).status_code == 200
    [answer] = kim.get("/api/state").json()["answers"]
    assert (answer["verdict"], answer["diagnosis"]) == ("wrong", "not_renormalized")


def test_ask_again_on_a_fresh_variant_marks_by_the_variants_numbers(app, store):
    board = teacher(app)
    act(board, "focus", problem="cat-mat-en", row="")
    kim = joined(app)
    send(kim, "scaled", "4.8 3.2 1.6 -1.6")
    said = act(board, "ask-again", fresh_variant=True)
    assert said["rounds"][0] | {"round": None} == {"problem": "cat-mat-en", "row": "", "round": None, "fresh": True}
    seed = store.session().round_of("cat-mat-en", "").variant
    varied = variant_set(CH14, seed).get("cat-mat-en")
    assert varied.logits != MAT.logits
    assert send(kim, "scaled", right(varied, "scaled"), client_id="r2").json()["verdict"] == "correct"
    [first, second] = store.round_report()
    assert (first["item"], second["item"], second["variant"]) == ("cat-mat-en", "cat-mat-en", seed)


def test_another_like_this_draws_a_sampling_variant_and_marks_answers_to_it(app, live_store_url, tmp_path):
    kim = joined(app)
    send(kim, "scaled", "4.8 3.2 1.6 -1.6")
    reply = kim.post("/api/another", json={"problem": "cat-mat-en"}, headers=csrf(kim))
    assert reply.status_code == 200, reply.text
    seed = reply.json()["variant"]
    varied = variant_set(CH14, seed).get("cat-mat-en")
    assert varied.logits != MAT.logits and reply.json()["data"]["id"] == "cat-mat-en"
    marked = send(kim, "pick", right(varied, "pick"), client_id="v-1", variant=seed).json()
    assert marked["verdict"] == "correct" and marked["variant"] == seed
    assert send(kim, "loss", "0.1", client_id="v-2", variant=seed).json()["verdict"] == "wrong"
    # grade --include-practice regenerates the variant from its seed and marks it as the server did
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app as cli_app

    out = tmp_path / "grades.json"
    result = CliRunner().invoke(cli_app, ["grade", live_store_url, "--include-practice", "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    [_own, practice] = json.loads(out.read_text(encoding="utf-8"))["students"]
    marks = {i["stage"]: i["verdict"] for i in practice["report"]["items"] if i.get("problem") == "cat-mat-en" and i["verdict"] != "missing"}
    assert marks == {"pick": "correct", "loss": "wrong"}


# --- grade SESSION -----------------------------------------------------------------------------


TYPED = [
    {"scaled": "4.8 3.2 1.6 -1.6", "probabilities": None, "kept": "0.431 0.289 0 0", "pick": "mat", "loss": "-0.842"},
    {"scaled": None, "exp": None, "probabilities": None, "kept": None, "pick": None, "loss": None},
    {"exp": "3.32 2.226 1.492 0.67", "probabilities": "0.5 0.3 0.1 0.1", "pick": "sofa", "loss": "0.366"},
]


def test_grade_of_the_session_gives_the_marks_the_live_class_gave(app, live_store_url, tmp_path):
    live: dict[tuple[str, str], tuple] = {}
    for n, texts in enumerate(TYPED):
        student = joined(app, f"학생{n}", f"device-{n}-0123456789abc")
        for stage, text in texts.items():
            typed = text if text is not None else right(MAT, stage)
            reply = send(student, stage, typed).json()
            live[f"학생{n}", stage] = (reply["verdict"], reply["diagnosis"], reply["points"])
    out = tmp_path / "grades.json"
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app as cli_app

    result = CliRunner().invoke(cli_app, ["grade", live_store_url, "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    graded = {
        (student["student"], item["stage"]): (item["verdict"], item.get("diagnosis"), item["points"])
        for student in report["students"]
        for item in student["report"]["items"]
        if item.get("problem") == "cat-mat-en" and item["verdict"] != "missing"
    }
    assert graded == live
    assert "rounds" not in report  # none asked again
    # and each student's answers, written as an answer file by hand, give the same
    path = tmp_path / "kim.yaml"
    first = {stage: text if text is not None else right(MAT, stage) for stage, text in TYPED[0].items()}
    path.write_text(yaml.safe_dump({"student": "학생0", "problem_set": "ch14", "answers": {"cat-mat-en": first}}, allow_unicode=True), encoding="utf-8")
    [result_file], _ = check_answer_file(str(path))
    by_file = {item.stage: (item.verdict, item.diagnosis, item.points) for item in result_file.report.items if item.problem == "cat-mat-en"}
    assert {stage: by_file[stage] for stage in first} == {stage: live["학생0", stage] for stage in first}


def test_grade_json_carries_each_round_of_a_sampling_problem(app, live_store_url, tmp_path):
    board = teacher(app)
    act(board, "focus", problem="cat-mat-en", row="")
    kim = joined(app)
    send(kim, "pick", "mat")
    act(board, "ask-again")
    send(kim, "pick", "sofa", client_id="r2")
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app as cli_app

    out = tmp_path / "grades.json"
    result = CliRunner().invoke(cli_app, ["grade", live_store_url, "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    rounds = [(r["item"], r["round"], [(a["stage"], a["text"], a["verdict"], a["diagnosis"]) for a in r["answers"]]) for r in report["rounds"]]
    assert rounds == [("cat-mat-en", 1, [("pick", "mat", "wrong", "ignored_draw")]), ("cat-mat-en", 2, [("pick", "sofa", "correct", None)])]
    [pick] = [i for i in report["students"][0]["report"]["items"] if i.get("problem") == "cat-mat-en" and i["stage"] == "pick"]
    assert pick["verdict"] == "correct"  # the last answer


# --- a set of both kinds ------------------------------------------------------------------------


def test_a_set_of_attention_and_sampling_problems_is_served_and_marked(tmp_path):
    text = (tmp_path / "mixed.yaml")
    problems = [p for p in yaml.safe_load(open_text("ch13"))["problems"][:1]] + yaml.safe_load(open_text("ch14"))["problems"][-1:]
    text.write_text(yaml.safe_dump({"title": "Mixed", "problems": problems}, allow_unicode=True), encoding="utf-8")
    mixed = load_problem_set(str(text))
    assert [p.kind for p in mixed.problems] == ["attention", "sampling"]
    with open_store(str(tmp_path / "mixed.sqlite"), mixed, create=True) as opened:
        app = make_app(opened, mixed, lang="en", secret=SECRET, student_url=STUDENT_URL)
        kim = joined(app)
        assert kim.get("/").status_code == 200
        attention = mixed.problems[0]
        token = attention.asked_rows[0]
        scores = engine.solve(attention).heads[0].scores[attention.row_index(token)]
        typed = " ".join(fmt_given(v, attention.decimals) for v in scores)
        reply = kim.post("/api/answer", json={"problem": attention.id, "row": token, "stage": "scores", "text": typed, "client_id": "a-1"},
                         headers=csrf(kim))  # fmt: skip
        assert reply.status_code == 200 and reply.json()["verdict"] == "correct", reply.text
        sampled = mixed.problems[1]
        assert send(kim, "scaled", right(sampled, "scaled"), problem=sampled.id).json()["verdict"] == "correct"
        items = teacher(app).get("/teacher/api/map").json()["items"]
        assert f"{sampled.id}//scaled" in items and any(key.startswith(f"{attention.id}/{token}/") for key in items)


def open_text(name: str) -> str:
    from helpers.paths import ROOT

    return (ROOT / "problems" / f"{name}.yaml").read_text(encoding="utf-8")


# --- serve ch14 ----------------------------------------------------------------------------------


def test_serve_ch14_starts_and_serves_the_students_page(tmp_path):
    import os

    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "ATTN_TUTOR_LANG": "en", "COLUMNS": "100"}
    process = subprocess.Popen(
        [sys.executable, "-m", "attn_tutor", "serve", "ch14", "--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "c.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env,
    )  # fmt: skip
    try:
        line = process.stdout.readline()
        assert line.startswith("student: "), process.stderr.read()
        student = line.removeprefix("student: ").strip()
        with httpx2.Client(base_url=student, timeout=10) as client:
            page = client.get("/")
            assert page.status_code == 200 and "<html" in page.text and "cat-mat-en" in page.text
            token = {"X-CSRF-Token": client.cookies["attn_csrf"]}
            assert client.post("/api/join", json={"name": "김민지"}, headers=token).status_code == 200
            reply = client.post("/api/answer", json={"problem": "cat-mat-en", "row": "", "stage": "pick", "text": "sofa", "client_id": "c-1"},
                                headers=token)  # fmt: skip
            assert reply.status_code == 200 and reply.json()["verdict"] == "correct"
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_in_korean_the_teacher_sees_the_item_and_the_mistake_in_korean(store):
    app = make_app(store, CH14, lang="ko", secret=SECRET, student_url=STUDENT_URL)
    send(joined(app), "scaled", "4.8 3.2 1.6 -1.6")
    board = teacher(app)
    page = board.get("/teacher").text
    assert "문제 cat-mat-en: " in page and "problem cat-mat-en" not in page
    assert '<span class="label">T를 곱함</span> <span data-map-diagnosis="temperature_multiplied">1</span>' in page
    act(board, "focus", problem="cat-mat-en", row="")
    assert board.get("/teacher/api/projector").json()["focus"]["label"] == "문제 cat-mat-en"


@pytest.mark.parametrize(
    ("problem_set", "carried"),
    [(CH13, False), (CH14, True)],
    ids=["attention set", "sampling set"],
)
def test_a_page_carries_the_sentences_of_the_kinds_its_set_holds(problem_set, carried):
    from attn_tutor.kinds.sampling.marking import owns_message
    from attn_tutor.live import pages
    from attn_tutor.practice.data import kinds_of

    student = pages.practice_data(problem_set, set_name="set", title="set")["messages"]
    teacher = pages.teacher_messages(kinds_of(problem_set))
    for messages in (student, teacher):
        assert any(owns_message(key) for key in messages) is carried
    assert ("grading.diagnosis_name.loss_sign" in teacher) is carried
    assert "grading.diagnosis_name.not_scaled" in teacher  # attention's, in every set
    assert ("live.item_problem" in student) is carried
