"""`quiz --concepts` and `quiz --problem X` with concept items (issue 35, rule 8), through the command
line in both languages: which items are asked, in which order, practice's feedback after each and an
exam's at the end, the report file, and the refusals (a sentence, exit 1 or 2, never a traceback)."""

from __future__ import annotations

import json

import pytest
from helpers.concept_set import QUIZ_SET
from helpers.language import in_language
from helpers.output import flat

from attn_tutor.core.i18n import t
from attn_tutor.problems.load import load_problem_set
from attn_tutor.quiz import loop as quiz

CH13 = load_problem_set("ch13")

# the quiz tests' set with a second problem no computed item is worked out from
SET = QUIZ_SET.replace("concepts:\n", """\
  - id: other
    tokens: [a, b]
    Q: [[1, 0], [0, 1]]
    K: [[1, 0], [0, 2]]
    V: [[1, 0], [0, 1]]
concepts:
""", 1)

NO_CONCEPTS = """\
problems:
  - id: p
    tokens: [a, b]
    Q: [[1, 0], [0, 1]]
    K: [[1, 0], [0, 2]]
    V: [[1, 0], [0, 1]]
"""


def typed(lines) -> str:
    return "".join(f"{line}\n" for line in lines)


def stage_count(problem_set, problem_id=None) -> int:
    chosen = problem_set.problems if problem_id is None else [problem_set.get(problem_id)]
    return quiz.count_questions(quiz.plan(chosen))


def computed_of(problem_set, problem_id) -> list[str]:
    return [c.id for c in problem_set.concepts if c.kind == "computed" and c.problem == problem_id]


@pytest.fixture
def lesson(tmp_path):
    path = tmp_path / "lesson.yaml"
    path.write_text(SET, encoding="utf-8")
    return path


# What each way of calling the quiz asks: (options, the stage questions, the concept items in order).
ASKED = [
    pytest.param(["--concepts"], 0, ["why-scale", "eat", "steps"], id="concepts-only-set-order"),
    pytest.param(["--concepts", "--problem", "cat-fish"], 0, ["eat"], id="concepts-of-one-problem"),
    pytest.param(["--problem", "cat-fish"], 1, ["eat"], id="problem-then-its-computed-items"),
    pytest.param(["--problem", "other"], 4 * 2, [], id="problem-without-computed-items"),
    pytest.param(["--problem", "cat-fish", "--row", "먹었다"], 1, [], id="one-row-no-concept-items"),
    pytest.param([], 1 + 4 * 2, ["why-scale", "eat", "steps"], id="whole-set-then-every-item"),
]


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("options, stages, concepts", ASKED)
def test_which_items_are_asked_and_in_which_order(run_cli, lesson, tmp_path, lang, options, stages, concepts):
    """Every question left unanswered (end of input): the report lists what the quiz had to ask."""
    report = tmp_path / "report.json"
    result = run_cli("quiz", str(lesson), *options, "--report", str(report), "--lang", lang, input="")
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    assert len(data["items"]) == stages
    assert [c["concept"] for c in data.get("concepts", [])] == concepts
    assert data["total"] == stages + len(concepts)
    assert data["max_score"] == pytest.approx(sum(i["max_points"] for i in data["items"]) + len(concepts))
    progress = in_language(lang, t, "quiz.progress", n=1, total=stages + len(concepts))
    assert progress in flat(result.output)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_packaged_set_s_concept_items_come_first_with_concepts(run_cli, lang):
    """`quiz ch13` asks every stage first; `--concepts` asks the items at once, none of the stages."""
    result = run_cli("quiz", "ch13", "--concepts", "--lang", lang, input="q\n")
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert in_language(lang, t, "quiz.progress", n=1, total=len(CH13.concepts)) in out
    assert in_language(lang, t, "quiz.intro.concepts_practice") in out
    assert in_language(lang, t, "quiz.intro.practice") not in out
    assert in_language(lang, t, "quiz.summary.title") not in out  # no stage asked: no stage table


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("problem", [p.id for p in CH13.problems])
def test_each_packaged_problem_brings_its_own_computed_items(run_cli, tmp_path, lang, problem):
    report = tmp_path / "r.json"
    result = run_cli("quiz", "ch13", "--problem", problem, "--report", str(report), "--lang", lang, input="")
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    assert [c["concept"] for c in data.get("concepts", [])] == computed_of(CH13, problem)
    assert data["total"] == stage_count(CH13, problem) + len(computed_of(CH13, problem))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_practice_says_each_verdict_at_once_an_exam_only_at_the_end(run_cli, lesson, lang):
    steps = " ".join(quiz.concept_items(load_problem_set(str(lesson)))[2].answer)  # the order as the quiz shows it
    answers = typed(["B", "B", steps])  # why-scale wrong (speed), eat right (생선을), steps right
    practice = flat(run_cli("quiz", str(lesson), "--concepts", "--lang", lang, input=answers).output)
    exam = flat(run_cli("quiz", str(lesson), "--concepts", "--exam", "--lang", lang, input=answers).output)
    wrong = "속도와는 상관없습니다"
    second = in_language(lang, t, "quiz.progress", n=2, total=3)
    summary = in_language(lang, t, "quiz.summary.concepts")
    assert practice.index(wrong) < practice.index(second)  # the feedback before the next item
    assert exam.index(wrong) > exam.index(summary)  # an exam's only feedback: after the last item
    assert in_language(lang, t, "quiz.intro.concepts_exam") in exam
    for out in (practice, exam):
        assert in_language(lang, t, "quiz.score", score="2", max="3") in out


