"""Text read from a problem set is clean: no control or invisible characters, no tokens that only look different."""

from __future__ import annotations

import pytest
from helpers.output import flat

# --- 8. text from files is clean -----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('title: "\\ec"', "title holds an invisible or control character (U+001B, character 1)"),
        ('title: "a\\e]0;owned\\a"', "title holds an invisible or control character (U+001B, character 2)"),
        ('title: "right\\u202eleft"', "title holds an invisible or control character (U+202E, character 6)"),
    ],
)
def test_control_characters_in_titles_are_refused_with_their_place(run_cli, tmp_path, line, message):
    path = tmp_path / "t.yaml"
    path.write_text(f"{line}\nproblems:\n  - {{id: a, tokens: [x], Q: [[1]], K: [[1]]}}\n", "utf-8")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:1:8: {message}" in flat(result.output)
    assert "\x1b" not in result.output


@pytest.mark.parametrize(("first", "second"), [("a", "a\\u200b"), ("\\u00e9", "e\\u0301"), ("b", "b\\ufeff")])
def test_tokens_that_look_the_same_are_refused(run_cli, tmp_path, first, second):
    path = tmp_path / "t.yaml"
    path.write_text(f'problems:\n  - id: a\n    tokens: ["{first}", "{second}"]\n    Q: [[1], [1]]\n    K: [[1], [1]]\n', "utf-8")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    text = flat(result.output)
    assert "appears twice" in text or "invisible or control character" in text
