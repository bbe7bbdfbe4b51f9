"""What the practice page knows: every variant's problems, solved, as plain JSON-ready data.

Pure: reads problem sets, returns dicts and strings; :mod:`attn_tutor.practice.page` turns
them into the HTML file. Every exact number comes from :mod:`attn_tutor.solve.engine` (full
precision: masked cells are ``None``, e^x too large to write down is ``None`` with the
text "∞"); every displayed number is formatted here by :mod:`attn_tutor.core.rounding`; each
cell's arithmetic is :mod:`attn_tutor.solve.explain`'s; the sentences are the catalogue's
(:mod:`attn_tutor.core.i18n`), in the page's language. The page's JavaScript only computes
from a student's own numbers (carrying them forward, as :mod:`attn_tutor.marking.marker` does).
"""

from __future__ import annotations

import base64
import json
import math
import os
import zlib

from attn_tutor.core import i18n
from attn_tutor.core.i18n import language, t
from attn_tutor.core.model import Problem, ProblemSet
from attn_tutor.core.rounding import fmt, fmt_given
from attn_tutor.kinds.sampling import engine as sampling_engine
from attn_tutor.kinds.sampling import layout as sampling_layout
from attn_tutor.kinds.sampling import marking as sampling_marking
from attn_tutor.kinds.sampling.model import SamplingProblem
from attn_tutor.marking.carrying import marked_cells
from attn_tutor.marking.concepts import mark_concept
from attn_tutor.marking.digits import DIGITS, FRACTIONS
from attn_tutor.marking.hints import cell_labels, divisors, hint_blocks, hint_cells, stage_title
from attn_tutor.marking.marker import cell_window, match_window, stage_tolerance
from attn_tutor.render.blocks import Math
from attn_tutor.render.html import block_html
from attn_tutor.solve import engine, explain
from attn_tutor.solve.concepts import show
from attn_tutor.solve.layout import divisor_label, given_blocks, problem_heading, problem_notes

# The catalogue sections the page's script shows sentences from.
MESSAGE_PREFIXES = ("answers.", "grading.", "quiz.", "page.", "solve.", "export.concept.option")


def _num(x) -> float | None:
    value = float(x)
    return value if math.isfinite(value) else None


def _matrix(m) -> list[list[float | None]]:
    return [[_num(v) for v in row] for row in m]


def _texts(values, mask, number) -> list[str]:
    return [number(v) if m else "—" for v, m in zip(values, mask)]


KIND_MESSAGES = {"sampling": sampling_marking.owns_message}
"""Each kind's test of a catalogue entry said of its problems only."""


def of_kinds(found: dict[str, str], kinds) -> dict[str, str]:
    """``found`` without the entries said only of a kind not among ``kinds``: a page carries the
    sentences of the kinds it holds, so a page of attention problems stays as it was."""
    others = [owns for kind, owns in KIND_MESSAGES.items() if kind not in kinds]
    return {key: text for key, text in found.items() if not any(owns(key) for owns in others)}


def kinds_of(problem_set: ProblemSet) -> frozenset[str]:
    return frozenset(p.kind for p in problem_set.problems)


def messages(kinds=frozenset({"attention"})) -> dict[str, str]:
    """The catalogue entries a page of problems of ``kinds`` uses, in the language spoken
    (placeholders left as ``{name}``): the slider's among them, which a sampling problem's alone."""
    return of_kinds(i18n.messages((*MESSAGE_PREFIXES, *SLIDER_PREFIXES)), kinds)


SLIDER_PREFIXES = ("slider.", "sampling_page.")
"""The temperature slider's sentences (``assets/temperature.js``) and the sampling view's own
(``assets/widget.js``): a page carries them only when it has a sampling problem, so that a page of
attention problems stays as it was."""


def slider_messages() -> dict[str, str]:
    """The temperature slider's catalogue entries, in the language spoken: the ``messages`` its
    ``samplingSlider(container, problem, messages)`` is given (or merged into the page's)."""
    return i18n.messages(SLIDER_PREFIXES)


def sampling_widget_data(problem: SamplingProblem) -> dict:
    """What the temperature slider (``assets/temperature.js``, ``samplingSlider``) draws for a
    sampling problem: its tokens, the logits of its (first) step, its own T (where the slider
    starts and the mark it names), its top_k or top_p (tokens cut at the T shown are said so) and
    its places. Exact numbers: the page computes the probabilities at every T itself
    (``assets/sampling.js``, the port of :mod:`attn_tutor.kinds.sampling.engine`)."""
    return {
        "id": problem.id,
        "tokens": list(problem.tokens),
        "logits": [float(z) for z in problem.logits],
        "temperature": float(problem.temperature),
        "top_k": problem.top_k,
        "top_p": problem.top_p,
        "decimals": problem.decimals,
    }


