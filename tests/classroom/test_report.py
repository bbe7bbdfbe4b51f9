"""`grade --class-report FILE.html`: the score distribution, verdict mix and misconception map as SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from helpers.grading import grade
from helpers.language import in_language
from helpers.output import said
from helpers.paths import TESTS

from attn_tutor.classroom import report as class_report
from attn_tutor.core.i18n import text
from attn_tutor.marking.marker import DIAGNOSES
from attn_tutor.render import svg
from attn_tutor.render.blocks import Chart

FIXTURES = TESTS / "fixtures" / "grade"
CLASS = FIXTURES / "class"
NS = "{http://www.w3.org/2000/svg}"


def svgs(page: str) -> list[ET.Element]:
    """Every chart, parsed as XML: each must be well-formed SVG on its own."""
    return [ET.fromstring(chunk) for chunk in re.findall(r"<svg\b.*?</svg>", page, flags=re.DOTALL)]


def texts(element: ET.Element) -> list[str]:
    return [node.text or "" for node in element.iter(f"{NS}text")]


def tallied_of(book):
    """(tally, counts) of a graded class: the report's counts fed the same rows as its tally."""
    counts = class_report.ClassCounts()
    for row in book.rows:
        counts.add(row)
    return book.tally, counts


@pytest.fixture(scope="module")
def book():
    return grade([CLASS])


@pytest.fixture(scope="module")
def tallied(book):
    return tallied_of(book)


def test_the_page_is_self_contained(run_cli, tmp_path):
    out = tmp_path / "report.html"
    result = run_cli("grade", str(CLASS), "--class-report", str(out))
    assert result.exit_code == 0, result.output
    assert f"class report written to {out}" in said(result)
    page = out.read_text(encoding="utf-8")
    assert "default-src 'none'" in page
    assert "<script" not in page and "<img" not in page and "<link" not in page
    assert set(re.findall(r"https?://[^\s\"')]+", page)) == {"http://www.w3.org/2000/svg"}  # a namespace, never fetched
    charts = svgs(page)
    assert len(charts) == 3
    assert all(chart.get("role") == "img" and chart.find(f"{NS}title").text for chart in charts)


def test_the_distribution_chart_counts_every_bin(tallied):
    tally, _ = tallied
    chart = class_report.distribution_chart(tally)
    drawn = ET.fromstring(svg.render(chart))
    counts = tally.distribution()
    bars = [r for r in drawn.iter(f"{NS}rect")]
    assert len(bars) == 10
    heights = [float(r.get("height")) for r in bars]
    per_student = {round(h / c, 3) for h, c in zip(heights, counts) if c}
    assert len(per_student) == 1  # each bar's height is its count, to one scale
    assert [h == 0 for h in heights] == [c == 0 for c in counts]
    labels = texts(drawn)
    assert "0–10%" in labels and "90–100%" in labels
    for count in counts:
        assert str(count) in labels


def test_the_verdict_bars_add_up_to_each_item(tallied):
    stats = tallied[0].analysis()
    chart = class_report.verdict_chart(stats)
    assert chart.labels[0] == "cat-fish · 먹었다 · scores"
    assert [sum(row) for row in chart.values] == [s.students for s in stats]
    drawn = ET.fromstring(svg.render(chart))
    assert drawn.find(f"{NS}defs/{NS}pattern").get("id") == "hatch-wrong"  # wrong is hatched: told apart in grey


def test_the_misconception_map_counts_every_diagnosis_on_every_item(book, tallied):
    chart = class_report.misconception_chart(tallied[0])
    expected = Counter(
        (item.problem, item.row, item.stage, item.diagnosis)
        for student in book.marked
        for item in student.report.items
        if item.diagnosis
    )
    drawn = {
        (label, code): count
        for label, row in zip(chart.labels, chart.values)
        for code, count in zip(chart.keys, row)
        if count
    }
    assert drawn == {
        (class_report.item_label((p, r, s)), code): count for (p, r, s, code), count in expected.items()
    }
    assert set(chart.keys) == {code for *_, code in expected}  # only mistakes someone made
    # the columns are headed by each mistake's name, never its code
    assert list(chart.series) == [in_language("en", text, f"grading.diagnosis_name.{code}") for code in chart.keys]
    cells = ET.fromstring(svg.render(chart))
    assert sum(int(t) for t in texts(cells) if t.isdigit()) == sum(expected.values())


