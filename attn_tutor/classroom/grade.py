"""``grade``, top to bottom: find the class, mark it, hand the marked rows to the outputs.

:func:`grade` is the command's whole run, read downwards:

1. **The inputs.** Every output is checked before any work (:meth:`GradeOutputs.check`); then
   the class is found (:func:`sources`): the answer files under the paths
   (:func:`attn_tutor.gradebook.answer_files.survey`), then each live session's students as the
   answer files they would have handed in (:func:`attn_tutor.sessions.documents.session_documents`),
   one more kind of source, marked as those files would be.
2. **The marking.** :func:`attn_tutor.gradebook.run.grade_class` marks every file once
   (``--jobs`` workers, told by name what else a row carries: the hand-back sheet in the asked
   format) and yields the class a window at a time, in input order, each student's row
   already in the tally.
3. **The outputs.** Each row goes to :class:`GradeOutputs` as it comes (the gradebook CSV and
   JSON, the roster's matching and LMS file, the hand-back sheets, the class report), and
   :meth:`GradeOutputs.finish` checks what needs the whole class and writes every file.

The run is a stream its caller follows: it yields each problem's sentence as it is found (a
``str``, said as an error), a :class:`Note` for a sentence that is not a problem, a
:class:`Marking` as the files are marked (a progress bar's values), and last the
:class:`~attn_tutor.classroom.outputs.Outcome` the command says. Nothing is called back.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import closing
from typing import NamedTuple

from attn_tutor.classroom.outputs import GradeOptions, GradeOutputs, Outcome
from attn_tutor.core.errors import AttnTutorError, Finding, UsageError
from attn_tutor.core.i18n import t
from attn_tutor.gradebook.answer_files import Survey, csv_without_problem_set, survey
from attn_tutor.gradebook.records import FileNote
from attn_tutor.gradebook.run import grade_class, usable_jobs
from attn_tutor.sessions.documents import session_documents


class Note(str):
    """A sentence for standard error that is not a problem (more ``--jobs`` than usable CPUs)."""

    __slots__ = ()


class Marking(NamedTuple):
    """The marking under way: ``done`` of ``total`` files marked (0 as it starts); ``over`` once it has ended."""

    done: int
    total: int
    over: bool = False


def grade(options: GradeOptions) -> Generator[str | Note | Marking | Outcome, None, None]:
    """The whole of ``grade``: check, find the class, mark every file once, write, sum up; each
    sentence, the marking's progress, then the :class:`Outcome`, as they come (see the module)."""
    for path in options.paths:
        if not path.exists():
            raise AttnTutorError("grade.no_such_path", path=str(path))
    outputs = GradeOutputs.check(options)
    try:
        found = sources(options)
        files = outputs.answer_files = found.files
        for left in found.left_out:
            yield from outputs.leave_out(left)
        outputs.start()
        if options.jobs is not None and (cpus := usable_jobs(options.jobs)) < options.jobs:
            yield Note(t("grade.jobs_capped_one" if cpus == 1 else "grade.jobs_capped", asked=options.jobs, cpus=cpus))
        yield Marking(0, len(files))
        marking = grade_class(
            files, outputs.tally, problems=options.problems, follow_through=options.follow_through, with_json=options.json is not None, jobs=options.jobs, name_column=options.name_column,
            extra=outputs.extra, variant_column=options.variant_column,
        )  # fmt: skip
        with closing(marking):
            for window in marking:
                for row in window.rows:
                    if isinstance(row, FileNote):  # what is said of a file as a whole
                        yield from outputs.leave_out(row)
                    else:
                        yield from outputs.news(row)
                        outputs.add(row)
                yield Marking(window.done, len(files))
        yield Marking(len(files), len(files), over=True)
        outcome = yield from outputs.finish()
        yield outcome
    finally:
        outputs.close()


def sources(options: GradeOptions) -> Survey:
    """The class: the answer files under the paths, none of the outputs or the other inputs among
    them (those and every other file of a folder that is not marked: named, with why), then each
    live session's students as :class:`~attn_tutor.gradebook.records.Document` s; a CSV without a
    problem_set column needs ``--problems`` (forms know nothing of problem sets: the teacher says which)."""
    excluded = [*options.named_outputs(), *options.other_inputs()]
    found = survey(options.paths, exclude=excluded)
    files: Sequence = found.files
    if options.sessions:
        documents = [(document, False) for target in options.sessions for document in session_documents(target, options.problems, include_practice=options.include_practice)]
        files = [*files, *documents]
        found = Survey(files, found.left_out)
    if not files:  # and what was there instead, each with why
        notes = [Finding(note.key, {"path": note.file, **note.args}) for note in found.left_out]
        raise AttnTutorError.many([Finding("grade.no_files"), *notes])
    if options.problems is None:
        needs = csv_without_problem_set(files)
        if needs is not None:
            raise UsageError("grade.csv_needs_problems", path=needs)
    return found