def _bounds(windows) -> list[list[float] | None]:
    return [None if w is None or not math.isfinite(w[0]) else [w[0], w[1]] for w in windows]


def _key_text(value, decimals: int) -> str:
    if isinstance(value, str):
        return value
    return t("solve.sampling.cut") if value is None else fmt(value, decimals)


def sampling_data(problem: SamplingProblem) -> dict:
    """A sampling problem as the page's script reads it (``assets/sampling_marking.js``, the port of
    :mod:`attn_tutor.kinds.sampling.marking`): the engine's problem (sampling.js solves it again,
    to mark), each stage's tolerance and each exact cell's window (``bounds``; ``bounds_shifted``
    for e^x worked as e^(z/T - max)) from Python so that one typed number gets one verdict
    everywhere, each asked stage's labels and title, the key (``exact_text``: the exact cells as shown;
    ``worked``: ``solve --explain``'s lines), each asked stage's hints after its rule (``hints``: the
    quiz's, its worked lines one at a time), and the slider's data."""
    solution = sampling_engine.solve(problem)
    d = problem.decimals
    stages = [
        stage
        for stage in sampling_marking.ALL_STAGES
        if (stage in problem.stages or stage in problem.asked_stages) and (stage != "loss" or problem.continuation or problem.target is not None)
    ]
    bounds: dict[str, list[list[float] | None]] = {}
    for stage in stages:
        if stage == "pick":
            bounds[stage] = [None]
            continue
        bounds[stage] = _bounds(sampling_marking.windows(problem, stage, sampling_marking.exact(solution, stage)))
    tolerances = sampling_marking.tolerances(problem)
    steps = range(len(problem.steps)) if problem.continuation else (0,)
    givens = [sampling_layout.given_table(problem, step=i) for i in steps]
    worked = sampling_layout.solution_blocks(solution, explain=True, bars=False)[2:]  # less the heading and settings
    return {
        "kind": "sampling",
        "id": problem.id,
        "heading": sampling_layout.heading(problem).text,
        "settings": sampling_layout.settings(problem),
        "notes": [],
        "givens_html": "\n".join(block_html(block) for block in givens),
        "tokens": list(problem.tokens),
        "steps": [{"logits": [float(z) for z in step.logits], "target": step.target} for step in problem.steps],
        "temperature": float(problem.temperature),
        "top_k": problem.top_k,
        "top_p": problem.top_p,
        "draw": problem.draw,
        "continuation": problem.continuation,
        "decimals": d,
        "stages": stages,
        "asked_stages": list(problem.asked_stages),
        "asked_rows": [0],
        "tolerances": {stage: tolerances[stage] for stage in stages},
        "bounds": bounds,
        "bounds_shifted": _bounds(sampling_marking.windows(problem, "exp", tuple(solution.step.shifted))) if not problem.continuation else None,
        "labels": {stage: list(sampling_layout.cell_labels(problem, stage)) for stage in stages},
        "titles": {stage: sampling_layout.stage_title(stage) for stage in stages},
        "counts": {stage: sampling_marking.cell_count(problem, stage) for stage in stages},
        "exact_text": {stage: [_key_text(v, d) for v in sampling_marking.exact(solution, stage)] for stage in stages},
        "hints": {stage: sampling_layout.stage_lines(solution, stage) for stage in problem.asked_stages},  # after the rule, a line a hint
        "solution_html": "\n".join(block_html(block) for block in worked),
        "slider": None if problem.continuation else sampling_widget_data(problem),
    }


def head_data(solution, problem: Problem, number: int) -> dict:
    """One head: exact matrices for the marker, texts for the widget, each cell's arithmetic."""

    head = solution.heads[number]
    decimals = problem.decimals
    n_q, n_k = head.mask.shape
    places = max(decimals - 2, 1)
    mask = head.mask.tolist()
    rows = []
    for i in range(n_q):
        open_keys = [j for j in range(n_k) if mask[i][j]]
        score_lines = explain.score_lines(head, i, problem.tokens, problem.keys, decimals)
        scaled_lines = explain.scaled_lines(head, i, problem.divide_by, decimals)
        weight_lines = explain.weight_lines(head, i, decimals)

        def per_key(lines, open_keys=open_keys):
            by_key = dict(zip(open_keys, lines))
            return [by_key.get(j) for j in range(n_k)]

        rows.append(
            {
                "scores": _texts(head.scores[i], mask[i], lambda v: fmt_given(v, decimals)),
                "scaled": _texts(head.scaled[i], mask[i], lambda v: fmt(v, decimals)),
                "exps": _texts(head.exps[i], mask[i], lambda v: fmt(v, decimals)),
                "exp_sum": fmt(head.exp_sums[i], decimals),
                "weights": [fmt(v, decimals) for v in head.weights[i]],
                "percent": [f"{fmt(100 * v, places)}%" for v in head.weights[i]],
                "output": None if head.output is None else [fmt(v, decimals) for v in head.output[i]],
                "explain": {
                    "scores": per_key(score_lines),
                    "scaled": per_key(scaled_lines),
                    "weights": per_key(weight_lines),
                    "output": None if head.V is None else explain.output_line(head, i, decimals),
                },
            }
        )
    return {
        "Q": _matrix(head.Q),
        "K": _matrix(head.K),
        "V": None if head.V is None else _matrix(head.V),
        "raw": _matrix(head.Q @ head.K.T),
        "d_k": int(head.d_k),
        "divisor": float(head.divisor),
        "divisor_label": divisor_label(solution, head, decimals),
        "mask": mask,
        "scores": _matrix(head.scores),
        "scaled": _matrix(head.scaled),
        "weights": _matrix(head.weights),
        "output": None if head.output is None else _matrix(head.output),
        "rows": rows,
    }


