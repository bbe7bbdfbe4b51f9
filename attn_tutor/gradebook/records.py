"""What a class hands in and what grading gives back: plain records, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.i18n import t
from attn_tutor.core.model import FollowThrough

if TYPE_CHECKING:
    from attn_tutor.gradebook.itemstats import ItemStatistics
    from attn_tutor.marking.results import Report

ANSWER_SUFFIXES = (".yaml", ".yml", ".csv")
POLICIES = tuple(FollowThrough)
TOP_KEYS = ("student", "problem_set", "variant", "answers", "concepts")
BINS = 10
TOP_DIAGNOSES = 3
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

ItemKey = tuple[str, str, str]  # (problem, row, stage)
CONCEPTS = "concepts"
CONCEPT_STAGE = "choice"


def concept_key(concept_id: str) -> ItemKey:
    """A concept item's key among the items: ``("concepts", id, "choice")``, its columns ``concepts/<id>``."""
    return (CONCEPTS, concept_id, CONCEPT_STAGE)


def is_concept_key(key: ItemKey) -> bool:
    return key[0] == CONCEPTS and key[2] == CONCEPT_STAGE


def item_name(key: ItemKey) -> str:
    """An item's name in column headings: ``problem/row/stage``, or ``concepts/<id>``."""
    return f"{CONCEPTS}/{key[1]}" if is_concept_key(key) else "/".join(part for part in key if part)  # a sampling stage has no row


@dataclass(frozen=True)
class NestedFinding(Finding):
    """A finding whose message wraps another catalogue message (the parser's, the loader's)."""

    inner: Finding | None = None

    def text(self) -> str:
        inner = self.inner.text() if self.inner is not None else ""
        message = t(self.key, **self.args, message=inner)
        return f"{self.where}: {message}" if self.where else message


class Answer(NamedTuple):
    """One answer as read: its numbers (None: blank or unreadable) and where it was; for a
    sampling problem's ``pick`` the token typed, and for its ``kept`` the {token: number} pairs
    (``values`` None), read into cells once the problem is known."""

    values: tuple[float, ...] | None
    where: Location
    typed: str | tuple[tuple[str, float | None], ...] | None = None


class Document(NamedTuple):
    """An answer file's text that is no file on disk: one student of a live session (``grade
    SESSION.sqlite``), read and marked exactly as the same text in a YAML answer file would be.
    ``file`` names it in the outputs (the session and the student), ``student`` is the name it
    stands for when the text names none, ``base`` where a relative problem-set path starts."""

    file: str
    text: str
    student: str = ""
    base: str = "."


class FileNote(NamedTuple):
    """Something said of a file as a whole, not of a student in it, and not a problem: why a file
    under a graded folder is not marked (a problem set, a gradebook, a hidden file, a file of another
    kind, a link to a folder: keys ``grade.left_out.*``), or a CSV's columns that are not used. Each
    is said once, after the summary; the exit status does not change, unless it is a ``problem``."""

    file: str
    key: str  # a catalogue sentence taking {path} and ``args``
    args: dict = {}  # noqa: RUF012 - never changed
    problem: bool = False  # True: something may be missing (a folder that cannot be read): an error, exit status 1

    def text(self) -> str:
        return t(self.key, path=self.file, **self.args)


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
    concepts: dict[str, tuple[str | None, Location]] = field(default_factory=dict)  # concept id -> the choice as typed
    findings: list[Finding] = field(default_factory=list)
    readable: bool = True  # False: nothing could be read; the student is listed with the error
    set_column: bool = True  # False: a CSV row from a file without a problem_set column
    refused: bool = False  # True: the file itself was refused (not a regular file, too large)
    of_file: bool = False  # True: the file's own row (a CSV header's problems), no student's


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
    report: Report | None
    findings: list[Finding]
    set_key: str | None = None  # the problem set's key (its path or name) once it could be solved
    refused: bool = False  # the file itself was refused (not a regular file, over its size cap)
    of_file: bool = False  # the file's own row (a CSV header's problems): listed, but no student
    set_file: str | None = None  # the problem-set file the answers were marked against (not a packaged set)

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

    def to_dict(self) -> dict:
        return {**self.head(), "report": None if self.report is None else self.report.to_dict()}

    def head(self) -> dict:
        """What :meth:`to_dict` holds before ``report``, in its order."""
        return {
            "student": self.student,
            "file": self.file,
            "line": self.line,
            "variant": self.variant,
            "problem_set": self.problem_set,
            "errors": [f.text() for f in self.findings],
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
    statistics: ItemStatistics | None = None  # None: not worked out

    @property
    def name(self) -> str:
        return f"{self.problem}/{self.row}/{self.stage}"

    def count(self, verdict: str) -> int:
        return dict(self.counts).get(verdict, 0)

    def percent(self, verdict: str) -> float:
        return 100.0 * self.count(verdict) / self.students if self.students else 0.0

    def to_dict(self) -> dict:
        if is_concept_key((self.problem, self.row, self.stage)):  # a concept item: keyed by its id
            return {
                "concept": self.row, "students": self.students, "counts": dict(self.counts), "diagnoses": dict(self.diagnoses),
                **statistics_dict(self.statistics),
            }  # fmt: skip
        return {
            "problem": self.problem,
            "row": self.row,
            "stage": self.stage,
            "students": self.students,
            "counts": dict(self.counts),
            "diagnoses": dict(self.diagnoses),
            **statistics_dict(self.statistics),
        }


def statistics_dict(statistics) -> dict:
    """An item's statistics as the JSON carries them (docs/item-statistics.md): ``facility``,
    ``discrimination``, ``point_biserial`` (null: undefined), ``flags``, ``flag_reasons`` (each flag's
    figures: ``{"flag", "figure", "value", "test", "bound"}``); choice items add
    ``options``: ``{label: {"overall", "upper", "lower", "flags"}}`` in printed order."""
    if statistics is None:
        return {}
    found = {
        "facility": statistics.facility,
        "discrimination": statistics.discrimination,
        "point_biserial": statistics.point_biserial,
        "flags": list(statistics.flags),
        "flag_reasons": [reason.to_dict() for reason in statistics.reasons],
    }
    if statistics.options is not None:
        found["options"] = {label: share.to_dict() for label, share in statistics.options.items()}
    return found
