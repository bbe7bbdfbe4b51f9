"""Whether a variant is the same test as its source problem: checked on the solved numbers.

:func:`attn_tutor.variants.generate.variant` draws a variant's entries from the source's own
range and granularity, then keeps it only if :func:`is_fair` holds against
:func:`source_facts` of the source. Over the asked rows and asked stages:

* **band** — every unmasked scaled score, of every query row (asked or not), lies
  within the source's band widened by 0.5 (and at least -1.5…1.5), so e^x stays as
  hand-computable as the source's;
* **ties** — no asked cell lies within a hundredth of a displayed unit of a
  rounding tie: ``|v·10^d − (⌊v·10^d⌋ + 0.5)| >= 0.01`` (d: the problem's
  decimals), so rounding half up or half to even, from the exact value or from a
  calculator's 8 digits, gives the answer key's digits;
* **weights** — no weights row rounds (to d places) to one-hot, or is uniform, unless
  the source's same row does (rows with a single open key excepted);
* **values** — no output row comes out the same whatever the weights (the v rows
  of the keys the row may see all equal) unless the source's does;
* **mistakes** — every diagnosis that changes the source's numbers clearly (its row from the
  exact work stands more than the tolerance plus the rounding error from every right answer; see
  :func:`attn_tutor.marking.mistakes.mistake_margins`) stands more than the tolerance plus the
  rounding error of the asked decimals from every right answer in the variant, so
  the mistake can always be told from correct work;
* **concepts** — every computed concept item about the problem has one right option with a
  clear margin (:func:`clear_answer`): its deciding value differs from every other option's at
  the problem's decimals and by more than the weights stage's tolerance, so a student who
  rounds as asked cannot reach another option (checked by :func:`unclear_item`, a variant
  being drawn against the concept items of its set).

:func:`concept_findings` says the same of a set as written (``validate``).

:func:`summary` gives the figures ``export --variants`` prints: the range, over the
sheets, of each sheet's largest weight and largest e^x.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

from attn_tutor.core.errors import Finding, Location
from attn_tutor.core.model import Concept, Problem, ProblemSet
from attn_tutor.core.rounding import fmt, near_tie
from attn_tutor.kinds.sampling import generate as sampling
from attn_tutor.kinds.sampling.model import SamplingProblem
from attn_tutor.marking import marker, tolerance
from attn_tutor.marking.mistakes import half_up, mistake_margins
from attn_tutor.solve import concepts as concept_items
from attn_tutor.solve import engine

BAND_SLACK = 0.5
MIN_BAND = 1.0


class Facts(NamedTuple):
    """What a variant of one source problem must keep."""

    band: tuple[float, float]  # the scaled scores' allowed range
    one_hot: frozenset  # (row, head) whose weights round to one-hot in the source
    uniform: frozenset  # (row, head) whose weights are uniform in the source
    mistakes: dict  # (row, stage) -> the codes (and ("rounding", kind, places)) that change the source's numbers
    flat: frozenset = frozenset()  # (row, head) whose output needs no weights in the source


def _asked_rows(problem: Problem) -> list[int]:
    return [problem.row_index(token) for token in problem.asked_rows]


def _scaled_range(solution) -> tuple[float, float]:
    """The smallest and largest unmasked scaled score over every query row (asked or not: the
    worked solution and the page show them all)."""
    values = [
        float(v)
        for head in solution.heads
        for row in range(len(solution.problem.tokens))
        for v, open_ in zip(head.scaled[row], head.mask[row])
        if open_
    ]
    return min(values), max(values)


def _weight_shapes(solution) -> tuple[set, set]:
    import numpy as np
    decimals = solution.problem.decimals
    one_hot, uniform = set(), set()
    for h, head in enumerate(solution.heads):
        for row in _asked_rows(solution.problem):
            open_ = head.mask[row]
            if open_.sum() < 2:
                continue
            weights = head.weights[row][open_]
            rounded = half_up(weights, decimals)
            if np.sum(rounded == 1.0) == 1 and np.sum(rounded == 0.0) == rounded.size - 1:
                one_hot.add((row, h))
            if np.ptp(weights) <= 1e-12:
                uniform.add((row, h))
    return one_hot, uniform


def _flat_values(solution) -> set:
    """(row, head) of asked rows whose output is the same whatever the weights: equal v rows over the open keys."""
    import numpy as np
    flat = set()
    for h, head in enumerate(solution.heads):
        if head.V is None:
            continue
        for row in _asked_rows(solution.problem):
            open_ = head.mask[row]
            if open_.sum() < 2:
                continue
            if np.all(np.ptp(head.V[open_], axis=0) <= 1e-12):
                flat.add((row, h))
    return flat


@functools.lru_cache(maxsize=64)
def source_facts(problem: Problem) -> Facts:
    solution = engine.solve(problem)
    low, high = _scaled_range(solution)
    band = (min(low, -MIN_BAND) - BAND_SLACK, max(high, MIN_BAND) + BAND_SLACK)
    one_hot, uniform = _weight_shapes(solution)
    mistakes = {}
    for row in _asked_rows(problem):
        for stage in problem.asked_stages:
            # What a variant must keep (is_fair): a mistake the source shows clearly, beyond the window and
            # the rounding error together; one closer than that the source itself does not set apart.
            limit = marker.stage_tolerance(problem, stage) + tolerance.rounding_error(problem, stage)
            margins = mistake_margins(solution, row, stage)
            mistakes[(row, stage)] = frozenset(code for code, margin in margins.items() if margin > limit)
    return Facts(band, frozenset(one_hot), frozenset(uniform), mistakes, frozenset(_flat_values(solution)))


def _matmul(a, b):
    return [[sum(x * b[k][j] for k, x in enumerate(row)) for j in range(len(b[0]))] for row in a]


def in_band(problem: Problem, facts: Facts) -> bool:
    """The band rule alone, in plain Python (cheaper than solving: most unfair draws fail here)."""
    mask = problem.mask_matrix()
    low, high = facts.band
    for head in problem.heads:
        if head.projected:
            Q, K = _matmul(problem.X, head.W_Q), _matmul(problem.X, head.W_K)
        else:
            Q, K = head.Q, head.K
        divisor = float(problem.divide_by) if problem.divide_by is not None else math.sqrt(len(Q[0]))
        for row in range(len(problem.tokens)):  # every row, as _scaled_range
            q = Q[row]
            for j, k in enumerate(K):
                if mask[row][j]:
                    scaled = sum(a * b for a, b in zip(q, k)) / divisor
                    if not low - 1e-9 <= scaled <= high + 1e-9:
                        return False
    return True


def is_fair(problem: Problem, facts: Facts) -> bool:
    """Whether ``problem`` (a variant) keeps what ``facts`` (of its source) describe; see the module docstring."""
    if not in_band(problem, facts):
        return False
    solution = engine.solve(problem)
    low, high = _scaled_range(solution)
    if low < facts.band[0] or high > facts.band[1]:
        return False
    rows = _asked_rows(problem)
    for row in rows:
        for stage in problem.asked_stages:
            exact = solution.stage_row(stage, row)
            marked = marker.marked_cells(solution, row, stage)
            if any(near_tie(float(v), problem.decimals) for v, m in zip(exact, marked) if m):
                return False
    one_hot, uniform = _weight_shapes(solution)
    if not one_hot <= facts.one_hot or not uniform <= facts.uniform:
        return False
    if not _flat_values(solution) <= facts.flat:
        return False
    for row in rows:
        for stage in problem.asked_stages:
            wanted = facts.mistakes.get((row, stage), frozenset())
            if not wanted:
                continue
            needed = marker.stage_tolerance(problem, stage) + tolerance.rounding_error(problem, stage)
            codes = {code for code in wanted if isinstance(code, str)}
            roundings = frozenset(code[1:] for code in wanted if not isinstance(code, str))
            margins = mistake_margins(solution, row, stage, codes, roundings)
            if any(margins.get(code, 0.0) <= needed for code in codes):
                return False  # "rounding" itself: some early rounding the source shows is still visible
    return True


def clear_answer(concept: Concept, problem: Problem) -> bool:
    """Whether computed item ``concept`` has one right option in ``problem``'s numbers with a clear
    margin: not equal to another option's at the problem's decimals, and further from each than the
    weights stage's tolerance (:func:`attn_tutor.marking.tolerance.tolerance`)."""
    margin = concept_items.answer_margin(concept, problem)
    return margin.distinct and margin.gap > tolerance.tolerance(problem, "weights")


