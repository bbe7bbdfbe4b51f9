"""A sampling problem on a worksheet, its key, the key table and the question banks (the export
level: ``export -f html|md|tex|pdf``, ``--key-table``, ``-f moodle``, ``-f qti``).

The worksheet shows the problem's settings (T, top-k or top-p, the draw, the target), the
logits table (a continuation: one a step), what to write, and the tables to fill: one with a
column a token and a row an asked stage among z/T, e^(z/T), p and the kept p' (a cut token's p'
is written 0), and boxes for the token picked and the loss (a continuation: the loss a step and
the perplexity). The key fills the same tables (rounded half up to the problem's places) and
writes every cell's arithmetic out.

The banks ask the same cells (:func:`question`): each number a cell whose right answer is
:func:`attn_tutor.export.bank.right_answer` of the exact value with the stage's tolerance
(:func:`attn_tutor.kinds.sampling.marking.tolerances`), so that it accepts exactly the window
:func:`attn_tutor.kinds.sampling.marking.windows` gives the marker; e^(z/T - max), which the
marker takes as correct, a second right answer of the e^x cells; a cut token's kept p' exactly 0;
the token picked a choice over the tokens. The known mistakes' rows
(:func:`attn_tutor.kinds.sampling.marking.mistake_rows`) give each cell's wrong answers with their
diagnoses, as attention's banks do (:mod:`attn_tutor.export.bank`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal
from typing import NamedTuple

from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt
from attn_tutor.export.bank import Answer, Mistake, right_answer
from attn_tutor.kinds.sampling import engine, layout
from attn_tutor.kinds.sampling import marking as sampling_marking
from attn_tutor.kinds.sampling.engine import SamplingSolution
from attn_tutor.kinds.sampling.model import TOKEN_STAGES, SamplingProblem
from attn_tutor.marking.marker import EPS
from attn_tutor.problems.listing import stage_label
from attn_tutor.render.blocks import Block, Instructions, Math, Paragraph, Table

Key = tuple[str, int]  # (stage, index): one cell


class Grid(NamedTuple):
    """One table to fill: its title, header, and each row's label with the cells it holds."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Key, ...]], ...]


class NumberCell(NamedTuple):
    """One number a student types into one box."""

    stage: str
    index: int  # type: ignore[assignment]  # a field may shadow tuple.index: the position in the stage's cells
    column: str  # the token, the step, or the stage's name
    value: float  # exact (a cut token's kept p': 0)
    tolerance: float  # the stage's (the ranges of the mistakes)
    rights: tuple[Answer, ...]  # each accepted window: the value's, and e^(z/T - max)'s for e^x
    mistakes: tuple[Mistake, ...]  # outside every right window
    cut: bool = False  # a token top-k or top-p cuts: its p' is 0


class PickCell(NamedTuple):
    """The token picked: one choice among the tokens."""

    stage: str
    index: int  # type: ignore[assignment]
    tokens: tuple[str, ...]
    right: int  # the token's index
    mistakes: tuple[tuple[int, Mistake], ...]  # a wrong token that a known mistake picks, with it


class SamplingQuestion(NamedTuple):
    """One sampling problem of one sheet: its givens and every asked cell."""

    problem: SamplingProblem
    variant: int | None
    solution: SamplingSolution
    cells: tuple[NumberCell | PickCell, ...]


# --- what is asked and where it goes ------------------------------------------------------


def labels(problem: SamplingProblem, stage: str) -> tuple[str, ...]:
    """Each cell's column: the tokens, a continuation's steps, or the stage's own name."""
    if stage in TOKEN_STAGES:
        return problem.tokens
    if stage == "loss" and problem.continuation:
        return tuple(t("solve.sampling.step_label", n=n) for n in range(1, len(problem.steps) + 1))
    return (stage_label(problem, stage),)


