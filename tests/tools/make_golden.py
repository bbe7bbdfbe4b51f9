"""Write tests/golden/marking.json from the Python marker and parser (then review the diff).

    python tests/tools/make_golden.py          # rewrites tests/golden/marking.json

The inputs are built here: for every asked row of every problem in
tests/golden/problems.yaml, the exact rows as a student rounds them, each known mistake
(mistakes.exact_mistakes) typed in one stage, early rounding, a wrong cell, a chain of
follow-through, a trivial carry, a stage left blank, and lines in every answer syntax; the
expected results are whatever the Python implementation gives (tests/helpers/golden_cases.py).
``dom: true`` marks the cases the browser test also types into the page, one or more per
verdict and per diagnosis.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the helpers package

from helpers import golden_cases as g  # noqa: E402

from attn_tutor.core.model import STAGES  # noqa: E402
from attn_tutor.core.rounding import fmt  # noqa: E402
from attn_tutor.marking import marker as grading  # noqa: E402
from attn_tutor.marking import mistakes

PARSE_TEXTS = [
    # read
    "1 6 4", "0.71, 4.24, 2.83", "(0.214, 0.977)", "[1, 6, 4]", "1, 6, 4,", "1 -2", "1 - 2", "1-2", "2 *3",
    "(1 -2)*2", "(1 -2)", "3/4 1/2", "6/1.414 4/√2", "√2 sqrt(2) sqrt 2", "e^0.71 exp(0.71) e", "e^-1 e^(-1)",
    "78.6% 19.1% 2.3%", "1e3% 50%", "(1/2)%", "１ ６ ４", "１，６，４", "０.７１　４.２４", "−0.5 –1", "3² 2³ 10⁻¹",
    "2^3^2", "-2^2", "2**3", "1e-3 .5 5.", "ㄷ^1 ㄸ", "ㄷ테(1)", "ㄴㅂㄱㅅ(4) ㄴㅂㄳ 9", "½ ¼", "3×2 6÷3 2·3",
    "0.1+0.2", "--1 +-2", "√√16", "1e308", "5e-324", "0.000001 1e-7", "(((1)))", "1、2、3", "1\t2\n3",
    "1\u200b2", "e^27.6", "2^-3", "(-8)^(1/3)", "(-2)^3", "0^0 0^2",
    # refused
    "", "   ", "1 " * 501, "1 $ 2", "가나다", "pi", "inf", "nan 1", "∞", "1e", "1e+", "1.2.3", "1e999",
    "(" * 25 + "1" + ")" * 25, "-" * 70 + "1", "1)", "(1", "(1]", "[1, [2]]", "1 [2]", "2*(1, 2)", "1,,2", ",1",
    "2(3)", "2√2", "1 * * 2", "1 +", "*2", "1 / )", "1/0", "0^-1", "√-4", "sqrt(-1)", "2^2000", "1e10*1e10",
    "9^9^9^9", "5%%", "exp(30)", "e^28", "1½", "1.e5.2", "2e-x", "x", "1 ^", "(1 2)",
]

FORMAT_CASES = [
    (0.0625, 3), (2.675, 2), (-0.0004, 3), (0.0005, 3), (-0.0005, 3), (1e21, 3), (1.5e-7, 3), (1.5e-7, 7),
    (123456.789, 1), (-2.5, 0), (0.5, 0), (2.0, 3), (-0.0, 3), (1e15, 2), (0.1 + 0.2, 17), (0.7071067811865476, 3),
    (4.242640687119286, 2), (69.59134, 3), (0.9999996, 6), (99.9995, 3), (-1.23456e-10, 12), (7.0, 0),
    (3.0000000000000004, 3), (0.786, 1), (1234567.0, 2), (1e16, 1),
]


# what a typed line asks for (answers.command): the quiz's trimming, which the page must share
COMMAND_TEXTS = [
    "?", "hint", "q", "quit", "", " ", "\t?\n", "HINT", "Quit", "Q", "？", "ｈｉｎｔ", "ｑ", "\u3000?\u3000",
    "\x1c?", "?\x1f", "\x1d\x1eq", "\ufeff?", "?\ufeff", "\x85hint\x85", "\xa0q\xa0", "\u2028?\u2029",
    "\u200b?", "\u1680quit\u205f", "\u2000\u200a?\u202f", "\x0b\x0c?\r", "\x1c", "\x85", "\ufeff",
    "? ?", "h int", "hint.", "?1", "1 6 4", "qq", "İ", "ǫ", "\u00adq", "q\u0301",
]

SIGN_CASES = [
    ("dot", [["0.248", "1"], ["0.248", "1"], ["0.503", "1"]], 1.0, 3),
    ("dot", [["0.023", "1"], ["0.786", "0"], ["0.191", "1"]], 0.2140, 3),
    ("dot", [["1", "0"], ["3", "2"]], 6.0, 3),
    ("dot", [["(-1)", "2"], ["0.5", "(-3)"]], -3.5, 1),
    ("dot", [["0.33", "1"], ["0.67", "0"]], 0.334, 2),
    ("dot", [["∞", "1"]], 1.0, 3),
    ("quotient", ["6", "1.414"], 4.242640687119285, 3),
    ("quotient", ["1", "1.414"], 0.7071067811865475, 3),
    ("quotient", ["69.591", "88.538"], 0.7860029, 3),
    ("quotient", ["2.028", "88.538"], 0.0229, 3),
    ("quotient", ["5", "0"], 1.0, 3),
    ("quotient", ["-2.5", "2"], -1.25, 1),
    ("quotient", ["1", "3"], 0.3333333333333333, 3),
    ("quotient", ["1", "3"], 0.3336, 3),
    ("quotient", ["1", "8"], 0.125, 2),
    ("quotient", ["-1", "8"], -0.125, 2),
    ("dot", [["0.33", "1"], ["0.67", "0"]], 0.336, 2),
    ("dot", [["0.155", "1"]], 0.1549999, 2),
]


def text(values, decimals: int) -> str:
    return " ".join("0" if v != v else fmt(v, decimals) for v in values)  # NaN (masked): any number


def exact_lines(sol, row: int) -> dict[str, str]:
    problem = sol.problem
    return {s: text(sol.stage_row(s, row), problem.decimals) for s in problem.asked_stages}


def marking_cases() -> list[dict]:
    cases: list[dict] = []
    seen_codes: set[tuple] = set()

    def add(name, problem, token, lines, mode="practice", **extra):
        case = {"name": name, "problem": problem.id, "row": token, "mode": mode, "lines": lines, **extra}
        case["expected"] = g.run_marking(case)
        cases.append(case)
        return case

    for problem in g.problem_set().problems:
        sol = g.solution(problem.id)
        d, tol = problem.decimals, grading.stage_tolerance(problem, "weights")
        asked = [s for s in STAGES if s in problem.asked_stages]
        for token in problem.asked_rows:
            row = problem.row_index(token)
            exact = exact_lines(sol, row)
            for mode in ("practice", "exam"):
                add(f"{problem.id}/{token}: every stage right ({mode})", problem, token, dict(exact), mode)
            # each known mistake, typed in one stage; the other stages right
            for stage in asked:
                for found in mistakes.exact_mistakes(sol, row, stage):
                    code, made = found[0], found[1]
                    rounded = getattr(found, "rounding", None)  # each kind of early rounding
                    seen = (problem.id, code, None if rounded is None else (rounded.kind, stage))
                    if seen in seen_codes:
                        continue
                    lines = dict(exact, **{stage: text(made, d)})
                    for mode in ("practice", "exam"):
                        case = add(f"{problem.id}/{token}: {code} in {stage} ({mode})", problem, token, lines, mode)
                    if any(item["diagnosis"] == code for item in case["expected"]["items"]):
                        seen_codes.add(seen)
                    else:
                        cases.pop()  # the mistake changes no number here: keep the practice case only
            # early rounding (within 4x the tolerance) and one wrong cell, in the weights
            weights = list(sol.stage_row("weights", row))
            if "weights" in asked:
                off = list(weights)
                off[0] += 3 * tol
                off[-1] -= 3 * tol
                for mode in ("practice", "exam"):
                    lines = dict(exact, weights=text(off, d + 2))
                    add(f"{problem.id}/{token}: weights off by rounding ({mode})", problem, token, lines, mode)
                wrong = list(weights)
                wrong[0] += 0.3
                add(f"{problem.id}/{token}: one weight wrong", problem, token, dict(exact, weights=text(wrong, d)))
            # a wrong score carried through every stage: follow-through
            if "scores" in asked and len(asked) > 1:
                own = list(sol.stage_row("scores", row))
                opened = [i for i, v in enumerate(own) if v == v]
                own[opened[0]] += 1.0
                own = [0.0 if v != v else v for v in own]
                lines = {"scores": text(own, d)}
                carried = own
                for stage in STAGES[1:]:
                    if stage not in problem.stages:
                        break
                    carried = list(grading.carry_forward(sol, row, stage, carried))
                    carried = [0.0 if v != v else v for v in carried]
                    if stage in asked:
                        lines[stage] = text(carried, d + 3)
                add(f"{problem.id}/{token}: a wrong score carried forward (exam)", problem, token, lines, "exam")
                add(f"{problem.id}/{token}: a wrong score carried forward (practice)", problem, token, lines, "practice")
                half = add(
                    f"{problem.id}/{token}: carried forward, half credit (exam)", problem, token, lines, "exam",
                    follow_through="half",
                )  # fmt: skip
                half["follow_through"] = "half"
            # a stage left blank
            if len(asked) > 1:
                lines = dict(exact)
                del lines[asked[1]]
                add(f"{problem.id}/{token}: {asked[1]} left blank (exam)", problem, token, lines, "exam")
    # a trivial carry: all-zero scores give zero scaled scores, which earn no follow-through
    cat = g.problem_set().get("cat-fish")
    add("cat-fish/먹었다: zero scores, zero scaled (trivial carry)", cat, "먹었다",
        {"scores": "0 0 0", "scaled": "0 0 0", "weights": "0.333 0.333 0.333", "output": "0.667 0.667"})  # fmt: skip
    add("cat-fish/먹었다: zero scores, zero scaled (trivial carry, exam)", cat, "먹었다",
        {"scores": "0 0 0", "scaled": "0 0 0", "weights": "0.333 0.333 0.333", "output": "0.667 0.667"}, "exam")  # fmt: skip
    # one-hot work from a wrong row: scaled from 0 100 0 is divided (follow-through), but the
    # one-hot weights it gives and the copied row of V need no e^x and no sum (no follow-through)
    for mode in ("exam", "practice"):
        add(f"cat-fish/먹었다: one-hot weights and a copied row of V (trivial carry, {mode})", cat, "먹었다",
            {"scores": "0 100 0", "scaled": "0 70.711 0", "weights": "0 1 0", "output": "0 1"}, mode)  # fmt: skip
    add("cat-fish/먹었다: a one-hot weights row typed, its row of V copied (exam)", cat, "먹었다",
        {"scores": "1 6 4", "scaled": "0.707 4.243 2.828", "weights": "0 0 1", "output": "1 1"}, "exam")  # fmt: skip
    # right within the tolerance, but rounded too soon: practice adds a note, the marks stay
    add("cat-fish/먹었다: weights from scaled scores rounded to 1 place, within the tolerance (note)", cat, "먹었다",
        {"scores": "1 6 4", "scaled": "0.707 4.243 2.828", "weights": "0.024 0.783 0.193", "output": "0.217 0.976"})  # fmt: skip
    add("cat-fish/먹었다: scaled rounded to 1 place, then its weights (note)", cat, "먹었다",
        {"scores": "1 6 4", "scaled": "0.7 4.2 2.8", "weights": "0.024 0.783 0.193"})  # fmt: skip
    add("cat-fish/먹었다: the same weights in an exam (no note)", cat, "먹었다",
        {"scores": "1 6 4", "scaled": "0.707 4.243 2.828", "weights": "0.024 0.783 0.193"}, "exam")  # fmt: skip
    # every answer syntax on the chapter's row
    add("cat-fish/먹었다: full-width, roots, e^x and percentages", cat, "먹었다",
        {"scores": "１ ６ ４", "scaled": "1/√2, 6/√2, 4/√2", "weights": "e^0.707/88.538 e^4.243/88.538 e^2.828/88.538",
         "output": "(21.4%, 97.7%)"})  # fmt: skip
    add("cat-fish/먹었다: brackets, fractions, exp()", cat, "먹었다",
        {"scores": "[1, 6, 4]", "scaled": "0.71 4.24 2.83", "weights": "exp(0.707)/88.5, 2.3% 0.786",
         "output": "0.023*1+0.191 0.786+0.191"})  # fmt: skip
    add("cat-fish/먹었다: √d forgotten, then carried (exam)", cat, "먹었다",
        {"scores": "1 6 4", "scaled": "1 6 4", "weights": "0.005 0.876 0.119", "output": "0.124 0.995"}, "exam")  # fmt: skip
    causal = g.problem_set().get("practice-causal")
    add("practice-causal/나는: masked cells left out", causal, "나는", {"scores": "1 2", "scaled": "0.707 1.414", "weights": "0.33 0.67 0 0", "output": "0.33 0.67"})  # fmt: skip
    add("practice-causal/나는: masked cells typed as anything", causal, "나는", {"scores": "1 2 99 -5", "scaled": "0.707, 1.414, 0, 0", "weights": "0.33 0.67 0 0"})  # fmt: skip
    add("practice-causal/나는: a masked weight not zero", causal, "나는", {"scores": "1 2", "scaled": "0.707 1.414", "weights": "0.3 0.6 0.1 0"})  # fmt: skip
    add("practice-causal/나는: wrong count", causal, "나는", {"scores": "1 2 3", "scaled": "0.707 1.414"})
    add("cat-fish/먹었다: wrong count, no mask", cat, "먹었다", {"scores": "1 6", "scaled": "0.71 4.24 2.83"})
    two = g.problem_set().get("practice-two-heads")
    add("practice-two-heads/먹었다: one head not scaled", two, "먹었다",
        {"scores": "1 6 4 4 0 2", "scaled": "1 6 4 2.828 0 1.414"})  # fmt: skip
    return cases


def hint_cases() -> list[dict]:
    from attn_tutor.marking.hints import hint_cells

    cases = []
    for problem in g.problem_set().problems:
        sol = g.solution(problem.id)
        for token in problem.asked_rows:
            row = problem.row_index(token)
            for stage in problem.stages[1:]:
                before = grading.previous_stage(stage)
                basis = [0.0 if v != v else float(v) for v in sol.stage_row(before, row)]
                first = next(i for i, open_ in enumerate(grading.open_cells(sol, row, before)) if open_)
                basis[first] += 0.25
                for level in range(2, len(hint_cells(sol, row, stage)) + 2):
                    case = {"problem": problem.id, "row": token, "stage": stage, "level": level, "basis": basis}
                    case["line"] = g.run_hint(case)
                    cases.append(case)
    return cases


def choose_dom(cases: list[dict]) -> None:
    """Mark the practice cases the browser types: the first for each verdict and diagnosis, and the syntax ones."""
    wanted: set[str] = set()
    for case in cases:
        if case["mode"] != "practice" or case["expected"].get("errors"):
            continue
        items = case["expected"]["items"]
        found = {f"verdict:{i['verdict']}" for i in items} | {f"diagnosis:{i['diagnosis']}" for i in items if i["diagnosis"]}
        if found - wanted or "syntax" in case["name"] or "masked" in case["name"] or "full-width" in case["name"] or "(note)" in case["name"]:
            case["dom"] = True
            wanted |= found


def main() -> None:
    cases = marking_cases()
    choose_dom(cases)
    data = {
        "about": "Made by tests/tools/make_golden.py from the Python marker; see tests/helpers/golden_cases.py.",
        "problem_set": "problems.yaml",
        "parse": [{"text": t, **g.run_parse(t)} for t in PARSE_TEXTS],
        "format": [{"x": x, "decimals": d, **g.run_format(x, d)} for x, d in FORMAT_CASES],
        "marking": cases,
        "hints": hint_cases(),
        "commands": [{"text": text, "command": g.run_command(text)} for text in COMMAND_TEXTS],
        "signs": [
            {"kind": k, "args": a, "exact": x, "decimals": d, "sign": g.run_sign({"kind": k, "args": a, "exact": x, "decimals": d})}
            for k, a, x, d in SIGN_CASES
        ],
    }
    g.CASES.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    counts = {k: len(v) for k, v in data.items() if isinstance(v, list)}
    print(f"wrote {g.CASES}: {counts}, {sum(1 for c in cases if c.get('dom'))} typed in the browser")


if __name__ == "__main__":
    main()
