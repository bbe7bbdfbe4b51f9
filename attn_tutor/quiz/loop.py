"""The question loop: asks each stage of each row, marks it, says which cell is off.

Input and output are parameters, so tests and the benchmark drive the loop
without a terminal::

    outcome = run(config, read_line, show)

``read_line(prompt)`` returns one line the student typed, or ``None`` at the end
of input (it may raise ``KeyboardInterrupt``); ``show(blocks_or_text)`` draws a
list of :mod:`attn_tutor.render.blocks` blocks or one line of text.

One line is read per asked stage, plus one per re-ask: a line that does not parse
or has the wrong number of cells is not marked; the student is told why and asked
again. ``?``/``hint`` shows a hint (first the formula, then one cell's
arithmetic after another on the student's own numbers) and is counted; ``q``/``quit``, end of
input and Ctrl-C stop the quiz: the stage on screen is recorded as missing, the
partial score is shown, and the caller writes the report so far (the report holds
the items asked so far, not the ones never reached).

A row of scores, scaled scores or weights with masked cells may be typed in full
(any number in a masked score; 0 in a masked weight) or with the masked cells
left out.

Practice mode shows, after each stage, the verdict, each cell that is off with
the value expected, the diagnosis, and the exact row; the student goes on from
it. Exam mode shows nothing until the end. Both end with a summary table
(verdicts and diagnoses named in the student's language); an exam's adds each
diagnosis's explanation, once per item it applies to.

Hints: the first is the stage's formula; each further ``?`` works the next cell
of the row out (masked cells skipped, heads in order) on the numbers the student
goes on from — in an exam their own earlier row; in practice their own previous
row if it was right (or follow-through), else the exact row just shown — and after
the last cell says there is nothing more. Every ``?`` is counted in the report,
not deducted.

The report file (``--report``) is :func:`report_dict`: every item of the quiz (those
not reached: ``missing``), ``max_score`` for the whole quiz and ``finished``; it is
written whole (:func:`attn_tutor.core.writing.write_atomic`) before the first question,
after every marked item and when the quiz ends for any reason, SIGTERM and SIGHUP
included (:mod:`attn_tutor.core.stopping`).
:func:`check_report_path` refuses an existing file without ``--force`` (or a
missing directory) before the first question, so no answer is typed in vain.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import t
from attn_tutor.core.model import Problem, ProblemSet, Stage
from attn_tutor.core.rounding import fmt_given, fmt_score
from attn_tutor.core.stopping import exit_status
from attn_tutor.core.writing import refuse_overwrite, write_atomic
from attn_tutor.kinds.sampling import layout as sampling_layout
from attn_tutor.marking import answers
from attn_tutor.marking import marker as grading
from attn_tutor.marking.concepts import ConceptMark, concept_feedback, mark_concept, parse_choice, problem_text
from attn_tutor.marking.hints import cell_labels, hint_blocks, stage_title
from attn_tutor.marking.marker import Item, Report
from attn_tutor.quiz import sampling as sampling_quiz
from attn_tutor.render.blocks import Block, Heading, Math, Paragraph, Table
from attn_tutor.solve import engine
from attn_tutor.solve.concepts import ShownConcept, concept_blocks
from attn_tutor.solve.concepts import show as show_concept
from attn_tutor.solve.engine import Solution
from attn_tutor.solve.layout import given_blocks, problem_heading, problem_notes, stage_table

ReadLine = Callable[[str], "str | None"]
Show = Callable[["list[Block] | str"], None]

QUIT = answers.QUIT  # the words the quiz reads as commands: the one rule is answers.command
HINT = answers.HINT


@dataclass(frozen=True)
class Plan:
    """One problem and the query rows to ask (indices into its tokens)."""

    problem: Problem
    rows: tuple[int, ...]


@dataclass(frozen=True)
class QuizConfig:
    plans: tuple[Plan, ...]
    problem_set: str  # the report's name for the set: a packaged name, a path or "random"
    mode: str = "practice"
    follow_through: str = "full"
    student: str | None = None
    seed: int | None = None
    concepts: tuple[ShownConcept, ...] = ()  # the set's concept items, asked after the problems

    def __post_init__(self) -> None:
        if self.mode not in grading.MODES:
            raise ValueError(f"mode must be one of {grading.MODES}")
        if self.follow_through not in grading.FOLLOW_THROUGH:
            raise ValueError(f"follow_through must be one of {tuple(grading.FOLLOW_THROUGH)}")


@dataclass
class Outcome:
    report: Report  # the items asked (the one on screen when stopped: missing)
    ended: str  # "done", "quit", "eof" or "interrupt"
    asked: int  # questions put to the student
    total: int  # questions the quiz had
    status: int = 0  # exit status: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP
    save_error: AttnTutorError | None = None  # the last report write that failed, if any
    concepts: list[tuple[ShownConcept, ConceptMark]] = field(default_factory=list)  # the concept items answered

    @property
    def exit_code(self) -> int:
        if self.ended == "interrupt":
            return self.status or 130
        return 1 if self.save_error is not None else 0


def plan(problems: Sequence[Problem], row: str | None = None) -> tuple[Plan, ...]:
    """Each problem with its asked rows, or only the row of token ``row`` (problems without it are left out)."""
    plans = []
    for problem in problems:
        if problem.kind == "sampling":  # no rows: its stages stand under its id
            plans += [Plan(problem, (0,))] if row is None else []
        elif row is None:
            plans.append(Plan(problem, tuple(problem.row_index(token) for token in problem.asked_rows)))
        elif row in problem.tokens:
            plans.append(Plan(problem, (problem.row_index(row),)))
    return tuple(plans)


def concept_items(problem_set: ProblemSet, problem_id: str | None = None, row: str | None = None) -> tuple[ShownConcept, ...]:
    """The concept items a quiz asks, as shown in the language spoken: the whole set's (``problem_id``
    None), in the set's order; of one problem, only the computed items worked out from its numbers;
    none for one row (``row``)."""
    if row is not None:
        return ()
    chosen = [c for c in problem_set.concepts if problem_id is None or (c.kind == "computed" and c.problem == problem_id)]
    return tuple(show_concept(concept, problem_set) for concept in chosen)


def count_questions(plans: Sequence[Plan]) -> int:
    return sum(len(p.rows) * len(p.problem.asked_stages) for p in plans)


# --- labels -------------------------------------------------------------------------


# --- reading an answer --------------------------------------------------------------


def parse_answer(solution: Solution, row: int, stage: str, text: str) -> list[float]:
    """The row a student typed, in full: masked cells left out are filled in (0)."""

    values = answers.parse_row(text)
    width = grading.row_width(solution, stage)
    open_ = grading.open_cells(solution, row, stage)
    full = grading.full_row(values, open_.tolist())
    if full is not None:
        return full
    if not open_.all():
        raise AttnTutorError("quiz.wrong_count_masked", given=len(values), expected=width, open=int(open_.sum()))
    raise AttnTutorError("quiz.wrong_count", given=len(values), expected=width)


# --- hints --------------------------------------------------------------------------


# --- feedback -----------------------------------------------------------------------


def feedback_blocks(solution: Solution, row: int, item: Item, *, early=None) -> list[Block]:
    """Practice mode, after a stage: verdict, each cell that is off, the diagnosis (or, for a right
    row that shows early rounding, ``early``: a note), the exact row."""
    decimals = solution.problem.decimals
    labels = cell_labels(solution, item.stage)
    points = fmt_score(item.points)
    lines = [t("quiz.verdict", verdict=t(f"grading.verdict.{item.verdict}"), points=points)]
    for i, state in enumerate(item.cells):
        if state not in ("wrong", "follow_through"):
            continue
        expected = item.expected[i]
        assert item.given is not None and expected is not None  # a marked cell of a given row
        args = dict(
            n=i + 1,
            label=labels[i],
            given=fmt_given(item.given[i], decimals),
            expected=fmt_given(expected, decimals),
        )
        if state == "wrong":
            lines.append(t("quiz.cell_off", **args))
        else:
            carried = item.carried[i] if item.carried is not None else None
            assert carried is not None  # followed through: carried
            lines.append(t("quiz.cell_follow", carried=fmt_given(carried, decimals), **args))
    if (said := grading.explanation(item)) is not None:  # (a diagnosis to explain)
        lines.append(said)
    if early is not None:
        lines.append(t("quiz.early_rounding_note", sentence=grading.rounding_sentence(early)))
    if item.verdict != "correct":
        lines.append(t("quiz.go_on"))
    blocks: list[Block] = [Math(tuple(lines))]
    blocks.extend(stage_table(solution, item.stage, [row], decimals))
    return blocks


def summary_blocks(outcome: Outcome) -> list[Block]:
    report = outcome.report
    header = tuple(
        t(f"quiz.summary.{name}") for name in ("problem", "row", "stage", "verdict", "off", "hints", "points")
    )
    rows = []
    for item in report.items:
        off = ", ".join(str(i + 1) for i, state in enumerate(item.cells) if state == "wrong")
        verdict = t(f"grading.verdict.{item.verdict}")
        if item.diagnosis:
            verdict += f" ({grading.diagnosis_name(item.diagnosis)})"
        rows.append(
            (
                item.problem,
                item.row,
                _stage_text(item),
                verdict,
                off or "—",
                str(item.hints),
                fmt_score(item.points),
            )
        )
    blocks: list[Block] = [Table(header, tuple(rows), title=t("quiz.summary.title"))] if rows or not outcome.concepts else []
    if report.mode == "exam":  # the only feedback an exam gives: each diagnosis explained, once per item
        explained = tuple(
            f"{item.problem} · {item.row + ' · ' if item.row else ''}{_stage_text(item)}: "
            f"{grading.explanation(item)}"
            for item in report.items
            if item.diagnosis is not None
        )
        if explained:
            blocks.append(Math(explained, title=t("quiz.summary.mistakes")))
    blocks += _concept_summary(outcome)
    concept_score = sum(mark.score for _, mark in outcome.concepts)
    score = dict(score=fmt_score(report.score + concept_score), max=fmt_score(report.max_score + len(outcome.concepts)))
    if outcome.ended != "done":  # stopped early: the score of the questions answered, not of the one left open
        answered = [item for item in report.items if item.verdict != "missing"]
        marked = [mark for _, mark in outcome.concepts if mark.chosen]
        score = dict(
            score=fmt_score(sum(item.points for item in answered) + sum(mark.score for mark in marked)),
            max=fmt_score(sum(item.max_points for item in answered) + len(marked)),
        )
    if outcome.ended == "done":
        blocks.append(Paragraph(t("quiz.score", **score)))
    else:
        blocks.append(
            Paragraph(
                t(f"quiz.stopped.{outcome.ended}_one", **score)
                if outcome.total == 1
                else t(f"quiz.stopped.{outcome.ended}", asked=outcome.asked, total=outcome.total, **score)
            )
        )
    return blocks


def _stage_text(item: Item) -> str:
    """A stage as the summary names it: attention's with its letter, (a) to (d); a sampling stage
    (an item without a row) by its own name."""
    if not item.row:
        return sampling_layout.stage_title(item.stage)
    return f"({Stage(item.stage).letter}) {t(f'quiz.stage.{item.stage}')}"


def _concept_summary(outcome: Outcome) -> list[Block]:
    """The concept items answered: each one's choice, the answer and the points; an exam adds
    each wrong choice's feedback (its only feedback)."""
    if not outcome.concepts:
        return []
    header = tuple(t(f"quiz.summary.{name}") for name in ("concept", "chosen", "answer", "points"))
    rows = tuple(
        (shown.id, (" " if shown.kind == "order" else ", ").join(mark.chosen) or "—",
         (" " if shown.kind == "order" else ", ").join(shown.answer), fmt_score(mark.score))
        for shown, mark in outcome.concepts
    )  # fmt: skip
    blocks: list[Block] = [Table(header, rows, title=t("quiz.summary.concepts"))]
    if outcome.report.mode == "exam":
        lines = tuple(f"{shown.id}: {mark.feedback}" for shown, mark in outcome.concepts if mark.feedback and not mark.right)
        if lines:
            blocks.append(Math(lines, title=t("quiz.summary.misconceptions")))
    return blocks


