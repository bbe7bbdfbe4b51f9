"""Seeded ``kind: sampling`` problems, and fair variants of a given one (the kind's ``generate`` job).

* :func:`random_problem` makes a fresh practice problem (``generate --kind sampling``): 3 to 6
  candidate next tokens, one group of Korean or English words (:data:`WORD_GROUPS`, kept in the
  group's order), logits in tenths within -3…4 and within ±4·T (so |z/T| ≤ 4 and e^x ≤ 54.6), a
  temperature of :data:`TEMPERATURES`, top-k, top-p (:data:`TOP_PS`) or neither, greedy or a draw u
  of two decimals, a target token; every stage is asked (``kept`` when it truncates). Id ``random-{seed}``.
* :func:`variant` gives a problem new logits (and a new draw) and keeps everything else: id, title,
  tokens, temperature, top_k, top_p, whether it draws, the targets, stages, decimals, tolerance.
* :func:`givens`, :func:`answer_key` and :func:`largest` tell sheets apart and sum them up
  (:mod:`attn_tutor.variants.fairness` hands a sampling problem to them).

Every number comes from :class:`attn_tutor.variants.stream.Stream` (no numpy, no ``random``):
a random problem's attempt ``a`` from ``("sampling-random", seed, tokens, a)``, a variant's from
``("sampling-variant", seed, problem.id, a)``, so a variant depends on its seed and the problem's id
only, never on the problem's place in its set. A random problem that breaks the rule below is
drawn again from the next attempt's stream (:data:`RANDOM_ATTEMPTS` of them); a variant's attempt
draws u, then each step's logits up to :data:`STEP_TRIES` times until they keep the rule at that
step (:data:`VARIANT_ATTEMPTS` attempts). After them an :class:`AttnTutorError` says so.

**The rule** (:func:`unfair` names the first part a draw breaks; :func:`unlike` the first part of
"like its source"; ``benchmarks/sampling_variants.py`` counts how often each refuses a draw). Write d for the problem's
decimals, u = 10^-d, gap = max(u, the problem's tolerance), and s = u/2, the most one probability
rounded to d places is off (a sum of m of them: m·s). At every step:

* **distinct** — the logits are pairwise distinct;
* **greedy** — (a problem that picks) the largest probability exceeds the next by more than gap;
* **top-k** — the k-th largest probability exceeds the (k+1)-th by more than gap;
* **top-p** — with m tokens kept (c_j: the sum of the j largest probabilities; c_m the first to
  reach p): c_m − p > gap + m·s; p − c_(m−1) > max(:data:`WELL_BELOW`, gap + (m−1)·s) (c_0 = 0);
  and the m-th largest probability exceeds the (m+1)-th by more than gap;
* **draw** — u stands more than gap + K·s from every edge of the K kept tokens' intervals inside
  (0, 1), so a student who adds up the kept probabilities as the key shows them (rounded) reads
  the same token;
* **ties** — no asked number (the scaled logits, e^x — both e^(z/T) and e^(z/T − max) —, the
  probabilities, the kept ones, the loss, the perplexity) within a hundredth of a unit of a
  rounding tie at d places (:func:`attn_tutor.core.rounding.near_tie`).

A random problem is also **hand-sized**: every probability from :data:`MIN_P` to :data:`MAX_P`,
and its top-p keeps more than one token and fewer than all (:func:`random_verdict`).
A variant is also **like its source** (:func:`facts`):

* **range** — its logits are drawn in the source's granularity (its logits' places, at most
  :data:`MAX_PLACES`) from the source's range widened by T/2 each side (the scaled logits stay
  within half a unit of the source's range), and at least :data:`MIN_POINTS` points a token wide
  (widened further, evenly, where it is not: the chapter's (2, 1, 0) at T = 0.5 draws from −2…4,
  so a variant's largest e^x may reach e^8 where the source's is e^4 — the probabilities, the
  peak and the loss are held, not the size of e^x); the logits differ from the source's;
* **peak** — each step's largest probability within ±:data:`PEAK_BAND` of the source's;
* **loss** — each step's loss within [L/:data:`LOSS_FACTOR` − :data:`LOSS_SLACK`,
  L·:data:`LOSS_FACTOR` + :data:`LOSS_SLACK`] of the source's L, and its target is the most likely
  token exactly when the source's is (so the perplexity is in the source's band too);
* **kept** — top-p keeps as many tokens as the source's (top-k keeps k by itself);
* **pick** — a new draw (the source's places, at least two, from one unit to 1 − one unit) picks
  the most likely kept token exactly when the source's draw does.

Deterministic: the checks use float arithmetic on the drawn numbers, their thresholds far from a
float's last bits, so one seed gives one problem everywhere.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.rounding import fmt, near_tie
from attn_tutor.kinds.sampling import engine
from attn_tutor.kinds.sampling.model import STAGES, SamplingProblem, Step
from attn_tutor.variants.stream import Stream, check_seed

WORD_GROUPS: tuple[tuple[str, ...], ...] = (
    ("생선을", "우유를", "밥을", "사과를", "빵을", "고기를"),  # 고양이가 ___ 먹었다
    ("학교에", "공원에", "집에", "시장에", "도서관에", "바다에"),  # 오늘 ___ 갔다
    ("책을", "편지를", "신문을", "시를", "소설을", "만화를"),  # 어제 ___ 읽었다
    ("친구를", "선생님을", "동생을", "이웃을", "가족을", "손님을"),  # 공원에서 ___ 만났다
    ("fish", "milk", "bread", "rice", "cheese", "apples"),  # the cat ate the ___
    ("school", "park", "home", "market", "library", "beach"),  # we walked to the ___
    ("book", "letter", "poem", "story", "paper", "song"),  # she wrote a ___
)
"""Candidate next tokens for random problems: each group one slot of a sentence."""

CANDIDATES = (3, 6)  # candidate tokens of a random problem (drawn when not given)
TOKENS_MOST = min(len(group) for group in WORD_GROUPS)
TEMPERATURES = (0.5, 0.8, 1.0, 1.5, 2.0)
TOP_PS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.9)
LOGITS = (-30, 40)  # a random problem's logits, in tenths
SCALED_MOST = 4.0  # |z/T| of a random problem
MIN_P, MAX_P = 0.01, 0.9  # a random problem's probabilities

WELL_BELOW = 0.02
PEAK_BAND = 0.15
LOSS_FACTOR = 2.0
LOSS_SLACK = 0.05
MAX_PLACES = 2
MIN_POINTS = 2  # grid points a token, at least, in a variant's range

RANDOM_ATTEMPTS = 500
VARIANT_ATTEMPTS = 200
STEP_TRIES = 50  # logits drawn for one step of an attempt


# --- the rule ------------------------------------------------------------------------


def _margins(problem: SamplingProblem) -> tuple[float, float]:
    unit = 10.0**-problem.decimals
    return max(unit, problem.tolerance or 0.0), unit / 2


def _by_size(probabilities) -> list[float]:
    return sorted(probabilities, reverse=True)


def _top_p_clear(problem: SamplingProblem, ordered: list[float], gap: float, s: float) -> bool:
    p = problem.top_p
    assert p is not None
    total, m = 0.0, 0
    for q in ordered:
        before = total
        total += q
        m += 1
        if total >= p - engine.EDGE:
            break
    if total - p <= gap + m * s or p - before <= max(WELL_BELOW, gap + (m - 1) * s):
        return False
    return m == len(ordered) or ordered[m - 1] - ordered[m] > gap


def _draw_clear(problem: SamplingProblem, step: engine.StepSolution, gap: float, s: float) -> bool:
    if problem.draw is None:
        return True
    spans = [span for span in step.intervals if span is not None]
    edges = [high for _, high in spans[:-1]]
    return all(abs(problem.draw - edge) > gap + len(spans) * s for edge in edges)


def _step_numbers(asked: tuple[str, ...], step: engine.StepSolution) -> list[float]:
    numbers: list[float] = []
    if "scaled" in asked:
        numbers += step.scaled
    if "exp" in asked:
        numbers += step.exps + step.shifted
    if "probabilities" in asked:
        numbers += step.probabilities
    if "kept" in asked:
        numbers += [v for v in step.kept if v is not None]
    if "loss" in asked and step.loss is not None:
        numbers.append(step.loss)
    return numbers


def _tied(problem: SamplingProblem, numbers) -> bool:
    return any(not math.isfinite(v) or near_tie(v, problem.decimals) for v in numbers)


def unfair_step(problem: SamplingProblem, step: engine.StepSolution) -> str | None:
    """The first part of the rule's clear checks (module docstring) one step breaks, or None."""
    gap, s = _margins(problem)
    if len(set(step.logits)) < len(step.logits):
        return "distinct"
    ordered = _by_size(step.probabilities)
    if not problem.continuation and ordered[0] - ordered[1] <= gap:
        return "greedy"
    k = problem.top_k
    if k is not None and k < len(ordered) and ordered[k - 1] - ordered[k] <= gap:
        return "top_k"
    if problem.top_p is not None and not _top_p_clear(problem, ordered, gap, s):
        return "top_p"
    if not _draw_clear(problem, step, gap, s):
        return "draw"
    if _tied(problem, _step_numbers(problem.asked_stages, step)):
        return "ties"
    return None


