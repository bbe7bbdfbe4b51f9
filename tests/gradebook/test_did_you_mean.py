"""A misspelt problem, row or stage in an answer file gets a "did you mean", from the one did-you-mean
the problem-set loader uses; ``validate`` given an answer file checks it as ``grade`` reads it.

Through the command line, each case a table row.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import SET
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.core.particles import attach
from attn_tutor.core.text import did_you_mean


@pytest.fixture
def room(tmp_path, monkeypatch):
    """A set whose problem is ``q1`` (rows 먹었다 and 고양이가), and the working directory there."""
    (tmp_path / "set.yaml").write_text(SET.read_text("utf-8").replace("id: cat-fish", "id: q1"), "utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _answers(wrong: str, right: str) -> str:
    text = answer("kim", "set.yaml").replace("cat-fish:", "q1:")
    return text.replace(f"{right}:", f"{wrong}:", 1) if right else text


# (what the student wrote, what they meant, the sentence)
MISSPELT = [
    ("weigths", "weights", "q1/먹었다/weigths: the stage 'weigths' is not asked; did you mean 'weights'?"),
    ("weight", "weights", "did you mean 'weights'?"),
    ("scroes", "scores", "the stage 'scroes' is not asked; did you mean 'scores'?"),
    ("outptu", "output", "did you mean 'output'?"),
    ("sacled", "scaled", "did you mean 'scaled'?"),
    ("p1", "q1", "p1/먹었다/scores: no problem 'p1' in this problem set; did you mean 'q1'? Its problems are: q1"),
    ("Q1", "q1", "no problem 'Q1' in this problem set; did you mean 'q1'?"),
    ("q1x", "q1", "did you mean 'q1'?"),
    ("먹었ㄷ", "먹었다", "problem 'q1' does not ask for the row '먹었ㄷ'; did you mean '먹었다'? It asks: 먹었다, 고양이가"),
    ("고양이", "고양이가", "did you mean '고양이가'?"),
    ("완전히다른", "q1", "no problem '완전히다른' in this problem set; its problems are: q1"),  # nothing close: what there is
]


@pytest.mark.parametrize(("wrong", "meant", "sentence"), MISSPELT)
def test_a_misspelt_id_in_an_answer_file_gets_a_did_you_mean(run_cli, room, wrong, meant, sentence):
    Path("kim.yaml").write_text(_answers(wrong, meant), "utf-8")
    result = run_cli("grade", "kim.yaml")
    assert result.exit_code == 1
    assert sentence in flat(result.output)
    korean = run_cli("grade", "kim.yaml", "--lang", "ko")
    if "did you mean" in sentence:
        assert f"'{meant}'{attach(meant, '을')} 쓰려던 것인가요?" in flat(korean.output)


def test_a_misspelt_csv_column_is_said_once_at_its_header(run_cli, room):
    rows = "".join(f"s{i},set.yaml,1 6 4\r\n" for i in range(4))
    Path("form.csv").write_text("student,problem_set,q1/먹었다/scroes\r\n" + rows, "utf-8")
    result = run_cli("grade", "form.csv")
    said = "form.csv:1:3: q1/먹었다/scroes: the stage 'scroes' is not asked; did you mean 'scores'?"
    assert flat(result.output).count(said) == 1


# (a word, the choices, the suggestion)
SUGGESTIONS = [
    ("tokns", ["tokens", "title"], "tokens"),
    ("p1", ["q1", "q2x"], "q1"),
    ("p", ["x", "y"], None),  # one letter: too short to guess
    ("ab", ["ac", "ad"], None),  # two as near: no guess
    ("WEIGHTS", ["weights"], "weights"),
]


@pytest.mark.parametrize(("word", "choices", "expected"), SUGGESTIONS)
def test_the_one_did_you_mean(word, choices, expected):
    assert did_you_mean(word, choices) == expected


@given(st.text(min_size=1, max_size=12), st.lists(st.text(min_size=1, max_size=12), max_size=6))
def test_a_suggestion_is_always_one_of_the_choices(word, choices):
    suggestion = did_you_mean(word, choices)
    assert suggestion is None or suggestion in choices


# --- validate given an answer file ----------------------------------------------------------

# (the file's name, its text, the exit status, what validate says)
VALIDATE = [
    ("kim.yaml", lambda: _answers("", ""), 0, "kim.yaml: a valid answer file"),
    ("kim.yaml", lambda: _answers("weigths", "weights"), 1, "kim.yaml: an answer file with 1 problem"),
    ("kim.yaml", lambda: _answers("weigths", "weights"), 1, "did you mean 'weights'?"),
    ("kim.yaml", lambda: "student: kim\nproblems:\n  q1: {}\n", 1, "'problems:' is where a problem set lists its problems"),
    ("kim.yaml", lambda: "answers:\n  q1:\n    먹었다:\n      scores: [1, 6, x]\n", 1, "kim.yaml: an answer file with"),
    ("kim.yml", lambda: "student: kim\nproblem_set: nowhere.yaml\nanswers: {}\n", 1, "the problem set 'nowhere.yaml' this answer names does not exist"),
    ("kim.yaml", lambda: "{student: kim, problem_set: set.yaml, answers: {q1: {먹었다: {scores: [1, 6, 4]}}}}\n", 0, "kim.yaml: a valid answer file"),
    ("kim.yaml", lambda: '"student": kim\n"problem_set": set.yaml\n"answers": {q1: {먹었다: {scroes: [1, 6, 4]}}}\n', 1,
     "did you mean 'scores'?"),
    ("kim.yaml", lambda: _answers("", "").replace("student:", "Student:").replace("answers:", "Answers:"), 1,
     "unknown key 'Answers'; did you mean 'answers'?"),  # its keys in another case: still an answer file
    ("kim.yaml", lambda: _answers("", "").replace("problem_set:", "problemset:"), 1, "unknown key 'problemset'; did you mean 'problem_set'?"),
    ("kim.yaml", lambda: _answers("", "").replace("answers:", "answer:"), 1, "unknown key 'answer'; did you mean 'answers'?"),
    ("form.csv", lambda: "student,problem_set,q1/먹었다/scores\r\nkim,set.yaml,1 6 4\r\n", 0, "form.csv: a valid answer file"),
    ("form.csv", lambda: "Timestamp,student,problem_set,q1/먹었다/scores\r\nt,kim,set.yaml,1 6 4\r\n", 0, "form.csv:1: not used: 'Timestamp'"),
    ("form.csv", lambda: "student,problem_set,bad/col\r\nkim,set.yaml,1\r\n", 1, "column 'bad/col' is not problem/row/stage"),
]


@pytest.mark.parametrize(("name", "text", "status", "sentence"), VALIDATE)
def test_validate_checks_an_answer_file_as_an_answer_file(run_cli, room, name, text, status, sentence):
    Path(name).write_text(text(), "utf-8")
    result = run_cli("validate", name)
    assert result.exit_code == status, result.output
    assert sentence in flat(result.output)
    assert "invalid (" not in result.output  # never reported as a bad problem set


def test_validate_takes_answer_files_and_sets_together_and_problems(run_cli, room):
    shutil.copy("set.yaml", "copy.yaml")
    Path("form.csv").write_text("이름,q1/먹었다/scores\r\n김민지,1 6 4\r\n", "utf-8")
    refused = run_cli("validate", "form.csv")
    assert refused.exit_code == 2 and "form.csv has no problem_set column" in flat(refused.output)
    result = run_cli("validate", "set.yaml", "form.csv", "--problems", "copy.yaml")
    assert result.exit_code == 0, result.output
    assert "set.yaml: valid" in flat(result.output) and "form.csv: a valid answer file" in flat(result.output)
    korean = run_cli("validate", "form.csv", "--problems", "copy.yaml", "--lang", "ko")
    assert "form.csv: 올바른 답안 파일" in flat(korean.output)


# (the language, a problem of a CSV's header read by three students, said once; the count)
HEADER_ONCE = [
    ("en", "form.csv:1:2: q1/먹었다/weigths: the stage 'weigths' is not asked; did you mean 'weights'?", "an answer file with 2 problems"),
    ("ko", "form.csv:1:3: p1/먹었다/scores: 이 문제 세트에 문제 'p1'", "답안 파일, 문제점 2개"),
]


@pytest.mark.parametrize(("lang", "sentence", "count"), HEADER_ONCE)
def test_validate_says_a_csv_header_problem_once(run_cli, room, lang, sentence, count):
    rows = "".join(f"s{i},1 6 4,1 6 4,set.yaml\r\n" for i in range(3))
    Path("form.csv").write_text("student,q1/먹었다/weigths,p1/먹었다/scores,problem_set\r\n" + rows, "utf-8")
    result = run_cli("validate", "form.csv", "--lang", lang)
    assert result.exit_code == 1, result.output
    assert flat(result.output).count(sentence) == 1 and count in result.output


GRADEBOOK = "student,variant,score,max_score,percent,q1/먹었다/scores points,q1/먹었다/scores diagnosis,problem_set,file,errors\r\n"
GRADEBOOK_SAID = [
    ("en", "form.csv: a gradebook attn-tutor wrote, neither an answer file nor a problem set"),
    ("ko", "form.csv: attn-tutor가 쓴 성적표로, 답안 파일도 문제 세트도 아닙니다"),
]


@pytest.mark.parametrize(("lang", "sentence"), GRADEBOOK_SAID)
def test_validate_names_a_gradebook_as_one(run_cli, room, lang, sentence):
    Path("form.csv").write_text(GRADEBOOK + "kim,,1,2,50.0,1,correct,set.yaml,kim.yaml,\r\n", "utf-8")
    result = run_cli("validate", "form.csv", "--lang", lang)
    assert result.exit_code == 1, result.output
    assert flat(result.output) == sentence


@pytest.mark.parametrize(("lang", "sentence"), [("en", "unknown key 'varient'; did you mean 'variant'?"), ("ko", "'variant'를 쓰려던 것인가요?")])
def test_a_misspelt_key_of_an_answer_file_gets_a_did_you_mean(run_cli, room, lang, sentence):
    Path("kim.yaml").write_text(_answers("", "") + "varient: 42001\n", "utf-8")
    result = run_cli("grade", "kim.yaml", "--lang", lang)
    assert result.exit_code == 1 and sentence in flat(result.output)
