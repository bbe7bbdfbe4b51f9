"""A sampling problem worked out as blocks (``solve``, the worksheets' keys) and as
``solve --format json``.

One table a step: each candidate's logit z, z/T, e^(z/T), its probability, what top-k or
top-p keeps (renormalised) and its interval for the draw; then the pick, the loss, the bars
of the distribution and, with ``--explain``, every cell's arithmetic written out.

``solve --format json`` gives each sampling problem::

    {"id", "kind": "sampling", "tokens", "logits", "temperature", "top_k", "top_p", "draw",
     "target", "exp_sum", "stages": {"scaled", "exp", "probabilities": [...] in token order,
     "kept": {token: probability}, "pick": token, "loss": number}}

and a continuation ``"steps": [{"logits", "target", "scaled", "exp", "probabilities", "loss"}]``
with ``"stages": {"loss": [one a step], "perplexity": number}``.
"""

from __future__ import annotations

import math
from typing import Any

from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.kinds.sampling.engine import SamplingSolution, StepSolution, ranked
from attn_tutor.kinds.sampling.model import STAGES, TOKEN_STAGES, SamplingProblem
from attn_tutor.render.blocks import Bar, Bars, Block, Heading, Math, Paragraph, Table


def heading(problem: SamplingProblem) -> Heading:
    return Heading(f"{problem.id} — {problem.title}" if problem.title else problem.id, level=2)


def settings(problem: SamplingProblem) -> str:
    """The problem's settings in one line: T, top-k or top-p, the draw, the target."""
    parts = [f"T = {fmt_given(problem.temperature, 4)}"]
    if problem.top_k is not None:
        parts.append(f"top-k = {problem.top_k}")
    if problem.top_p is not None:
        parts.append(f"top-p = {fmt_given(problem.top_p, 4)}")
    if not problem.continuation:
        parts.append(t("solve.sampling.draw", u=fmt_given(problem.draw, 4)) if problem.draw is not None else t("solve.sampling.greedy"))
    if problem.target is not None and not problem.continuation:
        parts.append(t("solve.sampling.target", token=problem.target))
    return " · ".join(parts)


def given_table(problem: SamplingProblem, *, step: int = 0) -> Table:
    """The logits of a step as given (a continuation's step titled with the token that came next)."""
    logits = problem.steps[step].logits
    title = t("solve.sampling.given")
    if problem.continuation:
        title = t("solve.sampling.step", n=step + 1, token=problem.steps[step].target)
    return Table((t("solve.token"), *problem.tokens), (("z", *(fmt_given(z, 4) for z in logits)),), title=title)


def _columns(stages: tuple[str, ...]) -> tuple[str, ...]:
    """The table's columns shown for the stages up to the last shown."""
    columns = ["scaled", "exp", "probabilities"]
    if "kept" in stages or "pick" in stages:
        columns += ["kept"]
    return tuple(c for c in columns if STAGES.index(c) <= max(STAGES.index(s) for s in stages))


def step_table(problem: SamplingProblem, step: StepSolution, decimals: int, stages: tuple[str, ...], *, title: str | None = None) -> Table:
    """Each token's z, z/T, e^(z/T), p (and kept p', interval) as rows; the sums last."""
    columns = _columns(stages)
    interval = "kept" in columns and problem.draw is not None
    header = (t("solve.token"), "z", *(t(f"solve.sampling.column.{c}") for c in columns))
    if interval:
        header += (t("solve.sampling.column.interval"),)
    rows = []
    for i, token in enumerate(problem.tokens):
        cells = [fmt_given(step.logits[i], 4)]
        for column in columns:
            value = {"scaled": step.scaled, "exp": step.exps, "probabilities": step.probabilities, "kept": step.kept}[column][i]
            cells.append(t("solve.sampling.cut") if value is None else fmt(value, decimals))
        if interval:
            span = step.intervals[i]
            cells.append("—" if span is None else f"[{fmt(span[0], decimals)}, {fmt(span[1], decimals)})")
        mark = " ◀" if step.target == i and "loss" in problem.asked_stages else ""
        rows.append((token + mark, *cells))
    sums = [t("solve.sum"), ""]
    for column in columns:
        sums.append({"exp": fmt(step.exp_sum, decimals), "probabilities": fmt(1.0, decimals)}.get(column, ""))
        if column == "kept":
            sums[-1] = fmt(math.fsum(p for p in step.kept if p is not None), decimals)
    if interval:
        sums.append("")
    if "exp" in columns:
        rows.append(tuple(sums))
    return Table(header, tuple(rows), title=title or t("solve.sampling.table"))


