"""The LTI 1.3 tool (serve --lti) with a platform of the tests' own, over real HTTP on 127.0.0.1:
registration (lti add-platform, lti config), the tool's JWKS, a learner's launch that lands joined on
the students' page, an instructor's that lands on the teacher's page, a deep-linking round trip, and
every refusal a user would meet (a replay, another tool's token, an expired one, an unknown key,
deployment or issuer), each a 4xx with a sentence."""

from __future__ import annotations

import json
import urllib.parse

import jwt
import pytest
from helpers.lti_platform import CLIENT_ID, DEPLOYMENT_ID, INSTRUCTOR, LEARNER, Browser, Platform, Running, platform_key
from typer.testing import CliRunner

from attn_tutor.cli.app import app as cli_app
from attn_tutor.live.lti.app import make_lti_app
from attn_tutor.sessions.lti import Link, Login, open_lti

CONFIG_KEYS = {"login_url", "launch_url", "jwks_url", "deep_linking_url", "registration_url"}


def run(*args: str):
    return CliRunner().invoke(cli_app, [*args, "--lang", "en"], prog_name="attn-tutor")


@pytest.fixture(scope="module")
def platform():
    platform_key("platform-key-1"), platform_key("other-key")  # made once, before any clock starts
    found = Platform()
    yield found
    found.stop()


class Tool:
    def __init__(self, db: str, platform: Platform, lang: str = "en", *, register: bool = True) -> None:
        self.db, self.platform = db, platform
        if register:
            result = run(*platform.register_args(db))
            assert result.exit_code == 0, result.output
        self.store = open_lti(db)
        self.running = Running(lambda url: make_lti_app(self.store, lang=lang, public_url=url))
        self.url = self.running.url

    def login_url(self, **changes: str) -> str:
        params = {"iss": self.platform.url, "login_hint": "hint-1", "target_link_uri": self.url + "/lti/launch",
                  "client_id": CLIENT_ID, "lti_deployment_id": DEPLOYMENT_ID, **changes}  # fmt: skip
        return self.url + "/lti/login?" + urllib.parse.urlencode(params)

    def launch(self, browser: Browser | None = None, **changes: str):
        """A launch as the platform makes it: the login, the platform's auto-posted form, the tool's answer."""
        browser = browser or Browser()
        form_page = browser.open(self.login_url(**changes))
        assert form_page.status == 200 and form_page.url.startswith(self.platform.url), form_page.text[:300]
        return browser, browser.submit(form_page)

    def stop(self) -> None:
        self.running.stop()
        self.running.app.tool.close()
        self.store.close()


@pytest.fixture
def tool(tmp_path, platform):
    platform.launch = type(platform.launch)()  # a learner of ch13, each test
    platform.returned.clear()  # the deep-linking responses of this test only (the platform serves the module)
    found = Tool(str(tmp_path / "lti.sqlite"), platform)
    yield found
    found.stop()


# --- registration --------------------------------------------------------------------------


def test_add_platform_registers_then_updates_and_refuses_bad_input_with_a_sentence(tmp_path, platform):
    db = str(tmp_path / "lti.sqlite")
    first = run(*platform.register_args(db))
    assert first.exit_code == 0 and f"registered {platform.url}" in first.output
    again = run(*platform.register_args(db))
    assert again.exit_code == 0 and f"updated {platform.url}" in again.output
    with open_lti(db) as store:
        (found,) = store.platforms(platform.url)
    assert found.client_id == CLIENT_ID and found.deployments == (DEPLOYMENT_ID,)
    bad = run(*[("not a url" if a == platform.url + "/jwks" else a) for a in platform.register_args(db)])
    assert bad.exit_code == 2 and "--jwks-url not a url is not an http:// or https:// URL" in bad.output
    missing = run("lti", "add-platform", "--db", db, "--issuer", platform.url)
    assert missing.exit_code == 2 and "lti add-platform needs --client-id, --deployment-id" in missing.output
    (tmp_path / "other.sqlite").write_bytes(b"")
    import sqlite3

    with sqlite3.connect(tmp_path / "other.sqlite") as conn:
        conn.execute("CREATE TABLE notes (x)")
    other = run(*platform.register_args(str(tmp_path / "other.sqlite")))
    assert other.exit_code == 1 and "something other than attn-tutor's LTI tool" in other.output
    assert "Traceback" not in bad.output + missing.output + other.output


def test_config_prints_exactly_the_tools_urls_and_canvas_json_without_a_private_key(tmp_path):
    db = str(tmp_path / "lti.sqlite")
    plain = run("lti", "config", "--db", db, "--public-url", "https://attn.example.ac.kr")
    assert plain.exit_code == 0, plain.output
    urls = json.loads(plain.output)
    assert set(urls) == CONFIG_KEYS
    assert urls["login_url"] == "https://attn.example.ac.kr/lti/login" and urls["jwks_url"] == "https://attn.example.ac.kr/lti/jwks"
    canvas = run("lti", "config", "--db", db, "--public-url", "https://attn.example.ac.kr", "--canvas")
    found = json.loads(canvas.output)
    assert found["oidc_initiation_url"] == urls["login_url"] and found["public_jwk_url"] == urls["jwks_url"]
    assert found["target_link_uri"] == urls["launch_url"]
    (extension,) = found["extensions"]
    assert extension["domain"] == "attn.example.ac.kr" and extension["platform"] == "canvas.instructure.com"
    assert {p["message_type"] for p in extension["settings"]["placements"]} == {"LtiDeepLinkingRequest"}
    assert "PRIVATE" not in plain.output + canvas.output and '"d"' not in canvas.output


