"""`attn-tutor serve` in a process of its own, for the tests and the load benchmark.

:class:`Server` starts ``python -m attn_tutor serve SET --host 127.0.0.1 --port P --db DB``,
reads the ``student:`` and ``teacher:`` links it prints, waits until it listens, samples its
resident memory, and stops it with SIGINT (Ctrl-C, as a teacher does) or kills it with SIGKILL
(a crash), the whole process group. The port is the system's choice (``--port 0``, read back from
the printed link), so that tests running side by side (pytest-xdist) never ask for the same one;
``start`` again resumes the session on the same port and database. Used by tests/live/test_serve_load.py, tests/e2e/test_live_browser.py and
benchmarks/serve_load.py.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit


class Server:
    """``attn-tutor serve`` in a process of its own; its standard output read in a thread."""

    def __init__(self, db: str, port: int = 0, *, workers: int = 1, mode: str = "practice", set_name: str = "ch13", lang: str = "en"):
        self.db, self.port, self.workers, self.mode, self.set_name, self.lang = db, port, workers, mode, set_name, lang
        self.process: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None
        self.lines: list[str] = []
        self.student_url = self.teacher_url = ""
        self.peak_rss = 0
        self.peak_process_rss = 0  # the largest one process (the server, or one of its workers) was
        self._stop_sampling = threading.Event()

    def start(self, timeout: float = 60.0) -> None:
        args = [sys.executable, "-m", "attn_tutor", "serve", self.set_name, "--host", "127.0.0.1", "--port", str(self.port),
                "--db", self.db, "--mode", self.mode, "--lang", self.lang]  # fmt: skip
        if self.workers > 1:
            args += ["--workers", str(self.workers)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
        self.lines = []
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)
        ready = threading.Event()

        def read(process=self.process):
            for line in process.stdout:
                self.lines.append(line.rstrip("\n"))
                if line.startswith("student: "):
                    self.student_url = line.split(" ", 1)[1].strip()
                elif line.startswith("teacher: "):
                    self.teacher_url = line.split(" ", 1)[1].strip()
                if self.student_url and self.teacher_url:
                    ready.set()
            process.stdout.close()  # the server ended: its output read to the end
            ready.set()

        self.student_url = self.teacher_url = ""
        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        if not ready.wait(timeout) or not (self.student_url and self.teacher_url):
            self.kill()
            raise RuntimeError("serve did not start: " + "\n".join(self.lines[-20:]))
        self.port = urlsplit(self.student_url).port  # the one the system chose, kept for a restart
        self._wait_listening(timeout)
        self._stop_sampling = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def _wait_listening(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("serve stopped: " + "\n".join(self.lines[-20:])) from None
                time.sleep(0.05)
        raise RuntimeError("serve never listened on its port")

    def rss(self) -> int:
        """Resident bytes of the server and its children (uvicorn's workers)."""
        return sum(self.rss_by_process().values())

    def rss_by_process(self) -> dict[int, int]:
        """Resident bytes of the server and of each of its children (uvicorn's workers), by process id."""
        if self.process is None:
            return {}
        found, pids = {}, [self.process.pid]
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
            pids += [int(c) for c in children]
            for child in children:  # a worker's own children (multiprocessing's helpers)
                pids += [int(c) for c in Path(f"/proc/{child}/task/{child}/children").read_text().split()]
        except OSError:
            pass
        for pid in pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        found[pid] = int(line.split()[1]) * 1024
            except OSError:
                pass
        return found

    def cpu_seconds(self) -> float:
        """CPU time (user and system) the server and its worker processes have used so far."""
        if self.process is None:
            return 0.0
        total, pids = 0, [self.process.pid]
        try:
            pids += [int(c) for c in Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()]
        except OSError:
            pass
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
            except (OSError, IndexError, ValueError):
                pass
        return total / os.sysconf("SC_CLK_TCK")

    def _sample(self) -> None:
        while not self._stop_sampling.wait(0.1):
            each = self.rss_by_process()
            self.peak_rss = max(self.peak_rss, sum(each.values()))
            self.peak_process_rss = max(self.peak_process_rss, *each.values(), 0)

    def kill(self) -> None:
        """SIGKILL, as a crash: the whole process group, so workers go too."""
        self._stop_sampling.set()
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(30)
        if self._reader is not None:
            self._reader.join(30)

    def stop(self) -> None:
        """Ctrl-C, as a teacher stops it."""
        self._stop_sampling.set()
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._reader is not None:
            self._reader.join(30)