def unfair(problem: SamplingProblem, solution: engine.SamplingSolution | None = None) -> str | None:
    """The first part of the rule's clear checks (module docstring) ``problem`` breaks, or None."""
    solution = solution or engine.solve(problem)
    for step in solution.steps:
        broken = unfair_step(problem, step)
        if broken is not None:
            return broken
    if "perplexity" in problem.asked_stages and solution.perplexity is not None and _tied(problem, [solution.perplexity]):
        return "ties"
    return None


def _hand_sized(solution: engine.SamplingSolution) -> bool:
    return all(MIN_P <= p <= MAX_P for step in solution.steps for p in step.probabilities)


# --- the source's character ----------------------------------------------------------


class Grid(NamedTuple):
    """Where a variant's logits come from: ``low..high`` in units of ``10^-places``."""

    low: int
    high: int
    places: int


class StepFacts(NamedTuple):
    peak: float  # the largest probability
    loss: float | None
    target_on_top: bool | None  # the target is the most likely token
    kept: int  # how many tokens top-k or top-p keeps
    draw_greedy: bool | None  # the draw picks the most likely kept token


class Facts(NamedTuple):
    """What a variant of one source problem keeps (module docstring, "like its source")."""

    grid: Grid
    steps: tuple[StepFacts, ...]
    draw_places: int | None


