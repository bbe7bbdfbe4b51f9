"""The red team's findings on the live page in a real browser (issue 20): Debian's chromium
through playwright against `attn-tutor serve` on loopback; each failed before its fix."""

from __future__ import annotations

import pytest
from helpers.live_page import WAIT, saved
from helpers.live_page import answer as answer_in
from helpers.serve import Server

pytestmark = pytest.mark.browser

EXPECTED = ("Failed to load resource",)  # what chromium says while the server is down (killed on purpose)


@pytest.fixture
def server(serve):
    return serve()


@pytest.fixture
def context(browser):
    made = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    made.on("weberror", lambda error: errors.append(str(error.error)))
    made.on("console", lambda m: errors.append(m.text) if m.type == "error" and not m.text.startswith(EXPECTED) else None)
    yield made
    made.close()
    assert errors == []


def opened(context, server: Server):
    page = context.new_page()
    page.goto(server.student_url)
    return page


def answer(page, row: str, stage: str, text: str):
    """A stage of cat-fish, the one problem these findings are about."""
    return answer_in(page, "cat-fish", row, stage, text)


def test_two_tabs_of_one_student_keep_what_each_checked_while_the_server_was_down(server, context):
    first = opened(context, server)
    first.locator("[data-join-name]").fill("Jung")
    first.locator("[data-join]").click()
    first.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    second = opened(context, server)  # the same phone, a second tab: the same student
    second.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    server.kill()
    answer(first, "먹었다", "scores", "1 6 4")
    answer(second, "고양이가", "scores", "2 2 3")  # waits in the queue the tabs share
    answer(first, "먹었다", "scaled", "0.707 4.243 2.828")  # the first tab writes the queue again
    second.close()  # the student closes the second tab before the server is back
    server.start()
    first.reload()
    kept = first.locator('section[data-problem="cat-fish"] [data-row="고양이가"] [data-stage-block="scores"]')
    kept.wait_for(timeout=WAIT)
    saved(kept)
    assert first.locator('section[data-problem="cat-fish"] [data-row="고양이가"] input[data-stage="scores"]').input_value() == "2 2 3"
    assert first.evaluate("AttnTutor.live.queue().length") == 0


def toggle(board, problem: str, open_: bool) -> None:
    """The teacher closes or opens ``problem`` with its button, and the page says so."""
    button = board.locator(f'[data-control="open"][data-problem="{problem}"]')
    button.wait_for(timeout=WAIT)
    board.wait_for_function(
        "([b, v]) => b.getAttribute('data-value') === v", arg=[button.element_handle(), str(open_).lower()], timeout=WAIT
    )
    button.click()
    board.wait_for_function(
        "([b, v]) => b.getAttribute('data-value') === v", arg=[button.element_handle(), str(not open_).lower()], timeout=WAIT
    )


def test_an_answer_refused_because_the_problem_closed_meanwhile_is_kept_and_saved_when_it_reopens(server, context, browser):
    page = opened(context, server)
    page.locator("[data-join-name]").fill("Jung")
    page.locator("[data-join]").click()
    page.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    board_context = browser.new_context()
    try:
        board = board_context.new_page()
        board.goto(server.teacher_url)
        context.set_offline(True)  # the phone sleeps, or the Wi-Fi drops
        block = answer(page, "먹었다", "scores", "1 6 4")
        toggle(board, "cat-fish", open_=False)  # the teacher closes the problem meanwhile
        context.set_offline(False)
        page.locator('[data-stage-block="scores"] [data-refused="409"]').first.wait_for(timeout=WAIT)  # said on its stage
        assert block.get_attribute("data-saved") == "false"
        page.locator('section[data-problem="cat-fish"] [data-closed-note]').wait_for(timeout=WAIT)  # the page's next look
        page.evaluate("window.beforeReopen = true")
        toggle(board, "cat-fish", open_=True)  # "two more minutes": the page reloads to draw the problem afresh
        page.wait_for_function("() => window.beforeReopen === undefined", timeout=WAIT)
        page.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
        field = page.locator('section[data-problem="cat-fish"] [data-row="먹었다"] input[data-stage="scores"]')
        page.wait_for_function("f => f.value === '1 6 4'", arg=field.element_handle(), timeout=WAIT)  # what they typed, back
        saved(page.locator('section[data-problem="cat-fish"] [data-row="먹었다"] [data-stage-block="scores"]'))
    finally:
        board_context.close()


def test_a_session_file_removed_while_serving_leaves_the_answer_waiting_on_the_page_and_the_stop_says_where_the_rest_are(server, context):
    """Issue 35, rule 9: nothing acknowledged that is not stored. The page keeps the answer the
    server refused (503) as not saved yet, and Ctrl-C names the copy of what the file held."""
    from pathlib import Path

    page = opened(context, server)
    page.locator("[data-join-name]").fill("Jung")
    page.locator("[data-join]").click()
    page.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    saved(answer(page, "먹었다", "scores", "1 6 4"))
    db = Path(server.db)
    for path in db.parent.glob(db.name + "*"):
        path.unlink()
    block = answer(page, "고양이가", "scores", "2 2 3")
    page.wait_for_function("() => document.getElementById('live-status').getAttribute('data-pending') === '1'", timeout=WAIT)
    assert "not saved yet" in page.locator("#live-status").inner_text()
    assert block.get_attribute("data-saved") != "true"
    assert page.evaluate("AttnTutor.live.queue().length") == 1
    server.stop()
    said = " ".join(" ".join(server.lines).split())
    assert "every answer is saved in" not in said and "every answer saved before is now in" in said
    [rescued] = list(db.parent.glob("class-rescued-*.sqlite"))
    assert rescued.stat().st_size > 0
