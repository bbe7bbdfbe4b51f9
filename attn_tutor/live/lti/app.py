"""The LTI 1.3 tool's app (``serve --lti``): the platform's launches in, one live class a resource link.

Routes (docs/lti.md):

- ``GET|POST /lti/login``: OIDC third-party login initiation: the platform and client id registered,
  a ``state`` and a ``nonce`` kept in the store (and the state in the ``attn_lti_state`` cookie), then
  a redirect to the platform's authorisation URL;
- ``POST /lti/launch`` (and ``/lti/deep-link``, the same): the ``id_token`` verified
  (:func:`attn_tutor.live.lti.tokens.verified`) against the state taken once; a resource link's launch
  opens its live class (made at its first launch: one session a resource link, its set from the
  custom parameter ``set``) and lands the learner on the students' page, joined under their LMS
  identity, or the instructor on the teacher's page; a deep-linking request shows the teacher the
  choice of a set, a problem and the mode (``POST /lti/deep-link/respond`` sends it back, signed);
- ``GET /lti/jwks``: the tool's public keys; ``GET /lti/assets/NAME``: the pages' stylesheet;
- ``GET /lti/register/<secret>``: Moodle's dynamic registration (:mod:`.registration`);
- ``GET /teacher/lti``: the teacher's grades (sent, or waiting and why), the course's roster, and
  ``POST /teacher/lti/send-grades`` (the grades themselves: :mod:`.grades`).

Every other path belongs to the live class of the activity this browser launched last (the
``attn_lti_link`` cookie): its app, :func:`attn_tutor.live.app.make_app`, unchanged, so its pages,
scripts and checks are the live class's own. A refusal is a 4xx page (or JSON under ``/api`` and
``/teacher/api``) with a sentence in the session's language.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from attn_tutor.core.i18n import language, t
from attn_tutor.live import pages
from attn_tutor.live.app import Speaking, make_app
from attn_tutor.live.auth import STUDENT_COOKIE, TEACHER_COOKIE, is_teacher
from attn_tutor.live.csrf import CSRF_COOKIE, csrf_of, with_csrf
from attn_tutor.live.liveclass import LiveClass, checked_name
from attn_tutor.live.lti import keys
from attn_tutor.live.lti.grades import AGS, NRPS, Grades
from attn_tutor.live.lti.http import PlatformError
from attn_tutor.live.lti.registration import register_with
from attn_tutor.live.lti.tokens import DL, LTI, KeySets, verified
from attn_tutor.live.marks import RequestError
from attn_tutor.problems.load import load_problem_set, packaged_sets
from attn_tutor.render import templating
from attn_tutor.sessions.lti import STATE_LIFE, DeepLink, Handoff, Link, Login, LtiStore, Member, activity_target
from attn_tutor.sessions.opening import open_store
from attn_tutor.sessions.store import MODES, LiveError

LINK_COOKIE = "attn_lti_link"
STATE_COOKIE = "attn_lti_state"
TEACHER_ROLES = ("Instructor", "Administrator", "ContentDeveloper", "TeachingAssistant")
FORM_LIMIT = 64 * 1024  # bytes of a launch's form (an id_token is a few kilobytes)
PATHS = {"login_url": "/lti/login", "launch_url": "/lti/launch", "jwks_url": "/lti/jwks",
         "deep_linking_url": "/lti/deep-link", "registration_url": "/lti/register/"}  # fmt: skip


def tool_urls(public_url: str, registration_secret: str = "") -> dict[str, str]:
    """The tool's URLs a platform is given (``lti config``), under ``public_url``; the registration
    URL carries the store's secret (whoever has it may register a platform: an administrator)."""
    base = public_url.rstrip("/")
    found = {key: base + path for key, path in PATHS.items()}
    found["registration_url"] += registration_secret
    return found


def link_id(issuer: str, deployment_id: str, resource_link_id: str) -> str:
    """The tool's id of a resource link: hexadecimal (a file name, a schema name), the same at every launch."""
    return hashlib.sha256(f"{issuer}\n{deployment_id}\n{resource_link_id}".encode()).hexdigest()[:24]


