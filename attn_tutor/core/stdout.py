"""Standard output that fails with a sentence: a full disk, a closed stream, an encoding.

:func:`guarded_stdout` runs a command with ``sys.stdout`` behind a small guard:

* A stream whose encoding is not UTF-8 (``PYTHONIOENCODING=cp949``, an old Korean
  Windows console, ``LANG=C`` on an old system) is switched to UTF-8 when it is a
  file or a pipe (``solve > notes.txt`` gets UTF-8 text); on such a terminal, what it
  cannot show becomes ``?`` — never a traceback.
* A write that fails (``> /dev/full``: no space left; ``>&-``: no standard output at
  all) is remembered and later output is dropped, so the command still finishes what
  does not depend on the screen — a quiz still writes its report after every item.
  The command then ends with one sentence on standard error and exit status 1. A
  closed pipe (``solve | head``) is not an error: later output is dropped quietly and
  the command ends with its own exit status.
"""

from __future__ import annotations

import codecs
import os
import sys
from contextlib import contextmanager

from attn_tutor.core.errors import AttnTutorError


class _Guard:
    """A text stream in front of the real one: failures are remembered, not raised."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self.error: BaseException | None = None
        self.closed_pipe = False

    # what print, rich and input() use
    def write(self, text: str) -> int:
        if self._stream is None:
            if self.error is None:
                self.error = OSError("standard output is closed")
            return len(text)
        if self.error is not None or self.closed_pipe:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self.closed_pipe = True
        except (OSError, ValueError) as error:  # ValueError: a closed file, or an encoding
            self.error = error
        return len(text)

    def flush(self) -> None:
        if self._stream is None or self.error is not None or self.closed_pipe:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self.closed_pipe = True
        except (OSError, ValueError) as error:
            self.error = error

    def isatty(self) -> bool:
        try:
            return self._stream is not None and self._stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError("standard output is closed")
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def buffer(self) -> _BinaryGuard:
        """The bytes under the text (a PDF, a QTI zip), guarded the same way."""
        return _BinaryGuard(self)


class _BinaryGuard:
    """``sys.stdout.buffer`` behind the same guard: its failures are the text stream's."""

    def __init__(self, guard: _Guard) -> None:
        self._guard = guard

    def _call(self, name: str, *args):
        guard = self._guard
        if guard._stream is None:
            if guard.error is None:
                guard.error = OSError("standard output is closed")
            return None
        if guard.error is not None or guard.closed_pipe:
            return None
        try:
            return getattr(guard._stream.buffer, name)(*args)
        except BrokenPipeError:
            guard.closed_pipe = True
        except (OSError, ValueError) as error:
            guard.error = error
        return None

    def write(self, data: bytes) -> int:
        self._call("write", data)
        return len(data)

    def flush(self) -> None:
        self._call("flush")

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextmanager
def unguarded():
    """The real standard output for the block: ``input()`` uses GNU readline (line editing, and
    Ctrl-C without a ``^C`` echoed) only when ``sys.stdout`` is the C-level stream itself."""
    guard = sys.stdout
    if isinstance(guard, _Guard) and guard._stream is not None and guard.error is None:
        sys.stdout = guard._stream
        try:
            yield
        finally:
            sys.stdout = guard
    else:
        yield


def _utf8(stream) -> None:
    """Switch ``stream`` to UTF-8 (a file or pipe) or to replacing what it cannot show (a terminal)."""
    encoding = getattr(stream, "encoding", None)
    reconfigure = getattr(stream, "reconfigure", None)
    if not encoding or reconfigure is None:
        return
    try:
        if codecs.lookup(encoding).name == "utf-8":
            return
    except LookupError:
        pass
    try:
        if stream.isatty():
            reconfigure(errors="replace")
        else:
            reconfigure(encoding="utf-8")
    except (OSError, ValueError):
        pass


def prepare_stderr() -> None:
    _utf8(sys.stderr)


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so Python's own flush at exit cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


@contextmanager
def guarded_stdout():
    """Run the block with a guarded standard output; afterwards, a failed write raises OutputFailed."""
    original = sys.stdout
    if original is not None:
        _utf8(original)
    prepare_stderr()
    guard = _Guard(original)
    sys.stdout = guard
    try:
        yield guard
    finally:
        guard.flush()
        sys.stdout = original
        if original is not None and (guard.error is not None or guard.closed_pipe):
            # What is left in the real stream's buffer would fail again when Python exits.
            _silence_stdout()
    if guard.error is not None:
        raise OutputFailed(guard.error)


class OutputFailed(AttnTutorError):
    """Standard output could not be written (exit status 1)."""

    def __init__(self, error: BaseException) -> None:
        if isinstance(error, UnicodeEncodeError):
            super().__init__("output.encoding", encoding=error.encoding)
        elif isinstance(error, OSError) and error.strerror:
            super().__init__("output.failed", reason=error.strerror)
        else:
            super().__init__("output.closed")