def _places(values) -> int:
    for places in range(MAX_PLACES + 1):
        if all(abs(v * 10**places - round(v * 10**places)) < 1e-9 for v in values):
            return places
    return MAX_PLACES


def _step_facts(step: engine.StepSolution) -> StepFacts:
    top = engine.ranked(step.probabilities)[0]
    kept = sum(1 for v in step.kept if v is not None)
    greedy = engine.ranked(step.kept)[0]
    return StepFacts(
        peak=max(step.probabilities),
        loss=step.loss,
        target_on_top=None if step.target is None else step.target == top,
        kept=kept,
        draw_greedy=step.pick == greedy,
    )


@functools.lru_cache(maxsize=64)
def facts(problem: SamplingProblem) -> Facts:
    """What a variant of ``problem`` keeps: its grid of logits, and each step's peak, loss and cut."""
    logits = [z for step in problem.steps for z in step.logits]
    places = _places(logits)
    scale = 10**places
    widen = problem.temperature / 2
    low = math.floor(round((min(logits) - widen) * scale, 6))
    high = math.ceil(round((max(logits) + widen) * scale, 6))
    short = MIN_POINTS * len(problem.tokens) - (high - low + 1)
    if short > 0:
        low, high = low - (short + 1) // 2, high + (short + 1) // 2
    solution = engine.solve(problem)
    draw_places = None if problem.draw is None else max(2, _places([problem.draw]))
    return Facts(Grid(low, high, places), tuple(_step_facts(step) for step in solution.steps), draw_places)