def distribution_bars(problem: SamplingProblem, step: StepSolution, decimals: int, *, kept: bool = False) -> Bars:
    values = step.kept if kept else step.probabilities
    places = max(decimals - 2, 1)
    bars = tuple(
        Bar(token, float(values[i]), f"{fmt(100 * values[i], places)}%")  # type: ignore[arg-type,operator]  # (cut tokens skipped below)
        for i, token in enumerate(problem.tokens)
        if values[i] is not None
    )
    title = t("solve.sampling.bars_kept" if kept else "solve.sampling.bars", temperature=fmt_given(problem.temperature, 4))
    return Bars(title, bars)


EXTRA_PLACES = 4
"""The most places past the decimals a worked line's numbers are shown with (:func:`_places`)."""


def _places(line, operands, result: float, d: int) -> int:
    """The fewest places, from ``d``, at which the ``operands`` shown make ``line`` of them give
    ``result`` as shown at ``d`` places, so that every written line is true arithmetic: "sofa:
    0.289 ÷ 0.719 = 0.401" is not (it is 0.402), "0.2887 ÷ 0.7194 = 0.401" is."""
    if not all(math.isfinite(v) for v in (*operands, result)):
        return d
    want = fmt(result, d)
    for places in range(d, d + EXTRA_PLACES + 1):
        try:
            if fmt(line(*(float(fmt(v, places)) for v in operands)), d) == want:
                return places
        except (ValueError, ZeroDivisionError, OverflowError):
            break
    return d + EXTRA_PLACES


def _divisions(pairs, d: int) -> list[str]:
    """Lines "a ÷ b = result", (a, b, result) each, all at the places the most exacting one needs."""
    places = max((_places(lambda x, y: x / y, (a, b), result, d) for a, b, result in pairs), default=d)
    return [f"{fmt(a, places)} ÷ {fmt(b, places)} = {fmt(result, d)}" for a, b, result in pairs]


def _summed(terms, total: float, d: int) -> str:
    places = _places(lambda *xs: math.fsum(xs), tuple(terms), total, d)
    return f"{' + '.join(fmt(v, places) for v in terms)} = {fmt(total, d)}"


def pick_sentence(problem: SamplingProblem, step: StepSolution, decimals: int) -> str:
    token = problem.tokens[step.pick]
    if problem.draw is None:
        return t("solve.sampling.pick_greedy", token=token, p=fmt(step.kept[step.pick], decimals))
    low, high = step.intervals[step.pick]  # type: ignore[misc]
    return t("solve.sampling.pick_drawn", token=token, u=fmt_given(problem.draw, 4), low=fmt(low, decimals), high=fmt(high, decimals))


def loss_sentence(problem: SamplingProblem, step: StepSolution, decimals: int) -> str:
    assert step.target is not None and step.loss is not None
    p = step.probabilities[step.target]
    places = _places(lambda q: -math.log(q), (p,), step.loss, decimals)
    return t("solve.sampling.loss", token=problem.tokens[step.target], p=fmt(p, places), loss=fmt(step.loss, decimals))


