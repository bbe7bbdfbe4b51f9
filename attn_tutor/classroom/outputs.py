"""``grade``'s outputs: the gradebook (or the LMS's layout of it), the JSON, the hand-back sheets
and the class report, all from one reading and marking of the class, as one object.

The :class:`GradeOptions` say what was asked; :meth:`GradeOutputs.check` checks them before
any work (the outputs are distinct, new unless ``--force`` and none of the inputs; the options
fit together; the roster reads) and makes every output's collector once. The run
(:func:`attn_tutor.classroom.grade.grade`) then hands every marked student, a
:class:`~attn_tutor.gradebook.rows.StudentRow` carrying all any output needs of them (with
``--feedback``, the hand-back sheet made where they were marked: a
:class:`~attn_tutor.gradebook.handback.Sheet`), in gradebook order, to :meth:`GradeOutputs.add`.
:meth:`GradeOutputs.finish` then matches the roster, builds the LMS file, checks every sheet's
target and writes each file through :mod:`attn_tutor.core.writing` (whole or nothing; nothing
over an existing file without ``--force``), giving the :class:`Outcome` the command says. Each
sheet is written under a file name made from its own row's student, never paired up by position.
Every sentence these find is given back to the run, which says it as it comes (each problem once).

Exit status (with the gradebook's own rule, 1 when any student had a problem):
with ``--roster`` (or ``--lti-roster``), 1 as well when any answer-file student is not matched to the
roster (not found, ambiguous, in conflict or held by one, or the same roster student
as another file), a ``--match`` line is unused, a matched student's row cannot be
written to the LMS file, or no one could be placed (then no LMS file is written);
roster students without an answer file are listed but do not change it (absences
are ordinary).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from attn_tutor.classroom import lms_gradebook, match_file
from attn_tutor.classroom import roster as rosters
from attn_tutor.classroom.handback import SheetFiles
from attn_tutor.classroom.lti_roster import account_entries, read_lti_roster
from attn_tutor.classroom.report import ClassCounts, render_report
from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.i18n import t
from attn_tutor.core.spool import Spool
from attn_tutor.core.text import is_unsafe_char
from attn_tutor.core.writing import AtomicFile, InputFiles, atomic_file, check_directory, refuse_overwrite, write_atomic
from attn_tutor.gradebook.analysis import Tally
from attn_tutor.gradebook.records import ANSWER_SUFFIXES, Document, FileNote
from attn_tutor.gradebook.rows import StudentRow
from attn_tutor.gradebook.summary import summary_blocks
from attn_tutor.gradebook.writing import GradebookWriter
from attn_tutor.problems.load import packaged_path
from attn_tutor.sessions.documents import is_session_target, session_rounds
from attn_tutor.sessions.opening import is_postgres


@dataclass(frozen=True)
class GradeOptions:
    """What the command line asked of one run; an output is None when not asked for."""

    paths: tuple[Path, ...]
    problems: str | None = None
    sessions: tuple[str, ...] = ()  # live sessions (a .sqlite file, a postgresql:// URL), read as answer documents
    csv: Path | None = None
    json: Path | None = None
    follow_through: str = "full"
    roster: Path | None = None
    lti_roster: str | None = None  # --lti-roster: the LTI tool's database, whose activity's course roster is the roster
    match: Path | None = None  # --match: answer-file student -> roster ID
    layout: str = "full"  # the --csv file's layout: full, canvas, moodle
    assignment: str | None = None
    out_of: float | None = None
    feedback: Path | None = None
    feedback_format: str = "html"
    class_report: Path | None = None
    jobs: int | None = None
    name_column: str | None = None
    variant_column: str | None = None
    force: bool = False
    include_practice: bool = False  # a live session's "another like this" variants marked too, a row each

    @classmethod
    def of(cls, targets: Sequence[str], **asked) -> GradeOptions:
        """A run over ``targets`` as typed: answer files and folders (``paths``), and live sessions
        (``sessions``: a path ending ``.sqlite`` or ``.sqlite3``, a ``postgresql://`` URL); ``asked``:
        the other options."""
        paths = tuple(Path(target) for target in targets if not is_session_target(target))
        return cls(paths, sessions=tuple(target for target in targets if is_session_target(target)), **asked)

    @property
    def lms_layout(self) -> bool:
        return self.layout in ("canvas", "moodle")

    def named_outputs(self) -> list[tuple[str, Path]]:
        """The output files known before marking, by option (the sheets' names come with the students)."""
        named = (("--csv", self.csv), ("--json", self.json), ("--class-report", self.class_report))
        return [(name, path) for name, path in named if path is not None]

    def other_inputs(self) -> list[tuple[str, Path]]:
        """The files the run reads beside the answers, by option: the problem set, the roster, the --match file."""
        named = [("--problems", Path(self.problems))] if self.problems is not None and Path(self.problems).is_file() else []
        named += [("--roster", self.roster)] if self.roster is not None else []
        named += [("--lti-roster", Path(self.lti_roster))] if self.lti_roster is not None and not is_postgres(self.lti_roster) else []
        return named + ([("--match", self.match)] if self.match is not None else [])

    def inputs(self) -> list[Path]:
        """Every file the run reads that exists: the answers, the problem set (a packaged one's file
        too), the roster, the --match file (a directory among them is refused as read, not graded)."""
        problems = [] if self.problems is None else [Path(self.problems), packaged_path(self.problems)]
        sessions = [Path(target) for target in self.sessions if Path(target).is_file()]
        named = [*self.paths, *sessions, *(path for path in problems if path.exists())]
        lti = None if self.lti_roster is None or is_postgres(self.lti_roster) else Path(self.lti_roster)
        return named + [path for path in (self.roster, lti, self.match) if path is not None and path.exists() and not path.is_dir()]


@dataclass(frozen=True)
class Outcome:
    """What a finished run has to say: the summary's blocks and lines, and its exit status."""

    blocks: list  # the class table, item analysis and distribution, then the roster's matching
    total: int
    marked: int
    failed: int  # students with any problem, a repeated name included
    file_problems: int  # files' own rows with a problem (a CSV header's), no student's
    sets: dict[str, tuple[str, ...]]  # each problem set that marked someone -> who (only when more than one), in first-seen order
    notes: tuple[str, ...]  # lines for the summary (absent students, an LMS's points)
    written: tuple[str, ...]  # where each output went, for standard error
    status: int  # 1: a student had a problem, was repeated or unmatched, or sets were mixed


def check_outputs(named: Sequence[tuple[str, Path]], force: bool, inputs: Sequence[Path] = ()) -> None:
    """Before any work: the outputs are distinct files, new unless ``force``, and none of the inputs:
    not a named file, and no answer-like file inside a directory being graded."""
    seen: dict[str, str] = {}
    for name, out in named:
        first = seen.setdefault(os.path.realpath(out), name)
        if first != name and {first, name} == {"--csv", "--json"}:
            raise UsageError("grade.same_output", path=str(out))
        if first != name:
            raise UsageError("grade.outputs_clash", first=first, second=name, path=str(out))
    for _name, out in named:
        real = os.path.realpath(out)
        for source in inputs:
            if source.is_dir() and out.name.lower().endswith(ANSWER_SUFFIXES):
                root = os.path.realpath(source)
                if real.startswith(root.rstrip(os.sep) + os.sep):
                    raise UsageError("files.in_graded_directory", path=str(out), directory=str(source))
        refuse_overwrite(out, force, inputs=[p for p in inputs if not p.is_dir()])


def _check_options(options: GradeOptions) -> None:
    """The classroom options fit together, and the sheets' directory can be made."""
    if options.lms_layout and options.roster is None:
        raise UsageError("roster.layout_needs_roster", layout=options.layout)
    if options.roster is not None and options.lti_roster is not None:
        raise UsageError("lti.roster.and_roster")
    if options.match is not None and options.roster is None and options.lti_roster is None:
        raise UsageError("roster.match_needs_roster")
    if options.lms_layout and options.csv is None:
        raise UsageError("grade.layout_needs_csv", layout=options.layout)
    if not options.lms_layout and (options.assignment is not None or options.out_of is not None):
        raise UsageError("grade.roster_needs_layout")
    if options.assignment is not None:  # the LMS file's grade column header, as the LMS will show it
        if not options.assignment.strip():
            raise UsageError("grade.assignment_empty")
        lead = len(options.assignment) - len(options.assignment.lstrip("\t\r"))  # a formula start: neutralised as written
        bad = next((index for index, char in enumerate(options.assignment) if index >= lead and is_unsafe_char(char)), None)
        if bad is not None:
            raise UsageError("grade.assignment_unsafe", char=f"U+{ord(options.assignment[bad]):04X}", position=bad + 1)
    for option, column in (("--name-column", options.name_column), ("--variant-column", options.variant_column)):
        if column is not None and not column.strip():
            raise UsageError("grade.empty_column_option", option=option)
    if options.feedback is not None:
        check_directory(options.feedback)


class RosterOutputs:
    """``--roster``: the class list, read before any work; each row's student, matched once the class
    is marked; with ``--csv-layout canvas|moodle``, the LMS file made from that matching."""

    def __init__(
        self, roster: rosters.Roster, options: GradeOptions, assignment: str | None, overrides: match_file.Overrides | None = None
    ) -> None:
        self.roster, self.layout = roster, options.layout
        self.lms_layout = options.lms_layout
        self.assignment = assignment
        self.overrides = overrides
        self.chosen: str | None = None  # the default grade column, said once the run sums up
        self.out_of = None if options.out_of is None else Decimal(repr(options.out_of))
        self.students: list[rosters.Graded] = []  # one per row, in gradebook order
        self.matching: rosters.Matching | None = None
        self.lms: lms_gradebook.LmsFile | None = None
        self.accounts: dict[str, str] | None = None  # --lti-roster: a session document's file -> its student's LMS account

    @classmethod
    def read_lti(cls, options: GradeOptions) -> RosterOutputs:
        """``--lti-roster``: the course's roster the LTI tool keeps for the activity being graded."""
        assert options.lti_roster is not None  # read only with --lti-roster
        found = read_lti_roster(options.lti_roster, options.sessions)
        overrides = match_file.read_overrides(options.match, found.roster) if options.match is not None else None
        made = cls(found.roster, options, None, overrides)
        made.accounts = found.accounts
        return made

    @classmethod
    def read(cls, options: GradeOptions) -> RosterOutputs:
        """The roster read and its assignment column chosen: every problem said before any work."""
        path = options.roster
        assert path is not None  # read only with --roster
        if not path.exists():
            raise AttnTutorError("grade.no_such_path", path=str(path))
        roster = rosters.read_roster(path)
        if options.layout == "canvas" and roster.kind != "canvas":
            raise UsageError("roster.canvas_needs_canvas", file=str(path))
        assignment, chosen = options.assignment, None
        if options.lms_layout and assignment is None:
            assignment = lms_gradebook.default_assignment(roster)
            if assignment is None:
                columns = ", ".join(roster.assignments) or t("roster.none")
                raise UsageError("roster.no_assignment", columns=columns)
            chosen = roster.assignment_column(assignment) or assignment
        if options.layout == "canvas" and options.out_of is None:
            assert assignment is not None  # chosen above: Canvas is an LMS layout
            lms_gradebook.roster_points(roster, roster.assignment_column(assignment) or assignment)  # a bad cell said now
        overrides = match_file.read_overrides(options.match, roster) if options.match is not None else None
        made = cls(roster, options, assignment, overrides)
        made.chosen = chosen
        return made

    def add(self, row: StudentRow) -> None:
        self.students.append(rosters.Graded.of(row))

    def match(self) -> tuple[list[str], list[str]]:
        """The students matched to the roster, and the LMS file built: (errors, notes). A student left
        out is said to be "not written to the LMS file" only when there is one."""
        accounts = None if self.accounts is None else account_entries(self.roster, self.accounts, [s.where for s in self.students])
        self.matching = rosters.match([s.student for s in self.students], self.roster, self.overrides, accounts)
        unused = [] if self.overrides is None else [
            t("match.unused", where=where, student=student) for where, student in self.overrides.unused()
        ]  # fmt: skip

        def left_out(lms: bool) -> list[str]:
            assert self.matching is not None  # matched above
            return rosters.unmatched_messages(self.students, self.matching, self.roster, lms=lms) + unused

        notes = [note for note in (rosters.absent_message(self.matching), rosters.test_student_message(self.matching, self.roster)) if note]
        if self.students and not self.matching.matches:
            return [*left_out(False), rosters.nobody_message(self.students, self.matching, self.roster)], notes
        if not self.lms_layout:
            return left_out(False), notes
        if self.chosen is not None:
            notes.append(t("roster.assignment_default", column=self.chosen))
        assert self.assignment is not None  # chosen in read() for an LMS layout
        self.lms = lms = lms_gradebook.lms_csv(
            self.layout, self.students, self.matching, self.roster, assignment=self.assignment, out_of=self.out_of
        )
        if lms.roster_points is not None:
            assert lms.out_of is not None  # the roster's points are told only when --out-of differs
            roster_points, given = lms_gradebook.grade_text(lms.roster_points), lms_gradebook.grade_text(lms.out_of)
            notes.append(t("lms.points_differ", column=lms.column, roster=roster_points, out_of=given))
        if lms.unmarked:
            names = ", ".join(self.students[i].student or "—" for i in lms.unmarked)
            notes.append(t("roster.unmarked", names=names))
        notes += [finding.text() for finding in lms.changed]
        refused = [finding.text() for finding in lms.notes]
        if not lms.written:  # an import of nobody: no file to mislead
            self.lms = None
            nobody = t("roster.placed_nobody_one" if len(self.students) == 1 else "roster.placed_nobody", count=len(self.students), roster=self.roster.file)
            return [*left_out(False), *refused, nobody], notes
        return [*left_out(True), *refused], notes

    def written(self, path: Path) -> str:
        lms = self.lms
        assert lms is not None  # said only of an LMS file written
        key = ("lms.canvas_written" if self.layout == "canvas" else "lms.moodle_written") + ("_one" if lms.written == 1 else "")
        return t(key, count=lms.written, column=lms.column, path=str(path), identifier=lms.identifier or "—")

    @property
    def unmatched(self) -> int:
        """Answer-file students without a grade in the roster's place, and --match lines unused (each a problem)."""
        if self.matching is None:
            return 0
        unused = len(self.overrides.unused()) if self.overrides is not None else 0
        nobody = 1 if self.students and (not self.matching.matches or (self.lms_layout and self.lms is None)) else 0
        return len(self.matching.unmatched) + unused + nobody + (len(self.lms.notes) if self.lms is not None else 0)

    def blocks(self) -> list:
        return [] if self.matching is None else rosters.matching_blocks(self.students, self.matching)


class GradeOutputs:
    """Every output of one run, made once from the checked options. Lifecycle: :meth:`check` (before
    any work), :meth:`start` (the inputs found), :meth:`add` (each marked student, in gradebook
    order), :meth:`finish` (the checks that need the whole class, then every file written),
    :meth:`close` (the spools gone). Each gives back the sentences it has to say, as it finds them."""

    def __init__(self, options: GradeOptions, roster: RosterOutputs | None = None) -> None:
        self.options, self.roster = options, roster
        self.tally = Tally(options.follow_through)
        self.writer = GradebookWriter(
            self.tally, csv_file=options.csv is not None and not options.lms_layout, json_file=options.json is not None
        )  # fmt: skip
        self.counts: ClassCounts | None = ClassCounts() if options.class_report is not None else None
        self.sheets: SheetFiles | None = None
        self.extra: str | None = None  # what each worker makes of a marked student beside their row (gradebook.run.EXTRAS)
        if options.feedback is not None:
            self.sheets = SheetFiles(options.feedback, options.feedback_format, force=options.force)
            self.extra = options.feedback_format  # their hand-back sheet, in this format
        self.answer_files: Sequence = []  # every answer file read (no sheet may be written over one)
        self.set_files: set[str] = set()  # every problem-set file an answer was marked against (likewise)
        self.problems = 0  # files said as errors that are no student's (a folder that cannot be read)
        self.left_out: list[FileNote] = []  # files under the graded folders not marked, with why; unused columns
        self.file_notes: list[FileNote] = []  # all of those, and the ones said as errors (for the JSON)
        self.sets: dict[str, int] = {}  # each problem set that marked someone -> its number, in first-seen order
        self._marked_by = Spool()  # (set's number, student) of each marked row: listed when sets were mixed
        self._said: set[str] = set()
        self._json: AtomicFile | None = None  # --json's own temporary file, which the reports go straight into

    def start(self) -> None:
        """After the survey, before marking: the ``--json`` file's temporary file made beside it (not
        before the survey, which would find it), for each student's report to go straight into."""
        if self.options.json is not None:
            self._json = AtomicFile(self.options.json, replace=self.options.force)
            try:
                self.writer.reports_to(self._json.stream)
            except OSError as error:
                self._json.refuse(error)

    @classmethod
    def check(cls, options: GradeOptions) -> GradeOutputs:
        """Before any work: every output checked, the roster read; the outputs' collectors made."""
        check_outputs(options.named_outputs(), options.force, options.inputs())
        _check_options(options)
        if options.lti_roster is not None:
            return cls(options, RosterOutputs.read_lti(options))
        return cls(options, RosterOutputs.read(options) if options.roster is not None else None)

    def news(self, row: StudentRow) -> list[str]:
        """A marked student's problems not said before, to say before the row is added (each once: a
        CSV header's touches every row)."""
        said = []
        for message in row.errors:
            if message not in self._said:
                self._said.add(message)
                said.append(message)
        return said

    def add(self, row: StudentRow) -> None:
        """One marked student (its problems said first, :meth:`news`): the row kept by every output that needs it."""
        if row.set_file is not None:
            self.set_files.add(row.set_file)
        if row.score is not None:
            self._marked_by.add((self.sets.setdefault(row.problem_set or "", len(self.sets)), row.cells[0] or "—"))
        try:
            self.writer.add(row)
        except OSError as error:  # only the reports' own file fails so (the spools say their own): the JSON file's sentence
            if self._json is None:
                raise
            self._json.refuse(error)
        for output in (self.roster, self.counts, self.sheets):
            if output is not None and not (row.of_file and output is self.roster):  # a file's own row is no one to match
                output.add(row)

    def leave_out(self, left: FileNote) -> list[str]:
        """What is said of a file as a whole: not marked, with why, or a CSV's unused columns (in the
        summary's notes); one that may hide students (a folder that cannot be read): to say as an error."""
        self.file_notes.append(left)
        if left.problem:
            self.problems += 1
            return [left.text()]
        self.left_out.append(left)
        return []

    def finish(self) -> Generator[str, None, Outcome]:
        """After marking: the repeated students said, then the roster matched, the sheets' targets
        checked and every file written. A file refused whole (a FIFO, a link to nowhere, over its
        size cap) is its own student's error, like any other bad file: the rest are written.
        Yields each sentence to say as it comes, and returns the :class:`Outcome`."""
        repeated = self.writer.repeated()
        for name, places in repeated.items():
            for place in places:
                yield f"{place}: " + t("grade.duplicate_student", student=name, places=", ".join(places))
        if self.tally.total == 0 and not self.tally.file_problems:  # every file held no student (problem sets, gradebooks)
            yield t("grade.no_students")
            self.problems += 1
        written, notes = yield from self._write()
        notes = [note.text() for note in sorted(self.left_out, key=lambda note: note.file)] + notes
        failed = self.tally.failed + self.writer.newly_failed()
        unmatched = 0 if self.roster is None else self.roster.unmatched
        return Outcome(
            blocks=summary_blocks(self.tally) + ([] if self.roster is None else self.roster.blocks()),
            total=self.tally.total,
            marked=self.tally.marked,
            failed=failed,
            file_problems=self.tally.file_problems,
            sets=self._who_by_set(),
            notes=tuple(notes),
            written=tuple(written),
            status=1 if failed or repeated or len(self.sets) > 1 or unmatched or self.problems or self.tally.file_problems else 0,
        )

    def _write(self) -> Generator[str, None, tuple[list[str], list[str]]]:
        """Every check first (the roster's problems yielded, to say), then each file: the gradebook
        (or LMS file), the JSON, the report, the sheets. Returns (lines saying where each went, notes
        for the summary)."""
        options = self.options
        errors, notes = ([], []) if self.roster is None else self.roster.match()
        inputs = InputFiles(itertools.chain(options.inputs(), self.set_files, (path for path, _from_dir in self.answer_files if not isinstance(path, Document))))  # one path at a time
        for _name, path in options.named_outputs():  # an answer file found in a folder, by another name (a hard link)
            if inputs.holds(path):
                raise UsageError("files.is_input", path=str(path))
        if self.sheets is not None:
            others = {os.path.realpath(path): name for name, path in options.named_outputs()}
            self.sheets.check(self.tally.columns, others, inputs)
        yield from errors
        written = []
        roster = self.roster  # (there with an LMS layout: read() asks for --roster)
        lms = roster.lms if options.lms_layout and roster is not None else None
        if options.csv is not None and not (options.lms_layout and lms is None):  # no LMS file for nobody
            with atomic_file(options.csv, replace=options.force) as stream:
                if lms is not None:
                    stream.write(lms.data)
                else:
                    self.writer.write_csv(stream)
            written.append(roster.written(options.csv) if lms is not None and roster is not None else t("grade.written", path=str(options.csv)))
        if options.json is not None:
            files = sorted(self.file_notes, key=lambda note: note.file)
            rounds = [one for target in options.sessions for one in session_rounds(target)] or None  # (none asked again: no key)
            if self._json is not None and self.writer.in_place():  # the reports are in the file: the rest follows them
                try:
                    self.writer.write_json(self._json.stream, files, rounds)
                except OSError as error:
                    self._json.refuse(error)
                self._json.commit()
            else:  # a student named in two places: each of their reports says so, in a new file
                with atomic_file(options.json, replace=options.force) as stream:
                    self.writer.write_json(stream, files, rounds)
            written.append(t("grade.json_written", path=str(options.json)))
        if options.class_report is not None:
            assert self.counts is not None  # counted for the class report
            write_atomic(options.class_report, render_report(self.tally, self.counts), replace=options.force)
            written.append(t("report.written", path=str(options.class_report)))
        if self.sheets is not None:
            written.append(self.sheets.write())
        return written, notes

    def _who_by_set(self) -> dict[str, tuple[str, ...]]:
        """Each problem set -> who it marked, read back from the spool only when the sets were mixed
        (the summary lists them then); with one set, no names are gathered (an empty tuple)."""
        if len(self.sets) < 2:
            return {name: () for name in self.sets}
        names = list(self.sets)
        who: dict[str, list[str]] = {name: [] for name in names}
        for number, student in self._marked_by:
            who[names[number]].append(student)
        return {name: tuple(students) for name, students in who.items()}

    def close(self) -> None:
        self.writer.close()
        if self._json is not None:
            self._json.discard()  # (nothing once it is in place)
        self._marked_by.close()
        if self.sheets is not None:
            self.sheets.close()

