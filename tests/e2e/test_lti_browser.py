"""The LTI tool in a real browser (Debian's chromium through playwright), launched by the tests'
platform (tests/helpers/lti_platform.py) as a course does: the platform on 127.0.0.1 and the tool on
``localhost``, two sites, so the platform's auto-posted form is a cross-site POST and the login's
state cookie (``SameSite=Lax`` over plain HTTP) does not come back with it, as in a browser that
blocks third-party cookies: the launch rests on the state kept in the database. A learner lands
joined and answers a stage; the instructor lands on the teacher's page, which counts it; the
deep-linking page and a refusal pass axe-core and are worked by keyboard, as are the teacher's page with its
link to the grades page and the grades page."""

from __future__ import annotations

import jwt
import pytest
from helpers import axe
from helpers.live_page import WAIT, answer, saved, shows
from helpers.lti_platform import DL, INSTRUCTOR, LEARNER, Launch, Platform, Running, platform_key
from typer.testing import CliRunner

from attn_tutor.cli.app import app as cli_app
from attn_tutor.live.lti.app import make_lti_app
from attn_tutor.sessions.lti import open_lti

pytestmark = pytest.mark.browser


@pytest.fixture
def course(tmp_path):
    """The tests' platform and the tool registered with it, the tool on ``localhost``."""
    platform_key()
    platform = Platform()
    db = str(tmp_path / "lti.sqlite")
    result = CliRunner().invoke(cli_app, [*platform.register_args(db), "--lang", "en"], prog_name="attn-tutor")
    assert result.exit_code == 0, result.output
    store = open_lti(db)
    running = Running(lambda url: make_lti_app(store, lang="en", public_url=url.replace("127.0.0.1", "localhost")))
    tool_url = running.url.replace("127.0.0.1", "localhost")
    yield platform, tool_url
    running.stop()
    running.app.tool.close()
    store.close()
    platform.stop()


def login_url(platform: Platform, tool_url: str, target: str = "/lti/launch") -> str:
    from urllib.parse import urlencode

    params = {"iss": platform.url, "login_hint": "hint", "target_link_uri": tool_url + target, "client_id": "tool-client-1"}
    return tool_url + "/lti/login?" + urlencode(params)


def test_a_learner_launched_from_the_course_answers_and_the_instructor_sees_it(course, people):
    platform, tool_url = course
    platform.launch = Launch(sub="learner-7", name="김민지", roles=[LEARNER])
    student = people().page
    student.goto(login_url(platform, tool_url))
    student.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)
    assert student.url == tool_url + "/"
    assert not student.locator("[data-join-form]").is_visible()  # joined already: no name to type
    right = answer(student, "cat-fish", "먹었다", "scores", "1 6 4")
    saved(right)
    assert right.get_attribute("data-verdict") == "correct"

    platform.launch = Launch(sub="teacher-1", name="Prof. Park", roles=[INSTRUCTOR])
    board = people().page
    board.goto(login_url(platform, tool_url))
    board.locator("[data-map]").wait_for(timeout=WAIT)
    assert board.url == tool_url + "/teacher"
    shows(board, '[data-map-item="cat-fish/먹었다/scores"] [data-map-verdict="correct"]')
    assert "김민지" in board.locator("body").inner_text()


@pytest.mark.axe
def test_the_teachers_grades_page_is_reached_and_worked_by_keyboard_and_passes_axe(course, people):
    platform, tool_url = course
    platform.tool_jwks = tool_url + "/lti/jwks"
    platform.launch = Launch(sub="user-1", name="김민지", roles=[LEARNER], ags=True, nrps=True)
    student = people().page
    student.goto(login_url(platform, tool_url))
    saved(answer(student, "cat-fish", "먹었다", "scores", "1 6 4"))
    platform.launch = Launch(sub="teacher-1", name="Prof. Park", roles=[INSTRUCTOR], ags=True, nrps=True)
    board = people().page
    board.goto(login_url(platform, tool_url))
    board.locator("[data-map]").wait_for(timeout=WAIT)
    until(lambda: platform.scores)  # the learner's score reached the course
    assert axe.violations(board) == []  # the teacher's page, with its link to the grades page
    board.locator("[data-lti-grades-link]").focus()
    with board.expect_navigation():
        board.keyboard.press("Enter")  # to the grades page, by keyboard
    assert board.url == tool_url + "/teacher/lti"
    assert board.locator('[data-lti-grade="sent"]').inner_text().startswith("김민지")
    assert board.locator('[data-lti-member="never"]').inner_text().startswith("Never Came")
    assert axe.violations(board) == []
    before = len(platform.scores)
    board.locator("[data-lti-send-grades]").focus()
    with board.expect_navigation():
        board.keyboard.press("Enter")  # "Send grades now", by keyboard
    assert board.url == tool_url + "/teacher/lti"
    until(lambda: len(platform.scores) > before)
    assert platform.scores[-1]["userId"] == "user-1"


@pytest.mark.axe
def test_the_deep_linking_page_and_a_refusal_pass_axe_and_work_by_keyboard(course, people):
    platform, tool_url = course
    platform.launch = Launch(roles=[INSTRUCTOR], message_type="LtiDeepLinkingRequest")
    page = people().page
    page.goto(login_url(platform, tool_url, "/lti/deep-link"))
    page.locator("[data-lti-deep-link]").wait_for(timeout=WAIT)
    assert axe.violations(page) == []
    page.locator("[data-lti-set]").focus()
    page.keyboard.press("Tab")  # the problem
    page.keyboard.type("river-fishing")
    page.keyboard.press("Tab")  # the mode: practice, then exam by the arrow key
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # "Add to the course": the signed answer posts itself back
    page.locator("[data-returned]").wait_for(timeout=WAIT)
    assert len(platform.returned) == 1
    (item,) = jwt.decode(platform.returned[0], options={"verify_signature": False})[DL + "content_items"]
    assert item["custom"] == {"set": "ch13", "mode": "exam", "problem": "river-fishing"}  # what the keyboard chose

    platform.launch = Launch(aud="another-tool")
    refused = people().page
    refused.goto(login_url(platform, tool_url))
    refused.locator("[data-lti-error]").wait_for(timeout=WAIT)
    assert "meant for another tool" in refused.locator("[data-lti-error]").inner_text()
    assert axe.violations(refused) == []


def until(done, seconds: float = 10.0) -> None:
    import time

    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.1)
