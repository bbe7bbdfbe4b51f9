"""Sheets: the versions of a problem set handed out — the set itself, or variants drawn from a seed.

A *sheet* is one version of a problem set: the set itself, or a variant made by
:func:`attn_tutor.variants.generate.variant_set` with a seed. A variant's seed is the
number printed on the sheet ("variant 42003"); students copy ``variant: 42003``
into their answer file and ``grade`` regenerates the same numbers from it.

Variant numbers: sheet ``k`` (1-based) of ``--variants N --seed S`` has the seed
``S * 1000 + k`` (:func:`attn_tutor.variants.generate.variant_seed`), so sheets of one
batch read 42001, 42002, ... and two batches with different seeds never share a sheet.
Variants of a batch are pairwise distinct: a sheet in which some problem repeats an
earlier sheet's givens, or its whole answer key (every asked stage at the asked decimals), is
skipped, so the numbers may jump (42001, 42002, 42004). When :data:`REPEATS_MAX` sheets in a
row each repeat one, the problem has no more variants; when the seed's numbers run out (all
``VARIANTS_MAX`` drawn, some skipped), the seed has no more. Either way an
:class:`~attn_tutor.core.errors.AttnTutorError` says how many there are, and which problem repeats.
Hence at most ``VARIANTS_MAX`` variants and seeds up to ``SHEET_SEED_MAX``
(:mod:`attn_tutor.core.model`).
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import t
from attn_tutor.core.model import VARIANTS_MAX, ProblemSet
from attn_tutor.core.rounding import fmt
from attn_tutor.variants import fairness
from attn_tutor.variants.generate import variant_seed, variant_set


@dataclass(frozen=True)
class Sheet:
    """One version of a problem set; ``variant`` is its seed, None for the set as written."""

    problem_set: ProblemSet
    variant: int | None = None


def make_sheets(problem_set: ProblemSet, *, variants: int | None = None, seed: int | None = None) -> list[Sheet]:
    """The set as written (no ``variants``), or ``variants`` versions drawn from ``seed``."""
    if variants is None:
        return [Sheet(problem_set)]
    if seed is None:
        raise ValueError("variants need a seed")

    sheets: list[Sheet] = []
    taken: list[list[tuple]] = [[] for _ in problem_set.problems]  # per problem: (givens, answer key) of each sheet kept
    clashes = [0] * len(problem_set.problems)  # per problem: the numbers skipped because it repeated an earlier sheet
    k = misses = blocking = 0
    while len(sheets) < variants:
        k += 1
        if misses >= REPEATS_MAX:
            problem = problem_set.problems[blocking]
            raise AttnTutorError("generate.too_few_variants", id=problem.id, count=len(sheets), attempts=misses)
        if k > VARIANTS_MAX:  # every number of the seed drawn: some were skipped, and there are no more
            problem = problem_set.problems[clashes.index(max(clashes))]
            raise AttnTutorError(
                "generate.variant_numbers_ran_out", id=problem.id, count=len(sheets), seed=seed, numbers=VARIANTS_MAX, skipped=sum(clashes)
            )  # fmt: skip
        number = variant_seed(seed, k)
        varied = variant_set(problem_set, number)
        found = [(fairness.givens(p), fairness.answer_key(p)) for p in varied.problems]
        clash = next(
            (i for i, (mine, earlier) in enumerate(zip(found, taken))
             if any(mine[0] == theirs[0] or fairness.same_answers(mine[1], theirs[1]) for theirs in earlier)),
            None,
        )  # fmt: skip
        if clash is not None:  # a problem repeats an earlier sheet's numbers or answers: skip this number
            misses, blocking = misses + 1, clash
            clashes[clash] += 1
            continue
        misses = 0
        for mine, earlier in zip(found, taken):
            earlier.append(mine)
        sheets.append(Sheet(varied, number))
    return sheets


REPEATS_MAX = 60  # sheets drawn in a row that each repeat an earlier one: the problem has no more variants


def fairness_note(problem_set: ProblemSet, sheets: list[Sheet]) -> str:
    """One sentence for ``export --variants``: how far the variants' largest weight and largest e^x
    range, beside the set's own (every variant passed :mod:`attn_tutor.variants.fairness`; a set with
    sampling problems says so, their probabilities beside the weights, and names their rule too)."""

    figures = fairness.summary([sheet.problem_set for sheet in sheets])
    weight, exp = fairness.largest(problem_set.problems)
    sampled = any(problem.kind == "sampling" for problem in problem_set.problems)
    return t(
        "export.fairness_sampling" if sampled else "export.fairness",
        count=len(sheets),
        weight_low=fmt(figures.weight[0], 3),
        weight_high=fmt(figures.weight[1], 3),
        weight=fmt(weight, 3),
        exp_low=fmt(figures.exp[0], 3),
        exp_high=fmt(figures.exp[1], 3),
        exp=fmt(exp, 3),
    )


def sheet_title(problem_set: ProblemSet, title: str | None = None) -> str:
    return title or problem_set.title or t("export.default_title")


