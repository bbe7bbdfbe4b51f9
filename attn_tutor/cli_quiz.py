"""The quiz command's helper: reading the student's answers from a terminal or a pipe."""

from __future__ import annotations

import sys


def _stdin_reader():
    """read_line for the quiz: input() on a terminal (line editing), else one line of stdin, echoed."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            import readline  # noqa: F401  (gives input() line editing and history)
        except ImportError:
            pass

        def read_tty(prompt: str) -> str | None:
            from attn_tutor.output import unguarded

            try:
                with unguarded():  # readline needs the real standard output
                    return input(prompt)
            except EOFError:
                sys.stdout.write("\n")
                return None
            except OSError:  # the terminal is gone (a hang-up): the end of input
                return None
            except KeyboardInterrupt:  # Ctrl-C mid-line: what follows starts on a line of its own
                sys.stdout.write("\n")
                sys.stdout.flush()
                raise

        return read_tty

    def read_pipe(prompt: str) -> str | None:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            sys.stdout.write("\n")
            raise
        if not line:
            sys.stdout.write("\n")
            return None
        sys.stdout.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
        return line.rstrip("\r\n")

    return read_pipe
