"""No output of grade lands on one of its inputs, even with --force: every target (gradebook, JSON,
LMS file, class report, every hand-back sheet) checked against every input (the problem set, the
roster, the answer files and folders) before anything is written.

Through the command line: each case a run that would overwrite an input; the input is left byte
for byte, no output is written, and a sentence names the clash.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import SET

MOODLE = "First name,Last name,ID number,Email address,Assignment: Attention (Real)\n민지,김,20230001,minji@uni.ac.kr,\n"


def _answer(name: str, student: str, set_path: str = "../set.yaml") -> None:
    Path("answers", name).write_text(answer(student, set_path), "utf-8")


def _sheet_over_problems():
    shutil.copy(SET, "set.html")
    _answer("a.yaml", "set", "../set.html")
    return ["answers", "--problems", "set.html", "--feedback", "."], "set.html"


def _sheet_over_roster():
    Path("roster.html").write_text(MOODLE, "utf-8")
    _answer("a.yaml", "roster")
    return ["answers", "--roster", "roster.html", "--feedback", "."], "roster.html"


def _sheet_over_named_answer():
    _answer("kim.html", "kim")  # an answer file named on the command line, whatever its suffix
    return ["answers/kim.html", "--feedback", "answers"], "answers/kim.html"


def _sheet_over_hard_link():
    _answer("kim.yaml", "kim")
    os.link("answers/kim.yaml", "answers/kim.html")
    return ["answers/kim.yaml", "answers/kim.html", "--feedback", "answers"], "answers/kim.yaml"


def _sheet_through_a_symlink():
    _answer("kim.yaml", "kim")
    Path("out").mkdir()
    os.symlink(Path("answers/kim.yaml").absolute(), "out/kim.html")
    return ["answers", "--feedback", "out"], "answers/kim.yaml"


def _pdf_sheet_over_problems():
    shutil.copy(SET, "set.pdf")
    _answer("a.yaml", "set", "../set.pdf")
    return ["answers", "--problems", "set.pdf", "--feedback", ".", "--feedback-format", "pdf"], "set.pdf"


def _gradebook_over_roster():
    Path("roster.csv").write_text(MOODLE, "utf-8")
    _answer("a.yaml", "kim")
    return ["answers", "--roster", "roster.csv", "--csv", "roster.csv"], "roster.csv"


def _report_over_problems():
    shutil.copy(SET, "set.html")
    _answer("a.yaml", "kim", "../set.html")
    return ["answers", "--problems", "set.html", "--class-report", "./set.html"], "set.html"


def _json_over_answer_in_folder():
    _answer("kim.yaml", "kim")
    return ["answers", "--json", "answers/kim.yaml"], "answers/kim.yaml"


def _gradebook_over_the_answers_set():  # the set the answer files name, no --problems
    _answer("a.yaml", "kim")
    return ["answers", "--csv", "set.yaml"], "set.yaml"


def _report_over_a_hard_link_of_the_answers_set():
    _answer("a.yaml", "kim")
    os.link("set.yaml", "report.html")
    return ["answers", "--class-report", "report.html"], "set.yaml"


def _sheet_over_a_hard_link_of_the_answers_set():
    _answer("a.yaml", "kim")
    Path("sheets").mkdir()
    os.link("set.yaml", "sheets/kim.html")
    return ["answers", "--feedback", "sheets"], "set.yaml"


def _json_over_a_csv_rows_set():
    Path("answers/form.csv").write_text("student,problem_set,cat-fish/먹었다/scores\r\nkim,../set.yaml,1 6 4\r\n", "utf-8")
    return ["answers", "--json", "set.yaml"], "set.yaml"


CASES = {
    "gradebook over the answers' set": (_gradebook_over_the_answers_set, "set.yaml is one of this command's inputs"),
    "report over the answers' set by a hard link": (_report_over_a_hard_link_of_the_answers_set, "report.html is one of this command's inputs"),
    "sheet over the answers' set by a hard link": (_sheet_over_a_hard_link_of_the_answers_set, "the hand-back sheet of 'kim' would be sheets/kim.html"),
    "json over a CSV row's set": (_json_over_a_csv_rows_set, "set.yaml is one of this command's inputs"),
    "sheet over --problems": (_sheet_over_problems, "the hand-back sheet of 'set' would be set.html, one of this command's inputs"),
    "sheet over --roster": (_sheet_over_roster, "the hand-back sheet of 'roster' would be roster.html"),
    "sheet over a named answer": (_sheet_over_named_answer, "the hand-back sheet of 'kim' would be answers/kim.html"),
    "sheet over a hard link": (_sheet_over_hard_link, "the hand-back sheet of 'kim' would be answers/kim.html"),
    "sheet through a symlink": (_sheet_through_a_symlink, "the hand-back sheet of 'kim' would be out/kim.html"),
    "pdf sheet over --problems": (_pdf_sheet_over_problems, "the hand-back sheet of 'set' would be set.pdf"),
    "gradebook over --roster": (_gradebook_over_roster, "roster.csv is one of this command's inputs"),
    "report over --problems": (_report_over_problems, "set.html is one of this command's inputs"),
    "json over an answer": (_json_over_answer_in_folder, "which is being graded"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_output_overwrites_an_input_even_with_force(run_cli, tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, "set.yaml")
    Path("answers").mkdir()
    make, sentence = CASES[case]
    args, protected = make()
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    result = run_cli("grade", *args, "--force")
    assert result.exit_code == 2, result.output  # the command line must change: another name
    assert sentence in flat(result.output)
    assert Path(protected).read_bytes() == before[Path(protected).absolute()]
    after = {path for path in tmp_path.rglob("*") if path.is_file()}
    assert after == set(before)  # nothing written at all
    assert "Traceback" not in result.output
