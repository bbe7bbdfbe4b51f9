"""A sampling problem's worksheet and key as HTML (issue 38), checked with axe-core in Debian's
chromium (tests/helpers/axe.py): no WCAG 2.1 A/AA or best-practice violation in either language."""

from __future__ import annotations

import pytest
from helpers import axe
from helpers.paths import TESTS
from helpers.watched import Watched

pytestmark = [pytest.mark.browser, pytest.mark.axe]

SET = TESTS / "fixtures" / "sampling" / "set.yaml"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_sampling_worksheet_and_key_break_no_rule(browser, run_cli, tmp_path, lang):
    out = tmp_path / "sheet.html"
    result = run_cli("export", str(SET), "-f", "html", "--answers", "--lang", lang, "-o", str(out))
    assert result.exit_code == 0, result.output
    watched = Watched(browser, 1280)
    page = watched.page
    page.goto(out.resolve().as_uri())
    page.wait_for_load_state("load")
    assert page.locator("td.box").count() > 40  # the boxes to fill are on the page
    assert axe.violations(page) == []
    assert watched.errors == []
    watched.context.close()
