"""Writing what a user asked for: the whole file or nothing, and never over a file without --force.

Every command that writes (quiz --report, grade --csv/--json, export -o, generate -o)
goes through here, so they behave alike: an existing file is refused before any work
is done (exit status 2: the command line must change), and the text is written to a
temporary file beside the target, flushed to disk and renamed over it, so an
interrupted run leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from attn_tutor.errors import AttnTutorError, UsageError


def refuse_overwrite(path: str | os.PathLike | None, force: bool) -> None:
    """Before any work: ``path`` must not exist (unless ``force``) and must be able to become a file."""
    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise UsageError("files.is_dir", path=str(target))
    if not target.absolute().parent.is_dir():
        raise UsageError("files.no_dir", path=str(target), directory=str(target.absolute().parent))
    if not force and (target.exists() or target.is_symlink()):
        raise UsageError("cli.file_exists", path=str(target))


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8 with ``\\n`` line ends, or bytes) as the whole of ``path``."""
    with atomic_file(path) as stream:
        stream.write(data.encode("utf-8") if isinstance(data, str) else data)


@contextmanager
def atomic_file(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become the whole of ``path`` when the block ends; if the block
    raises, ``path`` is left as it was. For outputs written piece by piece (a class's gradebook).

    The file gets the usual permissions (0666 less the umask), not mkstemp's 0600.
    """
    target = Path(path)
    temp = None
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.absolute().parent)
        with os.fdopen(handle, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, target)
        temp = None
    except OSError as error:
        raise AttnTutorError("files.cannot_write", path=str(target), reason=error.strerror or str(error)) from None
    finally:
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass
