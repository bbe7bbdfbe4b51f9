"""`grade --feedback DIR`: a hand-back sheet per student, under a file name safe for any name."""

from __future__ import annotations

import re
import unicodedata
from html import unescape
from pathlib import Path

import pytest
from helpers.answers import two_heads_answers
from helpers.grading import grade
from helpers.output import said
from helpers.paths import TESTS

from attn_tutor.classroom import handback as feedback
from attn_tutor.gradebook import handback as sheet

FIXTURES = TESTS / "fixtures" / "grade"


CLASS = FIXTURES / "class"


def text_of(html: str) -> str:
    """What a reader sees: tags gone, entities decoded, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


# a student's name -> the file-name stem it gets
STEMS = [
    ("김민지", "김민지"),
    (unicodedata.normalize("NFD", "김민지"), "김민지"),  # decomposed Hangul becomes one name, NFC
    ("../../etc/passwd", "etc_passwd"),  # no way out of the directory
    ("a/b\\c", "a_b_c"),
    ("C:evil", "C_evil"),
    ('=HYPERLINK("x")', "=HYPERLINK(_x_)"),
    (".hidden", "hidden"),  # not a hidden file
    ("name. ", "name"),  # Windows drops a trailing dot or space
    ("-rf", "_rf"),  # not an option to the next command that meets it
    ("CON", "_CON"),
    ("nul.txt", "_nul.txt"),  # Windows device names, with or without a suffix
    ("tab\there\nnewline", "tab_here_newline"),
    ("\u202eevil\u200b", "evil"),  # bidi overrides and zero-width characters
    ("", "student"),
    ("...", "student"),
    ("   ", "student"),
    ("Ｋｉｍ", "Ｋｉｍ"),  # full-width letters are fine in a file name: kept as typed
]


@pytest.mark.parametrize("name, stem", STEMS, ids=[repr(n) for n, _ in STEMS])
def test_safe_stem(name, stem):
    assert feedback.safe_stem(name) == stem


def test_a_long_name_is_cut_at_a_character_not_in_one():
    stem = feedback.safe_stem("가" * 200)
    assert len(stem.encode("utf-8")) <= feedback.MAX_NAME_BYTES
    assert stem == "가" * (feedback.MAX_NAME_BYTES // 3)


def test_equal_names_get_numbers_in_order_and_case_does_not_separate_them():
    names = ["Kim", "kim", "KIM", "Kim-2", "a/b", "a_b", unicodedata.normalize("NFD", "한"), "한"]
    assert feedback.file_names(names) == [
        "Kim.html", "kim-2.html", "KIM-3.html", "Kim-2-2.html", "a_b.html", "a_b-2.html", "한.html", "한-2.html",
    ]  # fmt: skip
    folded = [n.casefold() for n in feedback.file_names(names)]
    assert len(set(folded)) == len(folded)  # distinct on a case-insensitive disk too


def test_a_sheet_shows_the_row_each_cells_mark_the_diagnosis_the_carry_and_the_working(run_cli, tmp_path):
    out = tmp_path / "sheets"
    result = run_cli("grade", str(CLASS / "02-not-scaled.yaml"), "--feedback", str(out))
    assert result.exit_code == 0, result.output
    assert "1 hand-back sheets written" in said(result)
    page = (out / "박서준.html").read_text(encoding="utf-8")
    seen = text_of(page)
    assert "박서준: your marked answers" in seen
    assert "3 / 8 (37.5%)" in seen
    # (b) scaled: the scores typed again, each cell wrong, the diagnosis, the exact row and its working
    assert "(b) scaled scores: wrong, 0 / 1" in seen
    assert "your answer 1 6 4 mark ✗ ✗ ✗ correct 0.707 4.243 2.828" in seen
    assert "You did not divide by √d" in seen
    assert "6 / √2 = 6 / 1.414 = 4.243" in seen
    # (c) weights: right from their own scaled row, which the sheet names
    assert "follow-through, 1 / 1" in seen
    assert "from your numbers 0.006 0.876 0.118" in seen
    assert "right from your own scaled row (1, 6, 4)" in seen
    # the row never answered is shown worked out
    assert "No answer was found for this stage." in seen
    assert "고양이가·생선을 = 2×0 + 1×2 = 2" in seen
    # self-contained
    assert "Content-Security-Policy" in page and "<script" not in page


def test_a_korean_sheet_breaks_between_words(run_cli, tmp_path):
    out = tmp_path / "sheets"
    result = run_cli("grade", str(CLASS / "04-no-exp.yaml"), "--feedback", str(out), "--lang", "ko")
    assert result.exit_code == 0, result.output
    page = (out / "최도윤.html").read_text(encoding="utf-8")
    assert '<html lang="ko">' in page and "word-break: keep-all" in page
    seen = text_of(page)
    assert "최도윤: 채점 결과" in seen
    assert "e^x를 구하지 않고" in seen
    assert "앞 단계 가중치에서 구한 본인 값 (0.091, 0.545, 0.364)" in seen


def test_every_student_gets_a_page_and_hostile_names_stay_inside(run_cli, tmp_path):
    out = tmp_path / "sheets"
    result = run_cli("grade", str(CLASS), "--feedback", str(out))
    assert result.exit_code == 0, result.output
    made = sorted(p.name for p in out.iterdir())
    assert len(made) == 13
    assert all(Path(out, name).resolve().parent == out.resolve() for name in made)
    assert "@SUM(A1_A2).html" in made
    hostile = next(p for p in out.iterdir() if p.name.startswith("=HYPERLINK"))
    assert "&lt;" not in hostile.name and "\n" not in hostile.name
    assert "=HYPERLINK(&quot;http://x&quot;" in hostile.read_text(encoding="utf-8")  # the name, escaped in the page


def test_an_existing_sheet_is_never_overwritten_and_nothing_else_is_written(run_cli, tmp_path):
    out = tmp_path / "sheets"
    out.mkdir()
    (out / "김민지.html").write_text("kept", encoding="utf-8")
    gradebook = tmp_path / "book.csv"
    result = run_cli("grade", str(CLASS / "01-correct.yaml"), "--feedback", str(out), "--csv", str(gradebook))
    assert result.exit_code == 2
    assert "already exists" in said(result)
    assert (out / "김민지.html").read_text(encoding="utf-8") == "kept"
    assert not gradebook.exists()
    again = run_cli("grade", str(CLASS / "01-correct.yaml"), "--feedback", str(out), "--force")
    assert again.exit_code == 0 and "kept" not in (out / "김민지.html").read_text(encoding="utf-8")


def test_a_feedback_path_that_is_a_file_is_refused_before_any_work(run_cli, tmp_path):
    target = tmp_path / "sheets"
    target.write_text("x", encoding="utf-8")
    result = run_cli("grade", str(CLASS / "01-correct.yaml"), "--feedback", str(target))
    assert result.exit_code == 2 and "is not a directory" in said(result)


def test_an_unmarkable_student_still_gets_a_page_saying_so(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("student: 누구\nanswers: [1, 2\n", encoding="utf-8")
    (student,) = grade([bad]).students  # as the worker that marked them has them
    assert student.set_key is None  # no set to solve: the worker's sheet is made with none
    blocks = sheet.sheet_blocks(student, None)
    texts = [getattr(b, "text", "") for b in blocks]
    assert any("could not be marked" in text for text in texts)
    assert any("the '[' opened at line 2, column 10 is not closed" in text for text in texts)


def test_a_variant_sheet_works_on_the_variants_own_numbers(run_cli, tmp_path):
    answer = tmp_path / "v.yaml"
    answer.write_text("student: 변형\nproblem_set: ch13\nvariant: 42001\nanswers: {}\n", encoding="utf-8")
    out = tmp_path / "sheets"
    assert run_cli("grade", str(answer), "--feedback", str(out)).exit_code == 0
    page = text_of((out / "변형.html").read_text(encoding="utf-8"))
    from attn_tutor.core.rounding import fmt
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.solve import engine
    from attn_tutor.variants.generate import variant_set

    varied = variant_set(load_problem_set("ch13"), 42001)
    first = varied.problems[0]
    row = first.row_index(first.asked_rows[0])
    exact = engine.solve(first).stage_row("weights", row)
    assert " ".join(fmt(w, first.decimals) for w in exact) in page


def test_no_output_lands_on_the_roster_or_on_a_sheet(run_cli, tmp_path):
    people = tmp_path / "roster.csv"
    people.write_text("Student,ID,Section\n김민지,1,A\n", encoding="utf-8")
    result = run_cli("grade", str(CLASS / "01-correct.yaml"), "--roster", str(people), "--csv", str(people), "--force")
    assert result.exit_code == 2 and "is one of this command's inputs" in said(result)
    assert people.read_text(encoding="utf-8").startswith("Student,ID")
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    clash = run_cli(
        "grade", str(CLASS / "01-correct.yaml"), "--feedback", str(sheets), "--class-report", str(sheets / "김민지.html")
    )
    assert clash.exit_code == 2 and "--class-report and --feedback name the same file" in said(clash)


def test_sheets_and_report_are_the_same_bytes_when_run_again(run_cli, tmp_path):
    made = []
    for n in (1, 2):
        out = tmp_path / f"sheets{n}"
        result = run_cli("grade", str(CLASS), "--feedback", str(out), "--class-report", str(tmp_path / f"r{n}.html"))
        assert result.exit_code == 0, result.output
        made.append({p.name: p.read_bytes() for p in out.iterdir()} | {"report": (tmp_path / f"r{n}.html").read_bytes()})
    assert made[0] == made[1]


def test_pdf_sheets_without_a_hangul_font_say_what_to_install_before_writing(run_cli, tmp_path, monkeypatch):
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    monkeypatch.setattr("attn_tutor.render.typst.font_dirs", lambda: [empty])
    out = tmp_path / "pdf"
    book = tmp_path / "book.csv"
    result = run_cli("grade", str(CLASS / "04-no-exp.yaml"), "--feedback", str(out), "--feedback-format", "pdf", "--csv", str(book))
    assert result.exit_code == 1
    assert "no Hangul font was found" in said(result) and "fonts-noto-cjk" in said(result)
    assert not book.exists() and not out.exists()


def test_two_heads_get_a_table_each_and_masked_cells_read_as_masked(run_cli, tmp_path):
    out = tmp_path / "sheets"
    result = run_cli("grade", str(two_heads_answers(tmp_path / "a.yaml")), "--feedback", str(out))
    assert result.exit_code == 0, result.output
    seen = text_of((out / "두헤드.html").read_text(encoding="utf-8"))
    assert "(b) scaled scores: partly right, 0.17 / 1 — head 1" in seen
    assert "head 2 먹었다 고양이가 생선을 먹었다 your answer 4 0 2 mark ✗ ✓ ✗" in seen
    assert "head 1·" not in seen  # keys, not head-prefixed labels, in each head's table
    assert "[2] 4 / √2 = 4 / 1.414 ≈ 2.828" in seen  # each head's working


@pytest.mark.parametrize("breaks", ["sheet_blocks", "render_sheet"])
def test_a_sheet_that_cannot_be_made_stops_every_output_before_any_is_written(run_cli, tmp_path, monkeypatch, breaks):
    """A sheet that breaks is a sentence and exit 1, and nothing is half-written: no gradebook,
    no JSON, no report, no sheet (the checks run before the first file)."""

    def broken(*args, **kwargs):
        raise RuntimeError("the sheet broke")

    monkeypatch.setattr(sheet, breaks, broken)
    out = tmp_path / "out"
    result = run_cli(
        "grade", str(CLASS), "--csv", str(tmp_path / "book.csv"), "--json", str(tmp_path / "book.json"),
        "--class-report", str(tmp_path / "report.html"), "--feedback", str(out), "--jobs", "1",
    )  # fmt: skip
    assert result.exit_code == 1
    assert "the sheet broke" in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []
