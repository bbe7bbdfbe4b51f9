"""Writing what a user asked for: the whole file or nothing, and never over a file without --force.

Every command that writes (quiz --report, grade --csv/--json, export -o, generate -o)
goes through here, so they behave alike:

* Before any work (:func:`refuse_overwrite`): an existing file is refused without
  ``--force`` (exit status 2: the command line must change); with ``--force`` only a
  *regular file* is replaced — a directory, a device, a FIFO, a socket or a symlink
  is refused with a sentence; an output that is one of the command's own inputs is
  refused even with ``--force``.
* At the end (:func:`write_atomic`): the text goes to a temporary file beside the
  target, flushed to disk, then put in place. A new file is created *exclusively*
  at that last moment (``os.link`` of the temporary file, which fails if the name
  exists, then the temporary name is removed), so a file that appeared while the
  command worked is never overwritten; a replaced file (``--force``) keeps its
  permission bits. An interrupted run (an error, Ctrl-C, SIGTERM, SIGHUP — see
  :mod:`attn_tutor.core.stopping`) removes its temporary file and leaves either the old
  file or the new one, never half of one.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, NoReturn

from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.reading import file_kind

# Filesystems without hard links (FAT, some network mounts) answer os.link with one of these.
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}


_WRITE_REFUSALS = {"directory": "files.is_dir", "symlink": "files.symlink"}


def _not_regular_key(mode: int) -> str | None:
    """The catalogue key for what a non-regular output target is, or None for a regular file."""
    kind = file_kind(mode)
    return None if kind is None else _WRITE_REFUSALS.get(kind, "files.not_regular")


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """``a`` and ``b`` name the same file (after symlinks and ``..``), whether or not it exists yet."""
    try:
        if os.path.samefile(a, b):
            return True
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


class InputFiles:
    """A command's input files, to check many output targets against at once (each a set look-up):
    a target is one of them when it resolves to the same path, or is the same file by another
    (a hard link). A regular file is kept as its (device, inode) alone, packed in one int — a
    target that resolves to its path is that file too; anything else (a FIFO, a link to nowhere)
    by its real path."""

    def __init__(self, paths: Iterable[str | os.PathLike]) -> None:
        self.real: set[str] = set()
        self.ids: set[int] = set()
        for path in paths:
            try:
                found = os.stat(path)
            except OSError:
                found = None
            if found is not None and stat.S_ISREG(found.st_mode):
                self.ids.add((found.st_dev << 64) | found.st_ino)
            else:
                self.real.add(os.path.realpath(path))

    def holds(self, target: str | os.PathLike) -> bool:
        try:
            found = os.stat(target)
        except OSError:
            found = None
        if found is not None and stat.S_ISREG(found.st_mode) and (found.st_dev << 64) | found.st_ino in self.ids:
            return True
        return os.path.realpath(target) in self.real


def refuse_overwrite(path: str | os.PathLike | None, force: bool, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Before any work: ``path`` must not exist (unless ``force``), must be able to become a file,
    and must not be one of ``inputs``."""
    if path is None:
        return
    target = Path(path)
    for source in inputs:
        if same_file(target, source):
            raise UsageError("files.is_input", path=str(target))
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise UsageError("files.cannot_check", path=str(target), reason=error.strerror or str(error)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageError("files.is_dir", path=str(target))
    if mode is None and target.is_dir():  # a dangling path under a directory symlink, say
        raise UsageError("files.is_dir", path=str(target))
    if not target.absolute().parent.is_dir():
        raise UsageError("files.no_dir", path=str(target), directory=str(target.absolute().parent))
    if mode is None:
        return
    if not force:
        raise UsageError("cli.file_exists", path=str(target))
    key = _not_regular_key(mode)
    if key is not None:
        raise UsageError(key, path=str(target))


def _before_link(temp: str, target: Path) -> None:
    """A hook for tests: runs after the temporary file is complete, just before it is put in place."""


def write_atomic(path: str | os.PathLike, data: str | bytes, *, replace: bool = False) -> None:
    """Write ``data`` (text as UTF-8 with ``\\n`` line ends, or bytes) as the whole of ``path``
    (``replace``: see :func:`atomic_file`)."""
    with atomic_file(path, replace=replace) as stream:
        stream.write(data.encode("utf-8") if isinstance(data, str) else data)


class AtomicFile:
    """A temporary file beside ``path`` (its binary ``stream``) that becomes the whole of ``path`` at
    :meth:`commit`, or is removed by :meth:`discard` (a no-op once committed): for an output written
    through a long run, such as the students' reports of ``grade --json``, which go straight into
    it as they are marked. Errors are those of :func:`atomic_file`, which is this around a block."""

    def __init__(self, path: str | os.PathLike, *, replace: bool = False) -> None:
        self.target = Path(path)
        self.temp: str | None = None
        self.replace = replace
        self.existing = None
        with _said_as_write_error(self.target):
            if replace:
                try:
                    self.existing = os.lstat(self.target)
                except FileNotFoundError:
                    pass
                if self.existing is not None and (key := _not_regular_key(self.existing.st_mode)) is not None:
                    raise AttnTutorError(key, path=str(self.target))
            handle, self.temp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".tmp", dir=self.target.absolute().parent)
            self.stream: BinaryIO = os.fdopen(handle, "w+b")

    def commit(self) -> None:
        """The temporary file flushed to disk and put in place (see :func:`atomic_file`)."""
        temp, target, existing = self.temp, self.target, self.existing
        assert temp is not None, "committed twice"
        with _said_as_write_error(target):
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            if existing is not None:
                os.chmod(temp, stat.S_IMODE(existing.st_mode))
                if hasattr(os, "chown") and (existing.st_uid, existing.st_gid) != (os.getuid(), os.getgid()):
                    try:
                        os.chown(temp, existing.st_uid, existing.st_gid)
                    except OSError:
                        pass  # not root: the file becomes ours, with its old permission bits
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temp, 0o666 & ~umask)
            _before_link(temp, target)
            if existing is not None:
                os.replace(temp, target)
            else:
                _create_exclusively(temp, target, self.replace)
            self.temp = None

    def refuse(self, error: OSError) -> NoReturn:
        """``error``, met writing to ``stream`` outside :func:`atomic_file`, as the sentence that ``path`` could not be written."""
        with _said_as_write_error(self.target):
            raise error

    def discard(self) -> None:
        """The temporary file closed and removed, ``path`` left as it was (nothing once committed)."""
        if self.temp is None:
            return
        temp, self.temp = self.temp, None
        try:
            self.stream.close()
        except OSError:
            pass
        try:
            os.unlink(temp)
        except OSError:
            pass


