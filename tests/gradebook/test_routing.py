"""Routing a class's files to workers: each variant's students on one worker, the rest evenly; the hint peeked safely."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.gradebook import routing
from attn_tutor.gradebook.routing import Router, peek

START = b"student: kim\nproblem_set: ../set.yaml\n"


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (START + b"variant: 1017\nanswers: {}\n", (b"../set.yaml", b"1017")),
        (b"variant: 7\nanswers: {}\n", (b"", b"7")),  # no problem_set line: the variant alone
        (b"\xef\xbb\xbfvariant: 7\r\nproblem_set: ch13\r\n", (b"ch13", b"7")),  # a BOM, Windows line ends
        (START + b'variant: "1017"   # my seed\n', (b"../set.yaml", b"1017")),
        (START + b"variant :\t'12'\n", (b"../set.yaml", b"12")),
        (START + b"variants: 3\nvariant: x\nvariant: 5\n", (b"../set.yaml", b"5")),  # the first line that fits
        (b"student: kim\nnote: " + b"x" * 100 + b"\nvariant: 5\nproblem_set: ch13 # here\n", (b"ch13 # here", b"5")),  # a key as written
        (START + b"answers:\n  variant: 1017\n", None),  # not at the top level
        (START + b"# variant: 1017\n", None),
        (START + b"variant: seven\n", None),  # not a number: the worker says so, routing ignores it
        (START + b"variant: [1017]\n", None),
        (START + b"note: |\n  x\n" + b"#" * routing.PEEK_BYTES + b"\nvariant: 1017\n", None),  # beyond the peek
        (START, None),
    ],
)
def test_the_hint_is_a_top_level_variant_near_the_start(tmp_path, text, hint):
    path = tmp_path / "a.yaml"
    path.write_bytes(text)
    assert peek(path) == (hint, len(text))


def test_a_csv_file_gets_no_hint_but_its_size(tmp_path):
    path = tmp_path / "class.csv"
    path.write_bytes(b"student,variant\nkim,1017\n")
    assert peek(path) == (None, 25)


def test_what_is_not_a_readable_regular_file_gets_no_hint_and_never_hangs(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    (tmp_path / "link.yaml").symlink_to(fifo)
    found = {}
    cases = [fifo, tmp_path / "link.yaml", tmp_path / "missing.yaml", Path("/dev/zero"), tmp_path]
    worker = threading.Thread(target=lambda: found.update({case: peek(case) for case in cases}), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "peeking hung"
    assert found == {case: (None, 0) for case in cases}


def hints(table):
    """A hint function from {name: (key or None, size)}."""
    return lambda path: table[path.name]


def test_a_variant_stays_with_the_worker_that_first_took_it_and_the_rest_evens_the_load():
    table = {f"f{i}": ((b"s", str(i % 3).encode()) if i % 2 else None, 100) for i in range(40)}
    router = Router(2, hints(table))
    parts = [router.split([Path(f"f{i}") for i in range(start, start + 10)]) for start in range(0, 40, 10)]
    owners: dict[bytes, set[int]] = {}
    for start, split in zip(range(0, 40, 10), parts):
        assert sorted(p for part in split for p in part) == list(range(10))  # every file once
        assert all(part == sorted(part) for part in split)  # each worker's files in input order
        for worker, part in enumerate(split):
            for position in part:
                key = table[f"f{start + position}"][0]
                if key is not None:
                    owners.setdefault(key[1], set()).add(worker)
    assert all(len(workers) == 1 for workers in owners.values())  # one worker a variant
    assert {w for workers in owners.values() for w in workers} == {0, 1}  # and both get some
    assert abs(router.loads[0] - router.loads[1]) <= 100 + routing.FILE_COST


def test_a_variant_that_would_unbalance_the_run_is_handed_on():
    """A whole class on one variant still keeps both workers busy."""
    table = {f"f{i}": ((b"s", b"1"), 4096) for i in range(2000)}
    router = Router(2, hints(table))
    sizes = [0, 0]
    for start in range(0, 2000, 500):
        for worker, part in enumerate(router.split([Path(f"f{i}") for i in range(start, start + 500)])):
            sizes[worker] += len(part)
    assert min(sizes) > 600  # of 2000
    assert abs(router.loads[0] - router.loads[1]) <= routing.SPILL + 4096 + routing.FILE_COST


FILES = st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 5)), st.integers(0, 10_000)), max_size=200)


def routed(files, workers: int, window: int, spill: int):
    """Each file's worker, window by window, and the router."""
    table = {f"f{i}": (None if seed is None else (b"s", str(seed).encode()), size) for i, (seed, size) in enumerate(files)}
    router = Router(workers, hints(table), spill=spill)
    given_to = []
    for start in range(0, len(files), window):
        names = [f"f{i}" for i in range(start, min(len(files), start + window))]
        split = router.split([Path(name) for name in names])
        assert len(split) == workers
        assert sorted(p for part in split for p in part) == list(range(len(names)))  # every file once
        assert all(part == sorted(part) for part in split)
        worker_of = {position: worker for worker, part in enumerate(split) for position in part}
        given_to.extend((table[name][0], worker_of[position]) for position, name in enumerate(names))
        assert max(router.loads) - min(router.loads) <= spill + 10_000 + routing.FILE_COST
    return given_to, router


@given(FILES, st.integers(1, 4), st.integers(1, 50))
def test_every_file_goes_to_one_worker_and_each_variant_to_one_worker(files, workers, window):
    given_to, router = routed(files, workers, window, spill=1 << 62)
    owner: dict = {}
    for key, worker in given_to:
        if key is not None:
            assert owner.setdefault(key, worker) == worker


@given(FILES, st.integers(1, 4), st.integers(1, 50), st.integers(0, 50_000))
def test_no_worker_is_ever_more_than_the_spill_and_a_file_ahead(files, workers, window, spill):
    routed(files, workers, window, spill)
