"""In CI, the real-terminal, real-browser and XeLaTeX checks must run, not skip.

Those tests skip on a developer's machine without tmux, chromium or xelatex;
`.ci/run` installs them, and this test makes sure it keeps doing so.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

TOOLS = ("git", "tmux", "chromium", "pdftotext", "pdftoppm", "pdfinfo", "xelatex", "kpsewhich")


@pytest.mark.skipif(not os.environ.get("CI"), reason="only CI promises these tools")
def test_ci_has_the_tools_the_real_checks_need():
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    assert not missing, f"install these in .ci/run: {missing}"
    kotex = subprocess.run(["kpsewhich", "kotex.sty"], capture_output=True, text=True)
    assert kotex.stdout.strip(), "kotex.sty is missing: install texlive-lang-korean"


@pytest.mark.skipif(not os.environ.get("CI"), reason="only CI promises these")
def test_ci_has_what_the_pdf_and_qti_checks_need():
    import importlib.util

    from attn_tutor.render.typst import hangul_font

    missing = [name for name in ("typst", "lxml") if importlib.util.find_spec(name) is None]
    assert not missing, f"install these through pyproject: {missing}"
    assert hangul_font() is not None, "no Hangul font: install fonts-noto-cjk in .ci/run"
    dtd = os.environ.get("ATTN_TUTOR_QTI_DTD", "")
    assert dtd and os.path.isfile(dtd), ".ci/run must fetch the QTI DTD and set ATTN_TUTOR_QTI_DTD"