def test_a_class_without_mistakes_says_so(tmp_path):
    only = grade([CLASS / "01-correct.yaml"])
    blocks = class_report.report_blocks(*tallied_of(only))
    assert [b.kind for b in blocks if isinstance(b, Chart)] == ["columns", "stacked"]
    assert any(getattr(b, "text", "") == "No answer matched a known mistake." for b in blocks)


def test_the_korean_report(run_cli, tmp_path):
    out = tmp_path / "보고서.html"
    assert run_cli("grade", str(CLASS), "--class-report", str(out), "--lang", "ko").exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "학급 보고서 (학생 13명)" in page and "오개념 지도" in page and "word-break: keep-all" in page
    assert "√d로 나누지 않았습니다" in page  # the mistakes explained


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_person_reads_a_diagnosis_code(run_cli, tmp_path, lang):
    """The report's map, its legend, the terminal summary and the sheets name mistakes; codes are for files."""
    report, sheets = tmp_path / "r.html", tmp_path / "sheets"
    result = run_cli("grade", str(CLASS), "--class-report", str(report), "--feedback", str(sheets), "--lang", lang)
    assert result.exit_code == 0
    shown = re.sub(r"<[^>]+>", " ", report.read_text(encoding="utf-8"))
    shown += result.output + "".join(p.read_text(encoding="utf-8") for p in sheets.iterdir())
    shown = re.sub(r'(data-[\w-]+|class)="[^"]*"', "", shown)
    codes = [code for code in DIAGNOSES if re.search(rf"(?<![\w-]){code}(?![\w-])", shown)]
    assert codes == [], codes
    assert in_language(lang, text, "grading.diagnosis_name.not_scaled") in report.read_text(encoding="utf-8")


def test_unmarkable_students_are_counted_out_and_said(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("student: x\nanswers: [\n", encoding="utf-8")
    book = grade([CLASS / "01-correct.yaml", bad])
    texts_ = [getattr(b, "text", "") for b in class_report.report_blocks(*tallied_of(book))]
    assert "1 of 2 students marked. Mean 100.0%, median 100.0%." in texts_
    assert any(text.startswith("1 could not be marked") for text in texts_)


def test_the_report_is_never_written_over_a_file_or_over_another_output(run_cli, tmp_path):
    out = tmp_path / "r.html"
    out.write_text("kept", encoding="utf-8")
    result = run_cli("grade", str(CLASS), "--class-report", str(out))
    assert result.exit_code == 2 and out.read_text(encoding="utf-8") == "kept"
    same = run_cli("grade", str(CLASS), "--class-report", str(tmp_path / "x"), "--csv", str(tmp_path / "x"))
    assert same.exit_code == 2 and "--csv and --class-report name the same file" in said(same)


def test_svg_text_is_escaped():
    chart = Chart("columns", "<b>&", ("<x>",), ("n",), ((3,),))
    drawn = svg.render(chart)
    assert "<x>" not in drawn and "&lt;x&gt;" in drawn
    ET.fromstring(drawn)


@pytest.mark.parametrize("top", [0, 1, 3, 7, 13, 99, 1000])
def test_axis_ticks_are_whole_students_and_reach_the_tallest_bar(top):
    chart = Chart("columns", "t", ("a", "b"), ("n",), ((top,), (0,)))
    drawn = ET.fromstring(svg.render(chart))
    ticks = [t.text for t in drawn.iter(f"{NS}text") if t.get("text-anchor") == "end"]
    assert all(tick.isdigit() for tick in ticks)
    assert int(ticks[0]) == 0 and int(ticks[-1]) >= top and len(ticks) <= 5


@pytest.mark.parametrize("fold_every", [1, 3, 50_000])
def test_the_reports_mistake_counts_are_each_rows_counted_one_by_one(fold_every, monkeypatch):
    """Every diagnosis on every item (the misconception map reads the tally's), counted from the rows'
    shared entries and folded in every few rows or at the end, is what counting each row's items one
    by one gives."""
    from collections import Counter

    from attn_tutor.gradebook import analysis

    monkeypatch.setattr(analysis, "SEEN", fold_every)
    book = grade([CLASS])
    expected: dict = {}
    for row in book.rows:
        for column, _points, _cell, _verdict, diagnosis in row.items if row.score is not None else ():
            if diagnosis:
                expected.setdefault(column, Counter())[diagnosis] += 1
    counted = {column: found for column, found in book.tally.diagnoses().items() if found}
    assert expected and counted == expected
