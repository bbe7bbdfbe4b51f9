"""What the practice page carries for a sampling problem's temperature slider, without a browser:
``practice/data.py``'s ``sampling_widget_data`` and ``slider_messages``, and ``practice/page.py``'s
scripts and stylesheets, which a page of attention problems does not carry (it stays as it was).
The slider itself, in Chromium: tests/e2e/test_sampling_browser.py.
"""

from __future__ import annotations

import json
import re

from helpers.language import in_language
from helpers.paths import ROOT

from attn_tutor.core import i18n
from attn_tutor.practice import data as page_data
from attn_tutor.practice import page
from attn_tutor.problems.load import load_text

ASSETS = ROOT / "attn_tutor" / "practice" / "assets"

SET = """problems:
  - id: next-word
    kind: sampling
    tokens: [생선을, 우유를, 물을]
    logits: [2.0, 1.0, 0.1]
    temperature: 0.8
    top_p: 0.9
    draw: 0.62
    decimals: 2
  - id: three-steps
    kind: sampling
    tokens: [생선을, 우유를, 물을]
    temperature: 2
    steps:
      - {logits: [2.0, 1.0, 0.1], target: 생선을}
      - {logits: [0.5, 2.5, -1], target: 물을}
"""


def test_the_slider_gets_the_problems_tokens_logits_and_t():
    one, steps = load_text(SET).problems
    data = page_data.sampling_widget_data(one)
    assert data == {"id": "next-word", "tokens": ["생선을", "우유를", "물을"], "logits": [2.0, 1.0, 0.1],
                    "temperature": 0.8, "top_k": None, "top_p": 0.9, "decimals": 2}  # fmt: skip
    assert json.loads(json.dumps(data, allow_nan=False)) == data  # plain JSON, as the page carries it
    continuation = page_data.sampling_widget_data(steps)
    assert continuation["logits"] == [2.0, 1.0, 0.1] and continuation["temperature"] == 2.0  # its first step


def test_the_sliders_sentences_are_in_both_languages_and_each_is_used():
    english = in_language("en", page_data.slider_messages)
    korean = in_language("ko", page_data.slider_messages)
    assert english.keys() == korean.keys() and len(english) >= 10
    assert english["slider.label"] == "Temperature T" and korean["slider.label"] == "온도 T"
    source = (ASSETS / "temperature.js").read_text(encoding="utf-8") + (ASSETS / "widget.js").read_text(encoding="utf-8")
    used = {key for key in re.findall(r'\bt\("([a-z_.]+)"', source) if key.startswith(page_data.SLIDER_PREFIXES)}
    assert used == set(english), used ^ set(english)
    assert not any(key.startswith(page_data.SLIDER_PREFIXES) for key in page_data.messages())  # not on an attention page


def test_only_a_page_with_a_sampling_problem_carries_the_sliders_scripts():
    attention = {"variants": [{"problems": [{"id": "cat-fish"}]}]}
    sampling = {"variants": [{"problems": [{"id": "cat-fish"}, {"id": "next-word", "kind": "sampling"}]}]}
    assert page.scripts(attention) == page.SCRIPTS and page.styles(attention) == (page.STYLE,)
    with_sampling = page.scripts(sampling)
    assert with_sampling[-1] == "widget.js"  # it starts the page: everything it calls comes first
    assert set(with_sampling) == {*page.SCRIPTS, "sampling.js", "sampling_marking.js", "temperature.js"}
    assert with_sampling.index("numbers.js") < with_sampling.index("sampling.js") < with_sampling.index("temperature.js")
    assert page.styles(sampling) == ("page.css", "temperature.css")
    for name in (*with_sampling, *page.styles(sampling)):
        assert (ASSETS / name).is_file() and page.asset(name) == (ASSETS / name).read_text(encoding="utf-8")


def test_an_exported_page_of_attention_problems_carries_none_of_it(run_cli, tmp_path):
    out = tmp_path / "practice.html"
    result = run_cli("export", "-f", "page", "-o", str(out))
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    # none of the sampling scripts (widget.js only names them, in its dispatch on a problem's kind)
    assert "AT.sampling = {" not in html and "AT.samplingSlider = " not in html and "AT.samplingMarking = " not in html
    assert "slider-bars" not in html
    assert "\n".join(page.asset(name, {"attention"}) for name in page.SCRIPTS) in html
    assert "samplingParts" not in html and "<kind" not in html  # widget.js without its sampling lines


def test_the_sliders_messages_are_keys_of_the_catalogue():
    assert set(in_language("en", page_data.slider_messages)) <= set(i18n.keys())
