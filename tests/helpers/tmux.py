"""A real terminal for a test: a private tmux server that runs attn-tutor, types, and reads the screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from helpers.tools import SCRIPT


def width(text: str) -> int:
    """Columns on a terminal: two for a wide (Hangul) character."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


class Terminal:
    def __init__(self, socket: Path, config: Path):
        self.socket = socket  # a private server: its own socket file, removed afterwards
        self.config = config
        config.write_text("set -g remain-on-exit on\nset -g history-limit 5000\n")

    def tmux(self, *args: str) -> str:
        command = ["tmux", "-u", "-S", str(self.socket), "-f", str(self.config), *args]
        result = subprocess.run(command, capture_output=True, text=True, timeout=20)
        assert result.returncode == 0, result.stderr
        return result.stdout

    def start(self, *args: str, cwd: Path, columns: int = 100, program: tuple[str, ...] = (str(SCRIPT),), env: dict[str, str] | None = None) -> None:
        """Run attn-tutor in a 100×60 pane (or ``columns`` wide); its exit status goes to a file when it ends.

        ``program``: what to run instead of the console script (tests/helpers/hold_grade.py,
        say), with ``env`` added to the pane's small environment. The shell around it traps
        SIGINT with a no-op (which the quiz does not inherit), so Ctrl-C reaches the quiz and
        the shell lives to record the status.
        """
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "HOME": str(cwd), **(env or {})}
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        command = " ".join(shlex.quote(part) for part in (*program, *args))
        self.status_file = self.config.with_name("exit-status")
        shell = f"trap : INT; {command}; echo $? > {shlex.quote(str(self.status_file))}"
        self.tmux("new-session", "-d", "-x", str(columns), "-y", "60", "-s", "quiz", "-c", str(cwd), f"exec env -i {exports} sh -c {shlex.quote(shell)}")

    def exit_status(self, timeout: float = 15.0) -> int:
        """The program's exit status, once it has ended (``timeout``: how long a hang may last before the test fails)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status_file.exists() and self.status_file.read_text().strip():
                return int(self.status_file.read_text())
            time.sleep(0.05)
        raise AssertionError(f"the program did not end; the screen:\n{self.screen()}")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "quiz")

    def wait_for(self, text: str, *, count: int = 1, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} (x{count}) did not appear; the screen:\n{screen}")
            time.sleep(0.05)

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "quiz", "-l", line)
        self.tmux("send-keys", "-t", "quiz", "Enter")


@contextmanager
def terminal_in(tmp_path: Path) -> Iterator[Terminal]:
    """A Terminal on a private server, stopped (and its socket removed) on the way out."""
    home = Path(tempfile.mkdtemp(prefix="attn-tmux-"))  # short: a socket path has at most ~100 bytes
    term = Terminal(home / "sock", tmp_path / "tmux.conf")
    try:
        yield term
    finally:
        subprocess.run(["tmux", "-S", str(term.socket), "kill-server"], capture_output=True, timeout=20)
        shutil.rmtree(home, ignore_errors=True)
