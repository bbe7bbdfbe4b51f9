"""The offline practice page and the class report, checked as a screen-reader or keyboard user meets them.

axe-core (npm, ``ATTN_TUTOR_AXE``; tests/helpers/axe.py) runs inside Debian's chromium on each
page as it is first shown and after it has been used (stages marked right and wrong, a
diagnosis, hints, the worked solution open): no WCAG 2.1 A/AA or best-practice violation.
Then each page by keyboard alone: Tab reaches every control with a visible focus ring in
reading order, a stage is answered and checked by keys only and its verdict shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import axe
from helpers.paths import TESTS
from helpers.watched import Watched

pytestmark = [pytest.mark.browser, pytest.mark.axe]

CLASS = TESTS / "fixtures" / "grade" / "class"


def press_until(page, key: str, reached: str, tries: int = 3) -> None:
    """Press ``key`` until the page says ``reached`` (a JS predicate): chromium animates a key's
    scroll and, on a busy machine, can drop a key pressed while a scroll is still settling, so a
    key that never scrolls fails after ``tries`` presses, and one dropped once does not."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(tries):
        page.keyboard.press(key)
        try:
            page.wait_for_function(reached, timeout=10_000)
            return
        except PlaywrightTimeout:
            if attempt == tries - 1:
                raise


def open_file(browser, path: Path, width: int = 1280):
    watched = Watched(browser, width)
    context, page, errors = watched.context, watched.page, watched.errors
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    # two animation frames: the page has been painted, so chromium takes keys (it drops input before the first paint)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return context, page, errors


@pytest.fixture(scope="module", params=["en", "ko"])
def made(request, tmp_path_factory):
    """The practice page and the class report, made by the commands a teacher runs."""
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app

    lang = request.param
    out = tmp_path_factory.mktemp(f"a11y-{lang}")
    env = {"NO_COLOR": "1", "COLUMNS": "100", "TERMINAL_WIDTH": "100", "LANG": "C.UTF-8"}  # conftest's FIXED_ENV
    runner = CliRunner()
    for args in (
        ["export", "-f", "page", "-o", str(out / "practice.html"), "--lang", lang],
        ["grade", str(CLASS), "--class-report", str(out / "report.html"), "--lang", lang],
    ):
        result = runner.invoke(app, args, env=env, prog_name="attn-tutor")
        assert result.exit_code == 0, result.output
    return out


def answer(row, stage: str, text: str) -> None:
    field = row.locator(f'input[data-stage="{stage}"]')
    field.fill(text)
    field.press("Enter")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_practice_page_breaks_no_rule_fresh_or_used(browser, made, width):
    context, page, errors = open_file(browser, made / "practice.html", width)
    page.wait_for_selector("section[data-problem]")
    assert axe.violations(page) == []
    section = page.locator('section[data-problem="cat-fish"]')
    row = section.locator('[data-row="먹었다"]')
    answer(row, "scores", "1 6 4")
    answer(row, "scaled", "1 6 4")  # not divided by √d: a diagnosis
    answer(row, "weights", "?")
    answer(row, "weights", "?")  # two hints
    answer(row, "weights", "1 2 x")  # a line that cannot be read: its sentence
    assert row.locator('[data-stage-block="scaled"]').get_attribute("data-diagnosis") == "not_scaled"
    section.locator("details.working > summary").click()
    section.locator('[data-exact="weights"] details.cell-work').nth(1).locator("summary").click()
    assert axe.violations(page) == []
    assert errors == []
    context.close()


@pytest.mark.parametrize("width", [900, 420])
def test_the_class_report_breaks_no_rule(browser, made, width):
    context, page, errors = open_file(browser, made / "report.html", width)
    assert axe.violations(page) == []
    levels = page.evaluate("() => [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => Number(h.tagName[1]))")
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:])), levels
    assert errors == []
    context.close()


FOCUSED = """() => {
  const e = document.activeElement, style = getComputedStyle(e), box = e.getBoundingClientRect();
  return {tag: e.tagName.toLowerCase(), stage: e.dataset.stage || null, action: e.dataset.action || null,
          query: e.dataset.query || null, outline: style.outlineStyle, width: box.width, height: box.height,
          problem: e.closest('section[data-problem]')?.dataset.problem || null,
          row: e.closest('[data-row]')?.dataset.row || null};
}"""