def intro_blocks(solution: Solution, row: int) -> list[Block]:
    problem = solution.problem
    blocks: list[Block] = [problem_heading(problem), *problem_notes(problem)]
    blocks.extend(given_blocks(solution, problem.decimals))
    blocks.append(Heading(t("quiz.row", token=problem.tokens[row]), level=3))
    return blocks


def question_blocks(
    solution: Solution, row: int, stage: str, progress: tuple[int, int] | None = None
) -> list[Block]:
    """The question: the stage, how far through the quiz (``progress``: this question's number and
    the total), what to type and to how many decimals."""
    problem = solution.problem
    labels = cell_labels(solution, stage)
    key = "quiz.ask_output" if stage == "output" else "quiz.ask"
    ask = t(key, token=problem.tokens[row], count=len(labels), cells=", ".join(labels))
    lines = [f"{ask} {t('quiz.ask_decimals', decimals=problem.decimals)}"]
    if stage != "output" and not grading.open_cells(solution, row, stage).all():
        lines.append(t("quiz.ask_masked"))
    title = stage_title(solution, stage)
    if progress is not None:
        title = f"{title} — {t('quiz.progress', n=progress[0], total=progress[1])}"
    return [Heading(title, level=3), *(Paragraph(line) for line in lines)]


# --- the loop -----------------------------------------------------------------------


