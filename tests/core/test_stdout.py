"""Standard output that fails with a sentence (attn_tutor.core.stdout): a full disk, a closed stream, an encoding."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# --- 6. output errors are sentences --------------------------------------------------------


@pytest.mark.parametrize(
    ("shell", "message"),
    [
        ("{cmd} solve > /dev/full", "error: cannot write to standard output: No space left on device"),
        ("{cmd} solve >&-", "error: standard output is closed, so nothing could be shown"),
        ("{cmd} export -f md > /dev/full", "error: cannot write to standard output: No space left on device"),
        ("{cmd} solve --format json > /dev/full", "error: cannot write to standard output: No space left on device"),
        ("{cmd} generate >&-", "error: standard output is closed"),
        ("{cmd} export -f qti > /dev/full", "error: cannot write to standard output: No space left on device"),  # bytes
    ],
)
def test_output_errors_are_one_sentence(shell, message):
    cmd = f"{sys.executable} -m attn_tutor"
    result = subprocess.run(["bash", "-c", shell.format(cmd=cmd)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [result.stderr.strip()]  # one line
    assert result.stderr.startswith(message) and "Traceback" not in result.stderr


@pytest.mark.parametrize("encoding", ["cp949", "ascii", "latin-1"])
def test_a_non_utf8_output_encoding_gets_utf8_text(tmp_path, encoding):
    notes = tmp_path / "notes.txt"
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    with open(notes, "w") as out:
        result = subprocess.run([sys.executable, "-m", "attn_tutor", "solve", "--lang", "ko"], stdout=out, stderr=subprocess.PIPE, text=True, env=env, timeout=30)
    assert result.returncode == 0, result.stderr
    text = notes.read_bytes().decode("utf-8")  # UTF-8, whatever the console's encoding
    assert "13장 어텐션 손계산 문제집" in text and "√" in text
