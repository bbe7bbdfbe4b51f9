"""What the live-class browser tests do on a student's page (tests/e2e/test_live*_browser.py).

``WAIT`` is how long a page may take to show what the server sent (a resend backs off up to
15 s). ``answer`` types a stage's text into a row and presses Enter, as a student does;
``saved`` waits until the page marks a block (a stage, or a concept item's section) as
stored by the server.
"""

from __future__ import annotations

WAIT = 30_000  # ms


def answer(page, problem: str, row: str, stage: str, text: str):
    """Type ``text`` into ``stage`` of ``row`` of ``problem`` and press Enter; the stage's block."""
    block = page.locator(f'section[data-problem="{problem}"] [data-row="{row}"]')
    field = block.locator(f'input[data-stage="{stage}"]')
    field.fill(text)
    field.press("Enter")
    return block.locator(f'[data-stage-block="{stage}"]')


def saved(block) -> None:
    """Wait until ``block`` says the server stored it (``data-saved="true"``)."""
    block.page.wait_for_function("b => b.getAttribute('data-saved') === 'true'", arg=block.element_handle(), timeout=WAIT)