def _loss_band(loss: float) -> tuple[float, float]:
    return loss / LOSS_FACTOR - LOSS_SLACK, loss * LOSS_FACTOR + LOSS_SLACK


def unlike_step(problem: SamplingProblem, step: engine.StepSolution, want: StepFacts) -> str | None:
    """The first part of the "like its source" checks one step of a variant breaks, or None."""
    have = _step_facts(step)
    if abs(have.peak - want.peak) > PEAK_BAND:
        return "peak"
    if want.loss is not None and have.loss is not None:
        low, high = _loss_band(want.loss)
        if not low <= have.loss <= high or have.target_on_top != want.target_on_top:
            return "loss"
    if have.kept != want.kept:
        return "kept"
    if problem.draw is not None and have.draw_greedy != want.draw_greedy:
        return "pick"
    return None


def unlike(problem: SamplingProblem, source: Facts, solution: engine.SamplingSolution | None = None) -> str | None:
    """The first part of the "like its source" checks ``problem`` (a variant) breaks, or None."""
    solution = solution or engine.solve(problem)
    return next((broken for step, want in zip(solution.steps, source.steps) if (broken := unlike_step(problem, step, want))), None)


# --- drawing -------------------------------------------------------------------------


def _distinct(stream: Stream, n: int, low: int, high: int) -> list[int]:
    """``n`` distinct integers of low..high, in the order drawn."""
    picked = stream.sample(high - low + 1, n)
    return [low + v for v in picked]


def _logits(units: list[int], places: int) -> tuple[float, ...]:
    return tuple(v / 10**places for v in units)


def draw_u(stream: Stream, places: int) -> float:
    """A draw u of ``places`` decimals, from one unit to 1 − one unit."""
    scale = 10**places
    return stream.integer(1, scale - 1) / scale


def random_draw(seed: int, tokens: int | None, problem_id: str, attempt: int) -> SamplingProblem:
    """Attempt ``attempt`` of :func:`random_problem`, before any check."""
    stream = Stream("sampling-random", seed, tokens, attempt)
    group = WORD_GROUPS[stream.below(len(WORD_GROUPS))]
    n = tokens if tokens is not None else stream.integer(*CANDIDATES)
    names = tuple(group[i] for i in sorted(stream.sample(len(group), n)))
    temperature = TEMPERATURES[stream.below(len(TEMPERATURES))]
    reach = math.floor(SCALED_MOST * temperature * 10 + 1e-9)
    low, high = max(LOGITS[0], -reach), min(LOGITS[1], reach)
    logits = _logits(_distinct(stream, n, low, high), 1)
    cut = stream.below(3) if n >= 3 else 0
    top_k = stream.integer(2, n - 1) if cut == 1 else None
    top_p = TOP_PS[stream.below(len(TOP_PS))] if cut == 2 else None
    draw = draw_u(stream, 2) if stream.below(2) else None
    target = names[stream.below(n)]
    ask = tuple(stage for stage in STAGES if stage != "kept" or cut)
    return SamplingProblem(
        id=problem_id, tokens=names, steps=(Step(logits, target),), temperature=temperature,
        top_k=top_k, top_p=top_p, draw=draw, ask=ask,
    )  # fmt: skip


def random_problem(seed: int, *, tokens: int | None = None, problem_id: str | None = None) -> SamplingProblem:
    """A fresh sampling problem of ``tokens`` candidates (None: 3 to 6, drawn) that keeps the rule."""
    check_seed(seed)
    if tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int) or not 2 <= tokens <= TOKENS_MOST):
        raise UsageError("generate.sampling.bad_tokens", tokens=tokens, least=2, most=TOKENS_MOST)
    made_id = problem_id if problem_id is not None else f"random-{seed}"
    for attempt in range(RANDOM_ATTEMPTS):
        problem = random_draw(seed, tokens, made_id, attempt)
        if random_verdict(problem) is None:
            return problem
    raise AttnTutorError("generate.sampling.no_problem", seed=seed, attempts=RANDOM_ATTEMPTS)


