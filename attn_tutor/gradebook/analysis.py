"""Item analysis and the score distribution."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from attn_tutor.gradebook.records import BINS, TOP_DIAGNOSES, Gradebook, ItemKey, ItemStats


def item_analysis(book: Gradebook) -> list[ItemStats]:
    from attn_tutor.grading import DIAGNOSES, VERDICTS

    verdicts: dict[ItemKey, Counter[str]] = {column: Counter() for column in book.columns}
    diagnoses: dict[ItemKey, Counter[str]] = {column: Counter() for column in book.columns}
    for student in book.marked:
        for item in student.report.items:
            key = (item.problem, item.row, item.stage)
            if key not in verdicts:
                continue
            verdicts[key][item.verdict] += 1
            if item.diagnosis:
                diagnoses[key][item.diagnosis] += 1
    rank = {code: index for index, code in enumerate(DIAGNOSES)}
    stats = []
    for key in book.columns:
        common = sorted(diagnoses[key].items(), key=lambda pair: (-pair[1], rank.get(pair[0], len(rank)), pair[0]))
        stats.append(
            ItemStats(
                *key,
                students=sum(verdicts[key].values()),
                counts=tuple((verdict, verdicts[key][verdict]) for verdict in VERDICTS),
                diagnoses=tuple(common[:TOP_DIAGNOSES]),
            )
        )
    return stats


def score_bin(score: float, max_score: float) -> int:
    """Which 10% bin a score falls in: 0..9, a full score in the last."""
    if max_score <= 0:
        return 0
    # From the decimal the marker rounded to (repr), not the binary float: 0.7 of 1 is 70%.
    index = int(Fraction(repr(float(score))) * BINS // Fraction(repr(float(max_score))))
    return max(0, min(index, BINS - 1))


def score_distribution(book: Gradebook) -> list[int]:
    counts = [0] * BINS
    for student in book.marked:
        counts[score_bin(student.score, student.max_score)] += 1
    return counts


def bin_label(index: int) -> str:
    low, high = index * 100 // BINS, (index + 1) * 100 // BINS
    return f"{low}–{high}%"