Save = Callable[[dict], None]


def run(config: QuizConfig, read_line: ReadLine, show: Show, save: Save | None = None) -> Outcome:
    """Ask every question of ``config``; return the report and how the quiz ended.

    ``save(report_dict)`` (the ``--report`` file) is called before the first question,
    after every marked item and when the quiz ends, before the summary is shown, with
    :func:`report_dict`: every item of the quiz, so a quiz stopped in any way — even
    killed, or with its terminal gone — leaves a complete report of what was answered.
    """

    report = Report(config.student, config.problem_set, config.seed, config.mode, [])
    outcome = Outcome(report, "done", 0, count_questions(config.plans) + len(config.concepts))
    solutions: dict[str, Solution] = {}
    marker = grading.Marker(follow_through=config.follow_through)  # this quiz's marking and its memory
    saved = _saver(save, outcome, config, solutions, marker, show)
    if save is not None:
        save(report_dict(outcome, config, solutions, finished=False, marker=marker))  # fails before any question
    asking = _Asking(config, marker, outcome, read_line, show, saved, t("quiz.prompt"))
    show([Paragraph(t(f"quiz.intro.{config.mode}" if config.plans else f"quiz.intro.concepts_{config.mode}"))])
    try:
        for item_plan in config.plans:
            solution = _solution(item_plan.problem, solutions)
            for row in item_plan.rows:
                ended = _ask_sampling(asking, solution) if solution.problem.kind == "sampling" else _ask_row(asking, solution, row)
                if ended is not None:
                    outcome.ended = ended
                    return _finish(outcome, asking.current, config, show, saved)
        for shown in config.concepts:
            ended = _ask_concept(asking, shown)
            if ended is not None:
                outcome.ended = ended
                return _finish(outcome, asking.current, config, show, saved)
    except KeyboardInterrupt as interrupt:  # Ctrl-C, or SIGTERM/SIGHUP (attn_tutor.core.stopping)
        outcome.ended = "interrupt"
        outcome.status = exit_status(interrupt)
        return _finish(outcome, asking.current, config, show, saved)
    return _finish(outcome, None, config, show, saved)


