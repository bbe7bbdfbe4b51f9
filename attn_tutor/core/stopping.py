"""Stopping cleanly: SIGTERM and SIGHUP are handled as Ctrl-C is, through one exception.

A closed terminal or a dropped SSH session sends SIGHUP, ``kill`` sends SIGTERM, and
by default either ends Python on the spot: no ``finally``, no report, temporary files
left behind. Inside :func:`signals_as_interrupt` both raise :class:`Stopped`, a
:class:`KeyboardInterrupt`, so every place that already handles Ctrl-C (the quiz
writing its report, :func:`attn_tutor.core.writing.write_atomic` removing its temporary
file) handles them too; the command then exits with the conventional status
(:func:`exit_status`: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP). The previous
handlers are restored on the way out.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager

_HANDLED = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """A SIGTERM or SIGHUP, raised where the program was, as Ctrl-C raises KeyboardInterrupt."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def exit_status(interrupt: BaseException) -> int:
    """128 + the signal's number: 130 for Ctrl-C (SIGINT), 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + int(getattr(interrupt, "signum", signal.SIGINT))


def _raise(signum, frame) -> None:
    raise Stopped(signum)


@contextmanager
def signals_as_interrupt():
    """Within the block, SIGTERM and SIGHUP raise :class:`Stopped` (outside the main thread: a no-op)."""
    previous = {}
    try:
        for signum in _HANDLED:
            previous[signum] = signal.signal(signum, _raise)
    except ValueError:  # not the main thread: signals cannot be caught here
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
