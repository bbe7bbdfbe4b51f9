"""Grading a class on every core: answer files in chunks to worker processes, merged in order.

:func:`grade_class` hands the files, in chunks of at most :data:`CHUNK` files, to
``jobs`` worker processes (:class:`concurrent.futures.ProcessPoolExecutor`). Each
worker has its own :class:`~attn_tutor.gradebook.marking.Grader` (and so its own
marker) for the whole run and gives back each student as a small
:class:`~attn_tutor.gradebook.rows.StudentRow`. The parent takes the chunks back in
the order they were handed out and feeds every row, in input order, to the
:class:`~attn_tutor.gradebook.analysis.Tally` and the
:class:`~attn_tutor.gradebook.writing.GradebookWriter`: the outputs are the same
bytes for any number of jobs, and at most ``2 × jobs`` chunks are ever in flight,
so memory stays flat as the class grows.

A file whose grading raises becomes that student's error. A file that kills its
worker process (the pool breaks) is found by grading the chunk again file by file
in a fresh pool; that one file becomes its student's error, the rest are marked.
One job (or one usable CPU, or a class too small to share out when the number of
jobs was not asked for) means no pool at all, and so does a pool that cannot start.
"""

from __future__ import annotations

import math
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from attn_tutor.errors import Finding, Location
from attn_tutor.gradebook.analysis import Tally
from attn_tutor.gradebook.answer_files import read_answer_file
from attn_tutor.gradebook.cells import CellReader
from attn_tutor.gradebook.marking import Grader
from attn_tutor.gradebook.records import StudentResult
from attn_tutor.gradebook.rows import StudentRow, student_row

CHUNK = 250  # files per chunk at most
SMALL_CLASS = 64  # fewer files than this share out badly: one process, unless --jobs says otherwise

Files = Sequence[tuple[Path, bool]]


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class _Worker:
    """Marks files for one process: one Grader and one cell reader for the whole run."""

    def __init__(
        self, problems: str | None, follow_through: str, lang: str, with_json: bool, name_column: str | None = None
    ) -> None:
        self.grader = Grader(problems=problems, follow_through=follow_through)
        self.cells = CellReader()
        self.lang, self.with_json, self.name_column = lang, with_json, name_column
        self.verdicts: dict = {}  # each distinct verdict cell, made once (see student_row)

    def grade(self, files: Files) -> tuple[list[StudentRow], dict]:
        rows: list[StudentRow] = []
        for path, from_dir in files:
            rows.extend(self.grade_file(path, from_dir))
        return rows, dict(self.grader.columns_by_key)

    def grade_file(self, path: Path, from_dir: bool) -> list[StudentRow]:
        return [student_row(result, self.lang, with_json=self.with_json, verdicts=self.verdicts) for result in self.results(path, from_dir)]

    def results(self, path: Path, from_dir: bool) -> list[StudentResult]:
        """The file's students, marked in full (their reports, not yet rows)."""
        try:
            return [
                self.grader.mark(sub)
                for sub in read_answer_file(path, skip_foreign=from_dir, cells=self.cells, name_column=self.name_column)
            ]
        except Exception as error:  # noqa: BLE001 - one file's failure is that student's error, never the batch's
            return [failed_file(path, f"{type(error).__name__}: {error}")]


def marked_results(
    files: Files, *, problems: str | None = None, follow_through: str = "full", name_column: str | None = None
) -> tuple[Grader, Iterator[StudentResult]]:
    """Every student in full, in the order :func:`grade_class` gives their rows, one at a time
    in this process (the hand-back sheets need each report's cells), and the Grader that
    solved each (set, variant)."""
    worker = _Worker(problems, follow_through, "en", False, name_column)
    return worker.grader, (result for path, from_dir in files for result in worker.results(path, from_dir))


def failed_file(path: Path, reason: str) -> StudentResult:
    """The student of a file that could not be graded at all, listed with why."""
    file = str(path)
    finding = Finding("grade.internal_error", {"reason": reason}, Location(file))
    return StudentResult(Path(path).stem, file, None, None, None, None, [finding])


_WORKER: _Worker | None = None  # a worker process's own, set by the pool's initializer (never in the parent)


def _start_worker(*args) -> None:
    global _WORKER
    _WORKER = _Worker(*args)


