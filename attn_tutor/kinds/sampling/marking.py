"""A sampling problem's answers marked stage by stage, with follow-through and the mistakes named.

The rules are attention's (``marking/marker.py``): a cell is ``correct`` within the stage's
window of the exact value; ``follow_through`` within the same width of the value carried from
the student's own latest earlier stage (:func:`carry`, the engine's own functions); else
``wrong``. A stage's item earns the share of its cells right (follow-through at the marker's
credit); a wrong item is compared with each known mistake's row (:func:`mistake_rows`) and the
first that matches every cell names it.

Correct work is never a mistake: e^x worked as e^(z/T - max) (the largest subtracted first) is
marked against that row, and the probabilities from it are the same.

The window of a stage (``tolerance``) is the teacher's, or the farthest correct work reaches when
each earlier stage is carried exact or as displayed (rounded half up to ``decimals``), plus half
a displayed unit — as for attention (``marking/tolerance.py``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

from attn_tutor.core.model import Verdict
from attn_tutor.core.rounding import half_unit, rounded
from attn_tutor.kinds.sampling import engine
from attn_tutor.kinds.sampling.engine import SamplingSolution
from attn_tutor.kinds.sampling.model import ALL_STAGES, TOKEN_STAGES, SamplingProblem
from attn_tutor.marking.results import Item, verdict_of
from attn_tutor.marking.tolerance import window_floats

EPS = 1e-9
CODES = (
    "temperature_multiplied",
    "temperature_ignored",
    "temperature_after_softmax",
    "exp_not_normalized",
    "not_renormalized",
    "top_p_boundary",
    "top_k_tie",
    "ignored_draw",
    "draw_wrong_end",
    "log_base",
    "loss_sign",
)
"""The mistakes a sampling answer may be diagnosed with, each with its name and sentence
(``grading.diagnosis_name.<code>``, ``grading.diagnosis.<code>``)."""
_TEMPERATURE = ("temperature_multiplied", "temperature_ignored")
STAGE_CODES: dict[str, tuple[str, ...]] = {
    "scaled": _TEMPERATURE,
    "exp": _TEMPERATURE,
    "probabilities": (*_TEMPERATURE, "temperature_after_softmax", "exp_not_normalized"),
    "kept": ("not_renormalized", "top_p_boundary", "top_k_tie"),
    "pick": ("ignored_draw", "draw_wrong_end"),
    "loss": ("log_base", "loss_sign"),
    "perplexity": ("log_base",),
}
"""The mistakes each stage may be diagnosed with (:func:`mistake_rows`' codes), in :data:`CODES` order:
what the live class's map lists for a sampling stage."""

MESSAGE_PREFIXES = ("sampling.", "solve.sampling.", "quiz.sampling.", "slider.", "sampling_page.")
"""The catalogue's sections that are this kind's alone (the temperature slider's among them)."""
MESSAGE_KEYS = frozenset(
    [f"grading.diagnosis.{code}" for code in CODES]
    + [f"grading.diagnosis_name.{code}" for code in CODES]
    + [f"quiz.stage.{stage}" for stage in ALL_STAGES if stage != "scaled"]  # "scaled" is attention's stage too
    + ["live.item_problem"]  # the live class's name of an item without rows
)
"""This kind's own entries in the catalogue's shared sections."""


def owns_message(key: str) -> bool:
    """Whether the catalogue entry ``key`` is said of sampling problems only: a page whose problems are
    all of other kinds carries none of these (and a page of attention problems stays as it was)."""
    return key in MESSAGE_KEYS or key.startswith(MESSAGE_PREFIXES)

Cells = tuple  # numbers (None: a token cut), or one token for ``pick``


def _shown(values: Cells, decimals: int) -> Cells:
    return tuple(v if v is None or isinstance(v, str) or not math.isfinite(v) else rounded(v, decimals) for v in values)


def carry(problem: SamplingProblem, stage: str, before: str, basis: Cells, step: int = 0) -> Cells | None:
    """``stage`` worked from a student's own row of the stage ``before`` it (the engine's functions)."""
    steps = problem.steps
    try:
        if stage == "exp" and before == "scaled":
            return engine.exponentials(basis)
        if stage == "probabilities":
            return engine.normalise(basis) if before == "exp" else engine.softmax(basis)
        if stage == "kept":
            p = _probabilities(before, basis)
            return engine.truncate(p, engine.kept_set(p, problem.top_k, problem.top_p))
        if stage == "pick":
            kept = basis if before == "kept" else carry(problem, "kept", before, basis)
            if kept is None or all(v is None for v in kept):
                return None  # nothing kept: no token to follow through to
            return (problem.tokens[engine.pick(kept, problem.draw)],)
        if stage == "loss" and not problem.continuation:
            p = _probabilities(before, basis)
            return (engine.loss(p[problem.tokens.index(steps[step].target)]),)
        if stage == "perplexity" and before == "loss":
            return (engine.perplexity(basis),)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        return None
    return None


def _probabilities(before: str, basis: Cells) -> tuple:
    if before == "probabilities":
        return tuple(basis)
    if before == "exp":
        return engine.normalise(basis)
    if before == "scaled":
        return engine.softmax(basis)
    raise ValueError(before)


def exact(solution: SamplingSolution, stage: str) -> Cells:
    return tuple(solution.stage_values(stage))


@functools.lru_cache(maxsize=512)
def tolerances(problem: SamplingProblem) -> dict[str, float]:
    """Each stage's tolerance: the teacher's, or how far correct work rounding its earlier stages
    as displayed can land, plus half a unit (see the module)."""
    solution = engine.solve(problem)
    s = half_unit(problem.decimals)
    if problem.tolerance is not None:
        return dict.fromkeys(ALL_STAGES, problem.tolerance)
    far = dict.fromkeys(ALL_STAGES, 0.0)
    order = [stage for stage in ALL_STAGES if stage in problem.stages and stage != "pick"]
    for stage in order:
        right = exact(solution, stage)
        for before in order[: order.index(stage)]:
            for shown in (False, True):
                basis = exact(solution, before)
                made = carry(problem, stage, before, _shown(basis, problem.decimals) if shown else basis)
                if made is not None and len(made) == len(right):
                    far[stage] = max(far[stage], _farthest(made, right))
    for stage, made in _written(solution):
        far[stage] = max(far[stage], _farthest(made, exact(solution, stage)))
    return {stage: far[stage] + s for stage in ALL_STAGES}


def _written(solution: SamplingSolution) -> list[tuple[str, Cells]]:
    """Each division and power worked from the numbers as the tables show them, each term and each
    sum rounded to the decimals ("sofa: 0.289 ÷ 0.719" gives 0.402 where the exact value rounds to
    0.401; "e^0.297" gives 1.346 for 1.345), as (stage, row): correct work by hand lands there, and
    is correct. (``solve --explain`` shows those lines with the places that make them exact.)"""
    problem, d = solution.problem, solution.problem.decimals

    def r(v: float) -> float:
        return rounded(v, d)

    if problem.continuation:
        losses = [step.loss for step in solution.steps]
        if not all(v is not None and math.isfinite(v) for v in losses):
            return []
        mean = math.fsum(r(v) for v in losses if v is not None) / len(losses)
        return [("perplexity", (math.exp(r(mean)),))]
    step = solution.step
    written: list[tuple[str, Cells]] = []
    for terms in (step.exps, step.shifted):  # e^(z/T) or e^(z/T - max), and their sum, as shown
        total = r(math.fsum(terms)) if all(math.isfinite(v) for v in terms) else 0.0
        if total > 0:
            written.append(("probabilities", tuple(r(v) / total for v in terms)))
    kept_sum = r(math.fsum(p for p, k in zip(step.probabilities, step.kept) if k is not None))  # the kept ones, before renormalising
    if kept_sum > 0:
        written.append(("kept", tuple(None if k is None else r(p) / kept_sum for p, k in zip(step.probabilities, step.kept))))
    return written


def _farthest(made: Cells, right: Cells) -> float:
    off = [abs(a - b) for a, b in zip(made, right) if a is not None and b is not None and math.isfinite(a) and math.isfinite(b)]
    return max(off, default=0.0)


def windows(problem: SamplingProblem, stage: str, values: Cells) -> tuple[tuple[float, float] | None, ...]:
    """Each cell's closed window around ``values`` (None where a token is cut, or for ``pick``)."""
    tol = tolerances(problem)[stage]
    return tuple(None if v is None or isinstance(v, str) else window_floats(v, tol, problem.decimals) for v in values)


def _within(value, window) -> bool:
    return window is not None and value is not None and window[0] - EPS <= value <= window[1] + EPS


def cell_states(problem: SamplingProblem, stage: str, given: Cells, right: Cells, carried: Cells | None) -> tuple[str, ...]:
    """Each cell's state: correct, follow_through, wrong, or masked (a cut token left out, as it should be)."""
    if stage == "pick":
        if given[0] == right[0]:
            return ("correct",)
        return ("follow_through",) if carried is not None and given[0] == carried[0] else ("wrong",)
    ok = windows(problem, stage, right)
    own = windows(problem, stage, carried) if carried is not None else None
    states = []
    for i, value in enumerate(given):
        if right[i] is None:  # a token cut: left out, or typed as its probability 0
            states.append("masked" if value is None or value == 0 else "wrong")
        elif _within(value, ok[i]):
            states.append("correct")
        elif own is not None and _within(value, own[i]):
            states.append("follow_through")
        else:
            states.append("wrong")
    return tuple(states)


def mistake_rows(solution: SamplingSolution, stage: str) -> list[tuple[str, Cells]]:
    """(code, the row that mistake makes) for ``stage``, in the order they are tried."""
    problem, step = solution.problem, solution.step
    T, z = problem.temperature, step.logits
    rows: list[tuple[str, Cells]] = []
    if problem.continuation:
        return _continuation_rows(solution, stage)
    if stage in ("scaled", "exp", "probabilities"):
        for code, scaled in (("temperature_multiplied", tuple(v * T for v in z)), ("temperature_ignored", tuple(z))):
            rows.append((code, {"scaled": scaled, "exp": engine.exponentials(scaled), "probabilities": engine.softmax(scaled)}[stage]))
    if stage == "probabilities":
        plain = engine.softmax(z)
        rows.append(("temperature_after_softmax", tuple(p / T for p in plain)))
        rows.append(("temperature_after_softmax", tuple(p ** (1 / T) for p in plain)))
        rows.append(("exp_not_normalized", step.exps))
        rows.append(("exp_not_normalized", step.shifted))
    p = step.probabilities
    if stage == "kept" and problem.truncation is not None:
        keep = engine.kept_set(p, problem.top_k, problem.top_p)
        rows.append(("not_renormalized", engine.truncate(p, keep, renormalise=False)))
        if problem.top_p is not None:
            for late in (-1, 1):
                other = engine.kept_set(p, None, problem.top_p, late=late)
                rows += [("top_p_boundary", engine.truncate(p, other)), ("top_p_boundary", engine.truncate(p, other, renormalise=False))]
        if problem.top_k is not None:
            rows.append(("top_k_tie", engine.truncate(p, _other_tie(p, problem.top_k))))
    if stage == "pick" and problem.draw is not None:
        rows.append(("ignored_draw", (problem.tokens[engine.pick(step.kept, None)],)))
        rows.append(("draw_wrong_end", (problem.tokens[engine.pick(step.kept, 1 - problem.draw)],)))
    if stage == "loss" and step.target is not None:
        q = p[step.target]
        rows += [("log_base", (engine.loss(q, 10),)), ("log_base", (engine.loss(q, 2),)), ("loss_sign", (-engine.loss(q),))]
    return rows


def _continuation_rows(solution: SamplingSolution, stage: str) -> list[tuple[str, Cells]]:
    probabilities = [s.probabilities[s.target] for s in solution.steps]  # type: ignore[index]
    if stage == "loss":
        return [
            ("log_base", tuple(engine.loss(q, 10) for q in probabilities)),
            ("log_base", tuple(engine.loss(q, 2) for q in probabilities)),
            ("loss_sign", tuple(-engine.loss(q) for q in probabilities)),
        ]
    losses = [s.loss for s in solution.steps]
    mean = math.fsum(losses) / len(losses)  # type: ignore[arg-type]
    return [("log_base", (10**mean,)), ("log_base", (2**mean,))]


def _other_tie(p: Sequence[float], k: int) -> set[int]:
    """Top-k with a tie at its edge broken the wrong way (the token listed last kept)."""
    order = sorted(range(len(p)), key=lambda i: (-p[i], -i))
    return set(order[:k])


def diagnose(solution: SamplingSolution, stage: str, given: Cells, right: Cells) -> str | None:
    """The first known mistake whose row matches every cell of ``given`` (a wrong answer: the caller
    asks only for one), skipping a mistake that makes the right row itself."""
    problem = solution.problem
    for code, made in mistake_rows(solution, stage):
        if len(made) != len(given) or made == right:
            continue
        if stage == "pick":
            if given[0] == made[0]:
                return code
            continue
        if _matches(problem, stage, given, made):
            return code
    return None


def _matches(problem: SamplingProblem, stage: str, given: Cells, made: Cells) -> bool:
    """Whether ``given`` is the mistake's row: every cell within the stage's tolerance and one
    displayed unit more, or 0.5% of its size (a student works a mistake from rounded numbers too)."""
    width = tolerances(problem)[stage] + 10.0 ** -problem.decimals
    for value, target in zip(given, made):
        if target is None and value in (None, 0):
            continue
        if (value is None) != (target is None):
            return False
        if value is not None and not abs(value - target) <= max(width, 0.005 * abs(target)):
            return False
    return True


def mark(
    solution: SamplingSolution, answers: Mapping[str, Cells | None], *, mode: str = "exam", credit: float = 1.0, stages=None
) -> list[Item]:
    """One item per asked stage, in order; ``answers`` maps a stage to its cells as typed (None: blank)."""
    problem = solution.problem
    asked = problem.asked_stages if stages is None else tuple(s for s in ALL_STAGES if s in stages)
    own: dict[str, Cells] = {}
    items = []
    for stage in asked:
        given = answers.get(stage)
        items.append(mark_stage(solution, stage, given, own, credit=credit))
        if given is not None:
            if mode == "practice":
                own = {}
            own[stage] = tuple(given)
    return items


def mark_stage(solution: SamplingSolution, stage: str, given: Cells | None, own: Mapping[str, Cells], *, credit: float = 1.0, hints: int = 0) -> Item:
    """One stage marked; ``own`` holds the student's rows of earlier stages (follow-through)."""
    problem = solution.problem
    right = exact(solution, stage)
    if stage == "exp":  # e^(z/T - max) is as correct: marked against the row it is nearer
        shifted = tuple(solution.step.shifted)
        if given is not None and _count(problem, stage, given, shifted) > _count(problem, stage, given, right):
            right = shifted
    earlier = [s for s in ALL_STAGES[: ALL_STAGES.index(stage)] if s in own]
    carried = carry(problem, stage, earlier[-1], own[earlier[-1]]) if earlier else None
    common = dict(problem=problem.id, row="", stage=stage, expected=right, hints=hints, max_points=1.0)
    if given is None or len(given) != len(right):
        cells = tuple("masked" if v is None else "missing" for v in right)
        return Item(given=None, cells=cells, verdict=Verdict.missing, diagnosis=None, points=0.0, **common)  # type: ignore[arg-type]
    cells = cell_states(problem, stage, tuple(given), right, carried)
    verdict = verdict_of(cells)
    diagnosis = diagnose(solution, stage, tuple(given), right) if "wrong" in cells else None
    scored = [{"correct": 1.0, "follow_through": credit}.get(state, 0.0) for state in cells if state != "masked"]
    points = round(sum(scored) / len(scored), 4) if scored else 0.0
    return Item(given=tuple(given), cells=cells, verdict=verdict, diagnosis=diagnosis, points=points, carried=carried, **common)  # type: ignore[arg-type]


def _count(problem: SamplingProblem, stage: str, given: Cells, right: Cells) -> int:
    return sum(state == "correct" for state in cell_states(problem, stage, given, right, None))


def kept_cells(problem: SamplingProblem, kept: Mapping[str, float]) -> Cells:
    """A typed ``kept`` mapping {token: probability} as cells in token order (None: a token left out)."""
    return tuple(kept.get(token) for token in problem.tokens)


def cell_count(problem: SamplingProblem, stage: str) -> int:
    """How many cells an answer to ``stage`` has: a token each, a step each for a continuation's loss, else one."""
    if stage in TOKEN_STAGES:
        return len(problem.tokens)
    if stage == "loss" and problem.continuation:
        return len(problem.steps)
    return 1

