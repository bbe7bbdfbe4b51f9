"""The golden cases that hold the page's sampling engine (``attn_tutor/practice/assets/sampling.js``)
equal to the Python one (``attn_tutor/kinds/sampling/engine.py``).

``tests/golden/sampling.json`` is made by ``tests/tools/make_sampling_golden.py`` from the
Python engine through :func:`run`; ``tests/kinds/test_sampling_golden.py`` asserts that Python
still reproduces every case exactly, and ``tests/e2e/test_sampling_browser.py`` runs the same
problems through sampling.js in Chromium and holds each number within :data:`REL` of Python's.
Change a rule in the engine, and both must change together: regenerate, review, commit.

A case is ``{"name", "problem", "expected"}``: ``problem`` as the page carries it
(:func:`problem_json`: tokens, steps of logits and target, temperature, top_k, top_p, draw,
continuation), ``expected`` every stage of every step (the engine's ``StepSolution`` fields,
and what the stage functions give on their own: the ranking, the kept set, top-p's cut one
token early and late, the kept probabilities not renormalised, the loss in bits and in
log10) and a continuation's perplexity. Numbers a JSON file cannot hold are strings: "inf",
"-inf", "nan".

The random problems are drawn from seeds (hand-sized and wide logits, ties, temperatures 0.1–5,
top_k, top_p or neither, a draw or none, a target or none, continuations). A problem whose
answer would turn on the last bit of ``e^x`` — a draw within 1e-9 of an interval's edge, a top-p
sum within 1e-9 of its cut, two probabilities unequal but within 1e-12 — is drawn again: there
the two languages' ``exp`` (each within an ulp of the truth) may differ honestly. Exact ties
(equal logits) are kept: both sides compute them alike.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "golden"  # tests/golden
CASES = HERE / "sampling.json"
REL = 1e-12  # how close each of JavaScript's numbers must be to Python's (relative)
ABS = 1e-15  # ... or absolutely, near zero (a loss -ln p for p a bit under 1)
RANDOM_COUNT = 400
SEED = 38

WORDS = (
    "생선을", "우유를", "밥을", "물을", "책을", "고양이가", "먹었다", "잤다", "the", "cat", "sat", "on",
    "mat", "a", "dog", "ran",
)  # fmt: skip


def encode(value):
    """``value`` with every float JSON cannot hold as a string, tuples and sets as lists."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def problem_json(problem) -> dict:
    """A sampling problem as the page carries it."""
    return {
        "id": problem.id,
        "tokens": list(problem.tokens),
        "steps": [{"logits": list(step.logits), "target": step.target} for step in problem.steps],
        "temperature": problem.temperature,
        "top_k": problem.top_k,
        "top_p": problem.top_p,
        "draw": problem.draw,
        "continuation": problem.continuation,
    }


def from_json(data: dict):
    from attn_tutor.kinds.sampling.model import SamplingProblem, Step

    return SamplingProblem(
        id=data["id"],
        tokens=tuple(data["tokens"]),
        steps=tuple(Step(tuple(float(z) for z in step["logits"]), step["target"]) for step in data["steps"]),
        temperature=float(data["temperature"]),
        top_k=data["top_k"],
        top_p=data["top_p"],
        draw=data["draw"],
        continuation=data["continuation"],
    )


def run(data: dict) -> dict:
    """Every stage of the problem ``data`` (:func:`problem_json`) by the Python engine, encoded."""
    from attn_tutor.kinds.sampling import engine

    problem = from_json(data)
    solution = engine.solve(problem)
    steps = []
    for step in solution.steps:
        probabilities = step.probabilities
        keep = engine.kept_set(probabilities, problem.top_k, problem.top_p)
        extra = {
            "ranked": engine.ranked(probabilities),
            "kept_set": keep,
            "unrenormalised": engine.truncate(probabilities, keep, renormalise=False),
            "loss_bits": None if step.target is None else engine.loss(probabilities[step.target], 2),
            "loss_log10": None if step.target is None else engine.loss(probabilities[step.target], 10),
        }
        if problem.top_p is not None:
            extra["cut_early"] = engine.kept_set(probabilities, None, problem.top_p, late=-1)
            extra["cut_late"] = engine.kept_set(probabilities, None, problem.top_p, late=1)
        steps.append(encode({**step._asdict(), **extra}))
    stages = {stage: solution.stage_values(stage) for stage in problem.stages}
    return {"steps": steps, "perplexity": encode(solution.perplexity), "stages": encode(stages)}


