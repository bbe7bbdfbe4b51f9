"""The spools the gradebook, the class table, the sheets and the item statistics keep their rows and numbers in: every one back, in order, any number of times."""

from __future__ import annotations

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
