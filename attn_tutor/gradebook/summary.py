"""What the terminal shows after grading, as document blocks."""

from __future__ import annotations

from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt
from attn_tutor.gradebook.analysis import Tally, bin_label
from attn_tutor.gradebook.itemstats import DECIMALS, EASY, HARD, WEAK, Caution, caution
from attn_tutor.gradebook.records import ItemStats
from attn_tutor.gradebook.rows import pct
from attn_tutor.marking.marker import VERDICTS, diagnosis_name
from attn_tutor.render.blocks import Bar, Bars, Paragraph, Table

SHOWN = 2  # places a statistic is shown to, unless that would put it across a bound (figure_text)
TESTS = {"<": lambda value, bound: value < bound, "≤": lambda value, bound: value <= bound, "≥": lambda value, bound: value >= bound}
BOUNDS = {  # each figure's flag tests (gradebook/itemstats.py: flag_reasons)
    "facility": (("≤", HARD), ("≥", EASY)),
    "discrimination": (("<", 0.0), ("<", WEAK)),
    "point_biserial": (("<", 0.0), ("<", WEAK)),
}


def _label(stats) -> str:
    """An item's row and stage (a sampling problem's stage alone: it has no rows)."""
    stage = t(f"quiz.stage.{stats.stage}")
    return f"{stats.row} · {stage}" if stats.row else stage


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
    said = caution_blocks(tally)
    for problem, group in groups.items():
        rows = tuple(
            (_label(stats), str(stats.students), *(pct(stats.percent(v), 0) for v in VERDICTS))
            for stats in group
        )
        blocks.append(Table(header, rows, title=t("grade.analysis_title", problem=problem)))
        mistakes = tuple(
            (
                _label(stats),
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
        if any(stats.statistics is not None for stats in group):
            blocks.extend(said)  # once, before the first table of statistics
            said = []
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
            _label(stats),
            figure_text("facility", statistics.facility),
            figure_text("discrimination", statistics.discrimination),
            figure_text("point_biserial", statistics.point_biserial),
            reasons_text(statistics),
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
        rows = tuple(option_row(label, share) for label, share in options.items())
        blocks.append(Table(header, rows, title=t("grade.options_title", item=f"{problem} · {stats.row}")))
    return blocks


def _share(value: float | None, decimals: int = 0) -> str:
    return "—" if value is None else pct(100 * value, decimals)


def option_row(label: str, share) -> tuple[str, str, str, str, str]:
    """An option's shares and flags; ``upper`` names its figures (the upper group's share > the
    lower's), both shown to as many places as it takes for the one to be seen above the other."""
    if "upper" not in share.flags:
        return (label, pct(100 * share.all, 0), _share(share.upper), _share(share.lower), flag_text(share.flags))
    decimals = next((d for d in range(3) if float(fmt(100 * share.upper, d)) > float(fmt(100 * share.lower, d))), 2)
    upper, lower = _share(share.upper, decimals), _share(share.lower, decimals)
    said = t("grade.flag_reason", flag=t("grade.flag.upper"), figures=f"{upper} > {lower}")
    return (label, pct(100 * share.all, 0), upper, lower, said)


def flag_text(flags) -> str:
    """An item's or an option's flags as words, in the run's language (empty: none)."""
    return ", ".join(t(f"grade.flag.{flag}") for flag in flags)


def figure_text(figure: str, value: float | None) -> str:
    """A statistic as shown: two places, or four (as flagged) where two would put it on the other
    side of a bound it is tested against (0.1996 is shown 0.1996, not 0.20, beside "< 0.20")."""
    if value is None:
        return fmt(None, SHOWN)
    near = float(fmt(value, SHOWN))
    moved = any(TESTS[test](near, bound) != TESTS[test](value, bound) for test, bound in BOUNDS[figure])
    return fmt(value, DECIMALS if moved else SHOWN)


def reasons_text(statistics) -> str:
    """Each flag with the figures that raised it ("weak discrimination: r_pb 0.06 < 0.20"), and a
    figure of the same kind that does not meet the test ("D 1.00 says otherwise"); empty: no flag."""
    said = []
    for flag in statistics.flags:
        reasons = [reason for reason in statistics.reasons if reason.flag == flag]
        figures = ", ".join(
            f"{t(f'grade.col.{r.figure}')} {figure_text(r.figure, r.value)} {r.test} {_bound(r.bound)}" for r in reasons
        )
        raised = {reason.figure for reason in reasons}
        others = [
            t("grade.flag_otherwise", figure=t(f"grade.col.{name}"), value=figure_text(name, getattr(statistics, name)))
            for name in ("discrimination", "point_biserial")
            if flag in ("negative", "weak") and name not in raised and getattr(statistics, name) is not None
        ]
        said.append(t("grade.flag_reason", flag=t(f"grade.flag.{flag}"), figures="; ".join([figures, *others])))
    return ", ".join(said)


def _bound(bound: float) -> str:
    return "0" if bound == 0 else fmt(bound, SHOWN)


def caution_text(found: Caution) -> str:
    """The one sentence for a class (or items) under the students D and r_pb need."""
    if found.items == found.total:
        key = "grade.small_class_one" if found.students == 1 else "grade.small_class"
        return t(key, students=found.students, minimum=found.minimum)
    return t("grade.small_items", items=found.items, total=found.total, students=found.students, minimum=found.minimum)


def caution_blocks(tally: Tally) -> list:
    found = caution(list(tally.statistics().values()))
    return [] if found is None else [Paragraph(caution_text(found))]
