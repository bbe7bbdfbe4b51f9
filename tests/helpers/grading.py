"""A class graded the one way ``grade`` grades it, held whole for a test to look at.

:func:`grade` finds the answer files, runs :func:`attn_tutor.gradebook.run.grade_class`
(the streaming path, its rows added to a :class:`~attn_tutor.gradebook.analysis.Tally`
and handed to a :class:`~attn_tutor.gradebook.writing.GradebookWriter`, as the command does)
and keeps every row, the gradebook's bytes, typed rows and JSON. Each row's ``extra`` is
the student's full :class:`~attn_tutor.gradebook.records.StudentResult` as the worker
marked it (``extra="student"``), unless the test asks for another (a sheet's format).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from attn_tutor.core.i18n import reset_language, set_language
from attn_tutor.gradebook.analysis import Tally
from attn_tutor.gradebook.answer_files import find_answer_files
from attn_tutor.gradebook.records import FileNote
from attn_tutor.gradebook.run import grade_class
from attn_tutor.gradebook.writing import GradebookWriter, student_key


@dataclass
class Graded:
    """A graded class: its rows in gradebook order, the tally and the gradebook files' bytes."""

    rows: list
    tally: Tally
    csv: bytes
    json: bytes
    typed_rows: list[list]  # the gradebook as typed cells, its header first
    repeated: dict[str, list[str]]  # each student found in more than one place -> the places

    @property
    def students(self) -> list:
        """Each row's ``extra``: with the default, every StudentResult, in order."""
        return [row.extra for row in self.rows]

    @property
    def reports(self) -> list[dict]:
        """Each student's report as the JSON file has it (a repeated student's error included)."""
        return json.loads(self.json)["students"]

    @property
    def failed(self) -> list:
        """The students with any problem, their name's being found twice included (the rows)."""
        return [row for row in self.rows if row.errors or (student_key(row.cells[0]) in self.repeated and not row.refused)]

    @property
    def marked(self) -> list:
        return [student for row, student in zip(self.rows, self.students) if row.score is not None]

    def analysis(self):
        return self.tally.analysis()

    def distribution(self) -> list[int]:
        return self.tally.distribution()


def grade(
    paths: Sequence[str | Path],
    *,
    problems: str | None = None,
    follow_through: str = "full",
    exclude: Iterable[str | Path] = (),
    lang: str = "en",
    jobs: int | None = 1,
    name_column: str | None = None,
    extra: str | None = "student",
) -> Graded:
    """Read and mark every answer file under ``paths`` as ``grade`` does, speaking ``lang``. Raises only for a bad ``problems``."""
    files = find_answer_files(paths, exclude=exclude)
    tally = Tally(follow_through)
    writer = GradebookWriter(tally, csv_file=True, json_file=True)
    rows: list = []
    token = set_language(lang)
    try:
        marking = grade_class(
            files, tally, problems=problems, follow_through=follow_through, with_json=True, jobs=jobs,
            name_column=name_column, extra=extra,
        )  # fmt: skip
        for window in marking:
            for row in window.rows:
                if type(row) is not FileNote:
                    rows.append(row)
                    writer.add(row)
        csv_bytes, json_bytes = io.BytesIO(), io.BytesIO()
        writer.write_csv(csv_bytes)
        writer.write_json(json_bytes)
        typed = list(writer.typed_rows())
        return Graded(rows, tally, csv_bytes.getvalue(), json_bytes.getvalue(), typed, writer.repeated())
    finally:
        writer.close()
        reset_language(token)