def explain_lines(problem: SamplingProblem, step: StepSolution, decimals: int, stages: tuple[str, ...]) -> list[str]:
    """Every cell's arithmetic as a student writes it, stage by stage."""
    d, T = decimals, fmt_given(problem.temperature, 4)
    tokens = problem.tokens
    lines = [f"{t('solve.sampling.column.scaled')}:"]
    lines += [f"  {tok}: {fmt_given(z, 4)} ÷ {T} = {fmt(s, d)}" for tok, z, s in zip(tokens, step.logits, step.scaled)]
    if max(STAGES.index(s) for s in stages) < STAGES.index("exp"):
        return lines
    lines.append(f"{t('solve.sampling.column.exp')}:")
    lines += [f"  {tok}: e^{fmt(s, _places(math.exp, (s,), e, d))} = {fmt(e, d)}" for tok, s, e in zip(tokens, step.scaled, step.exps)]
    lines.append(f"  Σ = {_summed(step.exps, step.exp_sum, d)}")
    lines.append(f"{t('solve.sampling.column.probabilities')}:")
    divisions = _divisions([(e, step.exp_sum, p) for e, p in zip(step.exps, step.probabilities)], d)
    lines += [f"  {tok}: {line}" for tok, line in zip(tokens, divisions)]
    if problem.truncation is not None and max(STAGES.index(s) for s in stages) >= STAGES.index("kept"):
        lines += _kept_lines(problem, step, d)
    if "pick" in stages or max(STAGES.index(s) for s in stages) >= STAGES.index("pick"):
        lines.append(pick_sentence(problem, step, d))
    if step.target is not None and "loss" in stages:
        lines.append(loss_sentence(problem, step, d))
    return lines


def _kept_lines(problem: SamplingProblem, step: StepSolution, d: int) -> list[str]:
    order = ranked(step.probabilities)
    kept = [i for i in order if step.kept[i] is not None]
    lines = [f"{t('solve.sampling.column.kept')}:"]
    listed = ", ".join(f"{problem.tokens[i]} {fmt(step.probabilities[i], d)}" for i in order)
    lines.append(f"  {t('solve.sampling.ranked')}: {listed}")
    total = math.fsum(step.probabilities[i] for i in kept)
    if problem.top_p is not None:
        lines.append(f"  {_summed([step.probabilities[i] for i in kept], total, d)} ≥ {fmt_given(problem.top_p, 4)}")
    else:
        lines.append(f"  top-{problem.top_k}: {', '.join(problem.tokens[i] for i in kept)}")
    lines += [
        f"  {problem.tokens[i]}: {line}" for i, line in zip(kept, _divisions([(step.probabilities[i], total, step.kept[i]) for i in kept], d))
    ]
    return lines


def solution_blocks(
    solution: SamplingSolution, *, decimals: int | None = None, last_stage: str | None = None, explain: bool = False, bars: bool = True
) -> list[Block]:
    """Everything ``solve`` shows for one sampling problem."""
    problem = solution.problem
    d = problem.decimals if decimals is None else decimals
    blocks: list[Block] = [heading(problem), Paragraph(settings(problem))]
    if problem.continuation:
        return blocks + _continuation_blocks(solution, d, explain)
    stages = problem.stages if last_stage is None else problem.stages[: problem.stages.index(last_stage) + 1]
    step = solution.step
    blocks.append(step_table(problem, step, d, stages))
    if "pick" in stages:
        blocks.append(Paragraph(pick_sentence(problem, step, d)))
    if "loss" in stages and step.target is not None:
        blocks.append(Paragraph(loss_sentence(problem, step, d)))
    if bars and "probabilities" in stages:
        blocks.append(distribution_bars(problem, step, d))
        if problem.truncation is not None and "kept" in stages:
            blocks.append(distribution_bars(problem, step, d, kept=True))
    if explain:
        blocks.append(Math(tuple(explain_lines(problem, step, d, stages)), title=t("solve.sampling.explain")))
    return blocks


def _continuation_blocks(solution: SamplingSolution, d: int, explain: bool) -> list[Block]:
    problem = solution.problem
    blocks: list[Block] = []
    for n, step in enumerate(solution.steps, start=1):
        blocks.append(step_table(problem, step, d, ("probabilities",), title=t("solve.sampling.step", n=n, token=problem.tokens[step.target])))  # type: ignore[index]
        blocks.append(Paragraph(loss_sentence(problem, step, d)))
        if explain:
            blocks.append(Math(tuple(explain_lines(problem, step, d, ("probabilities",))), title=t("solve.sampling.explain")))
    blocks.append(Paragraph(perplexity_sentence(solution, d)))
    return blocks