@contextmanager
def _said_as_write_error(target: Path) -> Iterator[None]:
    """An OSError on the way as the sentence saying ``target`` could not be written."""
    try:
        yield
    except FileExistsError:
        raise AttnTutorError("files.appeared", path=str(target)) from None
    except OSError as error:
        raise AttnTutorError("files.cannot_write", path=str(target), reason=error.strerror or str(error)) from None


@contextmanager
def atomic_file(path: str | os.PathLike, *, replace: bool = False) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become the whole of ``path`` when the block ends; if the block
    raises (an error, Ctrl-C, SIGTERM), ``path`` is left as it was and the temporary file removed.
    For outputs written piece by piece (a class's gradebook).

    ``replace`` (the command's ``--force``): an existing regular file is replaced and
    keeps its permission bits; anything else there is refused. Without it, the file
    is created only if the name is still free at the last moment. A new file gets
    the usual permissions (0666 less the umask), not mkstemp's 0600.
    """
    made = AtomicFile(path, replace=replace)
    try:
        with _said_as_write_error(made.target):
            yield made.stream
        made.commit()
    finally:
        made.discard()


def _create_exclusively(temp: str, target: Path, replace: bool) -> None:
    """Put the complete ``temp`` at ``target``, failing with FileExistsError if the name is taken
    (with ``replace``: a regular file that appeared meanwhile is replaced)."""
    try:
        os.link(temp, target)
    except FileExistsError:
        if not replace:
            raise
        mode = os.lstat(target).st_mode
        if _not_regular_key(mode) is not None:
            raise
        os.replace(temp, target)
        return
    except OSError as error:
        if error.errno not in _NO_LINKS:
            raise
        # No hard links here: claim the name with O_EXCL, then rename the whole file over the claim.
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        try:
            os.replace(temp, target)
        except BaseException:
            os.unlink(target)  # our empty claim, not anyone's file
            raise
        return
    os.unlink(temp)


def check_directory(path: str | os.PathLike) -> None:
    """Before any work: ``path`` is a directory, or can be made one (its parent is a directory)."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise UsageError("files.not_a_dir", path=str(target))
    if not target.exists() and not target.absolute().parent.is_dir():
        raise UsageError("files.no_dir", path=str(target), directory=str(target.absolute().parent))


def make_directory(path: str | os.PathLike) -> None:
    """``path`` as a directory (made if missing; its parent exists, see :func:`check_directory`)."""
    try:
        Path(path).mkdir(exist_ok=True)
    except OSError as error:
        raise AttnTutorError("files.cannot_write", path=str(path), reason=error.strerror or str(error)) from None