# --- the problems -----------------------------------------------------------------------


def _problem(name: str, tokens, logits, *, temperature=1.0, top_k=None, top_p=None, draw=None, target=None, steps=None) -> dict:
    continuation = steps is not None
    return {
        "id": name,
        "tokens": list(tokens),
        "steps": steps if continuation else [{"logits": [float(z) for z in logits], "target": target}],
        "temperature": float(temperature),
        "top_k": top_k,
        "top_p": top_p,
        "draw": draw,
        "continuation": continuation,
    }


def edge_problems() -> list[tuple[str, dict]]:
    """Problems chosen by hand for each rule's edge: ties, a draw on an edge, overflow, T's extremes."""
    two = ("생선을", "우유를")
    three = ("생선을", "우유를", "물을")
    eight = WORDS[:8]
    return [
        ("the chapter's three, T = 1", _problem("ch", three, [2.0, 1.0, 0.1], target="생선을")),
        ("a tie at the top: greedy takes the token listed first", _problem("tie", three, [1, 1, 0])),
        ("a tie at top-p's cut, the sum exactly p", _problem("tp-exact", two, [0, 0], top_p=0.5, draw=0.5)),
        ("a draw exactly on an interval's edge belongs to the next", _problem("edge", two, [0, 0], draw=0.5)),
        ("a draw of 0", _problem("zero", three, [0.5, 1, 2], draw=0.0)),
        ("a draw just under 1: the last kept token", _problem("last", three, [0.5, 1, 2], top_k=2, draw=0.999999)),
        ("a tie at top-k's edge: the token listed first", _problem("tk-tie", WORDS[:4], [2, 1, 1, 0], top_k=2, draw=0.7)),
        ("three tied, top-k 2", _problem("tk-3", three, [1, 1, 1], top_k=2, draw=0.5)),
        ("top-k as many as the tokens", _problem("tk-all", three, [3, -1, 0.5], top_k=3, draw=0.3)),
        ("top-k 1: greedy whatever the draw", _problem("tk-1", three, [0.2, 0.3, 0.1], top_k=1, draw=0.99)),
        ("top-p 1: every token (the float sum a hair under 1)", _problem("tp-1", eight, [0.1 * i for i in range(8)], top_p=1.0, draw=0.42)),
        ("eight tied, top-p 0.3", _problem("tp-ties", eight, [0] * 8, top_p=0.3, draw=0.6)),
        ("ten tied, top-p 0.8: eight 0.1s add up to 0.7999999999999999, which reaches 0.8 (EDGE)",
         _problem("tp-edge", WORDS[:10], [0] * 10, top_p=0.8, draw=0.75)),
        ("cut tokens between kept ones: intervals skip them", _problem("skip", WORDS[:5], [3, -2, 2.5, -1, 2.8], top_p=0.9, draw=0.55)),
        ("overflow: e^x past a float, the probabilities still exact", _problem("big", three, [800, 10, -5], temperature=0.5, target="물을")),
        ("a target whose probability underflows to 0: loss inf", _problem("under", three, [0, 800, 1], target="생선을")),
        ("T = 0.05: greedy at 1.000", _problem("cold", WORDS[:4], [1.2, 1.0, -0.5, 0.3], temperature=0.05, target="우유를")),
        ("T = 20: nearly uniform", _problem("hot", WORDS[:4], [1.2, 1.0, -0.5, 0.3], temperature=20, draw=0.5)),
        ("T = 100, the most allowed", _problem("max", WORDS[:4], [4, -3, 0, 1], temperature=100, top_p=0.9, draw=0.1)),
        ("negative logits only", _problem("neg", three, [-3.2, -1.5, -7], temperature=0.7, top_p=0.6, target="물을")),
        ("a continuation of three steps", _problem("cont", three, None, steps=[
            {"logits": [2.0, 1.0, 0.1], "target": "생선을"},
            {"logits": [0.5, 2.5, -1.0], "target": "물을"},
            {"logits": [1.0, 1.0, 1.0], "target": "우유를"},
        ])),  # fmt: skip
        ("a continuation with a step of loss inf: perplexity inf", _problem("cont-inf", two, None, steps=[
            {"logits": [0.0, 900.0], "target": "생선을"}, {"logits": [1.0, 0.0], "target": "생선을"},
        ])),  # fmt: skip
    ]