def test_the_jwks_serves_public_keys_only_and_keeps_the_one_before_a_rotation(tool):
    browser = Browser()
    first = browser.open(tool.url + "/lti/jwks").json()
    (key,) = first["keys"]
    assert key["kty"] == "RSA" and key["alg"] == "RS256" and "d" not in key and "p" not in key
    rotated = run("lti", "rotate-key", "--db", tool.db)
    assert rotated.exit_code == 0 and "a new signing key" in rotated.output
    second = browser.open(tool.url + "/lti/jwks").json()
    assert [k["kid"] for k in second["keys"]][1:] == [key["kid"]] and len(second["keys"]) == 2


# --- launches ------------------------------------------------------------------------------


def test_a_learner_lands_on_the_practice_page_joined_under_the_name_the_platform_gives(tool):
    browser, landing = tool.launch()
    assert landing.status == 200, landing.text[:300]
    page = browser.follow(landing)
    assert page.status == 200 and page.url == tool.url + "/" and "data-join-form" in page.said()
    state = browser.open(tool.url + "/api/state").json()
    assert state["joined"] is True and state["name"] == "김민지" and state["mode"] == "practice"
    assert "cat-fish" in state["problems"]
    again, landing = tool.launch(Browser())  # the same LMS user from another browser: the same student
    again.follow(landing)
    assert again.open(tool.url + "/api/state").json()["name"] == "김민지"
    tool.platform.launch.roles = [INSTRUCTOR]
    teacher, landing = tool.launch()
    board = teacher.follow(landing)
    assert board.status == 200
    assert teacher.open(tool.url + "/teacher/api/map").json()["joined"] == 1


def test_the_launch_lands_by_a_link_taken_once_in_the_browsers_own_window(tool):
    """The launch's answer sets no cookie of the live class (inside the platform's frame it might be
    blocked): its link, opened in the page's own window (or a new one, from a frame), sets them, once."""
    browser, landing = tool.launch()
    assert browser.cookie("attn_student") is None and browser.cookie("attn_lti_link") is None
    (link,) = [a for a in landing.text.split('"') if a.startswith("/lti/continue/")]
    assert 'target="_blank"' in landing.text and "data-lti-continue" in landing.text
    page = browser.follow(landing)
    assert page.url == tool.url + "/" and browser.cookie("attn_student") and browser.cookie("attn_lti_link")
    again = Browser().open(tool.url + link)
    assert again.status == 401 and "used already or waited too long" in again.said()
    assert again.url.endswith(link) and Browser().open(tool.url + "/lti/continue/forged").status == 401


def test_an_instructor_lands_on_the_teacher_page_with_no_secret_link(tool):
    tool.platform.launch.roles = [INSTRUCTOR]
    browser, landing = tool.launch()
    page = browser.follow(landing)
    assert page.status == 200 and page.url == tool.url + "/teacher"
    assert "key=" not in page.url and "data-map" in page.said()
    stranger = Browser()
    assert stranger.open(tool.url + "/teacher").status in (403, 404)


def test_each_resource_link_has_its_own_session_and_a_browser_without_one_is_told_where_to_go(tool):
    first, landing = tool.launch()
    first.follow(landing)
    tool.platform.launch.resource_link = "resource-link-2"
    tool.platform.launch.sub = "user-2"
    tool.platform.launch.name = "Lee"
    second, landing = tool.launch()
    second.follow(landing)
    a, b = first.open(tool.url + "/api/state").json(), second.open(tool.url + "/api/state").json()
    assert a["session"] != b["session"] and (a["name"], b["name"]) == ("김민지", "Lee")
    nobody = Browser().open(tool.url + "/")
    assert nobody.status == 404 and "open attn-tutor from your course" in nobody.said()


def test_a_launch_without_a_set_is_refused_with_a_sentence(tool):
    tool.platform.launch.custom = {}
    _browser, landing = tool.launch()
    assert landing.status == 400 and "names no problem set" in landing.said() and "set=ch13" in landing.said()


def test_a_small_clock_skew_is_allowed(tool):
    tool.platform.launch.exp_in = -20
    tool.platform.launch.iat_ago = -20  # issued 20 s "in the future" by the platform's clock, expired 20 s ago by ours
    _browser, landing = tool.launch()
    assert landing.status == 200, landing.text[:300]


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spoil", "status", "said"),
    [
        ({"aud": "another-tool"}, 401, "meant for another tool"),
        ({"exp_in": -300}, 401, "has expired"),
        ({"kid": "no-such-key"}, 401, "signed with key no-such-key, which the platform's key set does not hold"),
        ({"key_name": "other-key"}, 401, "signature does not match"),
        ({"deployment_id": "deployment-9"}, 403, "Deployment deployment-9 of"),
        ({"nonce": "a-nonce-of-another-login"}, 401, "nonce is not the one this login made"),
    ],
)
def test_a_spoiled_id_token_is_refused_with_a_sentence_and_opens_nothing(tool, spoil, status, said):
    for name, value in spoil.items():
        setattr(tool.platform.launch, name, value)
    browser, landing = tool.launch()
    assert landing.status == status and said in landing.said(), landing.text[:400]
    assert browser.cookie("attn_lti_link") is None and browser.cookie("attn_student") is None
    assert "/lti/continue/" not in landing.text


