"""Run attn-tutor with the marking of answer files held at a point the test chooses, until it says go.

    python tests/helpers/hold_grade.py ARGS...      (ARGS as for attn-tutor: grade CLASS --jobs 2 ...)

A harness for tests that must act *while* ``grade`` is marking, whatever the machine's
speed (tests/gradebook/test_grade_jobs.py stops a run with a signal, and
tests/e2e/test_grade_progress_tmux.py reads the progress bar). Before calling the
program's own entry point it patches :meth:`attn_tutor.gradebook.run._Worker.grade_file`,
the method every process that marks (the parent with one job, or each worker of a pool)
calls once per answer file. Worker processes are forked, so they inherit the patch.
All it does goes through files in the folder ``$ATTN_TEST_CONTROL``:

* ``marked-PID``: a line per answer file that process began to mark;
* ``held-PID``: written when that process reaches its ``$ATTN_TEST_HOLD_AT``-th file
  (1: its first); it then waits for ``go`` before marking it (at most 60 s: then it
  ends with status 97, so nothing outlives a test that failed);
* ``stopped-PID``: written when a worker notes a stop (Ctrl-C, SIGTERM, SIGHUP);
* ``collecting``: written when the parent first waits for its workers' results.

It also gives the run the default signal dispositions whatever the shell that started
pytest did (a shell that runs a job in the background ignores SIGINT for it): Ctrl-C
raises KeyboardInterrupt again, and no stopping signal is blocked.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

WAIT = 60.0  # seconds a held process waits for go before it gives up


def _touch(path: Path, text: str = "") -> None:
    with open(path, "a", encoding="utf-8") as out:
        out.write(text)


def _default_signals() -> None:
    stopping = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stopping)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for signum in stopping[1:]:
        signal.signal(signum, signal.SIG_DFL)


def _patch(control: Path, hold_at: int) -> None:
    from attn_tutor.gradebook import run

    cpus = run.available_cpus
    run.available_cpus = lambda: max(2, cpus())  # --jobs 2 means two workers even on one CPU
    marked = {"count": 0, "pid": None}
    real_grade_file = run._Worker.grade_file
    real_note_stop = run._note_stop
    real_collect = run._Workers._collect

    def grade_file(self, path, from_dir):
        pid = os.getpid()
        if marked["pid"] != pid:  # a forked worker counts its own files
            marked.update(count=0, pid=pid)
        marked["count"] += 1
        _touch(control / f"marked-{pid}", f"{Path(path).name}\n")
        if marked["count"] == hold_at:
            _touch(control / f"held-{pid}")
            deadline = time.monotonic() + WAIT
            while not (control / "go").exists():
                if time.monotonic() > deadline:
                    os._exit(97)
                time.sleep(0.01)
        return real_grade_file(self, path, from_dir)

    def note_stop(signum, frame):
        real_note_stop(signum, frame)
        _touch(control / f"stopped-{os.getpid()}", f"{signum}\n")

    def collect(self, window, sent):
        if not (control / "collecting").exists():
            _touch(control / "collecting")
        return real_collect(self, window, sent)

    run._Worker.grade_file = grade_file
    run._note_stop = note_stop  # _start_worker installs it by name in each worker
    run._Workers._collect = collect


def main() -> None:
    if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        del sys.path[0]  # run as a script: tests/helpers' modules must not shadow anything
    _default_signals()
    _patch(Path(os.environ["ATTN_TEST_CONTROL"]), int(os.environ.get("ATTN_TEST_HOLD_AT", "1")))
    sys.argv = ["attn-tutor", *sys.argv[1:]]
    from attn_tutor.__main__ import run

    run()


if __name__ == "__main__":
    main()
