"""A real browser opens a hand-back sheet and the class report: nothing fetched, nothing spills over.

Driven by pip's ``playwright`` with Debian's ``chromium`` (never a browser download):
marked ``browser``, so without either the tests skip on a developer's machine and fail
under CI=true, where ``.ci/run`` installs both.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.paths import TESTS

FIXTURES = TESTS / "fixtures" / "grade"
CLASS = FIXTURES / "class"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The Korean class report and hand-back sheets, made by the command."""
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app

    out = tmp_path_factory.mktemp("classroom")
    args = ["grade", str(CLASS), "--feedback", str(out / "sheets"), "--class-report", str(out / "report.html"), "--lang", "ko"]
    env = {"NO_COLOR": "1", "COLUMNS": "100", "TERMINAL_WIDTH": "100", "LANG": "C.UTF-8"}  # conftest's FIXED_ENV
    result = CliRunner().invoke(app, args, env=env, prog_name="attn-tutor")
    assert result.exit_code == 0, result.output
    from helpers.answers import two_heads_answers

    # two heads side by side: the widest sheet ch13 makes
    answers = two_heads_answers(out / "two-heads.yaml")
    result = CliRunner().invoke(app, ["grade", str(answers), "--feedback", str(out / "sheets")], env=env, prog_name="attn-tutor")
    assert result.exit_code == 0, result.output
    return out


def open_page(browser, path: Path, width: int = 900):
    page = browser.new_page(viewport={"width": width, "height": 900})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, requests


def overflow(page) -> list[str]:
    """Elements that stick out of their sheet to the right (a table may scroll inside its figure)."""
    return page.evaluate(
        """() => {
            const out = [];
            for (const sheet of document.querySelectorAll('.sheet')) {
                const right = sheet.getBoundingClientRect().right + 1;
                for (const el of sheet.querySelectorAll('figure, pre, p, h1, h2, h3')) {
                    if (el.getBoundingClientRect().right > right) out.push(el.tagName + ': ' + el.textContent.slice(0, 40));
                }
            }
            return out;
        }"""
    )


@pytest.mark.parametrize("width", [900, 420])  # a desk screen and a phone
def test_the_class_report_draws_three_charts_and_fetches_nothing(browser, pages, tmp_path, width):
    page, requests = open_page(browser, pages / "report.html", width)
    boxes = page.evaluate("() => [...document.querySelectorAll('figure.chart svg')].map(s => s.getBoundingClientRect().width)")
    assert len(boxes) == 3 and all(w > 200 or (width < 500 and w > 100) for w in boxes)
    assert overflow(page) == []
    assert "오개념 지도" in page.inner_text("body")
    page.screenshot(path=str(tmp_path / f"report-{width}.png"), full_page=True)
    assert (tmp_path / f"report-{width}.png").stat().st_size > 10_000
    assert requests == [(pages / "report.html").as_uri()]
    page.close()


@pytest.mark.parametrize("width", [900, 420])
def test_a_two_head_sheet_fits_its_page(browser, pages, tmp_path, width):
    page, requests = open_page(browser, pages / "sheets" / "두헤드.html", width)
    assert "head 2" in page.inner_text("body")
    assert len(requests) == 1
    assert overflow(page) == []
    page.screenshot(path=str(tmp_path / "two-heads.png"), full_page=True)
    page.close()


def test_a_hand_back_sheet_shows_its_marks_and_fetches_nothing(browser, pages, tmp_path):
    sheet = pages / "sheets" / "최도윤.html"
    page, requests = open_page(browser, sheet, 700)
    text = page.inner_text("body")
    assert "최도윤: 채점 결과" in text and "e^x를 구하지 않고" in text and "정답 행의 계산" in text
    assert overflow(page) == []
    # Korean is not broken inside a word
    assert page.evaluate("() => getComputedStyle(document.body).wordBreak") == "keep-all"
    page.screenshot(path=str(tmp_path / "sheet.png"), full_page=True)
    assert requests == [sheet.as_uri()]
    page.close()
