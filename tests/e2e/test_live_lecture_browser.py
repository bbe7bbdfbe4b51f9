"""Peer instruction in a real browser (issue 36): `attn-tutor serve` on loopback, Debian's chromium.

A teacher's laptop, the projector at 1920×1080 and three students on 390 px phones, each a browser
context of its own: the teacher focuses the class on a row (the phones go there), the students
answer, the projector's bars count them; a pause marks every phone (``data-paused``, inputs locked,
the text typed still there) and the server refuses answers meanwhile; hidden results leave the
projector only how many answered; asking again on a fresh variant gives every phone new numbers,
and the projector shows round 1 and round 2 side by side. The projector and the teacher's controls
break no axe-core rule and work by keyboard; the projector is photographed at 1920×1080 and
1280×720 in English and Korean (``ATTN_TUTOR_SHOTS``: the folder to keep the PNGs in).
"""

from __future__ import annotations

import re

import pytest
from helpers import axe
from helpers.live_page import WAIT, answer, saved
from helpers.serve import Server
from helpers.watched import Watched

from attn_tutor.core.rounding import fmt_given
from attn_tutor.problems.load import load_problem_set
from attn_tutor.sessions.opening import open_store
from attn_tutor.solve import engine
from attn_tutor.variants.generate import variant_set

pytestmark = pytest.mark.browser

CH13 = load_problem_set("ch13")
ROW = "먹었다"
FOCUS_ROW = f'section[data-problem="cat-fish"] [data-row="{ROW}"]'


@pytest.fixture
def server(tmp_path, request):
    started = Server(str(tmp_path / "class.sqlite"), lang=getattr(request, "param", "en"))
    started.start()
    yield started
    started.stop()


def scores_of(problem) -> str:
    values = engine.solve(problem).heads[0].scores[problem.row_index(ROW)]
    return " ".join(fmt_given(v, problem.decimals) for v in values)


def join(person: Watched, server: Server, name: str):
    page = person.page
    page.goto(server.student_url)
    page.locator("[data-join-name]").fill(name)
    page.locator("[data-join]").click()
    page.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    return page


def open_teacher(person: Watched, server: Server):
    person.page.goto(server.teacher_url)
    person.page.locator("[data-map]").wait_for()
    return person.page


def open_projector(person: Watched, server: Server):
    person.page.goto(server.teacher_url.replace("/teacher?", "/teacher/projector?"))
    person.page.locator("[data-counts]").wait_for()
    return person.page


def reads(page, selector: str, text: str) -> None:
    page.wait_for_function("([s, text]) => document.querySelector(s)?.textContent === text", arg=[selector, text], timeout=WAIT)


def test_focus_pause_hide_and_ask_again_on_a_fresh_variant(server, people, shots):
    board = open_teacher(people(), server)
    wall = open_projector(people(1920, 1080), server)
    assert wall.locator('[data-qr="large"]').is_visible()  # large while students join
    wall.screenshot(path=str(shots / "projector-en-joining-1920x1080.png"))
    phones = [join(people(390, 844), server, name) for name in ("김민지", "Lee", "박서준")]
    board.locator(f'button[data-action="focus"][data-problem="cat-fish"][data-row="{ROW}"]').click()
    for phone in phones:  # each phone goes to the row (its next look at the session)
        phone.locator(f"{FOCUS_ROW}[data-focused]").wait_for(timeout=WAIT)
    for phone, text in zip(phones, [scores_of(CH13.get("cat-fish")), "1 6 5", "1 6 5"]):
        saved(answer(phone, "cat-fish", ROW, "scores", text))
    reads(wall, '[data-round="1"] [data-bar-verdict="correct"]', "1")
    reads(wall, '[data-progress-stage="scores"]', "3")
    assert wall.locator('[data-qr="small"]').count() == 1  # someone answered: the code steps aside
    assert "김민지" not in wall.inner_text("body") and "Lee" not in wall.inner_text("body")

    # pause: every phone locked, what it had typed kept
    typed = phones[1].locator(f'{FOCUS_ROW} input[data-stage="scores"]')
    before = typed.input_value()
    board.locator('button[data-action="pause"]').click()
    for phone in phones:
        phone.wait_for_function("() => document.body.dataset.paused === 'true'", timeout=WAIT)
        assert phone.locator("[data-paused-notice]").is_visible()
        assert phone.locator("#problems input:not([disabled])").count() == 0
    assert typed.input_value() == before and typed.is_disabled()
    wall.locator("[data-projector-paused]").wait_for(state="visible", timeout=WAIT)
    board.locator('button[data-action="resume"]').click()
    phones[1].wait_for_function("() => document.body.dataset.paused === 'false'", timeout=WAIT)
    assert typed.input_value() == before

    # hidden results: only how many answered
    board.locator('button[data-action="hide-results"]').click()
    wall.locator("[data-results-hidden]").wait_for(state="visible", timeout=WAIT)
    assert wall.locator("[data-bar-verdict]").count() == 0 and "3" in wall.locator("[data-focus-answered]").inner_text()
    board.locator('button[data-action="show-results"]').click()
    wall.locator("[data-bar-verdict]").first.wait_for(timeout=WAIT)

    # ask again, on a fresh variant for everyone: new numbers on every phone, round 2 beside round 1
    board.locator("button[data-action='ask-again'][data-fresh-variant]").click()
    for phone in phones:
        phone.wait_for_function("() => document.querySelector('meta[name=attn-rounds]').content !== ''", timeout=WAIT)
        phone.locator(f'{FOCUS_ROW} input[data-stage="scores"]').wait_for(timeout=WAIT)
    with open_store(server.db, None, create=False, readonly=True) as store:
        seed = store.session().round_of("cat-fish", ROW).variant
    varied = variant_set(CH13, seed).get("cat-fish")
    assert scores_of(varied) != scores_of(CH13.get("cat-fish"))
    for phone in phones:
        assert phone.locator(f'{FOCUS_ROW} input[data-stage="scores"]').input_value() == ""  # a fresh row
        assert "new numbers" in phone.locator(f'{FOCUS_ROW} [data-round-note="2"]').inner_text(timeout=WAIT)
        block = answer(phone, "cat-fish", ROW, "scores", scores_of(varied))
        assert block.get_attribute("data-verdict") == "correct"  # marked by the variant's numbers, on the phone
        saved(block)
    reads(wall, '[data-round="2"] [data-bar-verdict="correct"]', "3")
    assert wall.locator('[data-round="1"] [data-bar-verdict="correct"]').inner_text() == "1"
    assert re.search(r"\d+%", wall.locator('[data-round="2"]').inner_text())  # shares beside the counts
    wall.screenshot(path=str(shots / "projector-en-1920x1080.png"))
    wall.set_viewport_size({"width": 1280, "height": 720})
    wall.screenshot(path=str(shots / "projector-en-1280x720.png"))
    board.screenshot(path=str(shots / "teacher-lecture-en.png"), full_page=True)
    phones[2].screenshot(path=str(shots / "student-round2-390.png"))


