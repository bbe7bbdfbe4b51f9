"""The page's sampling engine and the temperature slider in a real browser (Debian's chromium).

sampling.js (attn_tutor/practice/assets) is a port of attn_tutor/kinds/sampling/engine.py: every
golden case (tests/golden/sampling.json, from tests/tools/make_sampling_golden.py) gives the same
numbers through it as through Python, within 1e-12 on every stage. The slider (temperature.js)
is drawn on a page of its own, made here as the practice page is made (the assets inline, a CSP
of their hashes, the sentences from the catalogue), 390 px wide: moved by keys, its bars and their
numbers follow Python's probabilities at the T it says; at its far left (T → 0) the greedy token
reads 1.000; axe finds nothing in either language.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from pathlib import Path

import pytest
from helpers import axe
from helpers import sampling_golden as g
from helpers.watched import Watched

from attn_tutor.core.i18n import messages, speaking
from attn_tutor.core.rounding import fmt
from attn_tutor.kinds.sampling import engine
from attn_tutor.practice.page import asset

pytestmark = pytest.mark.browser

SCRIPTS = ("numbers.js", "particles.js", "sampling.js", "temperature.js")
STYLES = ("page.css", "temperature.css")
START = """(function () {
  const data = JSON.parse(document.getElementById("slider-data").textContent);
  globalThis.slider = AttnTutor.samplingSlider(document.getElementById("slider-here"), data.problem, data.messages);
})();"""

FISH = {
    "id": "next-word", "tokens": ["생선을", "우유를", "물을", "밥을"], "logits": [2.0, 1.0, 0.1, 1.5],
    "temperature": 0.8, "top_k": None, "top_p": None, "decimals": 3,
}  # fmt: skip
CUT = {**FISH, "id": "top-p", "top_p": 0.9}


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def slider_page(folder: Path, lang: str, problem: dict) -> Path:
    """A page holding only the slider for ``problem``, in ``lang``, under the practice page's kind of CSP."""
    with speaking(lang):
        said = messages(("slider.",))
        title = said["slider.caption"]
    script = "\n".join(asset(name) for name in SCRIPTS) + "\n" + START
    style = "\n".join(asset(name) for name in STYLES)
    data = json.dumps({"problem": problem, "messages": said}, ensure_ascii=False).replace("<", "\\u003c")
    csp = f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}"
    html = f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{style}</style></head>
