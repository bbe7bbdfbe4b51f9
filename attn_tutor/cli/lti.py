"""The lti command: the LTI 1.3 tool's registration (``serve --lti`` serves it; docs/lti.md).

One command, its first argument the action (one command, not a group: every command of the app is
one, for its help and its place in the table). ``lti add-platform`` registers a platform (an LMS: its issuer, the client id and deployment it gave
the tool, its authorisation, token and key-set URLs), or updates one registered already;
``lti config`` prints, as JSON, the tool's URLs a platform is given (``--canvas``: Canvas's
developer-key JSON); ``lti rotate-key`` makes a new signing key (the one before stays in the JWKS).
The tool's private keys stay in the database: nothing here prints them.
"""

# No `from __future__ import annotations` (as in cli/app.py): Typer reads the annotations.

import json
import sys
from typing import Annotated, Optional
from urllib.parse import urlsplit

import typer

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import guarded
from attn_tutor.core.errors import UsageError
from attn_tutor.core.i18n import t
from attn_tutor.live.lti import keys
from attn_tutor.live.lti.app import tool_urls
from attn_tutor.sessions.lti import open_lti

CANVAS_SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
]


ACTIONS = ("add-platform", "config", "rotate-key")
Option = typer.Option


@guarded
def lti(
    action: Annotated[str, typer.Argument(help="help.lti.action", show_default=False)],
    db: Annotated[str, Option("--db", help="help.lti.db")],
    issuer: Annotated[Optional[str], Option("--issuer", help="help.lti.issuer")] = None,
    client_id: Annotated[Optional[str], Option("--client-id", help="help.lti.client_id")] = None,
    deployment_id: Annotated[Optional[str], Option("--deployment-id", help="help.lti.deployment_id")] = None,
    auth_url: Annotated[Optional[str], Option("--auth-url", help="help.lti.auth_url")] = None,
    token_url: Annotated[Optional[str], Option("--token-url", help="help.lti.token_url")] = None,
    jwks_url: Annotated[Optional[str], Option("--jwks-url", help="help.lti.jwks_url")] = None,
    public_url: Annotated[Optional[str], Option("--public-url", help="help.lti.public_url")] = None,
    canvas: Annotated[bool, Option("--canvas", help="help.lti.canvas")] = False,
    lang: LangOption = None,
) -> None:
    """The LTI tool's registration. (Its --help is the catalogue key help.cmd.lti, not this docstring.)"""
    if action not in ACTIONS:
        raise UsageError("lti.cli.bad_action", action=action[:40], actions=", ".join(ACTIONS))
    given = {"--issuer": issuer, "--client-id": client_id, "--deployment-id": deployment_id, "--auth-url": auth_url,
             "--token-url": token_url, "--jwks-url": jwks_url, "--public-url": public_url, "--canvas": canvas or None}  # fmt: skip
    needs = {"add-platform": ("--issuer", "--client-id", "--deployment-id", "--auth-url", "--token-url", "--jwks-url"),
             "config": ("--public-url",), "rotate-key": ()}[action]  # fmt: skip
    allowed = needs + (("--canvas",) if action == "config" else ())
    missing = [name for name in needs if given[name] is None]
    if missing:
        raise UsageError("lti.cli.missing", action=action, options=", ".join(missing))
    extra = [name for name, value in given.items() if value is not None and name not in allowed]
    if extra:
        raise UsageError("lti.cli.not_for", action=action, options=", ".join(extra))
    if action == "add-platform":
        add_platform(db, **{name[2:].replace("-", "_"): str(given[name]) for name in needs})
    elif action == "config":
        config(db, str(public_url), canvas=canvas)
    else:
        with open_lti(db) as store:
            kid = keys.rotate(store)
        sys.stdout.write(t("lti.cli.rotated", kid=kid) + "\n")


def _url(option: str, value: str) -> str:
    """An http(s) URL with a host, or a usage error naming ``option``."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in value.strip()):
        raise UsageError("lti.cli.bad_url", option=option, url=value[:200])
    return value.strip()


def _text(option: str, value: str) -> str:
    if not value.strip() or len(value) > 255 or not value.isprintable():
        raise UsageError("lti.cli.bad_text", option=option)
    return value.strip()


def add_platform(db: str, *, issuer: str, client_id: str, deployment_id: str, auth_url: str, token_url: str, jwks_url: str) -> None:
    """``lti add-platform``: the platform registered (or updated), and the tool's first key made."""
    issuer = _url("--issuer", issuer)
    client_id, deployment_id = _text("--client-id", client_id), _text("--deployment-id", deployment_id)
    urls = {"auth_url": _url("--auth-url", auth_url), "token_url": _url("--token-url", token_url), "jwks_url": _url("--jwks-url", jwks_url)}
    with open_lti(db) as store:
        added = store.add_platform(issuer, client_id, deployment_id, **urls)
        keys.ensure_key(store)
    key = "lti.cli.added" if added else "lti.cli.updated"
    sys.stdout.write(t(key, issuer=issuer, client_id=client_id, deployment_id=deployment_id) + "\n")


def config(db: str, public_url: str, *, canvas: bool) -> None:
    """``lti config``: the tool's URLs as JSON (``canvas``: Canvas's developer-key JSON)."""
    public_url = _url("--public-url", public_url)
    with open_lti(db) as store:
        keys.ensure_key(store)  # the JWKS the platform reads has a key in it
        urls = tool_urls(public_url, store.registration_secret())
    found: dict = canvas_config(urls, public_url) if canvas else urls
    sys.stdout.write(json.dumps(found, indent=2, ensure_ascii=False) + "\n")


def canvas_config(urls: dict[str, str], public_url: str) -> dict:
    """Canvas's developer-key JSON (Admin > Developer Keys > + LTI Key > Paste JSON)."""
    placements = [
        {"placement": placement, "message_type": "LtiDeepLinkingRequest", "target_link_uri": urls["deep_linking_url"],
         "text": "attn-tutor"}  # fmt: skip
        for placement in ("link_selection", "assignment_selection")
    ]
    return {
        "title": "attn-tutor",
        "description": t("lti.canvas_description"),
        "oidc_initiation_url": urls["login_url"],
        "target_link_uri": urls["launch_url"],
        "public_jwk_url": urls["jwks_url"],
        "scopes": CANVAS_SCOPES,
        "extensions": [{"platform": "canvas.instructure.com", "privacy_level": "public", "domain": urlsplit(public_url).hostname,
                        "tool_id": "attn-tutor", "settings": {"text": "attn-tutor", "placements": placements}}],  # fmt: skip
        "custom_fields": {},
    }
