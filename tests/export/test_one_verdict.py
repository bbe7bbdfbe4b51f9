"""One verdict for one number, everywhere (issue 35, rule 4): for every asked cell of a set and its
variants, ``grade``, the quiz and ``serve`` (the one marker), the page (its data's windows, which its
script compares with), the Moodle bank and the Canvas bank accept exactly the same typed numbers.

The banks are exported through the CLI and read back as the systems read them: the Moodle Cloze
blanks by Moodle's parser and marked by its ``get_matching_answer`` (the first alternative within
its tolerance; tests/helpers/moodle.py), the QTI items as Canvas's importer keeps them and marks
them in BigDecimal (tests/helpers/canvas.py). Each cell is probed at its window's ends and one
unit of a place beyond and inside them, and at the rounded answer: every consumer says the same.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from helpers import canvas
from helpers import moodle as moodle_rule
from helpers.moodle import moodle_questions, parse_cloze

from attn_tutor.core.model import Head, Problem, ProblemSet
from attn_tutor.export import bank
from attn_tutor.marking.marker import Marker, cell_window, stage_tolerance
from attn_tutor.marking.tolerance import window
from attn_tutor.practice.data import problem_data
from attn_tutor.problems.dump import dump_problem_set
from attn_tutor.problems.load import load_problem_set
from attn_tutor.variants import sheets

from .test_moodle_and_qti import QTI, export_bytes, open_package

# A teacher's set without a tolerance of its own (the default windows), 2 places, a causal mask.
OWN_SET = ProblemSet(
    (
        Problem(
            id="own", tokens=("a", "b", "c"), decimals=2, mask="causal",
            heads=(Head(Q=((2, -1), (1, 3), (-2, 1)), K=((1, 1), (0, -2), (3, 1)), V=((-3, 2), (1, -2), (2, 3))),),
        ),
        Problem(id="wide", tokens=("x", "y"), decimals=1, heads=(Head(Q=((1.5, 2), (-1, 0.5)), K=((2, 1), (0.5, -1)), V=((4, -2), (1, 3))),)),
    ),
    title="own",
)


def probes(low: Decimal, high: Decimal, text: str) -> list[str]:
    places = max(-low.as_tuple().exponent, -high.as_tuple().exponent)  # type: ignore[operator]
    found = [text]
    for extra in (0, 1):
        unit = Decimal(1).scaleb(-places - extra)
        found += [format(x, "f") for x in (low, high, low - unit, high + unit, low + unit, high - unit)]
    return found


def moodle_verdict(alternatives: list[dict], typed: str) -> bool:
    """Moodle's get_matching_answer: the first alternative within its tolerance decides."""
    for alternative in alternatives:
        if moodle_rule.numerical_accepts(repr(alternative["value"]), repr(alternative["tolerance"]), typed):
            return alternative["fraction"] == 1.0
    return False


def canvas_answers(item) -> list[tuple]:
    """The right answers Canvas's importer keeps for an item: ('exact', value, upper) or ('range', low, high)."""
    found = []
    for condition in item.find(f"{QTI}resprocessing").findall(f"{QTI}respcondition"):
        if condition.findtext(f"{QTI}setvar") != "100":
            continue
        either = condition.find(f"{QTI}conditionvar/{QTI}or")
        if either is not None:
            found.append(("exact", either.findtext(f"{QTI}varequal"), either.findtext(f".//{QTI}varlte")))
        else:
            pair = condition.find(f"{QTI}conditionvar/{QTI}and")
            found.append(("range", pair.findtext(f"{QTI}vargte"), pair.findtext(f"{QTI}varlte")))
    return found


def canvas_verdict(answers: list[tuple], typed: str) -> bool:
    return any(
        canvas.numerical_accepts(a, b, typed) if kind == "exact" else canvas.range_accepts(a, b, typed) for kind, a, b in answers
    )


def marker_verdict(marker: Marker, question, cell, typed: str) -> bool:
    """The marker's verdict on the cell, the rest of the row typed exact: grade, quiz and serve mark through it."""
    row = [float(v) for v in question.solution.stage_row(cell.stage, cell.row)]
    row = [0.0 if v != v else v for v in row]  # a masked cell: anything goes
    row[cell.index] = float(typed)
    exam = marker.row(question.solution, cell.row, {cell.stage: tuple(row)}, stages=[cell.stage], mode="exam")[0]
    practice = marker.stage(question.solution, cell.row, cell.stage, tuple(row))
    assert exam.cells[cell.index] == practice.cells[cell.index]
    return practice.cells[cell.index] == "correct"


