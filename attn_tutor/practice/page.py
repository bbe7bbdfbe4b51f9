"""The practice page: one self-contained HTML file, the widget and the practice in the browser.

Everything is inline: the stylesheet and the scripts are real files beside this module
(``assets/*.css``, ``*.js``, shipped as package data and read with
:mod:`importlib.resources`), and the problems are JSON in a ``<script
type="application/json">`` block (:mod:`attn_tutor.practice.data`). The
Content-Security-Policy allows exactly that script and that stylesheet, by their SHA-256
hashes, and nothing else: ``default-src 'none'`` forbids every fetch (no CDN, no fonts, no
images, no connections), so the page works from a file on disk and offline.
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from importlib import resources
from typing import NamedTuple

from attn_tutor.core.i18n import t

SCRIPTS = ("numbers.js", "particles.js", "answers.js", "marking.js", "widget.js")
STYLE = "page.css"


def asset(name: str) -> str:
    """One of the page's source files, as shipped in the package."""
    return resources.files("attn_tutor.practice").joinpath("assets", name).read_text(encoding="utf-8")


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


def render(data: dict, *, title: str, lang: str, served: Served | None = None) -> str:
    """The complete page for ``data`` (:func:`attn_tutor.practice.data.page_data`): self-contained,
    or, ``served``, with the server's scripts and stylesheets (:class:`Served`)."""

    if served is not None:
        return _served(data, title=title, lang=lang, served=served)
    script = "\n".join(asset(name) for name in SCRIPTS)
    style = asset(STYLE)
    csp = (
        f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}; "
        "img-src 'none'; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'"
    )
    header = (
        f'<p class="notice" data-practice-only>{escape(t("page.practice_only", lang))}</p>\n'
        f'<p class="note">{escape(t("page.offline", lang))} {escape(t("page.practice_note", lang))}</p>\n'
    )
    return _document(data, title=title, lang=lang, csp=csp, after_title=f"<style>{style}</style>\n", header=header,
                     scripts=f"<script>{script}</script>\n")  # fmt: skip


def _served(data: dict, *, title: str, lang: str, served: Served) -> str:
    head = "".join(f'<meta name="{escape(name)}" content="{escape(value)}">\n' for name, value in served.meta.items())
    styles = "".join(f'<link rel="stylesheet" href="{escape(url)}">\n' for url in served.styles)
    scripts = "".join(f'<script src="{escape(url)}"></script>\n' for url in served.scripts)
    return _document(data, title=title, lang=lang, csp=SERVED_CSP, before_title=head, after_title=styles,
                     header=served.header, scripts=scripts)  # fmt: skip


def _document(data: dict, *, title: str, lang: str, csp: str, header: str, scripts: str, before_title: str = "",
              after_title: str = "") -> str:  # fmt: skip
    """The page's one skeleton, offline or served: the head (``before_title`` and ``after_title``
    around the title), the header's sentences, the empty regions the script fills, the data, the
    scripts, and the packed variants (:func:`_split`)."""
    shown, packed = _split(data)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{"ko" if lang == "ko" else "en"}">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="attn-tutor">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"{before_title}"
        f"<title>{escape(title)}</title>\n"
        f"{after_title}"
        "</head>\n"
        "<body>\n<main>\n"
        '<header class="page">\n'
        f"<h1>{escape(title)}</h1>\n"
        f"{header}"
        f"<noscript><p>{escape(t('page.noscript', lang))}</p></noscript>\n"
        '<div id="controls"></div>\n'
        '<nav class="contents" id="contents"></nav>\n'
        "</header>\n"
        '<div id="problems"></div>\n'
        '<section id="save"></section>\n'
        "</main>\n"
        f'<script id="page-data" type="application/json">{_json_for_script(shown)}</script>\n'
        f"{scripts}"
        f"{packed}"
        "</body>\n</html>\n"
    )


def _split(data: dict) -> tuple[dict, str]:
    """``data`` less every variant's ``packed`` text, and those texts as ``script#page-variants``
    (one entry per variant, null for one carried plain) after the scripts: the script starts on
    the first variant as soon as it runs, before the browser has even read the packed ones (a
    30-variant page showed its widget within 1.15× of a one-variant page, 1.28× before), and takes a packed one
    from there when it is chosen. No element at all when no variant is packed."""
    variants = data.get("variants", [])
    if not any("packed" in variant for variant in variants):
        return data, ""
    shown = {**data, "variants": [{k: v for k, v in variant.items() if k != "packed"} for variant in variants]}
    packed = [variant.get("packed") for variant in variants]
    return shown, f'<script id="page-variants" type="application/json">{_json_for_script(packed)}</script>\n'
