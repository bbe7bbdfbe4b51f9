"""A real browser prints an N-variant HTML worksheet: at least N pages, each variant on its own.

Needs Debian's ``chromium`` and ``pdftotext`` from ``poppler-utils`` (marked ``browser``
and ``pdf``). The problem set has ASCII tokens and the sheet is in English,
so the PDF's text can be read whatever fonts are installed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import tools

from attn_tutor.core.model import Head, Problem, ProblemSet
from attn_tutor.problems.dump import dump_problem_set

VARIANTS = 3
SEED = 7
TOKENS = ("alpha", "bravo", "charlie", "delta")

pytestmark = [pytest.mark.browser, pytest.mark.pdf]


def ascii_set() -> ProblemSet:
    plain = Problem(
        id="plain",
        title="Four tokens, d = 2",
        tokens=TOKENS,
        heads=(
            Head(
                Q=((2, 1), (1, 2), (1, 3), (0, 1)),
                K=((1, 0), (0, 2), (1, 1), (2, 1)),
                V=((1, 0), (0, 1), (1, 1), (2, 0)),
            ),
        ),
        rows=("charlie", "alpha"),
    )
    causal = Problem(
        id="causal",
        tokens=TOKENS[:3],
        mask="causal",
        heads=(Head(Q=((1, 0), (0, 1), (1, 1)), K=((1, 1), (0, 1), (1, 0)), V=((1, 2), (3, 1), (0, 1))),),
    )
    return ProblemSet((plain, causal), title="Attention practice")


def print_to_pdf(html: Path, pdf: Path, profile: Path) -> None:
    command = [
        tools.chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--no-pdf-header-footer", f"--print-to-pdf={pdf}", html.as_uri(),
    ]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert pdf.exists() and pdf.stat().st_size > 0, run.stderr[-2000:]


def pdf_pages(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")[:-1] if text.endswith("\f") else text.split("\f")


@pytest.mark.parametrize("paper", ["default", "A4", "letter"])
def test_each_variant_prints_on_its_own_pages(run_cli, tmp_path, paper):
    source = tmp_path / "set.yaml"
    source.write_text(dump_problem_set(ascii_set(), header_comment="browser test"), encoding="utf-8")
    html = tmp_path / "sheet.html"
    result = run_cli("export", str(source), "-o", str(html), "--variants", str(VARIANTS), "--seed", str(SEED), "--lang", "en")
    assert result.exit_code == 0, result.output
    if paper != "default":
        text = html.read_text(encoding="utf-8").replace("</style>", f"@page {{ size: {paper}; }}\n</style>")
        html.write_text(text, encoding="utf-8")
    pdf = tmp_path / "sheet.pdf"
    print_to_pdf(html, pdf, tmp_path / "profile")
    pages = pdf_pages(pdf)
    assert len(pages) >= VARIANTS
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.variants.sheets import make_sheets

    # the batch's numbers (a sheet that would repeat an earlier one is skipped, so they may jump)
    numbers = [sheet.variant for sheet in make_sheets(load_problem_set(str(source)), variants=VARIANTS, seed=SEED)]
    # the first variant's tokens and number are on the first page
    assert all(token in pages[0] for token in TOKENS)
    assert f"variant {numbers[0]}" in pages[0]
    # every variant starts a new page: its heading opens the page it is on
    for number in numbers:
        heading = f"Attention practice — variant {number}"
        starts = [number for number, page in enumerate(pages) if page.strip().startswith(heading)]
        assert len(starts) == 1, (heading, [p[:80] for p in pages])
