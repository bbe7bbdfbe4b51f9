"""A file's size cap, as the README's Limits table puts it: a file may be *at most* its cap.

A file of exactly the cap is read; one byte more is refused. The cap holds while the
file is read, not only when it is first looked at: a file that grows after ``stat``
(a form export still being written, a log) is cut off with the same sentence, never
read whole. The growth is made deterministic: the file grows right after the reader
has checked its size on the open descriptor (``fstat``), so nothing depends on timing.
"""

from __future__ import annotations

import csv
import io
import os

import pytest
from helpers.output import flat
from helpers.paths import SET

from attn_tutor.core.reading import InputRefused, open_text, read_regular

README_CAP = 1_000_000  # "a problem-set file | 1,000,000 bytes", "a YAML answer file | 1,000,000 bytes"
TOO_LARGE = "the file is larger than the limit of {limit:,} bytes"


def read_bytes(path, limit: int) -> bytes:
    """A problem set or a YAML answer file: read whole (core.reading.read_regular)."""
    return read_regular(path, limit)


def read_stream(path, limit: int) -> bytes:
    """A CSV answer file: read as a text stream (core.reading.open_text), here to its end."""
    with open_text(path, limit, encoding="latin-1") as stream:
        return stream.read().encode("latin-1")


READERS = {"read whole": read_bytes, "read as a stream": read_stream}


def grow_after_fstat(monkeypatch, path, extra: bytes) -> list[bool]:
    """Append ``extra`` to ``path`` the first time a descriptor of it is fstat-ed: after every size check."""
    real_fstat = os.fstat
    target = os.stat(path)
    grown: list[bool] = []

    def fstat_then_grow(fd):
        result = real_fstat(fd)
        if not grown and (result.st_dev, result.st_ino) == (target.st_dev, target.st_ino):
            with open(path, "ab") as more:
                more.write(extra)
            grown.append(True)
        return result  # the size as it was checked

    monkeypatch.setattr(os, "fstat", fstat_then_grow)
    return grown


# --- a file of exactly the cap is read; one byte more is refused -----------------------------


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize(("over", "read"), [(-1, True), (0, True), (1, False)], ids=["cap-1", "cap", "cap+1"])
def test_a_file_may_be_at_most_its_cap(tmp_path, reader, over, read):
    limit = 4096
    path = tmp_path / "file"
    data = bytes(range(256)) * (limit // 256) + b"z" * max(over, 0)
    data = data[: limit + over]
    path.write_bytes(data)
    if read:
        assert READERS[reader](path, limit) == data
    else:
        with pytest.raises(InputRefused) as refused:
            READERS[reader](path, limit)
        assert refused.value.messages() == [f"{path}: " + TOO_LARGE.format(limit=limit) + "; nothing was read from it"]


def padded(text: str, size: int) -> str:
    """``text`` and a comment line, ``size`` bytes of UTF-8 in all."""
    room = size - len(text.encode("utf-8")) - len("# \n")
    assert room >= 0
    return text + "# " + "x" * room + "\n"


def answer_text() -> str:
    return "student: 김민지\nanswers:\n  cat-fish:\n    먹었다:\n      scores: [1, 6, 4]\n"


@pytest.mark.parametrize(("over", "accepted"), [(0, True), (1, False)], ids=["exactly-the-cap", "one-byte-over"])
def test_a_problem_set_of_exactly_the_readme_cap_validates(run_cli, tmp_path, over, accepted):
    path = tmp_path / "set.yaml"
    path.write_text(padded(SET.read_text("utf-8"), README_CAP + over), "utf-8")
    assert path.stat().st_size == README_CAP + over
    result = run_cli("validate", str(path))
    if accepted:
        assert result.exit_code == 0, result.output
        assert flat(result.output) == f"{path}: valid"
    else:
        assert result.exit_code == 1
        assert TOO_LARGE.format(limit=README_CAP) in flat(result.output)


@pytest.mark.parametrize(("over", "accepted"), [(0, True), (1, False)], ids=["exactly-the-cap", "one-byte-over"])
def test_a_yaml_answer_file_of_exactly_the_readme_cap_is_marked(run_cli, tmp_path, over, accepted):
    path = tmp_path / "kim.yaml"
    path.write_text(padded(answer_text(), README_CAP + over), "utf-8")
    assert path.stat().st_size == README_CAP + over
    book = tmp_path / "book.csv"
    result = run_cli("grade", str(path), "--problems", str(SET), "--csv", str(book))
    if accepted:
        assert result.exit_code == 0, result.output
        assert "1 student marked" in flat(result.output)
        row = next(csv.DictReader(io.StringIO(book.read_text("utf-8-sig"))))
        assert (row["student"], row["cat-fish/먹었다/scores diagnosis"]) == ("김민지", "correct")
    else:
        assert result.exit_code == 1
        assert TOO_LARGE.format(limit=README_CAP) in flat(result.stderr)
        row = next(csv.DictReader(io.StringIO(book.read_text("utf-8-sig"))))  # listed unmarked, with why
        assert (row["student"], row["score"]) == ("kim", "") and TOO_LARGE.format(limit=README_CAP) in row["errors"]


# --- the cap holds while the file is read ---------------------------------------------------


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("growth", [1, 3 << 20], ids=["one-byte", "three-MiB"])
def test_a_file_that_grows_past_its_cap_while_read_is_refused(tmp_path, monkeypatch, reader, growth):
    limit = 4096
    path = tmp_path / "file"
    path.write_bytes(b"a" * limit)  # exactly the cap when its size is checked
    grown = grow_after_fstat(monkeypatch, path, b"b" * growth)
    with pytest.raises(InputRefused) as refused:
        READERS[reader](path, limit)
    assert grown == [True] and path.stat().st_size == limit + growth
    assert TOO_LARGE.format(limit=limit) in refused.value.messages()[0]


@pytest.mark.parametrize("reader", list(READERS))
def test_a_file_that_grows_within_its_cap_is_read_whole(tmp_path, monkeypatch, reader):
    limit = 4096
    path = tmp_path / "file"
    path.write_bytes(b"a" * 100)
    grow_after_fstat(monkeypatch, path, b"b" * (limit - 100))  # grows to exactly the cap: still allowed
    assert READERS[reader](path, limit) == b"a" * 100 + b"b" * (limit - 100)


@pytest.mark.parametrize("command", ["validate", "grade"])
def test_a_file_growing_past_the_readme_cap_is_refused_by_the_commands(run_cli, tmp_path, monkeypatch, command):
    if command == "validate":
        path = tmp_path / "set.yaml"
        path.write_text(padded(SET.read_text("utf-8"), README_CAP), "utf-8")
        args = ["validate", str(path)]
    else:
        path = tmp_path / "kim.yaml"
        path.write_text(padded(answer_text(), README_CAP), "utf-8")
        args = ["grade", str(path), "--problems", str(SET), "--csv", str(tmp_path / "book.csv")]
    grown = grow_after_fstat(monkeypatch, path, b"# more\n" * 10)
    result = run_cli(*args)
    assert grown == [True]
    assert result.exit_code == 1
    assert TOO_LARGE.format(limit=README_CAP) in flat(result.output)
    if command == "grade":  # that file's student listed unmarked, with why
        assert TOO_LARGE.format(limit=README_CAP) in (tmp_path / "book.csv").read_text("utf-8-sig")