def test_a_replayed_id_token_is_refused(tool):
    browser = Browser()
    form_page = browser.open(tool.login_url())
    first = browser.submit(form_page)
    assert first.status == 200
    replay = browser.submit(form_page)  # the same id_token and state, posted again
    assert replay.status == 401 and "used already" in replay.said()
    fresh = browser.open(tool.login_url())  # the old id_token with a new login's state
    token = form_page.forms()[0]["fields"]["id_token"]
    again = browser.submit(fresh, {"id_token": token})
    assert again.status == 401 and "nonce is not the one this login made" in again.said()


def test_unknown_issuers_and_client_ids_are_refused_at_the_login(tool):
    unknown = Browser().open(tool.login_url(iss="https://elsewhere.example"))
    assert unknown.status == 400 and "https://elsewhere.example is not registered" in unknown.said()
    client = Browser().open(tool.login_url(client_id="someone-else"))
    assert client.status == 400 and "Client id someone-else is not registered" in client.said()
    deployment = Browser().open(tool.login_url(lti_deployment_id="deployment-9"))
    assert deployment.status == 403 and "Deployment deployment-9" in deployment.said()
    elsewhere = Browser().open(tool.login_url(target_link_uri="https://evil.example/x"))
    assert elsewhere.status == 400 and "not this tool's address" in elsewhere.said()


def test_a_state_cookie_of_another_login_is_refused(tool):
    browser = Browser()
    first = browser.open(tool.login_url())
    browser.open(tool.login_url())  # a second login in the same browser: its state in the cookie now
    refused = browser.submit(first)
    assert refused.status == 401 and "another window of this browser" in refused.said()


def test_a_refusal_speaks_korean_when_the_tool_does(tmp_path, platform):
    platform.launch = type(platform.launch)(aud="another-tool")
    korean = Tool(str(tmp_path / "lti.sqlite"), platform, lang="ko")
    try:
        _browser, landing = korean.launch()
        assert landing.status == 401 and "다른 도구를 위한 것입니다" in landing.said() and 'lang="ko"' in landing.said()
    finally:
        korean.stop()


# --- deep linking --------------------------------------------------------------------------