def perplexity_sentence(solution: SamplingSolution, d: int) -> str:
    """A continuation's perplexity worked: e to the mean of its losses."""
    losses = [s.loss for s in solution.steps]
    n = len(losses)
    places, mean = d, math.fsum(losses) / n  # type: ignore[arg-type]
    finite = all(v is not None and math.isfinite(v) for v in losses) and math.isfinite(solution.perplexity or math.inf)
    for places in range(d, d + EXTRA_PLACES + 1) if finite else ():  # the losses and their mean shown so that e^mean is the perplexity as shown
        mean = math.fsum(float(fmt(v, places)) for v in losses) / n
        if fmt(math.exp(float(fmt(mean, places))), d) == fmt(solution.perplexity, d):
            break
    return t(
        "solve.sampling.perplexity",
        losses=" + ".join(fmt(v, places) for v in losses),
        n=n,
        mean=fmt(mean, places),
        perplexity=fmt(solution.perplexity, d),
    )


def _numbers(values) -> list:
    return [None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v) for v in values]


def solution_dict(solution: SamplingSolution) -> dict:
    """The problem in ``solve --format json`` (see the module's docstring)."""
    problem, step = solution.problem, solution.step
    result: dict[str, Any] = {
        "id": problem.id,
        "kind": "sampling",
        "tokens": list(problem.tokens),
        "temperature": problem.temperature,
        "top_k": problem.top_k,
        "top_p": problem.top_p,
    }
    if problem.continuation:
        result["steps"] = [
            {
                "logits": list(s.logits),
                "target": problem.tokens[s.target],  # type: ignore[index]
                "scaled": _numbers(s.scaled),
                "exp": _numbers(s.exps),
                "probabilities": _numbers(s.probabilities),
                "loss": s.loss,
            }
            for s in solution.steps
        ]
        result["stages"] = {"loss": [s.loss for s in solution.steps], "perplexity": solution.perplexity}
        return result
    result.update(logits=list(problem.logits), draw=problem.draw, target=problem.target, exp_sum=step.exp_sum)
    result["stages"] = {
        "scaled": _numbers(step.scaled),
        "exp": _numbers(step.exps),
        "probabilities": _numbers(step.probabilities),
        "kept": {token: p for token, p in zip(problem.tokens, step.kept) if p is not None},
        "pick": problem.tokens[step.pick],
        "loss": step.loss,
    }
    return result


def stage_lines(solution: SamplingSolution, stage: str) -> list[str]:
    """The worked lines of one stage (``solve --explain``'s), without its heading: the hints after the
    stage's rule, a line at a time, in the quiz and on the page."""
    problem, d = solution.problem, solution.problem.decimals
    if problem.continuation:
        if stage == "perplexity":
            return [perplexity_sentence(solution, d)]
        return [loss_sentence(problem, step, d) for step in solution.steps] if stage == "loss" else []
    lines = explain_lines(problem, solution.step, d, problem.stages)
    heading = f"{t(f'solve.sampling.column.{stage}')}:" if stage in TOKEN_STAGES else None
    if heading is None or heading not in lines:
        pick, loss = pick_sentence(problem, solution.step, d), solution.step.target is not None and loss_sentence(problem, solution.step, d)
        return [pick] if stage == "pick" else [loss] if stage == "loss" and loss else []
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return [line.strip() for line in lines[start:end]]


def stage_title(stage: str) -> str:
    """A sampling stage's name as a student reads it (``sampling.stage.<stage>``: "scaled logits z/T",
    not attention's "scaled" scores)."""
    return t(f"sampling.stage.{stage}")


def cell_labels(problem: SamplingProblem, stage: str) -> tuple[str, ...]:
    """The names of a stage's cells, wherever they are asked or marked: a token each (z/T, e^x,
    the probabilities, the kept ones), a step each for a continuation's loss, else the stage's name."""
    if stage in TOKEN_STAGES:
        return problem.tokens
    if stage == "loss" and problem.continuation:
        return tuple(t("solve.sampling.step_label", n=n) for n in range(1, len(problem.steps) + 1))
    return (stage_title(stage),)
