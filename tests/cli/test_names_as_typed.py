"""File names as typed: a sentence that starts with a file name keeps its first letter as it is.

`validate my-set.yaml` says `my-set.yaml: ...`, never `My-set.yaml`; nothing capitalises the
first letter of a line, in either language, for a set that is valid, invalid or missing.
"""

from __future__ import annotations

import pytest

GOOD = "problems:\n  - id: a\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n    V: [[1, 0], [0, 1]]\n"
BAD = "problems: [\n"

NAMES = ["my-set.yaml", "a.yaml", "élan.yml", "ßet.yaml", "ǆ.yaml", "데이터.yaml", "x"]


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", [GOOD, BAD, None], ids=["valid", "invalid", "missing"])
def test_validate_starts_its_lines_with_the_name_as_typed(run_cli, tmp_path, monkeypatch, lang, name, text):
    monkeypatch.chdir(tmp_path)
    if text is not None:
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = run_cli("validate", name, "--lang", lang)
    lines = [line.strip() for line in result.output.splitlines() if line.strip()]
    assert lines[0].startswith(name), lines
    assert all(not line.startswith(name[0].upper() + name[1:]) for line in lines if name[0].upper() != name[0])


@pytest.mark.parametrize("command", [("solve",), ("export", "-f", "md"), ("quiz",)])
def test_an_error_about_a_file_names_it_as_typed(run_cli, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my-set.yaml").write_text(BAD, encoding="utf-8")
    result = run_cli(command[0], "my-set.yaml", *command[1:], "--lang", "en")
    assert result.exit_code == 1
    assert "my-set.yaml:1:" in result.output and "My-set" not in result.output
