"""`export -f pdf` typeset by Typst in this process: the same bytes each time, a Hangul font found or asked for.

Reading the PDFs back (pdftotext, pdfinfo) is tests/e2e/test_pdf_export.py.
"""

from __future__ import annotations

import pytest
from helpers.sheets import export_pdf, one_problem_set

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.export import worksheet
from attn_tutor.problems.load import load_problem_set
from attn_tutor.render import typst as typst_render
from attn_tutor.variants import sheets as variant_sheets


@pytest.mark.cjk_font
def test_same_input_gives_the_same_bytes(run_cli, tmp_path):
    first = export_pdf(run_cli, tmp_path / "a.pdf", "--variants", "2", "--seed", "3")
    second = export_pdf(run_cli, tmp_path / "b.pdf", "--variants", "2", "--seed", "3")
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.cjk_font
def test_the_typst_source_compiles_without_warnings():
    """Typst's warnings (an unknown font, a bad argument) are errors here (filterwarnings = error)."""
    sheets = variant_sheets.make_sheets(load_problem_set(None), variants=1, seed=1)
    for blocks in (worksheet.build(sheets, "ko", part="with_answers"), worksheet.key_table_blocks(sheets, "ko")):
        assert typst_render.render_pdf(blocks, title="t", lang="ko", quiet=False).startswith(b"%PDF-")


def test_korean_without_a_hangul_font_is_refused_with_what_to_install(run_cli, tmp_path, monkeypatch):
    empty = tmp_path / "fonts"
    empty.mkdir()
    monkeypatch.setattr(typst_render, "font_dirs", lambda: [empty])
    out = tmp_path / "sheet.pdf"
    result = run_cli("export", "-o", str(out), "--lang", "ko")
    assert result.exit_code == 1
    assert "fonts-noto-cjk" in result.output and "Malgun Gothic" in result.output and str(empty) in result.output
    assert not out.exists() and "Traceback" not in result.output
    # English text needs no Hangul font: Typst's own fonts print it
    english = one_problem_set(tmp_path, tokens=("the", "cat", "sat"), title="English")
    assert run_cli("export", str(english), "-o", str(out), "--lang", "en").exit_code == 0


def test_hangul_font_search_finds_the_preferred_family(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "UnDotum.ttf").write_bytes(b"")
    (tmp_path / "b" / "deep").mkdir(parents=True)
    (tmp_path / "b" / "deep" / "NanumGothic.ttf").write_bytes(b"")
    assert typst_render.hangul_font([tmp_path]) == ("NanumGothic", tmp_path / "b" / "deep")
    assert typst_render.hangul_font([tmp_path / "a"]) == ("UnDotum", tmp_path / "a")
    assert typst_render.hangul_font([tmp_path / "missing"]) is None
    with pytest.raises(AttnTutorError) as error:
        typst_render.render_pdf(worksheet.build(variant_sheets.make_sheets(load_problem_set(None)), "ko"), title="t", lang="ko", font_dirs_=[tmp_path / "missing"])
    assert error.value.problems[0].key == "export.no_hangul_font"


def test_pdf_to_a_terminal_is_refused(run_cli, monkeypatch):
    from attn_tutor.cli import export as cli_export

    monkeypatch.setattr(cli_export, "_stdout_is_terminal", lambda: True)
    result = run_cli("export", "-f", "pdf")
    assert result.exit_code == 2 and "-o FILE" in result.output


@pytest.mark.cjk_font
def test_a_typst_failure_is_a_sentence_not_a_traceback(run_cli, tmp_path, monkeypatch):
    import typst

    def broken(*args, **kwargs):
        raise RuntimeError("error: unexpected argument\n  at line 3")

    monkeypatch.setattr(typst, "compile", broken)
    out = tmp_path / "sheet.pdf"
    result = run_cli("export", "-o", str(out))
    assert result.exit_code == 1 and "could not typeset the PDF: error: unexpected argument;" in result.output
    assert not out.exists() and "Traceback" not in result.output