def hint_lines(solution, row: int) -> dict[str, list[dict]]:
    """Each stage's hints after the formula, on the exact previous row, as the quiz shows them:
    one cell after another along the row (``title``, ``line``)."""

    result = {}
    for stage in solution.problem.stages:
        walk = []
        for level in range(2, len(hint_cells(solution, row, stage)) + 2):
            block = hint_blocks(solution, row, stage, level, None)[0]
            assert isinstance(block, Math)  # a cell's arithmetic (level 2 on, within the walk)
            walk.append({"title": block.title, "line": block.lines[0]})
        result[stage] = walk
    return result


def cell_bounds(solution) -> dict[str, list[list[list[float] | None]]]:
    """Each cell's window, ``[low, high]`` (:func:`attn_tutor.marking.marker.cell_window`), per stage and
    query row: the two numbers the marker compares a typed number with (None: a cell not marked)."""

    problem = solution.problem
    result = {}
    for stage in problem.stages:
        tolerance = stage_tolerance(problem, stage)
        rows = []
        for row in range(len(problem.tokens)):
            cells = []
            for value, marked in zip(solution.stage_row(stage, row), marked_cells(solution, row, stage)):
                low, high = cell_window(float(value), tolerance, problem.decimals)
                cells.append([low, high] if marked and math.isfinite(low) else None)
            rows.append(cells)
        result[stage] = rows
    return result


def problem_data(problem: Problem | SamplingProblem) -> dict:
    """One problem: what the marker needs (as marking/marker.py reads a Solution) and what the widget shows
    (a sampling problem: :func:`sampling_data`)."""

    if isinstance(problem, SamplingProblem):
        return sampling_data(problem)
    solution = engine.solve(problem)
    decimals = problem.decimals
    heads = [head_data(solution, problem, h) for h in range(len(solution.heads))]
    givens = "\n".join(block_html(block) for block in given_blocks(solution, decimals))
    projection = {}
    if problem.X is not None:
        for i in range(len(problem.tokens)):
            projection[i] = explain.explain_row(solution, i, decimals).get("projection", [])
    return {
        "id": problem.id,
        "heading": problem_heading(problem).text,
        "notes": [block.text for block in problem_notes(problem)],
        "givens_html": givens,
        "tokens": list(problem.tokens),
        "keys": list(problem.keys),
        "decimals": decimals,
        "tolerances": {stage: stage_tolerance(problem, stage) for stage in problem.stages},
        "windows": {stage: match_window(problem, stage) for stage in problem.stages},
        "bounds": cell_bounds(solution),
        "divide_by": None if problem.divide_by is None else float(problem.divide_by),
        "divisors": divisors(solution),
        "stages": list(problem.stages),
        "asked_stages": [stage for stage in problem.stages if stage in problem.asked_stages],
        "asked_rows": [problem.row_index(token) for token in problem.asked_rows],
        "labels": {stage: cell_labels(solution, stage) for stage in problem.stages},
        "titles": {stage: stage_title(solution, stage) for stage in problem.stages},
        "heads": heads,
        "output": None if solution.output is None else _matrix(solution.output),
        "output_text": None
        if solution.output is None
        else [[fmt(v, decimals) for v in row] for row in solution.output],
        "hints": [hint_lines(solution, i) for i in range(len(problem.tokens))],
        "hint_walk": {
            stage: [[list(cell) for cell in hint_cells(solution, i, stage)] for i in range(len(problem.tokens))]
            for stage in problem.stages
        },
        "projection": {str(k): v for k, v in projection.items()},
    }


def set_data(problem_set: ProblemSet) -> list[dict]:
    return [problem_data(problem) for problem in problem_set.problems]


