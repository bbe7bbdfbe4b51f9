"""``grade``'s outputs for classrooms: the LMS gradebook, hand-back sheets, the class report.

The command line's side of :mod:`attn_tutor.roster`, :mod:`attn_tutor.lms_csv`,
:mod:`attn_tutor.feedback` and :mod:`attn_tutor.class_report`. Before any work it
checks the options and reads the roster. While the class is marked it is fed
every :class:`~attn_tutor.gradebook.rows.StudentRow`, in gradebook order, and keeps
what it needs: each student's name, where they came from and score (for the
roster and the LMS file) and the class's full diagnosis counts (for the report).
After marking, and before the first file is written, it matches the roster, builds
the LMS file and checks every hand-back sheet's target. It writes every file
through :mod:`attn_tutor.files` (whole or nothing; nothing over an existing file
without ``--force``).

The hand-back sheets need each student's full report (every cell, what was
carried), which the rows leave behind. So they are made in a second pass over the
same files, by the gradebook's own reader and marker
(:func:`attn_tutor.gradebook.run.marked_results`), one student at a time.

Exit status (with the gradebook's own rule, 1 when any student had a problem):
with ``--roster``, 1 as well when any answer-file student is not matched to the
roster (not found, ambiguous, or the same roster student as another file); roster
students without an answer file are listed but do not change it (absences are
ordinary).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from attn_tutor.errors import AttnTutorError, UsageError
from attn_tutor.i18n import t


@dataclass
class Extras:
    lang: str
    csv_out: Path | None = None
    roster_path: Path | None = None
    layout: str = "full"
    assignment: str | None = None
    out_of: float | None = None
    feedback_dir: Path | None = None
    feedback_format: str = "html"
    class_report: Path | None = None
    problems: str | None = None
    force: bool = False
    follow_through: str = "full"
    roster: object | None = None
    matching: object | None = None
    lms: object | None = None
    students: list = field(default_factory=list)  # roster.Graded, one per row, when a roster is given
    names: list[str] = field(default_factory=list)  # every student's name, when sheets are written
    counts: object | None = None  # class_report.ClassCounts, when a report is written
    errors: list[str] = field(default_factory=list)  # sentences for standard error
    notes: list[str] = field(default_factory=list)  # lines for the summary
    _outputs: list = field(default_factory=list)  # (option, path) of the command's other outputs
    _targets: list[Path] = field(default_factory=list)

    @property
    def lms_layout(self) -> bool:
        return self.layout in ("canvas", "moodle")

    def check(self, outputs: list[tuple[str, Path]] = ()) -> None:
        """Before any work: the options fit together, the directory can be made, the roster reads.
        ``outputs``: the command's other output files, by option (the command has already checked
        that none of them is an input, the roster included)."""
        from attn_tutor.files import check_directory

        self._outputs = list(outputs)
        if self.lms_layout and self.roster_path is None:
            raise UsageError("roster.layout_needs_roster", layout=self.layout)
        if self.lms_layout and self.csv_out is None:
            raise UsageError("grade.layout_needs_csv", layout=self.layout)
        if not self.lms_layout and (self.assignment is not None or self.out_of is not None):
            raise UsageError("grade.roster_needs_layout")
        if self.feedback_dir is not None:
            check_directory(self.feedback_dir)
        if self.class_report is not None:
            from attn_tutor.class_report import ClassCounts

            self.counts = ClassCounts()
        if self.roster_path is not None:
            if not self.roster_path.exists():
                raise AttnTutorError("grade.no_such_path", path=str(self.roster_path))
            from attn_tutor import lms_csv, roster

            self.roster = roster.read_roster(self.roster_path)
            if self.layout == "canvas" and self.roster.kind != "canvas":
                raise UsageError("roster.canvas_needs_canvas", file=str(self.roster_path))
            if self.lms_layout and self.assignment is None:
                self.assignment = lms_csv.default_assignment(self.roster)
                if self.assignment is None:
                    columns = ", ".join(self.roster.assignments) or t("roster.none", self.lang)
                    raise UsageError("roster.no_assignment", columns=columns)

    def outputs(self) -> list[tuple[str, Path]]:
        return [(name, path) for name, path in (("--class-report", self.class_report),) if path is not None]

    def add(self, row) -> None:
        """One marked student, in gradebook order: keep what the outputs need, nothing more."""
        if self.roster is not None:
            from attn_tutor.roster import Graded

            self.students.append(Graded.of(row))
        if self.feedback_dir is not None:
            self.names.append(row.cells[0] or "")
        if self.counts is not None:
            self.counts.add(row)

    def prepare(self, tally) -> None:
        """After marking, before writing: match the roster, build the LMS file, check the sheets' names."""
        if self.roster is not None:
            self._match()
        if self.feedback_dir is not None:
            import os

            from attn_tutor import feedback
            from attn_tutor.files import refuse_overwrite

            if self.feedback_format == "pdf":
                self._check_font(tally)
            self._targets = feedback.targets(self.feedback_dir, self.names, feedback.FORMATS[self.feedback_format])
            others = {os.path.realpath(path): name for name, path in self._outputs}
            for target in self._targets:
                if os.path.realpath(target) in others:
                    name = others[os.path.realpath(target)]
                    raise UsageError("grade.outputs_clash", first=name, second="--feedback", path=str(target))
            if self.feedback_dir.is_dir():  # a directory still to be made holds no file to clobber
                for target in self._targets:
                    refuse_overwrite(target, self.force)

    def _match(self) -> None:
        from attn_tutor import roster

        self.matching = roster.match([s.student for s in self.students], self.roster)
        self.errors += roster.unmatched_messages(self.students, self.matching, self.roster, self.lang, lms=self.lms_layout)
        absent = roster.absent_message(self.matching, self.lang)
        if absent:
            self.notes.append(absent)
        if not self.lms_layout:
            return
        from attn_tutor import lms_csv

        out_of = None if self.out_of is None else Decimal(repr(self.out_of))
        self.lms = lms_csv.lms_csv(
            self.layout, self.students, self.matching, self.roster, assignment=self.assignment, out_of=out_of
        )
        if self.lms.roster_points is not None:
            roster_points = lms_csv.grade_text(self.lms.roster_points)
            given = lms_csv.grade_text(self.lms.out_of)
            self.notes.append(t("lms.points_differ", self.lang, column=self.lms.column, roster=roster_points, out_of=given))
        if self.lms.unmarked:
            names = ", ".join(self.students[i].student or "—" for i in self.lms.unmarked)
            self.notes.append(t("roster.unmarked", self.lang, names=names))

    def _check_font(self, tally) -> None:
        """PDF sheets with Korean need a Hangul font: say which to install before writing anything."""
        from attn_tutor import feedback
        from attn_tutor.render.typst import font_dirs, hangul_font

        if hangul_font() is None and feedback.needs_hangul(self.names, tally.columns, self.lang):
            raise AttnTutorError("export.no_hangul_font", dirs=", ".join(str(d) for d in font_dirs()))

    @property
    def unmatched(self) -> int:
        return 0 if self.matching is None else len(self.matching.unmatched)

    def write_lms(self, stream) -> None:
        """The LMS layout's bytes (made by :meth:`prepare`), as the gradebook writer writes its CSV."""
        stream.write(self.lms.data)

    def csv_written(self, path: Path) -> str:
        key = "lms.canvas_written" if self.layout == "canvas" else "lms.moodle_written"
        lms = self.lms
        return t(key, self.lang, count=lms.written, column=lms.column, path=str(path), identifier=lms.identifier or "—")

    def write(self, tally, files, name_column: str | None = None) -> list[str]:
        """The class report and the hand-back sheets; what was written, as lines for the summary."""
        from attn_tutor.files import make_directory, write_atomic

        lines = []
        if self.class_report is not None:
            from attn_tutor import class_report

            write_atomic(self.class_report, class_report.render_report(tally, self.counts, self.lang), replace=self.force)
            lines.append(t("report.written", self.lang, path=str(self.class_report)))
        if self.feedback_dir is not None:
            from attn_tutor import feedback
            from attn_tutor.gradebook.run import marked_results

            make_directory(self.feedback_dir)
            grader, results = marked_results(
                files, problems=self.problems, follow_through=self.follow_through, name_column=name_column
            )
            solver = feedback.Solver(grader)
            for student, target in zip(results, self._targets):
                blocks = feedback.sheet_blocks(student, solver.solved(student), self.lang)
                sheet = feedback.render_sheet(blocks, blocks[0].text, self.lang, self.feedback_format)
                write_atomic(target, sheet, replace=self.force)
            lines.append(t("feedback.written", self.lang, count=len(self._targets), path=str(self.feedback_dir)))
        return lines

    def blocks(self) -> list:
        if self.matching is None:
            return []
        from attn_tutor import roster

        return roster.matching_blocks(self.students, self.matching, self.lang)
