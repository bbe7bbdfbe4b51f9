"""What the terminal shows after grading, as document blocks."""

from __future__ import annotations

from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt
from attn_tutor.gradebook.analysis import Tally, bin_label
from attn_tutor.gradebook.records import ItemStats
from attn_tutor.gradebook.rows import pct
from attn_tutor.marking.marker import VERDICTS, diagnosis_name
from attn_tutor.render.blocks import Bar, Bars, Table


def summary_blocks(tally: Tally) -> list:
    """The class table, the item analysis and the score distribution as document blocks."""

    blocks: list = []
    blocks.append(
        Table(
            tuple(t(f"grade.col.{name}") for name in ("student", "variant", "score", "max_score", "percent", "errors")),
            tally.summary,  # a spool, read a row at a time as the table is drawn
            title=t("grade.class_title_one" if tally.total == 1 else "grade.class_title", count=tally.total),
        )
    )

    groups: dict[str, list[ItemStats]] = {}
    for stats in tally.analysis():
        groups.setdefault(stats.problem, []).append(stats)
    header = (
        t("grade.col.item"),
        t("grade.col.n"),
        *(t(f"grade.verdict.{verdict}") for verdict in VERDICTS),
    )
    for problem, group in groups.items():
        rows = tuple(
            (f"{stats.row} · {t(f'quiz.stage.{stats.stage}')}", str(stats.students), *(pct(stats.percent(v), 0) for v in VERDICTS))
            for stats in group
        )
        blocks.append(Table(header, rows, title=t("grade.analysis_title", problem=problem)))
        mistakes = tuple(
            (
                f"{stats.row} · {t(f'quiz.stage.{stats.stage}')}",
                ", ".join(f"{diagnosis_name(code)} ×{count}" for code, count in stats.diagnoses),
            )
            for stats in group
            if stats.diagnoses
        )
        if mistakes:
            blocks.append(
                Table(
                    (t("grade.col.item"), t("grade.col.diagnoses")),
                    mistakes,
                    title=t("grade.mistakes_title", problem=problem),
                )
            )
        blocks.extend(statistics_blocks(problem, group))
    counts = tally.distribution()
    total = sum(counts)
    top = max(counts) if counts else 0
    bars = tuple(
        Bar(bin_label(index), count / top if top else 0.0, f"{count} ({pct(100.0 * count / total) if total else '0.0%'})")
        for index, count in enumerate(counts)
    )
    blocks.append(Bars(t("grade.distribution_title_one" if total == 1 else "grade.distribution_title", count=total), bars))
    return blocks


def statistics_blocks(problem: str, group: list[ItemStats]) -> list:
    """One problem's item statistics (docs/item-statistics.md) as a compact table, and for each
    choice item the share of each option overall and in the upper and lower groups."""
    with_stats = [(stats, stats.statistics) for stats in group if stats.statistics is not None]
    if not with_stats:
        return []
    rows = tuple(
        (
            f"{stats.row} · {t(f'quiz.stage.{stats.stage}')}",
            fmt(statistics.facility, 2),
            fmt(statistics.discrimination, 2),
            fmt(statistics.point_biserial, 2),
            flag_text(statistics.flags),
        )
        for stats, statistics in with_stats
    )
    header = tuple(t(f"grade.col.{name}") for name in ("item", "facility", "discrimination", "point_biserial", "flags"))
    blocks: list = [Table(header, rows, title=t("grade.stats_title", problem=problem))]
    for stats, statistics in with_stats:
        options = statistics.options
        if not options:
            continue
        header = tuple(t(f"grade.col.{name}") for name in ("option", "share_all", "share_upper", "share_lower", "flags"))
        rows = tuple(
            (label, pct(100 * share.all, 0), _share(share.upper), _share(share.lower), flag_text(share.flags))
            for label, share in options.items()
        )
        blocks.append(Table(header, rows, title=t("grade.options_title", item=f"{problem} · {stats.row}")))
    return blocks


def _share(value: float | None) -> str:
    return "—" if value is None else pct(100 * value, 0)


def flag_text(flags) -> str:
    """An item's or an option's flags as words, in the run's language (empty: none)."""
    return ", ".join(t(f"grade.flag.{flag}") for flag in flags)
