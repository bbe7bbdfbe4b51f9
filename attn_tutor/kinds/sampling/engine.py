"""A sampling problem's numbers, stage by stage, as a student works them (pure Python: a
handful of tokens needs no numpy).

Each stage is one function of the stage before, so the marker carries a student's own row
through the same functions (follow-through) and the variants' fairness reads the same numbers.

The rules a student follows (docs/reference.md, "kind: sampling"):

- ``scaled`` z/T; ``exp`` e^(z/T) — or e^(z/T - max), subtracting the largest first, which
  gives the same probabilities and is as correct; ``probabilities`` e^x / Σ e^x.
- ``kept``: ``top_k`` keeps the k most likely tokens (a tie at the edge: the token listed first);
  ``top_p`` lists the tokens from the most likely down (ties: the token listed first) and keeps
  them until their probabilities add up to p or more; the kept probabilities are divided by
  their sum. Without either, every token is kept.
- ``pick``: without ``draw``, the most likely kept token (a tie: the one listed first); with a
  draw u, the kept tokens in the order they are listed cover [0, 1) with intervals as long as
  their kept probabilities, and the token whose interval [low, high) holds u is picked.
- ``loss`` -ln p(target), p from ``probabilities`` (before any truncation); a continuation's
  ``perplexity`` is e to the mean of its steps' losses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from attn_tutor.kinds.sampling.model import SamplingProblem

EDGE = 1e-12
"""How close a cumulative sum may come to ``top_p`` and still reach it (float sums of decimals)."""


class StepSolution(NamedTuple):
    """One step worked out: every stage's numbers."""

    logits: tuple[float, ...]
    scaled: tuple[float, ...]
    exps: tuple[float, ...]  # e^(z/T)
    shifted: tuple[float, ...]  # e^(z/T - max z/T): as correct
    exp_sum: float
    shifted_sum: float
    probabilities: tuple[float, ...]
    kept: tuple[float | None, ...]  # None: a token cut by top-k or top-p
    intervals: tuple[tuple[float, float] | None, ...]  # [low, high) of each kept token, in token order
    pick: int  # the index of the token picked
    target: int | None
    loss: float | None


class SamplingSolution(NamedTuple):
    problem: SamplingProblem
    steps: tuple[StepSolution, ...]
    perplexity: float | None  # a continuation's

    @property
    def kind(self) -> str:
        return "sampling"

    @property
    def step(self) -> StepSolution:
        return self.steps[0]

    def stage_values(self, stage: str) -> tuple:
        """A stage's expected cells, in token order (``pick``: the token; a continuation's ``loss``: a step each)."""
        step = self.step
        if stage == "loss":
            return tuple(s.loss for s in self.steps) if self.problem.continuation else (step.loss,)
        if stage == "perplexity":
            return (self.perplexity,)
        if stage == "pick":
            return (self.problem.tokens[step.pick],)
        return {"scaled": step.scaled, "exp": step.exps, "probabilities": step.probabilities, "kept": step.kept}[stage]


def scale(logits: Sequence[float], temperature: float) -> tuple[float, ...]:
    return tuple(z / temperature for z in logits)


def exponentials(scaled: Sequence[float], *, shift: bool = False) -> tuple[float, ...]:
    """e^x of each (``shift``: of x minus the largest); inf where e^x is past a float."""
    top = max(scaled) if shift else 0.0
    out = []
    for x in scaled:
        try:
            out.append(math.exp(x - top))
        except OverflowError:
            out.append(math.inf)
    return tuple(out)


def normalise(values: Sequence[float | None]) -> tuple[float | None, ...]:
    """Each value over their sum (None stays None)."""
    total = math.fsum(v for v in values if v is not None)
    if total == 0 or not math.isfinite(total):
        return tuple(None if v is None else math.nan for v in values)
    return tuple(None if v is None else v / total for v in values)


def softmax(scaled: Sequence[float]) -> tuple[float, ...]:
    """The probabilities from scaled logits (the largest subtracted first: never overflows)."""
    return normalise(exponentials(scaled, shift=True))  # type: ignore[return-value]


def ranked(probabilities: Sequence[float | None]) -> list[int]:
    """Token indices from the most likely down; a tie: the token listed first."""
    present = [i for i, p in enumerate(probabilities) if p is not None]
    return sorted(present, key=lambda i: (-probabilities[i], i))  # type: ignore[operator]


def kept_set(probabilities: Sequence[float], top_k: int | None, top_p: float | None, *, late: int = 0) -> set[int]:
    """The tokens top-k or top-p keeps (every token without either). ``late`` moves top-p's cut
    by that many tokens (a mistake's row: -1 one early, +1 one late)."""
    order = ranked(probabilities)
    if top_k is not None:
        return set(order[:top_k])
    if top_p is None:
        return set(order)
    total, count = 0.0, 0
    for i in order:
        total += probabilities[i]
        count += 1
        if total >= top_p - EDGE:
            break
    count = min(max(count + late, 1), len(order))
    return set(order[:count])


def truncate(probabilities: Sequence[float], keep: set[int], *, renormalise: bool = True) -> tuple[float | None, ...]:
    """The kept tokens' probabilities, divided by their sum (``renormalise``), None for the others."""
    cut = tuple(p if i in keep else None for i, p in enumerate(probabilities))
    return normalise(cut) if renormalise else cut


def intervals(kept: Sequence[float | None]) -> tuple[tuple[float, float] | None, ...]:
    """Each kept token's interval [low, high) of [0, 1), in token order."""
    out: list[tuple[float, float] | None] = []
    low = 0.0
    for p in kept:
        if p is None:
            out.append(None)
            continue
        out.append((low, low + p))
        low += p
    return tuple(out)


def pick(kept: Sequence[float | None], draw: float | None) -> int:
    """The index of the token picked: greedy without a draw, else the interval holding it."""
    present = [i for i, p in enumerate(kept) if p is not None]
    if draw is None:
        return ranked(kept)[0]
    for i, span in enumerate(intervals(kept)):
        if span is not None and draw < span[1]:
            return i
    return present[-1]


def loss(probability: float, base: float = math.e) -> float:
    """-log p (natural by default); inf for p = 0."""
    if probability <= 0:
        return math.inf
    return -math.log(probability) / math.log(base)


def perplexity(losses: Sequence[float]) -> float:
    mean = math.fsum(losses) / len(losses)
    try:
        return math.exp(mean)
    except OverflowError:
        return math.inf


def solve_step(problem: SamplingProblem, logits: tuple[float, ...], target: str | None) -> StepSolution:
    scaled = scale(logits, problem.temperature)
    exps = exponentials(scaled)
    shifted = exponentials(scaled, shift=True)
    probabilities: tuple[float, ...] = softmax(scaled)
    kept = truncate(probabilities, kept_set(probabilities, problem.top_k, problem.top_p))
    t = problem.tokens.index(target) if target is not None else None
    return StepSolution(
        logits=logits,
        scaled=scaled,
        exps=exps,
        shifted=shifted,
        exp_sum=math.fsum(exps),
        shifted_sum=math.fsum(shifted),
        probabilities=probabilities,
        kept=kept,
        intervals=intervals(kept),
        pick=pick(kept, problem.draw),
        target=t,
        loss=loss(probabilities[t]) if t is not None else None,
    )


def solve(problem: SamplingProblem) -> SamplingSolution:
    steps = tuple(solve_step(problem, step.logits, step.target) for step in problem.steps)
    ppl = None
    if problem.continuation:
        ppl = perplexity([s.loss for s in steps if s.loss is not None])
    return SamplingSolution(problem, steps, ppl)
