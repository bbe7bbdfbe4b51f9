"""What the marker gives and the renderers read: a marked :class:`Item` (one stage of one
query row), a :class:`Report` of items, the verdict over an item's cells, and the words
that name and explain a diagnosis. The marking itself is :mod:`attn_tutor.marking.marker`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from attn_tutor.core.i18n import t
from attn_tutor.core.model import Verdict
from attn_tutor.marking.mistakes import Rounding


@dataclass(frozen=True)
class Item:
    """One stage of one query row, marked."""

    problem: str
    row: str
    stage: str
    expected: tuple[float | None, ...]  # None: a masked cell of scores/scaled
    given: tuple[float, ...] | None
    cells: tuple[str, ...]
    verdict: str
    diagnosis: str | None
    hints: int
    points: float
    max_points: float
    # Not part of the report: the values carried from the student's own previous row
    # (None when there is none, or when every cell is correct and nothing was carried).
    carried: tuple[float | None, ...] | None = field(default=None, compare=False)
    # Not in the JSON (which keeps the code): what a ``rounding`` diagnosis found rounded.
    diagnosis_detail: Rounding | None = None

    def to_dict(self) -> dict:
        return {
            "problem": self.problem,
            "row": self.row,
            "stage": self.stage,
            "expected": list(self.expected),
            "given": None if self.given is None else list(self.given),
            "cells": list(self.cells),
            "verdict": self.verdict,
            "diagnosis": self.diagnosis,
            "hints": self.hints,
            "points": self.points,
            "max_points": self.max_points,
        }


@dataclass
class Report:
    """Everything marked in one quiz (or one student's sheet)."""

    student: str | None
    problem_set: str
    seed: int | None
    mode: str
    items: list[Item] = field(default_factory=list)
    # the set's concept items, marked (attn_tutor.marking.concepts.ConceptResult): a point each
    concepts: list = field(default_factory=list)

    @property
    def score(self) -> float:
        return round(sum(item.points for item in self.items) + sum(c.score for c in self.concepts), 4)

    @property
    def max_score(self) -> float:
        return round(sum(item.max_points for item in self.items) + len(self.concepts), 4)

    def to_dict(self) -> dict:
        data = self.head()
        data["items"] = [item.to_dict() for item in self.items]
        if self.concepts:
            data["concepts"] = [c.to_dict() for c in self.concepts]
        return data

    def head(self) -> dict:
        """What :meth:`to_dict` holds before ``items`` (and ``concepts``, when there are any), in its order."""
        return {
            "student": self.student,
            "problem_set": self.problem_set,
            "seed": self.seed,
            "mode": self.mode,
            "score": self.score,
            "max_score": self.max_score,
        }


def verdict_of(cells: Sequence[str]) -> Verdict:
    marked = [c for c in cells if c != "masked"]
    if all(c == "missing" for c in marked):
        return Verdict.missing
    right = [c in ("correct", "follow_through") for c in marked]
    if all(c == "correct" for c in marked):
        return Verdict.correct
    if all(right):
        return Verdict.follow_through
    return Verdict.partial if any(right) else Verdict.wrong


# --- what a diagnosis says ----------------------------------------------------------


def diagnosis_name(code: str) -> str:
    """A diagnosis's short name in the language spoken (tables; the JSON keeps the code)."""

    return t(f"grading.diagnosis_name.{code}")


def explanation(item: Item) -> str | None:
    """The sentence that explains ``item``'s diagnosis (for ``rounding``: which number, and places to keep)."""

    if item.diagnosis is None:
        return None
    found = item.diagnosis_detail
    if item.diagnosis != "rounding" or found is None:
        return t(f"grading.diagnosis.{item.diagnosis}")
    return rounding_sentence(found)


def rounding_sentence(found) -> str:
    """What a :class:`~attn_tutor.marking.mistakes.Rounding` found: which number, rounded to how
    many places, and how many to keep."""

    def places(n: int) -> str:
        return t(f"grading.places_{n}") if n in (0, 1) else t("grading.places", n=n)

    return t(
        f"grading.rounding.{found.kind}",
        places=places(found.places),
        keep=places(found.keep),
        stage=t(f"grading.rounded_stage.{found.stage}") if found.kind == "previous" else "",
        divisor=found.divisor,
        rounded=found.rounded,
    )
