"""``kind: sampling`` through the command line: solve (tables and the JSON contract), list,
validate, quiz and a class graded end to end with both kinds in one set."""

from __future__ import annotations

import csv
import json
import textwrap

import pytest
from helpers.output import flat

MIXED = textwrap.dedent("""\
    title: 13장과 14장
    problems:
      - id: cat-fish
        tokens: [고양이가, 생선을, 먹었다]
        Q: [[2, 1], [1, 2], [1, 3]]
        K: [[1, 0], [0, 2], [1, 1]]
        rows: [먹었다]
        ask: [weights]
      - id: next-word
        kind: sampling
        tokens: [생선을, 우유를, 밥을]
        logits: [2, 1, 0.1]
        temperature: 0.5
        top_p: 0.9
        draw: 0.7
        target: 생선을
        stages: [scaled, probabilities, kept, pick, loss]
      - id: three
        kind: sampling
        tokens: [a, b, c]
        steps:
          - {logits: [1, 2, 3], target: c}
          - {logits: [0, 0, 1], target: a}
""")


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "set.yaml"
    path.write_text(MIXED, encoding="utf-8")
    return path


def test_solve_json_gives_the_contract_s_kind_and_stages(run_cli, mixed):
    result = run_cli("solve", str(mixed), "--format", "json")
    assert result.exit_code == 0, result.output
    problems = {p["id"]: p for p in json.loads(result.stdout)["problems"]}
    attention, sampling, steps = problems["cat-fish"], problems["next-word"], problems["three"]
    assert "kind" not in attention and attention["weights"]  # attention's shape, unchanged
    assert sampling["kind"] == "sampling"
    stages = sampling["stages"]
    assert set(stages) == {"scaled", "exp", "probabilities", "kept", "pick", "loss"}
    assert stages["scaled"] == [4.0, 2.0, 0.2]
    assert [round(p, 6) for p in stages["probabilities"]] == [0.863777, 0.1169, 0.019323]
    assert {token: round(p, 6) for token, p in stages["kept"].items()} == {"생선을": 0.880797, "우유를": 0.119203}
    assert stages["pick"] == "생선을"
    assert round(stages["loss"], 6) == 0.146441
    assert round(steps["stages"]["perplexity"], 6) == 2.663192 and len(steps["stages"]["loss"]) == 2


def test_solve_lays_out_the_table_the_pick_and_the_loss_in_both_languages(run_cli, mixed):
    en = run_cli("solve", str(mixed), "--problem", "next-word", "--explain")
    assert en.exit_code == 0, en.output
    for text in ("z/T", "e^(z/T)", "kept p'", "[0.000, 0.881)", "Picked: 생선을", "Loss: −ln p(생선을) = −ln 0.864 = 0.146",
                 "0.864 + 0.117 = 0.981 ≥ 0.9", "생선을: 2 ÷ 0.5 = 4.000", "86.4%"):  # fmt: skip
        assert text in en.stdout, text
    ko = run_cli("solve", str(mixed), "--problem", "three", "--lang", "ko")
    assert "퍼플렉서티: e^((0.4076 + 1.5514) ÷ 2) = e^0.9795 = 2.663" in ko.stdout  # e^0.980 would be 2.664
    assert "손실: −ln p(c) = −ln 0.665 = 0.408" in ko.stdout


def test_list_names_each_kind(run_cli, mixed):
    listed = json.loads(run_cli("list", str(mixed), "--format", "json").stdout)["problems"]
    assert [p.get("kind", "attention") for p in listed] == ["attention", "sampling", "sampling"]
    assert listed[1]["stages"] == ["scaled", "probabilities", "kept", "pick", "loss"]


