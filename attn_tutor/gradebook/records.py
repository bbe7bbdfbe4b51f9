"""What a class hands in and what grading gives back: plain records, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from attn_tutor.errors import Finding, Location
from attn_tutor.i18n import t
from attn_tutor.model import FollowThrough

ANSWER_SUFFIXES = (".yaml", ".yml", ".csv")
POLICIES = tuple(FollowThrough)
TOP_KEYS = ("student", "problem_set", "variant", "answers")
MAX_SEED = 2**63
BINS = 10
TOP_DIAGNOSES = 3
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

ItemKey = tuple[str, str, str]  # (problem, row, stage)


@dataclass(frozen=True)
class NestedFinding(Finding):
    """A finding whose message wraps another catalogue message (the parser's, the loader's)."""

    inner: Finding | None = None

    def text(self, lang: str = "en") -> str:
        inner = self.inner.text(lang) if self.inner is not None else ""
        message = t(self.key, lang, **self.args, message=inner)
        return f"{self.where}: {message}" if self.where else message


class Answer(NamedTuple):
    """One answer as read: its numbers (None: blank or unreadable) and where it was."""

    values: tuple[float, ...] | None
    where: Location


@dataclass
class Submission:
    """One student's answers as read from a file, before they are checked against a problem set."""

    student: str
    file: str
    line: int | None = None  # the CSV row's line; None for a YAML file
    problem_set: str | None = None  # as written in the file
    base: str = "."  # the directory relative problem-set paths start from
    variant: int | None = None
    answers: dict[ItemKey, Answer] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    readable: bool = True  # False: nothing could be read; the student is listed with the error
    set_column: bool = True  # False: a CSV row from a file without a problem_set column
    refused: bool = False  # True: the file itself was refused (not a regular file, too large)


def percent_of(score: float, max_score: float) -> float | None:
    """A score as a percentage of the most it could be (None when nothing could be scored)."""
    return 100.0 * score / max_score if max_score else None


@dataclass
class StudentResult:
    """One student in the gradebook: the quiz's report (None when unmarkable) and every problem found."""

    student: str
    file: str
    line: int | None
    variant: int | None
    problem_set: str | None
    report: object | None  # attn_tutor.grading.Report
    findings: list[Finding]
    set_key: str | None = None  # the problem set's key (its path or name) once it could be solved
    refused: bool = False  # the file itself was refused (not a regular file, over its size cap)

    @property
    def score(self) -> float | None:
        return None if self.report is None else self.report.score

    @property
    def max_score(self) -> float | None:
        return None if self.report is None else self.report.max_score

    @property
    def percent(self) -> float | None:
        return None if self.report is None else percent_of(self.report.score, self.report.max_score)

    def items(self) -> dict[ItemKey, object]:
        if self.report is None:
            return {}
        return {(i.problem, i.row, i.stage): i for i in self.report.items}

    def to_dict(self, lang: str = "en") -> dict:
        return {**self._head(lang), "report": None if self.report is None else self.report.to_dict()}

    def _head(self, lang: str) -> dict:
        return {
            "student": self.student,
            "file": self.file,
            "line": self.line,
            "variant": self.variant,
            "problem_set": self.problem_set,
            "errors": [f.text(lang) for f in self.findings],
        }


@dataclass(frozen=True)
class ItemStats:
    """How the class did on one (problem, row, stage)."""

    problem: str
    row: str
    stage: str
    students: int  # marked students who were set this item
    counts: tuple[tuple[str, int], ...]  # (verdict, count) in VERDICTS order
    diagnoses: tuple[tuple[str, int], ...]  # the most common first, at most TOP_DIAGNOSES

    @property
    def name(self) -> str:
        return f"{self.problem}/{self.row}/{self.stage}"

    def count(self, verdict: str) -> int:
        return dict(self.counts).get(verdict, 0)

    def percent(self, verdict: str) -> float:
        return 100.0 * self.count(verdict) / self.students if self.students else 0.0

    def to_dict(self) -> dict:
        return {
            "problem": self.problem,
            "row": self.row,
            "stage": self.stage,
            "students": self.students,
            "counts": dict(self.counts),
            "diagnoses": dict(self.diagnoses),
        }


@dataclass
class Gradebook:
    """A graded class: every student, the item columns, the analysis and the distribution."""

    students: list[StudentResult]
    columns: list[ItemKey]
    follow_through: str = "full"

    @property
    def failed(self) -> list[StudentResult]:
        """Students with any problem reported (a file, a row or a cell)."""
        return [s for s in self.students if s.findings]

    @property
    def marked(self) -> list[StudentResult]:
        return [s for s in self.students if s.report is not None]

    @property
    def refused(self) -> list[StudentResult]:
        """Files refused as a whole (a FIFO, a device, over the size cap): no gradebook is written."""
        return [s for s in self.students if s.refused]

    def sets_used(self) -> dict[str, list[str]]:
        """Each problem set the marked students were marked against, with their names, in first-seen order."""
        used: dict[str, list[str]] = {}
        for student in self.marked:
            used.setdefault(student.problem_set or "", []).append(student.student or "—")
        return used

    def rows(self, lang: str = "en", *, with_json: bool = False):
        """Each student as the outputs need them (:class:`~attn_tutor.gradebook.rows.StudentRow`)."""
        from attn_tutor.gradebook.rows import student_row

        verdicts: dict = {}
        return (student_row(student, lang, with_json=with_json, verdicts=verdicts) for student in self.students)

    def tally(self, lang: str = "en"):
        """The item analysis, distribution and class table (:class:`~attn_tutor.gradebook.analysis.Tally`)."""
        from attn_tutor.gradebook.analysis import Tally

        tally = Tally(self.follow_through, self.columns)
        for row in self.rows(lang):
            tally.add(row)
        return tally

    def analysis(self) -> list[ItemStats]:
        return self.tally().analysis()

    def distribution(self) -> list[int]:
        return self.tally().distribution()
