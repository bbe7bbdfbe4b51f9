"""In CI, the real-terminal, real-browser and XeLaTeX checks must run, not skip.

Those tests skip on a developer's machine without tmux, chromium or xelatex;
`.ci/run` installs them, and this test makes sure it keeps doing so.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

TOOLS = ("git", "tmux", "chromium", "pdftotext", "pdftoppm", "xelatex", "kpsewhich")


@pytest.mark.skipif(not os.environ.get("CI"), reason="only CI promises these tools")
def test_ci_has_the_tools_the_real_checks_need():
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    assert not missing, f"install these in .ci/run: {missing}"
    kotex = subprocess.run(["kpsewhich", "kotex.sty"], capture_output=True, text=True)
    assert kotex.stdout.strip(), "kotex.sty is missing: install texlive-lang-korean"