def test_the_report_of_a_concepts_quiz_scores_the_items_only(run_cli, lesson, tmp_path):
    report = tmp_path / "r.json"
    backwards = list(reversed(quiz.concept_items(load_problem_set(str(lesson)))[2].answer))
    result = run_cli("quiz", str(lesson), "--concepts", "--exam", "--report", str(report), input=typed(["A", "C", " ".join(backwards)]))
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    assert (data["items"], data["finished"], data["mode"]) == ([], True, "exam")
    assert [(c["concept"], c["chosen"], c["score"]) for c in data["concepts"]] == [
        ("why-scale", ["A"], 1.0), ("eat", ["C"], 0.0), ("steps", backwards, 0.0),
    ]  # fmt: skip
    assert (data["score"], data["max_score"]) == (1.0, 3.0)


REFUSED = [
    pytest.param(["--concepts", "--random"], None, 2, "quiz.concepts_and_random", {}, id="random-has-no-items"),
    pytest.param(["--concepts", "--row", "먹었다"], SET, 2, "quiz.concepts_and_row", {}, id="row-asks-stages"),
    pytest.param(["--concepts"], NO_CONCEPTS, 1, "quiz.no_concepts", {}, id="set-without-items"),
    pytest.param(["--concepts", "--problem", "other"], SET, 1, "quiz.no_computed_concepts", {"problem": "other"}, id="problem-without-computed"),
]


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("options, text, status, key, args", REFUSED)
def test_a_concepts_quiz_with_nothing_to_ask_is_refused_with_a_sentence(run_cli, tmp_path, lang, options, text, status, key, args):
    path = tmp_path / "set.yaml"
    files = []
    if text is not None:
        path.write_text(text, encoding="utf-8")
        files = [str(path)]
    result = run_cli("quiz", *files, *options, "--lang", lang, input="")
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert in_language(lang, t, key, source=str(path), **args) in flat(result.output)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_help_names_the_option(run_cli, lang):
    result = run_cli("quiz", "--help", "--lang", lang)
    assert result.exit_code == 0
    assert "--concepts" in result.output
    assert flat(in_language(lang, t, "help.quiz.concepts"))[:30] in flat(result.output)
