"""The server's mark of a live answer: the one marker, called as ``grade`` calls it.

A stage a student checks on the live page is read with the quiz's rule
(:func:`attn_tutor.quiz.loop.parse_answer`: the answer parser, masked cells left out filled
in) and marked with :class:`attn_tutor.marking.marker.Marker` ``.row(..., mode="exam")`` over
the student's latest answers to that row, exactly as :class:`attn_tutor.gradebook.grader.Grader`
marks an answer file: the mark the server keeps is the one ``grade`` gives the session.

"Another like this" (practice only): a variant of one problem, drawn by
:func:`attn_tutor.variants.generate.variant_set` with a fresh seed as ``export --variants`` draws a
sheet (fair, and not repeating the problem's givens or answer key, nor an earlier variant's, by
:mod:`attn_tutor.variants.fairness`), so that ``grade --include-practice`` regenerates it from the seed
and marks it as the server did; an answer to it is marked by the same marker against that variant.

A concept item's choice is marked by :func:`attn_tutor.marking.concepts.mark_concept` against the
item as the page shows it (:func:`attn_tutor.solve.concepts.show` with ``seed=None``: a live
session has one sheet, the set as written), as ``grade`` marks ``concepts: {id: choice}``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import NamedTuple

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.model import ProblemSet
from attn_tutor.core.text import excerpt
from attn_tutor.marking.answers import MAX_LENGTH
from attn_tutor.marking.concepts import ConceptMark, mark_concept
from attn_tutor.marking.marker import Marker
from attn_tutor.quiz import sampling as sampling_quiz
from attn_tutor.quiz.loop import parse_answer
from attn_tutor.solve import engine
from attn_tutor.solve.concepts import ShownConcept, show
from attn_tutor.variants import fairness
from attn_tutor.variants.generate import new_seed, variant, variant_set

MARKER_MEMORY = 50_000  # as a grading process's (attn_tutor.gradebook.grader.MARKER_MEMORY)
VARIANTS_KEPT = 2_000  # variants solved and kept for marking (each a few kB); more are drawn again from their seed
DRAWS = 20  # fresh seeds tried for "another like this" before saying there is none
TEXT_LIMIT = MAX_LENGTH  # the answer parser's own limit: a longer answer is refused before it is read


class RequestError(AttnTutorError):
    """A request the app refuses: its HTTP status and a catalogue sentence."""

    def __init__(self, status: int, key: str, **args) -> None:
        super().__init__(key, **args)
        self.status = status


class Item(NamedTuple):
    problem: str
    row: str  # the query token
    index: int  # type: ignore[assignment]  # a field may shadow tuple.index (NamedTuple allows it); the row's index in the problem
    stage: str
    variant: int | None = None  # "another like this": the variant's seed (None: the problem as the session has it)


class ServerMark(NamedTuple):
    verdict: str
    diagnosis: str | None
    points: float


class Marks:
    """A session's problems solved once, and the one marker that marks every answer (thread-safe)."""

    def __init__(self, problem_set: ProblemSet) -> None:
        self.problem_set = problem_set
        self.problems = {p.id: p for p in problem_set.problems}
        self.solutions = {p.id: engine.solve(p) for p in problem_set.problems}
        self.marker = Marker(follow_through="full", limit=MARKER_MEMORY)
        self.concepts = {c.id: show(c, problem_set, seed=None) for c in problem_set.concepts}
        self._lock = threading.Lock()
        self._variants: dict[tuple[str, int], tuple] = {}  # (problem, seed) -> (the variant, its solution)

    def variant(self, problem: str, seed: int):
        """``problem``'s variant with ``seed`` and its solution (solved once, then kept)."""
        key = (problem, seed)
        found = self._variants.get(key)
        if found is None:
            varied = variant(self.problems[problem], seed, self.problem_set.concepts)  # as variant_set draws it
            found = (varied, engine.solve(varied))
            with self._lock:
                if len(self._variants) >= VARIANTS_KEPT:
                    self._variants.clear()
                self._variants[key] = found
        return found

    def draw(self, problem: str, taken: list[int]) -> int:
        """A fresh seed for another variant of ``problem``: one that ``grade`` can regenerate (the whole
        set varies with it, as a sheet of ``export --variants``), whose variant of ``problem`` repeats
        neither the problem's givens nor its answer key, nor those of the variants ``taken`` (seeds).
        None found in :data:`DRAWS` seeds: a sentence (409)."""
        before = [self.problems[problem], *(self.variant(problem, seed)[0] for seed in taken)]
        seen = [(fairness.givens(p), fairness.answer_key(p)) for p in before]
        for _ in range(DRAWS):
            seed = new_seed()
            if seed in taken:
                continue
            try:
                varied = next(p for p in variant_set(self.problem_set, seed).problems if p.id == problem)
            except AttnTutorError:  # some problem of the set has no fair variant with this seed
                continue
            mine = (fairness.givens(varied), fairness.answer_key(varied))
            if any(mine[0] == theirs[0] or fairness.same_answers(mine[1], theirs[1]) for theirs in seen):
                continue
            with self._lock:
                self._variants[(problem, seed)] = (varied, engine.solve(varied))
            return seed
        raise RequestError(409, "live.error.another_none", problem=problem)

    def solution(self, item: Item):
        """The solution ``item`` is marked against: its problem's, or its variant's."""
        return self.solutions[item.problem] if item.variant is None else self.variant(item.problem, item.variant)[1]

    def item(self, problem, row, stage) -> Item:
        """The asked item a request names (row: the query token, or its index), else a 404 sentence."""
        if not isinstance(problem, str) or problem not in self.problems:
            raise RequestError(404, "live.error.unknown_problem", problem=_shown(problem), ids=", ".join(self.problems))
        p = self.problems[problem]
        token = None
        if isinstance(row, str) and row in p.asked_rows:
            token = row
        elif isinstance(row, int) and not isinstance(row, bool) and 0 <= row < len(p.tokens) and p.tokens[row] in p.asked_rows:
            token = p.tokens[row]
        if token is None:
            raise RequestError(404, "live.error.unknown_row", problem=problem, row=_shown(row), rows=", ".join(p.asked_rows))
        if not isinstance(stage, str) or stage not in p.asked_stages:
            raise RequestError(404, "live.error.unknown_stage", problem=problem, stage=_shown(stage), stages=", ".join(p.asked_stages))
        return Item(problem, token, 0 if p.kind == "sampling" else p.row_index(token), stage)  # a sampling problem has no rows

    def values(self, item: Item, text: str) -> list[float] | tuple:
        """The row typed, in full (the quiz's and grade's rule); a sentence (422) when it cannot be read.
        A sampling stage: its cells as the quiz reads them (:func:`attn_tutor.quiz.sampling.parse_answer`:
        numbers in token order, a cut token typed as 0; ``pick`` the token)."""
        if len(text) > TEXT_LIMIT:
            raise RequestError(413, "live.error.text_too_long", count=len(text), limit=TEXT_LIMIT)
        solution = self.solution(item)
        try:
            if solution.problem.kind == "sampling":
                return sampling_quiz.parse_answer(solution, item.stage, text)
            return parse_answer(solution, item.index, item.stage, text)
        except AttnTutorError as error:
            raised = RequestError(422, error.problems[0].key)
            raised.problems = list(error.problems)  # the parser's own sentence
            raise raised from None

    def mark(self, item: Item, text: str, others: Mapping[str, str]) -> ServerMark:
        """``text`` for ``item``, marked as grade marks the row: with ``others`` (stage -> the text the
        student last saved for the row's other stages)."""
        answers: dict[str, list[float] | tuple | None] = {}
        p = self.problems[item.problem]
        for stage in p.asked_stages:
            if stage == item.stage:
                answers[stage] = self.values(item, text)
            elif stage in others:
                try:
                    answers[stage] = self.values(item._replace(stage=stage), others[stage])
                except RequestError:
                    answers[stage] = None
        with self._lock:
            items = self.marker.row(self.solution(item), item.index, answers, mode="exam")
        marked = next(one for one in items if one.stage == item.stage)
        return ServerMark(marked.verdict, marked.diagnosis, float(marked.points))


    def concept(self, concept) -> ShownConcept:
        """The concept item a request names (its id), as the page shows it; else a 404 sentence."""
        if not isinstance(concept, str) or concept not in self.concepts:
            raise RequestError(404, "live.error.unknown_concept", concept=_shown(concept), ids=", ".join(self.concepts) or "-")
        return self.concepts[concept]

    def mark_concept(self, shown: ShownConcept, text: str) -> ConceptMark:
        """The choice ``text`` marked as grade marks it; a blank or unreadable choice is a 422 sentence."""
        if not text.strip():
            raise RequestError(422, "live.error.concept_blank")
        mark = mark_concept(shown, text)
        if mark.problem is not None:  # the marker's own sentence
            raise RequestError(422, mark.problem, first=shown.labels[0], last=shown.labels[-1], count=len(shown.labels))
        return mark


def _shown(value) -> str:
    """A value from a request, short and printable, for a sentence."""
    return excerpt(str(value)) if isinstance(value, str | int) else type(value).__name__