def concept_scores(shown) -> dict[str, float]:
    """Every answer that scores, as the page keys it (the labels chosen, run together), with its score:
    each made here by :func:`attn_tutor.marking.concepts.mark_concept` (for one right option every
    label, for several every set of labels, for an order the right one: an order is right only
    when whole), so the page marks as ``grade`` does; an answer not listed scores 0."""
    labels = shown.labels
    if shown.kind == "order":
        typed = [" ".join(shown.answer)]
    elif shown.several:
        typed = [", ".join(label for bit, label in enumerate(labels) if chosen >> bit & 1) for chosen in range(1, 2 ** len(labels))]
    else:
        typed = list(labels)
    scores = {}
    for answer in typed:
        mark = mark_concept(shown, answer)
        if mark.score:
            scores["".join(mark.chosen)] = mark.score
    return scores


def concept_base(shown) -> dict:
    """An item's texts, once for the whole page (as the first sheet shows it): each variant's entry
    (:func:`concept_entry`) gives only its order and whatever of its own differs."""
    return {
        "id": shown.id,
        "kind": shown.kind,
        "stem": f"{shown.stem} {t('export.concept.several', count=len(shown.answer))}" if shown.several else shown.stem,
        "several": shown.several,
        "right_count": len(shown.answer),  # how many options are right (the page says so for several)
        "options": list(shown.options),
        "feedback": [shown.feedback.get(label) for label in shown.labels],
        "explanation": shown.explanation,
    }


def concept_entry(shown, base: dict) -> dict:
    """One item as one sheet shows it: ``order``, the base's option at each label; the ``answer``
    and the ``scores`` (:func:`concept_scores`); and its own ``options``, ``feedback`` or
    ``explanation`` only where they differ from the base's (a computed item's numbers)."""
    entry: dict = {"answer": list(shown.answer), "scores": concept_scores(shown)}
    feedback = [shown.feedback.get(label) for label in shown.labels]
    if sorted(shown.options) == sorted(base["options"]):
        order = [base["options"].index(option) for option in shown.options]
        if feedback != [base["feedback"][i] for i in order]:
            entry["feedback"] = feedback
    else:
        order = list(range(len(shown.options)))
        entry["options"], entry["feedback"] = list(shown.options), feedback
    entry["order"] = order
    if shown.explanation != base["explanation"]:
        entry["explanation"] = shown.explanation
    return entry


def shown_concepts(problem_set: ProblemSet, variant: int | None) -> list:
    """Every concept item as shown on the sheet with this variant (its own labels and order)."""
    return [show(concept, problem_set, seed=variant) for concept in problem_set.concepts]


def set_name(problem_set: ProblemSet, spec: str | None) -> str:
    """What the answer file's ``problem_set`` says: a packaged set's name, else the file's name.

    Only the name: a path from the teacher's machine would mean nothing where the answers
    are graded (grade resolves a file name next to the answer file; ``--problems`` overrides).
    """

    if problem_set.name is not None:
        return problem_set.name
    return os.path.basename(spec) if spec else problem_set.source


def pack(value) -> str:
    """``value`` as compact JSON, deflated (zlib) and in base64: how the page carries a variant
    it does not show first; its script unpacks it with the browser's DecompressionStream."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def unpack(packed: str):
    """What :func:`pack` packed."""
    return json.loads(zlib.decompress(base64.b64decode(packed)).decode("utf-8"))


def page_data(sheets, *, set_name: str, title: str) -> dict:
    """Everything the page's script reads: one entry per variant (``variant`` None: the set as
    written). The first variant's ``problems`` and ``concepts`` (:func:`concept_entry`) are plain, so
    the page shows them at once; every other's are ``packed`` together (:func:`pack` of
    ``{"problems", "concepts"}``), about a sixth of their size, and unpacked when chosen (the page
    carries those texts after its scripts: :func:`attn_tutor.practice.page.render`). The concept
    items' texts are ``concepts`` at the top, once (:func:`concept_base`)."""
    variants = []
    bases = [concept_base(shown) for shown in shown_concepts(sheets[0].problem_set, sheets[0].variant)]
    for n, sheet in enumerate(sheets):
        problems = set_data(sheet.problem_set)
        concepts = [concept_entry(shown, base) for shown, base in zip(shown_concepts(sheet.problem_set, sheet.variant), bases)]
        variants.append(
            {"variant": sheet.variant, "problems": problems, "concepts": concepts}
            if n == 0
            else {"variant": sheet.variant, "packed": pack({"problems": problems, "concepts": concepts})}
        )
    return {
        "lang": language(), "title": title, "problem_set": set_name, "variants": variants, "concepts": bases,
        "messages": messages(kinds_of(sheets[0].problem_set)),
        "digits": DIGITS, "fractions": FRACTIONS,  # what answers.js reads as digits: marking/digits.py's sets
    }  # fmt: skip