<body><main><h1>{title}</h1><section class="problem"><div id="slider-here"></div></section></main>
<script id="slider-data" type="application/json">{data}</script>
<script>{script}</script></body></html>
"""
    path = folder / f"slider-{lang}-{problem['id']}.html"
    path.write_text(html, encoding="utf-8")
    return path


@pytest.fixture
def opened(browser, tmp_path):
    made: list[Watched] = []

    def _open(lang: str = "en", problem: dict = FISH, width: int = 390):
        watched = Watched(browser, width)
        made.append(watched)
        watched.page.goto(slider_page(tmp_path, lang, problem).as_uri())
        watched.page.wait_for_selector("figure[data-slider]")
        # two animation frames: painted, so chromium takes keys
        watched.page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        return watched.page

    yield _open
    for watched in made:
        assert watched.errors == [], watched.errors  # no script error, no CSP violation
        watched.context.close()


# --- the port, held to the golden cases ----------------------------------------------------

RUN_GOLDEN = """cases => {
  const S = AttnTutor.sampling;
  const enc = (v) => Array.isArray(v) ? v.map(enc) : v instanceof Set ? [...v].sort((a, b) => a - b)
    : typeof v === "number" ? (Number.isNaN(v) ? "nan" : v === Infinity ? "inf" : v === -Infinity ? "-inf" : v) : v;
  return cases.map(c => {
    const p = c.problem, sol = S.solve(p);
    const steps = sol.steps.map(s => {
      const keep = S.keptSet(s.probabilities, p.top_k, p.top_p);
      const out = {...s, ranked: S.ranked(s.probabilities), kept_set: keep,
        unrenormalised: S.truncate(s.probabilities, keep, {renormalise: false}),
        loss_bits: s.target === null ? null : S.loss(s.probabilities[s.target], 2),
        loss_log10: s.target === null ? null : S.loss(s.probabilities[s.target], 10)};
      if (p.top_p !== null) {
        out.cut_early = S.keptSet(s.probabilities, null, p.top_p, {late: -1});
        out.cut_late = S.keptSet(s.probabilities, null, p.top_p, {late: 1});
      }
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, enc(v)]));
    });
    const stages = {};
    for (const stage of Object.keys(c.expected.stages)) stages[stage] = enc(S.stageValues(sol, stage));
    return {steps, perplexity: enc(sol.perplexity), stages};
  });
}"""


def differences(expected, got, where: str, found: list[str], sizes: list[float]) -> None:
    """Every place ``got`` is not ``expected`` (numbers: further apart than REL, or ABS near zero)."""
    if isinstance(expected, dict):
        if set(expected) != set(got):
            found.append(f"{where}: keys {sorted(set(expected) ^ set(got))}")
            return
        for key in expected:
            differences(expected[key], got[key], f"{where}.{key}", found, sizes)
    elif isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            found.append(f"{where}: {got!r} for {expected!r}")
            return
        for i, (a, b) in enumerate(zip(expected, got)):
            differences(a, b, f"{where}[{i}]", found, sizes)
    elif isinstance(expected, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        apart = abs(expected - got)
        sizes.append(apart / max(abs(expected), abs(got), 1e-300))
        if not (apart <= g.ABS or math.isclose(expected, got, rel_tol=g.REL)):
            found.append(f"{where}: {got!r} for {expected!r}")
    elif expected != got:  # an index, a token, None, or a number JSON cannot hold ("inf")
        found.append(f"{where}: {got!r} for {expected!r}")


def test_every_golden_case_gives_pythons_numbers_in_javascript(opened):
    cases = g.load()["cases"]
    page = opened()
    got = page.evaluate(RUN_GOLDEN, cases)
    found: list[str] = []
    sizes: list[float] = []
    for case, result in zip(cases, got):
        differences(case["expected"], result, case["name"], found, sizes)
    assert len(got) == len(cases) >= 400
    assert found == [], found[:20]
    assert len(sizes) > 20_000  # every stage's every number was compared
    print(f"{len(sizes)} numbers compared; largest relative difference {max(sizes):.3g}")


def test_fsum_is_pythons_to_the_bit(opened):
    """sampling.js's fsum, the port of math.fsum, rounds every golden sum as Python does: exactly."""
    cases = g.load()["fsum"]
    got = opened().evaluate(
        """cases => cases.map(c => {
          const x = AttnTutor.sampling.fsum(c.values.map(v => typeof v === "string" ? Number(v.replace("inf", "Infinity").replace("nan", "NaN")) : v));
          return Number.isNaN(x) ? "nan" : x === Infinity ? "inf" : x === -Infinity ? "-inf" : Object.is(x, -0) ? "-0" : x;
        })""",
        cases,
    )
    expected = ["-0" if isinstance(c["sum"], float) and c["sum"] == 0 and math.copysign(1, c["sum"]) < 0 else c["sum"] for c in cases]
    # an integral number comes back from the browser as an int: as a float it is the same double
    assert [float(x) if isinstance(x, int) else x for x in got] == expected


def test_the_port_says_the_same_for_a_problem_read_from_yaml(opened):
    """A problem as the loader reads it (practice/data.py's form) solves to the engine's numbers."""
    from attn_tutor.problems.load import load_text

    text = """problems:
  - id: draw
    kind: sampling
    tokens: [생선을, 우유를, 물을, 밥을]
    logits: [2.0, 1.0, 0.1, 1.5]
    temperature: 0.8
    top_p: 0.9
    draw: 0.62
    target: 우유를
"""
    problem = load_text(text).problems[0]
    data = g.problem_json(problem)
    page = opened()
    got = page.evaluate("p => { const s = AttnTutor.sampling.solve(p).steps[0]; return [s.probabilities, s.kept, s.pick, s.loss]; }", data)
    step = engine.solve(problem).step
    assert got[0] == list(step.probabilities)
    assert got[1] == list(step.kept)
    assert problem.tokens[got[2]] == problem.tokens[step.pick]
    assert got[3] == step.loss


