"""Item statistics through `attn-tutor grade`: the terminal table, `--json`'s item analysis, the class report.

A class of ten worked on paper, one CSV row each, against tests/fixtures/grade/set.yaml (eight
items: the rows 먹었다 and 고양이가, four stages each). Student s (1..10) answers the first seven
items in order right while s ≤ 10 − item (item 1: S1–S9 ... item 7: S1–S3, so a Guttman pattern);
the eighth (고양이가 · output) only the three weakest, S8–S10, answer right. Every other cell is
blank (missing, 0).

Totals: S1–S3 7, S4 6, S5 5, S6 4, S7 3, S8 2 + 1 = 3, S9 1 + 1 = 2, S10 0 + 1 = 1.
Groups (g = round(0.27 · 10) = 3): upper S1, S2, S3 (totals 7, 7, 7); lower: S10 and S9 are below
the cut total 3, S7 and S8 tied at it share the seat left (½ each).

Item 1 (먹었다 · scores): F = 9/10 = 0.9; upper 1; lower (0 + 1 + ½ + ½)/3 = 2/3; D = 0.3333.
Item 8 (고양이가 · output): F = 3/10 = 0.3; upper 0; lower (1 + 1 + ½·0 + ½·1)/3 = 0.8333;
D = −0.8333: flagged negative (the strong students miss it).
"""

from __future__ import annotations

import csv
import html
import json

from helpers.output import flat
from helpers.paths import TESTS

SET = TESTS / "fixtures" / "grade" / "set.yaml"
STAGES = ("scores", "scaled", "weights", "output")
RIGHT = {
    "먹었다": ("1 6 4", "0.71 4.24 2.83", "0.023 0.786 0.191", "0.214 0.977"),
    "고양이가": ("2 2 3", "1.414 1.414 2.121", "0.248 0.248 0.503", "0.752 0.752"),
}
COLUMNS = [(row, stage, right) for row, answers in RIGHT.items() for stage, right in zip(STAGES, answers)]


