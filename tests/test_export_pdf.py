"""`export -f pdf` (Typst) and `export --key-table`, read back as a reader sees them.

PDFs are read with poppler's pdftotext and pdfinfo (installed by .ci/run): the
text of each page, the page count and the paper size. In CI a missing tool or
Hangul font fails these tests rather than skipping them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attn_tutor import worksheet
from attn_tutor.errors import AttnTutorError
from attn_tutor.model import Head, Problem, ProblemSet
from attn_tutor.problem_dump import dump_problem_set
from attn_tutor.problem_load import load_problem_set
from attn_tutor.render import typst as typst_render


def need_poppler() -> None:
    if shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have poppler-utils (pdftotext, pdfinfo): .ci/run installs it")
        pytest.skip("poppler-utils not installed")


def need_hangul_font() -> None:
    if typst_render.hangul_font() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have a Hangul font (fonts-noto-cjk): .ci/run installs it")
        pytest.skip("no Hangul font here")


def pdf_pages(path: Path) -> list[str]:
    """The text of every page (pdftotext separates pages with form feeds)."""
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    return pages[:-1] if pages and pages[-1].strip() == "" else pages


def pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def one_problem_set(tmp_path: Path, tokens=("고양이가", "생선을", "먹었다"), title="한 문제") -> Path:
    problem = Problem(
        id="one",
        title=title,
        tokens=tuple(tokens),
        heads=(Head(Q=((2.0, 1.0), (1.0, 2.0), (1.0, 3.0)), K=((1.0, 0.0), (0.0, 2.0), (1.0, 1.0)), V=((1.0, 0.0), (0.0, 1.0), (1.0, 1.0))),),
        rows=(tokens[2],),
    )
    path = tmp_path / "one.yaml"
    path.write_text(dump_problem_set(ProblemSet((problem,), title=title)), encoding="utf-8")
    return path


def export_pdf(run_cli, out: Path, *args: str) -> Path:
    result = run_cli("export", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF-")
    return out


def test_each_variant_is_one_page_in_korean_with_its_number_and_tokens(run_cli, tmp_path):
    need_poppler()
    need_hangul_font()
    path = one_problem_set(tmp_path)
    out = export_pdf(run_cli, tmp_path / "sheets.pdf", str(path), "--variants", "4", "--seed", "12", "--lang", "ko")
    pages = pdf_pages(out)
    assert len(pages) == 4 == int(pdf_info(out)["Pages"])  # one page per variant: its tables fit one page
    for k, page in enumerate(pages, start=1):
        assert f"변형 {12000 + k}" in page and f"variant: {12000 + k}" in page
        for token in ("고양이가", "생선을", "먹었다", "이름", "스코어", "가중치"):
            assert token in page


def test_answers_follow_on_their_own_pages_and_the_key_has_the_numbers(run_cli, tmp_path):
    need_poppler()
    need_hangul_font()
    path = one_problem_set(tmp_path)
    out = export_pdf(run_cli, tmp_path / "both.pdf", str(path), "--answers", "--lang", "ko")
    pages = pdf_pages(out)
    assert 2 <= len(pages) <= 3
    assert "정답" not in pages[0] and "정답" in pages[1]
    key = "\n".join(pages[1:])
    for number in ("0.786", "0.191", "4.243", "0.214", "0.977"):  # the chapter's 먹었다 row
        assert number in key


def test_packaged_set_pdf_keeps_every_problem_and_starts_each_variant_on_a_new_page(run_cli, tmp_path):
    need_poppler()
    need_hangul_font()
    out = export_pdf(run_cli, tmp_path / "set.pdf", "--variants", "2", "--seed", "5", "--lang", "ko")
    pages = pdf_pages(out)
    starts = [i for i, page in enumerate(pages) if re.search(r"변형 500[12]\s", page) and "이름" in page]
    assert len(starts) == 2 and starts[0] == 0
    for first, last in ((0, starts[1]), (starts[1], len(pages))):
        text = "\n".join(pages[first:last])
        for problem in load_problem_set(None).problems:
            assert problem.id in text


def test_same_input_gives_the_same_bytes(run_cli, tmp_path):
    first = export_pdf(run_cli, tmp_path / "a.pdf", "--variants", "2", "--seed", "3")
    second = export_pdf(run_cli, tmp_path / "b.pdf", "--variants", "2", "--seed", "3")
    assert first.read_bytes() == second.read_bytes()


def test_paper_is_a4_unless_letter_is_asked(run_cli, tmp_path):
    need_poppler()
    a4 = pdf_info(export_pdf(run_cli, tmp_path / "a4.pdf"))["Page size"]
    letter = pdf_info(export_pdf(run_cli, tmp_path / "letter.pdf", "--paper", "letter"))["Page size"]
    assert "595.276 x 841.89" in a4 and "(A4)" in a4
    assert "612 x 792" in letter


HOSTILE = ["#set", "*b*", "$x$", "[a]", "\\n", '"q"', "//c", "<l>", "@r", "_i_", "=h", "`r`"]


def test_typst_syntax_in_tokens_prints_as_typed(run_cli, tmp_path):
    need_poppler()
    path = one_problem_set(tmp_path, tokens=tuple(HOSTILE[:3]), title="T #x *y* $z$ [w] // \\")
    out = export_pdf(run_cli, tmp_path / "hostile.pdf", str(path), "--answers")
    text = "\n".join(pdf_pages(out))
    for token in HOSTILE[:3]:
        assert token in text
    assert "T #x *y* $z$ [w] // \\" in text
    for token in HOSTILE:  # every one survives the string literal
        assert typst_render.string(token) == '"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_the_typst_source_compiles_without_warnings():
    """Typst's warnings (an unknown font, a bad argument) are errors here (filterwarnings = error)."""
    sheets = worksheet.make_sheets(load_problem_set(None), variants=1, seed=1)
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
        typst_render.render_pdf(worksheet.build(worksheet.make_sheets(load_problem_set(None)), "ko"), title="t", lang="ko", font_dirs_=[tmp_path / "missing"])
    assert error.value.problems[0].key == "export.no_hangul_font"


