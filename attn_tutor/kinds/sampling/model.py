"""A sampling problem as a record: the candidates' logits at one step (or several steps of a
continuation), the temperature, the truncation, the draw and the target.

The stages a student works, in order (docs/reference.md, "kind: sampling")::

    scaled         z / T                       one number a token
    exp            e^(z/T)  (or e^(z/T - max): the same probabilities, as correct)
    probabilities  e^x / Σ e^x
    kept           top-k or top-p, renormalised: {token: probability}
    pick           the token chosen: greedy, or the one whose interval holds the draw u
    loss           -ln p(target), p from the probabilities (before truncation)

A problem of several ``steps`` (a continuation, one target a step) has two stages: ``loss``
(one a step) and ``perplexity`` (e to the mean loss).
"""

from __future__ import annotations

from typing import NamedTuple

KIND = "sampling"

STAGES: tuple[str, ...] = ("scaled", "exp", "probabilities", "kept", "pick", "loss")
STEPS_STAGES: tuple[str, ...] = ("loss", "perplexity")
DEFAULT_STAGES: tuple[str, ...] = ("scaled", "probabilities", "pick")
ALL_STAGES: tuple[str, ...] = (*STAGES, "perplexity")
TOKEN_STAGES: tuple[str, ...] = ("scaled", "exp", "probabilities", "kept")  # a number for each token

CANDIDATES_MIN = 2  # candidate tokens a step
STEPS_MAX = 8  # steps of a continuation
SPAN_WARN = 10.0
"""Scaled logits further apart than this make e^x too wide to work by hand (e^10 ≈ 22026):
``validate`` warns."""
TEMPERATURE_MAX = 100.0


class Step(NamedTuple):
    """One next-token choice: a score for each candidate, and the token that came next."""

    logits: tuple[float, ...]
    target: str | None = None


class SamplingProblem(NamedTuple):
    """One sampling problem, checked and complete (defaults filled in)."""

    id: str
    tokens: tuple[str, ...]  # the candidates, in the order every list of numbers follows
    steps: tuple[Step, ...]  # one step, or a continuation's (written ``steps:``)
    temperature: float = 1.0
    top_k: int | None = None
    top_p: float | None = None
    draw: float | None = None  # u in [0, 1): None picks greedily
    ask: tuple[str, ...] | None = None  # None: DEFAULT_STAGES (a continuation: both of STEPS_STAGES)
    title: str | None = None
    decimals: int = 3
    tolerance: float | None = None
    continuation: bool = False  # written with ``steps:``
    line: int | None = None

    @property
    def kind(self) -> str:
        return KIND

    @property
    def logits(self) -> tuple[float, ...]:
        return self.steps[0].logits

    @property
    def target(self) -> str | None:
        return self.steps[0].target

    @property
    def stages(self) -> tuple[str, ...]:
        """The stages this problem has."""
        return STEPS_STAGES if self.continuation else STAGES

    @property
    def asked_stages(self) -> tuple[str, ...]:
        """The asked stages in order."""
        if self.ask is None:
            return STEPS_STAGES if self.continuation else DEFAULT_STAGES
        return tuple(stage for stage in ALL_STAGES if stage in self.ask)

    @property
    def asked_rows(self) -> tuple[str, ...]:
        """A sampling problem has no rows: its stages stand directly under its id."""
        return ("",)

    @property
    def truncation(self) -> str | None:
        return "top_k" if self.top_k is not None else "top_p" if self.top_p is not None else None