def _saver(save: Save | None, outcome: Outcome, config: QuizConfig, solutions: dict, marker, show: Show) -> Callable[[bool], None]:
    """``saved(finished)``: the report written through ``save`` (if any) as it stands; a write
    that fails is said once, and the next item tries again."""

    def saved(finished: bool) -> None:
        if save is None:
            return
        try:
            save(report_dict(outcome, config, solutions, finished=finished, marker=marker))
            outcome.save_error = None
        except AttnTutorError as error:
            if outcome.save_error is None:  # say it once; the next item tries again
                show("\n".join(error.messages()))
            outcome.save_error = error

    return saved


@dataclass
class _Asking:
    """What asking a row's questions needs, and the question on screen."""

    config: QuizConfig
    marker: grading.Marker
    outcome: Outcome
    read_line: ReadLine
    show: Show
    saved: Callable[[bool], None]
    prompt: str
    current: dict | None = None  # the question on screen: solution, row, stage, hints (recorded as missing if the quiz stops)


def _ask_row(asking: _Asking, solution: Solution, row: int) -> str | None:
    """Ask one row's asked stages in order, marking each answer; how the quiz ended if it stopped, else None."""
    config, marker, outcome, show = asking.config, asking.marker, asking.outcome, asking.show
    problem = solution.problem
    show(intro_blocks(solution, row))
    own: dict[str, tuple[float, ...]] = {}
    hint_basis: dict[str, tuple[float, ...]] = {}
    for stage in problem.stages:
        if stage not in problem.asked_stages:
            own = marker.advance(solution, row, stage, None, own, config.mode)
            hint_basis = own
            continue
        current: dict[str, Any] = {"solution": solution, "row": row, "stage": stage, "hints": 0, "own": own, "marker": marker}
        asking.current = current
        outcome.asked += 1
        show(question_blocks(solution, row, stage, (outcome.asked, outcome.total)))
        ended, given = _ask(solution, row, stage, current, hint_basis, asking.read_line, show, asking.prompt)
        if ended is not None:
            return ended
        item = marker.stage(solution, row, stage, given, own, hints=current["hints"])
        early = grading.early_rounding(solution, row, item, own) if config.mode == "practice" else None
        asking.current = None
        outcome.report.items.append(item)
        asking.saved(False)
        own = marker.advance(solution, row, stage, given, own, config.mode)
        if config.mode == "practice":
            show(feedback_blocks(solution, row, item, early=early))
            hint_basis = own if item.verdict in ("correct", "follow_through") else {}
        else:
            hint_basis = own
    return None