def grids(problem: SamplingProblem, *, key: bool = False) -> list[Grid]:
    """The tables to fill, in order: the tokens' (a row an asked stage), then the boxes (headed
    "your answer", or in the ``key`` "answer")."""
    asked = problem.asked_stages
    box = t("export.key_table.answer" if key else "export.sampling.box")
    found = []
    if problem.continuation:
        if "loss" in asked:
            steps = labels(problem, "loss")
            row = (stage_label(problem, "loss"), tuple(("loss", i) for i in range(len(steps))))
            found.append(Grid(t("export.sampling.steps_table"), ("", *steps), (row,)))
        if "perplexity" in asked:
            found.append(Grid(t("export.sampling.boxes"), ("", box), ((stage_label(problem, "perplexity"), (("perplexity", 0),)),)))
        return found
    table = [s for s in asked if s in TOKEN_STAGES]
    if table:
        rows = tuple((stage_label(problem, s), tuple((s, i) for i in range(len(problem.tokens)))) for s in table)
        found.append(Grid(t("export.sampling.table"), (t("solve.token"), *problem.tokens), rows))
    boxes = [s for s in asked if s not in TOKEN_STAGES]
    if boxes:
        found.append(Grid(t("export.sampling.boxes"), ("", box), tuple((stage_label(problem, s), ((s, 0),)) for s in boxes)))
    return found


def grid_table(grid: Grid, fill: Callable[[str, int], str] | None) -> Table:
    """A grid as a table: blank boxes (``fill`` None), or each cell as ``fill`` writes it."""
    rows = tuple((label, *("" if fill is None else fill(*key) for key in keys)) for label, keys in grid.rows)
    return Table(grid.header, rows, title=grid.title, blank=fill is None)


def answer_text(solution: SamplingSolution, stage: str, index: int, *, cut: str | None = None) -> str:
    """One cell of the key: the number rounded half up, the token picked, or a cut token's 0."""
    value = solution.stage_values(stage)[index]
    if isinstance(value, str):
        return value
    if value is None:
        return t("export.sampling.cut_cell", zero=fmt(0.0, solution.problem.decimals)) if cut is None else cut
    return fmt(value, solution.problem.decimals)


def instructions(problem: SamplingProblem) -> Instructions:
    """What to write: the stages, the places, and how to write e^x, the kept p', the pick and the loss."""
    asked = problem.asked_stages
    items = [t("export.sampling.stages", stages=", ".join(stage_label(problem, s) for s in asked))]
    if "exp" in asked:
        items.append(t("export.sampling.exp"))
    if "kept" in asked:
        items.append(t("export.sampling.kept"))
    if "pick" in asked:
        items.append(t("export.sampling.pick_drawn" if problem.draw is not None else "export.sampling.pick_greedy"))
    if "loss" in asked and not problem.continuation and problem.target is not None:
        items.append(t("export.sampling.loss", token=problem.target))
    if problem.continuation:
        items.append(t("export.sampling.steps"))
    items.append(t("export.decimals", decimals=problem.decimals))
    return Instructions(tuple(items))


def given_blocks(problem: SamplingProblem) -> list[Block]:
    """The settings line and the logits (a continuation: a table a step, with the token that came next)."""
    blocks: list[Block] = [Paragraph(layout.settings(problem))]
    if not problem.continuation:
        return [*blocks, layout.given_table(problem)]
    for n, step in enumerate(problem.steps, start=1):
        table = layout.given_table(problem, step=n - 1)
        blocks.append(table._replace(title=t("solve.sampling.step", n=n, token=step.target)))
    return blocks


# --- the worksheet, the key, the key table ------------------------------------------------


def worksheet_blocks(problem: SamplingProblem) -> list[Block]:
    """One problem on a worksheet: heading, settings, what to write, the logits, the blank tables."""
    blocks: list[Block] = [layout.heading(problem), instructions(problem)]
    blocks += given_blocks(problem)
    blocks += [grid_table(grid, None) for grid in grids(problem)]
    return blocks


def key_blocks(problem: SamplingProblem) -> list[Block]:
    """One problem in the key: the same tables filled, then every cell's arithmetic."""
    solution = engine.solve(problem)
    d = problem.decimals
    blocks: list[Block] = [layout.heading(problem), Paragraph(layout.settings(problem))]
    blocks += [grid_table(grid, lambda stage, index: answer_text(solution, stage, index)) for grid in grids(problem, key=True)]
    if not problem.continuation:
        stages = problem.asked_stages
        blocks.append(Math(tuple(layout.explain_lines(problem, solution.step, d, stages)), title=t("solve.sampling.explain")))
        return blocks
    for step in solution.steps:
        lines = layout.explain_lines(problem, step, d, ("probabilities",))
        lines.append(layout.loss_sentence(problem, step, d))
        blocks.append(Math(tuple(lines), title=t("solve.sampling.step", n=solution.steps.index(step) + 1, token=problem.tokens[step.target])))  # type: ignore[index]
    if "perplexity" in problem.asked_stages:
        losses = [s.loss for s in solution.steps]
        mean = math.fsum(losses) / len(losses)  # type: ignore[arg-type]
        text = t("solve.sampling.perplexity", losses=" + ".join(fmt(v, d) for v in losses), n=len(losses), mean=fmt(mean, d), perplexity=fmt(solution.perplexity, d))
        blocks.append(Paragraph(text))
    return blocks