def test_pdf_to_a_terminal_is_refused(run_cli, monkeypatch):
    from attn_tutor import cli

    monkeypatch.setattr(cli, "_stdout_is_terminal", lambda: True)
    result = run_cli("export", "-f", "pdf")
    assert result.exit_code == 2 and "-o FILE" in result.output


# --- the key table ---------------------------------------------------------------------


def test_key_table_has_one_line_per_variant_row_and_stage_in_every_format(run_cli, tmp_path):
    sheets = worksheet.make_sheets(load_problem_set(None), variants=3, seed=8)
    asked = sum(len(p.asked_rows) * len(worksheet.asked_stages(p)) for p in sheets[0].problem_set.problems)
    md = run_cli("export", "-f", "md", "--key-table", "--variants", "3", "--seed", "8").output
    lines = [line for line in md.splitlines() if line.startswith("| **800")]
    assert len(lines) == 3 * asked
    first = sheets[0].problem_set.get("cat-fish")
    from attn_tutor import engine
    from attn_tutor.numbers import fmt

    weights = engine.solve(first).stage_row("weights", first.row_index("먹었다"))
    assert f"| **8001** | cat-fish | 먹었다 | weights | {', '.join(fmt(w, 3) for w in weights)} |" in lines
    html = run_cli("export", "-f", "html", "--key-table", "--variants", "3", "--seed", "8").output
    assert html.count("<tr>") == 3 * asked + 1
    tex = run_cli("export", "-f", "tex", "--key-table", "--variants", "3", "--seed", "8").output
    assert r"\begin{longtable}" in tex and tex.count(r" \\") == 3 * asked + 1


def test_key_table_pdf_runs_over_pages_with_every_variant(run_cli, tmp_path):
    need_poppler()
    need_hangul_font()
    out = export_pdf(run_cli, tmp_path / "key.pdf", "--key-table", "--variants", "3", "--seed", "8", "--lang", "ko")
    pages = pdf_pages(out)
    assert 2 <= len(pages) <= 6
    text = "\n".join(pages)
    for number in ("8001", "8002", "8003"):
        assert text.count(number) >= 20
    assert all("변형" in page and "정답" in page for page in pages)  # the header repeats on every page


def test_key_table_without_variants_has_no_variant_column(run_cli):
    md = run_cli("export", "-f", "md", "--key-table").output
    assert "| problem | row | stage | answer |" in md and "variant" not in md.split("| problem")[1][:40]


@pytest.mark.parametrize("args", [["--key-table", "--answers"], ["--key-table", "--key-only"]])
def test_key_table_alone(run_cli, args):
    result = run_cli("export", *args)
    assert result.exit_code == 2 and "--key-table" in result.output


def test_a_typst_failure_is_a_sentence_not_a_traceback(run_cli, tmp_path, monkeypatch):
    import typst

    def broken(*args, **kwargs):
        raise RuntimeError("error: unexpected argument\n  at line 3")

    monkeypatch.setattr(typst, "compile", broken)
    out = tmp_path / "sheet.pdf"
    result = run_cli("export", "-o", str(out))
    assert result.exit_code == 1 and "could not typeset the PDF: error: unexpected argument;" in result.output
    assert not out.exists() and "Traceback" not in result.output


def test_paper_applies_to_tex_and_is_refused_where_a_browser_chooses(run_cli):
    letter = run_cli("export", "-f", "tex", "--paper", "letter").output
    assert r"\usepackage[letterpaper," in letter and "a4paper" not in letter
    assert r"\usepackage[a4paper," in run_cli("export", "-f", "tex").output
    for fmt in ("html", "md"):
        result = run_cli("export", "-f", fmt, "--paper", "letter")
        assert result.exit_code == 2 and "--paper" in result.output
