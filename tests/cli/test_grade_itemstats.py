"""`grade`'s item statistics through the command line (issue 35, rule 6), in both languages: a
class under 30 students gets one caution with its number (terminal, JSON, class report) and no
flag on D or r_pb; from 30 on, each flag names the figures that raised it, beside those figures."""

from __future__ import annotations

import csv
import html
import json

import pytest
from helpers.language import in_language
from helpers.output import flat
from helpers.paths import TESTS

from attn_tutor.core.i18n import t
from attn_tutor.gradebook.itemstats import MIN_STUDENTS

SET = TESTS / "fixtures" / "grade" / "set.yaml"
STAGES = ("scores", "scaled", "weights", "output")
RIGHT = {
    "먹었다": ("1 6 4", "0.71 4.24 2.83", "0.023 0.786 0.191", "0.214 0.977"),
    "고양이가": ("2 2 3", "1.414 1.414 2.121", "0.248 0.248 0.503", "0.752 0.752"),
}
COLUMNS = [(row, stage, right) for row, answers in RIGHT.items() for stage, right in zip(STAGES, answers)]


def write_class(path, students: int):
    """``students`` students cycling through ten kinds: kind k (1..10) answers the first seven items
    right while k ≤ 10 − item (the strong get more right); the eighth only kinds 8–10 (the weak):
    that item discriminates negatively, as D and r_pb both say."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["student", *(f"cat-fish/{row}/{stage}" for row, stage, _ in COLUMNS)])
        for number in range(students):
            kind = number % 10 + 1
            cells = [right if kind <= 10 - item else "" for item, (_, _, right) in enumerate(COLUMNS[:7], start=1)]
            cells.append(COLUMNS[7][2] if kind >= 8 else "")
            writer.writerow([f"S{number + 1}", *cells])
    return path


def grade(run_cli, tmp_path, students: int, lang: str):
    answers = write_class(tmp_path / "class.csv", students)
    out, page = tmp_path / "out.json", tmp_path / "report.html"
    result = run_cli("grade", str(answers), "--problems", str(SET), "--json", str(out), "--class-report", str(page), "--lang", lang)
    assert result.exit_code == 0, result.output
    return flat(result.output), json.loads(out.read_text("utf-8")), flat(html.unescape(page.read_text("utf-8")))


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("students", [2, 5, 13, MIN_STUDENTS - 1, MIN_STUDENTS, 40])
def test_a_small_class_gets_one_caution_a_large_one_named_flags(run_cli, tmp_path, students, lang):
    shown, data, page = grade(run_cli, tmp_path, students, lang)
    sentence = in_language(lang, t, "grade.small_class", students=students, minimum=MIN_STUDENTS)
    last = data["item_analysis"][-1]  # 고양이가 · output: the weak answer it right
    negative = in_language(lang, t, "grade.flag.negative")
    if students < MIN_STUDENTS:
        assert shown.count(sentence) == 1 and page.count(sentence) == 1  # said once, with the number
        caution = data["statistics_caution"]
        assert (caution["students"], caution["minimum"], caution["message"]) == (students, MIN_STUDENTS, sentence)
        for item in data["item_analysis"]:  # no item flagged on D or r_pb
            assert not {"negative", "weak"} & set(item["flags"])
            assert all(reason["figure"] == "facility" for reason in item["flag_reasons"])
        assert negative not in shown and negative not in page
    else:
        assert data["statistics_caution"] is None and sentence not in shown
        assert last["flags"] == ["negative"]
        d, r = (f"{last[name]:.2f}" for name in ("discrimination", "point_biserial"))
        said = in_language(lang, t, "grade.flag_reason", flag=negative, figures=f"D {d} < 0, r_pb {r} < 0")
        assert said in shown and said in page


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("students", [5, 40])
def test_every_flag_shown_holds_of_the_figures_beside_it(run_cli, tmp_path, students, lang):
    """The JSON's reasons are the item's own figures and meet their tests; the terminal's check
    column says each of them, as the figure columns show it."""
    shown, data, _ = grade(run_cli, tmp_path, students, lang)
    tests = {"<": float.__lt__, "≤": float.__le__, "≥": float.__ge__}
    for item in data["item_analysis"]:
        assert {reason["flag"] for reason in item["flag_reasons"]} == set(item["flags"])
        for reason in item["flag_reasons"]:
            assert reason["value"] == item[reason["figure"]]
            assert tests[reason["test"]](float(reason["value"]), float(reason["bound"]))
            name = in_language(lang, t, f"grade.col.{reason['figure']}")
            assert f"{name} {reason['value']:.2f} {reason['test']}" in shown
