"""A live class in a real browser: `attn-tutor serve` on loopback, Debian's chromium through playwright.

One teacher and three students (one on a 390 px phone), each a browser context of its own
(their own cookies and localStorage): the students join and answer, right and wrong, and the
teacher's map counts their verdicts and names their mistakes; in an exam the students see no
verdict until the teacher closes the problem; the server is killed (SIGKILL) and started again
on the same database, and an answer checked while it was down is sent again by the page and
saved. axe-core finds nothing on either page, both are worked by keyboard alone, and both
are photographed (``ATTN_TUTOR_SHOTS``: the folder to keep the PNGs in).
"""

from __future__ import annotations

import pytest
from helpers import axe
from helpers.live_page import WAIT, answer, closed, saved, shows
from helpers.serve import Server
from helpers.watched import Watched

pytestmark = pytest.mark.browser


def join(person: Watched, server: Server, name: str):
    page = person.page
    page.goto(server.student_url)
    page.locator("[data-join-name]").fill(name)
    page.locator("[data-join]").click()
    page.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    return page


def teacher(person: Watched, server: Server):
    page = person.page
    page.goto(server.teacher_url)
    page.locator("[data-map]").wait_for()
    return page


def map_count(page, item: str, code: str) -> str:
    return page.locator(f'[data-map-item="{item}"] [data-map-diagnosis="{code}"]').inner_text()


def test_students_answer_and_the_teachers_map_names_their_mistakes(serve, people, shots):
    server = serve()
    board = teacher(people(), server)
    kim, lee, park = people(), people(), people(390)
    pages = {name: join(person, server, name) for name, person in (("김민지", kim), ("Lee", lee), ("박서준", park))}
    right = answer(pages["김민지"], "cat-fish", "먹었다", "scores", "1 6 4")
    assert right.get_attribute("data-verdict") == "correct"  # marked at once on the phone
    saved(right)
    for name, scaled in (("Lee", "1 6 4"), ("박서준", "0.5 3 2")):  # forgot √d; divided by d
        saved(answer(pages[name], "cat-fish", "먹었다", "scores", "1 6 4"))
        block = answer(pages[name], "cat-fish", "먹었다", "scaled", scaled)
        saved(block)
    scaled = 'section[data-problem="cat-fish"] [data-row="먹었다"] [data-stage-block="scaled"]'
    assert pages["Lee"].locator(scaled).get_attribute("data-diagnosis") == "not_scaled"
    assert pages["박서준"].locator(scaled).get_attribute("data-diagnosis") == "divided_by_d"
    shows(board, '[data-map-item="cat-fish/먹었다/scaled"] [data-map-diagnosis="divided_by_d"]')
    assert map_count(board, "cat-fish/먹었다/scaled", "not_scaled") == "1"
    scores = board.locator('[data-map-item="cat-fish/먹었다/scores"] [data-map-verdict="correct"]')
    assert scores.inner_text() == "3"
    assert "3" in board.locator("[data-counts]").inner_text()
    roster = board.locator("[data-roster]").inner_text()
    assert all(name in roster for name in pages)  # names: on the teacher's page
    assert "김민지" not in pages["Lee"].inner_text("body")  # and on no student's
    overflow = pages["박서준"].evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the student's page is {overflow}px wider than a 390px phone"
    board.screenshot(path=str(shots / "live-teacher.png"), full_page=True)
    pages["박서준"].screenshot(path=str(shots / "live-student-390.png"), full_page=False)
    assert (shots / "live-teacher.png").stat().st_size > 10_000


