"""A PDF typeset in chunks (many variants) reads as the one document it would have been, and a
Korean PDF prints in the package's own font on a machine without one: read back with poppler
(pdftotext, pdfinfo, pdffonts) and pikepdf."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.sheets import export_pdf, one_problem_set

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.render import pdfjoin
from attn_tutor.render import typst as typst_render

pytestmark = pytest.mark.pdf


def pages_text(path: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")


def info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {key: value.strip() for key, value in (line.split(":", 1) for line in out.splitlines() if ":" in line)}


def fonts(path: Path) -> list[str]:
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines()[2:]]


def structure(path: Path):
    """What a PDF viewer shows besides the pages: the outline (nested titles), page labels, language, title."""
    import pikepdf

    with pikepdf.Pdf.open(path) as pdf:
        with pdf.open_outline() as outline:

            def titles(items):
                return [(item.title, titles(item.children)) for item in items]

            tree = titles(outline.root)
        return tree, [page.label for page in pdf.pages], str(pdf.Root.Lang), str(pdf.docinfo.Title)


PARTS = {"questions": (), "with_answers": ("--answers",), "key": ("--key-only",)}


@pytest.mark.parametrize(
    "part, lang, paper",
    [("questions", "ko", "a4"), ("with_answers", "en", "letter"), ("key", "ko", "letter"), ("with_answers", "ko", "a4")],
)
def test_a_pdf_typeset_in_chunks_reads_as_the_one_document(run_cli, tmp_path, monkeypatch, part, lang, paper):
    problem_set = one_problem_set(tmp_path)
    args = (str(problem_set), "--variants", "3", "--seed", "7", "--lang", lang, "--paper", paper, *PARTS[part])
    monkeypatch.setattr(typst_render, "CHUNK_CHARS", 10**9)
    whole = export_pdf(run_cli, tmp_path / "whole.pdf", *args)
    monkeypatch.setattr(typst_render, "CHUNK_CHARS", 1)  # every page its own chunk
    monkeypatch.setattr(pdfjoin, "FOOTER_PAGES", 2)  # and the footers typeset two pages at a time
    chunked = export_pdf(run_cli, tmp_path / "chunked.pdf", *args)
    again = export_pdf(run_cli, tmp_path / "again.pdf", *args)
    assert len(fonts(chunked)) > len(fonts(whole))  # it was typeset in chunks: each embeds its fonts
    pages = pages_text(chunked)
    assert pages == pages_text(whole)  # every page's text, its footer ("2 / 6") included
    total = int(info(chunked)["Pages"])
    assert total >= 3 and [f"{n}/{total}" in page.replace(" ", "") for n, page in enumerate(pages[:total], start=1)] == [True] * total
    for key in ("Pages", "Title", "Page size"):
        assert info(chunked)[key] == info(whole)[key]
    tree, labels, language, title = structure(chunked)
    assert (tree, labels, language, title) == structure(whole)
    assert labels == [str(n) for n in range(1, total + 1)] and language == lang and len(tree) == (6 if part == "with_answers" else 3)
    assert again.read_bytes() == chunked.read_bytes()  # the same input, the same bytes


@pytest.mark.cjk_font
def test_korean_pdf_with_no_system_font_prints_in_the_package_font(tmp_path):
    """The console script run as on a bare machine: no font folder of the system's, none named."""
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    data.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "ATTN_TUTOR_FONT_DIRS"}
    env.update(HOME=str(home), XDG_DATA_DIRS=str(data), ATTN_TUTOR_LANG="ko")
    out = tmp_path / "sheets.pdf"
    command = [sys.executable, "-m", "attn_tutor", "export", "-f", "pdf", "--variants", "6", "--seed", "3", "-o", str(out)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    names = fonts(out)
    assert any("NotoSansCJKkr-Regular" in name for name in names) and any("NotoSansCJKkr-Bold" in name for name in names)
    first = pages_text(out)[0]
    for word in ("변형 3001", "이름", "고양이가", "스코어", "소수점"):
        assert word in first
    assert "\ufffd" not in first


def test_a_chunk_typst_refuses_in_its_own_process_is_a_sentence_not_a_traceback(tmp_path):
    """The chunks of a long PDF are typeset by another process; a chunk that does not compile comes
    back as ``export.pdf_failed`` with Typst's first line, and nothing is left half made."""
    (tmp_path / "chunk-00000.typ").write_text("#let broken = (\n", encoding="utf-8")
    settings = {"title": "t", "lang": "en", "paper": "a4", "font": None}
    with pytest.raises(AttnTutorError) as error:
        typst_render._typeset_apart(tmp_path, settings, None, True)
    problem = error.value.problems[0]
    assert problem.key == "export.pdf_failed"
    assert problem.args["reason"] and "Traceback" not in problem.args["reason"] and "File " not in problem.args["reason"]
    assert not list(tmp_path.glob("*.pdf"))
