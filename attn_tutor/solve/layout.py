"""Lay out a solved problem as document blocks: the chapter's tables, for any problem.

The same blocks are drawn by the terminal, Markdown, HTML and LaTeX renderers,
and the worksheets reuse :func:`given_blocks` and :func:`stage_table`.
"""

from __future__ import annotations

from attn_tutor.core.i18n import t
from attn_tutor.core.model import Problem
from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.kinds.sampling import layout as sampling
from attn_tutor.render.blocks import Bar, Bars, Block, Heading, Math, Paragraph, Table
from attn_tutor.solve import explain
from attn_tutor.solve.engine import HeadResult, Solution


def _matrix_rows(labels, matrix, decimals: int) -> tuple[tuple[str, ...], ...]:
    return tuple((label, *(fmt_given(v, decimals) for v in row)) for label, row in zip(labels, matrix))


def problem_heading(problem: Problem) -> Heading:
    return Heading(f"{problem.id} — {problem.title}" if problem.title else problem.id, level=2)


def problem_notes(problem: Problem) -> list[Paragraph]:
    notes = []
    if problem.key_tokens is not None:
        notes.append(Paragraph(t("solve.cross", keys=", ".join(problem.keys))))
    if problem.mask == "causal":
        notes.append(Paragraph(t("solve.causal")))
    elif problem.mask != "none":
        notes.append(Paragraph(t("solve.matrix_mask")))
    if not problem.has_values:
        notes.append(Paragraph(t("solve.no_values")))
    return notes


def _head_title(number: int, many: bool, title: str) -> str:
    return f"{t('solve.head', n=number)}: {title}" if many else title


def given_blocks(solution: Solution, decimals: int, *, projected: bool = True) -> list[Block]:
    """The givens with token labels: Q, K, V (or X and the W's, then the projected Q, K, V).

    ``projected=False`` leaves out the projected Q, K, V: a worksheet asks for them.
    """
    problem = solution.problem
    token = t("solve.token")
    many = len(solution.heads) > 1
    blocks: list[Block] = []
    if problem.X is not None:
        width = len(problem.X[0])
        blocks.append(
            Table(
                (token, *(f"x{c + 1}" for c in range(width))),
                _matrix_rows(problem.tokens, problem.X, decimals),
                title=t("solve.given_projection"),
            )
        )
    for number, (given, head) in enumerate(zip(problem.heads, solution.heads), start=1):
        if given.projected:
            for name in ("W_Q", "W_K", "W_V"):
                W = getattr(given, name)
                if W is None:
                    continue
                blocks.append(
                    Table(
                        ("", *(f"{c + 1}" for c in range(len(W[0])))),
                        _matrix_rows([str(r + 1) for r in range(len(W))], W, decimals),
                        title=_head_title(number, many, name),
                    )
                )
        if given.projected and not projected:
            continue
        title = _head_title(number, many, t("solve.projected" if given.projected else "solve.given"))
        blocks.extend(qkv_tables(problem, head, decimals, title))
    return blocks


def qkv_tables(problem: Problem, head: HeadResult, decimals: int, title: str) -> list[Table]:
    """Table 13.1: each token's q, k and v as tuples (two tables for cross-attention)."""
    if problem.key_tokens is None:
        header = ("", "q (Query)", "k (Key)") + (("v (Value)",) if head.V is not None else ())
        rows = []
        for i, token in enumerate(problem.tokens):
            cells = [explain.vector(head.Q[i], decimals), explain.vector(head.K[i], decimals)]
            if head.V is not None:
                cells.append(explain.vector(head.V[i], decimals))
            rows.append((token, *cells))
        return [Table(header, tuple(rows), title=title)]
    queries = Table(
        ("", "q (Query)"),
        tuple((token, explain.vector(head.Q[i], decimals)) for i, token in enumerate(problem.tokens)),
        title=title,
    )
    header = ("", "k (Key)") + (("v (Value)",) if head.V is not None else ())
    rows = []
    for j, key in enumerate(problem.keys):
        cells = [explain.vector(head.K[j], decimals)]
        if head.V is not None:
            cells.append(explain.vector(head.V[j], decimals))
        rows.append((key, *cells))
    return [queries, Table(header, tuple(rows))]


def _cells(values, decimals: int, masked, number=fmt) -> tuple[str, ...]:
    return tuple("—" if not open_ else number(v, decimals) for v, open_ in zip(values, masked))


def divisor_label(solution: Solution, head: HeadResult, decimals: int) -> str:
    return explain.divisor_text(head, solution.problem.divide_by, decimals)


