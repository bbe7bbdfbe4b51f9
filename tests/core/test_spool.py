"""The spools the gradebook, the class table, the sheets and the item statistics keep their rows and numbers in: every one back, in order, any number of times."""

from __future__ import annotations

import tempfile

import pytest
from helpers.language import in_language
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.core.spool import Spool

ITEMS = st.lists(st.one_of(st.none(), st.integers(), st.floats(allow_nan=False), st.text(), st.tuples(st.text(), st.integers())), max_size=30)


@given(ITEMS, ITEMS, st.integers(min_value=0, max_value=30))
def test_every_object_comes_back_in_order_each_time_even_after_a_reading_stopped_half_way(first, then, stop):
    spool = Spool()
    try:
        for item in first:
            spool.add(item)
        assert list(spool) == first and list(spool) == first  # read twice: the same
        reading = iter(spool)
        for _ in zip(range(stop), reading):  # a reading left half-way (a table drawn in part)
            pass
        for item in then:
            spool.add(item)  # still at the end: nothing read is written over
        assert list(spool) == first + then
        assert len(spool) == len(first) + len(then)
    finally:
        spool.close()
        spool.close()  # closing twice is harmless


def test_a_spool_left_open_is_closed_with_it_and_leaves_no_file(tmp_path, monkeypatch):
    import gc
    import os
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    spool = Spool()
    spool.add("a row")
    file = spool._file
    assert os.listdir(tmp_path) == []  # anonymous from the start
    del spool
    gc.collect()
    assert file.closed  # closed with the spool, without a ResourceWarning


@given(st.lists(st.one_of(st.tuples(st.sampled_from("ab"), st.integers(0, 65535)), st.just("spill"), st.just("read")), max_size=60))
def test_an_array_spool_gives_back_every_number_in_order_across_spills_and_readings(steps):
    from array import array

    from attn_tutor.core.spool import ArraySpool

    spool = ArraySpool()
    try:
        held = {"a": spool.new("a", "H"), "b": spool.new("b", "I")}
        expected = {"a": array("H"), "b": array("I")}
        for step in steps:
            if step == "spill":
                spool.spill()
                assert not held["a"] and not held["b"]  # emptied in memory, still the arrays to append to
            elif step == "read":
                assert spool.read("a") == expected["a"].tobytes() and spool.read("b") == expected["b"].tobytes()
            else:
                key, value = step
                held[key].append(value)
                expected[key].append(value)
        assert spool.read("a") == expected["a"].tobytes() and spool.read("b") == expected["b"].tobytes()
    finally:
        spool.close()


_REAL_TEMPORARY_FILE = tempfile.TemporaryFile  # (the tests below put a failing one in its place)


class _FullDisk:
    """A temporary file on a disk that fills up: writes fail once ``room`` bytes are in, and a
    read fails as a bad disk's would when ``bad_reads`` is set."""

    def __init__(self, room: int, bad_reads: bool = False) -> None:
        self.file, self.room, self.bad_reads = _REAL_TEMPORARY_FILE(), room, bad_reads

    def write(self, data):
        self.room -= len(data)
        if self.room < 0:
            raise OSError(28, "No space left on device")
        return self.file.write(data)

    def read(self, *size):
        if self.bad_reads:
            raise OSError(5, "Input/output error")
        return self.file.read(*size)

    def readline(self, *size):
        if self.bad_reads:
            raise OSError(5, "Input/output error")
        return self.file.readline(*size)

    def __getattr__(self, name):
        return getattr(self.file, name)


def _no_temporary_file():
    raise OSError(13, "Permission denied")


@pytest.mark.parametrize(
    ("case", "disk", "reason"),
    [
        ("a spool cannot be made", _no_temporary_file, "Permission denied"),
        ("a spool's disk fills up", lambda: _FullDisk(room=100), "No space left on device"),
        ("a spool cannot be read back", lambda: _FullDisk(room=10**6, bad_reads=True), "Input/output error"),
        ("an array spool's disk fills up", lambda: _FullDisk(room=100), "No space left on device"),
        ("an array spool cannot be read back", lambda: _FullDisk(room=10**6, bad_reads=True), "Input/output error"),
    ],
)
def test_a_temporary_file_that_fails_is_a_sentence_naming_the_temporary_directory(monkeypatch, case, disk, reason):
    # A class of 50,000 keeps its rows on disk while it is marked: a full disk there is said, with
    # where and what to do, never a traceback.
    from attn_tutor.core import spool as spools
    from attn_tutor.core.errors import AttnTutorError

    monkeypatch.setattr(spools.tempfile, "TemporaryFile", disk)
    with pytest.raises(AttnTutorError) as raised:
        if case.startswith("an array"):
            kept = spools.ArraySpool()
            numbers = kept.new("points", "H")
            numbers.extend(range(1000))
            kept.spill()
            kept.read("points")
        else:
            kept = spools.Spool()
            for number in range(100):
                kept.add(("student", number))
            list(kept)
    said = in_language("en", raised.value.messages)[0]
    assert said.startswith(f"cannot keep the class's rows in temporary files in {tempfile.gettempdir()}: {reason}")
    assert "TMPDIR" in said and "TMPDIR" in in_language("ko", raised.value.messages)[0]


def test_a_full_temporary_directory_while_grading_is_a_sentence_and_writes_nothing(run_cli, tmp_path, monkeypatch):
    from helpers.output import flat
    from helpers.paths import CLASS

    monkeypatch.setattr(tempfile, "TemporaryFile", lambda: _FullDisk(room=4000))  # a few students' rows, then full
    out, reports = tmp_path / "book.csv", tmp_path / "book.json"
    result = run_cli("grade", str(CLASS), "--csv", str(out), "--json", str(reports))
    assert result.exit_code == 1
    said = flat(result.stderr)
    assert f"cannot keep the class's rows in temporary files in {tempfile.gettempdir()}: No space left on device" in said
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # no gradebook, no JSON, not even its temporary file