def _grade_chunk(files: Files) -> tuple[list[StudentRow], dict]:
    return _WORKER.grade(files)


def chunks_of(files: Files, jobs: int) -> list[Files]:
    """Four chunks a job where the class allows, each of 1 to CHUNK files, in order."""
    size = max(1, min(CHUNK, math.ceil(len(files) / (4 * jobs))))
    return [files[start : start + size] for start in range(0, len(files), size)]


def grade_class(
    files: Files,
    tally: Tally,
    *,
    problems: str | None = None,
    follow_through: str = "full",
    lang: str = "en",
    with_json: bool = False,
    jobs: int | None = None,
    on_row: Callable[[StudentRow], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    name_column: str | None = None,
) -> None:
    """Mark every file and feed each student, in input order, to ``tally`` and then ``on_row``.

    ``jobs``: worker processes (None: every available CPU). ``progress(done, total)`` is
    called in files after each chunk. ``name_column``: a CSV's student column, if not one of
    the usual names. Raises only for a bad ``problems``.
    """
    init_args = (problems, follow_through, lang, with_json, name_column)
    local = _Worker(*init_args)  # also checks --problems before any work
    wanted = jobs
    jobs = min(available_cpus() if jobs is None else jobs, max(1, len(files)))
    if wanted is None and len(files) < SMALL_CLASS:
        jobs = 1
    pieces = chunks_of(files, jobs)
    results = None
    if jobs > 1:
        results = _Pool(jobs, init_args, local).run(pieces)
    if results is None:
        results = (local.grade(piece) for piece in pieces)
    done = 0
    try:
        for piece, (rows, columns) in zip(pieces, results):
            for row in rows:
                if row.set_key is not None and not tally.knows(row.set_key):
                    tally.add_columns(columns[row.set_key], row.set_key)
                tally.add(row)
                if on_row is not None:
                    on_row(row)
            done += len(piece)
            if progress is not None:
                progress(done, len(files))
    finally:
        if hasattr(results, "close"):
            results.close()  # the pool's workers stop with the run, even on Ctrl-C


class _Pool:
    """Worker processes for one run; replaced when one of them dies."""

    def __init__(self, jobs: int, init_args: tuple, local: _Worker) -> None:
        self.jobs, self.init_args, self.local = jobs, init_args, local
        self.executor = None

    def _new(self):
        from concurrent.futures import ProcessPoolExecutor

        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = ProcessPoolExecutor(max_workers=self.jobs, initializer=_start_worker, initargs=self.init_args)

    def run(self, pieces: list[Files]):
        """The chunks' results in order, or None if no pool can start (then grade in this process)."""
        if not pieces:
            return None
        try:
            self._new()
            first = self.executor.submit(_grade_chunk, pieces[0])
        except (OSError, RuntimeError, ValueError, NotImplementedError, ImportError):
            self.close()
            return None
        return self._results(pieces, first)

    def _results(self, pieces: list[Files], first):
        window = deque([(pieces[0], first)])
        upcoming = iter(pieces[1:])
        try:
            while window:
                while len(window) < 2 * self.jobs and (piece := next(upcoming, None)) is not None:
                    window.append((piece, self._submit(piece)))
                piece, future = window.popleft()
                try:
                    yield future.result()
                except Exception:  # noqa: BLE001 - the pool broke (a worker died) or the result could not come back
                    yield self._file_by_file(piece)
        finally:
            self.close()

    def _submit(self, piece: Files):
        try:
            return self.executor.submit(_grade_chunk, piece)
        except Exception:  # noqa: BLE001 - a broken pool refuses work: start a fresh one
            self._new()
            return self.executor.submit(_grade_chunk, piece)

    def _file_by_file(self, piece: Files) -> tuple[list[StudentRow], dict]:
        """A chunk that broke its pool, again one file at a time in fresh pools: the file that
        breaks one is its student's error; every other file is marked as usual."""
        rows: list[StudentRow] = []
        columns: dict = {}
        for one in piece:
            try:
                found, known = self._submit([one]).result()
            except Exception:  # noqa: BLE001 - this is the file
                self._new()
                found, known = [student_row(failed_file(one[0], "its worker process stopped"), self.local.lang)], {}
            rows.extend(found)
            columns.update(known)
        return rows, columns

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None
