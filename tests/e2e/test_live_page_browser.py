"""The student's page in a live class, in Debian's chromium (playwright) against `attn-tutor serve` on
loopback: nothing typed is lost, "another like this", and the page says what it means.

- Text typed and never checked — a numeric stage, an order half placed — comes back after the teacher
  switches the mode (the page reloads itself), a reload, the problem closed and opened again, and a
  server killed (SIGKILL) and started again on the same file; it is never checked or sent by itself.
- After a stage marked partly right, the button ``[data-action="another"]`` (by keyboard) draws a fresh
  variant below the problem, marked on the page and saved as practice; the teacher's page counts it; an
  exam has no such button.
- At 390 px: a partly right stage that is saved shows the neutral "saved" sign and no sign of a right
  answer; the shown solution (the e^x and row-sum table too) overflows nothing; nothing of the offline
  page's answer-file hand-in (its box, its score) is on the page, before joining or after.
"""

from __future__ import annotations

import pytest
from helpers import axe
from helpers.live_page import WAIT, answer, saved
from helpers.serve import Server
from helpers.watched import People

from attn_tutor.core.rounding import fmt_given
from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve import engine
from attn_tutor.variants.generate import variant_set

pytestmark = pytest.mark.browser

CH13 = load_problem_set("ch13")
EXPECTED = ("Failed to load resource", "The Content Security Policy directive 'frame-ancestors' is ignored")
STAGE = 'section[data-problem="cat-fish"] [data-row="먹었다"] [data-stage-block="{}"]'


@pytest.fixture
def person(browser):
    people = People(browser, expected=EXPECTED)
    yield people
    assert people.close() == []  # no script error, no CSP violation


def join(page, server: Server, name: str):
    page.goto(server.student_url)
    page.locator("[data-join-name]").fill(name)
    page.locator("[data-join]").click()
    page.locator('section[data-problem="cat-fish"]').wait_for(state="visible", timeout=WAIT)


def board(page, server: Server):
    page.goto(server.teacher_url)
    page.locator("[data-map]").wait_for()
    return page


def typed_back(page, scores: str, order: str) -> None:
    """The page shows again what was typed and never checked: unchecked, unsent."""
    field = page.locator(STAGE.format("scores") + " input[data-stage]")
    field.wait_for(state="visible", timeout=WAIT)
    page.wait_for_function("([s, v]) => document.querySelector(s)?.value === v",
                           arg=[STAGE.format("scores") + " input[data-stage]", scores], timeout=WAIT)  # fmt: skip
    assert page.locator(STAGE.format("scores")).get_attribute("data-verdict") is None  # not checked
    assert page.locator(STAGE.format("scores")).get_attribute("data-saved") is None  # not sent
    page.wait_for_function("o => document.querySelector('section[data-concept=\"steps\"] [data-order]')?.dataset.order === o",
                           arg=order, timeout=WAIT)  # fmt: skip
    assert page.locator('section[data-concept="steps"]').get_attribute("data-verdict") is None
    assert page.evaluate("AttnTutor.live.queue().length") == 0


def test_typed_text_comes_back_after_a_mode_switch_a_reload_and_a_killed_server(serve, person):
    server = serve()
    teacher = board(person(), server)
    phone = person(390)
    join(phone, server, "김민지")
    phone.locator(STAGE.format("scores") + " input[data-stage]").fill("1.73 1.15")  # typed, Enter never pressed
    steps = phone.locator('section[data-concept="steps"]')
    labels = steps.locator("button[data-option]")
    first, second = labels.nth(2).get_attribute("data-option"), labels.nth(0).get_attribute("data-option")
    labels.nth(2).click()
    labels.nth(0).click()  # half an order placed
    order = f"{first} {second}"
    assert steps.locator("[data-order]").get_attribute("data-order") == order
    teacher.locator('[data-control="mode"]').click()  # to an exam: the page reloads itself within seconds
    phone.locator("[data-exam-note]").wait_for(state="attached", timeout=WAIT)
    typed_back(phone, "1.73 1.15", order)
    phone.reload()
    typed_back(phone, "1.73 1.15", order)
    # the problem closed, then opened again: the page draws it afresh (a reload of its own)
    phone.evaluate("window.beforeReopen = true")
    close = teacher.locator('[data-problem-control="cat-fish"] [data-control="open"]')
    close.click()
    phone.locator('section[data-problem="cat-fish"][data-closed]').wait_for(state="attached", timeout=WAIT)
    assert phone.locator(STAGE.format("scores") + " input[data-stage]").input_value() == "1.73 1.15"  # closed: kept, locked
    close.click()
    phone.wait_for_function("() => window.beforeReopen === undefined", timeout=WAIT)
    typed_back(phone, "1.73 1.15", order)
    server.kill()  # SIGKILL
    server.start()  # the same file, the same port
    phone.reload()
    typed_back(phone, "1.73 1.15", order)
    # the server holds nothing of it: it was never checked
    state = phone.evaluate("fetch('/api/state').then(r => r.json())")
    assert state["answers"] == []
    # finished and checked by the student, it is sent and saved, and kept as typed no more
    field = phone.locator(STAGE.format("scores") + " input[data-stage]")
    field.fill("1 6 4")
    field.press("Enter")
    saved(phone.locator(STAGE.format("scores")))
    kept = phone.evaluate("Object.keys(localStorage).filter(k => k.includes(':typed:')).map(k => localStorage.getItem(k))")
    assert len(kept) == 1 and "1 6 4" not in kept[0] and "1.73" not in kept[0]


