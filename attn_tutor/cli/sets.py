"""The problem-set commands: list a set's problems, show a packaged set's YAML, validate set files."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from typing import Annotated

import typer

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import (
    SetArgument,
    guarded,
)
from attn_tutor.core.errors import AttnTutorError, InvalidProblemSet, UsageError
from attn_tutor.core.i18n import t
from attn_tutor.gradebook.answer_files import csv_without_problem_set, is_answer_file
from attn_tutor.gradebook.grader import check_answer_file
from attn_tutor.gradebook.writing import LEFT_OUT
from attn_tutor.marking import tolerance
from attn_tutor.problems.listing import list_blocks, list_json
from attn_tutor.problems.load import load_problem_set, packaged_path, packaged_sets
from attn_tutor.render import terminal
from attn_tutor.variants.fairness import concept_findings as concept_ties


class ListFormat(StrEnum):
    table = "table"
    json = "json"


@guarded
def list_problems(
    file: SetArgument = None,
    format: Annotated[ListFormat, typer.Option("--format", "-f", help="help.list.format")] = ListFormat.table,
    lang: LangOption = None,
) -> None:
    """List a problem set's problems: id, title, tokens, d_k, the rows and stages asked."""

    problem_set = load_problem_set(file)
    if format is ListFormat.json:
        sys.stdout.write(list_json(problem_set))
        return

    terminal.draw(list_blocks(problem_set, file))


@guarded
def show(
    name: Annotated[str, typer.Argument(help="help.show.name")] = "ch13",
    lang: LangOption = None,
) -> None:
    """Print a packaged problem set's YAML, comments and all, to copy and edit."""

    names = packaged_sets()
    if name not in names:
        raise AttnTutorError("show.no_such_set", name=name, sets=", ".join(names) or "-")
    data = packaged_path(name).read_bytes()
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _validate_answers(path: str, problems: str | None) -> bool:
    """An answer file checked as grade checks it, against the set it names (or ``--problems``): its
    problems listed as the answer file's. True when it has none."""
    if problems is None and csv_without_problem_set([(path, False)]) is not None:
        raise UsageError("grade.csv_needs_problems", path=str(path))
    results, notes = check_answer_file(path, problems)
    # each problem once: a CSV header's (an unknown column's item) touches every row
    findings = list(dict.fromkeys(finding.text() for result in results for finding in result.findings))
    if any(note.key.startswith(LEFT_OUT) for note in notes):  # a gradebook grade wrote: not answers
        terminal.plain(t("validate.gradebook", path=str(path)))
        return False
    for note in notes:
        terminal.plain(note.text())
    if findings:
        key = "validate.answer_invalid_one" if len(findings) == 1 else "validate.answer_invalid"
        terminal.plain(t(key, path=str(path), count=len(findings)))
        for finding in findings:
            terminal.plain("  " + finding)
        return False
    terminal.plain(t("validate.answer_valid", path=str(path)))
    return True


@guarded
def validate(
    files: Annotated[list[str], typer.Argument(help="help.validate.files")],
    problems: Annotated[str | None, typer.Option("--problems", help="help.validate.problems")] = None,
    lang: LangOption = None,
) -> None:
    """Check problem-set files without solving them; list every error found. An answer file
    (a CSV, or YAML with student: or answers:) is checked as grade checks it."""


    bad = 0
    for path in files:
        if os.path.isfile(path) and is_answer_file(path):
            bad += not _validate_answers(path, problems)
            continue
        loaded = None
        try:  # a file, or a packaged set's name, as every other command takes
            loaded = load_problem_set(path)
            findings = concept_ties(loaded)  # a computed item's answer needs the numbers
        except InvalidProblemSet as error:
            findings = list(error.problems)
        if findings:
            bad += 1
            key = "validate.invalid_one" if len(findings) == 1 else "validate.invalid"
            terminal.plain(t(key, path=str(path), count=len(findings)))
            for finding in findings:
                terminal.plain("  " + finding.text())
        else:
            terminal.plain(t("validate.valid", path=str(path)))

            for warning in tolerance.warnings(loaded):
                terminal.plain("  " + t("validate.warning", message=warning.text()))
    if bad:
        raise typer.Exit(1)