def random_problem(r: random.Random, n_case: int) -> dict:
    n = r.randint(2, 8)
    tokens = r.sample(WORDS, n)
    style = r.choice(("hand", "hand", "float", "wide", "ties"))

    def logits() -> list[float]:
        if style == "hand":
            return [round(r.uniform(-3, 4), 1) for _ in range(n)]
        if style == "float":
            return [r.uniform(-5, 5) for _ in range(n)]
        if style == "wide":
            return [r.uniform(-40, 40) for _ in range(n)]
        return [float(r.choice((0, 1, 1, 2, 2.5, -1))) for _ in range(n)]

    how = r.random()
    temperature = (
        round(math.exp(r.uniform(math.log(0.1), math.log(5))), 1) or 0.1
        if how < 0.4
        else r.choice((0.5, 0.8, 1.0, 1.5, 2.0))
        if how < 0.7
        else math.exp(r.uniform(math.log(0.1), math.log(5)))
    )
    name = f"random-{n_case}"
    if r.random() < 0.2:
        steps = [{"logits": logits(), "target": r.choice(tokens)} for _ in range(r.randint(2, 4))]
        return _problem(name, tokens, None, temperature=temperature, steps=steps)
    cut = r.choice(("none", "top_k", "top_p"))
    top_k = r.randint(1, n) if cut == "top_k" else None
    top_p = (round(r.uniform(0.05, 1.0), 2) if r.random() < 0.6 else r.uniform(0.01, 1.0)) if cut == "top_p" else None
    way = r.random()
    draw = None if way < 0.35 else round(r.random(), 2) if way < 0.8 else r.random()
    target = r.choice(tokens) if r.random() < 0.7 else None
    return _problem(name, tokens, logits(), temperature=temperature, top_k=top_k, top_p=top_p, draw=draw, target=target)


MARGIN = 1e-9


def marginal(data: dict) -> bool:
    """Whether the problem's answer turns on the last bit of e^x (see the module's docstring)."""
    from attn_tutor.kinds.sampling import engine

    problem = from_json(data)
    for step in engine.solve(problem).steps:
        probabilities = step.probabilities
        values = sorted(probabilities)
        if any(0 < b - a <= 1e-12 * max(abs(b), 1e-300) for a, b in zip(values, values[1:])):
            return True
        if problem.draw is not None and any(
            abs(problem.draw - edge) < MARGIN for span in step.intervals if span is not None for edge in span
        ):
            return True
        if problem.top_p is not None:
            total = 0.0
            for i in engine.ranked(probabilities):
                total += probabilities[i]
                if abs(total - (problem.top_p - engine.EDGE)) < MARGIN:
                    return True
    return False


def cases() -> list[dict]:
    """Every case: the edge problems, then RANDOM_COUNT random ones (seeded, marginal ones drawn again)."""
    r = random.Random(SEED)
    made = [{"name": name, "problem": problem} for name, problem in edge_problems()]
    n = 0
    redrawn = 0
    while n < RANDOM_COUNT:
        problem = random_problem(r, n)
        if marginal(problem):
            redrawn += 1
            continue
        made.append({"name": problem["id"], "problem": problem})
        n += 1
    for case in made:
        case["expected"] = run(case["problem"])
    return made


