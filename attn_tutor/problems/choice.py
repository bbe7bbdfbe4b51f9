"""Which problem set marks a student: the teacher decides, never the answer file.

``grade --problems SET`` marks every answer against SET (a packaged name or any file
the teacher names). Without it, an answer file's ``problem_set`` may name

* a packaged set (``ch13``), or
* a file that resolves — after symlinks and ``..`` — to a regular file *under the
  current working directory* (a relative path is taken from the answer file's own
  directory);

anything else (an absolute path elsewhere, ``../`` out of the directory, a symlink
pointing out of it) is refused for that student with a sentence that names what the
answer file wrote and quotes nothing from the file it names: the file is never
opened. A file named by a student that does not load is reported in one sentence too
(``attn-tutor validate`` shows the teacher why), so no byte of it reaches a gradebook.

No file here is read but by :func:`same_set` (safely, as every input); :class:`Choice`
says what to load and how to label it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple

from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.model import PROBLEM_FILE_BYTES_MAX
from attn_tutor.core.reading import InputRefused, read_regular
from attn_tutor.core.text import excerpt


class Choice(NamedTuple):
    """What a student is marked against: ``key`` for the loader (None: refused) and the gradebook's label."""

    key: str | None
    label: str
    refusal: Finding | None = None
    packaged: bool = False


def is_bare_name(spec: str) -> bool:
    """No path separator and no ``.yaml``/``.yml`` suffix: a packaged set's name."""
    if "/" in spec or "\\" in spec or os.sep in spec or (os.altsep and os.altsep in spec):
        return False
    return not spec.lower().endswith((".yaml", ".yml"))


def _label(real: str, cwd: str) -> str:
    """A resolved file as the teacher would write it: relative to the working directory when under it."""
    try:
        relative = os.path.relpath(real, cwd)
    except ValueError:  # another drive (Windows)
        return real
    return real if relative.startswith(os.pardir) else relative


def _under(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def teacher_choice(spec: str, packaged: list[str], cwd: str | None = None) -> Choice:
    """``--problems SET``: a packaged name, or any file the teacher names (relative to the working directory)."""
    cwd = os.path.realpath(cwd or os.getcwd())
    if is_bare_name(spec) and (spec in packaged or not os.path.lexists(spec)):
        return Choice(spec, spec, packaged=True)
    real = os.path.realpath(os.path.join(cwd, spec))
    return Choice(real, _label(real, cwd))


def student_choice(
    spec: str | None, base: str, where: Location, packaged: list[str], default: str, cwd: str | None = None
) -> Choice:
    """An answer file's ``problem_set`` (None: the default set) under the rules above."""
    if spec is None:
        return Choice(default, default, packaged=True)
    if is_bare_name(spec) and spec in packaged:
        return Choice(spec, spec, packaged=True)
    cwd = os.path.realpath(cwd or os.getcwd())
    real = os.path.realpath(os.path.join(cwd, base, spec))
    shown = excerpt(spec)
    if not _under(real, cwd):
        refusal = Finding("grade.problem_set_outside", {"name": shown, "directory": excerpt(cwd, 80)}, where)
        return Choice(None, shown, refusal)
    return Choice(real, _label(real, cwd))


def _set_file(spec: str, base: str, packaged_file: Callable[[str], str | None], cwd: str) -> str:
    """The file a set's name or path stands for, resolved (a packaged name: its packaged file)."""
    if is_bare_name(spec) and (path := packaged_file(spec)) is not None:
        return os.path.realpath(path)
    return os.path.realpath(os.path.join(cwd, base, spec))


def same_set(
    spec: str, base: str, override: Choice, packaged_file: Callable[[str], str | None], cwd: str | None = None
) -> bool:
    """Whether an answer's ``problem_set`` (``spec``, from the folder ``base``) names the teacher's
    ``--problems`` set: the same file by another path, or a file with the very same bytes.
    ``packaged_file(name)``: a packaged set's file, or None when there is no such set.
    Comparing never waits on a FIFO nor reads past the problem-set cap."""
    cwd = os.path.realpath(cwd or os.getcwd())
    assert override.key is not None  # teacher_choice always names a set
    mine = _set_file(spec, base, packaged_file, cwd)
    theirs = _set_file(override.key, cwd, packaged_file, cwd) if override.packaged else override.key
    if mine == theirs:
        return True
    try:
        if os.path.samefile(mine, theirs):
            return True
        return read_regular(mine, PROBLEM_FILE_BYTES_MAX) == read_regular(theirs, PROBLEM_FILE_BYTES_MAX)
    except (InputRefused, OSError):
        return False
