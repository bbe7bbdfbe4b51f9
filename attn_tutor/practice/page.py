"""The practice page: one self-contained HTML file, the widget and the practice in the browser.

Everything is inline: the stylesheet and the scripts are real files beside this module
(``assets/*.css``, ``*.js``, shipped as package data and read with
:mod:`importlib.resources`), and the problems are JSON in a ``<script
type="application/json">`` block (:mod:`attn_tutor.practice.data`). The
Content-Security-Policy allows exactly that script and that stylesheet, by their SHA-256
hashes, and nothing else: ``default-src 'none'`` forbids every fetch (no CDN, no fonts, no
images, no connections), so the page works from a file on disk and offline.

The page's skeleton, offline or served, is the template ``templates/page.html``
(:mod:`attn_tutor.render.templating`: autoescaped, every value escaped by :func:`html.escape`
as before); the policy, the assets and the JSON blocks are made here and put in as they are.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Collection
from importlib import resources
from typing import NamedTuple

from attn_tutor.core.i18n import language, t
from attn_tutor.core.model import KINDS
from attn_tutor.render import templating

SCRIPTS = ("numbers.js", "particles.js", "answers.js", "marking.js", "widget.js")
STYLE = "page.css"
SAMPLING_SCRIPTS = ("sampling.js", "sampling_marking.js", "temperature.js")
"""A sampling problem's scripts (its engine's and its marker's ports, the temperature slider), before widget.js:
only a page with a sampling problem carries them (:func:`scripts`)."""
SAMPLING_STYLE = "temperature.css"


def kinds(data: dict) -> frozenset[str]:
    """The kinds of the page's problems (its first variant's: every variant has the same problems' kinds);
    an attention problem's data names none."""
    variants = data.get("variants") or [{}]
    return frozenset({"attention", *(p.get("kind", "attention") for p in variants[0].get("problems") or ())})


def has_sampling(data: dict) -> bool:
    """Whether the page has a sampling problem."""
    return "sampling" in kinds(data)


def scripts(data: dict) -> tuple[str, ...]:
    """The page's scripts, in order: :data:`SCRIPTS`, and with a sampling problem :data:`SAMPLING_SCRIPTS`
    before widget.js (which starts the page as soon as it runs)."""
    if not has_sampling(data):
        return SCRIPTS
    return (*SCRIPTS[:-1], *SAMPLING_SCRIPTS, SCRIPTS[-1])


def styles(data: dict) -> tuple[str, ...]:
    """The page's stylesheets: :data:`STYLE`, and with a sampling problem :data:`SAMPLING_STYLE`."""
    return (STYLE, SAMPLING_STYLE) if has_sampling(data) else (STYLE,)


_KIND_OPENS = re.compile(r"\s*// <kind (\w+)>")
_KIND_CLOSES = re.compile(r"\s*// </kind (\w+)>")


def for_kinds(text: str, kinds: Collection[str]) -> str:
    """A script as a page of problems of ``kinds`` runs it: without the lines a kind not among them
    needs alone, each run of them between a line ``// <kind NAME>`` and a line ``// </kind NAME>``
    (both left out too). A page of attention problems so carries none of a sampling problem's script,
    and is byte for byte what it was before there were kinds."""
    kept, hidden = [], None
    for line in text.splitlines(keepends=True):
        if hidden is None and (opens := _KIND_OPENS.match(line)) and opens[1] not in kinds:
            hidden = opens[1]
        elif hidden is not None and (closes := _KIND_CLOSES.match(line)) and closes[1] == hidden:
            hidden = None
        elif hidden is None:
            kept.append(line)
    return "".join(kept)


def asset(name: str, kinds: Collection[str] = KINDS) -> str:
    """One of the page's source files, as shipped in the package, for a page of problems of ``kinds``
    (:func:`for_kinds`; every kind's lines when not said)."""
    return for_kinds(resources.files("attn_tutor.practice").joinpath("assets", name).read_text(encoding="utf-8"), kinds)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _json_for_script(value) -> str:
    """JSON that cannot end its <script> element early."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace(
        "\u2028", "\\u2028"
    ).replace("\u2029", "\\u2029")


class Served(NamedTuple):
    """The page as a server serves it (:mod:`attn_tutor.live`): its scripts and stylesheets as
    files of the server's own (``scripts``, ``styles``: their addresses, in order), the sentences
    under the title replaced by ``header`` (HTML, escaped by the caller), and ``meta`` (name ->
    content) for its script to read. The CSP then allows the server's own files and connections
    to it, and still no inline script, no CDN."""

    scripts: tuple[str, ...]
    styles: tuple[str, ...]
    header: str
    meta: dict


SERVED_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "font-src 'none'; form-action 'self'; base-uri 'none'"
)  # the server sends it as a header too, with frame-ancestors 'none' (a <meta> policy cannot say that)


json_for_script = _json_for_script  # the live pages' JSON blocks too


def render(data: dict, *, title: str, served: Served | None = None) -> str:
    """The complete page for ``data`` (:func:`attn_tutor.practice.data.page_data`): self-contained,
    or, ``served``, with the server's scripts and stylesheets (:class:`Served`)."""

    shown, packed = _split(data)
    context = {
        "lang": "ko" if language() == "ko" else "en",
        "title": title,
        "t": lambda key, **args: t(key, **args),
        "served": served,
        "data": _json_for_script(shown),
        "packed": None if packed is None else _json_for_script(packed),
    }
    if served is None:
        held = kinds(data)
        script = "\n".join(asset(name, held) for name in scripts(data))
        style = "\n".join(asset(name, held) for name in styles(data))
        csp = (
            f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}; "
            "img-src 'none'; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'"
        )
        context.update(csp=csp, script=script, style=style)
    else:
        context["csp"] = SERVED_CSP
    return templating.render("attn_tutor.practice", "page.html", context)


def _split(data: dict) -> tuple[dict, list | None]:
    """``data`` less every variant's ``packed`` text, and those texts (one entry per variant, None for
    one carried plain), which the page carries as ``script#page-variants`` after the scripts: the
    script starts on the first variant as soon as it runs, before the browser has even read the
    packed ones (a 30-variant page showed its widget within 1.15× of a one-variant page, 1.28×
    before), and takes a packed one from there when it is chosen. None, and no element at all, when
    no variant is packed."""
    variants = data.get("variants", [])
    if not any("packed" in variant for variant in variants):
        return data, None
    shown = {**data, "variants": [{k: v for k, v in variant.items() if k != "packed"} for variant in variants]}
    return shown, [variant.get("packed") for variant in variants]