def unclear_item(problem: Problem, items: tuple[Concept, ...]) -> Concept | None:
    """The first computed item of ``items`` about ``problem`` without a clear answer in its numbers (None: every one has one)."""
    return next((c for c in items if c.kind == "computed" and c.problem == problem.id and not clear_answer(c, problem)), None)


def concept_findings(problem_set: ProblemSet) -> list[Finding]:
    """``validate``: a finding for each computed item whose answer, from the file's own numbers, is a
    tie (:func:`attn_tutor.solve.concepts.tie_findings`) or stands within the weights stage's
    tolerance of another option (a student's rounding could reach either)."""
    findings = concept_items.tie_findings(problem_set)
    tied = {finding.args["path"] for finding in findings}
    for index, concept in enumerate(problem_set.concepts):
        if concept.kind != "computed" or f"concepts[{index}]" in tied:
            continue
        # the type: ignore below: a computed concept names its problem (the loader checks)
        problem = problem_set.get(concept.problem)  # type: ignore[arg-type]
        margin = concept_items.answer_margin(concept, problem)
        limit = tolerance.tolerance(problem, "weights")
        if margin.other is None or (margin.distinct and margin.gap > limit):
            continue
        options = concept_items.work(concept, problem).options
        args = dict(
            path=f"concepts[{index}]", problem=problem.id, right=options[margin.right], other=options[margin.other],
            gap=fmt(margin.gap, problem.decimals + 1), tolerance=fmt(limit, problem.decimals + 1),
        )  # fmt: skip
        findings.append(Finding("problems.concept_margin", args, Location(problem_set.source, concept.line)))
    return findings


