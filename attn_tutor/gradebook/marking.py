"""Marking a class: each problem set loaded once, each (set, variant) solved once."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from attn_tutor.errors import AttnTutorError, Finding, Location
from attn_tutor.gradebook.answer_files import find_answer_files, read_answer_file
from attn_tutor.gradebook.cells import CellReader
from attn_tutor.gradebook.records import POLICIES, Gradebook, ItemKey, NestedFinding, StudentResult, Submission
from attn_tutor.model import STAGES, Problem, ProblemSet

_MEMO_LIMIT = 500_000  # marks a Marker remembers



@dataclass(frozen=True)
class _RowPlan:
    """What marking one asked row needs, worked out once per (set, variant); and its marks so far."""

    row: int
    asked: frozenset
    exact: dict  # stage -> ((exact, marked) per cell, expected, all-correct cells)
    eps: float
    steps: tuple  # (stage, asked, previous stage) for every stage of the problem, in order
    correct: dict = field(default_factory=dict)  # (stage, given) -> the correct Item, or False
    marks: dict = field(default_factory=dict)  # (stage, given, own previous row, own scores) -> Item


class Marker:
    """Marks submissions, loading each problem set once and solving each (set, variant) once."""

    def __init__(self, *, problems: str | None = None, follow_through: str = "full") -> None:
        if follow_through not in POLICIES:
            raise ValueError(follow_through)
        self.override = problems
        self.follow_through = follow_through
        self._sets: dict[str, ProblemSet | AttnTutorError] = {}
        self._solved: dict[tuple[str, int | None], tuple | AttnTutorError] = {}
        self._exact: dict[tuple, _RowPlan] = {}
        self._memo_size = 0  # marks remembered, over every row plan
        self.order: list[ItemKey] = []  # every item column, in first-seen set order
        self._ordered: set[str] = set()
        self._names: list[str] | None = None
        if problems is not None:
            loaded = self._load(problems, problems)
            if isinstance(loaded, AttnTutorError):
                raise loaded

    def _load(self, key: str, spec: str | None) -> ProblemSet | AttnTutorError:
        if key not in self._sets:
            from attn_tutor.problem_load import load_problem_set

            try:
                self._sets[key] = load_problem_set(spec)
            except AttnTutorError as error:
                self._sets[key] = error
        return self._sets[key]

    def resolve(self, sub: Submission) -> tuple[str, str]:
        """The problem set's cache key (what load_problem_set is given) and the label reports carry."""
        if self.override is not None:
            return self.override, self.override
        spec = sub.problem_set
        if spec is None:
            from attn_tutor.problem_load import DEFAULT_SET

            return DEFAULT_SET, DEFAULT_SET
        bare = not ("/" in spec or "\\" in spec or spec.lower().endswith((".yaml", ".yml")))
        if bare and spec in self._packaged():
            return spec, spec
        return os.path.normpath(os.path.join(sub.base, spec)), spec

    def _packaged(self) -> list[str]:
        if self._names is None:
            from attn_tutor.problem_load import packaged_sets

            self._names = packaged_sets()
        return self._names

    def solved(self, key: str, seed: int | None):
        """(problem set, {problem id: Solution}) for a set and a variant, or the error."""
        cache = (key, seed)
        if cache not in self._solved:
            base = self._load(key, key)
            if isinstance(base, AttnTutorError):
                self._solved[cache] = base
            else:
                from attn_tutor import engine

                try:
                    if seed is not None:
                        from attn_tutor.generate import variant_set

                        base = variant_set(base, seed)
                    solutions = {p.id: engine.solve(p) for p in base.problems}
                    widths = {
                        (p.id, token, stage): len(solutions[p.id].stage_row(stage, p.row_index(token)))
                        for p in base.problems
                        for token in p.asked_rows
                        for stage in p.asked_stages
                    }
                    self._solved[cache] = (base, solutions, widths)
                    self._remember_columns(key, base)
                except AttnTutorError as error:
                    self._solved[cache] = error
        return self._solved[cache]

    def _remember_columns(self, key: str, problem_set: ProblemSet) -> None:
        if key in self._ordered:
            return
        self._ordered.add(key)
        known = set(self.order)
        for column in columns_of(problem_set):
            if column not in known:
                known.add(column)
                self.order.append(column)

    def mark(self, sub: Submission) -> StudentResult:
        from attn_tutor.grading import Report

        findings = list(sub.findings)
        key, label = self.resolve(sub)
        result = StudentResult(sub.student, sub.file, sub.line, sub.variant, label, None, findings)
        if not sub.readable:
            return result
        solved = self.solved(key, sub.variant)
        if isinstance(solved, AttnTutorError):
            where = Location(sub.file, sub.line)
            for problem in solved.problems:
                findings.append(NestedFinding("grade.problem_set_error", {"name": label}, where, inner=problem))
            return result
        problem_set, solutions, widths = solved
        answers = self._check(sub, problem_set, widths, findings)
        items = []
        for problem in problem_set.problems:
            solution = solutions[problem.id]
            for token in problem.asked_rows:
                row_answers = {stage: answers.get((problem.id, token, stage)) for stage in problem.asked_stages}
                items.extend(self._mark_row(key, sub.variant, solution, problem, token, row_answers))
        result.report = Report(sub.student, label, sub.variant, "exam", items)
        return result

    def _mark_row(self, key, seed, solution, problem: Problem, token: str, answers: dict) -> list:
        """grading.mark_row in exam mode, stage by stage, with each stage's marks reused.

        This is mark_row's own loop over grading's public pieces (mark_stage, advance),
        so that a stage marked once is not marked again: a stage's item depends only on
        its answer and the student's own rows it is carried from (the previous stage's,
        and for the weights the scores, which ``skipped_scaling`` is made from). A
        stage right in every cell is ``correct`` whatever came before, so it is built
        without numpy. A test checks all of this against mark_row itself.
        """
        from attn_tutor.grading import Item, advance, mark_stage

        plan = self._plan(key, seed, solution, problem, token)
        row = plan.row
        tolerance = problem.tolerance + plan.eps
        correct_items, marks = plan.correct, plan.marks
        items = []
        own: dict[str, tuple[float, ...]] = {}
        for stage, asked, before in plan.steps:
            given = answers.get(stage) if asked else None
            if asked:
                item = None
                if given is not None:
                    item = correct_items.get((stage, given))
                    if item is None:
                        pairs, expected, cells = plan.exact[stage]
                        if len(given) == len(pairs) and all(
                            not marked or abs(value - exact) <= tolerance for value, (exact, marked) in zip(given, pairs)
                        ):
                            item = Item(
                                problem=problem.id, row=token, stage=stage, expected=expected, given=tuple(given),
                                cells=cells, verdict="correct", diagnosis=None, hints=0, points=1.0, max_points=1.0,
                            )  # fmt: skip
                        else:
                            item = False
                        if self._memo_size < _MEMO_LIMIT:
                            self._memo_size += 1
                            correct_items[(stage, given)] = item
                if not item:
                    memo = (
                        stage, given,
                        own.get(before) if before else None,
                        own.get("scores") if stage == "weights" else None,
                    )  # fmt: skip
                    item = marks.get(memo)
                    if item is None:
                        item = mark_stage(solution, row, stage, given, own, follow_through=self.follow_through)
                        if self._memo_size < _MEMO_LIMIT:
                            self._memo_size += 1
                            marks[memo] = item
                items.append(item)
            if given is not None:
                own[stage] = tuple(given)  # what advance does in exam mode, without the copying
            elif before is not None and before in own:
                own = advance(solution, row, stage, None, own, "exam")
        return items

    def _plan(self, key, seed, solution, problem: Problem, token: str) -> "_RowPlan":
        cache = (key, seed, problem.id, token)
        plan = self._exact.get(cache)
        if plan is None:
            from attn_tutor.grading import EPS, marked_cells, previous_stage

            row = problem.row_index(token)
            exact = {}
            for stage in problem.asked_stages:
                values = [float(v) for v in solution.stage_row(stage, row)]
                marked = [bool(m) for m in marked_cells(solution, row, stage)]
                exact[stage] = (
                    tuple(zip(values, marked)),
                    tuple(v if m else None for v, m in zip(values, marked)),
                    tuple("correct" if m else "masked" for m in marked),
                )
            asked = frozenset(problem.asked_stages)
            steps = tuple((stage, stage in asked, previous_stage(stage)) for stage in problem.stages)
            plan = _RowPlan(row, asked, exact, EPS, steps)
            self._exact[cache] = plan
        return plan

    def _check(self, sub: Submission, problem_set: ProblemSet, widths: dict, findings: list[Finding]) -> dict:
        """The answers that fit the problem set (``widths``: every asked item's cell count); the rest reported."""
        good: dict[ItemKey, tuple[float, ...]] = {}
        for item_key, answer in sub.answers.items():
            expected = widths.get(item_key)
            if expected is not None:
                if answer.values is None:
                    continue
                if len(answer.values) == expected:
                    good[item_key] = answer.values
                    continue
            problem_id, token, stage = item_key
            item = f"{problem_id}/{token}/{stage}"
            if expected is not None:
                findings.append(
                    Finding("grade.wrong_count", {"item": item, "given": len(answer.values), "expected": expected}, answer.where)
                )
            elif problem_id not in problem_set.ids:
                findings.append(
                    Finding("grade.unknown_problem", {"item": item, "problem": problem_id, "ids": ", ".join(problem_set.ids)}, answer.where)
                )
            elif token not in (problem := problem_set.get(problem_id)).asked_rows:
                findings.append(
                    Finding("grade.unknown_row", {"item": item, "problem": problem_id, "row": token, "rows": ", ".join(problem.asked_rows)}, answer.where)
                )
            else:
                findings.append(
                    Finding("grade.unknown_stage", {"item": item, "stage": stage, "stages": ", ".join(problem.asked_stages)}, answer.where)
                )
        return good


