"""Simulated students on seeded random problems: those who work correctly and round as asked, and
those who round a number too soon — the fair-marking simulation of issue 18.

Used by ``tests/marking/test_fair_simulation.py`` (bounded) and ``benchmarks/fair_marking.py``
(bigger runs). Everything is made here with numpy from the givens, independently of the
marker, and is reproducible from the seed.

Problems (:func:`random_problems`): 1–6 query tokens, d_k 1–5, one to three heads, integer,
one-decimal, half-integer or larger entries, masks none, causal or explicit, ``divide_by``
sometimes, and a quarter projecting X through W_Q, W_K, W_V; each at decimals 1–4.

Correct students (:func:`correct_rows`) compute every stage from the row before as they
carried it and round it half up to the asked decimals; in practice mode they carry the
exact row as shown (rounded); a projecting problem's Q, K, V are rounded to the asked
decimals first, as the worked solution shows them.

Early rounders (:func:`early_rows`) do the same but round one number too soon, to fewer
places than asked: the divisor (√d_k), the previous stage's row before carrying it, the
e^x, or their sum — the one early rounding marks the stage it happens in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import numpy as np

from attn_tutor.core.model import Head, Problem
from attn_tutor.core.rounding import rounded
from attn_tutor.solve import engine

KINDS = ("divisor", "previous", "exps", "sum")


def half_up(values, places: int) -> np.ndarray:
    return np.array([rounded(v, places) if math.isfinite(v) else v for v in np.asarray(values, dtype=float).ravel()]).reshape(
        np.shape(values)
    )


def random_problem(rng: random.Random, number: int) -> Problem:
    n, d_k = rng.randint(1, 6), rng.choice([1, 2, 3, 4, 5])
    kind = rng.choice(["int", "decimal", "large", "half"])
    entry = {
        "int": lambda: rng.randint(-3, 3),
        "decimal": lambda: rng.randint(-20, 20) / 10,
        "large": lambda: rng.randint(-9, 9),
        "half": lambda: rng.randint(-6, 6) / 2,
    }[kind]

    def matrix(rows: int, cols: int):
        return tuple(tuple(float(entry()) for _ in range(cols)) for _ in range(rows))

    heads_n, d_v = rng.choice([1, 1, 2, 3]), rng.randint(1, 3)
    X = None
    if rng.random() < 0.25:
        d_in = rng.randint(1, 3)
        X = matrix(n, d_in)
        heads = tuple(Head(W_Q=matrix(d_in, d_k), W_K=matrix(d_in, d_k), W_V=matrix(d_in, d_v)) for _ in range(heads_n))
    else:
        heads = tuple(Head(Q=matrix(n, d_k), K=matrix(n, d_k), V=matrix(n, d_v)) for _ in range(heads_n))
    mask: object = rng.choice(["none", "causal", "explicit"])
    if mask == "explicit":
        rows = [tuple(rng.randint(0, 1) for _ in range(n)) for _ in range(n)]
        mask = tuple(r if any(r) else (1,) + r[1:] for r in rows)
    return Problem(
        id=f"sim-{number}", tokens=tuple(f"t{i}" for i in range(n)), heads=heads, multi_head=heads_n > 1, X=X,
        mask=mask, divide_by=rng.choice([None, None, None, 1.0, 2.0, 3.0]),
    )  # fmt: skip


def random_problems(seed: int, count: int) -> Iterator[Problem]:
    """``count`` problems, each at decimals 1, 2, 3 and 4 (so 4·count in all)."""
    rng = random.Random(seed)
    for number in range(count):
        problem = random_problem(rng, number)
        for decimals in (1, 2, 3, 4):
            yield problem._replace(decimals=decimals)


def _givens(solution, decimals: int):
    """Each head's Q, K, V as the student works from them: a projection's rounded as shown."""
    out = []
    for head in solution.heads:
        if solution.problem.X is None:
            out.append((head.Q, head.K, head.V))
        else:
            out.append((half_up(head.Q, decimals), half_up(head.K, decimals), None if head.V is None else half_up(head.V, decimals)))
    return out


def _softmax(x, mask, exps_places=None, sum_places=None):
    x = np.asarray(x, dtype=float)
    top = np.max(x[mask])
    e = np.where(mask, np.exp(np.where(mask, x, top) - (0 if exps_places is not None or sum_places is not None else top)), 0.0)
    if exps_places is not None:
        e = np.where(mask, half_up(e, exps_places), 0.0)
    total = e.sum()
    if sum_places is not None:
        total = rounded(total, sum_places)
    return e / total if total > 0 else np.full(x.shape, np.nan)


def worked(solution, row: int, mode: str, early: tuple[str, str, int] | None = None) -> dict[str, np.ndarray] | None:
    """Each stage's row as the student types it (rounded to the asked decimals); ``early``:
    (kind, stage, places) — one number rounded too soon in that stage. None when the early
    rounding cannot be worked (a sum rounded to 0, e^x beyond a calculator)."""
    with np.errstate(all="ignore"):
        return _worked(solution, row, mode, early)


def _worked(solution, row: int, mode: str, early) -> dict[str, np.ndarray] | None:
    problem = solution.problem
    d = problem.decimals
    givens = _givens(solution, d)
    typed: dict[str, np.ndarray] = {}
    carried: list[np.ndarray] | None = None  # per head, the previous stage's row as carried
    for stage in problem.stages:
        kind, where, places = early if early is not None and early[1] == stage else (None, None, None)
        parts = []
        for h, (head, (Q, K, V)) in enumerate(zip(solution.heads, givens)):
            mask = head.mask[row]
            basis = None if carried is None else carried[h]
            if kind == "previous" and basis is not None:
                basis = np.where(np.isfinite(basis), half_up(np.nan_to_num(basis), places), basis)
            if stage == "scores":
                made = np.where(mask, np.asarray(Q)[row] @ np.asarray(K).T, np.nan)
            elif stage == "scaled":
                divisor = rounded(head.divisor, places) if kind == "divisor" else head.divisor
                if divisor <= 0:
                    return None
                made = np.where(mask, basis / divisor, np.nan)
            elif stage == "weights":
                made = _softmax(np.nan_to_num(basis), mask, places if kind == "exps" else None, places if kind == "sum" else None)
                if not np.all(np.isfinite(made)):
                    return None
            else:
                made = np.asarray(basis) @ np.asarray(V)
            parts.append(made)
        row_typed = [np.where(np.isfinite(p), half_up(np.nan_to_num(p), d), np.nan) for p in parts]
        typed[stage] = np.nan_to_num(np.concatenate(row_typed))  # a masked score may be typed as anything: 0
        if mode == "practice":
            exact = solution.stage_row(stage, row)
            seg, start = [], 0
            for p in parts:
                seg.append(np.where(np.isfinite(exact[start:start + p.size]), half_up(np.nan_to_num(exact[start:start + p.size]), d), np.nan))
                start += p.size
            carried = seg
        else:
            carried = row_typed
    return typed


def early_roundings(problem: Problem) -> list[tuple[str, str, int]]:
    """Every (kind, stage, places) an early rounder may make: to fewer places than asked."""
    out = []
    for places in range(problem.decimals):
        if "scaled" in problem.stages:
            out.append(("divisor", "scaled", places))
            out.append(("previous", "scaled", places))
        out += [("previous", "weights", places), ("exps", "weights", places), ("sum", "weights", places)]
        if "output" in problem.stages:
            out.append(("previous", "output", places))
    return out


def solve(problem: Problem):
    return engine.solve(problem)


class Tally:
    """What the simulation found: correct items and those marked down; early roundings that
    change the numbers (the stage's item not correct) and those diagnosed ``rounding``."""

    def __init__(self) -> None:
        self.correct_items = 0
        self.marked_down: list[tuple] = []
        self.changed = 0
        self.diagnosed = 0
        self.missed: dict[tuple, int] = {}

    @property
    def rate(self) -> float:
        return self.diagnosed / self.changed if self.changed else 1.0


def simulate(problems, marker) -> Tally:
    """Mark every simulated student's every row of ``problems`` (exam and practice)."""
    tally = Tally()
    for problem in problems:
        solution = solve(problem)
        for row in range(len(problem.tokens)):
            for mode in ("exam", "practice"):
                rows = worked(solution, row, mode)
                answers = {stage: tuple(rows[stage].tolist()) for stage in problem.stages}
                for item in marker.row(solution, row, answers, mode=mode):
                    tally.correct_items += 1
                    if item.verdict != "correct":
                        tally.marked_down.append((problem, row, mode, item))
                for early in early_roundings(problem):
                    rows = worked(solution, row, mode, early)
                    if rows is None:
                        continue
                    answers = {stage: tuple(rows[stage].tolist()) for stage in problem.stages}
                    (item,) = [i for i in marker.row(solution, row, answers, mode=mode) if i.stage == early[1]]
                    if item.verdict == "correct":
                        continue  # this early rounding changes no number beyond the tolerance
                    tally.changed += 1
                    if item.diagnosis == "rounding":
                        tally.diagnosed += 1
                    else:
                        key = (early[0], early[1], item.diagnosis)
                        tally.missed[key] = tally.missed.get(key, 0) + 1
    return tally
