"""`grade` in a real terminal (tmux): the progress bar counts the files, then gives way to the summary."""

from __future__ import annotations

import shutil
import sys
import time

import pytest
from helpers.paths import CLASS, SET, TESTS
from helpers.tmux import terminal_in

pytestmark = pytest.mark.tmux


def test_a_progress_bar_on_a_terminal_and_gone_when_done(tmp_path):
    """The bar counts the files while grading, then gives way to the summary.

    tests/helpers/hold_grade.py holds the run on its 501st file (two chunks of 250 done)
    until the screen has been read, so the bar is there to be seen on any machine.
    """
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SET, tmp_path / "set.yaml")  # a set a student names lies under the working directory
    text = (CLASS / "01-correct.yaml").read_text("utf-8")  # names ../set.yaml
    for i in range(1500):  # each a student of their own: one name twice is an error
        (folder / f"s{i:04d}.yaml").write_text(text.replace('student: "김민지"', f"student: s{i:04d}"), "utf-8")
    control = tmp_path / "control"
    control.mkdir()
    harness = (sys.executable, str(TESTS / "helpers" / "hold_grade.py"))
    with terminal_in(tmp_path) as term:
        term.start("grade", str(folder), "--jobs", "1", cwd=tmp_path, program=harness, env={"ATTN_TEST_CONTROL": str(control), "ATTN_TEST_HOLD_AT": "501"})
        deadline = time.monotonic() + 60
        while not list(control.glob("held-*")):
            assert time.monotonic() < deadline, f"grading never reached its 501st file; the screen:\n{term.screen()}"
            time.sleep(0.01)
        term.wait_for("500/1500", timeout=60)  # the bar, counting files, while the run is held
        (control / "go").touch()
        assert term.exit_status(timeout=120) == 0
        screen = term.screen()
        assert "all 1500 students marked" in screen
        assert "━" not in screen  # the bar is gone
