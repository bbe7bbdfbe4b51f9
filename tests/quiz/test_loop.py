"""The quiz loop (attn_tutor.quiz.loop), driven by functions: what it asks, marks, hints and reports.

`attn-tutor quiz` through the command line is tests/cli/test_quiz.py; in a real terminal,
tests/e2e/test_quiz_tmux.py.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from helpers.language import in_language
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import speaking
from attn_tutor.core.model import Head, Problem
from attn_tutor.quiz import loop as quiz
from attn_tutor.render import terminal
from attn_tutor.solve import engine

TOKENS = ("고양이가", "생선을", "먹었다")


CAT = Problem(
    id="cat-fish",
    tokens=TOKENS,
    heads=(Head(Q=((2, 1), (1, 2), (1, 3)), K=((1, 0), (0, 2), (1, 1)), V=((1, 0), (0, 1), (1, 1))),),
    rows=("먹었다", "고양이가"),
    tolerance=0.005,  # the chapter's (problems/ch13.yaml): its rows are typed to two places below
)


EAT = ["1 6 4", "0.71 4.24 2.83", "0.02 0.79 0.19", "0.21 0.98"]  # the chapter's row, rounded to two places


# 고양이가 with √d forgotten, then every later stage done right from those numbers:
# softmax(2, 2, 3) = (0.212, 0.212, 0.576), and the output (0.788, 0.788).
CAT_NOT_SCALED = ["2 2 3", "2 2 3", "0.212 0.212 0.576", "0.788 0.788"]


class Session:
    """A student at a keyboard: lines to type, and the screen as text."""

    def __init__(self, lines, interrupt_at: int | None = None):
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.interrupt_at = interrupt_at
        self.buffer = io.StringIO()
        self.out = terminal.console(file=self.buffer)

    def read_line(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        if self.interrupt_at is not None and len(self.prompts) == self.interrupt_at:
            raise KeyboardInterrupt
        if not self.lines:
            return None
        line = self.lines.pop(0)
        self.buffer.write(f"{prompt}{line}\n")
        return line

    def show(self, blocks) -> None:
        if isinstance(blocks, str):
            self.buffer.write(blocks + "\n")
        else:
            terminal.draw(blocks, self.out)

    @property
    def screen(self) -> str:
        return self.buffer.getvalue()


def run(lines, problem=CAT, row=None, interrupt_at=None, **options):
    session = Session(lines, interrupt_at)
    config = quiz.QuizConfig(plans=quiz.plan([problem], row), problem_set="test", **options)
    outcome = quiz.run(config, session.read_line, session.show)
    return outcome, session


def verdicts(outcome):
    return [(item.row, item.stage, item.verdict, item.diagnosis) for item in outcome.report.items]


# --- the loop, driven by functions ----------------------------------------------------


def test_one_line_per_stage_marks_the_chapter_row():
    outcome, session = run(EAT, row="먹었다")
    assert outcome.ended == "done" and outcome.exit_code == 0
    assert [v[2] for v in verdicts(outcome)] == ["correct"] * 4
    assert len(session.prompts) == 4
    assert "Score: 4 / 4" in session.screen


def test_asked_rows_in_order_then_stages_in_pipeline_order():
    outcome, _ = run(EAT + CAT_NOT_SCALED)
    assert [(r, s) for r, s, *_ in verdicts(outcome)] == [
        (token, stage) for token in ("먹었다", "고양이가") for stage in ("scores", "scaled", "weights", "output")
    ]


def test_practice_feedback_names_the_cell_that_is_off():
    outcome, session = run(["1 6 4", "0.71 4.25 2.83", "q"], row="먹었다")
    assert "cell 2 (생선을): 4.25 — expected 4.243" in session.screen
    assert "cell 1 (" not in session.screen and "cell 3 (" not in session.screen
    # the exact row is shown so the student can go on from it
    assert "0.707    4.243    2.828" in session.screen
    # 4.25 is no rounding of anything: a bare slip, no diagnosis
    assert verdicts(outcome)[1] == ("먹었다", "scaled", "partial", None)


def test_the_textbooks_early_rounding_is_named_with_the_number_and_the_places_to_keep():
    """√2 taken as 1.4: 1/1.4, 6/1.4, 4/1.4 = 0.714 4.286 2.857."""
    outcome, session = run(["1 6 4", "0.714 4.286 2.857", "q"], row="먹었다")
    assert verdicts(outcome)[1] == ("먹었다", "scaled", "wrong", "rounding")
    said = " ".join(session.screen.split())  # long lines wrap to the terminal's width
    assert "you divided by √2 rounded to 1 decimal place (1.4). Keep √2 to at least 3 decimal places." in said


def test_practice_says_which_cells_follow_from_the_students_own_row():
    _, session = run(["2 2 3", "2 2 3", "0.212 0.212 0.576", "q"], row="고양이가")
    assert "You did not divide by √d" in session.screen
    assert "cell 3 (먹었다): 0.576 — right from your own previous row (0.576); exact 0.503" in session.screen


def test_exam_mode_shows_nothing_until_the_summary():
    outcome, session = run(CAT_NOT_SCALED, row="고양이가", mode="exam")
    before_summary = session.screen.split("Summary")[0]
    assert "expected" not in before_summary and "wrong" not in before_summary
    assert verdicts(outcome) == [
        ("고양이가", "scores", "correct", None),
        ("고양이가", "scaled", "wrong", "not_scaled"),
        ("고양이가", "weights", "follow_through", None),
        ("고양이가", "output", "follow_through", None),
    ]
    assert "wrong (not divided by √d)" in session.screen and "Score: 3 / 4" in session.screen
    # the exam's only feedback: the explanation, once, after the table
    summary = session.screen.split("Summary")[1]
    assert summary.count("You did not divide by √d") == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("1 6", "type 3 numbers here; got 2"),
        ("1 6 4 5", "type 3 numbers here; got 4"),
        ("__import__('os')", "Try again"),
        ("9^9^9^9", "Try again"),
        ("nan 1 2", "Try again"),
        ("", "Type the row's numbers on one line"),
    ],
)
def test_a_bad_line_is_not_marked_and_the_stage_is_asked_again(bad, message):
    outcome, session = run([bad, "1 6 4", "q"], row="먹었다")
    assert message in session.screen
    assert len(session.prompts) == 3  # the bad line, the answer, then q at the next stage
    assert verdicts(outcome)[0] == ("먹었다", "scores", "correct", None)


def test_hints_are_counted_formula_first_then_the_first_cell():
    outcome, session = run(["?", "hint", "1 6 4", "q"], row="먹었다")
    assert "score = q(먹었다)·k" in session.screen
    assert "먹었다·고양이가 = 1×1 + 3×0 = 1" in session.screen
    assert outcome.report.items[0].hints == 2
    assert outcome.report.items[1].hints == 0


def test_each_further_hint_walks_the_row_then_says_there_is_no_more():
    outcome, session = run(["?", "?", "?", "?", "?", "?", "1 6 4", "q"], row="먹었다")
    screen = session.screen
    lines = ["먹었다·고양이가 = 1×1 + 3×0 = 1", "먹었다·생선을 = 1×0 + 3×2 = 6", "먹었다·먹었다 = 1×1 + 3×1 = 4"]
    assert [screen.count(line) for line in lines] == [1, 1, 1]
    assert screen.index(lines[0]) < screen.index(lines[1]) < screen.index(lines[2])
    assert "Hint: cell 3 (먹었다), worked out:" in screen
    assert screen.count("No more hints for this row") == 2
    assert outcome.report.items[0].hints == 6  # every ? counted


def test_hints_skip_masked_cells_and_use_the_students_own_row():
    causal = Problem(id="c", tokens=TOKENS, heads=CAT.heads, mask="causal", rows=("생선을",))
    _, session = run(["1 4", "0.7 2.8", "?", "?", "?", "?", "q"], problem=causal, mode="exam")
    screen = session.screen
    assert "Hint: cell 1 (고양이가), worked out from your own previous row:" in screen
    assert "Hint: cell 2 (생선을), worked out from your own previous row:" in screen
    assert "e^0.700 / (e^0.700 + e^2.800) = 2.014 / 18.458 = 0.109" in screen
    assert "cell 3" not in screen and "No more hints for this row" in screen


def test_the_second_hint_works_on_the_students_own_numbers_in_an_exam():
    _, session = run(["2 6 4", "?", "?", "q"], row="먹었다", mode="exam")
    assert "from your own previous row" in session.screen
    assert "2 / √2 = 2 / 1.414 = 1.414" in session.screen


@pytest.mark.parametrize(("stop", "ended"), [("q", "quit"), ("QUIT", "quit"), (None, "eof")])
def test_quit_and_end_of_input_stop_with_the_partial_score(stop, ended):
    lines = ["1 6 4", "0.71 4.24 2.83"] + ([stop] if stop else [])
    outcome, session = run(lines)
    assert outcome.ended == ended and outcome.exit_code == 0
    # the stage on screen when the quiz stopped is recorded as missing
    assert [v[2] for v in verdicts(outcome)] == ["correct", "correct", "missing"]
    assert (outcome.asked, outcome.total) == (3, 8)
    assert "after 3 of 8 questions. Score so far: 2 / 2" in session.screen


def test_an_interrupt_stops_cleanly_with_exit_status_130():
    outcome, session = run(EAT, interrupt_at=3)
    assert outcome.ended == "interrupt" and outcome.exit_code == 130
    assert [v[2] for v in verdicts(outcome)] == ["correct", "correct", "missing"]
    assert "Interrupted after 3 of 8 questions" in session.screen


def test_masked_cells_may_be_left_out():
    causal = Problem(id="c", tokens=TOKENS, heads=CAT.heads, mask="causal", rows=("생선을",))
    outcome, session = run(["1 4", "0.707 2.828 0", "0.107 0.893", "q"], problem=causal)
    assert [v[2] for v in verdicts(outcome)] == ["correct", "correct", "correct", "missing"]
    assert outcome.report.items[2].given == (0.107, 0.893, 0.0)
    assert "Masked cells (—) may be left out" in session.screen


def test_a_masked_row_of_the_wrong_length_says_both_counts():
    sol = engine.solve(Problem(id="c", tokens=TOKENS, heads=CAT.heads, mask="causal"))
    with pytest.raises(AttnTutorError) as caught:
        quiz.parse_answer(sol, 1, "scores", "1")
    assert caught.value.messages()[0] == "type 3 numbers here (or 2 without the masked cells); got 1"


def test_korean_messages():
    with speaking("ko"):
        _, session = run(["1 6 4", "0.714 4.286 2.857", "q"], row="먹었다")
    assert "2번 칸 (생선을): 4.286 — 정답 4.243" in session.screen
    assert "√2를 소수 1자리로 반올림한 1.4로 나누었습니다. √2는 소수 3자리 이상 남기세요." in " ".join(session.screen.split())


def test_several_heads_label_each_cell_with_its_head():
    two = Problem(
        id="two",
        tokens=TOKENS,
        multi_head=True,
        heads=(CAT.heads[0], Head(Q=((1, 0), (0, 1), (1, 1)), K=((0, 1), (1, 0), (1, 1)), V=((2,), (0,), (1,)))),
        rows=("먹었다",),
    )
    sol = engine.solve(two)
    right = " ".join(str(v) for v in sol.stage_row("scores", 2).astype(int))
    wrong = right.split()
    wrong[4] = "9"
    outcome, session = run([" ".join(wrong), "q"], problem=two)
    assert "cell 5 (head 2·생선을): 9 — expected 1" in session.screen
    assert outcome.report.items[0].verdict == "partial"


def test_report_is_written_atomically_and_never_overwrites(tmp_path):
    outcome, _ = run(EAT, row="먹었다", student="지민")
    path = tmp_path / "r.json"
    quiz.check_report_path(path)
    quiz.write_report(outcome.report, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["student"] == "지민" and data["score"] == 4.0
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary file left
    with pytest.raises(AttnTutorError, match="already exists"):
        quiz.check_report_path(path)
    with pytest.raises(AttnTutorError, match="there is no directory"):
        quiz.check_report_path(tmp_path / "missing" / "r.json")


def test_every_quiz_message_has_both_languages_and_the_same_placeholders():
    import string

    from attn_tutor.core.i18n import messages, text

    for key, english in in_language("en", messages, ("quiz.", "grading.")).items():
        korean = in_language("ko", text, key)
        names = [{f for _, f, _, _ in string.Formatter().parse(sentence) if f} for sentence in (english, korean)]
        assert english and korean and names[0] == names[1], key


def test_the_loop_does_not_need_numpy_in_the_callbacks():
    """show() receives blocks of plain strings: nothing numpy leaks into what is drawn."""
    seen = []
    session = Session(EAT[:1])
    config = quiz.QuizConfig(plans=quiz.plan([CAT], "먹었다"), problem_set="t")
    quiz.run(config, session.read_line, lambda blocks: seen.append(blocks))
    for blocks in seen:
        for block in blocks if isinstance(blocks, list) else [blocks]:
            for value in block._asdict().values() if not isinstance(block, str) else [block]:
                assert not isinstance(value, np.ndarray)


def test_every_packaged_problem_typed_exactly_gets_full_marks():
    """Masks, cross-attention, projections, several heads: the loop asks for rows of the right size."""
    from attn_tutor.core.rounding import round_half_up
    from attn_tutor.problems.load import load_problem_set

    problem_set = load_problem_set(None)
    lines = []
    for problem in problem_set.problems:
        sol = engine.solve(problem)
        for token in problem.asked_rows:
            for stage in problem.asked_stages:
                row = sol.stage_row(stage, problem.row_index(token))
                lines.append(" ".join("0" if np.isnan(v) else str(round_half_up(v, 3)) for v in row))
    session = Session(lines)
    config = quiz.QuizConfig(plans=quiz.plan(problem_set.problems), problem_set="ch13", mode="exam")
    outcome = quiz.run(config, session.read_line, session.show)
    assert outcome.ended == "done", session.screen
    assert outcome.report.score == outcome.report.max_score == len(lines)


def test_a_report_that_cannot_be_written_is_a_sentence(tmp_path, monkeypatch):
    outcome, _ = run(EAT[:1])

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(quiz.os, "replace", refuse)
    monkeypatch.setattr(quiz.os, "link", refuse)
    with pytest.raises(AttnTutorError, match="cannot write .*r.json: Permission denied"):
        quiz.write_report(outcome.report, tmp_path / "r.json")
    assert list(tmp_path.iterdir()) == []  # the temporary file is gone too


# --- hints on any numbers a student may type ----------------------------------------------

# Numbers at the edges of what a float holds, and beyond: huge, tiny, infinite, not a number,
# more digits than a float keeps. A hint works on the student's own row, whatever it holds.
EDGE_NUMBERS = [
    "1e60", "-1e60", "1e300", "-1e300", "1.7976931348623157e308", "1e-300", "5e-324", "inf", "-inf",
    "nan", "0", "-0", "1e15", "1e20", "2.5e250", "123456789012345678901234567.987654321", "9" * 40,
]


def test_hints_after_very_large_numbers_are_worked_out_not_a_traceback(run_cli):
    result = run_cli("quiz", "--exam", input="1e60 1e60 1e60\n?\n?\nq\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert "from your own previous row" in result.output


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(st.one_of(st.lists(st.sampled_from(EDGE_NUMBERS), min_size=1, max_size=4).map(" ".join), st.just("?")), max_size=10),
    mode=st.sampled_from(["exam", "practice"]),
    row=st.sampled_from(TOKENS),
)
def test_the_quiz_never_raises_on_typed_rows_and_hint_requests(lines, mode, row):
    outcome, session = run([*lines, "q"], row=row, mode=mode)
    assert outcome.ended in ("quit", "done", "eof"), session.screen
