"""A course platform of the tests' own (an LMS, as far as LTI 1.3 goes), and a browser without a browser.

:class:`Platform` is a small Starlette app on 127.0.0.1 (a port of the system's choice): its RSA key
and JWKS (``/jwks``), an OIDC authorisation endpoint (``/auth``) that answers the tool's login redirect
as Moodle and Canvas do, with a page whose form posts the signed ``id_token`` and ``state`` back to the
tool by itself, and a deep-linking return (``/deep-link-return``) that keeps what the tool sent. What
the next launch carries is :attr:`Platform.launch`: a user, roles, a message type, custom parameters,
and ways to spoil it (``aud``, ``exp``, ``kid``, ``deployment_id``, the key that signs).

:class:`Running` serves an ASGI app with uvicorn in a thread on a socket bound before the app is
made (so the app can be told its own address); :class:`Browser` follows redirects, keeps cookies,
and submits the forms a page would submit by itself (its ``<form>`` and a ``<meta refresh>``).
"""

from __future__ import annotations

import html
import html.parser
import http.cookiejar
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import jwt
import uvicorn
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
CLIENT_ID = "tool-client-1"
DEPLOYMENT_ID = "deployment-1"

_KEYS: dict[str, Any] = {}


def platform_key(name: str = "platform-key-1"):
    """An RSA key made once a test process (2048 bits take a moment)."""
    if name not in _KEYS:
        _KEYS[name] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return _KEYS[name]


class Running:
    """``make(base_url)``'s app served by uvicorn in a thread, on 127.0.0.1 and a port of the system's choice."""

    def __init__(self, make) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.app = make(self.url)
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@dataclass
class Launch:
    """What the platform's next ``id_token`` says (and how it is spoiled, for the refusals)."""

    sub: str = "user-1"
    name: str | None = "김민지"
    roles: list[str] = field(default_factory=lambda: [LEARNER])
    message_type: str = "LtiResourceLinkRequest"
    resource_link: str = "resource-link-1"
    custom: dict[str, str] = field(default_factory=lambda: {"set": "ch13"})
    aud: str | None = None  # None: the client id
    exp_in: int = 300  # seconds from now
    iat_ago: int = 0
    kid: str = "platform-key-1"
    key_name: str = "platform-key-1"  # the key that signs (another: a signature the JWKS does not verify)
    deployment_id: str = DEPLOYMENT_ID
    issuer: str | None = None  # None: the platform's own
    nonce: str | None = None  # None: the login's
    ags: bool = False  # the Assignment and Grade Services claim (a lineitems URL, no line item of the launch's own)
    nrps: bool = False  # the Names and Role Provisioning claim (the course's memberships URL)