def test_validate_refuses_a_temperature_of_zero_with_its_place(run_cli, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("problems:\n  - {id: p, kind: sampling, tokens: [a, b], logits: [1, 0], temperature: 0}\n", encoding="utf-8")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:2:74: problems[0].temperature is '0': a temperature is a number above 0" in flat(result.stdout)


def test_validate_warns_when_e_to_the_x_is_too_wide_to_work_by_hand(run_cli, tmp_path):
    path = tmp_path / "cold.yaml"
    path.write_text("problems:\n  - {id: cold, kind: sampling, tokens: [a, b], logits: [3, -1], temperature: 0.2}\n", encoding="utf-8")
    result = run_cli("validate", str(path))
    assert result.exit_code == 0
    assert "warning" in result.stdout and "span 20 (T = 0.2)" in result.stdout


def test_a_practice_quiz_marks_each_stage_and_names_the_mistake(run_cli, mixed):
    typed = "\n".join(["4 2 0.2", "0.864 0.117 0.019", "0.864 0.117 0", "우유", "생선을", "-0.146", "0.408 1.551", "2.663", ""])
    result = run_cli("quiz", str(mixed), "--problem", "next-word", input=typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "not renormalised: You kept the right tokens but not renormalised" in out
    assert "'우유' is not one of the candidate tokens: 생선을, 우유를, 밥을" in out
    assert "loss sign dropped" in out
    assert "Score: 3 / 5" in out
    assert "scaled logits z/T — question 1 of 5" in out and "scaled — " not in out  # the stage by its own name, not attention's
    korean = run_cli("quiz", str(mixed), "--problem", "next-word", "--lang", "ko", input=typed).stdout
    assert "T로 나눈 logit z/T" in korean and "스케일된 스코어" not in korean


def test_a_class_is_graded_end_to_end_with_both_kinds_in_one_set(run_cli, mixed, tmp_path):
    (tmp_path / "kim.yaml").write_text(textwrap.dedent("""\
        student: 김민수
        problem_set: set.yaml
        answers:
          cat-fish:
            먹었다: {weights: [0.023, 0.786, 0.191]}
          next-word:
            scaled: [4, 2, 0.2]
            probabilities: "0.864 0.117 0.019"
            kept: {생선을: 0.881, 우유를: 0.119}
            pick: 생선을
            loss: 0.146
          three:
            loss: [0.408, 1.551]
            perplexity: 2.663
    """), encoding="utf-8")  # fmt: skip
    (tmp_path / "lee.yaml").write_text(textwrap.dedent("""\
        student: 이서연
        problem_set: set.yaml
        answers:
          next-word:
            scaled: [1, 0.5, 0.05]
            kept: [0.864, 0.117, 0]
            loss: -0.146
    """), encoding="utf-8")  # fmt: skip
    out, report, sheets = tmp_path / "grades.csv", tmp_path / "report.json", tmp_path / "sheets"
    result = run_cli(
        "grade", str(tmp_path / "kim.yaml"), str(tmp_path / "lee.yaml"), "--problems", str(mixed),
        "--csv", str(out), "--json", str(report), "--feedback", str(sheets),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8-sig") as file:
        rows = {row["student"]: row for row in csv.DictReader(file)}
    assert rows["김민수"]["score"] == "8" and rows["김민수"]["max_score"] == "8"
    assert rows["이서연"]["next-word/scaled diagnosis"] == "wrong: multiplied by T"
    assert rows["이서연"]["next-word/kept diagnosis"] == "wrong: not renormalised"
    assert rows["이서연"]["next-word/loss diagnosis"] == "wrong: loss sign dropped"
    students = json.loads(report.read_text(encoding="utf-8"))["students"]
    pick = next(i for i in students[0]["report"]["items"] if i["stage"] == "pick")
    assert pick["expected"] == ["생선을"] and pick["given"] == ["생선을"] and pick["row"] == ""
    sheet = (sheets / "이서연.html").read_text(encoding="utf-8")
    assert "You multiplied the logits by T" in sheet and "−ln p(생선을)" in sheet
    assert "multiplied by T ×1" in result.stdout  # the class's common mistakes name it


def test_an_answer_for_a_token_not_among_the_candidates_is_said(run_cli, mixed, tmp_path):
    (tmp_path / "a.yaml").write_text("student: a\nproblem_set: set.yaml\nanswers:\n  next-word:\n    pick: 고양이\n", encoding="utf-8")
    result = run_cli("grade", str(tmp_path / "a.yaml"), "--problems", str(mixed))
    assert result.exit_code == 1
    assert "a.yaml:5:11: next-word/pick: '고양이' is not one of the candidate tokens: 생선을, 우유를, 밥을" in result.output


def test_a_csv_answer_file_gives_a_sampling_stage_as_problem_slash_stage(run_cli, mixed, tmp_path):
    answers = tmp_path / "form.csv"
    answers.write_text(
        "student,next-word/scaled,next-word/kept,next-word/pick,next-word/loss\n"
        '김민수,"4 2 0.2","0.881 0.119 0",생선을,0.146\n'
        '이서연,"1 0.5 0.05","0.864 0.117 0",우유를,-0.146\n',
        encoding="utf-8",
    )
    out = tmp_path / "grades.csv"
    result = run_cli("grade", str(answers), "--problems", str(mixed), "--csv", str(out))
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8-sig") as file:
        rows = {row["student"]: row for row in csv.DictReader(file)}
    assert [rows["김민수"][f"next-word/{s} diagnosis"] for s in ("scaled", "kept", "pick", "loss")] == ["correct"] * 4
    assert rows["이서연"]["next-word/scaled diagnosis"] == "wrong: multiplied by T"
    assert rows["이서연"]["next-word/kept diagnosis"] == "wrong: not renormalised"
    assert rows["이서연"]["next-word/loss diagnosis"] == "wrong: loss sign dropped"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("solve", "--problem", "next-word", "--row", "생선을"), "'next-word' is a sampling problem and has no rows"),
        (("quiz", "--problem", "next-word", "--row", "생선을"), "'next-word' is a sampling problem and has no rows"),
        (("solve", "--problem", "next-word", "--stage", "weights"), "a sampling problem's stages are scaled, exp, probabilities, kept, pick, loss"),
    ],
    ids=["solve --row", "quiz --row", "solve --stage"],
)
def test_a_row_or_an_attention_stage_asked_of_a_sampling_problem_gets_a_sentence(run_cli, mixed, args, said):
    result = run_cli(args[0], str(mixed), *args[1:], input="")
    assert result.exit_code == 1, result.output
    assert said in flat(result.output) and "Traceback" not in result.output