def test_an_exam_shows_no_verdict_until_the_teacher_closes_the_problem(serve, people):
    server = serve(mode="exam")
    board = teacher(people(), server)
    page = join(people(390), server, "Choi")
    assert page.locator("[data-exam-note]").is_visible()
    scores = answer(page, "cat-fish", "먹었다", "scores", "1 6 4")
    saved(scores)
    scaled = answer(page, "cat-fish", "먹었다", "scaled", "1 6 4")
    saved(scaled)
    for block in (scores, scaled):
        assert block.get_attribute("data-verdict") is None and not block.get_attribute("data-diagnosis")
    assert page.locator('section[data-problem="cat-fish"] [data-diagnosis-text]').count() == 0
    shows(board, '[data-map-item="cat-fish/먹었다/scaled"] [data-map-diagnosis="not_scaled"]')  # the teacher sees the mistake at once
    board.locator('[data-problem-control="cat-fish"] [data-control="open"]').click()
    closed(board, "cat-fish")
    page.reload()  # or the page's next look at the session (every 10 s)
    page.locator('section[data-problem="cat-fish"] [data-row="먹었다"] [data-stage-block="scaled"][data-verdict]').wait_for(timeout=WAIT)
    block = page.locator('section[data-problem="cat-fish"] [data-row="먹었다"] [data-stage-block="scaled"]')
    assert block.get_attribute("data-verdict") == "wrong"
    assert block.get_attribute("data-diagnosis") == "not_scaled"
    assert page.locator('section[data-problem="cat-fish"] [data-row="먹었다"] [data-stage-block="scores"]').get_attribute("data-verdict") == "correct"


def test_a_killed_server_started_again_gets_what_the_pages_kept(serve, people):
    server = serve()
    one, two = people(), people(390)
    first, second = join(one, server, "Jung"), join(two, server, "Han")
    saved(answer(first, "cat-fish", "먹었다", "scores", "1 6 4"))
    server.kill()  # SIGKILL: a crash, nothing flushed
    pending = [answer(first, "cat-fish", "먹었다", "scaled", "0.707 4.243 2.828"), answer(second, "cat-fish", "먹었다", "scores", "1 6 4")]
    for block in pending:
        assert block.get_attribute("data-verdict") == "correct"  # the page still marks
        assert block.get_attribute("data-saved") != "true"
    assert first.evaluate("AttnTutor.live.queue().length") == 1
    server.start()  # the same database, the same port
    for block in pending:
        saved(block)  # the page sent it again by itself
    assert first.evaluate("AttnTutor.live.queue().length") == 0
    first.reload()  # and the saved answers come back
    restored = first.locator('section[data-problem="cat-fish"] [data-row="먹었다"] [data-stage-block="scaled"]')
    saved(restored)
    assert first.locator('section[data-problem="cat-fish"] [data-row="먹었다"] input[data-stage="scaled"]').input_value() == "0.707 4.243 2.828"


def tab_to(page, selector: str, presses: int, what: str) -> None:
    """Press Tab until the focused element matches ``selector``, at most ``presses`` times."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {what}")


@pytest.mark.axe
def test_both_pages_break_no_rule_and_work_by_keyboard_alone(serve, people):
    server = serve()
    board = teacher(people(), server)
    student = people(390).page
    student.goto(server.student_url)
    assert axe.violations(student) == []  # the join form
    # by keyboard: Tab to the name field, type, Enter joins
    tab_to(student, "[data-join-name]", 20, "the name field")
    student.keyboard.type("Yoon")
    student.keyboard.press("Enter")
    student.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    tab_to(student, 'section[data-problem="cat-fish"] input[data-stage="scores"]', 80, "the first answer field")
    row = student.evaluate("document.activeElement.closest('[data-row]').dataset.row")
    student.keyboard.type({"먹었다": "1 6 4", "고양이가": "2 2 3"}[row])
    student.keyboard.press("Enter")
    block = student.locator(f'section[data-problem="cat-fish"] [data-row="{row}"] [data-stage-block="scores"]')
    assert block.get_attribute("data-verdict") == "correct"
    saved(block)
    assert axe.violations(student) == []  # the page as used: a verdict, the saved state
    # the teacher: Tab to the first problem's close button, Enter closes it
    assert axe.violations(board) == []
    tab_to(board, '[data-problem-control="cat-fish"] [data-control="open"]', 40, "the first problem's control")
    assert board.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    board.keyboard.press("Enter")
    closed(board, "cat-fish")
    shows(board, f'[data-map-item="cat-fish/{row}/scores"] [data-map-verdict="correct"]')
    assert axe.violations(board) == []
