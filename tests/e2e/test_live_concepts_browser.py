"""Concept items in a live class, in Debian's chromium (playwright) against `attn-tutor serve` on
loopback: a student's choice is marked on the phone at once, saved by the server
(``data-saved="true"``), counted on the teacher's map per label, and put back after a reload; in an
exam the choice is kept unmarked, with nothing of the answer on the page, until the teacher
closes the concept items.
"""

from __future__ import annotations

import pytest
from helpers.live_page import WAIT, closed, saved, shows
from helpers.serve import Server
from helpers.watched import People

from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve.concepts import show

pytestmark = pytest.mark.browser

CH13 = load_problem_set("ch13")
WHY = show(next(c for c in CH13.concepts if c.id == "why-scale"), CH13)
WRONG = next(label for label in WHY.labels if label not in WHY.answer)
EXPECTED = ("The Content Security Policy directive 'frame-ancestors' is ignored",)


@pytest.fixture
def person(browser):
    people = People(browser, expected=EXPECTED)
    yield people
    assert people.close() == []  # no script error, no CSP violation


def join(page, server: Server, name: str):
    page.goto(server.student_url)
    page.locator("[data-join-name]").fill(name)
    page.locator("[data-join]").click()
    page.locator('section[data-concept="why-scale"]').wait_for(state="visible", timeout=WAIT)
    return page.locator('section[data-concept="why-scale"]')


def board(page, server: Server):
    page.goto(server.teacher_url)
    page.locator('[data-map-item="concepts/why-scale"]').wait_for()
    return page


def test_a_choice_is_saved_reaches_the_teachers_map_and_comes_back_after_a_reload(serve, person):
    server = serve()
    teacher = board(person(), server)
    phone = person(390)
    section = join(phone, server, "김민지")
    section.locator(f'button[data-option="{WRONG}"]').click()
    assert section.get_attribute("data-verdict") == "wrong"  # marked at once, on the phone
    saved(section)
    assert section.get_attribute("data-server-verdict") == "wrong"  # and the server agrees
    shows(teacher, f'[data-map-item="concepts/why-scale"] [data-map-option="{WRONG}"]')
    assert teacher.locator('[data-map-item="concepts/why-scale"] [data-map-verdict="wrong"]').inner_text() == "1"
    assert teacher.locator(f'[data-map-item="concepts/why-scale"] [data-map-option="{WHY.answer[0]}"]').inner_text() == "0"
    phone.reload()
    again = phone.locator('section[data-concept="why-scale"]')
    again.wait_for(state="visible", timeout=WAIT)
    saved(again)
    assert again.get_attribute("data-verdict") == "wrong"
    assert again.locator(f'button[data-option="{WRONG}"]').get_attribute("aria-pressed") == "true"
    assert phone.evaluate("AttnTutor.live.queue().length") == 0


def test_an_exam_keeps_the_choice_unmarked_until_the_teacher_closes_the_concept_items(serve, person):
    server = serve(mode="exam")
    teacher = board(person(), server)
    phone = person(390)
    section = join(phone, server, "Choi")
    section.locator(f'button[data-option="{WRONG}"]').click()
    saved(section)
    assert section.get_attribute("data-verdict") is None
    body = phone.inner_text("body")
    assert WHY.feedback[WRONG][:20] not in body and (WHY.explanation or "")[:20] not in body
    shows(teacher, f'[data-map-item="concepts/why-scale"] [data-map-option="{WRONG}"]')  # the teacher sees the choice at once
    teacher.locator('[data-problem-control="#concepts"] [data-control="open"]').click()
    closed(teacher, "#concepts")
    phone.reload()  # or the page's next look at the session (every 10 s)
    marked = phone.locator('section[data-concept="why-scale"][data-verdict]')
    marked.wait_for(timeout=WAIT)
    assert marked.get_attribute("data-verdict") == "wrong"
    assert WHY.feedback[WRONG][:20] in marked.inner_text()
    assert phone.locator(f'section[data-concept="why-scale"] button[data-option="{WRONG}"]').is_disabled()  # closed: no new choice