def columns_of(problem_set: ProblemSet) -> list[ItemKey]:
    """Every item of a set in gradebook order: problems, then asked rows, then pipeline stages."""
    return [
        (problem.id, token, stage)
        for problem in problem_set.problems
        for token in problem.asked_rows
        for stage in STAGES
        if stage in problem.asked_stages
    ]


def grade_files(
    paths: Sequence[str | Path],
    *,
    problems: str | None = None,
    follow_through: str = "full",
    exclude: Iterable[str | Path] = (),
) -> Gradebook:
    """Read and mark every answer file under ``paths``. Raises only for a bad ``problems``."""
    return grade_found(find_answer_files(paths, exclude=exclude), problems=problems, follow_through=follow_through)


def grade_found(
    files: Sequence[tuple[Path, bool]], *, problems: str | None = None, follow_through: str = "full"
) -> Gradebook:
    """Mark the files :func:`find_answer_files` found, in that order."""
    marker = Marker(problems=problems, follow_through=follow_through)
    cells = CellReader()
    students = []
    for path, from_dir in files:
        for sub in read_answer_file(path, skip_foreign=from_dir, cells=cells):
            students.append(marker.mark(sub))
    return Gradebook(students, list(marker.order), follow_through)


def grade_submissions(subs: Iterable[Submission], *, problems: str | None = None, follow_through: str = "full") -> Gradebook:
    marker = Marker(problems=problems, follow_through=follow_through)
    students = [marker.mark(sub) for sub in subs]
    return Gradebook(students, list(marker.order), follow_through)
