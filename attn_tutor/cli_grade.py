"""The grade command's helpers: its output checks, its choices, and writing and saying its results."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from attn_tutor.errors import UsageError
from attn_tutor.i18n import t


def _check_outputs(outputs: list[Path], force: bool, inputs: list[Path] = (), names: list[str] | None = None) -> None:
    """Before any work: outputs are distinct files, new unless --force, and none of the inputs:
    not a named file, and no answer-like file inside a directory being graded. ``names``: the
    option of each output, to say which two clash."""
    import os

    from attn_tutor.files import refuse_overwrite
    from attn_tutor.gradebook.records import ANSWER_SUFFIXES

    if len(outputs) == 2 and os.path.realpath(outputs[0]) == os.path.realpath(outputs[1]) and names is None:
        raise UsageError("grade.same_output", path=str(outputs[0]))
    seen: dict[str, str] = {}
    for out, name in zip(outputs, names or []):
        first = seen.setdefault(os.path.realpath(out), name)
        if first != name and {first, name} == {"--csv", "--json"}:
            raise UsageError("grade.same_output", path=str(out))
        if first != name:
            raise UsageError("grade.outputs_clash", first=first, second=name, path=str(out))
    for out in outputs:
        real = os.path.realpath(out)
        for source in inputs:
            if source.is_dir() and out.name.lower().endswith(ANSWER_SUFFIXES):
                root = os.path.realpath(source)
                if real.startswith(root.rstrip(os.sep) + os.sep):
                    raise UsageError("files.in_graded_directory", path=str(out), directory=str(source))
        refuse_overwrite(out, force, inputs=[p for p in inputs if not p.is_dir()])


class CsvLayout(StrEnum):
    full = "full"
    canvas = "canvas"
    moodle = "moodle"


class FeedbackFormat(StrEnum):
    html = "html"
    pdf = "pdf"


def _say_repeated(writer, language: str) -> dict[str, list[str]]:
    """The same student in two places: an error for each place (the gradebook rows say it too)."""
    from attn_tutor.render import terminal

    repeated = writer.repeated()
    for name, places in repeated.items():
        for place in places:
            message = f"{place}: " + t("grade.duplicate_student", language, student=name, places=", ".join(places))
            terminal.error(t("cli.error", language, message=message))
    return repeated


def _write_outputs(
    writer, csv_out: Path | None, json_out: Path | None, language: str, force: bool = False, extras=None
) -> list[str]:
    """The gradebook (or the LMS's layout of it) and the JSON, each whole or not at all; the lines
    saying where they went."""
    from attn_tutor.files import atomic_file

    lms = extras is not None and extras.lms_layout
    written = []
    csv_write = extras.write_lms if lms else writer.write_csv
    for out, write, key in ((csv_out, csv_write, "grade.written"), (json_out, writer.write_json, "grade.json_written")):
        if out is not None:
            with atomic_file(out, replace=force) as stream:
                write(stream)
            written.append(extras.csv_written(out) if lms and out is csv_out else t(key, language, path=str(out)))
    return written


def _say_summary(tally, writer, extras, sets: dict, written: list[str], refused: list, outputs: list, language: str) -> int:
    """After the marking: the summary, the problem sets used, the notes, where each output went, and
    why nothing was written if a file was refused. Returns how many failed."""
    from attn_tutor import gradebook
    from attn_tutor.render import terminal

    terminal.draw(gradebook.summary_blocks(tally, language) + extras.blocks())
    failed, total = tally.failed + writer.newly_failed(), tally.total
    if failed:
        key = "grade.summary_one" if total == 1 else "grade.summary"
        terminal.plain(t(key, language, marked=tally.marked, total=total, failed=failed))
    else:
        terminal.plain(t("grade.all_marked_one" if total == 1 else "grade.all_marked", language, total=total))
    if len(sets) > 1:
        terminal.plain(t("grade.sets_used", language, count=len(sets)))
        for name, students in sets.items():
            terminal.plain("  " + t("grade.set_students", language, name=name, students=", ".join(students)))
    for line in extras.notes:
        terminal.plain(line)
    for line in written:
        terminal.plain(line, stderr=True)
    if refused and outputs:
        first = refused[0]
        reason = first.errors[0].removeprefix(f"{first.file}: ") if first.errors else ""
        terminal.error(t("cli.error", language, message=t("grade.nothing_written", language, path=first.file, reason=reason)))
    return failed