def test_a_deep_linking_round_trip_returns_a_signed_resource_link_whose_launch_opens_that_choice(tool):
    tool.platform.launch.roles = [INSTRUCTOR]
    tool.platform.launch.message_type = "LtiDeepLinkingRequest"
    browser, picker = tool.launch(target_link_uri=tool.url + "/lti/deep-link")
    assert picker.status == 200 and "data-lti-deep-link" in picker.said(), picker.text[:300]
    back = browser.submit(picker, {"set": "ch13", "problem": "river-fishing", "mode": "exam"})
    assert back.status == 200 and "data-lti-return" in back.said()
    assert browser.submit(back).status == 200  # the auto-posted form, as the page's script sends it
    (returned,) = tool.platform.returned
    keys = jwt.PyJWKSet.from_dict(browser.open(tool.url + "/lti/jwks").json())
    kid = jwt.get_unverified_header(returned)["kid"]
    claims = jwt.decode(returned, keys[kid], algorithms=["RS256"], audience=tool.platform.url)
    assert claims["iss"] == CLIENT_ID
    assert claims["https://purl.imsglobal.org/spec/lti/claim/message_type"] == "LtiDeepLinkingResponse"
    assert claims["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] == DEPLOYMENT_ID
    assert claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque-42"
    (item,) = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["type"] == "ltiResourceLink" and item["custom"] == {"set": "ch13", "mode": "exam", "problem": "river-fishing"}
    assert browser.submit(back).status == 200 and len(tool.platform.returned) == 2  # (the platform's page posted twice)
    again = Browser().open(tool.url + "/lti/deep-link/respond")
    assert again.status == 405
    # the activity the teacher added, launched by a learner: an exam, river-fishing open alone
    tool.platform.launch = type(tool.platform.launch)(custom=item["custom"], roles=[LEARNER], resource_link="added-link")
    learner, landing = tool.launch()
    learner.follow(landing)
    state = learner.open(tool.url + "/api/state").json()
    assert state["mode"] == "exam" and state["problems"]["river-fishing"]["open"] and not state["problems"]["cat-fish"]["open"]


def test_a_deep_link_choice_is_sent_once_and_only_a_teacher_may_make_it(tool):
    tool.platform.launch.roles = [INSTRUCTOR]
    tool.platform.launch.message_type = "LtiDeepLinkingRequest"
    browser, picker = tool.launch(target_link_uri=tool.url + "/lti/deep-link")
    bad = browser.submit(picker, {"problem": "p99"})
    assert bad.status == 400 and "Problem p99 is not in the set ch13" in bad.said()
    assert browser.submit(picker).status == 200
    twice = browser.submit(picker)
    assert twice.status == 401 and "sent already" in twice.said()
    tool.platform.launch.roles = [LEARNER]
    _browser, refused = tool.launch(target_link_uri=tool.url + "/lti/deep-link")
    assert refused.status == 403 and "Only a teacher" in refused.said()


# --- the store on both databases -----------------------------------------------------------


def test_the_lti_store_keeps_logins_once_nonces_once_and_one_activity_a_link(live_store_url):
    with open_lti(live_store_url) as store:
        assert store.add_platform("https://lms", "c", "d1", auth_url="https://lms/a", token_url="https://lms/t", jwks_url="https://lms/j")
        assert not store.add_platform("https://lms", "c", "d2", auth_url="https://lms/a2", token_url="https://lms/t", jwks_url="https://lms/j")
        (found,) = store.platforms("https://lms")
        assert found.auth_url == "https://lms/a2" and found.deployments == ("d1", "d2")
        store.begin_login(Login("s1", "n1", "https://lms", "c"))
        assert store.take_login("s1") == Login("s1", "n1", "https://lms", "c") and store.take_login("s1") is None
        assert store.use_nonce("https://lms", "n1") and not store.use_nonce("https://lms", "n1")
        link = Link("ab" * 12, "https://lms", "c", "d1", "rl", "ch13", "t")
        assert store.find_or_add_link(link) == link
        assert store.find_or_add_link(link._replace(link="cd" * 12, set_ref="other")) == link  # the same resource link
        store.add_key("k1", "pem1")
        store.add_key("k2", "pem2")
        store.add_key("k3", "pem3")
        assert [(kid, active) for kid, _pem, active in store.keys()] == [("k3", True), ("k2", False)]


@pytest.mark.postgresql
def test_a_launch_on_postgresql_keeps_the_activity_in_a_schema_of_its_own(live_pg_url, platform):
    import psycopg

    platform.launch = type(platform.launch)(resource_link="pg-link")
    tool = Tool(live_pg_url, platform)
    try:
        browser, landing = tool.launch()
        assert landing.status == 200, landing.said()[:300]
        browser.follow(landing)
        assert browser.open(tool.url + "/api/state").json()["name"] == "김민지"
        link = browser.cookie("attn_lti_link")
    finally:
        tool.stop()
    base = live_pg_url.split("?")[0]
    with psycopg.connect(base, autocommit=True) as conn:
        names = [row[0] for row in conn.execute(f"SELECT name FROM lti_{link}.live_students")]
        conn.execute(f"DROP SCHEMA lti_{link} CASCADE")
    assert names == ["김민지"]


# --- grades back (Assignment and Grade Services) ------------------------------------------


def answered(tool: Tool, browser: Browser, stage: str, text: str, client_id: str) -> dict:
    csrf = browser.open(tool.url + "/api/state").json()["csrf"]
    reply = browser.post_json(tool.url + "/api/answer", {"problem": "cat-fish", "row": "먹었다", "stage": stage, "text": text,
                                                         "client_id": client_id}, csrf)  # fmt: skip
    assert reply.status == 200, reply.said()
    return reply.json()


def arrived(platform: Platform, sub: str, given: float, seconds: float = 10.0) -> dict:
    """The score the platform holds for ``sub`` once it is ``given`` (waited for at most ``seconds``)."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = [s for s in platform.scores if s["userId"] == sub]
        if found and found[-1]["scoreGiven"] == given:
            return found[-1]
        time.sleep(0.2)
    raise AssertionError(f"no score {given} for {sub} within {seconds} s: {platform.scores}")


def test_a_learners_score_reaches_the_platform_within_10_s_with_the_mistake_named_on_one_line_item(tool):
    platform = tool.platform
    platform.tool_jwks, platform.launch.ags = tool.url + "/lti/jwks", True
    platform.lineitems.clear(), platform.scores.clear()
    kim, landing = tool.launch()
    kim.follow(landing)
    assert answered(tool, kim, "scores", "1 6 4", "k1")["verdict"] == "correct"
    assert answered(tool, kim, "scaled", "1 6 4", "k2")["diagnosis"] == "not_scaled"  # forgot √d
    score = arrived(platform, "user-1", 1.0)
    items = tool.running.app.tool.live_of(kim.cookie("attn_lti_link")).items
    assert score["scoreMaximum"] == len(items) and score["gradingProgress"] == "FullyGraded"
    assert score["activityProgress"] == "InProgress" and score["timestamp"].startswith("20")
    assert score["comment"].startswith("Mistakes the marker found:") and "√" in score["comment"]
    platform.launch.sub, platform.launch.name = "user-2", "Lee"
    lee, landing = tool.launch()
    lee.follow(landing)
    answered(tool, lee, "scores", "1 6 4", "l1")
    second = arrived(platform, "user-2", 1.0)
    assert second["comment"] == "No mistake found in the answers so far."
    (item,) = platform.lineitems  # one line item for the activity, found again, never a second
    assert item["resourceLinkId"] == "resource-link-1" and item["tag"] == "attn-tutor" and item["scoreMaximum"] == len(items)
    assert {s["lineitem"] for s in platform.scores} == {1} and platform.token_requests == 1  # the token kept


def test_a_learner_who_only_opened_the_activity_gets_no_score_until_their_first_answer(tool):
    """A 0 marked "fully graded" for a learner who has answered nothing would read as a mark given."""
    platform = tool.platform
    platform.tool_jwks, platform.launch.ags = tool.url + "/lti/jwks", True
    platform.lineitems.clear(), platform.scores.clear()
    kim, landing = tool.launch()
    kim.follow(landing)
    tool.running.app.tool.grades.round()  # a sender's round, now: nothing to send
    assert platform.scores == [] and tool.running.app.tool.grades.store.queued() == []
    answered(tool, kim, "scores", "1 6 4", "k1")
    tool.running.app.tool.grades.round()
    assert [(s["userId"], s["scoreGiven"], s["activityProgress"]) for s in platform.scores] == [("user-1", 1.0, "InProgress")]


def test_scores_due_while_the_platform_is_down_stay_queued_and_arrive_when_it_is_back(tool):
    import time

    platform = tool.platform
    platform.tool_jwks, platform.launch.ags = tool.url + "/lti/jwks", True
    platform.lineitems.clear(), platform.scores.clear()
    platform.down = True
    try:
        kim, landing = tool.launch()
        kim.follow(landing)
        answered(tool, kim, "scores", "1 6 4", "k1")
        deadline = time.monotonic() + 15
        while not any(s.error for s in tool.store.queued()):
            assert time.monotonic() < deadline, "the refused score was not noted"
            time.sleep(0.2)
        (queued,) = tool.store.queued()
        assert queued.sub == "user-1" and queued.given == 1.0 and "503" in (queued.error or "") and platform.scores == []
    finally:
        platform.down = False
    arrived(platform, "user-1", 1.0, seconds=30)
    assert tool.store.queued() == [] and len(platform.lineitems) == 1


# --- dynamic registration ------------------------------------------------------------------


def test_moodle_dynamic_registration_from_the_registration_url_alone(tmp_path, platform):
    platform.launch = type(platform.launch)()
    tool = Tool(str(tmp_path / "lti.sqlite"), platform, register=False)
    try:
        urls = json.loads(run("lti", "config", "--db", tool.db, "--public-url", tool.url).output)
        secret_url = urls["registration_url"]
        assert secret_url.startswith(tool.url + "/lti/register/") and len(secret_url) > len(tool.url + "/lti/register/") + 20
        query = urllib.parse.urlencode({"openid_configuration": platform.url + "/.well-known/openid-configuration",
                                        "registration_token": "reg-token-1"})  # fmt: skip
        wrong = Browser().open(tool.url + "/lti/register/not-the-secret?" + query)
        assert wrong.status == 403 and "not this tool's" in wrong.said()
        refused = Browser().open(secret_url + "?" + query.replace("reg-token-1", "stale"))
        assert refused.status == 502 and "Registering with the platform failed" in refused.said() and "401" in refused.said()
        done = Browser().open(secret_url + "?" + query)
        assert done.status == 200 and f"registered with {platform.url}" in done.said() and "org.imsglobal.lti.close" in done.text
        sent = platform.registrations[-1]
        assert sent["initiate_login_uri"] == urls["login_url"] and sent["jwks_uri"] == urls["jwks_url"]
        assert set(sent["redirect_uris"]) == {urls["launch_url"], urls["deep_linking_url"]}
        browser, landing = tool.launch()  # registered: a launch works
        assert landing.status == 200, landing.said()[:300]
    finally:
        tool.stop()


def test_the_teachers_grades_page_shows_each_score_the_course_roster_and_sends_grades_again(tool):
    platform = tool.platform
    platform.tool_jwks, platform.launch.ags, platform.launch.nrps = tool.url + "/lti/jwks", True, True
    platform.lineitems.clear(), platform.scores.clear()
    kim, landing = tool.launch()
    kim.follow(landing)
    answered(tool, kim, "scores", "1 6 4", "k1")
    arrived(platform, "user-1", 1.0)
    assert kim.open(tool.url + "/teacher/lti").status == 403  # a learner of the activity is no teacher
    assert Browser().open(tool.url + "/teacher/lti").status == 404  # nor is a browser that launched nothing
    platform.launch.sub, platform.launch.roles = "teacher-1", [INSTRUCTOR]
    teacher, landing = tool.launch()
    teacher.follow(landing)
    page = teacher.open(tool.url + "/teacher/lti")
    assert page.status == 200 and "data-lti-send-grades" in page.text
    said = page.said()
    assert "김민지" in said and "1 / " in said and 'data-lti-grade="sent"' in page.text
    assert 'data-lti-member="opened">김민지' in page.text and 'data-lti-member="never">Never Came' in page.text
    assert "Prof. Park" not in said  # the roster lists the learners
    before = len(platform.scores)
    sent = teacher.submit(page)  # "Send grades now"
    assert sent.status == 200 and sent.url == tool.url + "/teacher/lti"
    import time

    deadline = time.monotonic() + 10
    while len(platform.scores) == before:
        assert time.monotonic() < deadline, "send grades sent nothing"
        time.sleep(0.2)
    assert platform.scores[-1]["userId"] == "user-1"
    forged = teacher.open(tool.url + "/teacher/lti/send-grades", {"csrf": "forged"})
    assert forged.status == 403


def test_an_exams_scores_wait_until_the_teacher_closes_it(tool):
    platform = tool.platform
    platform.tool_jwks, platform.launch.ags = tool.url + "/lti/jwks", True
    platform.launch.custom = {"set": "ch13", "mode": "exam", "problem": "cat-fish"}
    platform.lineitems.clear(), platform.scores.clear()
    kim, landing = tool.launch()
    kim.follow(landing)
    answered(tool, kim, "scores", "1 6 4", "k1")
    grades, link = tool.running.app.tool.grades, kim.cookie("attn_lti_link")
    grades.round()  # a round of the sender, here and now: an open exam's scores are not even queued
    assert tool.store.scores(link) == [] and platform.scores == []
    platform.launch.sub, platform.launch.roles = "teacher-1", [INSTRUCTOR]
    teacher, landing = tool.launch()
    teacher.follow(landing)
    csrf = teacher.open(tool.url + "/teacher/api/map").json()["csrf"]
    closed = teacher.post_json(tool.url + "/teacher/api/problem/cat-fish", {"open": False}, csrf)
    assert closed.status == 200, closed.said()
    grades.round()
    assert tool.store.scores(link) == [] and platform.scores == []  # the concept items are open still: the exam is not over
    concepts = teacher.post_json(tool.url + "/teacher/api/problem/%23concepts", {"open": False}, csrf)
    assert concepts.status == 200, concepts.said()
    assert arrived(platform, "user-1", 1.0)["gradingProgress"] == "FullyGraded"


@pytest.mark.postgresql
def test_serve_lti_with_two_workers_on_postgresql_launches_and_sends_each_score_once(live_pg_url, platform):
    """``attn-tutor serve --lti --workers 2``: a learner's launch and answer through whichever worker
    answers, and the score sent by one worker only (the advisory lock), once."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import psycopg

    assert run(*platform.register_args(live_pg_url)).exit_code == 0
    platform.launch = type(platform.launch)(resource_link="workers-link", ags=True)
    platform.lineitems.clear(), platform.scores.clear()
    server = subprocess.Popen([sys.executable, "-m", "attn_tutor", "serve", "--lti", "--db", live_pg_url, "--workers", "2",
                               "--host", "127.0.0.1", "--port", "0", "--lang", "en"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    link = None
    try:
        first = server.stdout.readline()
        assert first.startswith("LTI tool: http://127.0.0.1:"), first + server.stderr.read()[-2000:]
        url = first.split()[2].removesuffix("/lti/")
        tool = type("Served", (), {})()
        tool.url, tool.platform = url, platform
        platform.tool_jwks = url + "/lti/jwks"
        deadline = time.monotonic() + 30
        while True:  # the workers start
            try:
                Browser().open(url + "/lti/jwks").json()
                break
            except (OSError, ValueError):
                assert time.monotonic() < deadline, "the workers did not start"
                time.sleep(0.2)
        browser = Browser()
        params = {"iss": platform.url, "login_hint": "h", "target_link_uri": url + "/lti/launch", "client_id": CLIENT_ID}
        landing = browser.submit(browser.open(url + "/lti/login?" + urllib.parse.urlencode(params)))
        assert landing.status == 200, landing.said()[:300]
        browser.follow(landing)
        link = browser.cookie("attn_lti_link")
        for _ in range(4):  # whichever worker answers opens the activity from the database
            assert browser.open(url + "/api/state").json()["name"] == "김민지"
        answered(tool, browser, "scores", "1 6 4", "w1")
        arrived(platform, "user-1", 1.0, seconds=15)
        with open_lti(live_pg_url) as store:
            while store.queued():
                assert time.monotonic() < deadline + 30, "the score stayed queued"
                time.sleep(0.2)
        assert [s["userId"] for s in platform.scores] == ["user-1"] and len(platform.lineitems) == 1
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
        if link:
            with psycopg.connect(live_pg_url.split("?")[0], autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA IF EXISTS lti_{link} CASCADE")
    assert server.returncode == 0


def test_behind_https_the_logins_state_cookie_comes_back_from_the_platforms_frame(tmp_path, platform):
    """Over HTTPS (a proxy in front): the state cookie is ``SameSite=None; Secure``, so a browser sends it
    with the platform's cross-site post; the live class's cookies stay ``Lax``/``Strict``, and ``Secure``."""
    import http.client

    db = str(tmp_path / "lti.sqlite")
    assert run(*platform.register_args(db)).exit_code == 0
    store = open_lti(db)
    running = Running(lambda url: make_lti_app(store, lang="en", public_url="https://attn.example.ac.kr"))
    try:
        port = int(running.url.rsplit(":", 1)[1])
        params = {"iss": platform.url, "login_hint": "h", "target_link_uri": "https://attn.example.ac.kr/lti/launch", "client_id": CLIENT_ID}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("GET", "/lti/login?" + urllib.parse.urlencode(params))
            response = conn.getresponse()
            response.read()
        finally:
            conn.close()
        cookie = response.getheader("set-cookie") or ""
        assert response.status == 302 and response.getheader("location", "").startswith(platform.url + "/auth?")
        assert "attn_lti_state=" in cookie and "SameSite=none" in cookie and "Secure" in cookie and "HttpOnly" in cookie
        assert "redirect_uri=https%3A%2F%2Fattn.example.ac.kr%2Flti%2Flaunch" in response.getheader("location", "")
    finally:
        running.stop()
        running.app.tool.close()
        store.close()


# --- the course's roster in grade (Names and Role Provisioning) ---------------------------


def graded(*args: str):
    """``attn-tutor grade`` as the teacher types it (English)."""
    return run("grade", *args)


def test_grade_of_an_activity_takes_the_course_roster_by_lms_account_and_lists_who_never_came(tool, tmp_path):
    import time

    from attn_tutor.sessions.lti import activity_target

    platform = tool.platform
    platform.tool_jwks, platform.launch.nrps = tool.url + "/lti/jwks", True
    platform.launch.name = "Minji K."  # the launch's name is not the roster's (김민지): the account matches, not the name
    kim, landing = tool.launch()
    kim.follow(landing)
    answered(tool, kim, "scores", "1 6 4", "k1")
    link = kim.cookie("attn_lti_link")
    session = activity_target(tool.db, link)
    early = graded(session, "--lti-roster", tool.db)
    assert early.exit_code == 1 and "has not read the course's roster of the activity Attention by hand yet" in early.output
    assert "/teacher/lti" in early.output and "Traceback" not in early.output
    platform.launch.sub, platform.launch.roles = "teacher-1", [INSTRUCTOR]
    teacher, landing = tool.launch()
    board = teacher.follow(landing)
    assert 'href="/teacher/lti" data-lti-grades-link' in board.text and "Grades sent to the course" in board.said()
    deadline = time.monotonic() + 10
    while tool.store.members(link) is None:  # the teacher's launch: the course's roster read from the platform, and kept
        assert time.monotonic() < deadline, "the course's roster was not kept after the teacher's launch"
        time.sleep(0.1)
    csv = tmp_path / "grades.csv"
    result = graded(session, "--lti-roster", tool.db, "--csv", str(csv))
    assert result.exit_code == 0, result.output
    assert "Minji K." in result.output and "김민지" in result.output and "LMS account" in result.output
    assert "in the roster but no answer file: Never Came (2)" in result.output
    assert "Prof. Park" not in result.output  # the roster is the course's learners
    assert "Minji K." in csv.read_text(encoding="utf-8")
    korean = CliRunner().invoke(cli_app, ["grade", session, "--lti-roster", tool.db, "--lang", "ko"], prog_name="attn-tutor")
    assert korean.exit_code == 0, korean.output
    assert "LMS 계정" in korean.output and "명단에는 있지만 답안 파일이 없음: Never Came (2)" in korean.output
    assert "LMS account" not in korean.output and "in the roster" not in korean.output
    platform.launch.sub, platform.launch.roles, platform.launch.name = "user-5", [LEARNER], "Never Came"
    stranger, landing = tool.launch()  # an account the course's roster does not have, under a roster learner's name
    stranger.follow(landing)
    answered(tool, stranger, "scores", "1 6 4", "s1")
    again = graded(session, "--lti-roster", tool.db)
    assert again.exit_code == 1, again.output
    assert "'Never Came' is not in the roster" in again.output  # not taken for the learner of that name
    assert "in the roster but no answer file: Never Came (2)" in again.output


def test_grade_lti_roster_refuses_what_it_cannot_use_with_a_sentence(tool, tmp_path):
    from attn_tutor.sessions.lti import activity_target

    kim, landing = tool.launch()
    kim.follow(landing)
    answered(tool, kim, "scores", "1 6 4", "k1")
    session = activity_target(tool.db, kim.cookie("attn_lti_link"))
    roster = tmp_path / "roster.csv"
    roster.write_text("name\n김민지\n", encoding="utf-8")
    both = graded(session, "--lti-roster", tool.db, "--roster", str(roster))
    assert both.exit_code == 2 and "--roster and --lti-roster are two rosters: give one" in both.output
    gone = graded(session, "--lti-roster", str(tmp_path / "none.sqlite"))
    assert gone.exit_code == 1 and "there is no LTI tool's database here" in gone.output
    assert not (tmp_path / "none.sqlite").exists()  # nothing made by grade
    other = tmp_path / "other.sqlite"
    import shutil

    shutil.copy(session, other)
    stray = graded(str(other), "--lti-roster", tool.db)
    assert stray.exit_code == 2 and f"{other} is not an activity of the LTI tool's database" in stray.output
    two = graded(session, str(other), "--lti-roster", tool.db)
    assert two.exit_code == 2 and "(2 sessions given)" in two.output
    layout = graded(session, "--lti-roster", tool.db, "--csv-layout", "moodle", "--csv", str(tmp_path / "m.csv"))
    assert layout.exit_code == 2 and "--roster" in layout.output
    assert "Traceback" not in both.output + gone.output + stray.output + two.output + layout.output


def test_the_course_roster_is_kept_on_both_databases_and_an_older_store_gains_its_table(live_store_url):
    from attn_tutor.sessions.lti import Member

    with open_lti(live_store_url) as store:
        assert store.members("ab" * 12) is None
        store.set_members("ab" * 12, [Member("u1", "김민지", "kim@example.ac.kr", True), Member("t1", "Park", "", False)])
        members, fetched = store.members("ab" * 12)
        assert members == [Member("u1", "김민지", "kim@example.ac.kr", True), Member("t1", "Park", "", False)]
        assert fetched.startswith("20")
        with store._transaction() as cur:  # a store made before the roster was kept
            cur.execute("DROP TABLE lti_members")
    with open_lti(live_store_url) as store:
        assert store.members("ab" * 12) is None
        store.set_members("ab" * 12, [])
        assert store.members("ab" * 12)[0] == []


@pytest.mark.postgresql
def test_grade_of_an_activity_on_postgresql_takes_the_course_roster(live_pg_url, platform):
    import psycopg

    from attn_tutor.sessions.lti import activity_target

    platform.launch = type(platform.launch)(resource_link="pg-roster-link", nrps=True)
    tool = Tool(live_pg_url, platform)
    link = None
    try:
        platform.tool_jwks = tool.url + "/lti/jwks"
        kim, landing = tool.launch()
        kim.follow(landing)
        answered(tool, kim, "scores", "1 6 4", "k1")
        link = kim.cookie("attn_lti_link")
        platform.launch.sub, platform.launch.roles = "teacher-1", [INSTRUCTOR]
        teacher, landing = tool.launch()
        teacher.follow(landing)
        assert teacher.open(tool.url + "/teacher/lti").status == 200
        result = graded(activity_target(live_pg_url, link), "--lti-roster", live_pg_url)
        assert result.exit_code == 0, result.output
        assert "LMS account" in result.output and "in the roster but no answer file: Never Came (2)" in result.output
    finally:
        tool.stop()
        if link:
            with psycopg.connect(live_pg_url.split("?")[0], autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA IF EXISTS lti_{link} CASCADE")


@pytest.mark.postgresql
@pytest.mark.parametrize("schema_there", [False, True], ids=["new-schema", "new-tables"])
def test_workers_opening_a_new_activity_at_the_same_instant_make_its_schema_and_tables_once(live_pg_url, schema_there):
    """``serve --lti --workers``: an activity's first launches may reach two workers at once; each makes
    the activity's place and opens its session (made if new) without tripping on the other's."""
    import threading

    import psycopg

    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.sessions.lti import activity_target
    from attn_tutor.sessions.opening import open_store

    problem_set = load_problem_set("ch13")
    link = "5e" * 12
    with open_lti(live_pg_url) as tool:  # the tool's own tables (its store opened once, by serve)
        if schema_there:
            tool.make_place(link)
    start, found, failed = threading.Barrier(4), [], []

    def worker() -> None:
        try:
            with open_lti(live_pg_url) as store:
                start.wait(10)
                store.make_place(link)
                with open_store(activity_target(live_pg_url, link), problem_set, create=True) as session:
                    found.append(session.session().id)
        except Exception as error:  # said below, with the others'
            failed.append(error)

    workers = [threading.Thread(target=worker) for _ in range(4)]
    try:
        for one in workers:
            one.start()
        for one in workers:
            one.join(60)
        assert failed == [] and len(found) == 4 and len(set(found)) == 1, (failed, found)
    finally:
        with psycopg.connect(live_pg_url.split("?")[0], autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS lti_{link} CASCADE")


def test_a_sampling_problem_picked_by_deep_link_launches_and_its_mistake_is_named_in_the_score(tool):
    """ch14 is in the deep-link picker; a sampling problem picked there opens alone at the learner's
    launch, its stages are marked by the server, and the score's comment names the mistake in words."""
    platform = tool.platform
    platform.launch.roles, platform.launch.message_type = [INSTRUCTOR], "LtiDeepLinkingRequest"
    browser, picker = tool.launch(target_link_uri=tool.url + "/lti/deep-link")
    assert picker.status == 200 and "ch14" in picker.text
    back = browser.submit(picker, {"set": "ch14", "problem": "cat-mat-en", "mode": "practice"})
    assert back.status == 200 and "data-lti-return" in back.said()
    browser.submit(back)
    (returned,) = platform.returned
    (item,) = jwt.decode(returned, options={"verify_signature": False})["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["custom"] == {"set": "ch14", "mode": "practice", "problem": "cat-mat-en"}
    platform.tool_jwks = tool.url + "/lti/jwks"
    platform.scores.clear()
    platform.launch = type(platform.launch)(custom=item["custom"], roles=[LEARNER], resource_link="sampling-link", ags=True)
    kim, landing = tool.launch()
    assert kim.follow(landing).status == 200
    state = kim.open(tool.url + "/api/state").json()
    assert state["problems"]["cat-mat-en"]["open"] and not state["problems"]["cat-next"]["open"]
    reply = kim.post_json(tool.url + "/api/answer", {"problem": "cat-mat-en", "row": "", "stage": "scaled", "text": "4.8 3.2 1.6 -1.6",
                                                     "client_id": "s1"}, state["csrf"])  # fmt: skip
    assert reply.status == 200 and reply.json()["diagnosis"] == "temperature_multiplied", reply.said()
    score = arrived(platform, "user-1", 0.0)
    assert "multiplied by T" in score["comment"]