class Platform:
    """The tests' LMS: see the module's docstring. ``tokens``: every id_token it answered with."""

    def __init__(self) -> None:
        self.launch = Launch()
        self.tokens: list[str] = []
        self.returned: list[str] = []  # the deep-linking responses' JWTs
        self.logins: list[dict[str, str]] = []
        self.down = False  # True: the token and AGS endpoints answer 503 (the platform refuses, or is down)
        self.tool_jwks: str | None = None  # the tool's JWKS URL: the client assertions checked against it
        self.lineitems: list[dict[str, Any]] = []
        self.scores: list[dict[str, Any]] = []
        self.token_requests = 0
        self.registrations: list[dict[str, Any]] = []  # the tools' dynamic registration requests
        self.running = Running(self._app)
        self.url = self.running.url

    def _app(self, base: str) -> Starlette:
        return Starlette(routes=[
            Route("/jwks", self.jwks), Route("/auth", self.auth), Route("/deep-link-return", self.deep_link_return, methods=["POST"]),
            Route("/token", self.token, methods=["POST"]), Route("/lineitems", self.lineitems_route, methods=["GET", "POST"]),
            Route("/lineitems/{n:int}/scores", self.score, methods=["POST"]),
            Route("/memberships", self.memberships),
            Route("/.well-known/openid-configuration", self.openid_configuration), Route("/register", self.register, methods=["POST"]),
        ])  # fmt: skip

    def stop(self) -> None:
        self.running.stop()

    async def jwks(self, request: Request) -> Response:
        jwk = RSAAlgorithm.to_jwk(platform_key().public_key(), as_dict=True)
        return JSONResponse({"keys": [{**jwk, "kid": "platform-key-1", "alg": "RS256", "use": "sig"}]})

    def id_token(self, login: dict[str, str]) -> str:
        launch, now = self.launch, int(time.time())
        claims: dict[str, Any] = {
            "iss": launch.issuer or self.url, "aud": launch.aud or CLIENT_ID, "sub": launch.sub,
            "exp": now + launch.exp_in, "iat": now - launch.iat_ago, "nonce": launch.nonce or login["nonce"],
            LTI + "message_type": launch.message_type, LTI + "version": "1.3.0", LTI + "deployment_id": launch.deployment_id,
            LTI + "target_link_uri": login["redirect_uri"], LTI + "roles": launch.roles, LTI + "custom": launch.custom,
            LTI + "context": {"id": "course-1", "title": "Deep learning"},
        }  # fmt: skip
        if launch.name is not None:
            claims["name"] = launch.name
        if launch.nrps:
            claims["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"] = {
                "context_memberships_url": self.url + "/memberships", "service_versions": ["2.0"]}
        if launch.ags:
            claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = {
                "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem", "https://purl.imsglobal.org/spec/lti-ags/scope/score"],
                "lineitems": self.url + "/lineitems"}
        if launch.message_type == "LtiResourceLinkRequest":
            claims[LTI + "resource_link"] = {"id": launch.resource_link, "title": "Attention by hand"}
        else:
            claims[DL + "deep_linking_settings"] = {"deep_link_return_url": self.url + "/deep-link-return",
                                                     "accept_types": ["ltiResourceLink"], "data": "opaque-42"}  # fmt: skip
        token = jwt.encode(claims, platform_key(launch.key_name), algorithm="RS256", headers={"kid": launch.kid})
        self.tokens.append(token)
        return token

    async def auth(self, request: Request) -> Response:
        """The authorisation endpoint: the login redirect's parameters checked, then a page that posts
        the id_token back to the tool's redirect_uri by itself (as real platforms do)."""
        login = dict(request.query_params)
        self.logins.append(login)
        for name, value in (("scope", "openid"), ("response_type", "id_token"), ("response_mode", "form_post"), ("client_id", CLIENT_ID)):
            if login.get(name) != value:
                return Response(f"bad {name}", status_code=400)
        token = self.id_token(login)
        page = (
            '<!DOCTYPE html><html lang="en"><head><title>platform</title></head><body>'
            f'<form id="f" method="post" action="{_esc(login["redirect_uri"])}">'
            f'<input type="hidden" name="id_token" value="{_esc(token)}"><input type="hidden" name="state" value="{_esc(login["state"])}">'
            '<button type="submit">Continue</button></form><script>document.getElementById("f").submit()</script></body></html>'
        )
        return HTMLResponse(page)

    async def deep_link_return(self, request: Request) -> Response:
        form = urllib.parse.parse_qs((await request.body()).decode("utf-8"))
        self.returned.append(form["JWT"][0])
        return HTMLResponse('<!DOCTYPE html><html lang="en"><head><title>platform</title></head><body><p data-returned>added</p></body></html>')

    async def token(self, request: Request) -> Response:
        """The token endpoint: the tool's client assertion checked against its JWKS (iss = sub = the client id, aud = this URL)."""
        if self.down:
            return Response("down", status_code=503)
        self.token_requests += 1
        form = urllib.parse.parse_qs((await request.body()).decode("utf-8"))
        assertion = form["client_assertion"][0]
        assert form["grant_type"] == ["client_credentials"]
        keys = jwt.PyJWKSet.from_dict(json.loads(urllib.request.urlopen(self.tool_jwks, timeout=10).read()))
        claims = jwt.decode(assertion, keys[jwt.get_unverified_header(assertion)["kid"]], algorithms=["RS256"], audience=self.url + "/token")
        if claims["iss"] != CLIENT_ID or claims["sub"] != CLIENT_ID:
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        return JSONResponse({"access_token": "token-" + claims["jti"], "token_type": "Bearer", "expires_in": 3600})

    def _authorised(self, request: Request) -> bool:
        return request.headers.get("authorization", "").startswith("Bearer token-")

    async def lineitems_route(self, request: Request) -> Response:
        if self.down:
            return Response("down", status_code=503)
        if not self._authorised(request):
            return Response("no token", status_code=401)
        if request.method == "GET":
            wanted = request.query_params
            found = [i for i in self.lineitems if i["resourceLinkId"] == wanted.get("resource_link_id") and i["tag"] == wanted.get("tag")]
            return JSONResponse(found)
        item = json.loads(await request.body())
        item["id"] = f"{self.url}/lineitems/{len(self.lineitems) + 1}"
        self.lineitems.append(item)
        return JSONResponse(item, status_code=201)

    async def score(self, request: Request) -> Response:
        if self.down:
            return Response("down", status_code=503)
        if not self._authorised(request) or request.headers.get("content-type") != "application/vnd.ims.lis.v1.score+json":
            return Response("refused", status_code=401)
        self.scores.append({**json.loads(await request.body()), "lineitem": request.path_params["n"]})
        return Response(status_code=204)

    async def memberships(self, request: Request) -> Response:
        """The course's roster: the learner the tests launch, one who never opens the activity, and the teacher."""
        if self.down:
            return Response("down", status_code=503)
        if not self._authorised(request):
            return Response("no token", status_code=401)
        return JSONResponse({"id": self.url + "/memberships", "context": {"id": "course-1"}, "members": [
            {"user_id": "user-1", "name": "김민지", "roles": [LEARNER], "status": "Active"},
            {"user_id": "user-9", "name": "Never Came", "roles": [LEARNER], "status": "Active"},
            {"user_id": "teacher-1", "name": "Prof. Park", "roles": [INSTRUCTOR], "status": "Active"},
        ]}, media_type="application/vnd.ims.lti-nrps.v2.membershipcontainer+json")  # fmt: skip

    async def openid_configuration(self, request: Request) -> Response:
        return JSONResponse({"issuer": self.url, "authorization_endpoint": self.url + "/auth", "token_endpoint": self.url + "/token",
                             "jwks_uri": self.url + "/jwks", "registration_endpoint": self.url + "/register",
                             "https://purl.imsglobal.org/spec/lti-platform-configuration": {"product_family_code": "moodle"}})  # fmt: skip

    async def register(self, request: Request) -> Response:
        """Dynamic registration (as Moodle answers it): the registration token checked, a client id and a deployment given."""
        if request.headers.get("authorization") != "Bearer reg-token-1":
            return JSONResponse({"error": "invalid registration token"}, status_code=401)
        self.registrations.append(json.loads(await request.body()))
        return JSONResponse({**self.registrations[-1], "client_id": CLIENT_ID,
                             "https://purl.imsglobal.org/spec/lti-tool-configuration": {"deployment_id": DEPLOYMENT_ID}})  # fmt: skip

    def register_args(self, db: str) -> list[str]:
        """``attn-tutor lti add-platform``'s arguments for this platform."""
        return ["lti", "add-platform", "--db", db, "--issuer", self.url, "--client-id", CLIENT_ID, "--deployment-id", DEPLOYMENT_ID,
                "--auth-url", self.url + "/auth", "--token-url", self.url + "/token", "--jwks-url", self.url + "/jwks"]  # fmt: skip


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


