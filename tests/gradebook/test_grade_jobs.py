"""`grade --jobs N`: the same bytes for any N, a broken file is one student's error, no pool when not needed."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.paths import TESTS

from attn_tutor.gradebook import run as class_run

FIXTURES = TESTS / "fixtures" / "grade"
CLASS, BROKEN = FIXTURES / "class", FIXTURES / "broken"


def grade(run_cli, tmp_path: Path, name: str, *args: str):
    out, report = tmp_path / f"{name}.csv", tmp_path / f"{name}.json"
    result = run_cli("grade", str(BROKEN), str(CLASS), "--csv", str(out), "--json", str(report), *args)
    return result, out.read_bytes(), report.read_bytes()


def test_one_job_and_two_give_the_same_bytes(run_cli, tmp_path):
    one = grade(run_cli, tmp_path, "one", "--jobs", "1")
    two = grade(run_cli, tmp_path, "two", "--jobs", "2")
    default = grade(run_cli, tmp_path, "default")
    for result, *_ in (one, two, default):
        assert result.exit_code == 1  # the broken files
    assert one[1] == two[1] == default[1]  # the gradebook
    assert one[2] == two[2] == default[2]  # the JSON
    assert one[0].stdout == two[0].stdout  # the terminal summary
    assert one[0].stderr.replace("one.", "two.") == two[0].stderr  # every error in the same order, then the written lines


def test_the_chunks_keep_the_input_order_and_share_it_out():
    files = [(Path(f"{i:03d}.yaml"), True) for i in range(1001)]
    pieces = list(class_run.chunks_of(files, 2))
    assert [f for piece in pieces for f in piece] == files
    assert max(len(p) for p in pieces) <= class_run.CHUNK and len(pieces) >= 8
    assert list(class_run.chunks_of(files[:3], 8)) == [[f] for f in files[:3]]
    windows = list(class_run.windows_of(files, 2))  # what the workers share, a window at a time
    assert [f for window in windows for f in window] == files
    assert max(len(w) for w in windows) <= 2 * class_run.CHUNK and len(windows) >= 4


@pytest.fixture
def breaking(monkeypatch):
    """Answer files that raise inside the reader, or that kill the worker process reading them."""
    parent = os.getpid()
    real = class_run.read_answer_file

    def read(path, **options):
        if path.name == "03-divided-by-d.yaml":
            raise RuntimeError("a bug meets a file")
        if path.name == "05-not-normalized.yaml" and os.getpid() != parent:
            os._exit(3)  # a worker dies (never the test's own process)
        return real(path, **options)

    monkeypatch.setattr(class_run, "read_answer_file", read)


def test_a_file_that_breaks_the_grader_or_its_worker_is_that_students_error(run_cli, tmp_path, breaking):
    out = tmp_path / "book.csv"
    result = run_cli("grade", str(CLASS), "--csv", str(out), "--jobs", "2")
    assert result.exit_code == 1
    stderr = " ".join(result.stderr.split())
    assert f"{CLASS / '03-divided-by-d.yaml'}: attn-tutor could not grade this file (RuntimeError: a bug meets a file)" in stderr
    assert f"{CLASS / '05-not-normalized.yaml'}: attn-tutor could not grade this file (its worker process stopped)" in stderr
    rows = list(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8-sig"), newline="")))
    assert len(rows) == 13  # every student listed
    assert [row["score"] for row in rows].count("") == 2  # everyone else was marked
    assert rows[2]["student"] == "03-divided-by-d" and rows[4]["student"] == "05-not-normalized"  # in order


def test_a_pool_that_cannot_start_means_one_process(run_cli, tmp_path, monkeypatch):
    import concurrent.futures

    expected = grade(run_cli, tmp_path, "one", "--jobs", "1")

    def refuse(*args, **kwargs):
        raise OSError("no processes here")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    fallback = grade(run_cli, tmp_path, "fallback", "--jobs", "2")
    assert fallback[1:] == expected[1:]


def test_one_job_starts_no_pool(run_cli, tmp_path, monkeypatch):
    import concurrent.futures

    def refuse(*args, **kwargs):  # pragma: no cover - the test fails if this runs
        raise AssertionError("a pool was started")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    assert grade(run_cli, tmp_path, "one", "--jobs", "1")[0].exit_code == 1
    monkeypatch.setattr(class_run, "available_cpus", lambda: 1)
    assert grade(run_cli, tmp_path, "cpu", "--force")[0].exit_code == 1


# --- --jobs above the usable CPUs -----------------------------------------------------------

CAPPED_EN = "--jobs {asked} is more than the {cpus} CPUs this process may use: at most {cpus} worker processes mark the class"
CAPPED_EN_ONE = "--jobs {asked} is more than the one CPU this process may use: the class is marked in this process alone"
CAPPED_KO = "--jobs {asked}: 이 프로세스가 쓸 수 있는 CPU가 {cpus}개라서 작업 프로세스는 최대 {cpus}개만 채점합니다"
CAPPED_KO_ONE = "--jobs {asked}: 이 프로세스가 쓸 수 있는 CPU가 1개라서 이 프로세스 하나로 채점합니다"


@pytest.mark.parametrize(
    ("cpus", "asked", "lang", "said", "readers"),
    [
        (2, "64", "en", CAPPED_EN, 2),  # the case: 64 asked on two CPUs
        (2, "3", "en", CAPPED_EN, 2),
        (3, "5", "ko", CAPPED_KO, 3),
        (1, "2", "en", CAPPED_EN_ONE, 1),  # one CPU: no pool at all, the parent marks
        (1, "64", "ko", CAPPED_KO_ONE, 1),
        (2, "2", "en", None, 2),  # as many as there are: nothing to say
        (3, "2", "ko", None, 2),
        (2, "1", "en", None, 1),
    ],
)
def test_more_jobs_than_usable_cpus_start_one_worker_a_cpu_and_say_so_once(run_cli, tmp_path, monkeypatch, worker_log, cpus, asked, lang, said, readers):
    monkeypatch.setattr(class_run, "available_cpus", lambda: cpus)
    monkeypatch.setattr(class_run, "SMALL_CLASS", 0)
    expected = grade(run_cli, tmp_path, "one", "--jobs", "1", "--lang", lang)
    worker_log.unlink()
    result = run_cli("grade", str(BROKEN), str(CLASS), "--csv", str(tmp_path / "n.csv"), "--json", str(tmp_path / "n.json"), "--jobs", asked, "--lang", lang)
    assert result.exit_code == 1  # the broken files, as with one job
    assert ((tmp_path / "n.csv").read_bytes(), (tmp_path / "n.json").read_bytes()) == expected[1:]  # the same bytes
    lines = result.stderr.splitlines()
    sentence = None if said is None else said.format(asked=asked, cpus=cpus)
    notes = [line for line in lines if line.startswith(f"--jobs {asked}")]
    assert notes == ([] if sentence is None else [sentence])  # once, before any student's error
    if sentence is not None:
        assert lines[0] == sentence
    pids = {line.split()[0] for line in worker_log.read_text("utf-8").splitlines()}
    assert len(pids) == readers  # never more processes marking than usable CPUs
    assert (str(os.getpid()) in pids) == (readers == 1)


@pytest.mark.parametrize("asked", ["0", "-1", "-64"])
def test_no_jobs_or_fewer_is_a_usage_error(run_cli, tmp_path, asked):
    result = run_cli("grade", str(CLASS), "--csv", str(tmp_path / "n.csv"), "--jobs", asked)
    assert result.exit_code == 2
    assert "--jobs" in result.stderr and not (tmp_path / "n.csv").exists()


def test_a_run_leaves_nothing_frozen_in_the_process(run_cli, tmp_path, monkeypatch):
    """Each chunk's survivors are frozen out of the collector's sight while the run lasts; a
    program that grades in-process gets its objects back afterwards (and so they can be freed)."""
    import gc

    frozen = []
    real = class_run._Worker.grade

    def spy(self, files):
        found = real(self, files)
        frozen.append(gc.get_freeze_count())
        return found

    monkeypatch.setattr(class_run._Worker, "grade", spy)
    assert grade(run_cli, tmp_path, "one", "--jobs", "1")[0].exit_code == 1
    assert frozen and all(count > 0 for count in frozen)  # frozen during the run
    assert gc.get_freeze_count() == 0


def test_a_worker_collects_once_a_chunk_and_looks_for_a_stop_before_each_file(monkeypatch):
    """A worker's chunk costs one cyclic collection, not one a file (a collection costs about as
    much as marking a file), and a stop is still looked for before every file."""
    import gc

    from attn_tutor.gradebook.answer_files import find_answer_files

    files = find_answer_files([CLASS])
    collections, looked = [], []
    monkeypatch.setattr(class_run, "_WORKER", class_run._Worker(None, "full", False))
    monkeypatch.setattr(class_run, "_stop_if_told", lambda: looked.append(1))
    monkeypatch.setattr(class_run.gc, "collect", lambda *args: collections.append(1) or 0)
    try:
        per_file, _columns = class_run._grade_chunk(files)
    finally:
        gc.unfreeze()
    assert len(per_file) == len(looked) == len(files) > 10
    assert len(collections) == 1


def test_the_parent_of_workers_freezes_what_survives_each_window_and_gives_it_back(monkeypatch):
    """With workers the parent only merges, but what it keeps across windows (the outputs' caches)
    is frozen out of the cyclic collector's sight after each window, as in the workers, and given
    back when the run ends."""
    import gc

    from attn_tutor.gradebook.analysis import Tally
    from attn_tutor.gradebook.answer_files import find_answer_files

    monkeypatch.setattr(class_run, "CHUNK", 2)  # windows of four files: five windows
    frozen = []
    files = find_answer_files([BROKEN, CLASS])
    for window in class_run.grade_class(files, Tally(), jobs=2):
        frozen.extend(gc.get_freeze_count() for _row in window.rows)
    assert frozen[0] == 0 and frozen[-1] > 0  # frozen once the first window was merged
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_files_are_sliced_into_chunks_as_they_are_graded_not_all_at_once(monkeypatch, jobs):
    """A chunk of a class's files is made (a Path for each file) only when it is about to be sent:
    by the first student's row, one chunk (one job) or the windows in flight (two jobs) of the many."""
    from collections.abc import Sequence

    from attn_tutor.gradebook.analysis import Tally
    from attn_tutor.gradebook.answer_files import find_answer_files

    class Counted(Sequence):
        def __init__(self, files) -> None:
            self.files, self.slices = files, 0

        def __len__(self) -> int:
            return len(self.files)

        def __getitem__(self, index):
            self.slices += isinstance(index, slice)
            return self.files[index]

    monkeypatch.setattr(class_run, "CHUNK", 1)  # a chunk a file: a window of one file a job
    files = Counted(find_answer_files([BROKEN, CLASS]))
    sliced = []
    for window in class_run.grade_class(files, Tally(), jobs=jobs):
        sliced.extend(files.slices for _row in window.rows)
    assert len(files) > 4 * class_run.WINDOWS
    assert sliced[0] <= (1 if jobs == 1 else class_run.WINDOWS)
    assert files.slices == -(-len(files) // jobs)  # one slice a window, each taken once


def test_no_progress_bar_when_not_on_a_terminal(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(class_run, "SMALL_CLASS", 0)
    from attn_tutor.render import terminal

    calls = []
    real = terminal.progress
    monkeypatch.setattr(terminal, "progress", lambda total, label, least=300: calls.append(total) or real(total, label, least=0))
    result, *_ = grade(run_cli, tmp_path, "piped")
    assert calls == [20]  # every file of both folders
    assert "grading" not in result.stderr and "━" not in result.stderr


# --- each variant's students on one worker ------------------------------------------------

SEEDS = (1001, 1002, 1003, 1004, 1005)


@pytest.fixture
def variant_class(tmp_path, monkeypatch):
    """A class of 60 YAML files, most on one of five variants (some right, some marked against
    the wrong numbers), some on the set itself, plus a CSV and the broken files."""
    import shutil

    from helpers.answers import answer_yaml

    from attn_tutor.problems.load import load_path
    from attn_tutor.variants.generate import variant_set

    monkeypatch.chdir(tmp_path)  # a set a student names lies under the working directory
    shutil.copy(FIXTURES / "set.yaml", tmp_path / "set.yaml")
    original = load_path(FIXTURES / "set.yaml")
    variants = {seed: variant_set(original, seed) for seed in SEEDS}
    folder = tmp_path / "class"
    folder.mkdir()
    for i in range(60):
        seed = SEEDS[i % len(SEEDS)] if i % 4 else None
        numbers = original if seed is None or i % 3 == 0 else variants[seed]  # every third: the set's key, not the variant's
        (folder / f"v{i:03d}.yaml").write_text(answer_yaml(f"v{i:03d}", numbers, seed), "utf-8")
    for broken in BROKEN.iterdir():
        shutil.copy(broken, folder / broken.name)
    return folder


def grade_folder(run_cli, folder: Path, name: str, *args: str):
    out, report = folder.parent / f"{name}.csv", folder.parent / f"{name}.json"
    result = run_cli("grade", str(folder), "--csv", str(out), "--json", str(report), *args)
    assert out.exists(), (result.stderr, repr(result.exception))
    return result, out.read_bytes(), report.read_bytes()


def test_a_class_with_variants_gives_the_same_bytes_for_any_number_of_jobs(run_cli, variant_class, monkeypatch):
    monkeypatch.setattr(class_run, "SMALL_CLASS", 0)  # the default shares out this small class too
    monkeypatch.setattr(class_run, "available_cpus", lambda: 3)  # three workers, whatever the machine
    runs = {jobs: grade_folder(run_cli, variant_class, f"jobs{jobs}", "--jobs", jobs) for jobs in ("1", "2", "3")}
    runs["default"] = grade_folder(run_cli, variant_class, "default")
    one = runs["1"]
    assert one[0].exit_code == 1  # the broken files
    rows = list(csv.DictReader(io.StringIO(one[1].decode("utf-8-sig"), newline="")))
    assert len(rows) == 60 + 6 + 2  # 60 YAML students, six broken or odd YAML files, a CSV of two
    assert {row["variant"] for row in rows} >= {str(seed) for seed in SEEDS}
    assert len({row["score"] for row in rows if row["variant"]}) > 1  # some right, some not
    for result, gradebook, report in runs.values():
        assert (gradebook, report, result.stdout) == (one[1], one[2], one[0].stdout)
        assert result.stderr.split("gradebook written")[0] == one[0].stderr.split("gradebook written")[0]  # the same errors in order


class _HeldWhole(list):
    """A spool that holds everything in memory, as every output did before the spools."""

    def add(self, item) -> None:
        self.append(item)

    def close(self) -> None:
        pass


def test_a_spooled_run_gives_the_bytes_of_one_that_holds_every_student_in_memory(run_cli, variant_class, monkeypatch):
    """Variants, a CSV, broken files, a student handed in twice and a second problem set: the run
    that keeps its class table, names and sets on disk, and whose marker soon stops remembering,
    says and writes what holding everything did."""
    from attn_tutor.classroom import outputs
    from attn_tutor.gradebook import analysis, grader, writing

    shutil.copy(variant_class / "v001.yaml", variant_class / "v001-again.yaml")  # the same student twice
    (variant_class / "z-ch13.yaml").write_text(
        "student: 이서연\nproblem_set: ch13\nanswers:\n  cat-fish:\n    먹었다:\n      scores: [1, 6, 4]\n", "utf-8"
    )  # another set: the summary lists who each marked
    monkeypatch.setattr(class_run, "SMALL_CLASS", 0)

    def run(jobs: str) -> tuple:
        report = variant_class.parent / "report.html"
        result, gradebook, reports = grade_folder(run_cli, variant_class, "book", "--jobs", jobs, "--class-report", str(report), "--force")
        return result.exit_code, result.stdout, result.stderr, gradebook, reports, report.read_bytes()

    with monkeypatch.context() as forgetful:
        forgetful.setattr(grader, "MARKER_MEMORY", 40)  # and a marker that soon stops remembering: the same marks
        spooled = {jobs: run(jobs) for jobs in ("1", "2")}
    with monkeypatch.context() as held:
        for module in (analysis, writing, outputs):
            held.setattr(module, "Spool", _HeldWhole)
        held.setattr(writing, "hash", lambda name: 0, raising=False)  # every name compared whole
        whole = {jobs: run(jobs) for jobs in ("1", "2")}
    assert spooled == whole
    status, stdout, stderr, *_ = spooled["1"]
    assert status == 1 and "v001-again.yaml" in stderr  # the cases are there: a student twice,
    assert "marked against 2 different problem sets" in stdout and "ch13: 이서연" in stdout  # two sets, who each marked


@pytest.fixture
def worker_log(tmp_path, monkeypatch):
    """Which process read each answer file: a line "pid name" for each, from any worker."""
    log = tmp_path / "workers.log"
    real = class_run.read_answer_file

    def read(path, **options):
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {Path(path).name}\n")
        return real(path, **options)

    monkeypatch.setattr(class_run, "read_answer_file", read)
    return log


def test_each_variants_students_are_marked_by_one_worker_and_the_rest_shared(run_cli, variant_class, worker_log):
    result, *_ = grade_folder(run_cli, variant_class, "two", "--jobs", "2")
    assert result.exit_code == 1
    readers = dict(reversed(line.split()) for line in worker_log.read_text("utf-8").splitlines())
    assert len(readers) == 60 + 7 and os.getpid() not in {int(pid) for pid in readers.values()}
    for seed in SEEDS:
        names = [f"v{i:03d}.yaml" for i in range(60) if i % 4 and SEEDS[i % len(SEEDS)] == seed]
        assert len({readers[name] for name in names}) == 1, seed  # one worker for the whole variant
    owners = {readers[f"v{i:03d}.yaml"] for i in range(60) if i % 4}
    assert len(owners) == 2  # the five variants are shared out between both workers
    counts = [list(readers.values()).count(pid) for pid in owners]
    assert abs(counts[0] - counts[1]) <= 6  # and the files without a variant even the load


def test_a_file_that_kills_a_variants_worker_is_that_students_error_only(run_cli, variant_class, monkeypatch):
    expected = grade_folder(run_cli, variant_class, "one", "--jobs", "1")
    parent = os.getpid()
    real = class_run.read_answer_file

    def read(path, **options):
        if path.name == "v006.yaml" and os.getpid() != parent:
            os._exit(3)  # the worker that owns variant 1002 dies (never the test's own process)
        return real(path, **options)

    monkeypatch.setattr(class_run, "read_answer_file", read)
    monkeypatch.setattr(class_run, "CHUNK", 4)  # many windows: work already sent to the dead worker is sent again
    result, gradebook, _ = grade_folder(run_cli, variant_class, "two", "--jobs", "2")
    assert f"{variant_class / 'v006.yaml'}: attn-tutor could not grade this file (its worker process stopped)" in " ".join(result.stderr.split())
    got = list(csv.DictReader(io.StringIO(gradebook.decode("utf-8-sig"), newline="")))
    want = list(csv.DictReader(io.StringIO(expected[1].decode("utf-8-sig"), newline="")))
    assert [row["student"] for row in got] == [row["student"] for row in want]
    changed = [row["student"] for row, before in zip(got, want) if row != before]
    assert changed == ["v006"]


def workers_of(pid: int) -> set[int]:
    """The child processes of ``pid`` (Linux)."""
    children = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        children.update(int(child) for child in task.read_text().split())
    return children


def wait_until(found, what: str, run: subprocess.Popen, timeout: float = 60.0):
    """``found()`` once it is true, polled every 10 ms; fails if ``run`` ends first or ``timeout`` passes (a hang, not a speed)."""
    import time

    deadline = time.monotonic() + timeout
    while not (value := found()):
        if run.poll() is not None:
            raise AssertionError(f"the run ended (status {run.returncode}) before {what}: {run.stderr.read().decode()[-2000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout:.0f} s")
        time.sleep(0.01)
    return value


@pytest.mark.parametrize(("signum", "status", "whole_group"), [("SIGINT", 130, True), ("SIGTERM", 143, False), ("SIGHUP", 129, False)])
def test_a_signal_stops_every_worker_at_once_and_writes_nothing(tmp_path, signum, status, whole_group):
    """Ctrl-C at a terminal reaches every process; ``kill`` only the one it names: either way the
    run stops, its workers with it, and no gradebook is left half-written.

    Deterministic on any machine: tests/helpers/hold_grade.py holds each worker on its first
    file until the test says go, so the signal always comes while both workers are marking
    and the parent waits for their results; the test says go only once every worker has
    noted the stop. Each worker then ends after the file at hand: of the class's 200 files,
    exactly one a worker is begun, none after the signal. The harness gives the run the
    default signal dispositions, so a shell that ignores SIGINT for pytest changes nothing.
    """
    import shutil
    import signal
    import sys

    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(FIXTURES / "set.yaml", tmp_path / "set.yaml")
    text = (CLASS / "01-correct.yaml").read_text("utf-8")
    for i in range(200):  # four windows of 50: far more than the two files held
        (folder / f"s{i:04d}.yaml").write_text(text.replace('student: "김민지"', f"student: s{i:04d}"), "utf-8")
    control = tmp_path / "control"
    control.mkdir()
    out = tmp_path / "book.csv"
    reports = tmp_path / "book.json"  # its temporary file is there from the start of marking, the reports going into it
    command = [sys.executable, str(TESTS / "helpers" / "hold_grade.py"), "grade", str(folder), "--csv", str(out), "--json", str(reports), "--jobs", "2"]
    env = {**os.environ, "ATTN_TEST_CONTROL": str(control), "ATTN_TEST_HOLD_AT": "1"}
    run = subprocess.Popen(command, cwd=tmp_path, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        held = wait_until(lambda: len(found := list(control.glob("held-*"))) == 2 and found, "both workers holding their first file", run)
        wait_until(lambda: (control / "collecting").exists(), "the parent waiting for the workers' results", run)
        workers = {int(path.name.removeprefix("held-")) for path in held} | workers_of(run.pid)
        assert run.pid not in workers and len(workers) >= 2
        number = getattr(signal, signum)
        os.killpg(run.pid, number) if whole_group else os.kill(run.pid, number)
        for path in held:  # from the terminal, or passed on by the parent
            wait_until((control / path.name.replace("held-", "stopped-")).exists, f"worker {path.name} noting the stop", run)
        (control / "go").touch()
        assert run.wait(timeout=60) == status  # a bound on a hang only: the files held are marked in milliseconds
        stderr = run.stderr.read().decode()
    finally:
        if run.poll() is None:  # pragma: no cover - only when the test already failed
            os.killpg(run.pid, signal.SIGKILL)
        run.stderr.close()
    assert stderr.strip().endswith("interrupted") and "Traceback" not in stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["class", "control", "set.yaml"]  # no gradebook, no temporary file
    assert all(not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text() for pid in workers)
    begun = {path.name: path.read_text("utf-8").split() for path in control.glob("marked-*")}
    assert sorted(begun) == sorted(path.name.replace("held-", "marked-") for path in held)  # only the workers marked
    assert all(len(files) == 1 for files in begun.values()), begun  # the file at hand, not the rest of the class


def test_the_speed_benchmark_reports_the_parents_own_cpu_beside_the_whole_runs(tmp_path):
    """benchmarks/grade_speed.py times `grade` through a small runner that reports the parent's peak
    memory and its own CPU at its exit: the parent's share is what routing, merging, the tally and
    the outputs cost beside the workers' marking, the figure a speed-up of either side is judged by."""
    from helpers.benchmarks import load_benchmark

    module = load_benchmark("grade_speed")
    run = module.measured(module.cli(CLASS, tmp_path, "--jobs", "2"))
    assert 0 < run.parent_cpu <= run.cpu
    assert run.memory > 0 and run.wall > 0
    assert (tmp_path / "grades.csv").exists() and (tmp_path / "grades.json").exists()