# --- the slider ---------------------------------------------------------------------------


def shown(page) -> dict:
    """What the slider shows now: its T, the value sentence, and each token's exact and printed probability."""
    return page.evaluate("""() => {
      const figure = document.querySelector("figure[data-slider]");
      return {
        temperature: Number(figure.dataset.temperature),
        value: figure.querySelector("[data-slider-value]").textContent,
        valuetext: figure.querySelector("input[data-slider-input]").getAttribute("aria-valuetext"),
        rows: [...figure.querySelectorAll("tr[data-token]")].map(r => ({token: r.dataset.token,
          p: Number(r.dataset.probability), text: r.querySelector("td.pct").textContent,
          width: r.querySelector(".bar").style.width, kept: r.dataset.kept})),
      };
    }""")


def python_at(problem: dict, temperature: float) -> list[float]:
    return list(engine.softmax(engine.scale(problem["logits"], temperature)))


def assert_bars_are_pythons(now: dict, problem: dict) -> None:
    exact = python_at(problem, now["temperature"])
    for row, p in zip(now["rows"], exact):
        assert math.isclose(row["p"], p, rel_tol=g.REL, abs_tol=g.ABS), (row, p)
        assert row["text"].startswith(fmt(p, 3)), (row, p)  # the number beside the bar, as solve prints it


def test_the_slider_starts_at_the_problems_t_and_follows_the_keys(opened):
    page = opened()
    start = shown(page)
    assert start["temperature"] == 0.8
    assert start["value"] == "T = 0.8 — the problem's T"
    assert start["valuetext"] == "T = 0.8"
    assert page.locator("[data-problem-mark]").inner_text() == "the problem's T = 0.8"
    assert_bars_are_pythons(start, FISH)
    assert [r["text"] for r in start["rows"]] == [fmt(p, 3) for p in python_at(FISH, 0.8)]

    page.locator("input[data-slider-input]").focus()
    page.keyboard.press("ArrowRight")
    warmer = shown(page)
    assert warmer["temperature"] > 0.8
    assert warmer["valuetext"] == f"T = {warmer['temperature']:g}" and warmer["value"] == warmer["valuetext"]
    assert warmer["rows"][0]["p"] < start["rows"][0]["p"]  # warmer: the most likely token loses some
    assert warmer["rows"][0]["width"] != start["rows"][0]["width"]
    assert_bars_are_pythons(warmer, FISH)
    page.keyboard.press("ArrowLeft")
    assert shown(page) == start  # back on the problem's own T, exactly, by the keys alone
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    colder = shown(page)
    assert colder["temperature"] < 0.8 and colder["rows"][0]["p"] > start["rows"][0]["p"]
    assert_bars_are_pythons(colder, FISH)


def test_at_the_far_left_the_greedy_token_reads_one_and_at_the_right_nearly_uniform(opened):
    page = opened()
    page.locator("input[data-slider-input]").focus()
    page.keyboard.press("Home")
    zero = shown(page)
    assert zero["temperature"] == 0 and zero["valuetext"] == "T → 0 (greedy)"
    assert [(r["token"], r["text"]) for r in zero["rows"]] == [("생선을", "1.000"), ("우유를", "0.000"), ("물을", "0.000"), ("밥을", "0.000")]
    assert zero["rows"][0]["width"] == "100%"
    page.keyboard.press("ArrowRight")  # the first T on the scale: 0.05, as close to greedy as 3 places show
    first = shown(page)
    assert first["temperature"] == 0.05
    assert_bars_are_pythons(first, FISH)
    assert first["rows"][0]["text"] == "1.000"
    page.keyboard.press("End")
    hot = shown(page)
    assert hot["temperature"] == 20
    assert_bars_are_pythons(hot, FISH)
    assert max(r["p"] for r in hot["rows"]) - min(r["p"] for r in hot["rows"]) < 0.05  # nearly 1/4 each
    page.keyboard.press("PageDown")
    assert shown(page)["temperature"] < 20
    page.locator('button[data-action="problem-t"]').click()
    back = shown(page)
    assert back["temperature"] == 0.8 and back["value"].endswith("the problem's T")
    assert page.evaluate("document.activeElement.dataset.sliderInput") == ""  # the focus back on the slider