def fsum_cases() -> list[dict]:
    """Sums math.fsum rounds once, exactly: sampling.js's fsum must give each to the bit (cancellation,
    half-way roundings, tiny and huge together, infinities), then seeded random lists."""
    tricky = [
        [0.1] * 10, [1e100, 1.0, -1e100, 1e-100], [1.0, 1e-16, 1e-16], [1.0, -1e-16, -1e-16],
        [2.0**53, 1.0, 1e-10], [2.0**53, -0.5, -2.0**-54], [-0.0, -0.0], [],
        [math.inf, 1.0], [math.inf, math.inf, 2.0], [-math.inf, 5.0], [math.nan, 1.0], [1e-320, 1e-320, 5e-324],
        [0.3, -0.1, -0.1, -0.1], [7.0, 1e-300, -7.0], [1e308, -1e308, 1e308],
    ]  # fmt: skip
    r = random.Random(SEED)
    for _ in range(60):
        n = r.randint(2, 20)
        tricky.append([r.choice((-1, 1)) * r.random() * 10 ** r.randint(-20, 20) for _ in range(n)])
    return [{"values": encode(values), "sum": encode(math.fsum(values))} for values in tricky]


def decode(value):
    """What :func:`encode` wrote, back as floats."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    return float(value) if value in ("inf", "-inf", "nan") else value


def load() -> dict:
    return json.loads(CASES.read_text(encoding="utf-8"))


# --- the marker: kinds/sampling/marking.py and its port, practice/assets/sampling_marking.js -----------------

MARKING_CASES = HERE / "sampling_marking.json"
MARKING_PROBLEMS = 40  # the chapter's problems, the edge problems and the first random ones, every stage asked
MARKED_FIELDS = (
    "id", "tokens", "steps", "temperature", "top_k", "top_p", "draw", "continuation", "decimals",
    "stages", "asked_stages", "tolerances", "bounds", "bounds_shifted",
)  # fmt: skip
"""What the page's marker reads of a problem (practice/data.py sampling_data)."""


def page_problem(problem) -> dict:
    """``problem`` as the page's marker reads it: the fields of practice/data.py's sampling_data it uses."""
    from attn_tutor.practice.data import sampling_data

    data = sampling_data(problem)
    return encode({key: data[key] for key in MARKED_FIELDS})


def _asked_all(problem):
    from attn_tutor.kinds.sampling.model import ALL_STAGES

    stages = problem.stages if problem.continuation else tuple(s for s in problem.stages if s != "loss" or problem.target is not None)
    return problem._replace(ask=tuple(s for s in ALL_STAGES if s in stages))


def _typed_rows(problem, solution, stage) -> list[tuple[str, tuple]]:
    """(what, a row a student might type) for ``stage``: right, rounded, slips, each known mistake."""
    from attn_tutor.kinds.sampling import marking

    d = problem.decimals
    if stage == "pick":
        return [(f"pick {token}", (token,)) for token in problem.tokens]
    right = marking.exact(solution, stage)
    shown = marking._shown(right, d)
    zeros = tuple(0.0 if v is None else v for v in shown)
    rows = [("exact", right), ("rounded", zeros), ("rounded, cut left out", shown)]
    finite = [i for i, v in enumerate(right) if v is not None and math.isfinite(v)]
    if finite:
        i = finite[-1]
        slip = list(zeros)
        slip[i] = slip[i] + 10.0 ** (1 - d)
        rows.append(("a slip in the last cell", tuple(slip)))
        rows.append(("rounded a place too few", marking._shown(zeros, max(d - 1, 0))))
        near = list(zeros)
        near[i] = right[i] + marking.tolerances(problem)[stage] * 0.999  # just inside the window
        rows.append(("at the window's edge", tuple(near)))
    if stage == "exp" and not problem.continuation:
        rows.append(("e^(z/T - max)", marking._shown(solution.step.shifted, d)))
    for code, made in marking.mistake_rows(solution, stage):
        if all(v is None or isinstance(v, str) or math.isfinite(v) for v in made):
            rows.append((f"mistake {code}", tuple(0.0 if v is None else v for v in marking._shown(made, d))))
    return rows