def tab_until(page, wanted, presses: int = 60) -> list[dict]:
    """Press Tab until the focused element is what ``wanted`` says; every stop on the way, in order."""
    stops = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUSED))
        if wanted(stops[-1]):
            return stops
    raise AssertionError(f"Tab never reached it; the stops were {stops}")


def test_the_practice_page_by_keyboard_alone(browser, made):
    context, page, errors = open_file(browser, made / "practice.html")
    page.wait_for_selector("section[data-problem]")
    stops = tab_until(page, lambda f: f["problem"] == "cat-fish" and f["stage"] == "scores")
    for stop in stops:  # every stop is on screen and shows where the focus is
        assert stop["outline"] != "none" and stop["width"] > 0 and stop["height"] > 0, stop
    kinds = [(s["tag"], s["query"] is not None) for s in stops]
    assert ("button", True) in kinds and ("summary", False) in kinds  # the query tokens, then the worked solution
    section = page.locator('section[data-problem="cat-fish"]')
    row_name = stops[-1]["row"]
    row = section.locator(f'[data-row="{row_name}"]')
    page.keyboard.type("1 6 4")
    page.keyboard.press("Enter")
    assert row.locator('[data-stage-block="scores"]').get_attribute("data-verdict") == "correct"
    # the next stage: Tab to its field if Enter did not bring the focus there, type a mistake, check with the button
    if page.evaluate(FOCUSED)["stage"] != "scaled":
        tab_until(page, lambda f: f["stage"] == "scaled" and f["row"] == row_name, 10)
    page.keyboard.type("1 6 4")
    tab_until(page, lambda f: f["action"] == "check" and f["row"] == row_name, 5)
    page.keyboard.press("Space")
    block = row.locator('[data-stage-block="scaled"]')
    assert block.get_attribute("data-verdict") == "wrong"
    assert block.get_attribute("data-diagnosis") == "not_scaled"
    assert block.locator('p[data-diagnosis="not_scaled"]').is_visible()
    # Shift+Tab walks back to the query tokens; Home chooses the first
    for _ in range(60):
        page.keyboard.press("Shift+Tab")
        if page.evaluate(FOCUSED)["query"] is not None:
            break
    else:
        raise AssertionError("Shift+Tab never came back to the query tokens")
    page.keyboard.press("Home")
    assert section.locator('button[data-query="고양이가"]').get_attribute("aria-pressed") == "true"
    assert page.evaluate(FOCUSED)["query"] == "고양이가"
    assert errors == []
    context.close()


def test_the_class_report_by_keyboard_alone(browser, made):
    """On a phone the report's charts and tables are wider than the screen: Tab reaches each one,
    in reading order, with a focus ring, and the arrow keys scroll it sideways; End and Home scroll the page."""
    context, page, errors = open_file(browser, made / "report.html", 420)
    last = page.locator("table").last
    assert not last.evaluate("t => t.getBoundingClientRect().top < innerHeight")  # below the first screen
    press_until(page, "End", "() => scrollY + innerHeight >= document.documentElement.scrollHeight - 1")  # at the end
    assert last.evaluate("t => t.getBoundingClientRect().top < innerHeight")
    press_until(page, "Home", "() => scrollY === 0")
    wide = page.evaluate("() => [...document.querySelectorAll('figure')].filter(f => f.scrollWidth > f.clientWidth).length")
    assert wide >= 4  # three charts and the item analysis
    reached = 0
    for _ in range(wide + 5):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED)
        if stop["tag"] == "body":
            break
        assert stop["tag"] == "figure" and stop["outline"] != "none", stop
        if page.evaluate("() => document.activeElement.scrollWidth > document.activeElement.clientWidth"):
            assert page.evaluate("() => document.activeElement.getBoundingClientRect().top < innerHeight")
            press_until(page, "ArrowRight", "() => document.activeElement.scrollLeft > 0")
            reached += 1
    assert reached == wide
    assert page.locator("figure.chart svg").count() == 3  # the class was marked: every chart drawn
    assert errors == []
    context.close()
