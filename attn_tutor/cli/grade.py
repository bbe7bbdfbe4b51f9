"""The grade command: mark a class's answer files, write the gradebook and its companions, say the summary."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import ExitStack, closing
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn_tutor.classroom import grade as grading
from attn_tutor.classroom.outputs import GradeOptions, Outcome
from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import FollowThroughOption, guarded
from attn_tutor.core.i18n import t
from attn_tutor.core.model import FollowThrough
from attn_tutor.render import terminal


class CsvLayout(StrEnum):
    full = "full"
    canvas = "canvas"
    moodle = "moodle"


class FeedbackFormat(StrEnum):
    html = "html"
    pdf = "pdf"


def _follow(run: Generator) -> Outcome:
    """The run as it goes: each problem's sentence on standard error as an error, a note as it is,
    the marking as a progress bar (gone once the files are marked); then its outcome."""
    with closing(run), ExitStack() as bar:
        update = None
        for event in run:
            if isinstance(event, Outcome):
                return event
            if isinstance(event, grading.Marking):
                if event.over:
                    bar.close()
                else:
                    update = update or bar.enter_context(terminal.progress(event.total, t("grade.progress")))
                    update(event.done, event.total)
            elif isinstance(event, grading.Note):
                terminal.plain(event, stderr=True)
            else:  # a problem's sentence
                terminal.error(t("cli.error", message=event))
    raise AssertionError("grade ended without an outcome")  # pragma: no cover


def _say_summary(outcome: Outcome) -> None:
    """After the run: the summary, the problem sets used, the notes (files left out, absent students),
    where each output went."""

    terminal.draw(outcome.blocks)
    failed, total = outcome.failed, outcome.total
    if failed:
        key = "grade.summary_one" if total == 1 else "grade.summary"
        terminal.plain(t(key, marked=outcome.marked, total=total, failed=failed))
    elif total:
        terminal.plain(t("grade.all_marked_one" if total == 1 else "grade.all_marked", total=total))
    if outcome.file_problems:
        key = "grade.file_problems_one" if outcome.file_problems == 1 else "grade.file_problems"
        terminal.plain(t(key, count=outcome.file_problems))
    if len(outcome.sets) > 1:
        terminal.plain(t("grade.sets_used", count=len(outcome.sets)))
        for name, students in outcome.sets.items():
            terminal.plain("  " + t("grade.set_students", name=name, students=", ".join(students)))
    for line in outcome.notes:
        terminal.plain(line)
    for line in outcome.written:
        terminal.plain(line, stderr=True)


@guarded
def grade(
    paths: Annotated[list[str], typer.Argument(help="help.grade.paths")],
    problems: Annotated[Optional[str], typer.Option("--problems", help="help.grade.problems")] = None,
    csv_out: Annotated[Optional[Path], typer.Option("--csv", help="help.grade.csv")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="help.grade.json")] = None,
    follow_through: FollowThroughOption = FollowThrough.full,
    roster: Annotated[Optional[Path], typer.Option("--roster", help="help.grade.roster")] = None,
    lti_roster: Annotated[Optional[str], typer.Option("--lti-roster", help="help.grade.lti_roster")] = None,
    match: Annotated[Optional[Path], typer.Option("--match", help="help.grade.match")] = None,
    csv_layout: Annotated[CsvLayout, typer.Option("--csv-layout", help="help.grade.csv_layout")] = CsvLayout.full,
    assignment: Annotated[Optional[str], typer.Option("--assignment", help="help.grade.assignment")] = None,
    out_of: Annotated[Optional[float], typer.Option("--out-of", min=0.01, max=1e6, help="help.grade.out_of")] = None,
    feedback: Annotated[Optional[Path], typer.Option("--feedback", help="help.grade.feedback")] = None,
    feedback_format: Annotated[
        FeedbackFormat, typer.Option("--feedback-format", help="help.grade.feedback_format")
    ] = FeedbackFormat.html,
    class_report: Annotated[Optional[Path], typer.Option("--class-report", help="help.grade.class_report")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="help.grade.jobs")] = None,
    name_column: Annotated[Optional[str], typer.Option("--name-column", help="help.grade.name_column")] = None,
    variant_column: Annotated[Optional[str], typer.Option("--variant-column", help="help.grade.variant_column")] = None,
    force: Annotated[bool, typer.Option("--force", help="help.grade.force")] = False,
    include_practice: Annotated[bool, typer.Option("--include-practice", help="help.grade.include_practice")] = False,
    lang: LangOption = None,
) -> None:
    """Mark a whole class's answer files: a gradebook, an item analysis, a score chart.

    Over 60 lines because its signature is the option list Typer needs; its body is
    one run (:func:`attn_tutor.classroom.grade.grade`), followed as it goes, then the summary.
    (Its --help is the catalogue key help.cmd.grade, not this docstring.)
    """

    options = GradeOptions.of(
        paths, problems=problems, csv=csv_out, json=json_out, follow_through=follow_through.value, roster=roster, lti_roster=lti_roster, match=match,
        layout=csv_layout.value, assignment=assignment, out_of=out_of, feedback=feedback,
        feedback_format=feedback_format.value, class_report=class_report, jobs=jobs, name_column=name_column,
        variant_column=variant_column, force=force, include_practice=include_practice,
    )  # fmt: skip
    outcome = _follow(grading.grade(options))
    _say_summary(outcome)
    if outcome.status:
        raise typer.Exit(outcome.status)