def givens(problem: Problem | SamplingProblem) -> tuple:
    """A problem's given numbers (X and every head's matrices; a sampling problem's logits and draw),
    to tell two variants apart."""
    if isinstance(problem, SamplingProblem):
        return sampling.givens(problem)
    return (problem.X, tuple((h.Q, h.K, h.V, h.W_Q, h.W_K, h.W_V) for h in problem.heads))


def answer_key(problem: Problem | SamplingProblem) -> tuple:
    """Per asked stage, the asked rows' marked cells at the asked decimals (as the key prints them);
    weights rows with a single open key (always 1) are left out: no numbers can change them.
    A sampling problem's: :func:`attn_tutor.kinds.sampling.generate.answer_key`."""
    if isinstance(problem, SamplingProblem):
        return sampling.answer_key(problem)
    solution = engine.solve(problem)
    key = []
    for stage in problem.asked_stages:
        cells: list[str] = []
        for row in _asked_rows(problem):
            if stage == "weights" and all(int(head.mask[row].sum()) < 2 for head in solution.heads):
                continue
            marked = marker.marked_cells(solution, row, stage)
            cells.extend(fmt(float(v), problem.decimals) for v, m in zip(solution.stage_row(stage, row), marked) if m)
        key.append((stage, tuple(cells)))
    return tuple(key)


def same_answers(a: tuple, b: tuple) -> bool:
    """Whether two variants' answer keys are the same: every asked stage's answers alike at the asked
    decimals (two students' keys never read alike). One stage alike is allowed: a stage of small
    whole numbers (the scores of 0/1 matrices) repeats often, and refusing it left the packaged set
    with 77 variants of the 999 a batch may ask for."""
    return any(cells for _, cells in a) and a == b


class Summary(NamedTuple):
    """The range over sheets of each sheet's largest weight and largest e^x (asked rows)."""

    weight: tuple[float, float]
    exp: tuple[float, float]


def largest(problems) -> tuple[float, float]:
    """The largest weight and the largest e^x over the asked rows of ``problems`` (a sampling
    problem's largest probability and largest e^(z/T) count as its weight and e^x)."""
    import numpy as np
    weight = exp = 0.0
    for problem in problems:
        if isinstance(problem, SamplingProblem):
            weight, exp = (max(old, new) for old, new in zip((weight, exp), sampling.largest(problem)))
            continue
        solution = engine.solve(problem)
        for head in solution.heads:
            for row in _asked_rows(problem):
                weight = max(weight, float(np.max(head.weights[row])))
                exp = max(exp, float(np.max(head.exps[row])))
    return weight, exp


def summary(problem_sets) -> Summary:
    figures = [largest(problem_set.problems) for problem_set in problem_sets]
    weights, exps = [f[0] for f in figures], [f[1] for f in figures]
    return Summary((min(weights), max(weights)), (min(exps), max(exps)))
