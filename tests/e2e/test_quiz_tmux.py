"""`attn-tutor quiz` in a real terminal: tmux runs it, send-keys types, capture-pane reads the screen.

Marked ``tmux``: skipped where tmux is missing, failed under CI=true. Each test starts its
own tmux server on a private socket and stops that server when it ends.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.tmux import terminal_in, width

pytestmark = pytest.mark.tmux


@pytest.fixture
def terminal(tmp_path):
    with terminal_in(tmp_path) as term:
        yield term


def test_a_practice_quiz_in_a_real_terminal(terminal, tmp_path):
    terminal.start("quiz", "ch13", "--problem", "cat-fish", "--row", "먹었다", "--report", "r.json", cwd=tmp_path)
    screen = terminal.wait_for("> ")
    # the givens: Korean tokens, columns aligned by display width
    rows = {line.split()[0]: line for line in screen.splitlines() if line.strip().startswith(("고양이가", "생선을", "먹었다"))}
    assert set(rows) == {"고양이가", "생선을", "먹었다"}, screen
    ends = {width(line[: line.index(")") + 1]) for line in rows.values()}
    assert len(ends) == 1, f"q column not aligned:\n{screen}"
    assert "Type the 먹었다 row: 3 numbers, one per key (고양이가, 생선을, 먹었다)." in screen

    terminal.type("1 6 4")
    terminal.wait_for("> ", count=2)
    terminal.type("0.714 4.286 2.857")
    terminal.wait_for("cell 2 (생선을): 4.286 — expected 4.243")
    terminal.wait_for("Rounded too soon: you divided by √2 rounded to 1 decimal place (1.4)")
    terminal.wait_for("(c) Attention weights")
    terminal.type("?")
    terminal.wait_for("Hint: weight = e^x")
    terminal.type("q")
    assert terminal.exit_status() == 0
    assert "Stopped after 3 of 4 questions. Score so far: 1 / 2" in terminal.screen()  # the open one is not counted
    assert '"hints": 1' in (tmp_path / "r.json").read_text(encoding="utf-8")


def test_a_bad_line_is_asked_again_and_ctrl_c_stops_with_130(terminal, tmp_path):
    terminal.start("quiz", "ch13", "--problem", "cat-fish", "--exam", "--lang", "ko", "--report", "r.json", cwd=tmp_path)
    terminal.wait_for("> ")
    terminal.type("1 6")
    terminal.wait_for("여기에는 숫자 3개를 입력하세요 (입력한 숫자: 2개)")
    terminal.wait_for("다시 입력하세요")
    terminal.wait_for("> ", count=2)
    terminal.type("1 6 4")
    terminal.wait_for("(b) 스케일된 스코어")
    terminal.tmux("send-keys", "-t", "quiz", "-l", "0.71")  # half a line typed, then Ctrl-C
    terminal.wait_for("> 0.71")
    terminal.tmux("send-keys", "-t", "quiz", "C-c")
    assert terminal.exit_status() == 130
    screen = terminal.screen()
    assert "10문제 중 2번째에서 중단되었습니다. 지금까지 점수: 1 / 1" in screen  # over the question answered
    (typed,) = [line for line in screen.splitlines() if "0.71" in line and line.startswith(">")]
    assert typed.rstrip() == "> 0.71", screen  # the summary starts on a line of its own
    assert (tmp_path / "r.json").exists()


def test_at_60_columns_tables_and_the_summary_fit_the_screen(terminal, tmp_path):
    """A phone-sized terminal: the e^x table, the feedback and the summary are laid out in
    column groups that fit, and no line is hard-wrapped by the terminal."""
    terminal.start("quiz", "ch13", "--problem", "practice-two-heads", "--lang", "ko", cwd=tmp_path, columns=60)
    terminal.wait_for("> ")
    terminal.type("1 2 3 4 5 6")
    terminal.wait_for("> ", count=2)
    terminal.type("q")
    assert terminal.exit_status() == 0
    screen = terminal.tmux("capture-pane", "-p", "-S", "-", "-t", "quiz")  # without -J: the lines as drawn
    (tmp_path.parent / "tmux-60-columns.txt").write_text(screen, encoding="utf-8")  # kept to look at
    def drawn(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("Pane is dead")] if text.strip() else []

    lines = drawn(screen.split("Pane is dead")[0].rstrip())
    assert all(width(line) <= 60 for line in lines)
    joined = drawn(terminal.screen().split("Pane is dead")[0].rstrip())
    assert len(joined) == len(lines), "a line was wider than the pane and wrapped"  # -J joins wrapped lines
    assert "결과" in screen and "지금까지 점수: 0.33 / 1" in screen
    headers = [line for line in lines if line.lstrip().startswith("문제")]
    assert len(headers) >= 2, screen  # the summary in column groups, each repeating the problem
    assert "(b) 스케일된 스코어" in screen  # the stage's one Korean name, whole


def test_an_exam_killed_with_sighup_leaves_a_complete_report(terminal, tmp_path):
    """A closed terminal or a dropped SSH session: SIGHUP, handled as Ctrl-C is."""
    import json
    import signal

    terminal.start("quiz", "ch13", "--problem", "cat-fish", "--exam", "--report", "r.json", cwd=tmp_path)
    terminal.wait_for("> ")
    terminal.type("1 6 4")
    terminal.wait_for("> ", count=2)
    terminal.type("0.71 4.24 2.83")
    terminal.wait_for("(c) Attention weights")
    shell = terminal.tmux("display-message", "-p", "-t", "quiz", "#{pane_pid}").strip()
    children = [
        int(entry) for entry in os.listdir("/proc")
        if entry.isdigit() and _parent(entry) == int(shell)
    ]  # fmt: skip
    (quiz_pid,) = children  # the shell waits for the one quiz
    os.kill(quiz_pid, signal.SIGHUP)
    assert terminal.exit_status() == 129
    assert "Interrupted after 3 of 10 questions. Score so far: 2 / 2" in terminal.screen()
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert (report["finished"], report["score"], report["max_score"]) == (False, 2, 10)
    items = [(i["row"], i["stage"], i["verdict"]) for i in report["items"]]
    assert len(items) == 8 and items[:3] == [("먹었다", "scores", "correct"), ("먹었다", "scaled", "correct"), ("먹었다", "weights", "missing")]
    assert [name for name in os.listdir(tmp_path) if name.startswith(".")] == []  # no temporary file


def _parent(pid: str) -> int | None:
    try:
        stat = Path("/proc", pid, "stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def test_concept_items_practised_alone_in_a_real_terminal(terminal, tmp_path):
    """`quiz --concepts --problem cat-fish --exam` in Korean: the problem's computed items only, no
    stage asked, a wrong choice re-asked, the verdicts only at the end."""
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.quiz import loop as quiz

    items = quiz.concept_items(load_problem_set("ch13"), "cat-fish")
    terminal.start("quiz", "ch13", "--concepts", "--problem", "cat-fish", "--exam", "--lang", "ko", "--report", "r.json", cwd=tmp_path)
    screen = terminal.wait_for("> ")
    assert f"{len(items)}문제 중 1번째" in screen and "스코어 S" not in screen
    terminal.type("Z")  # no such option: asked again, not marked
    terminal.wait_for("> ", count=2)
    for shown in items:
        terminal.type(", ".join(shown.answer))
    assert terminal.exit_status() == 0
    screen = terminal.screen()
    assert f"점수: {len(items)} / {len(items)}" in screen
    report = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert '"finished": true' in report and '"items": []' in report
