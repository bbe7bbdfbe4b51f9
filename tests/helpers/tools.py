"""The outside tools some tests drive: one pytest marker each, skipped where missing, failed in CI.

A test that needs a tool carries its marker (``@pytest.mark.tmux``, or a module's
``pytestmark``); before such a test is set up, tests/conftest.py calls :func:`require`
for each of its markers. Where the tool is missing the test is skipped with a sentence
saying what to install; when the environment says ``CI=true`` it fails instead, with
the same sentence, so a CI machine that lost a package cannot pass by skipping. The
markers are registered in pyproject's ``[tool.pytest.ini_options] markers``
(tests/repo/test_outside_tools.py holds the two lists equal).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "attn-tutor"  # the console script pip installs next to python


def in_ci() -> bool:
    """Whether the environment says this is CI (``CI=true``, as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@dataclass(frozen=True)
class Need:
    """One thing a tool's tests need: its name as a reader knows it, a check, and how to install it."""

    name: str
    present: Callable[[], bool]
    install: str


@dataclass(frozen=True)
class Tool:
    marker: str
    purpose: str  # what the marked tests do with it
    needs: tuple[Need, ...]


def _program(*names: str) -> Callable[[], bool]:
    return lambda: any(shutil.which(name) for name in names)


def _module(name: str) -> Callable[[], bool]:
    return lambda: importlib.util.find_spec(name) is not None


def _tex_file(name: str) -> Callable[[], bool]:
    def present() -> bool:
        if shutil.which("kpsewhich") is None:
            return False
        found = subprocess.run(["kpsewhich", name], capture_output=True, text=True, timeout=60)
        return bool(found.stdout.strip())

    return present


def _hangul_font() -> bool:
    from attn_tutor.render.typst import hangul_font

    return hangul_font() is not None


def _qti_dtd() -> bool:
    path = os.environ.get("ATTN_TUTOR_QTI_DTD", "")
    return bool(path) and os.path.isfile(path)


def _axe() -> bool:
    path = os.environ.get("ATTN_TUTOR_AXE", "")
    return bool(path) and os.path.isfile(path)


def _test_pg() -> bool:
    return os.environ.get("ATTN_TUTOR_TEST_PG", "").startswith(("postgresql://", "postgres://"))


def _debian(package: str) -> str:
    return f"install the Debian package {package}"


TEST_EXTRA = "pip install '.[test]': the test extra"

TOOLS: dict[str, Tool] = {
    tool.marker: tool
    for tool in (
        Tool(
            "browser",
            "a real browser: Debian's chromium, driven by pip's playwright (never a browser download)",
            (Need("chromium", _program("chromium", "chromium-browser"), _debian("chromium")), Need("playwright", _module("playwright"), TEST_EXTRA)),
        ),
        Tool(
            "tmux",
            "a real terminal: tmux running the attn-tutor console script",
            (
                Need("tmux", _program("tmux"), _debian("tmux")),
                Need("the attn-tutor console script", SCRIPT.exists, "pip install . into this environment"),
            ),
        ),
        Tool(
            "pdf",
            "reading a PDF back with poppler's pdftotext, pdfinfo and pdftoppm",
            tuple(Need(name, _program(name), _debian("poppler-utils")) for name in ("pdftotext", "pdfinfo", "pdftoppm")),
        ),
        Tool(
            "xelatex",
            "compiling the LaTeX worksheet with XeLaTeX and kotex",
            (
                Need("xelatex", _program("xelatex"), _debian("texlive-xetex")),
                Need("kpsewhich", _program("kpsewhich"), _debian("texlive-xetex")),
                Need("kotex.sty", _tex_file("kotex.sty"), _debian("texlive-lang-korean")),
            ),
        ),
        Tool(
            "cjk_font",
            "a Hangul font for Typst's Korean PDFs",
            (Need("a Hangul font", _hangul_font, _debian("fonts-noto-cjk")),),
        ),
        Tool(
            "qti_dtd",
            "validating `export -f qti` against the IMS QTI ASI 1.2.1 DTD with lxml",
            (
                Need("lxml", _module("lxml"), TEST_EXTRA),
                Need(
                    "the QTI DTD",
                    _qti_dtd,
                    "set ATTN_TUTOR_QTI_DTD to ims_qtiasiv1p2p1.dtd from pyslet's source distribution, as .ci/run does",
                ),
            ),
        ),
        Tool(
            "axe",
            "checking pages for WCAG 2.1 A/AA violations with axe-core, run inside Debian's chromium",
            (
                Need(
                    "axe-core",
                    _axe,
                    "npm install axe-core@4 outside the checkout and set ATTN_TUTOR_AXE to its axe.min.js, as .ci/run does",
                ),
            ),
        ),
        Tool("git", "git and a git checkout", (Need("git", _program("git"), _debian("git")),)),
        Tool(
            "gettext",
            "checking the message catalogues' placeholders with GNU gettext's msgfmt --check-format",
            (Need("msgfmt", _program("msgfmt"), _debian("gettext")),),
        ),
        Tool(
            "postgresql",
            "a live session's store and server on PostgreSQL (a database in ATTN_TUTOR_TEST_PG)",
            (
                Need("psycopg", _module("psycopg"), "pip install .: a default dependency"),
                Need(
                    "a PostgreSQL database",
                    _test_pg,
                    "install the Debian package postgresql, start it and set ATTN_TUTOR_TEST_PG to a postgresql:// URL, as .ci/run does",
                ),
            ),
        ),
    )
}


def missing(marker: str) -> list[Need]:
    """What ``marker``'s tool lacks here (nothing: it is all installed)."""
    return [need for need in TOOLS[marker].needs if not need.present()]


def explain(lacking: list[Need]) -> str:
    """One sentence naming each missing thing and how to install it."""
    return "; ".join(f"{need.name} is missing ({need.install})" for need in lacking) + "."


def require(*markers: str) -> None:
    """Return if every one of the ``markers``' tools is here; else skip the test, or fail it under CI=true."""
    lacking = {marker: found for marker in markers if (found := missing(marker))}
    if not lacking:
        return
    names = " and ".join(lacking)
    sentence = explain([need for found in lacking.values() for need in found])
    if in_ci():
        pytest.fail(f"CI=true, so the {names} tests must run, not skip: {sentence}", pytrace=False)
    pytest.skip(f"{names}: {sentence}")


def require_markers(item: pytest.Item) -> None:
    """:func:`require` for the outside-tool markers of a test (tests/conftest.py calls this first in its set-up)."""
    require(*(name for name in dict.fromkeys(marker.name for marker in item.iter_markers()) if name in TOOLS))


def chromium() -> str | None:
    """The chromium to drive (Debian's), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")
