"""The golden cases that hold the practice page's JavaScript equal to the Python marker.

``tests/golden/marking.json`` is made by ``tests/tools/make_golden.py`` from the Python
implementation (through the functions below) and reviewed; ``tests/marking/test_golden.py``
asserts that Python still reproduces every case exactly, and
``tests/e2e/test_practice_page_browser.py`` runs the same cases through the page's JavaScript
(``attn_tutor/practice/assets/*.js``) in Chromium. Change a marking rule, and both
must be changed together: regenerate, review the diff, commit.

Sections:
    ``parse``   a typed line -> the numbers read, or the error (catalogue key and arguments)
    ``format``  a number and places -> ``fmt`` and ``fmt_given``
    ``marking`` a problem's row and the line typed for each asked stage, a mode (practice as
                the page and ``quiz`` mark, exam as ``grade`` does) -> each item's given
                numbers, cells, verdict, diagnosis, points and (practice) the early-rounding
                note's sentence, and the score
    ``hints``   each hint along the row (``level`` 2, 3, ...) worked on a student's own previous
                row -> its line
    ``commands`` a typed line -> what it asks for (``quit``, ``hint``, ``empty`` or null: an answer)
    ``signs``   numbers as printed, combined (``dot`` or ``quotient``), and the exact result ->
                ``=`` or ``≈`` (explain.result_sign)
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "golden"  # tests/golden
CASES = HERE / "marking.json"
PROBLEMS = HERE / "problems.yaml"


@lru_cache(maxsize=1)
def problem_set():
    from attn_tutor.problems.load import load_problem_set

    return load_problem_set(str(PROBLEMS))


@cache
def solution(problem_id: str):
    from attn_tutor.solve import engine

    return engine.solve(problem_set().get(problem_id))


def load() -> dict:
    return json.loads(CASES.read_text(encoding="utf-8"))


def run_parse(text: str) -> dict:
    from attn_tutor.marking.answers import AnswerError, parse_row

    try:
        return {"values": parse_row(text)}
    except AnswerError as error:
        finding = error.problems[0]
        return {"error": finding.key, "args": dict(finding.args)}


def run_format(x: float, decimals: int) -> dict:
    from attn_tutor.core.rounding import fmt, fmt_given

    return {"fmt": fmt(x, decimals), "fmt_given": fmt_given(x, decimals)}


def run_marking(case: dict) -> dict:
    """Parse each typed line as the quiz does (masked cells may be left out), then mark the row."""
    from attn_tutor.core.errors import AttnTutorError
    from attn_tutor.marking import marker as grading
    from attn_tutor.quiz.loop import parse_answer

    sol = solution(case["problem"])
    problem = sol.problem
    row = problem.row_index(case["row"])
    answers = {}
    errors = {}
    for stage, text in case["lines"].items():
        try:
            answers[stage] = parse_answer(sol, row, stage, text)
        except AttnTutorError as error:
            errors[stage] = error.problems[0].key
    items = grading.mark_row(sol, row, answers, mode=case["mode"], follow_through=case.get("follow_through", "full"))
    notes, own, asked = [], {}, iter(items)
    for stage in problem.stages:  # practice's note on a right row that shows early rounding
        if stage in problem.asked_stages:
            item = next(asked)
            early = grading.early_rounding(sol, row, item, own) if case["mode"] == "practice" else None
            notes.append(None if early is None else grading.rounding_sentence(early))
        own = grading.advance(sol, row, stage, answers.get(stage), own, case["mode"])
    result = {
        "items": [
            {
                "stage": item.stage,
                "given": None if item.given is None else list(item.given),
                "cells": list(item.cells),
                "verdict": item.verdict,
                "diagnosis": item.diagnosis,
                "explanation": grading.explanation(item),
                "points": item.points,
                "note": note,
            }
            for item, note in zip(items, notes)
        ],
        "score": round(sum(item.points for item in items), 4),
    }
    if errors:
        result["errors"] = errors
    return result


def run_sign(case: dict) -> str:
    from attn_tutor.solve import explain

    shown = explain.dot(case["args"]) if case["kind"] == "dot" else explain.quotient(*case["args"])
    return explain.result_sign(shown, case["exact"], case["decimals"])


def message(key: str, lang: str = "en") -> str:
    from attn_tutor.core.i18n import speaking, t

    with speaking(lang):
        return t(key)


def run_hint(case: dict) -> str:
    from attn_tutor.marking.hints import hint_blocks

    sol = solution(case["problem"])
    row = sol.problem.row_index(case["row"])
    return hint_blocks(sol, row, case["stage"], case.get("level", 2), case["basis"])[0].lines[0]


def run_command(text: str) -> str | None:
    from attn_tutor.marking.answers import command

    return command(text)