def key_rows(problem: SamplingProblem) -> list[tuple[str, str, str, str]]:
    """The key table's lines: (problem, row, stage, answer); a sampling problem has no row (—), a cut token is —."""
    solution = engine.solve(problem)
    rows = []
    for stage in problem.asked_stages:
        values = solution.stage_values(stage)
        if stage in TOKEN_STAGES:
            answer = ", ".join(f"{token} {answer_text(solution, stage, i, cut='—')}" for i, token in enumerate(problem.tokens))
        else:
            answer = ", ".join(answer_text(solution, stage, i) for i in range(len(values)))
        rows.append((problem.id, "—", stage_label(problem, stage), answer))
    return rows


# --- the banks' cells ----------------------------------------------------------------------


def question(sheet, problem: SamplingProblem) -> SamplingQuestion:
    """One sampling problem of one sheet, solved, with every asked cell."""
    solution = engine.solve(problem)
    return SamplingQuestion(problem, sheet.variant, solution, cells(solution))


def cells(solution: SamplingSolution) -> tuple[NumberCell | PickCell, ...]:
    """Every asked cell, in the order the worksheet's tables read: stage by stage, token by token."""
    problem = solution.problem
    tolerances = sampling_marking.tolerances(problem)
    found: list[NumberCell | PickCell] = []
    for stage in problem.asked_stages:
        made = sampling_marking.mistake_rows(solution, stage)
        if stage == "pick":
            found.append(_pick_cell(solution, made))
            continue
        values = solution.stage_values(stage)
        columns = labels(problem, stage)
        tolerance = tolerances[stage]
        for i, exact in enumerate(values):
            if (exact is None and stage != "kept") or (exact is not None and not math.isfinite(exact)):
                continue  # no loss without a target; no number is within a tolerance of an infinite one
            cut = exact is None
            value = 0.0 if cut else float(exact)
            rights = [right_answer(value, 0.0 if cut else tolerance, problem.decimals)]
            if stage == "exp" and solution.step.shifted[i] != value:  # e^(z/T - max): as correct
                rights.append(right_answer(solution.step.shifted[i], tolerance, problem.decimals))
            wrong = [(code, 0.0 if row[i] is None and stage == "kept" else row[i]) for code, row in made]
            found.append(NumberCell(stage, i, columns[i], value, tolerance, tuple(rights), _mistakes(value, wrong, tolerance, rights), cut))
    return tuple(found)


def _mistakes(value: float, made: list[tuple[str, float | None]], tolerance: float, rights: list[Answer]) -> tuple[Mistake, ...]:
    """The mistakes that give this cell another number, each number once (the first mistake's),
    none inside a right window (a quiz system would never reach it)."""
    chosen: list[Mistake] = []
    for code, wrong in made:
        if wrong is None or not math.isfinite(wrong) or abs(wrong - value) <= tolerance + EPS:
            continue
        if any(abs(wrong - other.value) <= tolerance + EPS for other in chosen):
            continue
        if any(Decimal(right.low) <= Decimal(repr(float(wrong))) <= Decimal(right.high) for right in rights):
            continue
        chosen.append(Mistake(code, float(wrong), t(f"grading.diagnosis.{code}")))
    return tuple(chosen)


def _pick_cell(solution: SamplingSolution, made: list) -> PickCell:
    problem = solution.problem
    right = solution.step.pick
    mistakes: list[tuple[int, Mistake]] = []
    for code, (token,) in made:
        index = problem.tokens.index(token)
        if index != right and all(index != other for other, _ in mistakes):
            mistakes.append((index, Mistake(code, float(index), t(f"grading.diagnosis.{code}"))))
    return PickCell("pick", 0, problem.tokens, right, tuple(mistakes))
