"""Grading a class on every core: each variant's students on one worker, merged in order.

:func:`grade_class` takes the files a *window* at a time (:func:`windows_of`: up to
``jobs`` × :data:`CHUNK` files) and splits each window into one sub-chunk per worker
with a :class:`~attn_tutor.gradebook.routing.Router`: the files of one variant (a
hint peeked safely from each YAML file's first few KiB) all go to the worker that
owns that variant, so its cold work (generating, solving, building its mistake rows)
is done once per run, not once per worker; the files without a variant, and every
CSV file, are spread so that each worker gets about as many bytes. Sub-chunk *i* goes
to worker *i*: one single-process :class:`concurrent.futures.ProcessPoolExecutor` per
worker, each with its own :class:`~attn_tutor.gradebook.grader.Grader` (and so its
own marker and caches) for the whole run, giving back each file's students as small
:class:`~attn_tutor.gradebook.rows.StudentRow` objects. The parent merges each
window's rows back into input order, adds them to the
:class:`~attn_tutor.gradebook.analysis.Tally` and hands them on, a window at a time, to
whoever iterates the run (the outputs: ``for window in grade_class(...)``): the outputs
are the same bytes for any number of jobs, and at most :data:`WINDOWS` windows are ever
in flight, so memory stays flat as the class grows. A hint only routes: the worker
reads and checks each whole file itself.

A file whose grading raises becomes that student's error. A file that kills its
worker process (that worker's executor breaks) is found by grading its sub-chunk
again file by file in a fresh worker; that one file becomes its student's error, the
rest are marked (work already sent to the dead worker is sent again whole).
One job (or one usable CPU, or a class too small to share out when the number of
jobs was not asked for) means no pool and no peeking at all, and so does a pool that
cannot start. Ctrl-C, SIGTERM or SIGHUP stops the run and its workers at once: each
worker ends after the file at hand (never while it sends a result back), whether the
signal reached it from the terminal or was passed on by the parent.
"""

from __future__ import annotations

import gc
import math
import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.i18n import language, set_language
from attn_tutor.gradebook.analysis import Tally
from attn_tutor.gradebook.answer_files import read_answer_file
from attn_tutor.gradebook.cells import CellReader
from attn_tutor.gradebook.choices import ChoiceLabels
from attn_tutor.gradebook.grader import Grader
from attn_tutor.gradebook.handback import FORMATS, make_sheet
from attn_tutor.gradebook.records import Document, FileNote, StudentResult
from attn_tutor.gradebook.routing import Router
from attn_tutor.gradebook.rows import StudentRow, student_row

CHUNK = 250  # files per chunk (per worker, in a window) at most
WINDOWS = 2  # windows in flight at most
SMALL_CLASS = 64  # fewer files than this share out badly: one process, unless --jobs says otherwise

Files = Sequence[tuple[Path, bool]]


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def usable_jobs(jobs: int | None) -> int:
    """The worker processes a run asking for ``jobs`` (None: one a CPU) gets: never more than the
    CPUs this process may use, since more would only take turns on them, each with its own caches
    to build and memory to hold (``--jobs 64`` on two CPUs: two workers)."""
    cpus = available_cpus()
    return cpus if jobs is None else min(jobs, cpus)


EXTRAS = ("student", *FORMATS)
"""What a row may carry beyond the gradebook (``row.extra``), made in the process that marked the
student, as the run asks by name: ``"student"``, the marked
:class:`~attn_tutor.gradebook.records.StudentResult` itself (their report, findings and places);
``"html"`` or ``"pdf"``, their hand-back sheet in that format
(:func:`attn_tutor.gradebook.handback.make_sheet`)."""


class Marked(NamedTuple):
    """A window of the class, marked: what :func:`grade_class` yields, in input order."""

    done: int  # files marked so far, this window's included
    rows: list[StudentRow | FileNote]  # each student's row (added to the tally), and what is said of a file as a whole; emptied when the next window is asked for