def _later_from(problem, answers: dict, stage: str, asked) -> dict:
    """``answers`` with every stage after ``stage`` worked from the student's own row (carry), rounded."""
    from attn_tutor.kinds.sampling import marking

    out = dict(answers)
    for later in asked[asked.index(stage) + 1 :]:
        before = [s for s in asked[: asked.index(later)] if out.get(s) is not None][-1]
        made = marking.carry(problem, later, before, out[before])
        if made is None or any(v is not None and not isinstance(v, str) and not math.isfinite(v) for v in made):
            break
        out[later] = tuple(0.0 if v is None else v for v in marking._shown(made, problem.decimals))
    return out


def _items(items) -> list[dict]:
    return [encode({"stage": i.stage, "cells": list(i.cells), "verdict": str(i.verdict), "diagnosis": i.diagnosis, "points": i.points}) for i in items]


def marking_cases() -> list[dict]:
    """The marking cases: for each problem, every stage typed each way (_typed_rows) with the others
    right, and again with every later stage worked from it (follow-through), marked by Python in
    exam and in practice mode (``expected``: mode -> items). ``answers``: stage -> cells (null: a
    cut token left out)."""
    from attn_tutor.kinds.sampling import engine, marking
    from attn_tutor.problems.load import load_problem_set

    problems = [_asked_all(p) for p in load_problem_set("ch14").problems]
    for _name, data in edge_problems():
        problems.append(_asked_all(from_json(data)))
    r = random.Random(SEED + 1)
    n = 0
    while len(problems) < MARKING_PROBLEMS:
        data = random_problem(r, n)
        n += 1
        if not marginal(data):
            problems.append(_asked_all(from_json(data)))
    made = []
    for problem in problems:
        solution = engine.solve(problem)
        asked = problem.asked_stages
        right = {s: tuple(0.0 if v is None else v for v in marking._shown(marking.exact(solution, s), problem.decimals)) for s in asked}
        if any(v is not None and not isinstance(v, str) and not math.isfinite(v) for row in right.values() for v in row):
            continue  # a stage no one types (an infinite loss): nothing to mark by hand
        page = page_problem(problem)
        for stage in asked:
            for what, row in _typed_rows(problem, solution, stage):
                for follow in (False, True):
                    answers = {**right, stage: row}
                    if follow:
                        answers = _later_from(problem, answers, stage, asked)
                    made.append({
                        "name": f"{problem.id}: {stage} {what}{' (later stages from it)' if follow else ''}",
                        "problem": problem.id, "answers": encode(answers),
                        "expected": {mode: _items(marking.mark(solution, answers, mode=mode)) for mode in ("exam", "practice")},
                    })  # fmt: skip
        made.append({"name": f"{problem.id}: nothing typed", "problem": problem.id, "answers": {},
                     "expected": {mode: _items(marking.mark(solution, {}, mode=mode)) for mode in ("exam", "practice")}})  # fmt: skip
        made[-1]["page"] = page  # the problem, once (its last case)
    return _dedupe(made)


def _dedupe(cases: list[dict]) -> list[dict]:
    seen, out = set(), []
    for case in cases:
        key = json.dumps([case["problem"], case["answers"]], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(case)
    return out


def marking_problems(cases: list[dict]) -> dict[str, dict]:
    """Each problem's page data, by id (carried once, in its last case)."""
    return {case["problem"]: case["page"] for case in cases if "page" in case}


def load_marking() -> dict:
    return json.loads(MARKING_CASES.read_text(encoding="utf-8"))
