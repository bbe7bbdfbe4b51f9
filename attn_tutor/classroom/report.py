"""The class at a glance (``grade --class-report FILE.html``), as document blocks.

Three charts (:class:`~attn_tutor.render.blocks.Chart`, drawn as SVG by
:mod:`attn_tutor.render.svg`): the score distribution (the gradebook's ten bins),
each item's verdict mix as a 100% bar, and the misconception map — how many
students made each diagnosis on each item (every diagnosis, not only the item
analysis's top three; only diagnoses and items that occur). Then the item
analysis tables in numbers. Students who could not be marked count in neither,
as in the gradebook's own analysis; the page says how many there were.

Pure: reads the gradebook's :class:`~attn_tutor.gradebook.analysis.Tally` and a
:class:`ClassCounts` fed the same rows; the HTML renderer makes
one self-contained page of it (no scripts, no network, a CSP that forbids fetching).
"""

from __future__ import annotations

from array import array
from statistics import median

from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt
from attn_tutor.gradebook import bin_label, summary_blocks
from attn_tutor.marking.marker import DIAGNOSES, VERDICTS, diagnosis_name
from attn_tutor.render import html
from attn_tutor.render.blocks import Bars, Block, Chart, Heading, Paragraph


def item_label(key) -> str:
    problem, row, stage = key
    if not row:  # a sampling problem's stage: no row
        return f"{problem} · {t(f'quiz.stage.{stage}')}"
    return f"{problem} · {row} · {t(f'quiz.stage.{stage}')}"


class ClassCounts:
    """What the report needs beyond the gradebook's Tally, gathered a student (row) at a time: each
    percent (for the mean and median: as plain doubles, 8 bytes a student, not as objects). Every
    diagnosis on every item is the Tally's own count (:meth:`~attn_tutor.gradebook.analysis.Tally.diagnoses`)."""

    def __init__(self) -> None:
        self.percents = array("d")

    def add(self, row) -> None:
        if row.score is not None and row.max_score:
            self.percents.append(100.0 * row.score / row.max_score)


def distribution_chart(tally) -> Chart:
    counts = tally.distribution()
    return Chart(
        "columns",
        t("report.distribution", count=sum(counts)),
        tuple(bin_label(i) for i in range(len(counts))),
        (t("report.students"),),
        tuple((count,) for count in counts),
    )


def verdict_chart(stats) -> Chart:
    return Chart(
        "stacked",
        t("report.verdicts"),
        tuple(item_label((s.problem, s.row, s.stage)) for s in stats),
        tuple(t(f"grade.verdict.{v}") for v in VERDICTS),
        tuple(tuple(s.count(v) for v in VERDICTS) for s in stats),
        note=t("report.verdicts_note"),
        keys=VERDICTS,
    )


def misconception_chart(tally) -> Chart | None:
    counted = tally.diagnoses()
    per_item = {column: counted[column] for column in tally.columns}
    used = [code for code in DIAGNOSES if any(c[code] for c in per_item.values())]
    rows = [key for key in tally.columns if any(per_item[key][code] for code in used)]
    if not used:
        return None
    return Chart(
        "grid",
        t("report.misconceptions"),
        tuple(item_label(key) for key in rows),
        tuple(diagnosis_name(code) for code in used),  # a mistake's name in the report's language
        tuple(tuple(per_item[key][code] for code in used) for key in rows),
        note=t("report.misconceptions_note"),
        keys=tuple(used),
    )


def report_blocks(tally, counts: ClassCounts, *, title: str | None = None) -> list[Block]:
    percents = counts.percents
    blocks: list[Block] = [Heading(title or t("report.title", count=tally.total), level=1)]
    facts = t("report.marked", marked=tally.marked, total=tally.total)
    if percents:
        facts += " " + t(
            "report.mean", mean=fmt(sum(percents) / len(percents), 1), median=fmt(median(percents), 1)
        )
    blocks.append(Paragraph(facts))
    if tally.marked < tally.total:
        blocks.append(Paragraph(t("report.unmarked", count=tally.total - tally.marked)))
    blocks.append(distribution_chart(tally))
    stats = tally.analysis()
    if stats:
        blocks.append(verdict_chart(stats))
        grid = misconception_chart(tally)
        if grid is None:
            blocks.append(Paragraph(t("report.no_mistakes")))
        else:
            blocks.append(grid)

            blocks.append(Heading(t("report.codes"), level=2))  # under the h1, as "In numbers": no skipped level
            blocks.extend(
                Paragraph(f"{diagnosis_name(code)}: {t(f'grading.diagnosis.{code}')}") for code in grid.keys
            )
    blocks.append(Heading(t("report.numbers"), level=2))
    summary = summary_blocks(tally)
    blocks.extend(b for b in summary[1:] if not isinstance(b, Bars))  # the class list and the text bars: not here
    return blocks


def render_report(tally, counts: ClassCounts, *, title: str | None = None) -> str:
    blocks = report_blocks(tally, counts, title=title)
    assert isinstance(blocks[0], Heading)  # the report's title
    return html.render(blocks, title=blocks[0].text)