class _Worker:
    """Marks files for one process: one Grader and one cell reader for the whole run."""

    def __init__(
        self,
        problems: str | None,
        follow_through: str,
        with_json: bool,
        name_column: str | None = None,
        extra: str | None = None,
        variant_column: str | None = None,
    ) -> None:
        self.grader = Grader(problems=problems, follow_through=follow_through)
        self.cells = CellReader()
        self.choices = ChoiceLabels(self.grader)
        self.with_json, self.name_column, self.extra = with_json, name_column, extra
        self.variant_column = variant_column
        self.verdicts: dict = {}  # each distinct verdict cell, made once (see student_row)
        self.texts: dict = {}  # each remembered item's JSON, made once (see student_json)
        self.entries: dict = {}  # each remembered item's entry in a row, made once (see student_row)

    def grade(self, files: Files, before_each: Callable[[], None] | None = None) -> tuple[list[list[StudentRow | FileNote]], dict]:
        """Each file's students as rows, and the columns of every (set, variant) seen so far
        (``before_each``: called before each file, such as a worker's check for a stop).

        What outlives a chunk is the run's caches (the marker's rows, the readers' lines):
        frozen out of the cyclic collector's sight, so it does not walk them again and again
        as they grow (a fifth of a 10,000-file run; ``benchmarks/grade_speed.py --gc-freeze``).
        Once a chunk, not once a file: a collection costs as much as marking a file or two.
        """
        rows = []
        for path, from_dir in files:
            if before_each is not None:
                before_each()
            rows.append(self.grade_file(path, from_dir))
        gc.collect()  # the chunk's cyclic garbage (only what is not frozen is walked), or freezing keeps it for good
        gc.freeze()
        return rows, dict(self.grader.columns_by_key)

    def grade_file(self, path: Path, from_dir: bool) -> list[StudentRow | FileNote]:
        """The file read and marked once; each student's row made from that one result (a file
        that holds no students, such as a problem set in the folder: why, as a FileNote)."""
        return [result if isinstance(result, FileNote) else self.row(result) for result in self.results(path, from_dir)]

    def failed_row(self, path: Path, reason: str) -> StudentRow:
        """The row of a file that could not be graded at all (in the CSV and the JSON alike)."""
        return self.row(failed_file(path, reason))

    def row(self, result: StudentResult) -> StudentRow:
        """A marked student as the outputs need them, with what ``extra`` names (see :data:`EXTRAS`)."""
        extra: object = None
        if self.extra == "student":
            extra = result
        elif self.extra is not None:
            solved = None if result.set_key is None else self.grader.solved(result.set_key, result.variant)
            extra = make_sheet(result, solved, self.extra)
        row = student_row(result, with_json=self.with_json, verdicts=self.verdicts, extra=extra, texts=self.texts, entries=self.entries)
        chosen = self.choices.chosen(result)
        return row._replace(chosen=chosen) if chosen else row

    def results(self, path: Path, from_dir: bool) -> list[StudentResult | FileNote]:
        """The file's students, marked in full (their reports, not yet rows), and its notes."""
        try:
            found = read_answer_file(
                path, skip_foreign=from_dir, cells=self.cells, name_column=self.name_column, variant_column=self.variant_column
            )  # fmt: skip
            return [sub if isinstance(sub, FileNote) else self.grader.mark(sub) for sub in found]
        except Exception as error:  # noqa: BLE001 - one file's failure is that student's error, never the batch's
            return [failed_file(path, f"{type(error).__name__}: {error}")]


def failed_file(path: Path | Document, reason: str) -> StudentResult:
    """The student of a file that could not be graded at all, listed with why."""
    if isinstance(path, Document):
        file, student = path.file, path.student
    else:
        file, student = str(path), Path(path).stem
    finding = Finding("grade.internal_error", {"reason": reason}, Location(file))
    return StudentResult(student, file, None, None, None, None, [finding])


_WORKER: _Worker | None = None  # a worker process's own, set by the pool's initializer (never in the parent)
_STOPPED = 0  # in a worker: the stopping signal it has had (Ctrl-C, SIGTERM, SIGHUP), if any


_STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def _stopping_signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP blocked in this thread while an executor starts its helper
    threads and its worker process, which inherit the block: a stopping signal sent to the
    process then always lands on the main thread, asleep in ``future.result()``. (Landing on a
    helper thread it would leave the main thread asleep, and the workers marking, until the
    chunk at hand was done.) One that comes meanwhile is taken when the block is lifted, a few
    microseconds later; each worker lifts it for itself in :func:`_start_worker`."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _start_worker(lang: str, *args) -> None:
    """A worker process's start: the run's language (``lang``: a process started by spawn or
    forkserver has none of its parent's context), its Grader, and Ctrl-C, SIGTERM or SIGHUP only
    noted (see _grade_chunk)."""

    global _WORKER
    set_language(lang)  # for the process's whole life: it is the run's worker, and nothing else
    for signum in _STOPPING:
        signal.signal(signum, _note_stop)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)  # started with them held (_stopping_signals_held)
    _WORKER = _Worker(*args)


def _note_stop(signum, frame) -> None:
    global _STOPPED
    _STOPPED = signum


