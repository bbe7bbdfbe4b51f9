"""One student handed in twice is flagged, however the name's letters were encoded.

A name typed on macOS often arrives decomposed (NFD: 김 as ㄱ+ㅣ+ㅁ, é as e + ´) and
the same name typed elsewhere composed (NFC). They are the same student: both rows
get the error naming both places, in the library (``gradebook.run.grade_class``: the CSV and JSON it feeds) as in
the command (``attn-tutor grade``), the name shown composed.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import unicodedata

import pytest
from helpers.answers import answer
from helpers.grading import grade
from helpers.output import flat
from helpers.paths import SET

NFC, NFD = "NFC", "NFD"
NAMES = {"hangul": "김민지", "latin": "José Núñez"}
# (first file, second file): where the composed and the decomposed spelling are handed in
LAYOUTS = {
    "two YAML files": (("a.yaml", NFC), ("b.yaml", NFD)),
    "a YAML file and a CSV row": (("a.yaml", NFD), ("form.csv", NFC)),
}


def hand_in(tmp_path, name: str, layout) -> list[str]:
    """The answer files of ``layout`` for ``name``, each naming set.yaml beside it; their places as messages name them."""
    shutil.copy(SET, tmp_path / "set.yaml")
    places = []
    for file, form in layout:
        spelled = unicodedata.normalize(form, name)
        if file.endswith(".csv"):
            (tmp_path / file).write_text(f"student,problem_set,cat-fish/먹었다/scores\r\n{spelled},set.yaml,1 6 4\r\n", "utf-8")
            places.append(f"{file}:2")
        else:
            (tmp_path / file).write_text(answer(f'"{spelled}"', "set.yaml"), "utf-8")
            places.append(file)
    assert unicodedata.normalize(NFC, name) == name and unicodedata.normalize(NFD, name) != name  # two spellings
    return places


def said(name: str, places: list[str]) -> list[str]:
    return [f"{place}: the student '{name}' appears more than once: {', '.join(places)}" for place in places]


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", list(NAMES))
def test_the_grading_path_flags_one_name_in_nfc_and_nfd_as_the_same_student(tmp_path, monkeypatch, name, layout):
    monkeypatch.chdir(tmp_path)
    places = hand_in(tmp_path, NAMES[name], LAYOUTS[layout])
    book = grade([file for file, _form in LAYOUTS[layout]])
    assert len(book.students) == 2 and len(book.failed) == 2
    errors = [[e for e in student["errors"] if "appears more than once" in e] for student in book.reports]
    assert errors == [[message] for message in said(NAMES[name], places)]


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", list(NAMES))
def test_the_grade_command_flags_one_name_in_nfc_and_nfd_as_the_same_student(run_cli, tmp_path, monkeypatch, name, layout):
    monkeypatch.chdir(tmp_path)
    places = hand_in(tmp_path, NAMES[name], LAYOUTS[layout])
    files = [file for file, _form in LAYOUTS[layout]]
    result = run_cli("grade", *files, "--csv", "book.csv", "--json", "r.json")
    assert result.exit_code == 1
    assert "2 students marked; 2 with problems" in flat(result.output)
    messages = said(NAMES[name], places)
    for message in messages:
        assert f"error: {message}" in flat(result.stderr)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "book.csv").read_text("utf-8-sig"), newline="")))
    assert [row["errors"] for row in rows] == messages
    reports = json.loads((tmp_path / "r.json").read_text("utf-8"))["students"]
    assert [[e for e in report["errors"] if "appears more than once" in e] for report in reports] == [[m] for m in messages]


def test_two_different_students_are_not_flagged(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, tmp_path / "set.yaml")
    (tmp_path / "a.yaml").write_text(answer('"김민지"', "set.yaml"), "utf-8")
    (tmp_path / "b.yaml").write_text(answer('"김민재"', "set.yaml"), "utf-8")
    book = grade(["a.yaml", "b.yaml"])
    assert book.failed == []
    result = run_cli("grade", "a.yaml", "b.yaml")
    assert result.exit_code == 0, result.output
    assert "appears more than once" not in result.output