def test_solve_row_over_a_set_shows_the_attention_problems_with_that_row_only(run_cli, mixed):
    result = run_cli("solve", str(mixed), "--row", "먹었다", "--format", "json")
    assert result.exit_code == 0, result.output
    assert [p["id"] for p in json.loads(result.stdout)["problems"]] == ["cat-fish"]


@pytest.mark.parametrize(
    ("kept", "said"),
    [
        ("{}", None),  # nothing kept: marked wrong, and the pick follows through from nothing
        ("{생선을: 0, 우유를: 0, 밥을: 0}", None),
        ("{생선을: x}", "next-word/kept/생선을: could not read 'x'"),  # the stage not marked, as any unreadable answer
        ("{생선을: [0.5, 0.5]}", "next-word/kept/생선을: 2 numbers given, 1 expected"),
    ],
    ids=["empty", "all cut", "unreadable", "two numbers"],
)
def test_a_kept_mapping_with_nothing_kept_or_unreadable_is_marked_or_said_never_an_internal_error(run_cli, mixed, tmp_path, kept, said):
    answers = tmp_path / "kim.yaml"
    answers.write_text(f"problem_set: set.yaml\nstudent: kim\nanswers:\n  next-word:\n    kept: {kept}\n    pick: 생선을\n", encoding="utf-8")
    result = run_cli("grade", str(answers), "--problems", str(mixed), "--json", str(tmp_path / "out.json"))
    assert "could not grade" not in result.output and "Traceback" not in result.output, result.output
    if said:
        assert said in flat(result.output)
    report = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    items = {(i["problem"], i["stage"]): i for i in report["students"][0]["report"]["items"]}
    assert items[("next-word", "kept")]["verdict"] in ("wrong", "missing")
    assert items[("next-word", "pick")]["verdict"] == "correct"  # the right token, followed from nothing