def right_row(problem, token: str) -> str:
    return " ".join(fmt_given(v, problem.decimals) for v in engine.solve(problem).heads[0].scores[problem.row_index(token)])


@pytest.mark.axe
def test_another_like_this_by_keyboard_marked_saved_and_counted_for_the_teacher(serve, person):
    server = serve()
    teacher = board(person(), server)
    phone = person(390)
    join(phone, server, "Lee")
    button = phone.locator('section[data-problem="cat-fish"] button[data-action="another"]')
    assert not button.is_visible()  # nothing wrong yet
    partly = answer(phone, "cat-fish", "먹었다", "scores", "1 6 5")
    assert partly.get_attribute("data-verdict") == "partial"
    saved(partly)
    button.wait_for(state="visible", timeout=WAIT)
    button.focus()
    phone.keyboard.press("Enter")
    variant = phone.locator('section[data-variant-of="cat-fish"]')
    variant.wait_for(state="visible", timeout=WAIT)
    seed = int(variant.get_attribute("data-variant"))
    assert phone.evaluate("document.activeElement.matches('section[data-variant-of]')")  # focus moved to it
    varied = next(p for p in variant_set(CH13, seed).problems if p.id == "cat-fish")
    field = variant.locator('[data-row="먹었다"] input[data-stage="scores"]')
    field.fill(right_row(varied, "먹었다"))
    field.press("Enter")
    block = variant.locator('[data-row="먹었다"] [data-stage-block="scores"]')
    assert block.get_attribute("data-verdict") == "correct"  # marked on the page, against the variant
    saved(block)
    assert block.get_attribute("data-server-verdict") == "correct"  # and by the server
    assert phone.locator(STAGE.format("scores")).get_attribute("data-verdict") == "partial"  # the original untouched
    teacher.wait_for_function("() => document.querySelector('[data-practice-count=\"cat-fish\"]')?.dataset.count === '1'", timeout=WAIT)
    assert teacher.locator('[data-practice-count="cat-fish"]').is_visible()
    assert teacher.locator('[data-map-item="cat-fish/먹었다/scores"] [data-map-verdict="correct"]').inner_text() == "0"  # not in the map
    assert axe.violations(phone) == []
    phone.reload()  # the variant, and its saved answer, come back
    again = phone.locator(f'section[data-variant-of="cat-fish"][data-variant="{seed}"] [data-row="먹었다"] [data-stage-block="scores"]')
    again.wait_for(timeout=WAIT)
    saved(again)
    assert phone.locator('section[data-variant-of="cat-fish"]').count() == 1


def test_an_exam_has_no_another_like_this(serve, person):
    server = serve(mode="exam")
    phone = person(390)
    join(phone, server, "Choi")
    saved(answer(phone, "cat-fish", "먹었다", "scores", "1 6 5"))
    assert phone.locator('button[data-action="another"]:visible').count() == 0


def test_at_390px_saved_is_not_correct_the_solution_fits_and_there_is_no_file_hand_in(serve, person):
    server = serve()
    teacher = board(person(), server)
    phone = person(390)
    phone.goto(server.student_url)
    phone.locator("[data-join-name]").wait_for()
    hand_in = "[data-field=student], [data-action=save], #save, #score, [data-score]"
    assert phone.locator(hand_in).count() == 0  # before joining: no answer-file box, no "score: 0 / 10"
    assert "/ 10" not in phone.inner_text("body")
    join(phone, server, "Park")
    assert phone.locator(hand_in).count() == 0
    partly = answer(phone, "cat-fish", "먹었다", "scores", "1 6 5")
    saved(partly)
    assert partly.get_attribute("data-verdict") == "partial"
    sign = partly.locator("[data-saved-sign]")
    assert sign.is_visible() and sign.inner_text() == "saved"
    assert "✓" not in partly.inner_text()
    marks = partly.evaluate("""b => [...b.querySelectorAll('*')].flatMap(e => [getComputedStyle(e, '::after').content,
        getComputedStyle(e, '::before').content]).filter(c => c && c !== 'none' && c !== 'normal')""")
    assert not any("✓" in c or "2713" in c for c in marks), marks
    assert partly.evaluate("b => getComputedStyle(b).borderLeftColor") != phone.evaluate(
        "() => { const e = document.createElement('div'); e.style.color = 'var(--good)'; document.body.append(e);"
        " const c = getComputedStyle(e).color; e.remove(); return c; }")  # fmt: skip  # no green edge either
    teacher.locator('[data-problem-control="cat-fish"] [data-control="revealed"]').click()
    solution = phone.locator('section[data-problem="cat-fish"] [data-solution]')
    solution.wait_for(timeout=WAIT)
    assert "sum" in solution.inner_text()  # the e^x / row-sum table is there
    over = solution.evaluate("""s => [...s.querySelectorAll('*')].map(e => [e.tagName, e.textContent.slice(0, 30),
        e.getBoundingClientRect().right]).filter(([t, x, right]) => right > window.innerWidth + 0.5)""")
    assert over == [], over
    # each table inside its own box: it fits, or its box scrolls sideways (nothing cut off, never the page)
    cut = solution.evaluate("""s => [...s.querySelectorAll('table')].filter(t => {
        const box = t.closest('figure') || t.parentElement;
        const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
        return t.getBoundingClientRect().right > box.getBoundingClientRect().right + 0.5 && !scrolls;
      }).map(t => t.textContent.slice(0, 40))""")
    assert cut == [], cut
    assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