def _grade_chunk(files: Files) -> tuple[list[list[StudentRow | FileNote]], dict]:
    """The files' rows. A worker that was told to stop ends before its next file: at that safe
    point, never while it sends a result (a message cut short would hang the parent's executor),
    and the parent, stopped by the same signal or passing it on, shuts the run down."""
    assert _WORKER is not None  # in a worker process
    return _WORKER.grade(files, before_each=_stop_if_told)


def _stop_if_told() -> None:
    if _STOPPED:
        os._exit(128 + _STOPPED)


def chunks_of(files: Files, jobs: int) -> Iterator[Files]:
    """Four chunks a job where the class allows, each of 1 to CHUNK files, in order: each sliced
    off as it is asked for (a slice of :class:`~attn_tutor.gradebook.answer_files.AnswerFiles`
    makes a :class:`~pathlib.Path` of each file, some 370 bytes: a whole class's worth at once
    would be 18 MB at 50,000 files, held to the end)."""
    size = max(1, min(CHUNK, math.ceil(len(files) / (4 * jobs))))
    return (files[start : start + size] for start in range(0, len(files), size))


def windows_of(files: Files, jobs: int) -> Iterator[Files]:
    """The files in order, in windows of ``jobs`` chunks' worth (see :func:`chunks_of`), each sliced off as it is asked for."""
    size = jobs * max(1, min(CHUNK, math.ceil(len(files) / (4 * jobs))))
    return (files[start : start + size] for start in range(0, len(files), size))


def grade_class(
    files: Files,
    tally: Tally,
    *,
    problems: str | None = None,
    follow_through: str = "full",
    with_json: bool = False,
    jobs: int | None = None,
    name_column: str | None = None,
    extra: str | None = None,
    variant_column: str | None = None,
) -> Generator[Marked, None, None]:
    """Mark every file; yield the class a window at a time, in input order (:class:`Marked`): each
    student's row, added to ``tally`` first, and what is said of a file as a whole (a
    :class:`FileNote`: a folder's problem set, a CSV's unused columns).

    Each file is read and marked once, in whichever process marks it: everything an output
    needs of a student is in their row (``with_json``: their full report as JSON; ``extra``:
    what else it carries, by name, see :data:`EXTRAS`, such as their hand-back sheet).
    ``jobs``: worker processes (None: every available CPU; never more than those, see
    :func:`usable_jobs`). ``name_column``: a CSV's student column, if not one of the usual names
    (``variant_column``: its variant's). Raises only for a bad ``problems``, at the first window
    asked for. Close the iterator (``contextlib.closing``) to stop a run part way: its workers stop.
    """
    init_args = (problems, follow_through, with_json, name_column, extra, variant_column)
    local = _Worker(*init_args)  # also checks --problems before any work
    wanted = jobs
    jobs = min(usable_jobs(jobs), max(1, len(files)))
    if wanted is None and len(files) < SMALL_CLASS:
        jobs = 1
    results = workers = None
    if jobs > 1:
        workers = _Workers(jobs, init_args, local)
        results = workers.run(files)
    if results is None:
        results = ((len(piece), *local.grade(piece)) for piece in chunks_of(files, jobs))
    done = 0
    try:
        for count, per_file, columns in results:
            done += count
            window = Marked(done, _tallied(per_file, columns, tally))
            yield window
            window.rows.clear()  # the window's rows are handed on: nothing of them stays here,
            del per_file, window  # even while the caller still holds the window
            gc.collect()  # the window's cyclic garbage first: frozen, it would stay to the end
            gc.freeze()  # what survives the window here (the outputs' small caches) is not walked again
    finally:
        if hasattr(results, "close"):
            results.close()  # the workers stop with the run, even on Ctrl-C
        if workers is not None:
            workers.close(stop=True)  # (a no-op unless stopped before the first window came back)
        gc.unfreeze()  # what this process froze is the collector's again once the run is over


def _tallied(per_file, columns, tally: Tally) -> list[StudentRow | FileNote]:
    """A window's rows by file, in order, each student's added to ``tally`` (their set's columns
    first, from the workers' ``columns``); a :class:`FileNote` passes as it is."""
    rows = []
    for found in per_file:
        for row in found:
            if type(row) is not FileNote:
                if row.set_key is not None and not tally.knows(row.set_key):
                    tally.add_columns(columns[row.set_key], row.set_key)
                tally.add(row)
            rows.append(row)
    return rows


_START_ERRORS = (OSError, RuntimeError, ValueError, NotImplementedError, ImportError)


