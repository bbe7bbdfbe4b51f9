"""LTI Dynamic Registration, the tool's side (Moodle: an administrator pastes ``registration_url``,
``GET /lti/register/<secret>``): the platform's OpenID configuration read, the tool registered with
it, the platform registered here."""

from __future__ import annotations

import urllib.parse

from attn_tutor.live.lti.grades import LINEITEM_SCOPE, SCORE_SCOPE
from attn_tutor.live.lti.http import PlatformError, call
from attn_tutor.live.marks import RequestError
from attn_tutor.sessions.lti import LtiStore


def register_with(store: LtiStore, urls: dict[str, str], public_url: str, configuration_url: str, token: str | None) -> dict[str, str]:
    """LTI Dynamic Registration, the tool's side: the platform's OpenID configuration read (its issuer
    the configuration URL's prefix), the tool's registration posted to its registration endpoint,
    the client id and deployment it answers registered here (:meth:`LtiStore.add_platform`)."""
    try:
        found = call("GET", configuration_url)
        issuer = found["issuer"]
        if not isinstance(issuer, str) or not configuration_url.startswith(issuer.rstrip("/") + "/"):
            raise PlatformError(f"issuer {str(issuer)[:100]} is not the prefix of {configuration_url[:200]}")
        endpoints = {name: found[name] for name in ("authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint")}
        scopes = [SCORE_SCOPE, LINEITEM_SCOPE, "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
                  "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"]  # fmt: skip
        request = {
            "application_type": "web", "response_types": ["id_token"], "grant_types": ["implicit", "client_credentials"],
            "initiate_login_uri": urls["login_url"], "redirect_uris": [urls["launch_url"], urls["deep_linking_url"]],
            "client_name": "attn-tutor", "jwks_uri": urls["jwks_url"], "token_endpoint_auth_method": "private_key_jwt",
            "scope": " ".join(scopes),
            "https://purl.imsglobal.org/spec/lti-tool-configuration": {
                "domain": urllib.parse.urlsplit(public_url).netloc, "target_link_uri": urls["launch_url"],
                "claims": ["iss", "sub", "name", "given_name", "family_name"],
                "messages": [{"type": "LtiDeepLinkingRequest", "target_link_uri": urls["deep_linking_url"], "label": "attn-tutor"}],
            },
        }  # fmt: skip
        answer = call("POST", endpoints["registration_endpoint"], token=token, body=request)
        client_id = answer["client_id"]
        deployment_id = answer.get("https://purl.imsglobal.org/spec/lti-tool-configuration", {}).get("deployment_id")
        if not isinstance(client_id, str) or not isinstance(deployment_id, str):
            raise PlatformError("the answer names no client_id and deployment_id")
    except PlatformError as error:
        raise RequestError(502, "lti.error.register_platform", reason=str(error)[:300]) from None
    except (KeyError, TypeError, AttributeError) as error:
        raise RequestError(502, "lti.error.register_platform", reason=f"no {error}"[:300]) from None
    store.add_platform(issuer, client_id, deployment_id, auth_url=endpoints["authorization_endpoint"],
                       token_url=endpoints["token_endpoint"], jwks_url=endpoints["jwks_uri"])  # fmt: skip
    return {"issuer": issuer, "client_id": client_id, "deployment_id": deployment_id}