def _ask_sampling(asking: _Asking, solution) -> str | None:
    """Ask a sampling problem's stages in order (what is typed: :mod:`attn_tutor.quiz.sampling`)."""
    config, outcome, show = asking.config, asking.outcome, asking.show
    show(sampling_quiz.intro_blocks(solution))
    own: dict[str, tuple] = {}
    for stage in solution.problem.asked_stages:
        asking.current = {"solution": solution, "row": 0, "stage": stage, "hints": 0, "own": own, "marker": asking.marker}
        outcome.asked += 1
        show(sampling_quiz.question_blocks(solution, stage, (outcome.asked, outcome.total)))
        ended, given = sampling_quiz.read_answer(solution, stage, asking.current, asking.read_line, show, asking.prompt)
        if ended is not None:
            return ended
        item = asking.marker.stage(solution, 0, stage, given, own, hints=asking.current["hints"])
        asking.current = None
        outcome.report.items.append(item)
        asking.saved(False)
        own = {stage: given or ()} if config.mode == "practice" else {**own, stage: given or ()}
        if config.mode == "practice":
            show(sampling_quiz.feedback_blocks(solution, item))
    return None


def _ask_concept(asking: _Asking, shown: ShownConcept) -> str | None:
    """Ask one concept item: a letter or number (several, or an order, as the item says); practice
    shows the option's feedback, the answer and the explanation at once, an exam at the end."""
    config, outcome, show = asking.config, asking.outcome, asking.show
    outcome.asked += 1
    asking.current = {"concept": shown}
    number = config.concepts.index(shown) + 1
    blocks = concept_blocks([shown], answers=False, start=number)[1:]  # the item without the set's heading
    progress = t("quiz.progress", n=outcome.asked, total=outcome.total)
    show([Heading(f"{blocks[0].text} — {progress}", level=3), *blocks[1:], Paragraph(t(f"quiz.concept_ask.{_ask_kind(shown)}", count=len(shown.answer)))])
    while True:
        line = asking.read_line(asking.prompt)
        if line is None:
            return "eof"
        command = answers.command(line)
        if command == "quit":
            return "quit"
        if command == "hint":
            show(t("quiz.concept_no_hint"))
            continue
        if command == "empty":
            show(t("quiz.empty"))
            continue
        chosen, problem = parse_choice(shown, line)
        if problem is None:
            break
        said = problem_text(shown, ConceptMark(0.0, chosen, False, None, problem))
        assert said is not None  # the answer has a problem
        show("\n".join([said, t("quiz.again")]))
    mark = mark_concept(shown, line)
    asking.current = None
    outcome.concepts.append((shown, mark))
    asking.saved(False)
    if config.mode == "practice":
        show(concept_feedback(shown, mark))
    return None


def _ask_kind(shown: ShownConcept) -> str:
    return "order" if shown.kind == "order" else "several" if shown.several else "one"


def _solution(problem: Problem, solutions: dict) -> Solution:
    if problem.id not in solutions:
        solutions[problem.id] = engine.solve(problem)
    return solutions[problem.id]