class _Workers:
    """One single-process executor per worker for one run; a worker that dies is replaced."""

    def __init__(self, jobs: int, init_args: tuple, local: _Worker) -> None:
        self.init_args, self.local = init_args, local
        self.lang = language()  # the run's, told to each worker: a new process starts in English
        self.executors: list = [None] * jobs

    def _new(self, worker: int):
        old = self.executors[worker]
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        self.executors[worker] = ProcessPoolExecutor(max_workers=1, initializer=_start_worker, initargs=(self.lang, *self.init_args))
        return self.executors[worker]

    def run(self, files: Files):
        """Each window's (files, rows by file, columns) in order, or None if no worker can
        start (then grade in this process)."""
        windows = windows_of(files, len(self.executors))
        window = next(windows, None)
        if window is None:
            return None
        router = Router(len(self.executors))
        try:
            for worker in range(len(self.executors)):
                self._new(worker)
            first = self._send(window, router, retry=False)
        except _START_ERRORS:
            self.close()
            return None
        return self._results(windows, router, first)

    def _results(self, upcoming: Iterator[Files], router: Router, first):
        """``first`` in flight, then each of the ``upcoming`` windows sent as one comes back."""
        in_flight = deque([first])
        try:
            while in_flight:
                while len(in_flight) < WINDOWS and (window := next(upcoming, None)) is not None:
                    in_flight.append(self._send(window, router))
                yield self._collect(*in_flight.popleft())
        except BaseException:  # Ctrl-C, SIGTERM, SIGHUP or a stop on the way: no worker outlives the run
            self.close(stop=True)
            raise
        self.close()

    def _send(self, window: Files, router: Router, retry: bool = True):
        """The window split by ``router``, each worker's sub-chunk sent to it."""
        parts = router.split([path for path, _from_dir in window])
        sent = []
        for worker, positions in enumerate(parts):
            piece = [window[position] for position in positions]
            sent.append((positions, piece, self._submit(worker, piece, retry) if piece else None))
        return window, sent

    def _collect(self, window: Files, sent) -> tuple[int, list[list[StudentRow]], dict]:
        """The window's rows by file, back in input order, and every worker's columns."""
        per_file: list = [None] * len(window)
        columns: dict = {}
        for worker, (positions, piece, job) in enumerate(sent):
            if job is None:
                continue
            found, known = self._result(worker, piece, *job)
            for position, rows in zip(positions, found):
                per_file[position] = rows
            columns.update(known)
        return len(window), per_file, columns

    def _submit(self, worker: int, piece: Files, retry: bool = True):
        """``piece`` sent to ``worker``: (its executor, the future)."""
        executor = self.executors[worker]
        try:
            with _stopping_signals_held():  # the first submit starts the executor's threads and process
                return executor, executor.submit(_grade_chunk, piece)
        except Exception:  # noqa: BLE001 - a broken worker refuses work: start a fresh one
            if not retry:
                raise
            executor = self._new(worker)
            with _stopping_signals_held():
                return executor, executor.submit(_grade_chunk, piece)

    def _result(self, worker: int, piece: Files, executor, future) -> tuple[list[list[StudentRow]], dict]:
        try:
            return future.result()
        except Exception:  # noqa: BLE001 - the worker died or the result could not come back
            pass
        if executor is not self.executors[worker]:  # sent to a worker that has since died marking another file
            try:
                return self._submit(worker, piece)[1].result()
            except Exception:  # noqa: BLE001 - then this piece holds the file
                pass
        return self._file_by_file(worker, piece)

    def _file_by_file(self, worker: int, piece: Files) -> tuple[list[list[StudentRow]], dict]:
        """A sub-chunk that broke its worker, again one file at a time in fresh workers: the
        file that breaks one is its student's error; every other file is marked as usual."""
        per_file: list[list[StudentRow]] = []
        columns: dict = {}
        for one in piece:
            try:
                found, known = self._submit(worker, [one])[1].result()
            except Exception:  # noqa: BLE001 - this is the file
                self._new(worker)
                found, known = [[self.local.failed_row(one[0], "its worker process stopped")]], {}
            per_file.extend(found)
            columns.update(known)
        return per_file, columns

    def close(self, stop: bool = False) -> None:
        """Every worker shut down; with ``stop``, told to stop after the file at hand rather than
        finish the work already sent (signalled through the executor's own list of its processes;
        without it, they finish that work first)."""

        for executor in self.executors if stop else ():
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                if process.is_alive():
                    os.kill(process.pid, signal.SIGINT)
        for worker, executor in enumerate(self.executors):
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
                self.executors[worker] = None