def random_verdict(problem: SamplingProblem) -> str | None:
    """Why a random draw is drawn again (None: it is kept): ``cut`` (top-p keeps one token or every
    one: it asks nothing), ``hand_sized`` (a probability outside :data:`MIN_P`…:data:`MAX_P`), or
    the part of the rule it breaks (:func:`unfair`)."""
    solution = engine.solve(problem)
    kept = sum(1 for v in solution.step.kept if v is not None)
    if problem.top_p is not None and not 1 < kept < len(problem.tokens):
        return "cut"
    if not _hand_sized(solution):
        return "hand_sized"
    return unfair(problem, solution)


def _step_like(stream: Stream, problem: SamplingProblem, index: int, source: Facts) -> Step | None:
    """Step ``index`` with new logits that keep the rule and its source's facts, tried
    :data:`STEP_TRIES` times from ``stream``; None when none does."""
    step = problem.steps[index]
    for _ in range(STEP_TRIES):
        logits = draw_logits(stream, len(problem.tokens), source.grid)
        if step_verdict(problem, logits, index, source) is None:
            return step._replace(logits=logits)
    return None


def draw_logits(stream: Stream, n: int, grid: Grid) -> tuple[float, ...]:
    """``n`` distinct logits from ``grid``."""
    return _logits(_distinct(stream, n, grid.low, grid.high), grid.places)


def step_verdict(problem: SamplingProblem, logits: tuple[float, ...], index: int, source: Facts) -> str | None:
    """Why step ``index`` of a variant with these logits is drawn again (None: kept): the first part of
    the rule it breaks, "like its source" first."""
    solved = engine.solve_step(problem, logits, problem.steps[index].target)
    return unlike_step(problem, solved, source.steps[index]) or unfair_step(problem, solved)


def variant(problem: SamplingProblem, seed: int) -> SamplingProblem:
    """``problem`` with new logits (and a new draw) drawn from ``(seed, problem.id)`` that keep the rule.

    Attempt ``a`` draws the draw first, then each step in turn (up to :data:`STEP_TRIES` logits a
    step, the first that keeps the rule at that step), from the stream ``("sampling-variant", seed,
    problem.id, a)``; the whole is kept when it differs from the source and keeps the rule."""
    check_seed(seed)
    source = facts(problem)
    for attempt in range(VARIANT_ATTEMPTS):
        stream = Stream("sampling-variant", seed, problem.id, attempt)
        draw = draw_u(stream, source.draw_places) if source.draw_places is not None else None
        drawn = problem._replace(draw=draw)
        steps: list[Step] = []
        for index in range(len(problem.steps)):
            step = _step_like(stream, drawn, index, source)
            if step is None:
                break
            steps.append(step)
        else:
            candidate = drawn._replace(steps=tuple(steps))
            if candidate.steps != problem.steps and unfair(candidate) is None:
                return candidate
    raise AttnTutorError("generate.sampling.no_fair_variant", id=problem.id, seed=seed, attempts=VARIANT_ATTEMPTS)


# --- sheets --------------------------------------------------------------------------


def givens(problem: SamplingProblem) -> tuple:
    """A problem's given numbers (each step's logits, the draw), to tell two variants apart."""
    return (tuple(step.logits for step in problem.steps), problem.draw)


def answer_key(problem: SamplingProblem) -> tuple:
    """Per asked stage, its answers at the asked decimals (``pick``: the token; a cut token: —)."""
    solution = engine.solve(problem)
    key = []
    for stage in problem.asked_stages:
        cells = tuple(v if isinstance(v, str) else fmt(v, problem.decimals) for v in solution.stage_values(stage))
        key.append((stage, cells))
    return tuple(key)


def largest(problem: SamplingProblem) -> tuple[float, float]:
    """The largest probability and the largest e^(z/T) over the steps."""
    solution = engine.solve(problem)
    return (
        max(p for step in solution.steps for p in step.probabilities),
        max(e for step in solution.steps for e in step.exps),
    )
