"""`grade` in one pass: each answer file is read and marked once per run,
whatever outputs are asked for and however many jobs mark it, and every output (the gradebook,
the JSON, the hand-back sheets, the class report) comes from that one reading.

The counting goes through a log file, not through memory: the reader and the marker are patched
in the test's process before the run, and ``--jobs`` workers are forked from it, so they inherit
the patch and write to the same file (a line each, appended).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from helpers.paths import TESTS

from attn_tutor.classroom import handback as feedback
from attn_tutor.core.rounding import fmt_given
from attn_tutor.gradebook import grader as grader_module
from attn_tutor.gradebook import run as class_run

FIXTURES = TESTS / "fixtures" / "grade"
CLASS = FIXTURES / "class"


def text_of(page: str) -> str:
    """What a reader sees: the stylesheet and tags gone, entities decoded, spaces collapsed."""
    page = re.sub(r"<style\b.*?</style>", " ", page, flags=re.DOTALL)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def class_dir(tmp_path, monkeypatch):
    """A copy of the class with its set beside it, the working directory above them."""
    shutil.copy(FIXTURES / "set.yaml", tmp_path / "set.yaml")
    shutil.copytree(CLASS, tmp_path / "class")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "class"


@pytest.fixture
def logged(tmp_path, monkeypatch):
    """Every whole reading of an answer file and every marking of a student, a line each in a log
    (``read PID PATH``, ``mark PID FILE``), from this process and any worker forked from it."""
    log = tmp_path / "log.txt"
    real_read, real_mark = class_run.read_answer_file, grader_module.Grader.mark

    def note(kind: str, what) -> None:
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{kind} {os.getpid()} {what}\n")

    def read(path, **options):
        note("read", path)
        return real_read(path, **options)

    def mark(self, sub):
        note("mark", sub.file)
        return real_mark(self, sub)

    monkeypatch.setattr(class_run, "read_answer_file", read)
    monkeypatch.setattr(grader_module.Grader, "mark", mark)

    def lines(kind: str) -> list[tuple[int, str]]:
        found = [line.split(" ", 2) for line in log.read_text("utf-8").splitlines()] if log.exists() else []
        return [(int(pid), what) for k, pid, what in found if k == kind]

    return lines


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_answer_file_is_read_and_marked_once_with_every_output(run_cli, class_dir, logged, jobs):
    result = run_cli(
        "grade", "class", "--csv", "book.csv", "--json", "book.json", "--feedback", "sheets",
        "--class-report", "report.html", "--jobs", jobs,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(str(Path("class") / path.name) for path in class_dir.iterdir())
    reads, marks = logged("read"), logged("mark")
    assert sorted(what for _pid, what in reads) == files  # each file read once, none twice
    assert sorted(what for _pid, what in marks) == files  # each student marked once
    assert len(list((class_dir.parent / "sheets").iterdir())) == len(files)
    if jobs == "2":
        assert os.getpid() not in {pid for pid, _ in reads + marks}  # all of it in the workers
        assert len({pid for pid, _ in reads}) == 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_changed_after_marking_cannot_put_a_sheet_under_another_student(run_cli, class_dir, monkeypatch, jobs):
    """The moment a file has been read, it is rewritten as another student's (a teacher's sync, a
    late hand-in). Whatever a later reading would find, each sheet is its own row's: the student
    the gradebook names, their score, their own typed answers."""
    first, second = class_dir / "01-correct.yaml", class_dir / "02-not-scaled.yaml"
    originals = {first.name: first.read_text("utf-8"), second.name: second.read_text("utf-8")}
    real_read = class_run.read_answer_file

    def read_then_swap(path, **options):
        found = real_read(path, **options)
        other = {first.name: second.name, second.name: first.name}.get(Path(path).name)
        if other is not None:
            Path(path).write_text(originals[other], "utf-8")  # now it holds the other student's answers
        return found

    monkeypatch.setattr(class_run, "read_answer_file", read_then_swap)
    result = run_cli("grade", "class", "--csv", "book.csv", "--json", "book.json", "--feedback", "sheets", "--jobs", jobs)
    assert result.exit_code == 0, result.output
    assert first.read_text("utf-8") == originals[second.name]  # the files did change under the run
    students = json.loads(Path("book.json").read_text("utf-8"))["students"]
    assert [s["student"] for s in students[:2]] == ["김민지", "박서준"]  # as each was handed in
    names = [student["student"] for student in students]
    for student, sheet in zip(students, feedback.file_names(names)):  # each sheet: its own row's student
        page = text_of((Path("sheets") / sheet).read_text("utf-8"))
        name, report = " ".join(student["student"].split()), student["report"]
        assert page.startswith(f"{name}: your marked answers")  # the page's title
        assert f"{name}: your marked answers Name: {name} score: {fmt_given(report['score'], 2)} / 8" in page
    kim, park = (text_of((Path("sheets") / f"{name}.html").read_text("utf-8")) for name in ("김민지", "박서준"))
    assert "your answer 0.023 0.786 0.191" in kim and "박서준" not in kim  # 김민지's own weights
    assert "your answer 0.006 0.876 0.118" in park and "김민지" not in park  # 박서준's, from unscaled scores
    assert "You did not divide by √d" in park and "You did not divide by √d" not in kim
    rows = list(csv.DictReader(io.StringIO(Path("book.csv").read_text("utf-8-sig"), newline="")))
    assert [(row["student"], row["score"]) for row in rows[:2]] == [("김민지", "8"), ("박서준", "3")]