def _ask(solution, row, stage, current, hint_basis, read_line, show, prompt):
    """Read lines until one is a row of the right size: (None, values) or (how it ended, None)."""
    before = grading.previous_stage(stage)
    while True:
        line = read_line(prompt)
        if line is None:
            return "eof", None
        command = answers.command(line)
        if command == "quit":
            return "quit", None
        if command == "hint":
            current["hints"] += 1
            basis = hint_basis.get(before) if before is not None else None
            show(hint_blocks(solution, row, stage, current["hints"], basis))
            continue
        if command == "empty":
            show(t("quiz.empty"))
            continue
        try:
            return None, parse_answer(solution, row, stage, line)
        except AttnTutorError as error:
            show("\n".join([*error.messages(), t("quiz.again")]))


def _finish(outcome: Outcome, current: dict | None, config: QuizConfig, show: Show, saved) -> Outcome:
    if current is not None and "concept" in current:  # a concept item on screen: no answer
        outcome.concepts.append((current["concept"], mark_concept(current["concept"], None)))
    elif current is not None:  # the question on screen when the quiz stopped: recorded as missing
        outcome.report.items.append(
            current["marker"].stage(
                current["solution"], current["row"], current["stage"], None, current["own"], hints=current["hints"]
            )
        )
    saved(outcome.ended == "done")  # before anything is shown: a terminal that is gone loses nothing
    show(summary_blocks(outcome))
    return outcome


# --- the report file ----------------------------------------------------------------


def check_report_path(path: str | os.PathLike, *, force: bool = False, inputs=()) -> None:
    """Before the first question: the report can be written, overwrites nothing (unless ``force``)
    and is not the problem-set file."""

    refuse_overwrite(path, force, inputs=inputs)


def all_items(outcome: Outcome, config: QuizConfig, solutions: dict, marker=None) -> list[Item]:
    """The items asked so far, then every item of the quiz not reached yet, as ``missing``."""
    marker = marker or grading.Marker(follow_through=config.follow_through)
    done = {(item.problem, item.row, item.stage) for item in outcome.report.items}
    items = list(outcome.report.items)
    for item_plan in config.plans:
        problem = item_plan.problem
        for row in item_plan.rows:
            for stage in problem.asked_stages:
                if (problem.id, problem.asked_rows[0] if problem.kind == "sampling" else problem.tokens[row], stage) not in done:
                    solution = _solution(problem, solutions)
                    items.append(marker.stage(solution, row, stage, None, {}))
    return items


def report_dict(outcome: Outcome, config: QuizConfig, solutions: dict | None = None, *, finished: bool, marker=None) -> dict:
    """The report file: every item of the quiz (those not answered: ``missing``), ``max_score``
    the whole quiz, ``finished`` whether it ran to the end, ``asked`` how many questions were put."""
    report = outcome.report
    whole = Report(report.student, report.problem_set, report.seed, report.mode, all_items(outcome, config, solutions or {}, marker))
    data = whole.to_dict()
    items = data.pop("items")
    out = {**data, "finished": finished, "asked": outcome.asked, "total": outcome.total, "items": items}
    if config.concepts:  # every concept item of the quiz, those not reached without a choice
        marks = {shown.id: mark for shown, mark in outcome.concepts}
        out["concepts"] = [concept_report(shown, marks.get(shown.id)) for shown in config.concepts]
        out["score"] = round(out["score"] + sum(mark.score for mark in marks.values()), 4)
        out["max_score"] = round(out["max_score"] + len(config.concepts), 4)
    return out


def concept_report(shown: ShownConcept, mark: ConceptMark | None) -> dict:
    """A concept item in the report file: its id and kind, the labels chosen, the answer, the score."""
    mark = mark or mark_concept(shown, None)
    return {"concept": shown.id, "kind": shown.kind, "chosen": list(mark.chosen), "answer": list(shown.answer), "score": mark.score, "right": mark.right}


class ReportFile:
    """The ``--report`` file: the first write creates it (or replaces it with ``force``), later ones replace it."""

    def __init__(self, path: str | os.PathLike, *, force: bool = False) -> None:
        self.path = path
        self.replace = force

    def __call__(self, data: dict) -> None:
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, indent=2) + "\n", replace=self.replace)
        self.replace = True  # ours now


def write_report(report: Report, path: str | os.PathLike, *, force: bool = True) -> None:
    """``report`` as JSON, the whole file or nothing."""


    write_atomic(path, json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n", replace=force)