@pytest.mark.parametrize("which", ["ch13", "own"])
def test_every_consumer_accepts_the_same_window_in_every_cell(run_cli, tmp_path, which):
    if which == "ch13":
        args, problem_set = ["--variants", "2", "--seed", "7"], load_problem_set(None)
        made = sheets.make_sheets(problem_set, variants=2, seed=7)
    else:
        path = tmp_path / "own.yaml"
        path.write_text(dump_problem_set(OWN_SET), encoding="utf-8")
        problem_set = load_problem_set(str(path))
        args, made = [str(path), "--variants", "2", "--seed", "5"], sheets.make_sheets(problem_set, variants=2, seed=5)
    blanks_of = [parse_cloze(element.findtext("questiontext/text"))[0] for _c, element in moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml", *args))]
    _archive, _manifest, quizzes = open_package(export_bytes(run_cli, tmp_path, "bank.zip", *args))
    items_of = {}
    for quiz, sheet in zip(quizzes, made):
        for section, problem in zip(quiz.find(f"{QTI}assessment/{QTI}section").findall(f"{QTI}section"), sheet.problem_set.problems):
            items_of[(sheet.variant, problem.id)] = section.findall(f"{QTI}item")
    questions = {(q.variant, q.problem.id): q for q in bank.questions(made)}
    order = [(sheet.variant, problem.id) for problem in problem_set.problems for sheet in made]  # the Moodle file: by problem
    marker, cells = Marker(), 0
    for key, blanks in zip(order, blanks_of):
        question = questions[key]
        page = problem_data(question.problem)["bounds"]
        assert len(blanks) == len(items_of[key]) == len(question.cells)
        for cell, blank, item in zip(question.cells, blanks, items_of[key]):
            tolerance = stage_tolerance(question.problem, cell.stage)
            low, high = window(cell.value, tolerance, question.problem.decimals)
            assert (Decimal(cell.right.low), Decimal(cell.right.high)) == (low, high)
            assert page[cell.stage][cell.row][cell.index] == list(cell_window(cell.value, tolerance, question.problem.decimals))
            answers = canvas_answers(item)
            for typed in probes(low, high, cell.right.text):
                inside = low <= Decimal(typed) <= high
                assert marker_verdict(marker, question, cell, typed) == inside, (key, cell, typed)
                assert moodle_verdict(blank["alternatives"], typed) == inside, (key, cell, typed, blank)
                assert canvas_verdict(answers, typed) == inside, (key, cell, typed, answers)
            cells += 1
    assert cells > 50
    print(f"{which}: {cells} cells compared")  # the figure the issue asks for (pytest -s)


# --- kind: sampling (issue 38) ------------------------------------------------------------

SAMPLING_SET = Path(__file__).parents[1] / "fixtures" / "sampling" / "set.yaml"


def sampling_marker_verdict(question, cell, row: tuple, typed: str) -> bool:
    """The sampling marker's verdict on the cell (grade, the quiz and serve mark through it), the rest
    of the stage typed as ``row`` (the exact values, or e^(z/T - max) for that right answer)."""
    from attn_tutor.kinds.sampling import marking as sampling_marking

    given = list(row)
    given[cell.index] = float(typed)
    item = sampling_marking.mark_stage(question.solution, cell.stage, tuple(given), {})
    return item.cells[cell.index] == "correct"


def test_every_consumer_gives_a_sampling_cell_the_same_verdict(run_cli, tmp_path):
    """Every number of a sampling set probed at each right window's ends, a unit beyond and inside:
    the marker, Moodle's Cloze and Canvas agree; a cut token's p' is 0 in the banks (the marker takes
    it left out); every token typed as the pick gets one verdict in all three."""
    from attn_tutor.kinds.sampling import export as sampling
    from attn_tutor.kinds.sampling import marking as sampling_marking

    problem_set = load_problem_set(str(SAMPLING_SET))
    (sheet,) = sheets.make_sheets(problem_set)
    blanks_of = [
        parse_cloze(element.findtext("questiontext/text"), choices=True)[0]
        for _c, element in moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml", str(SAMPLING_SET)))
    ]
    _archive, _manifest, (quiz,) = open_package(export_bytes(run_cli, tmp_path, "bank.zip", str(SAMPLING_SET)))
    sections = quiz.find(f"{QTI}assessment/{QTI}section").findall(f"{QTI}section")
    numbers = picks = 0
    for problem, blanks, section in zip(problem_set.problems, blanks_of, sections, strict=True):
        question = sampling.question(sheet, problem)
        items = section.findall(f"{QTI}item")
        assert len(blanks) == len(items) == len(question.cells)
        for cell, blank, item in zip(question.cells, blanks, items):
            if isinstance(cell, sampling.PickCell):
                labels = [label.get("ident") for label in item.iter(f"{QTI}response_label")]
                scored = {c.findtext(f".//{QTI}varequal") for c in item.iter(f"{QTI}respcondition") if c.findtext(f"{QTI}setvar") == "100"}
                for index, token in enumerate(cell.tokens):
                    marked = sampling_marking.mark_stage(question.solution, "pick", (token,), {}).cells[0] == "correct"
                    assert marked == (blank["alternatives"][index]["fraction"] == 1.0) == (labels[index] in scored), (problem.id, token)
                    picks += 1
                continue
            answers = canvas_answers(item)
            if cell.cut:  # the banks: exactly 0; the marker: the token left out is no mistake
                assert sampling_marking.mark_stage(question.solution, "kept", question.solution.stage_values("kept"), {}).cells[cell.index] == "masked"
                for typed in ("0", "0.000", "0.001", "-0.001", "0.0000001"):
                    assert moodle_verdict(blank["alternatives"], typed) == canvas_verdict(answers, typed) == (Decimal(typed) == 0), typed
                continue
            exact = tuple(question.solution.stage_values(cell.stage))
            rows = [exact] + ([tuple(question.solution.step.shifted)] if len(cell.rights) > 1 else [])
            windows = [(Decimal(r.low), Decimal(r.high)) for r in cell.rights]
            for right, (low, high), row in zip(cell.rights, windows, rows):
                assert (float(low), float(high)) == sampling_marking.windows(problem, cell.stage, row)[cell.index]
                for typed in probes(low, high, right.text):
                    inside = any(a <= Decimal(typed) <= b for a, b in windows)
                    assert sampling_marker_verdict(question, cell, row, typed) == inside, (problem.id, cell.stage, cell.index, typed)
                    assert moodle_verdict(blank["alternatives"], typed) == inside, (problem.id, cell, typed, blank)
                    assert canvas_verdict(answers, typed) == inside, (problem.id, cell, typed, answers)
            numbers += 1
    assert numbers > 25 and picks >= 6
    print(f"sampling: {numbers} numbers and {picks} picks compared")