@pytest.mark.axe
def test_the_projector_and_the_controls_break_no_rule_and_work_by_keyboard(server, people):
    board = open_teacher(people(), server)
    wall = open_projector(people(1920, 1080), server)
    phone = join(people(390, 844), server, "Yoon")
    assert axe.violations(wall) == []  # the code large, nothing in focus
    for _ in range(60):  # by keyboard: Tab to the row's focus button, Enter
        board.keyboard.press("Tab")
        if board.evaluate(f"document.activeElement.matches('button[data-action=focus][data-row=\"{ROW}\"][data-problem=cat-fish]')"):
            break
    else:
        raise AssertionError("Tab never reached the focus button")
    assert board.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    board.keyboard.press("Enter")
    board.wait_for_function(f"() => document.querySelector('button[data-action=focus][data-row=\"{ROW}\"][data-problem=cat-fish]').getAttribute('aria-pressed') === 'true'", timeout=WAIT)
    saved(answer(phone, "cat-fish", ROW, "scores", scores_of(CH13.get("cat-fish"))))
    saved(answer(phone, "cat-fish", ROW, "scaled", scores_of(CH13.get("cat-fish"))))  # forgot to divide by √d
    reads(wall, '[data-round="1"] [data-bar-diagnosis="not_scaled"]', "1")
    assert wall.locator('[data-round="1"] [data-bar-verdict="correct"]').inner_text() == "1"
    assert "50%" in wall.locator('[data-round="1"]').inner_text()  # one of the two answers
    assert axe.violations(wall) == []  # bars, mistakes, the code small
    board.locator('button[data-action="pause"]').focus()
    board.keyboard.press("Enter")
    phone.wait_for_function("() => document.body.dataset.paused === 'true'", timeout=WAIT)
    assert axe.violations(phone) == []  # the paused page and its notice
    assert axe.violations(board) == []
    wall.locator("[data-qr-toggle]").focus()
    wall.keyboard.press("Enter")
    assert wall.locator('[data-qr="large"]').count() == 1  # the teacher shows the code again, by keyboard
    assert axe.violations(wall) == []


@pytest.mark.parametrize("server", ["ko"], indirect=True)
def test_the_projector_speaks_korean_only(server, people, shots):
    board = open_teacher(people(), server)
    wall = open_projector(people(1920, 1080), server)
    phone = join(people(390, 844), server, "민지")
    board.locator(f'button[data-action="focus"][data-problem="cat-fish"][data-row="{ROW}"]').click()
    phone.locator(f"{FOCUS_ROW}[data-focused]").wait_for(timeout=WAIT)
    saved(answer(phone, "cat-fish", ROW, "scores", "1 6 5"))
    reads(wall, '[data-progress-stage="scores"]', "1")
    text = wall.inner_text("body")
    assert "스코어" in text and "scores" not in text and "round" not in text and "points" not in text
    assert "/scores" not in board.locator("[data-map]").inner_text()  # the map's rows named in Korean too
    wall.screenshot(path=str(shots / "projector-ko-1920x1080.png"))
    wall.set_viewport_size({"width": 1280, "height": 720})
    wall.screenshot(path=str(shots / "projector-ko-1280x720.png"))
