"""`export -f pdf` read back as a reader sees it: poppler's pdftotext and pdfinfo give each page's text,
the page count and the paper size.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers.sheets import export_pdf, one_problem_set

from attn_tutor.problems.load import load_problem_set
from attn_tutor.render import typst as typst_render

pytestmark = pytest.mark.pdf


def pdf_pages(path: Path) -> list[str]:
    """The text of every page (pdftotext separates pages with form feeds)."""
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    return pages[:-1] if pages and pages[-1].strip() == "" else pages


def pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


@pytest.mark.cjk_font
def test_each_variant_is_one_page_in_korean_with_its_number_and_tokens(run_cli, tmp_path):
    path = one_problem_set(tmp_path)
    out = export_pdf(run_cli, tmp_path / "sheets.pdf", str(path), "--variants", "4", "--seed", "12", "--lang", "ko")
    pages = pdf_pages(out)
    assert len(pages) == 4 == int(pdf_info(out)["Pages"])  # one page per variant: its tables fit one page
    for k, page in enumerate(pages, start=1):
        assert f"변형 {12000 + k}" in page and f"variant: {12000 + k}" in page
        for token in ("고양이가", "생선을", "먹었다", "이름", "스코어", "가중치"):
            assert token in page


@pytest.mark.cjk_font
def test_answers_follow_on_their_own_pages_and_the_key_has_the_numbers(run_cli, tmp_path):
    path = one_problem_set(tmp_path)
    out = export_pdf(run_cli, tmp_path / "both.pdf", str(path), "--answers", "--lang", "ko")
    pages = pdf_pages(out)
    assert 2 <= len(pages) <= 3
    assert "정답" not in pages[0] and "정답" in pages[1]
    key = "\n".join(pages[1:])
    for number in ("0.786", "0.191", "4.243", "0.214", "0.977"):  # the chapter's 먹었다 row
        assert number in key


@pytest.mark.cjk_font
def test_packaged_set_pdf_keeps_every_problem_and_starts_each_variant_on_a_new_page(run_cli, tmp_path):
    out = export_pdf(run_cli, tmp_path / "set.pdf", "--variants", "2", "--seed", "5", "--lang", "ko")
    pages = pdf_pages(out)
    starts = [i for i, page in enumerate(pages) if re.search(r"변형 500[12]\s", page) and "이름" in page]
    assert len(starts) == 2 and starts[0] == 0
    for first, last in ((0, starts[1]), (starts[1], len(pages))):
        text = "\n".join(pages[first:last])
        for problem in load_problem_set(None).problems:
            assert problem.id in text


def test_paper_is_a4_unless_letter_is_asked(run_cli, tmp_path):
    a4 = pdf_info(export_pdf(run_cli, tmp_path / "a4.pdf"))["Page size"]
    letter = pdf_info(export_pdf(run_cli, tmp_path / "letter.pdf", "--paper", "letter"))["Page size"]
    assert "595.276 x 841.89" in a4 and "(A4)" in a4
    assert "612 x 792" in letter


HOSTILE = ["#set", "*b*", "$x$", "[a]", "\\n", '"q"', "//c", "<l>", "@r", "_i_", "=h", "`r`"]


def test_typst_syntax_in_tokens_prints_as_typed(run_cli, tmp_path):
    path = one_problem_set(tmp_path, tokens=tuple(HOSTILE[:3]), title="T #x *y* $z$ [w] // \\")
    out = export_pdf(run_cli, tmp_path / "hostile.pdf", str(path), "--answers")
    text = "\n".join(pdf_pages(out))
    for token in HOSTILE[:3]:
        assert token in text
    assert "T #x *y* $z$ [w] // \\" in text
    for token in HOSTILE:  # every one survives the string literal
        assert typst_render.string(token) == '"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.mark.cjk_font
def test_key_table_pdf_runs_over_pages_with_every_variant(run_cli, tmp_path):
    out = export_pdf(run_cli, tmp_path / "key.pdf", "--key-table", "--variants", "3", "--seed", "8", "--lang", "ko")
    pages = pdf_pages(out)
    assert 2 <= len(pages) <= 6
    text = "\n".join(pages)
    for number in ("8001", "8002", "8003"):
        assert text.count(number) >= 20
    assert all("변형" in page and "정답" in page for page in pages)  # the header repeats on every page