class _Forms(html.parser.HTMLParser):
    """A page's forms (action, method, fields) and its meta refresh."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.refresh: str | None = None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "form":
            self.forms.append({"action": found.get("action", ""), "method": (found.get("method") or "get").lower(), "fields": {}})
        elif tag == "input" and self.forms and found.get("name"):
            if found.get("type") not in ("radio", "checkbox") or "checked" in found:
                self.forms[-1]["fields"][found["name"]] = found.get("value", "")
        elif tag == "option" and self.forms and "selected" in found:
            self.forms[-1]["fields"].setdefault("set", found.get("value", ""))
        elif tag == "meta" and (found.get("http-equiv") or "").lower() == "refresh":
            self.refresh = (found.get("content") or "").split("url=", 1)[-1]
        elif tag == "a" and "data-lti-continue" in found:  # the landing's link (its script follows it at once)
            self.refresh = found.get("href")


@dataclass
class Page:
    url: str
    status: int
    text: str
    headers: Any

    def forms(self) -> list[dict[str, Any]]:
        parser = _Forms()
        parser.feed(self.text)
        return parser.forms

    def refresh(self) -> str | None:
        parser = _Forms()
        parser.feed(self.text)
        return parser.refresh

    def said(self) -> str:
        """The page's text as a reader reads it (entities unescaped)."""
        return html.unescape(self.text)

    def json(self) -> Any:
        return json.loads(self.text)


class Browser:
    """Cookies kept, redirects followed, a page's own form submitted by :meth:`submit`."""

    def __init__(self) -> None:
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def open(self, url: str, data: dict[str, str] | None = None) -> Page:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body, headers={"Accept": "text/html"})
        try:
            with self.opener.open(request, timeout=30) as response:
                return Page(response.geturl(), response.status, response.read().decode("utf-8"), response.headers)
        except urllib.error.HTTPError as error:
            return Page(error.geturl(), error.code, error.read().decode("utf-8"), error.headers)

    def post_json(self, url: str, payload: dict, csrf: str) -> Page:
        """A JSON request as the live pages' scripts send one (the CSRF token in its header)."""
        request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})  # fmt: skip
        try:
            with self.opener.open(request, timeout=30) as response:
                return Page(response.geturl(), response.status, response.read().decode("utf-8"), response.headers)
        except urllib.error.HTTPError as error:
            return Page(error.geturl(), error.code, error.read().decode("utf-8"), error.headers)

    def submit(self, page: Page, changes: dict[str, str] | None = None) -> Page:
        """The page's first form sent as a browser sends it (its fields, with ``changes``)."""
        form = page.forms()[0]
        action = urllib.parse.urljoin(page.url, form["action"])
        fields = {**form["fields"], **(changes or {})}
        if form["method"] == "post":
            return self.open(action, fields)
        return self.open(action + "?" + urllib.parse.urlencode(fields))

    def follow(self, page: Page) -> Page:
        """Where the page leads by itself (a meta refresh, or the landing's link its script follows)."""
        target = page.refresh()
        assert target, page.text[:500]
        return self.open(urllib.parse.urljoin(page.url, target))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)