def is_teacher_role(roles: object) -> bool:
    """Whether the launch's roles claim makes the user a teacher here (instructor, administrator, ...)."""
    if not isinstance(roles, list):
        return False
    return any(isinstance(role, str) and role.rsplit("#", 1)[-1].rsplit("/", 1)[-1] in TEACHER_ROLES for role in roles)


class Activities:
    """The live classes, one a resource link, each opened at its first need and kept (the store's
    session, its pages made once): :meth:`app` gives a link's app, opening it in a worker thread."""

    def __init__(self, store: LtiStore, *, lang: str, public_url: str) -> None:
        self.store, self.lang, self.public_url = store, lang, public_url
        self._apps: dict[str, Starlette] = {}
        self._lock = threading.Lock()

    def known(self, link: str) -> Starlette | None:
        return self._apps.get(link)

    def open(self, link: Link, *, mode: str | None = None, problem: str | None = None) -> Starlette:
        """The live class of ``link``, opened (made, at its first launch: ``mode`` and, when named,
        only ``problem`` open) unless it is open already. Blocking: call it in a worker thread."""
        with self._lock:
            found = self._apps.get(link.link)
            if found is not None:
                return found
            problem_set = load_problem_set(link.set_ref)
            self.store.make_place(link.link)
            session = open_store(activity_target(self.store.target, link.link), problem_set, create=True)
            with session.starting():
                fresh = session.teacher_secret(secrets.token_urlsafe(24))
                if session.changes() == 0:  # made now: the deep link's mode and problem
                    if mode in MODES and mode != "practice":
                        session.set_mode(mode)
                    if problem is not None and problem in {p.id for p in problem_set.problems}:
                        for other in problem_set.problems:
                            if other.id != problem:
                                session.set_open(other.id, False)
            app = make_app(session, problem_set, lang=self.lang, secret=fresh, student_url=self.public_url.rstrip("/") + "/",
                           set_name=link.set_ref, grades_url="/teacher/lti")  # fmt: skip
            self._apps[link.link] = app
            return app

    def close(self) -> None:
        with self._lock:
            for app in self._apps.values():
                app.state.live.store.close()
            self._apps.clear()


# --- pages -----------------------------------------------------------------------------