def stage_table(
    solution: Solution, stage: str, rows: list[int], decimals: int, *, blank: bool = False
) -> list[Table]:
    """One stage's table (one per head before the output), for the given query rows.

    With ``blank=True`` the cells are empty: a worksheet's answer boxes.
    """
    problem = solution.problem
    many = len(solution.heads) > 1
    corner = t("solve.query_key")
    if stage == "output":
        assert solution.output is not None  # a problem without values has no output stage
        width = solution.output.shape[1]
        header = ("", *(f"{c + 1}" for c in range(width)))
        output_rows = tuple(
            (problem.tokens[i], *(("",) * width if blank else (fmt(v, decimals) for v in solution.output[i])))
            for i in rows
        )
        return [Table(header, output_rows, title=t("solve.output"), blank=blank)]
    tables = []
    for number, head in enumerate(solution.heads, start=1):
        note = None
        if stage == "scaled":
            title = t("solve.scaled", divisor=divisor_label(solution, head, decimals))
        else:
            title = t(f"solve.{stage}")
        values = getattr(head, stage)
        header = (corner, *problem.keys)
        body: list[tuple[str, ...]] = []
        for i in rows:
            if blank:
                cells = tuple("" if head.mask[i, j] else "—" for j in range(len(problem.keys)))
            else:
                # scores are sums of products of the givens: whole numbers stay whole
                cells = _cells(values[i], decimals, head.mask[i], fmt_given if stage == "scores" else fmt)
            body.append((problem.tokens[i], *cells))
        if not head.mask[rows].all():
            note = t("solve.masked_note")
        tables.append(Table(header, tuple(body), title=_head_title(number, many, title), note=note, blank=blank))
    return tables


def exp_tables(solution: Solution, rows: list[int], decimals: int) -> list[Table]:
    """The softmax work: e^x of each scaled score and the row sum."""
    import numpy as np
    problem = solution.problem
    many = len(solution.heads) > 1
    tables = []
    for number, head in enumerate(solution.heads, start=1):
        header = (t("solve.query_key"), *problem.keys, t("solve.sum"))
        body = []
        for i in rows:
            cells = _cells(head.exps[i], decimals, head.mask[i])
            body.append((problem.tokens[i], *cells, fmt(head.exp_sums[i], decimals)))
        overflow = not np.isfinite(head.exp_sums[rows]).all()
        tables.append(
            Table(
                header,
                tuple(body),
                title=_head_title(number, many, t("solve.exps")),
                note=t("solve.overflow_note") if overflow else None,
            )
        )
    return tables


def weight_bars(solution: Solution, row: int, decimals: int) -> list[Bars]:
    problem = solution.problem
    many = len(solution.heads) > 1
    result = []
    places = max(decimals - 2, 1)
    for number, head in enumerate(solution.heads, start=1):
        bars = tuple(
            Bar(key, float(head.weights[row, j]), f"{fmt(100 * head.weights[row, j], places)}%")
            for j, key in enumerate(problem.keys)
            if head.mask[row, j]
        )
        title = _head_title(number, many, t("solve.bars", token=problem.tokens[row]))
        result.append(Bars(title, bars))
    return result


def explain_blocks(solution: Solution, row: int, decimals: int, stages) -> list[Math]:
    worked = explain.explain_row(solution, row, decimals)
    lines: list[str] = []
    for stage, stage_lines in worked.items():
        if stage != "projection" and stage not in stages:
            continue
        lines.append(f"{t(f'solve.explain_stage.{stage}')}:")
        lines.extend(f"  {line}" for line in stage_lines)
    if explain.has_approx(lines):
        lines.append(t(explain.APPROX_NOTE))
    return [Math(tuple(lines), title=t("solve.explain", token=solution.problem.tokens[row]))]


def solution_blocks(
    solution: Solution,
    *,
    decimals: int | None = None,
    rows: list[int] | None = None,
    last_stage: str | None = None,
    explain_rows: bool = False,
    bars: bool = True,
) -> list[Block]:
    """Everything ``solve`` shows for one problem, stage by stage."""
    problem = solution.problem
    if problem.kind == "sampling":
        return sampling.solution_blocks(solution, decimals=decimals, last_stage=last_stage, explain=explain_rows, bars=bars)  # type: ignore[arg-type]
    places = problem.decimals if decimals is None else decimals
    chosen = list(range(len(problem.tokens))) if rows is None else rows
    stages = problem.stages
    if last_stage is not None:
        stages = stages[: stages.index(last_stage) + 1]
    blocks: list[Block] = [problem_heading(problem), *problem_notes(problem)]
    blocks.extend(given_blocks(solution, places))
    for stage in stages:
        if stage == "weights":
            blocks.extend(exp_tables(solution, chosen, places))
        blocks.extend(stage_table(solution, stage, chosen, places))
    if bars and "weights" in stages:
        for i in chosen:
            blocks.extend(weight_bars(solution, i, places))
    if explain_rows:
        for i in chosen:
            blocks.extend(explain_blocks(solution, i, places, stages))
    return blocks


