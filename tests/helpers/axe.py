"""axe-core run inside a page Playwright opened: what it finds against WCAG 2.1 A and AA.

axe-core comes from npm, never committed: ``.ci/run`` installs it outside the checkout and
points ``ATTN_TUTOR_AXE`` at its ``axe.min.js``; a developer does the same
(``npm install --prefix /tmp/axe axe-core@4``, then
``export ATTN_TUTOR_AXE=/tmp/axe/node_modules/axe-core/axe.min.js``). Tests that use it carry
the ``axe`` marker (tests/helpers/tools.py): skipped without it, failed under CI=true.

The script is evaluated through the browser's debugging protocol, not added as a
``<script>`` element, so the pages keep their strict CSP (no inline script) while checked.
The rules run are WCAG 2.0/2.1 A and AA and axe's best practices: the two findings of the
offline page and the class report (an empty column header, a skipped heading level) are
best-practice rules, and a reader of a screen reader meets them as much as the others.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice")

RUN = """async tags => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(' '))}));
}"""


@cache
def source() -> str:
    return Path(os.environ["ATTN_TUTOR_AXE"]).read_text(encoding="utf-8")


def violations(page, tags: tuple[str, ...] = TAGS) -> list[str]:
    """Every rule the page as it is now breaks, one line each: rule (impact): what it asks, where (up to three elements)."""
    if not page.evaluate("() => typeof globalThis.axe === 'object'"):
        page.evaluate(source() + "\n;0")
    found = page.evaluate(RUN, list(tags))
    return [
        f"{v['id']} ({v['impact']}): {v['help']}, at {'; '.join(v['nodes'][:3])}" + (f" and {len(v['nodes']) - 3} more" if len(v["nodes"]) > 3 else "")
        for v in found
    ]
