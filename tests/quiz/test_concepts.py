"""The quiz asks a set's concept items after its problems: transcripts with right and wrong
choices, practice feedback per option, an exam's feedback only at the end, the report file."""

from __future__ import annotations

import json

from helpers.concept_set import QUIZ_SET

from attn_tutor.core.i18n import speaking
from attn_tutor.problems.load import load_problem_set, load_text
from attn_tutor.quiz import loop as quiz
from attn_tutor.render import terminal
from attn_tutor.solve.concepts import show_all

SET = load_text(QUIZ_SET, "set.yaml")


class Session:
    def __init__(self, lines):
        self.lines = list(lines)
        self.shown: list[str] = []

    def read_line(self, prompt):
        return self.lines.pop(0) if self.lines else None

    def show(self, blocks):
        self.shown.append(blocks if isinstance(blocks, str) else "\n".join(line for b in blocks for line in terminal.block_lines(b)))

    @property
    def screen(self) -> str:
        return " ".join("\n".join(self.shown).split())


def run(lines, mode="practice", lang="en", save=None):
    with speaking(lang):
        items = tuple(show_all(SET))
        config = quiz.QuizConfig(plans=quiz.plan(SET.problems), problem_set="set.yaml", mode=mode, concepts=items)
        session = Session(lines)
        return quiz.run(config, session.read_line, session.show, save), session, items


def answer_of(shown):
    return " ".join(shown.answer)


def test_right_choices_score_and_say_so():
    _, _, items = run([])
    outcome, session, _ = run(["1 6 4", *(answer_of(s) for s in items)])
    assert outcome.ended == "done"
    assert [mark.score for _, mark in outcome.concepts] == [1.0, 1.0, 1.0]
    assert "Score: 4 / 4" in session.screen
    assert "Right: A." in session.screen
    assert "question 2 of 4" in session.screen


def test_a_wrong_choice_shows_its_misconception_and_the_answer_in_practice():
    outcome, session, _ = run(["1 6 4", "b", "A", "A B C D"])
    screen = session.screen
    assert "Not right: you chose B; the answer is A. 속도와는 상관없습니다 (not about speed)" in screen
    assert "극단적 분포를 완화합니다" in screen
    assert "the weight on '고양이가' is 0.023, and on '생선을' 0.786" in screen  # the computed item's wrong option, with the numbers
    assert [mark.score for _, mark in outcome.concepts] == [0.0, 0.0, 0.0]


def test_an_unreadable_or_double_choice_is_asked_again_and_a_hint_is_refused():
    outcome, session, _ = run(["1 6 4", "?", "Z", "AB", "3", "q"])
    screen = session.screen
    assert "a concept item has no hint" in screen
    assert "answer with the option's letter (A to C) or its number (1 to 3)" in screen
    assert "choose one option: its letter (A to C) or its number" in screen
    assert outcome.concepts[0][1].chosen == ("C",)
    assert outcome.ended == "quit"
    assert outcome.concepts[1][1].chosen == ()  # the item on screen when stopped: no answer


def test_an_exam_gives_no_feedback_until_the_end():
    outcome, session, _ = run(["1 6 4", "B", "B", "1234"], mode="exam")
    before_summary = " ".join("\n".join(session.shown[:-1]).split())
    assert "속도와는 상관없습니다" not in before_summary and "Not right" not in before_summary
    summary = " ".join(session.shown[-1].split())
    assert "What the wrong choices reveal why-scale: 속도와는 상관없습니다 (not about speed)" in summary
    assert "Score: 2 / 4" in summary


def test_the_report_file_carries_each_concept_item():
    saved = []
    run(["1 6 4", "A", "B"], save=saved.append)
    report = saved[-1]
    assert report["finished"] is False
    assert report["max_score"] == 4 and report["score"] == 3
    assert [(c["concept"], c["chosen"], c["score"]) for c in report["concepts"]] == [
        ("why-scale", ["A"], 1.0), ("eat", ["B"], 1.0), ("steps", [], 0.0),
    ]  # fmt: skip
    json.dumps(report)


def test_the_command_asks_every_item_for_the_whole_set_and_a_problems_computed_items_for_it(run_cli):
    ch13 = load_problem_set("ch13")
    numeric = quiz.count_questions(quiz.plan(ch13.problems))
    whole = run_cli("quiz", "ch13", "--lang", "en", input="q\n")
    assert f"question 1 of {numeric + len(ch13.concepts)}" in whole.output
    one = run_cli("quiz", "ch13", "--problem", "cat-fish", "--lang", "en", input="q\n")
    computed = [c for c in ch13.concepts if c.kind == "computed" and c.problem == "cat-fish"]
    assert computed  # the chapter's first problem has items worked out from its numbers
    assert f"question 1 of {quiz.count_questions(quiz.plan([ch13.get('cat-fish')])) + len(computed)}" in one.output
    row = run_cli("quiz", "ch13", "--problem", "cat-fish", "--row", "먹었다", "--lang", "en", input="q\n")
    assert "question 1 of 4" in row.output  # one row's stages: no concept item



def test_in_korean_the_quiz_writes_its_own_concept_feedback_in_korean_only():
    """Issue 35: "…D C A B입니다 (not this order; …)" and "(고양이가: 0.023, but 생선을: 0.786)" were
    English inside Korean; the set's own texts are shown as written."""
    outcome, session, _ = run(["1 6 4", "b", "A", "A B C D"], lang="ko")
    screen = session.screen
    assert "'고양이가'의 가중치는 0.023, '생선을'의 가중치는 0.786입니다" in screen  # never 고양이가은
    assert "이 순서가 아닙니다. 맞는 순서는" in screen
    for english in ("but", "not this order", "the right order", "Not right", "the answer is"):
        assert english not in screen, english
    assert [mark.score for _, mark in outcome.concepts] == [0.0, 0.0, 0.0]
