"""What the live-class browser tests do on a student's page (tests/e2e/test_live*_browser.py).

``WAIT`` is how long a page may take to show what the server sent (a resend backs off up to
15 s). ``answer`` types a stage's text into a row and presses Enter, as a student does;
``saved`` waits until the page marks a block (a stage, or a concept item's section) as
stored by the server. On the teacher's page, ``shows`` waits until a cell of the map reads a
count, and ``closed`` until a problem (or the concept items, ``#concepts``) is closed.
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


def shows(board, selector: str, text: str = "1") -> None:
    """Wait until the element ``selector`` on the teacher's page (a count on the map) reads ``text``."""
    board.wait_for_function("([s, text]) => document.querySelector(s)?.textContent === text", arg=[selector, text], timeout=WAIT)


def closed(board, problem: str) -> None:
    """Wait until the teacher's page shows ``problem`` closed: its open/close button offers to open it again."""
    button = f'[data-problem-control="{problem}"] [data-control="open"]'
    board.wait_for_function("b => document.querySelector(b).dataset.value === 'true'", arg=button, timeout=WAIT)
