"""The lti command: the LTI 1.3 tool's registration (``serve --lti`` serves it; docs/lti.md).

``lti add-platform`` registers a platform (an LMS: its issuer, the client id and deployment it gave
the tool, its authorisation, token and key-set URLs), or updates one registered already;
``lti config`` prints, as JSON, the tool's URLs a platform is given (``--canvas``: Canvas's
developer-key JSON); ``lti rotate-key`` makes a new signing key (the one before stays in the JWKS).
The tool's private keys stay in the database: nothing here prints them.
"""

# No `from __future__ import annotations` (as in cli/app.py): Typer reads the annotations.

import json
import sys
from typing import Annotated
from urllib.parse import urlsplit

import typer

from attn_tutor.cli.help import LocalGroup, LocalTyper
from attn_tutor.cli.options import guarded
from attn_tutor.core.errors import UsageError
from attn_tutor.core.i18n import t
from attn_tutor.live.lti import keys
from attn_tutor.live.lti.app import tool_urls
from attn_tutor.sessions.lti import open_lti

DbOption = Annotated[str, typer.Option("--db", help="help.lti.db")]
CANVAS_SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
]


class LtiGroup(LocalGroup):
    """The lti command's group: its own help (``help.cmd.lti``), not the app's."""

    def _own_key(self) -> str:
        return "help.cmd.lti"


app = LocalTyper(name="lti", cls=LtiGroup, help="help.cmd.lti", no_args_is_help=True, add_completion=False,
                 pretty_exceptions_enable=False, context_settings={"help_option_names": ["-h", "--help"]})  # fmt: skip


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


@app.command("add-platform")
@guarded
def add_platform(
    db: DbOption,
    issuer: Annotated[str, typer.Option("--issuer", help="help.lti.issuer")],
    client_id: Annotated[str, typer.Option("--client-id", help="help.lti.client_id")],
    deployment_id: Annotated[str, typer.Option("--deployment-id", help="help.lti.deployment_id")],
    auth_url: Annotated[str, typer.Option("--auth-url", help="help.lti.auth_url")],
    token_url: Annotated[str, typer.Option("--token-url", help="help.lti.token_url")],
    jwks_url: Annotated[str, typer.Option("--jwks-url", help="help.lti.jwks_url")],
) -> None:
    """Register a platform. (Its --help is the catalogue key help.cmd.add-platform.)"""
    issuer = _url("--issuer", issuer)
    client_id, deployment_id = _text("--client-id", client_id), _text("--deployment-id", deployment_id)
    urls = {name: _url(f"--{name.replace('_', '-')}", value) for name, value in
            (("auth_url", auth_url), ("token_url", token_url), ("jwks_url", jwks_url))}  # fmt: skip
    with open_lti(db) as store:
        added = store.add_platform(issuer, client_id, deployment_id, **urls)
        keys.ensure_key(store)
    key = "lti.cli.added" if added else "lti.cli.updated"
    sys.stdout.write(t(key, issuer=issuer, client_id=client_id, deployment_id=deployment_id) + "\n")


@app.command("config")
@guarded
def config(
    db: DbOption,
    public_url: Annotated[str, typer.Option("--public-url", help="help.lti.public_url")],
    canvas: Annotated[bool, typer.Option("--canvas", help="help.lti.canvas")] = False,
) -> None:
    """Print the tool's URLs. (Its --help is the catalogue key help.cmd.config.)"""
    public_url = _url("--public-url", public_url)
    with open_lti(db) as store:
        keys.ensure_key(store)  # the JWKS the platform reads has a key in it
    urls = tool_urls(public_url)
    found: dict = canvas_config(urls, public_url) if canvas else urls
    sys.stdout.write(json.dumps(found, indent=2, ensure_ascii=False) + "\n")


@app.command("rotate-key")
@guarded
def rotate_key(db: DbOption) -> None:
    """A new signing key. (Its --help is the catalogue key help.cmd.rotate-key.)"""
    with open_lti(db) as store:
        kid = keys.rotate(store)
    sys.stdout.write(t("lti.cli.rotated", kid=kid) + "\n")


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
