"""What every command says and how it ends: 1 for a missing thing, 2 for malformed usage, where it wrote, one and many."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.output import flat


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["solve", "--seed", "3"], 2, "go with --random"),
        (["solve", "--random", "ch13"], 2, "--random makes its own problem"),
        (["solve", "--random", "--all"], 2, "--random makes one problem"),
        (["solve", "--problem", "nope"], 1, "no problem with id 'nope'"),
        (["solve", "-p", "cat-fish", "--row", "개가"], 1, "has no query token '개가'"),
        (["solve", "--row", "개가"], 1, "no problem in ch13 has a query token '개가'"),
        (["solve", "missing.yaml"], 1, "missing.yaml"),
        (["grade", "nowhere"], 1, "nowhere does not exist"),
        (["solve", "--bogus"], 2, "--bogus"),
    ],
)
def test_missing_things_exit_1_malformed_usage_exits_2(run_cli, args, code, message):
    result = run_cli(*args)
    assert result.exit_code == code, result.output
    assert message in result.output


# --- small things -----------------------------------------------------------------------


def test_commands_that_write_say_where_on_stderr(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short names: a long temporary path would be folded at the terminal's width
    sheet, practice, book = Path("s.html"), Path("p.yaml"), Path("b.csv")
    exported = run_cli("export", "-o", str(sheet))
    assert exported.stdout == "" and flat(exported.stderr) == f"written to {sheet}"
    generated = run_cli("generate", "--seed", "1", "-o", str(practice), "--lang", "ko")
    assert generated.stderr.strip() == f"{practice}에 저장했습니다"
    answers = Path("kim.yaml")
    answers.write_text("student: kim\nproblem_set: ch13\nanswers: {}\n", "utf-8")
    graded = run_cli("grade", str(answers), "--csv", str(book))
    assert f"gradebook written to {book}" in flat(graded.stderr) and "written" not in graded.stdout


def test_one_is_singular(run_cli, tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(
        "problems:\n"
        "  - id: a\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n    rows: [x]\n    ask: [scores]\n"
        "  - id: b\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[2, 0], [0, 1]]\n",
        "utf-8",
    )
    assert "The set's other problem" in run_cli("solve", str(path)).output
    stopped = run_cli("quiz", str(path), "-p", "a", input="q\n").output
    assert "Stopped before the only question. Score so far: 0 / 0" in stopped
    assert "2 problems" in run_cli("list", str(path)).output
