"""Sheets: the versions of a problem set handed out — the set itself, or variants drawn from a seed.

A *sheet* is one version of a problem set: the set itself, or a variant made by
:func:`attn_tutor.variants.generate.variant_set` with a seed. A variant's seed is the
number printed on the sheet ("variant 42003"); students copy ``variant: 42003``
into their answer file and ``grade`` regenerates the same numbers from it.

Variant numbers: sheet ``k`` (1-based) of ``--variants N --seed S`` has the seed
``S * 1000 + k`` (:func:`attn_tutor.variants.generate.variant_seed`), so sheets of one
batch read 42001, 42002, ... and two batches with different seeds never share a sheet.
Hence at most ``VARIANTS_MAX`` variants and seeds up to ``SHEET_SEED_MAX``
(:mod:`attn_tutor.core.model`).
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_tutor.core.i18n import t
from attn_tutor.core.model import ProblemSet
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

    sheets = []
    for k in range(1, variants + 1):
        number = variant_seed(seed, k)
        sheets.append(Sheet(variant_set(problem_set, number), number))
    return sheets


def fairness_note(problem_set: ProblemSet, sheets: list[Sheet], lang: str) -> str:
    """One sentence for ``export --variants``: how far the variants' largest weight and largest e^x
    range, beside the set's own (every variant passed :mod:`attn_tutor.variants.fairness`)."""

    figures = fairness.summary([sheet.problem_set for sheet in sheets])
    weight, exp = fairness.largest(problem_set.problems)
    return t(
        "export.fairness",
        lang,
        count=len(sheets),
        weight_low=fmt(figures.weight[0], 3),
        weight_high=fmt(figures.weight[1], 3),
        weight=fmt(weight, 3),
        exp_low=fmt(figures.exp[0], 3),
        exp_high=fmt(figures.exp[1], 3),
        exp=fmt(exp, 3),
    )


def sheet_title(problem_set: ProblemSet, lang: str, title: str | None = None) -> str:
    return title or problem_set.title or t("export.default_title", lang)