def write_class(path, copies: int = 1):
    """The class of ten (``copies`` times over: S1, S1·2, ...)."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["student", *(f"cat-fish/{row}/{stage}" for row, stage, _ in COLUMNS)])
        for copy in range(1, copies + 1):
            for s in range(1, 11):
                cells = [right if s <= 10 - item else "" for item, (_, _, right) in enumerate(COLUMNS[:7], start=1)]
                cells.append(COLUMNS[7][2] if s >= 8 else "")
                writer.writerow([f"S{s}" + (f"·{copy}" if copy > 1 else ""), *cells])
    return path


def test_grade_shows_json_and_reports_the_statistics(run_cli, tmp_path):
    answers = write_class(tmp_path / "class.csv")
    result = run_cli(
        "grade", str(answers), "--problems", str(SET), "--json", str(tmp_path / "out.json"),
        "--class-report", str(tmp_path / "report.html"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    items = json.loads((tmp_path / "out.json").read_text("utf-8"))["item_analysis"]
    first, last = items[0], items[-1]
    assert (first["row"], first["stage"], last["row"], last["stage"]) == ("먹었다", "scores", "고양이가", "output")
    assert (first["facility"], first["discrimination"], first["flags"]) == (0.9, 0.3333, [])
    # ten students: too few for D and r_pb to flag anything (one caution instead, with the number)
    assert (last["facility"], last["discrimination"], last["flags"], last["flag_reasons"]) == (0.3, -0.8333, [], [])
    assert last["point_biserial"] < 0
    assert all(-1 <= item["point_biserial"] <= 1 for item in items)
    assert "options" not in first  # numeric items have no options
    caution = json.loads((tmp_path / "out.json").read_text("utf-8"))["statistics_caution"]
    assert (caution["students"], caution["minimum"], caution["items"], caution["total"]) == (10, 30, 8, 8)
    assert caution["message"].startswith("Only 10 students")

    assert "Item statistics: cat-fish" in result.output
    assert flat(result.output).count("Only 10 students: D, r_pb") == 1
    shown = {" ".join(line.split()[:3]): line.split()[3:] for line in result.output.splitlines() if " · " in line}
    assert shown["먹었다 · scores"] == ["0.90", "0.33", f"{first['point_biserial']:.2f}"]
    assert shown["고양이가 · output"] == ["0.30", "-0.83", f"{last['point_biserial']:.2f}"]  # and no flag

    page = flat((tmp_path / "report.html").read_text("utf-8"))
    assert "Item statistics: cat-fish" in page and "Only 10 students" in page and "discriminates negatively" not in page


def test_thirty_students_are_flagged_and_each_flag_names_its_figures(run_cli, tmp_path):
    answers = write_class(tmp_path / "class.csv", copies=3)
    result = run_cli("grade", str(answers), "--problems", str(SET), "--json", str(tmp_path / "out.json"), "--class-report", str(tmp_path / "r.html"))
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out.json").read_text("utf-8"))
    assert data["statistics_caution"] is None
    last = data["item_analysis"][-1]
    assert last["flags"] == ["negative"]
    assert [(r["flag"], r["figure"], r["test"], r["bound"]) for r in last["flag_reasons"]] == [
        ("negative", "discrimination", "<", 0.0), ("negative", "point_biserial", "<", 0.0),
    ]  # fmt: skip
    d, r = (f"{last[name]:.2f}" for name in ("discrimination", "point_biserial"))
    said = f"discriminates negatively: check the key (D {d} < 0, r_pb {r} < 0)"
    assert said in flat(result.output) and said in flat(html.unescape((tmp_path / "r.html").read_text("utf-8")))
    assert "Only" not in result.output


def test_the_statistics_in_korean(run_cli, tmp_path):
    small = run_cli("grade", str(write_class(tmp_path / "class.csv")), "--problems", str(SET), "--lang", "ko")
    assert small.exit_code == 0, small.output
    assert "문항 통계: cat-fish" in small.output and "역변별" not in small.output
    assert "학생이 10명뿐입니다" in flat(small.output)
    large = run_cli("grade", str(write_class(tmp_path / "class30.csv", copies=3)), "--problems", str(SET), "--lang", "ko")
    assert "역변별: 정답 확인 필요 (D -0." in flat(large.output) and "학생이" not in large.output


def test_undefined_statistics_are_null_in_the_json_and_a_dash_on_the_terminal(run_cli, tmp_path):
    answers = write_class(tmp_path / "class.csv")
    one = tmp_path / "one.csv"
    one.write_text("\n".join(answers.read_text("utf-8").splitlines()[:2]) + "\n", encoding="utf-8")  # S1 alone
    result = run_cli("grade", str(one), "--problems", str(SET), "--json", str(tmp_path / "out.json"))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "out.json").read_text("utf-8")
    assert "NaN" not in text
    first = json.loads(text)["item_analysis"][0]
    assert (first["facility"], first["discrimination"], first["point_biserial"]) == (1.0, None, None)
    assert first["flags"] == ["easy"]
    shown = [line.split() for line in result.output.splitlines() if line.lstrip().startswith("먹었다 · scores")]
    assert shown[-1][3:6] == ["1.00", "—", "—"]


def _answers(run_cli, variant=None) -> dict:
    args = ["solve", "ch13", "--format", "json"] + ([] if variant is None else ["--variant", str(variant)])
    return {item["id"]: item for item in json.loads(run_cli(*args).output)["concepts"]}


def _student(path, name, choices, variant=None):
    lines = [f"student: {name}", "problem_set: ch13"] + ([f"variant: {variant}"] if variant is not None else [])
    lines += ["answers:", "concepts:"] + [f'  {key}: "{value}"' for key, value in choices.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_choice_items_options_are_counted_by_option_across_variants(run_cli, tmp_path, monkeypatch):
    """Four students on ch13's concept items (every numeric answer left blank, so the totals are the
    concept points). Ann and Vic (on variant 42017, answering with her own sheet's labels) choose
    every right answer; Bob the same but for why-scale, where he picks the file's option B; Cat
    answers nothing. Totals 14, 14, 13, 0; n = 4 gives groups of round(1.08) = 1 seat: Ann and Vic
    share the upper one (½ each), Cat is the lower group.

    why-scale in the file's labels: A (right) chosen by Ann and Vic: all 2/4 = 0.5, upper 1, lower 0;
    B by Bob alone: all 0.25, in neither group; C and D by no one: "unused". Vic's own label for
    the right option is another letter: counted under the file's A, not under her letter."""
    monkeypatch.chdir(tmp_path)
    plain, varied = _answers(run_cli), _answers(run_cli, 42017)
    assert varied["why-scale"]["answer"] != plain["why-scale"]["answer"]  # her sheet's letter differs
    assert plain["why-scale"]["answer"] == ["A"]

    def right(items):
        return {key: " ".join(item["answer"][:1] if item.get("tied") else item["answer"]) for key, item in items.items()}

    (tmp_path / "class").mkdir()
    _student(tmp_path / "class" / "ann.yaml", "Ann", right(plain))
    _student(tmp_path / "class" / "vic.yaml", "Vic", right(varied), variant=42017)
    _student(tmp_path / "class" / "bob.yaml", "Bob", {**right(plain), "why-scale": "B"})
    _student(tmp_path / "class" / "cat.yaml", "Cat", {})
    result = run_cli("grade", "class", "--json", "out.json", "--class-report", "report.html")
    assert result.exit_code == 0, result.output
    analysis = json.loads((tmp_path / "out.json").read_text("utf-8"))["item_analysis"]
    scale = next(item for item in analysis if item.get("concept") == "why-scale")
    assert (scale["facility"], scale["discrimination"], scale["flags"]) == (0.5, 1.0, [])
    assert scale["options"] == {
        "A": {"overall": 0.5, "upper": 1.0, "lower": 0.0, "flags": ["right"]},
        "B": {"overall": 0.25, "upper": 0.0, "lower": 0.0, "flags": []},
        "C": {"overall": 0.0, "upper": 0.0, "lower": 0.0, "flags": ["unused"]},
        "D": {"overall": 0.0, "upper": 0.0, "lower": 0.0, "flags": ["unused"]},
    }
    steps = next(item for item in analysis if item.get("concept") == "steps")
    assert "options" not in steps and steps["facility"] == 0.75  # an order item: no option shares
    assert "Options chosen: concepts · why-scale" in result.output
    assert "Options chosen: concepts · why-scale" in (tmp_path / "report.html").read_text("utf-8")
