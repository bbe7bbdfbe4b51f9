"""Reading an input file (attn_tutor.core.reading): only regular files, each under its size cap, never a hang.

Driven through the command line: a FIFO, a device, a link to one or a directory named as a
problem set or an answer file is a sentence, never a read; a file over its cap is refused unread.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import GRADE as FIXTURES
from helpers.paths import SET

# --- 2. only regular files, each under a size cap ------------------------------------------


SPECIALS = {
    "fifo": ("pipe.yaml", "is a FIFO (a named pipe), not a regular file"),
    "dev-zero": ("/dev/zero", "is a device, not a regular file"),
    "link-to-dev-zero": ("zero.yaml", "is a device, not a regular file"),
    "directory": ("dir.yaml", "is a directory"),
}


def _special(tmp_path, kind) -> Path:
    name, _ = SPECIALS[kind]
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        return Path("/dev/zero")
    elif kind == "link-to-dev-zero":
        os.symlink("/dev/zero", path)
    else:
        path.mkdir()
    return path


@pytest.mark.parametrize("kind", sorted(SPECIALS))
@pytest.mark.parametrize("command", ["solve", "validate", "quiz", "export", "grade --problems"])
def test_a_special_file_as_problem_set_is_a_sentence_and_never_waited_on(tmp_path, kind, command):
    """Refused before it is opened for reading: a FIFO opened to read would wait for a writer
    (until the hang guard, ``timeout``, fails the test), and /dev/zero read up to the cap would be
    refused as too large, not as a device."""
    path = _special(tmp_path, kind)
    if command == "grade --problems":
        (tmp_path / "a.yaml").write_text("student: a\n", "utf-8")
        args = ["grade", str(tmp_path / "a.yaml"), "--problems", str(path)]
    else:
        args = [command, str(path)]
    result = subprocess.run([sys.executable, "-m", "attn_tutor", *args], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert SPECIALS[kind][1] in flat(result.stdout + result.stderr)
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "link-to-dev-zero"])
def test_a_special_file_as_answer_file_is_that_students_error(tmp_path, kind, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _special(tmp_path, kind)
    (tmp_path / "good.yaml").write_text(answer("lee", str(SET)), "utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "attn_tutor", "grade", str(path), "good.yaml", "--problems", str(SET), "--csv", "book.csv"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1
    assert SPECIALS[kind][1] in flat(result.stderr)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "book.csv").read_text("utf-8-sig"))))  # the rest of the class written
    assert [(row["student"], row["score"]) for row in rows] == [(path.stem, ""), ("lee", "8")]
    assert SPECIALS[kind][1] in rows[0]["errors"]


def test_a_fifo_inside_an_answer_directory_never_hangs(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "answers").mkdir()
    os.mkfifo(tmp_path / "answers" / "x.csv")
    (tmp_path / "answers" / "good.yaml").write_text(answer("lee", str(SET)), "utf-8")
    result = subprocess.run([sys.executable, "-m", "attn_tutor", "grade", "answers", "--problems", str(SET)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "is a FIFO" in flat(result.stderr)


@pytest.mark.parametrize(
    ("what", "limit_name", "make"),
    [
        ("problem set", "PROBLEM_FILE_BYTES_MAX", lambda p: p.write_text("# " + "x" * 1_000_000 + "\n")),
        ("answer file", "ANSWER_FILE_BYTES_MAX", lambda p: p.write_text("student: a\n# " + "x" * 1_000_000 + "\n")),
    ],
)
def test_files_over_their_size_cap_are_refused_unread(run_cli, tmp_path, what, limit_name, make):
    path = tmp_path / "big.yaml"
    make(path)
    if what == "problem set":
        result = run_cli("validate", str(path))
        said = "the file is larger than the limit of 1,000,000 bytes (a hand-sized limit); nothing was read from it; solve --format json --large"
        assert said in flat(result.output)
    else:
        result = run_cli("grade", str(path), "--problems", str(SET), "--csv", str(tmp_path / "book.csv"))
        assert "the file is larger than the limit of 1,000,000 bytes" in flat(result.stderr)
        book = (tmp_path / "book.csv").read_text("utf-8-sig")  # that file's student listed with why, unmarked
        assert "big,,,," in book and "larger than the limit" in book
    assert result.exit_code == 1


def test_a_csv_over_its_cap_prints_no_written(run_cli, tmp_path, monkeypatch):
    from attn_tutor.gradebook import answer_files, routing

    shutil.copy(FIXTURES / "class.csv", tmp_path / "form.csv")
    for reader in (routing, answer_files):  # the cap where the files are opened
        monkeypatch.setattr(reader, "CSV_BYTES_MAX", 100)
    result = run_cli("grade", str(tmp_path / "form.csv"), "--problems", str(SET), "--csv", str(tmp_path / "book.csv"), "--json", str(tmp_path / "r.json"))
    assert result.exit_code == 1
    assert "larger than the limit of 100 bytes" in flat(result.stderr)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "book.csv").read_text("utf-8-sig"))))  # the file named in its own row
    assert [(row["student"], row["score"]) for row in rows] == [("form", "")] and "larger than the limit" in rows[0]["errors"]


def test_a_class_of_50000_in_one_csv_is_read_as_a_stream(tmp_path):
    from attn_tutor import gradebook
    from attn_tutor.core import model

    header = "student,cat-fish/먹었다/scores\r\n"
    rows = "".join(f"s{i},1 6 4\r\n" for i in range(50_000))
    path = tmp_path / "class.csv"
    path.write_text(header + rows, "utf-8")
    assert path.stat().st_size < model.CSV_BYTES_MAX
    subs = gradebook.read_answer_file(path)
    assert len(subs) == 50_000 and subs[-1].student == "s49999" and subs[-1].line == 50_001
    assert not any(s.findings for s in subs[:: 5000])
