"""Where a command's output goes: standard output, or one whole new file (``-o``, ``--force``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn_tutor.core.i18n import t
from attn_tutor.core.writing import refuse_overwrite, write_atomic
from attn_tutor.render import terminal

OutputOption = Annotated[Optional[Path], typer.Option("--output", "-o", help="help.output")]


ForceOption = Annotated[bool, typer.Option("--force", help="help.force")]


def to_stdout(path: Path | None) -> bool:
    return path is None or str(path) == "-"


def check_output(path: Path | None, force: bool, inputs: tuple = ()) -> None:
    """Before any work: -o names a new file (or --force) that is none of the inputs, unless it is standard output."""
    if not to_stdout(path):

        refuse_overwrite(path, force, inputs=[Path(p) for p in inputs if p is not None and Path(p).exists()])


def write_output(path: Path | None, text: str | bytes, lang: str, force: bool = False) -> None:
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

    write_atomic(path, text, replace=force)
    terminal.plain(t("cli.written", lang, path=str(path)), stderr=True)