def _headers(nonce: str | None = None, form_to: str | None = None) -> dict[str, str]:
    """An LTI page's headers: no frame-ancestors limit (the platform frames the launch and the deep
    link), scripts only by ``nonce``, forms only to this site and ``form_to``'s origin."""
    forms = "'self'"
    if form_to:
        parts = urlsplit(form_to)
        forms += f" {parts.scheme}://{parts.netloc}"
    script = f"'nonce-{nonce}'" if nonce else "'none'"
    policy = f"default-src 'none'; style-src 'self'; img-src 'self'; script-src {script}; form-action {forms}; base-uri 'none'"
    return {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store"}  # fmt: skip


def _page(kind: str, status: int = 200, *, nonce: str | None = None, form_to: str | None = None, **context: Any) -> HTMLResponse:
    lang = "ko" if language() == "ko" else "en"
    body = templating.render("attn_tutor.live", "lti.html", {"kind": kind, "lang": lang, "t": lambda key, **a: t(key, **a),
                                                             "nonce": nonce, **context})  # fmt: skip
    return HTMLResponse(body, status_code=status, headers=_headers(nonce, form_to))


def _http_error(request: Request, error: HTTPException) -> Response:
    if error.status_code == 405:
        return _refused(request, RequestError(405, "live.error.method", method=request.method[:10], path=request.url.path[:100]))
    if not request.url.path.startswith("/lti/"):  # a live class's path, in a browser that launched none
        return _refused(request, RequestError(404, "lti.error.no_activity"))
    return _refused(request, RequestError(404, "live.error.not_found", path=request.url.path[:100]))


def _refused(request: Request, error: RequestError) -> Response:
    said = error.messages()[0]
    if request.url.path.startswith(("/api/", "/teacher/api/", "/teacher/events")):
        return JSONResponse({"error": said}, status_code=error.status, headers=_headers())
    return _page("message", error.status, message=said)


# --- the routes ------------------------------------------------------------------------


class Tool:
    """What the LTI routes share: the store, the key sets, the activities, the public URL."""

    def __init__(self, store: LtiStore, *, lang: str, public_url: str) -> None:
        self.store, self.lang = store, lang
        self.public_url = public_url.rstrip("/")
        self.urls = tool_urls(public_url, store.registration_secret())
        self.https = public_url.startswith("https://")
        self.key_sets = KeySets()
        self.activities = Activities(store, lang=lang, public_url=public_url)
        self.grades = Grades(store, self.live_of)

    def live_of(self, link: str) -> LiveClass | None:
        """An open activity's live class (None: not opened in this process yet)."""
        app = self.activities.known(link)
        return None if app is None else app.state.live

    def close(self) -> None:
        """The grades' thread stopped (what it had not sent stays queued), every activity's session closed."""
        self.grades.stop()
        self.activities.close()

    def cookie(self, response: Response, name: str, value: str, *, path: str = "/", max_age: int | None = None,
               samesite: str = "lax") -> None:  # fmt: skip
        """An HttpOnly cookie, ``Secure`` over HTTPS. ``samesite="none"`` (the login's state, which must
        come back on the platform's cross-site post) only over HTTPS, where browsers take it; ``Lax``
        over plain HTTP (a laptop, the tests). The live class's own cookies keep its attributes: they
        are set by ``/lti/continue``, in the browser's own window, and sent by its own pages."""
        if samesite == "none" and not self.https:
            samesite = "lax"
        response.set_cookie(name, value, path=path, max_age=max_age, httponly=True, secure=self.https,
                            samesite=samesite)  # type: ignore[arg-type]  # (one of Starlette's three words)

    async def form(self, request: Request) -> Mapping[str, Any]:
        """A posted form (``application/x-www-form-urlencoded``, as platforms post and the pages send):
        each field's first value; at most :data:`FORM_LIMIT` bytes (python-multipart is not needed)."""
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_LIMIT:
                raise RequestError(413, "lti.error.launch_fields")
        try:
            fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=50)
        except (UnicodeDecodeError, ValueError):
            raise RequestError(400, "lti.error.launch_fields") from None
        return {name: values[0] for name, values in fields.items()}

    async def login(self, request: Request) -> Response:
        given = request.query_params if request.method == "GET" else await self.form(request)
        fields = {name: given.get(name) for name in ("iss", "login_hint", "target_link_uri", "client_id",
                                                     "lti_message_hint", "lti_deployment_id")}  # fmt: skip
        missing = [name for name in ("iss", "login_hint", "target_link_uri") if not isinstance(fields[name], str) or not fields[name]]
        if missing:
            raise RequestError(400, "lti.error.login_fields", fields=", ".join(missing))
        issuer = str(fields["iss"])
        platforms = await run_in_threadpool(self.store.platforms, issuer)
        if not platforms:
            raise RequestError(400, "lti.error.unknown_issuer", issuer=issuer[:200])
        client_id = fields["client_id"]
        if client_id is None and len(platforms) == 1:
            client_id = platforms[0].client_id
        platform = next((p for p in platforms if p.client_id == client_id), None)
        if platform is None:
            raise RequestError(400, "lti.error.unknown_client", client_id=str(client_id)[:100], issuer=issuer[:200])
        deployment = fields["lti_deployment_id"]
        if deployment is not None and deployment not in platform.deployments:
            raise RequestError(403, "lti.error.unknown_deployment", deployment_id=str(deployment)[:100], issuer=issuer[:200])
        target = str(fields["target_link_uri"])
        if not target.startswith(self.public_url + "/"):
            raise RequestError(400, "lti.error.target", target=target[:200])
        redirect = target if target in (self.urls["launch_url"], self.urls["deep_linking_url"]) else self.urls["launch_url"]
        login = Login(secrets.token_urlsafe(32), secrets.token_urlsafe(32), issuer, platform.client_id)
        await run_in_threadpool(self.store.begin_login, login)
        query = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
                 "client_id": platform.client_id, "redirect_uri": redirect, "login_hint": fields["login_hint"],
                 "state": login.state, "nonce": login.nonce}  # fmt: skip
        if fields["lti_message_hint"] is not None:
            query["lti_message_hint"] = fields["lti_message_hint"]
        sep = "&" if "?" in platform.auth_url else "?"
        response = RedirectResponse(platform.auth_url + sep + urlencode(query), status_code=302, headers=_headers())
        self.cookie(response, STATE_COOKIE, login.state, path="/lti/", max_age=int(STATE_LIFE), samesite="none")
        return response

    async def launch(self, request: Request) -> Response:
        form = await self.form(request)
        token, state = form.get("id_token"), form.get("state")
        if not isinstance(token, str) or not isinstance(state, str) or not token or not state:
            raise RequestError(400, "lti.error.launch_fields")
        bound = request.cookies.get(STATE_COOKIE)
        if bound is not None and bound != state:  # the cookie came back, and it is another login's
            raise RequestError(401, "lti.error.state_cookie")
        login = await run_in_threadpool(self.store.take_login, state)
        if login is None:
            raise RequestError(401, "lti.error.state")
        platform, claims = await verified(self.store, self.key_sets, token, login)
        teacher = is_teacher_role(claims.get(LTI + "roles"))
        deployment: str = claims[LTI + "deployment_id"]
        if claims[LTI + "message_type"] == "LtiDeepLinkingRequest":
            return await self.deep_link_form(claims, platform.client_id, deployment, teacher)
        resource = claims.get(LTI + "resource_link")
        if not isinstance(resource, dict) or not isinstance(resource.get("id"), str):
            raise RequestError(400, "lti.error.claim", claim="resource_link")
        found_custom = claims.get(LTI + "custom")
        custom: dict = found_custom if isinstance(found_custom, dict) else {}
        link_key = link_id(login.issuer, deployment, resource["id"])
        known = await run_in_threadpool(self.store.link, link_key)
        if known is None:
            set_ref = custom.get("set")
            if not isinstance(set_ref, str) or not set_ref:
                raise RequestError(400, "lti.error.no_set")
            if set_ref not in packaged_sets():
                raise RequestError(400, "lti.error.unknown_set", set=set_ref[:60], sets=", ".join(packaged_sets()))
            title = str(resource["title"]) if isinstance(resource.get("title"), str) else set_ref
            new = Link(link_key, login.issuer, platform.client_id, deployment, resource["id"], set_ref, title[:200])
            known = await run_in_threadpool(self.store.find_or_add_link, new)
        mode = custom.get("mode") if isinstance(custom.get("mode"), str) else None
        problem = custom.get("problem") if isinstance(custom.get("problem"), str) else None
        found_link: Link = known
        app = await run_in_threadpool(lambda: self.activities.open(found_link, mode=mode, problem=problem))
        live: LiveClass = app.state.live
        endpoint = claims.get(AGS)
        if isinstance(endpoint, dict) and (isinstance(endpoint.get("lineitems"), str) or isinstance(endpoint.get("lineitem"), str)):
            scopes = [s for s in endpoint.get("scope") or [] if isinstance(s, str)]
            lineitems, lineitem = endpoint.get("lineitems"), endpoint.get("lineitem")
            await run_in_threadpool(self.store.set_grading, found_link.link, lineitems if isinstance(lineitems, str) else None,
                                    lineitem if isinstance(lineitem, str) else None, scopes)  # fmt: skip
        roster = claims.get(NRPS)
        if isinstance(roster, dict) and isinstance(roster.get("context_memberships_url"), str):
            await run_in_threadpool(self.store.set_roster, found_link.link, roster["context_memberships_url"])
            if teacher:  # the course's roster kept for grade --lti-roster, read meanwhile (the launch waits for no platform)
                threading.Thread(target=self.keep_members, args=(found_link.link,), name="attn-tutor lti roster", daemon=True).start()
        if teacher:
            handoff = Handoff(secrets.token_urlsafe(32), found_link.link, "teacher", "")
        else:
            device = "lti:" + hashlib.sha256(f"{login.issuer}\n{claims['sub']}".encode()).hexdigest()[:40]
            student = await run_in_threadpool(live.store.join, _name(claims), device)
            await run_in_threadpool(self.store.add_learner, found_link.link, student.id, str(claims["sub"]))
            handoff = Handoff(secrets.token_urlsafe(32), found_link.link, "student", student.token)
        await run_in_threadpool(self.store.begin_handoff, handoff)
        nonce = secrets.token_urlsafe(16)
        response = _page("landing", nonce=nonce, target=f"/lti/continue/{handoff.token}")
        response.delete_cookie(STATE_COOKIE, path="/lti/")
        return response

    async def continue_launch(self, request: Request) -> Response:
        """``GET /lti/continue/<token>``: the launch's cookies set here, in the browser's own window (a
        first-party response, whatever the platform's frame was allowed), once; then the live class's page."""
        handoff = await run_in_threadpool(self.store.take_handoff, request.path_params["token"])
        if handoff is None:
            raise RequestError(401, "lti.error.continue")
        link = await run_in_threadpool(self.store.link, handoff.link)
        if link is None:
            raise RequestError(404, "lti.error.no_activity")
        live: LiveClass = (await self.app_of(link)).state.live
        response = RedirectResponse("/teacher" if handoff.kind == "teacher" else "/", status_code=303, headers=_headers())
        if handoff.kind == "teacher":
            self.cookie(response, TEACHER_COOKIE, live.secret, path="/teacher", samesite="strict")
        else:
            self.cookie(response, STUDENT_COOKIE, handoff.value, max_age=7 * 24 * 3600)
        self.cookie(response, LINK_COOKIE, link.link, max_age=7 * 24 * 3600)
        return response

    async def deep_link_form(self, claims: dict, client_id: str, deployment: str, teacher: bool) -> Response:
        if not teacher:
            raise RequestError(403, "lti.error.deep_link_role")
        settings = claims.get(DL + "deep_linking_settings")
        if not isinstance(settings, dict) or not isinstance(settings.get("deep_link_return_url"), str):
            raise RequestError(400, "lti.error.claim", claim="deep_linking_settings")
        data = settings.get("data") if isinstance(settings.get("data"), str) else None
        token = secrets.token_urlsafe(32)
        await run_in_threadpool(self.store.begin_deep_link,
                                DeepLink(token, claims["iss"], client_id, deployment, settings["deep_link_return_url"], data))  # fmt: skip
        return _page("deep_link", token=token, sets=packaged_sets(), modes=MODES)

    async def deep_link_respond(self, request: Request) -> Response:
        form = await self.form(request)
        token = form.get("token")
        if not isinstance(token, str):
            raise RequestError(401, "lti.error.deep_link_gone")
        request_ = await run_in_threadpool(self.store.deep_link, token)
        if request_ is None:
            raise RequestError(401, "lti.error.deep_link_gone")
        set_ref, problem, mode = form.get("set"), str(form.get("problem") or "").strip(), form.get("mode") or "practice"
        if set_ref not in packaged_sets():
            raise RequestError(400, "lti.error.unknown_set", set=str(set_ref)[:60], sets=", ".join(packaged_sets()))
        if mode not in MODES:
            raise RequestError(400, "live.error.bad_mode", mode=str(mode)[:40])
        problem_set = await run_in_threadpool(load_problem_set, set_ref)
        ids = [p.id for p in problem_set.problems]
        if problem and problem not in ids:
            raise RequestError(400, "lti.error.unknown_problem", problem=problem[:60], set=set_ref, ids=", ".join(ids))
        if await run_in_threadpool(lambda: self.store.deep_link(token, take=True)) is None:  # taken meanwhile: sent once only
            raise RequestError(401, "lti.error.deep_link_gone")
        custom = {"set": set_ref, "mode": mode} | ({"problem": problem} if problem else {})
        title = t("lti.dl.item_title", set=set_ref, problem=problem) if problem else t("lti.dl.item_title_set", set=set_ref)
        claims = {
            "iss": request_.client_id, "aud": request_.issuer, "nonce": secrets.token_urlsafe(16),
            LTI + "message_type": "LtiDeepLinkingResponse", LTI + "version": "1.3.0", LTI + "deployment_id": request_.deployment_id,
            DL + "content_items": [{"type": "ltiResourceLink", "title": title, "url": self.urls["launch_url"], "custom": custom}],
        }  # fmt: skip
        if request_.data is not None:
            claims[DL + "data"] = request_.data
        signed = await run_in_threadpool(keys.sign, self.store, claims)
        nonce = secrets.token_urlsafe(16)
        return _page("deep_link_return", nonce=nonce, form_to=request_.return_url, return_url=request_.return_url, jwt=signed)

    async def app_of(self, link: Link):
        """The activity's live app: the one this process has open, or opened now (off the event loop)."""
        app = self.activities.known(link.link)
        return app if app is not None else await run_in_threadpool(self.activities.open, link)

    async def teacher_live(self, request: Request) -> tuple[Link, LiveClass]:
        """The activity of the teacher asking (its link cookie and the teacher's cookie), or a refusal (403)."""
        key = request.cookies.get(LINK_COOKIE, "")
        link = await run_in_threadpool(self.store.link, key) if key else None
        if link is None:
            raise RequestError(404, "lti.error.no_activity")
        live: LiveClass = (await self.app_of(link)).state.live
        if not is_teacher(request, live.secret):
            raise RequestError(403, "live.error.teacher")
        return link, live

    async def grades_page(self, request: Request) -> Response:
        """``GET /teacher/lti``: each learner's score as sent or waiting (and why), the course's roster
        (who never opened the activity included), and "send grades" (``data-lti-send-grades``)."""
        link, live = await self.teacher_live(request)
        rows, members, roster_error = await run_in_threadpool(self.grades_of, link, live)
        csrf = csrf_of(request)
        response = _page("grades", rows=rows, members=members, roster_error=roster_error, csrf=csrf[0], title=link.title)
        return with_csrf(response, csrf)

    def grades_of(self, link: Link, live: LiveClass) -> tuple[list[dict], list[dict] | None, str | None]:
        """What the grades page shows (blocking: the store, and the platform's roster)."""
        learners = self.store.learners(link.link)
        names = {learners[student.id]: student.name for student, _n, _score in live.store.roster() if student.id in learners}
        waiting = self.store.queued_subs(link.link)
        rows = [{"name": names.get(score.sub, score.sub), "score": f"{score.given:g} / {score.maximum:g}",
                 "state": "waiting" if score.sub in waiting else "sent", "error": score.error}
                for score in self.store.scores(link.link)]  # fmt: skip
        try:
            found = self.grades.members(link.link)
        except PlatformError as error:
            return rows, None, t("lti.grades.roster_failed", reason=str(error)[:200])
        members = None
        if found is not None:
            kept = _members(found)
            self.store.set_members(link.link, kept)  # the course's roster, for grade --lti-roster
            members = [{"name": m.name or m.sub, "opened": m.sub in names} for m in kept if m.learner]
        return rows, members, None

    def keep_members(self, link: str) -> None:
        """The course's roster of ``link`` read from the platform and kept (an instructor's launch: in a
        thread of its own); a platform that refuses or cannot be reached leaves the roster kept before."""
        try:
            found = self.grades.members(link)
            if found is not None:
                self.store.set_members(link, _members(found))
        except (PlatformError, LiveError):
            return

    async def send_grades(self, request: Request) -> Response:
        """``POST /teacher/lti/send-grades``: every learner's score queued again; the sender posts them."""
        link, _live = await self.teacher_live(request)
        form = await self.form(request)
        cookie = request.cookies.get(CSRF_COOKIE, "")
        if not cookie or not hmac.compare_digest(cookie.encode("utf-8", "replace"), str(form.get("csrf", "")).encode("utf-8", "replace")):
            raise RequestError(403, "live.error.csrf")
        await run_in_threadpool(self.store.queue_again, link.link)
        return RedirectResponse("/teacher/lti", status_code=303, headers=_headers())

    async def jwks(self, request: Request) -> Response:
        found = await run_in_threadpool(keys.public_jwks, self.store)
        return JSONResponse(found, headers={"Cache-Control": "max-age=300", "X-Content-Type-Options": "nosniff"})

    async def register(self, request: Request) -> Response:
        """LTI Dynamic Registration (Moodle: an administrator pastes ``registration_url``): the platform's
        OpenID configuration read, the tool registered with it, the platform registered here."""
        secret = await run_in_threadpool(self.store.registration_secret)
        if not hmac.compare_digest(request.path_params["secret"].encode("utf-8", "replace"), secret.encode()):
            raise RequestError(403, "lti.error.register_key")
        where = request.query_params.get("openid_configuration")
        if not where or not where.startswith(("https://", "http://")):
            raise RequestError(400, "lti.error.register_fields")
        registered = await run_in_threadpool(register_with, self.store, self.urls, self.public_url, where,
                                             request.query_params.get("registration_token"))  # fmt: skip
        nonce = secrets.token_urlsafe(16)
        return _page("registered", nonce=nonce, message=t("lti.register.done", **registered))

    async def asset(self, request: Request) -> Response:
        found = pages.asset(request.path_params["name"]) if request.path_params["name"].endswith(".css") else None
        if found is None:
            raise RequestError(404, "lti.error.no_activity")
        return Response(found[0], media_type=found[1], headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


def is_learner(roles: object) -> bool:
    """Whether a roster's (or a launch's) roles make the member a learner."""
    return isinstance(roles, list) and any(isinstance(r, str) and r.rsplit("#", 1)[-1].rsplit("/", 1)[-1] == "Learner" for r in roles)


def _members(found: list[dict]) -> list[Member]:
    """The course's members as the platform listed them (Names and Role Provisioning), as the store keeps them."""
    return [Member(m["user_id"], _text(m.get("name")) or _joined(m), _text(m.get("email")), is_learner(m.get("roles"))) for m in found]


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _joined(member: dict) -> str:
    """A roster member's name from its given and family names (NRPS's ``name`` missing)."""
    return " ".join(part for part in (_text(member.get("given_name")), _text(member.get("family_name"))) if part)


def _name(claims: dict) -> str:
    """The learner's name as the platform gives it (``name``, else given and family names), else their ``sub``."""
    given = claims.get("name")
    if not isinstance(given, str) or not given.strip():
        given = " ".join(part for part in (claims.get("given_name"), claims.get("family_name")) if isinstance(part, str))
    try:
        return checked_name(given)
    except RequestError:
        return checked_name(str(claims["sub"])[: pages.NAME_LIMIT])


class ByActivity:
    """The server's front: ``/lti/…`` to the tool's own routes; every other path to the live class of
    the activity the browser's ``attn_lti_link`` cookie names (opened again after a restart), or, with
    none, to the tool's page saying to open the activity from the course."""

    def __init__(self, tool_app: ASGIApp, tool: Tool) -> None:
        self.tool_app, self.tool = tool_app, tool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith(("/lti/", "/teacher/lti")) or path == "/lti":
            await self.tool_app(scope, receive, send)
            return
        app = None
        link_key = Request(scope).cookies.get(LINK_COOKIE)
        if link_key and len(link_key) == 24 and all(c in "0123456789abcdef" for c in link_key):
            app = self.tool.activities.known(link_key)
            if app is None:
                link = await run_in_threadpool(self.tool.store.link, link_key)
                if link is not None:
                    app = await run_in_threadpool(self.tool.activities.open, link)
        await (app or self.tool_app)(scope, receive, send)


def make_lti_app(store: LtiStore, *, lang: str, public_url: str) -> ByActivity:
    """The LTI tool around an open :class:`LtiStore` (its signing key made now if it has none),
    its URLs under ``public_url`` (what the platforms were given: ``lti config``)."""
    keys.ensure_key(store)
    tool = Tool(store, lang=lang, public_url=public_url)
    tool.grades.start()
    routes = [
        Route("/lti/login", tool.login, methods=["GET", "POST"]),
        Route("/lti/launch", tool.launch, methods=["POST"]),
        Route("/lti/deep-link", tool.launch, methods=["POST"]),
        Route("/lti/continue/{token}", tool.continue_launch, methods=["GET"]),
        Route("/lti/deep-link/respond", tool.deep_link_respond, methods=["POST"]),
        Route("/lti/jwks", tool.jwks, methods=["GET"]),
        Route("/lti/register/{secret}", tool.register, methods=["GET"]),
        Route("/lti/assets/{name}", tool.asset, methods=["GET"]),
        Route("/teacher/lti", tool.grades_page, methods=["GET"]),
        Route("/teacher/lti/send-grades", tool.send_grades, methods=["POST"]),
    ]
    # Starlette types every handler as taking any Exception; this one is registered for its own class only
    app = Starlette(routes=routes, middleware=[Middleware(Speaking, lang=lang)], exception_handlers={RequestError: _refused, HTTPException: _http_error})  # type: ignore[dict-item]
    app.state.tool = tool
    return ByActivity(app, tool)