def test_a_tie_at_the_top_shares_the_limit(opened):
    tie = {**FISH, "id": "tie", "logits": [2.0, 2.0, 0.1, 1.5]}
    page = opened(problem=tie)
    page.evaluate("slider.set(null)")
    assert [r["text"] for r in shown(page)["rows"]] == ["0.500", "0.500", "0.000", "0.000"]


def test_tokens_top_p_cuts_are_said_in_words_and_more_are_kept_as_t_rises(opened):
    page = opened(problem=CUT)
    start = shown(page)
    assert [r["kept"] for r in start["rows"]] == ["true", "true", "false", "true"]
    assert start["rows"][2]["text"] == f"{fmt(python_at(CUT, 0.8)[2], 3)} (cut)"
    assert page.locator("[data-cut-note]").inner_text() == "“cut”: a token outside the problem's top-p = 0.9 at this T (its bar striped)."
    page.locator("input[data-slider-input]").focus()
    page.keyboard.press("End")
    assert [r["kept"] for r in shown(page)["rows"]] == ["true", "true", "true", "true"]  # flat: top-p needs all four
    kept = engine.kept_set(python_at(CUT, 20.0), None, 0.9)
    assert kept == {0, 1, 2, 3}


def test_the_slider_speaks_korean_in_a_korean_page(opened):
    page = opened("ko")
    with speaking("ko"):
        said = messages(("slider.",))
    assert page.locator("label").inner_text() == said["slider.label"] == "온도 T"
    assert shown(page)["valuetext"] == "온도 T = 0.8"
    assert page.locator("[data-problem-mark]").inner_text() == "문제의 T = 0.8"
    assert page.locator('button[data-action="problem-t"]').inner_text() == said["slider.back"]
    text = page.locator("figure[data-slider]").inner_text()
    english = [s for s in messages(("slider.",)).values() if "{" not in s]  # the English page's sentences
    assert not [s for s in english if s in text]


def test_tab_reaches_the_slider_then_its_button(opened):
    page = opened()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.sliderInput") == ""
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert shown(page)["temperature"] > 0.8
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "problem-t"
    page.keyboard.press("Enter")
    assert shown(page)["temperature"] == 0.8


@pytest.mark.axe
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_axe_finds_nothing_fresh_or_moved(opened, lang):
    page = opened(lang, CUT)
    assert axe.violations(page) == []
    page.locator("input[data-slider-input]").focus()
    page.keyboard.press("Home")
    assert axe.violations(page) == []
    page.keyboard.press("End")
    assert axe.violations(page) == []


TWELVE = {
    **FISH, "id": "twelve", "temperature": 1.5, "top_k": 5,
    "tokens": ["extraordinarily", "unbelievable", "고양이가", "생선을", "우유를", "물을", "밥을", "the", "cat", "sat", "on", "mat"],
    "logits": [3.1, 2.9, 2.0, 1.0, 0.1, 1.5, -2, 0.3, 0.7, -1.1, 2.2, 0.0],
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_twelve_tokens_fit_390_px_at_every_t(opened, lang):
    page = opened(lang, TWELVE)
    page.locator("input[data-slider-input]").focus()
    for key in ("Home", "End"):
        page.keyboard.press(key)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, key
    assert sum(r["kept"] == "true" for r in shown(page)["rows"]) == 5  # top-k keeps five at any T
