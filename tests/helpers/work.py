"""A bound on work that does not depend on the machine's speed: the function calls a block makes.

``with bounded_work(10_000): parse_row(text)`` counts every Python and C function call
made inside the block (``sys.setprofile``) and stops the block with :class:`TooMuchWork`
at the bound: a refusal that should come "at once" and instead walks a million entries
fails the same way on a fast idle machine and on a loaded one, and never hangs. The
bound is an order of magnitude above what the code does today; ``work.calls`` says how
many were made.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class TooMuchWork(BaseException):
    """Raised inside the block at the bound (a BaseException: the code under test's ``except Exception`` cannot hide it)."""


@dataclass
class Work:
    most: int
    calls: int = 0
    exceeded: bool = False


@contextmanager
def bounded_work(most: int) -> Iterator[Work]:
    work = Work(most)

    def count(frame, event, arg):
        if event in ("call", "c_call"):
            work.calls += 1
            if work.calls > most and not work.exceeded:
                work.exceeded = True
                raise TooMuchWork(f"more than {most:,} function calls")

    previous = sys.getprofile()
    sys.setprofile(count)
    try:
        yield work
    except TooMuchWork:
        raise AssertionError(f"the block made more than {most:,} function calls") from None
    finally:
        sys.setprofile(previous)
    if work.exceeded:  # raised inside and caught by the code under test
        raise AssertionError(f"the block made more than {most:,} function calls")
