"""The practice page of a set with sampling problems (``attn-tutor export ch14 -f page``) in Debian's chromium.

The page's marker (practice/assets/sampling_marking.js) is a port of
attn_tutor/kinds/sampling/marking.py: every golden marking case (tests/golden/sampling_marking.json,
made by tests/tools/make_sampling_golden.py: right, rounded, slipped, each known mistake's row, cut
tokens as 0 or left out, later stages worked from a student's own mistaken row) gets the same cells,
verdict, diagnosis and points from it, in exam and in practice mode, as from Python. Typed into the
exported page, 390 px wide, answers get a verdict on each cell (a sign beside the colour), a mistake
is named, a later stage worked from the student's own row gets follow-through, the slider moves, and
the saved answer file is graded by ``attn-tutor grade`` to the page's points; axe finds nothing in
either language.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import axe
from helpers import sampling_golden as g
from helpers.language import in_language
from helpers.watched import Watched

from attn_tutor.core.i18n import text

pytestmark = pytest.mark.browser


def export(run_cli, folder: Path, lang: str = "en") -> Path:
    out = folder / f"ch14-{lang}.html"
    result = run_cli("export", "ch14", "-f", "page", "-o", str(out), "--lang", lang)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def opened(browser, run_cli, tmp_path):
    made: list[Watched] = []

    def _open(lang: str = "en", width: int = 390):
        watched = Watched(browser, width, accept_downloads=True)
        made.append(watched)
        watched.page.goto(export(run_cli, tmp_path, lang).as_uri())
        watched.page.wait_for_selector("section[data-kind=sampling] [data-stage-block]")
        return watched.page

    yield _open
    for watched in made:
        assert watched.errors == [], watched.errors  # no script error, no CSP violation
        watched.context.close()


RUN_MARKING = """([problems, cases]) => {
  const dec = (v) => Array.isArray(v) ? v.map(dec) : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v === "nan" ? NaN : v;
  const enc = (v) => typeof v === "number" && !Number.isFinite(v) ? (Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf") : v;
  const byId = Object.fromEntries(problems.map(([id, p]) => [id, p]));
  return cases.map((c) => {
    const answers = Object.fromEntries(Object.entries(c.answers).map(([k, v]) => [k, dec(v)]));
    const out = {};
    for (const mode of ["exam", "practice"]) {
      out[mode] = AttnTutor.samplingMarking.mark(byId[c.problem], answers, { mode }).map((i) =>
        ({ stage: i.stage, cells: i.cells, verdict: i.verdict, diagnosis: i.diagnosis, points: enc(i.points) }));
    }
    return out;
  });
}"""


def test_every_golden_marking_case_is_pythons_in_javascript(opened):
    golden = g.load_marking()
    page = opened(width=1280)
    got = page.evaluate(RUN_MARKING, [golden["problems"], golden["cases"]])
    found = [
        (case["name"], mode, case["expected"][mode], result[mode])
        for case, result in zip(golden["cases"], got)
        for mode in ("exam", "practice")
        if case["expected"][mode] != result[mode]
    ]
    assert len(got) == len(golden["cases"]) >= 1000
    assert found == [], found[:5]
    items = [item for case in golden["cases"] for item in case["expected"]["exam"]]
    # the cases reach every verdict and every diagnosis the marker names
    assert {item["verdict"] for item in items} >= {"correct", "follow_through", "partial", "wrong", "missing"}
    named = {item["diagnosis"] for case in golden["cases"] for mode in ("exam", "practice") for item in case["expected"][mode]}
    assert named >= {"temperature_multiplied", "temperature_ignored", "temperature_after_softmax", "exp_not_normalized",
                     "not_renormalized", "top_p_boundary", "top_k_tie", "ignored_draw", "draw_wrong_end", "log_base", "loss_sign"}  # fmt: skip


def test_the_window_is_pythons_decimal_window(opened):
    """A window around a student's own number, made in JavaScript, is tolerance.window_floats's to the bit."""
    from attn_tutor.marking.tolerance import window_floats

    values = [0.0, 1.0, -1.0, 0.12345678, 2.718281828459045, 1e-7, -3.3e-5, 123456.789, 5.2e173, 7.38905609893065, 0.1 + 0.2]
    tolerances = [0.0005, 0.0005179281539243181, 0.05, 1e-6]
    args = [(v, t, d) for v in values for t in tolerances for d in (0, 2, 3, 4)]
    page = opened(width=1280)
    got = page.evaluate("args => args.map(([v, t, d]) => AttnTutor.samplingMarking.windowFloats(v, t, d))", args)
    assert got == [list(window_floats(v, t, d)) for v, t, d in args]


def _block(page, problem: str, stage: str):
    return page.locator(f'section[data-problem="{problem}"] [data-stage-block="{stage}"]')


def _answer(page, problem: str, stage: str, text: str):
    block = _block(page, problem, stage)
    field = block.locator("input[data-stage]")
    field.fill(text)  # the pick too: a token typed (its list offers the problem's tokens)
    field.press("Enter")
    return block


def test_typed_answers_get_verdicts_a_diagnosis_and_follow_through_at_390px(opened):
    page = opened()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    # cat-mat-en (T = 2): the logits multiplied by T instead of divided, named
    section = page.locator('section[data-problem="cat-mat-en"]')
    assert "T = 2" in section.locator("[data-settings]").inner_text()
    block = _answer(page, "cat-mat-en", "scaled", "4.8 3.2 1.6 -1.6")
    assert block.get_attribute("data-verdict") == "wrong"
    assert block.get_attribute("data-diagnosis") == "temperature_multiplied"
    assert "temperature" in block.locator("p[data-diagnosis]").inner_text().lower()
    cells = block.locator("td[data-cell]")
    assert [cells.nth(i).get_attribute("data-verdict") for i in range(cells.count())] == ["wrong"] * 4
    assert "✗" in cells.nth(0).inner_text()  # a sign beside the colour
    # e^x worked from that row as typed: follow-through (practice: from the stage before, as typed)
    block = _answer(page, "cat-mat-en", "exp", "121.510 24.533 4.953 0.202")
    assert block.get_attribute("data-verdict") == "follow_through", block.inner_text()
    states = block.locator("td[data-cell]").evaluate_all("cells => cells.map(c => c.dataset.verdict)")
    assert states.count("follow_through") >= 3 and set(states) <= {"follow_through", "correct"}  # e^-1.6 is e^(z/T - max)'s too
    assert "↪" in block.locator("td[data-cell]").first.inner_text()
    # the right probabilities: correct, and focus has moved on to the next stage
    block = _answer(page, "cat-mat-en", "probabilities", "0.431 0.289 0.194 0.087")
    assert block.get_attribute("data-verdict") == "correct", block.inner_text()
    assert page.evaluate("document.activeElement.getAttribute('data-stage')") == "kept"
    # top-k 2, the kept ones not divided by their sum: named
    block = _answer(page, "cat-mat-en", "kept", "0.431 0.289 0 0")
    assert block.get_attribute("data-diagnosis") == "not_renormalized", block.inner_text()
    block = _answer(page, "cat-mat-en", "pick", "sofa")
    assert block.get_attribute("data-verdict") == "correct"
    assert block.locator("datalist option").evaluate_all("os => os.map(o => o.value)") == ["mat", "sofa", "roof", "moon"]
    # a wrong count is a sentence, and what was typed stays
    block = _answer(page, "cat-next", "scaled", "2 1")
    assert block.locator("[data-error]").get_attribute("data-error") == "quiz.wrong_count"
    assert block.locator("input[data-stage]").input_value() == "2 1"
    # the worked solution opens
    solution = page.locator('section[data-problem="cat-next"] details[data-solution]')
    solution.locator("summary").click()
    assert "2.718" in solution.inner_text()


def test_kept_with_a_cut_token_typed_as_zero(opened):
    page = opened()
    block = _answer(page, "lunch-top-k", "exp", "")
    assert block.locator("[data-error]").get_attribute("data-error") == "quiz.empty"
    data = page.evaluate("() => AttnTutor.page.data().variants[0].problems.find(p => p.id === 'lunch-top-k')")
    key = data["exact_text"]
    _answer(page, "lunch-top-k", "exp", " ".join(key["exp"]))
    _answer(page, "lunch-top-k", "probabilities", " ".join(key["probabilities"]))
    kept = " ".join("0" if text == "cut" else text for text in key["kept"])
    assert "0" in kept.split()
    block = _answer(page, "lunch-top-k", "kept", kept)
    assert block.get_attribute("data-verdict") == "correct", block.inner_text()
    assert block.locator("td[data-cell]:not([data-verdict])").count() == kept.split().count("0")  # the cut ones: "—"


def test_the_slider_moves_by_keyboard_beside_the_problem(opened):
    page = opened()
    section = page.locator('section[data-problem="cat-next"]')
    figure = section.locator("figure[data-slider]")
    assert figure.get_attribute("data-temperature") == "1"
    field = figure.locator("input[data-slider-input]")
    field.focus()
    field.press("Home")
    assert figure.get_attribute("data-temperature") == "0"
    top = figure.locator("tr[data-token]").first
    assert top.get_attribute("data-probability") == "1"
    field.press("End")
    assert float(figure.get_attribute("data-temperature")) >= 20


def test_the_saved_file_is_graded_to_the_pages_points(opened, run_cli, tmp_path):
    page = opened(width=1280)
    _answer(page, "cat-next", "scaled", "2 1 0")
    _answer(page, "cat-next", "exp", "7.389 2.718 1")
    _answer(page, "cat-next", "probabilities", "0.8 0.1 0.1")
    _answer(page, "cat-next", "pick", "먹었다")
    page.fill("[data-field=student]", "Kim")
    with page.expect_download() as info:
        page.click("[data-action=save]")
    saved = tmp_path / "Kim.yaml"
    info.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert "cat-next" in text and "pick: \"먹었다\"" in text
    score = page.locator("[data-grade-score]").get_attribute("data-grade-score")
    assert float(score) == 3.0
    out = tmp_path / "report.json"
    result = run_cli("grade", str(saved), "--json", str(out))
    assert result.exit_code == 0, result.output
    student = json.loads(out.read_text(encoding="utf-8"))["students"][0]
    assert student["errors"] == []
    assert student["report"]["score"] == float(score)


@pytest.mark.axe
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_axe_finds_nothing_fresh_or_marked(opened, lang):
    page = opened(lang)
    assert axe.violations(page) == []
    _answer(page, "cat-mat-en", "scaled", "4.8 3.2 1.6 -1.6")
    _answer(page, "cat-mat-en", "exp", "121.510 24.533 4.953 0.202")
    page.locator('section[data-problem="cat-next"] details[data-solution] summary').click()
    assert axe.violations(page) == []


def test_hints_give_the_rule_then_walk_the_stages_cells(opened):
    page = opened()
    block = _block(page, "cat-mat-en", "scaled")
    button = block.locator('button[data-action="hint"]')
    button.click()
    assert block.locator('[data-hint="1"]').inner_text() == in_language("en", text, "quiz.sampling.hint.scaled")
    button.click()
    assert block.locator('[data-hint="2"]').inner_text() == "mat: 2.4 ÷ 2 = 1.200"  # the first cell worked, z ÷ T
    for _ in range(4):
        button.click()
    assert block.locator('[data-hint="5"]').inner_text() == "moon: -0.8 ÷ 2 = -0.400"
    assert block.locator('[data-hint="6"]').inner_text() == in_language("en", text, "quiz.sampling.no_more_hints")
