"""`attn-tutor serve ch14` in a real browser (Debian's chromium): the teacher focuses the class on a
sampling problem by keyboard, its name says no empty row, the map and the projector name the mistake a
student made (answered over HTTP: the students' page's own script is tested with the practice page),
and the teacher's page and the projector break no axe-core rule."""

from __future__ import annotations

import httpx2
import pytest
from helpers import axe
from helpers.live_page import WAIT
from helpers.serve import Server

from attn_tutor.core.rounding import fmt
from attn_tutor.kinds.sampling import engine as sampling_engine
from attn_tutor.problems.load import load_problem_set

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path):
    started = Server(str(tmp_path / "class.sqlite"), set_name="ch14")
    started.start()
    yield started
    started.stop()


def answer_over_http(server: Server, stage: str, text: str) -> dict:
    with httpx2.Client(base_url=server.student_url, timeout=10) as client:
        client.get("/")
        token = {"X-CSRF-Token": client.cookies["attn_csrf"]}
        assert client.post("/api/join", json={"name": "김민지"}, headers=token).status_code == 200
        reply = client.post("/api/answer", json={"problem": "cat-mat-en", "row": "", "stage": stage, "text": text, "client_id": "c-1"},
                            headers=token)  # fmt: skip
        assert reply.status_code == 200, reply.text
        return reply.json()


@pytest.mark.axe
def test_the_teacher_focuses_a_sampling_problem_by_keyboard_and_sees_its_mistake_named(server, people):
    assert answer_over_http(server, "scaled", "4.8 3.2 1.6 -1.6")["diagnosis"] == "temperature_multiplied"
    board = people().page
    board.goto(server.teacher_url)
    board.locator("[data-map]").wait_for()
    board.wait_for_function(
        "() => document.querySelector('[data-map-item=\"cat-mat-en//scaled\"] [data-map-diagnosis=\"temperature_multiplied\"]')?.textContent === '1'",
        timeout=WAIT,
    )
    button = board.locator('[data-action="focus"][data-problem="cat-mat-en"]')
    assert button.inner_text().strip() == "problem cat-mat-en"
    button.focus()
    board.keyboard.press("Enter")
    board.wait_for_function("() => document.querySelector('[data-lecture-state]').textContent.includes('problem cat-mat-en')", timeout=WAIT)
    assert ", row" not in board.locator("[data-lecture-state]").inner_text()
    assert axe.violations(board) == []
    wall = people(1920, 1080).page
    wall.goto(server.teacher_url.replace("/teacher?", "/teacher/projector?"))
    wall.locator("[data-counts]").wait_for()
    wall.wait_for_function("() => document.body.textContent.includes('multiplied by T')", timeout=WAIT)
    assert "problem cat-mat-en" in wall.locator("body").inner_text()
    assert axe.violations(wall) == []


def test_a_students_sampling_stages_and_a_typed_pick_come_back_after_a_reload(server, people):
    """On a phone: two stages checked (saved by the server), the token picked typed and never checked;
    after a reload the checked ones (each opens the next) are marked again from the server's copy and the pick is as typed,
    unchecked and unsent; and the pick field offers the problem's tokens."""
    phone = people(390).page
    phone.goto(server.student_url)
    phone.locator("[data-join-name]").fill("김민지")
    phone.locator("[data-join]").click()
    section = phone.locator('section[data-problem="cat-mat-en"]')
    section.wait_for(state="visible", timeout=WAIT)
    stage = 'section[data-problem="cat-mat-en"] [data-stage-block="{}"]'
    checked = ("scaled", "exp", "probabilities", "kept")  # each opens the next
    solution = sampling_engine.solve(load_problem_set("ch14").get("cat-mat-en"))
    for name in checked:
        field = phone.locator(stage.format(name) + " input[data-stage]")
        field.fill(" ".join("0" if v is None else fmt(v, 3) for v in solution.stage_values(name)))
        field.press("Enter")
        phone.locator(stage.format(name) + "[data-saved]").wait_for(state="attached", timeout=WAIT)
    pick = phone.locator(stage.format("pick") + " input[data-stage]")
    options = phone.locator(stage.format("pick") + " datalist option").evaluate_all("os => os.map(o => o.value)")
    assert options == ["mat", "sofa", "roof", "moon"]
    pick.fill("sofa")  # Enter never pressed
    phone.reload()
    section.wait_for(state="visible", timeout=WAIT)
    for name in checked:
        phone.locator(stage.format(name) + "[data-saved]").wait_for(state="attached", timeout=WAIT)
    phone.wait_for_function("s => document.querySelector(s)?.value === 'sofa'", arg=stage.format("pick") + " input[data-stage]", timeout=WAIT)
    assert phone.locator(stage.format("pick")).get_attribute("data-saved") is None  # not checked, not sent
    state = phone.evaluate("fetch('/api/state').then(r => r.json())")
    assert sorted(a["stage"] for a in state["answers"]) == sorted(checked)
