"""Concept items printed (issue 21): the PDF worksheet and key read back with pdftotext, each
variant's page with its own options, and the LaTeX sheet compiled by XeLaTeX."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers.concept_set import concept_set
from helpers.sheets import export, export_pdf

from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve.concepts import show
from attn_tutor.variants import sheets as variant_sheets

pytestmark = pytest.mark.pdf


def pdf_text(path: Path) -> list[str]:
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return [" ".join(page.split()) for page in text.split("\f") if page.strip()]


def squeezed(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.cjk_font
def test_each_variants_pdf_prints_its_own_options_and_its_key_the_right_labels(run_cli, tmp_path):
    source = concept_set(tmp_path)
    out = export_pdf(run_cli, tmp_path / "sheets.pdf", str(source), "--variants", "2", "--seed", "3", "--answers", "--lang", "ko")
    pages = pdf_text(out)
    problem_set = load_problem_set(str(source))
    sheets = variant_sheets.make_sheets(problem_set, variants=2, seed=3)
    text = " ".join(pages)
    for sheet in sheets:
        questions = text.split(f"변형 {sheet.variant}", 1)[1]
        key = text.split(f"정답 — Concepts on every sheet — 변형 {sheet.variant}", 1)[1]
        for concept in problem_set.concepts:
            shown = show(concept, sheet.problem_set, seed=sheet.variant)
            # pdftotext may break a long line anywhere: compare with the spaces squeezed out
            flat = re.sub(r"\s", "", questions)
            for label, option in zip(shown.labels, shown.options):
                assert re.sub(r"\s", "", f"({label}) {option}") in flat
            answer = " ".join(shown.answer) if shown.kind == "order" else ", ".join(shown.answer)
            assert re.sub(r"\s", "", f"정답: {answer}") in re.sub(r"\s", "", key)
    assert re.search(r"\(정답\s*\d+\s*개\)", text)  # a several-answer stem says how many are right


@pytest.mark.xelatex
def test_the_latex_sheet_with_concept_items_compiles(run_cli, tmp_path):
    source = concept_set(tmp_path)
    (tmp_path / "sheet.tex").write_text(export(run_cli, str(source), "-f", "tex", "--answers"), encoding="utf-8")
    run = subprocess.run(
        ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:]
    text = squeezed(subprocess.run(["pdftotext", "sheet.pdf", "-"], cwd=tmp_path, capture_output=True, text=True).stdout)
    assert "Concept questions" in text and re.search(r"\(\d+\s*right\)", text)
