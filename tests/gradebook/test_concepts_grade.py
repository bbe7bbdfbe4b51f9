"""A class with concept answers graded end to end: YAML and CSV answer files, a variant whose
labels are its own shuffle's, the gradebook CSV and JSON, the hand-back sheets, the class report."""

from __future__ import annotations

import csv
import html
import json
import re

import pytest


def concept_answers(run_cli, variant: int | None = None) -> dict[str, str]:
    """The right label(s) of every ch13 concept item, as ``solve --format json`` prints them."""
    args = ["solve", "ch13", "--format", "json"] + ([] if variant is None else ["--variant", str(variant)])
    items = json.loads(run_cli(*args).output)["concepts"]
    return {item["id"]: item["answer"][0] if item.get("tied") else " ".join(item["answer"]) for item in items}


def a_wrong_label(run_cli, concept_id: str, variant: int | None = None) -> str:
    args = ["solve", "ch13", "--format", "json"] + ([] if variant is None else ["--variant", str(variant)])
    item = next(i for i in json.loads(run_cli(*args).output)["concepts"] if i["id"] == concept_id)
    return next(label for label in item["labels"] if label not in item["answer"])


def yaml_file(path, student, concepts: dict[str, str], variant: int | None = None):
    lines = [f"student: {student}", "problem_set: ch13"] + ([f"variant: {variant}"] if variant is not None else [])
    lines += ["answers:", "concepts:"] + [f'  {key}: "{value}"' for key, value in concepts.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def graded(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    right = concept_answers(run_cli)
    varied = concept_answers(run_cli, 42017)
    (tmp_path / "class").mkdir()
    yaml_file(tmp_path / "class" / "ann.yaml", "Ann", right)
    yaml_file(tmp_path / "class" / "vic.yaml", "Vic", varied, variant=42017)  # her own sheet's labels
    wrong = dict(right, **{"why-scale": a_wrong_label(run_cli, "why-scale")})
    yaml_file(tmp_path / "class" / "bob.yaml", "Bob", wrong)
    ids = list(right)
    with open(tmp_path / "class" / "form.csv", "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["student", "problem_set", *(f"concepts/{key}" for key in ids)])
        writer.writerow(["Cat", "ch13", *(right[key].replace(" ", "") for key in ids)])  # CADB written together
        writer.writerow(["Dan", "ch13", *("" for _ in ids)])
    result = run_cli("grade", "class", "--csv", "gb.csv", "--json", "gb.json", "--feedback", "sheets", "--class-report", "report.html", "--lang", "en")
    return result, tmp_path, ids


def test_each_student_scores_their_concept_choices(graded):
    result, tmp_path, ids = graded
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "gb.json").read_text(encoding="utf-8"))
    by_name = {s["student"]: s["report"] for s in data["students"]}
    concept_points = {name: sum(c["score"] for c in report["concepts"]) for name, report in by_name.items()}
    assert concept_points == {"Ann": len(ids), "Vic": len(ids), "Bob": len(ids) - 1, "Cat": len(ids), "Dan": 0}
    bob = {c["concept"]: c for c in by_name["Bob"]["concepts"]}
    assert bob["why-scale"]["right"] is False and bob["why-scale"]["feedback"]  # the misconception it reveals
    assert [c["concept"] for c in by_name["Dan"]["concepts"]] == ids and not any(c["chosen"] for c in by_name["Dan"]["concepts"])
    analysis = {entry["concept"]: entry for entry in data["item_analysis"] if "concept" in entry}
    assert list(analysis) == ids
    assert analysis["why-scale"]["counts"]["correct"] == 3 and analysis["why-scale"]["students"] == 5


def test_the_gradebook_has_a_column_pair_per_concept_item(graded):
    _, tmp_path, ids = graded
    with open(tmp_path / "gb.csv", encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert all(f"concepts/{key} points" in rows[0] and f"concepts/{key} diagnosis" in rows[0] for key in ids)
    bob = next(row for row in rows if row["student"] == "Bob")
    assert bob["concepts/why-scale points"] == "0" and bob["concepts/why-scale diagnosis"].startswith("wrong: ")
    dan = next(row for row in rows if row["student"] == "Dan")
    assert dan["concepts/steps diagnosis"] == "no answer"


def test_the_variants_labels_are_its_own_shuffles(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plain, varied = concept_answers(run_cli), concept_answers(run_cli, 42017)
    assert plain != varied  # the shuffle moved some answers
    yaml_file(tmp_path / "vic.yaml", "Vic", plain, variant=42017)  # the unshuffled sheet's labels on a variant
    run_cli("grade", "vic.yaml", "--json", "out.json")
    report = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["students"][0]["report"]
    wrong = {c["concept"] for c in report["concepts"] if not c["right"]}
    assert wrong == {key for key in plain if plain[key] != varied[key]}


def test_the_hand_back_sheets_and_the_class_report_show_the_items(graded):
    _, tmp_path, _ = graded
    sheet = html.unescape(" ".join(re.sub("<[^>]+>", " ", (tmp_path / "sheets" / "Bob.html").read_text(encoding="utf-8")).split()))
    assert "Concept items" in sheet
    assert "Not right: you chose" in sheet and "the answer is A." in sheet
    report = html.unescape((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert "concepts · why-scale · concept item" in report


def test_a_bad_choice_is_said_with_its_place(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "eve.yaml").write_text(
        "student: Eve\nproblem_set: ch13\nconcepts:\n  why-scale: AB\n  why-sclae: A\n  steps: [A]\n", encoding="utf-8"
    )
    result = run_cli("grade", "eve.yaml", "--lang", "en")
    text = " ".join(result.output.split())
    assert "eve.yaml:4:14: concepts/why-scale: 'AB' names more than one option" in text
    assert "eve.yaml:5:14: concepts/why-sclae: the set has no concept item of that id; did you mean 'why-scale'?" in text
    assert "eve.yaml:6:10: concepts/steps must be the choice's letter or number" in text
    assert run_cli("validate", "eve.yaml", "--lang", "en").exit_code == 1


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]], ids=["one process", "two workers"])
def test_an_unknown_concept_column_of_a_csv_is_said_once_at_its_header_not_on_every_row(run_cli, tmp_path, monkeypatch, jobs):
    monkeypatch.chdir(tmp_path)
    with open(tmp_path / "form.csv", "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["student", "problem_set", "concepts/why-scale", "concepts/why-sclae"])
        for number in range(7):
            writer.writerow([f"S{number}", "ch13", "A", "B"])
    result = run_cli("grade", "form.csv", "--csv", "gb.csv", "--lang", "en", *jobs)
    text = " ".join(result.output.split())
    assert text.count("concepts/why-sclae: the set has no concept item of that id") == 1, text
    assert "form.csv:1:4: concepts/why-sclae: the set has no concept item of that id; did you mean 'why-scale'?" in text
    rows = list(csv.DictReader((tmp_path / "gb.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert len(rows) == 7 and all(row["concepts/why-scale points"] == "1" for row in rows)
