"""`export -f pdf` typeset by Typst in this process: the same bytes each time, a Hangul font found or asked for.

Reading the PDFs back (pdftotext, pdfinfo) is tests/e2e/test_pdf_export.py.
"""

from __future__ import annotations

import sys

import pytest
from helpers.sheets import export_pdf, one_problem_set

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import speaking
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
    with speaking("ko"):
        for blocks in (worksheet.build(sheets, part="with_answers"), worksheet.key_table_blocks(sheets)):
            assert typst_render.render_pdf(blocks, title="t", quiet=False).startswith(b"%PDF-")


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


BUNDLED = typst_render.BUNDLED_FONTS / "NotoSansCJKkr-Hangul-Regular.otf"


def test_a_hangul_font_is_found_by_loading_it_not_by_its_file_name(tmp_path):
    """A damaged NanumGothic.ttf (random bytes, or a good font cut short) is passed over and named;
    a good font under any file name is found by the family inside it."""
    data = BUNDLED.read_bytes()
    (tmp_path / "random").mkdir()
    (tmp_path / "random" / "NanumGothic.ttf").write_bytes(bytes(range(256)) * 800)
    (tmp_path / "cut").mkdir()
    (tmp_path / "cut" / "NanumGothic.ttf").write_bytes(data[: len(data) // 2])
    (tmp_path / "good" / "deep").mkdir(parents=True)
    (tmp_path / "good" / "deep" / "my-font.otf").write_bytes(data)
    for bad in ("random", "cut"):
        skipped: list = []
        assert typst_render.hangul_font([tmp_path / bad], skipped=skipped) is None
        assert skipped == [tmp_path / bad / "NanumGothic.ttf"]
    skipped = []
    found = typst_render.hangul_font([tmp_path / "random", tmp_path / "good"], skipped=skipped)
    assert found == ("Noto Sans CJK KR", tmp_path / "good" / "deep")
    assert skipped == [tmp_path / "random" / "NanumGothic.ttf"]
    assert typst_render.hangul_font([tmp_path / "missing"]) is None
    with pytest.raises(AttnTutorError) as error:
        with speaking("ko"):
            typst_render.render_pdf(worksheet.build(variant_sheets.make_sheets(load_problem_set(None))), title="t", font_dirs_=[tmp_path / "missing"])
    assert error.value.problems[0].key == "export.no_hangul_font"


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the system's font folders named by XDG_DATA_DIRS")
def test_the_package_font_comes_last_and_a_font_the_user_names_first(tmp_path, monkeypatch):
    home, data = tmp_path / "home", tmp_path / "data"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_DIRS", str(data))
    monkeypatch.delenv("ATTN_TUTOR_FONT_DIRS", raising=False)
    assert typst_render.font_dirs()[-1] == typst_render.BUNDLED_FONTS
    assert typst_render.hangul_font() == ("Noto Sans CJK KR", typst_render.BUNDLED_FONTS)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "copy.otf").write_bytes(BUNDLED.read_bytes())
    system = tmp_path / "system"
    (system / "fonts").mkdir(parents=True)
    (system / "fonts" / "system.otf").write_bytes(BUNDLED.read_bytes())
    monkeypatch.setenv("XDG_DATA_DIRS", str(system))  # (a search is made once per process for each list of folders)
    assert typst_render.hangul_font() == ("Noto Sans CJK KR", system / "fonts")  # a system font wins over the package's
    monkeypatch.setenv("ATTN_TUTOR_FONT_DIRS", str(mine))
    assert typst_render.font_dirs()[0] == mine
    assert typst_render.hangul_font() == ("Noto Sans CJK KR", mine)  # and the folder the user names wins over both


@pytest.mark.parametrize("damage", ["random bytes", "cut short"])
def test_a_damaged_font_the_user_names_is_said_and_passed_over(run_cli, tmp_path, damage):
    mine = tmp_path / "my-fonts"
    mine.mkdir()
    data = BUNDLED.read_bytes()
    (mine / "NanumGothic.ttf").write_bytes(bytes(range(256)) * 4000 if damage == "random bytes" else data[: len(data) // 3])
    out = tmp_path / "sheet.pdf"
    result = run_cli("export", "-o", str(out), "--lang", "ko", env={"ATTN_TUTOR_FONT_DIRS": str(mine)})
    said = "".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert "".join(f"글꼴 파일을 건너뜁니다: {mine / 'NanumGothic.ttf'}".split()) in said
    assert out.read_bytes().startswith(b"%PDF-") and b"NotoSansCJKkr" in out.read_bytes()  # printed in a font that loads


def test_a_damaged_package_font_with_no_other_is_named_then_refused(run_cli, tmp_path, monkeypatch):
    broken = tmp_path / "fonts"
    broken.mkdir()
    (broken / "NotoSansCJKkr-Hangul-Regular.otf").write_bytes(BUNDLED.read_bytes()[:5000])
    monkeypatch.setattr(typst_render, "BUNDLED_FONTS", broken)
    monkeypatch.setattr(typst_render, "system_font_dirs", lambda: [])
    out = tmp_path / "sheet.pdf"
    result = run_cli("export", "-o", str(out), "--lang", "en", env={"ATTN_TUTOR_FONT_DIRS": ""})
    said = "".join(result.output.split())  # as read, whatever the terminal's width (long paths wrap)
    assert result.exit_code == 1 and "Traceback" not in said
    assert "".join(f"skipped the font {broken / 'NotoSansCJKkr-Hangul-Regular.otf'}: it does not load as a font".split()) in said
    assert "noHangulfontwasfound" in said and not out.exists()


def test_pdf_to_a_terminal_is_refused(run_cli, monkeypatch):
    from attn_tutor.cli import export as cli_export

    monkeypatch.setattr(cli_export, "_stdout_is_terminal", lambda: True)
    result = run_cli("export", "-f", "pdf")
    assert result.exit_code == 2 and "-o FILE" in result.output


@pytest.mark.cjk_font
def test_a_typst_failure_is_a_sentence_not_a_traceback(run_cli, tmp_path, monkeypatch):
    import typst

    class Broken:
        def __init__(self, *args, **kwargs):
            pass

        def compile(self, *args, **kwargs):
            raise RuntimeError("error: unexpected argument\n  at line 3")

    monkeypatch.setattr(typst, "Compiler", Broken)
    out = tmp_path / "sheet.pdf"
    result = run_cli("export", "-o", str(out))
    assert result.exit_code == 1 and "could not typeset the PDF: error: unexpected argument;" in result.output
    assert not out.exists() and "Traceback" not in result.output
