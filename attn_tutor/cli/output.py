"""Where a command's output goes: standard output, or one whole new file (``-o``, ``--force``)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, BinaryIO, Optional, cast

import typer

from attn_tutor.core.i18n import t
from attn_tutor.core.writing import atomic_file, refuse_overwrite, write_atomic
from attn_tutor.render import terminal

OutputOption = Annotated[Optional[Path], typer.Option("--output", "-o", help="help.output")]


ForceOption = Annotated[bool, typer.Option("--force", help="help.force")]


def to_stdout(path: Path | None) -> bool:
    return path is None or str(path) == "-"


def check_output(path: Path | None, force: bool, inputs: tuple = ()) -> None:
    """Before any work: -o names a new file (or --force) that is none of the inputs, unless it is standard output."""
    if not to_stdout(path):

        refuse_overwrite(path, force, inputs=[Path(p) for p in inputs if p is not None and Path(p).exists()])


def write_output(path: Path | None, text: str | bytes, force: bool = False) -> None:
    """Standard output (no -o, or -o -), or the whole file or nothing, then a line on stderr saying where."""
    if to_stdout(path):
        if isinstance(text, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
            return
        sys.stdout.write(text)
        sys.stdout.flush()
        return

    assert path is not None  # (None is standard output)
    write_atomic(path, text, replace=force)
    terminal.plain(t("cli.written", path=str(path)), stderr=True)


def write_streamed(path: Path | None, produce: Callable[[BinaryIO], None], force: bool = False) -> None:
    """Like :func:`write_output` for output made piece by piece: ``produce`` writes to a seekable binary
    stream. A file is still whole or nothing (a temporary file, then put in place); standard output
    gets the same bytes once they are all made (spooled to a temporary file when large)."""
    if to_stdout(path):
        with tempfile.SpooledTemporaryFile(max_size=1 << 22) as spool:
            produce(cast(BinaryIO, spool))  # a binary file, which typeshed types as IO[bytes] only
            spool.seek(0)
            sys.stdout.flush()
            shutil.copyfileobj(spool, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        return
    assert path is not None  # (None is standard output)
    with atomic_file(path, replace=force) as stream:
        produce(stream)
    terminal.plain(t("cli.written", path=str(path)), stderr=True)
