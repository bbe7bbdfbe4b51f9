"""Files a user asked for: whole or nothing, readable like any other file, never clobbered."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import CLASS, SET

from attn_tutor.core import writing as files
from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.writing import refuse_overwrite, write_atomic


def test_written_files_get_the_usual_permissions_not_0600(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "sheet.html", "<p>안녕</p>\n")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "sheet.html").stat().st_mode)
    assert mode == 0o644
    assert (tmp_path / "sheet.html").read_text(encoding="utf-8") == "<p>안녕</p>\n"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "gradebook.csv"
    target.write_bytes(b"old")

    def no_space(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    with pytest.raises(AttnTutorError, match="No space left on device"):
        write_atomic(target, b"new", replace=True)
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["gradebook.csv"]


@pytest.mark.parametrize(
    ("make", "force", "message"),
    [
        (lambda d: (d / "out.csv").write_text("x"), False, "already exists"),
        (lambda d: (d / "out.csv").mkdir(), True, "is a directory"),
        (lambda d: None, False, None),
        (lambda d: (d / "out.csv").write_text("x"), True, None),
    ],
)
def test_refuse_overwrite(tmp_path, make, force, message):
    make(tmp_path)
    if message is None:
        refuse_overwrite(tmp_path / "out.csv", force)
    else:
        with pytest.raises(UsageError, match=message):
            refuse_overwrite(tmp_path / "out.csv", force)


def test_a_missing_directory_is_refused_before_any_work(tmp_path):
    with pytest.raises(UsageError, match="there is no directory"):
        refuse_overwrite(tmp_path / "no" / "out.csv", False)


# --- 5. outputs never clobber --------------------------------------------------------------


def _target(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "out.csv"
    if kind == "char device":
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # what /dev/null is
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        (tmp_path / "real.csv").write_text("keep me")
        os.symlink(tmp_path / "real.csv", path)
    elif kind == "directory":
        path.mkdir()
    return path


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root (CI runs as root)")
@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("char device", "is a device, FIFO or socket, not a regular file; --force replaces only regular files"),
        ("fifo", "is a device, FIFO or socket, not a regular file"),
        ("symlink", "is a symbolic link; --force replaces only regular files"),
        ("directory", "is a directory"),
    ],
)
@pytest.mark.parametrize("command", ["grade", "export", "generate", "quiz"])
def test_force_replaces_only_regular_files(run_cli, tmp_path, kind, message, command):
    target = _target(tmp_path, kind)
    before = os.lstat(target)
    args = {
        "grade": ["grade", str(CLASS / "01-correct.yaml"), "--csv", str(target)],
        "export": ["export", "-f", "html", "-o", str(target)],
        "generate": ["generate", "-o", str(target)],
        "quiz": ["quiz", "--report", str(target)],
    }[command]
    result = run_cli(*args, "--force", input="q\n")
    assert result.exit_code == 2
    assert message in flat(result.stderr)
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    if kind == "symlink":
        assert (tmp_path / "real.csv").read_text() == "keep me"


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444])
def test_a_replaced_file_keeps_its_permission_bits(run_cli, tmp_path, mode):
    out = tmp_path / "book.csv"
    out.write_text("old")
    out.chmod(mode)
    result = run_cli("grade", str(CLASS / "01-correct.yaml"), "--csv", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(out.stat().st_mode) == mode and out.read_bytes().startswith(b"\xef\xbb\xbfstudent")


def test_a_file_that_appears_while_working_is_never_overwritten(run_cli, tmp_path, monkeypatch):
    out = tmp_path / "sheet.html"

    def someone_else_writes(temp, target):
        Path(target).write_text("theirs")

    monkeypatch.setattr(files, "_before_link", someone_else_writes)
    result = run_cli("export", "-o", str(out))
    assert result.exit_code == 1
    assert "appeared while attn-tutor was working and was left as it is" in flat(result.stderr)
    assert out.read_text() == "theirs"
    assert sorted(os.listdir(tmp_path)) == ["sheet.html"]  # no temporary file left


@pytest.mark.parametrize(
    "case",
    ["grade answer dir", "grade named answer", "export problem file", "quiz problem file", "grade problems file"],
)
def test_an_output_that_is_an_input_is_refused_even_with_force(run_cli, tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "same").mkdir()
    (tmp_path / "same" / "good.yaml").write_text(answer("kim", str(SET)), "utf-8")
    shutil.copy(SET, tmp_path / "s.yaml")
    args, protected = {
        "grade answer dir": (["grade", "same", "--csv", "same/good.yaml"], "same/good.yaml"),
        "grade named answer": (["grade", "same/good.yaml", "--csv", "./same/../same/good.yaml"], "same/good.yaml"),
        "export problem file": (["export", "s.yaml", "-f", "md", "-o", "s.yaml"], "s.yaml"),
        "quiz problem file": (["quiz", "s.yaml", "--report", "s.yaml"], "s.yaml"),
        "grade problems file": (["grade", "same", "--problems", "s.yaml", "--json", "s.yaml"], "s.yaml"),
    }[case]
    before = (tmp_path / protected).read_bytes()
    result = run_cli(*args, "--force", input="q\n")
    assert result.exit_code == 2
    assert "being graded" in flat(result.stderr) or "is one of this command's inputs" in flat(result.stderr)
    assert (tmp_path / protected).read_bytes() == before


def test_sigterm_while_writing_removes_the_temporary_file(tmp_path):
    out = tmp_path / "sheet.html"
    code = (
        "import os, signal, sys\n"
        "from attn_tutor.core import writing as files\n"
        "files._before_link = lambda temp, target: os.kill(os.getpid(), signal.SIGTERM)\n"
        "from attn_tutor.cli.app import main\n"
        f"sys.argv = ['attn-tutor', 'export', '-o', {str(out)!r}]\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert result.returncode == 143, result.stderr
    assert os.listdir(tmp_path) == []  # neither the sheet nor a temporary file
