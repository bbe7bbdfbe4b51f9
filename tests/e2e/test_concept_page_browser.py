"""Concept items on the practice page in a real browser (issue 21): each option marked at once
with its own feedback, several right options checked together, an order chosen step by step,
all from the keyboard; a variant's options in its own shuffled order; the saved file carries
the choices by label. Marked ``browser`` as the page's other tests are.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from helpers.concept_set import concept_set
from helpers.watched import Watched

from attn_tutor.core.i18n import t
from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve.concepts import show
from attn_tutor.variants import sheets as variant_sheets

pytestmark = pytest.mark.browser


@pytest.fixture
def open_page(browser):
    opened = []

    def _open(path: Path):
        opened.append(Watched(browser, accept_downloads=True))
        page = opened[-1].page
        page.goto(path.resolve().as_uri())
        page.wait_for_selector("section[data-concept]")
        return page

    yield _open
    for watched in opened:
        assert watched.errors == [], watched.errors  # no script error, no CSP violation
        watched.context.close()


def page_for(run_cli, tmp_path: Path, *args: str) -> tuple[Path, list]:
    source = concept_set(tmp_path)
    out = tmp_path / "page.html"
    result = run_cli("export", str(source), "-f", "page", "-o", str(out), "--lang", "en", *args)
    assert result.exit_code == 0, result.output
    return out, source


def shown_items(source: Path, variants=None, seed=None):
    problem_set = load_problem_set(str(source))
    sheets = variant_sheets.make_sheets(problem_set, variants=variants, seed=seed)
    return [{c.id: show(c, s.problem_set, seed=s.variant) for c in s.problem_set.concepts} for s in sheets], sheets


def one_item(run_cli, tmp_path: Path, open_page, concept: str):
    """The page of the concept set opened, the item ``concept`` as shown on it, and its section."""
    out, source = page_for(run_cli, tmp_path)
    (items,), _ = shown_items(source)
    page = open_page(out)
    return page, items[concept], page.locator(f'section[data-concept="{concept}"]')


def test_each_option_is_marked_at_once_with_its_own_feedback(run_cli, tmp_path, open_page):
    page, shown, section = one_item(run_cli, tmp_path, open_page, "why-scale")
    assert section.locator("button[data-option]").evaluate_all("bs => bs.map(b => b.dataset.option)") == list(shown.labels)
    wrong = next(label for label in shown.labels if label not in shown.answer)
    section.locator(f'button[data-option="{wrong}"]').click()
    assert section.get_attribute("data-verdict") == "wrong"
    assert section.locator(f'button[data-option="{wrong}"]').get_attribute("data-verdict") == "wrong"
    assert shown.feedback[wrong] in section.locator(f'[data-feedback="{wrong}"]').inner_text()
    assert shown.explanation in section.inner_text()
    section.locator('[data-action="restart"]').click()
    section = page.locator('section[data-concept="why-scale"]')
    assert section.get_attribute("data-verdict") is None
    (right,) = shown.answer
    section.locator(f'button[data-option="{right}"]').focus()  # the keyboard: Enter on a focused option
    page.keyboard.press("Enter")
    assert section.get_attribute("data-verdict") == "correct"
    assert section.locator("[data-feedback]").count() == 0


def test_several_right_options_are_checked_together(run_cli, tmp_path, open_page):
    page, shown, section = one_item(run_cli, tmp_path, open_page, "which-sum-to-one")
    # how many are right, in the stem and in what to do (the page's language: the export's)
    assert section.locator("p.pick").inner_text() == t("page.concept_pick_several", count=len(shown.answer))
    assert t("export.concept.several", count=len(shown.answer)) in section.locator("h3").inner_text()
    section.locator('[data-action="check"]').click()
    assert section.locator('[data-error="page.concept_none"]').count() == 1 and section.get_attribute("data-verdict") is None
    for label in shown.answer:
        section.locator(f'button[data-option="{label}"]').press(" ")  # Space toggles an option
    assert section.get_attribute("data-verdict") is None  # nothing marked before Check
    section.locator('[data-action="check"]').click()
    assert section.get_attribute("data-verdict") == "correct"
    assert float(section.get_attribute("data-points")) == 1


def test_an_order_is_chosen_step_by_step_and_right_only_when_whole(run_cli, tmp_path, open_page):
    page, shown, section = one_item(run_cli, tmp_path, open_page, "steps")
    swapped = [shown.answer[1], shown.answer[0], *shown.answer[2:]]
    for label in swapped:
        section.locator(f'button[data-option="{label}"]').click()
    assert section.get_attribute("data-verdict") == "wrong"
    assert " ".join(shown.answer) in section.locator("[data-answer]").inner_text()
    section.locator('[data-action="restart"]').click()
    section = page.locator('section[data-concept="steps"]')
    for label in shown.answer:
        section.locator(f'button[data-option="{label}"]').click()
    assert section.get_attribute("data-verdict") == "correct"


def test_a_variant_shows_its_own_order_and_the_file_names_its_labels(run_cli, tmp_path, open_page):
    out, source = page_for(run_cli, tmp_path, "--variants", "3", "--seed", "8")
    per_sheet, sheets = shown_items(source, variants=3, seed=8)
    page = open_page(out)
    for index in (0, 2):
        if index:
            page.select_option('[data-field="variant"]', label=str(sheets[index].variant))
            page.wait_for_selector("section[data-concept]")
        for concept_id, shown in per_sheet[index].items():
            texts = page.locator(f'section[data-concept="{concept_id}"] button[data-option]').all_inner_texts()
            assert texts == [f"({label}) {option}" for label, option in zip(shown.labels, shown.options)]
    shown = per_sheet[2]["eat-attends"]
    right = shown.answer[0]  # this variant's own right label (any of them, where its numbers tie)
    page.locator(f'section[data-concept="eat-attends"] button[data-option="{right}"]').click()
    assert page.locator('section[data-concept="eat-attends"]').get_attribute("data-verdict") == "correct"
    steps = per_sheet[2]["steps"]
    for label in steps.answer:
        page.locator(f'section[data-concept="steps"] button[data-option="{label}"]').click()
    page.locator('[data-field="student"]').fill("Mina")
    with page.expect_download() as download:
        page.locator('[data-action="save"]').click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    answers = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert answers["variant"] == sheets[2].variant
    assert answers["concepts"] == {"eat-attends": right, "steps": " ".join(steps.answer)}
    shown_score = float(page.locator("[data-grade-score]").get_attribute("data-grade-score"))
    report = tmp_path / "report.json"
    result = run_cli("grade", str(saved), "--json", str(report), "--problems", str(source))
    assert result.exit_code == 0, result.output
    (student,) = json.loads(report.read_text(encoding="utf-8"))["students"]
    assert student["errors"] == [] and student["report"]["score"] == shown_score == 2  # grade agrees with the page
