"""A platform's ``id_token`` verified (PyJWT, RS256) against its JWKS, which is fetched in a worker
thread (never on the event loop), kept, and fetched again when a token names a ``kid`` it lacks
(the platform rotated its keys). Every refusal is a :class:`RequestError` with a sentence."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import jwt
from starlette.concurrency import run_in_threadpool

from attn_tutor.live.marks import RequestError
from attn_tutor.sessions.lti import Login, LtiStore, Platform

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
LEEWAY = 60  # seconds of clock skew allowed between the platform and this server (exp, iat)
JWKS_LIMIT = 256 * 1024  # bytes of a platform's key set at most
JWKS_TIMEOUT = 5.0  # seconds to fetch it
JWKS_AGAIN = 10.0  # seconds at least between two fetches of one key set for an unknown kid
MESSAGE_TYPES = ("LtiResourceLinkRequest", "LtiDeepLinkingRequest")


class KeySets:
    """The platforms' key sets, by URL: fetched once, again for an unknown ``kid`` (at most each :data:`JWKS_AGAIN` s)."""

    def __init__(self) -> None:
        self._sets: dict[str, tuple[float, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def _fetch(self, url: str) -> dict[str, Any]:
        request = urllib.request.Request(url, headers={"Accept": "application/json", "User-Agent": "attn-tutor"})
        try:
            with urllib.request.urlopen(request, timeout=JWKS_TIMEOUT) as response:  # noqa: S310 (the registered https URL)
                body = response.read(JWKS_LIMIT + 1)
            if len(body) > JWKS_LIMIT:
                raise ValueError(f"more than {JWKS_LIMIT} bytes")
            found = json.loads(body)
            keys = {key["kid"]: key for key in found["keys"] if isinstance(key, dict) and "kid" in key}
        except (OSError, ValueError, KeyError, TypeError, urllib.error.URLError) as error:
            raise RequestError(502, "lti.error.jwks", url=url[:200], reason=str(error)[:200]) from None
        with self._lock:
            self._sets[url] = (time.monotonic(), keys)
        return keys

    async def key(self, url: str, kid: str) -> jwt.PyJWK:
        with self._lock:
            fetched, keys = self._sets.get(url, (None, None))
        if keys is None or (kid not in keys and time.monotonic() - (fetched or 0) > JWKS_AGAIN):
            keys = await run_in_threadpool(self._fetch, url)
        if kid not in keys:
            raise RequestError(401, "lti.error.unknown_kid", kid=kid[:80])
        try:
            return jwt.PyJWK(keys[kid], algorithm="RS256")
        except jwt.PyJWTError as error:
            raise RequestError(502, "lti.error.jwks", url=url[:200], reason=str(error)[:200]) from None


async def verified(store: LtiStore, key_sets: KeySets, token: str, login: Login) -> tuple[Platform, dict[str, Any]]:
    """The platform and the claims of ``token``, the launch of ``login``, once every check passed:
    the issuer the login began with and registered, the signature by a ``kid`` of its JWKS, ``aud``
    (and ``azp``) this tool's client id, ``exp`` and ``iat`` within :data:`LEEWAY`, the nonce the
    login made and never used before, a registered deployment, LTI 1.3.0 and a message type answered here."""
    try:
        header = jwt.get_unverified_header(token)
        unverified = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError as error:
        raise RequestError(400, "lti.error.token", reason=str(error)[:200]) from None
    issuer = unverified.get("iss")
    if issuer != login.issuer:
        raise RequestError(401, "lti.error.issuer", issuer=str(issuer)[:200])
    platform = next((p for p in await run_in_threadpool(store.platforms, issuer) if p.client_id == login.client_id), None)
    if platform is None:
        raise RequestError(400, "lti.error.unknown_issuer", issuer=issuer[:200])
    if header.get("alg") != "RS256" or not isinstance(header.get("kid"), str):
        raise RequestError(400, "lti.error.token", reason="alg RS256 and a kid")
    key = await key_sets.key(platform.jwks_url, header["kid"])
    try:
        claims = jwt.decode(token, key, algorithms=["RS256"], audience=platform.client_id, issuer=issuer, leeway=LEEWAY,
                            options={"require": ["exp", "iat", "iss", "aud", "sub", "nonce"]})  # fmt: skip
    except jwt.ExpiredSignatureError:
        raise RequestError(401, "lti.error.expired") from None
    except jwt.InvalidAudienceError:
        raise RequestError(401, "lti.error.audience", client_id=platform.client_id[:100]) from None
    except jwt.InvalidSignatureError:
        raise RequestError(401, "lti.error.signature") from None
    except jwt.PyJWTError as error:
        raise RequestError(400, "lti.error.token", reason=str(error)[:200]) from None
    audience = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
    if ("azp" in claims or len(audience) > 1) and claims.get("azp") != platform.client_id:
        raise RequestError(401, "lti.error.audience", client_id=platform.client_id[:100])
    if claims["nonce"] != login.nonce:
        raise RequestError(401, "lti.error.nonce")
    if not await run_in_threadpool(store.use_nonce, issuer, claims["nonce"]):
        raise RequestError(401, "lti.error.replay")
    deployment = claims.get(LTI + "deployment_id")
    if deployment not in platform.deployments:
        raise RequestError(403, "lti.error.unknown_deployment", deployment_id=str(deployment)[:100], issuer=issuer[:200])
    if claims.get(LTI + "version") != "1.3.0":
        raise RequestError(400, "lti.error.version", version=str(claims.get(LTI + "version"))[:20])
    if claims.get(LTI + "message_type") not in MESSAGE_TYPES:
        raise RequestError(400, "lti.error.message_type", kind=str(claims.get(LTI + "message_type"))[:60])
    return platform, claims
