"""The LaTeX worksheet compiled by XeLaTeX (with kotex), hostile tokens printed as typed."""

from __future__ import annotations

import subprocess

import pytest
from helpers.sheets import HOSTILE_MORE, HOSTILE_TEX, export, hostile_set, write_set


@pytest.mark.xelatex
@pytest.mark.pdf
def test_latex_compiles_with_xelatex_and_prints_hostile_tokens(run_cli, tmp_path):
    source = write_set(tmp_path, hostile_set(HOSTILE_TEX, HOSTILE_MORE, "고양이가"))
    (tmp_path / "sheet.tex").write_text(export(run_cli, source, "-f", "tex", "--answers"), encoding="utf-8")
    run = subprocess.run(
        ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    text = subprocess.run(["pdftotext", "sheet.pdf", "-"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert HOSTILE_TEX in text
