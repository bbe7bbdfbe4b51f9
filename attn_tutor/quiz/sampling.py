"""The quiz's questions for a sampling problem: what to type at each stage, reading it, and the
feedback practice mode gives (the loop itself is :mod:`attn_tutor.quiz.loop`'s).

What a student types: a stage of numbers as a row in token order (``4 2 0.2``; e^x may be
worked as e^(z/T - max)); ``kept`` the same, a cut token typed as 0; ``pick`` the token;
``loss`` and ``perplexity`` one number (a continuation's loss: one a step).
"""

from __future__ import annotations

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import t
from attn_tutor.core.rounding import fmt, fmt_given, fmt_score
from attn_tutor.kinds.sampling import layout
from attn_tutor.kinds.sampling import marking as sampling
from attn_tutor.kinds.sampling.engine import SamplingSolution
from attn_tutor.marking import answers
from attn_tutor.marking.results import Item, diagnosis_name, explanation
from attn_tutor.render.blocks import Block, Heading, Math, Paragraph


def labels(solution: SamplingSolution, stage: str) -> tuple[str, ...]:
    """The names of a stage's cells (:func:`attn_tutor.kinds.sampling.layout.cell_labels`)."""
    return layout.cell_labels(solution.problem, stage)


def intro_blocks(solution: SamplingSolution) -> list[Block]:
    problem = solution.problem
    blocks: list[Block] = [layout.heading(problem), Paragraph(layout.settings(problem))]
    if problem.continuation:
        blocks += [layout.given_table(problem, step=i) for i in range(len(problem.steps))]  # each step titled with its target
    else:
        blocks.append(layout.given_table(problem))
    return blocks


def question_blocks(solution: SamplingSolution, stage: str, progress: tuple[int, int]) -> list[Block]:
    problem = solution.problem
    names = labels(solution, stage)
    if stage == "pick":
        ask = t("quiz.sampling.ask_pick", tokens=", ".join(problem.tokens))
    else:
        ask = t("quiz.sampling.ask", count=len(names), cells=", ".join(names)) if len(names) > 1 else t("quiz.sampling.ask_one", cell=names[0])
        ask += " " + t("quiz.ask_decimals", decimals=problem.decimals)
    if stage == "kept":
        ask += " " + t("quiz.sampling.ask_kept")
    title = f"{layout.stage_title(stage)} — {t('quiz.progress', n=progress[0], total=progress[1])}"
    return [Heading(title, level=3), Paragraph(ask)]


def parse_answer(solution: SamplingSolution, stage: str, text: str) -> tuple:
    """The cells a student typed for ``stage`` (raises :class:`AttnTutorError` with what to type)."""
    problem = solution.problem
    if stage == "pick":
        token = text.strip()
        if token not in problem.tokens:
            raise AttnTutorError("quiz.sampling.not_a_token", token=token, tokens=", ".join(problem.tokens))
        return (token,)
    values = answers.parse_row(text)
    expected = sampling.cell_count(problem, stage)
    if len(values) != expected:
        raise AttnTutorError("quiz.wrong_count", given=len(values), expected=expected)
    return tuple(values)


def read_answer(solution: SamplingSolution, stage: str, current: dict, read_line, show, prompt: str) -> tuple[str | None, tuple | None]:
    """Read lines until one answers ``stage``: (None, cells), or (how the quiz ended, None).
    ``?`` counts a hint in ``current`` and shows it."""
    while True:
        line = read_line(prompt)
        command = "eof" if line is None else answers.command(line)
        if command in ("eof", "quit"):
            return command, None
        if command == "hint":
            current["hints"] += 1
            show(hint(solution, stage, current["hints"]))
            continue
        if command == "empty":
            show(t("quiz.empty"))
            continue
        try:
            return None, parse_answer(solution, stage, line)
        except AttnTutorError as error:
            show("\n".join([*error.messages(), t("quiz.again")]))


def hint(solution: SamplingSolution, stage: str, count: int) -> str:
    """The ``count``-th hint: first the stage's rule, then its arithmetic, a cell at a time, on the exact numbers before it."""
    if count == 1:
        return t(f"quiz.sampling.hint.{stage}")
    worked = layout.stage_lines(solution, stage)
    if count - 2 < len(worked):
        return worked[count - 2]
    return t("quiz.sampling.no_more_hints")


def feedback_blocks(solution: SamplingSolution, item: Item) -> list[Block]:
    """Practice mode, after a stage: the verdict, each cell off with the value expected, the mistake named and explained."""
    d = solution.problem.decimals
    names = labels(solution, item.stage)

    def shown(value) -> str:
        return value if isinstance(value, str) else t("solve.sampling.cut") if value is None else fmt_given(value, d)

    lines = [t("quiz.verdict", verdict=t(f"grading.verdict.{item.verdict}"), points=fmt_score(item.points))]
    for i, state in enumerate(item.cells):
        if state in ("wrong", "follow_through") and item.given is not None:
            expected = item.expected[i]
            args = dict(n=i + 1, label=names[i], given=shown(item.given[i]), expected=shown(expected))
            if state == "wrong":
                lines.append(t("quiz.cell_off", **args))
            else:
                lines.append(t("quiz.cell_follow", carried=shown(item.carried[i] if item.carried else None), **args))
    if item.diagnosis is not None:
        lines.append(f"{diagnosis_name(item.diagnosis)}: {explanation(item)}")
    if item.verdict != "correct":
        lines.append(t("quiz.go_on"))
    worked = [shown(v) if not isinstance(v, float) else fmt(v, d) for v in item.expected]
    lines.append(t("quiz.sampling.exact", values="  ".join(worked)))
    return [Math(tuple(lines))]
