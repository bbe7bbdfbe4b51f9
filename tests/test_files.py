"""Files a user asked for: whole or nothing, readable like any other file, never clobbered."""

from __future__ import annotations

import os
import stat

import pytest

from attn_tutor.errors import AttnTutorError, UsageError
from attn_tutor.files import refuse_overwrite, write_atomic


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
