"""`attn-tutor export -f page`: one self-contained file, nothing fetched, the catalogue's sentences.

What a browser does with the page is tested in tests/e2e/test_practice_page_browser.py; this file checks the
file itself, without a browser.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest
from helpers.language import in_language
from helpers.page import script_json
from helpers.paths import ROOT, TESTS

from attn_tutor.core import i18n
from attn_tutor.kinds.sampling import marking as sampling_marking
from attn_tutor.practice import data as page_data
from attn_tutor.practice import page

ASSETS = ROOT / "attn_tutor" / "practice" / "assets"


def export(run_cli, tmp_path: Path, *args: str) -> str:
    out = tmp_path / "practice.html"
    result = run_cli("export", "-f", "page", "-o", str(out), *args)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def embedded(html: str, unpacked: bool = True) -> dict:
    """The page's data with each packed variant's text (from ``script#page-variants``, after the
    scripts) back in its place; each unpacked, as the page's script unpacks it when chosen."""
    data = script_json(html)
    assert data is not None
    for variant, text in zip(data["variants"], script_json(html, "page-variants") or ()):
        if text is not None:
            variant["packed"] = text
    if unpacked:
        for variant in data["variants"]:
            if "packed" in variant:
                variant.update(page_data.unpack(variant.pop("packed")))  # its problems and concept items
    return data


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_page_allows_only_its_own_inline_script_and_style(run_cli, tmp_path):
    html = export(run_cli, tmp_path)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert csp.startswith("default-src 'none';")
    script = re.search(r"<script>(.*?)</script>", html, re.S).group(1)
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    assert f"script-src {sha256(script)};" in csp
    assert f"style-src {sha256(style)};" in csp
    assert "unsafe" not in csp
    assert "connect-src 'none'" in csp and "form-action 'none'" in csp


def test_the_page_names_nothing_to_fetch(run_cli, tmp_path):
    html = export(run_cli, tmp_path)
    without_namespace = html.replace('"http://www.w3.org/2000/svg"', "")
    assert not re.search(r"https?://", without_namespace)
    assert not re.search(r"\b(src|href)\s*=", html.split('<script id="page-data"')[0])
    assert "@import" not in html and "url(" not in html
    for call in ("fetch(", "XMLHttpRequest", "WebSocket", "import(", "eval(", "new Function"):
        assert call not in html, call


def test_the_scripts_are_the_package_files_in_order():
    script = "\n".join(page.asset(name) for name in page.SCRIPTS)
    assert script == "\n".join((ASSETS / name).read_text(encoding="utf-8") for name in page.SCRIPTS)
    assert page.asset(page.STYLE) == (ASSETS / "page.css").read_text(encoding="utf-8")


def test_the_assets_ship_with_a_non_editable_install():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"attn_tutor.practice" = ["assets/*.js", "assets/*.css", "templates/*.html"]' in pyproject
    assert {p.name for p in ASSETS.iterdir()} >= {*page.SCRIPTS, page.STYLE}
    assert (ASSETS.parent / "templates" / "page.html").is_file()


def test_every_message_the_script_shows_is_in_the_catalogue():
    source = "\n".join((ASSETS / name).read_text(encoding="utf-8") for name in page.SCRIPTS)
    keys = set(re.findall(r'\bt\("([a-z_.]+)"', source))
    assert keys, "no t(...) calls found"
    assert keys <= set(i18n.keys()), keys - set(i18n.keys())
    for prefix in re.findall(r"\bt\(`([a-z_.]+)\$\{", source):  # t(`grading.verdict.${...}`)
        assert any(key.startswith(prefix) for key in i18n.keys()), prefix
    embedded_keys = set(page_data.messages())  # a page of attention problems
    both_keys = set(page_data.messages({"attention", "sampling"}))
    assert keys <= both_keys
    sampling_keys = both_keys - embedded_keys  # carried only by a page with a sampling problem
    assert set(page_data.slider_messages()) <= sampling_keys
    assert {"solve.sampling.cut", "quiz.stage.pick", "grading.diagnosis.loss_sign", "quiz.sampling.ask"} <= sampling_keys
    assert not any(sampling_marking.owns_message(key) for key in embedded_keys)
    attention_codes = {k for k in i18n.keys() if k.startswith("grading.diagnosis.") and not sampling_marking.owns_message(k)}
    assert attention_codes and attention_codes <= embedded_keys


def test_every_page_message_is_used():
    source = "\n".join((ASSETS / name).read_text(encoding="utf-8") for name in page.SCRIPTS)
    source += (Path(page.__file__)).read_text(encoding="utf-8")
    source += (ASSETS.parent / "templates" / "page.html").read_text(encoding="utf-8")  # the page's skeleton
    for key in (k for k in i18n.keys() if k.startswith("page.")):
        assert f'"{key}"' in source or f"'{key}'" in source, key


def test_the_page_speaks_the_chosen_language(run_cli, tmp_path):
    korean = export(run_cli, tmp_path, "--lang", "ko")
    data = embedded(korean)
    assert data["lang"] == "ko"
    assert data["messages"]["grading.diagnosis.not_scaled"] == in_language("ko", i18n.text, "grading.diagnosis.not_scaled")
    assert '<html lang="ko">' in korean and "연습용" in korean
    english = embedded(export(run_cli, tmp_path, "--lang", "en", "--force"))
    assert english["messages"]["quiz.row"] == "Row {token}"


def test_variants_carry_the_generators_numbers(run_cli, tmp_path):
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.variants.generate import variant_set

    data = embedded(export(run_cli, tmp_path, "--variants", "3", "--seed", "42"))
    assert [v["variant"] for v in data["variants"]] == [42001, 42002, 42003]
    assert data["problem_set"] == "ch13"
    made = variant_set(load_problem_set("ch13"), 42002).get("cat-fish")
    cat = next(p for p in data["variants"][1]["problems"] if p["id"] == "cat-fish")
    assert cat["heads"][0]["Q"] == [list(row) for row in made.heads[0].Q]


def test_the_set_as_written_has_no_variant_and_a_files_name(run_cli, tmp_path):
    source = tmp_path / "my set.yaml"
    source.write_text((TESTS / "golden" / "problems.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    data = embedded(export(run_cli, tmp_path, str(source)))
    assert [v["variant"] for v in data["variants"]] == [None]
    assert data["problem_set"] == "my set.yaml"  # grade finds it next to the answer file, or --problems


def test_text_from_the_problem_file_cannot_break_out_of_the_page(run_cli, tmp_path):
    source = tmp_path / "hostile.yaml"
    source.write_text(
        'title: "</script><script>alert(1)</script>"\n'
        "problems:\n"
        '  - id: p1\n    title: "<img src=x onerror=alert(1)>"\n    tokens: ["</script>", "&amp;"]\n'
        "    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n",
        encoding="utf-8",
    )
    html = export(run_cli, tmp_path, str(source))
    assert html.count("</script>") == 2  # the data block's and the script's own
    assert "<img" not in html
    data = embedded(html)
    assert data["variants"][0]["problems"][0]["tokens"] == ["</script>", "&amp;"]
    assert "&lt;img src=x" in data["variants"][0]["problems"][0]["givens_html"] or "<img" not in data["variants"][0]["problems"][0]["givens_html"]


@pytest.mark.parametrize("option", ["--answers", "--key-only"])
def test_the_page_refuses_key_options(run_cli, tmp_path, option):
    result = run_cli("export", "-f", "page", option, "-o", str(tmp_path / "x.html"))
    assert result.exit_code == 2
    assert "always holds the answers" in result.output
    assert not (tmp_path / "x.html").exists()


def test_the_page_is_the_same_bytes_every_time(run_cli, tmp_path):
    first = export(run_cli, tmp_path, "--variants", "2", "--seed", "3")
    second = export(run_cli, tmp_path, "--variants", "2", "--seed", "3", "--force")
    assert first == second


def test_a_many_variant_page_carries_every_variant_but_the_first_packed(run_cli, tmp_path):
    """30 variants in well under 1 MB: the first plain (shown at once), the rest deflated, each the
    very data a one-variant page of that variant carries."""
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.variants.generate import variant_set

    html = export(run_cli, tmp_path, "--variants", "30", "--seed", "42")
    assert len(html.encode("utf-8")) < 920_000  # (908 kB since widget.js draws sampling problems too)
    raw = embedded(html, unpacked=False)
    assert "problems" in raw["variants"][0] and "packed" not in raw["variants"][0]
    assert all(set(v) == {"variant", "packed"} for v in raw["variants"][1:])
    # the packed texts come after the scripts, so the script starts on the first variant before the
    # browser reads them; the data before the scripts names every variant, and holds no packed text
    shown = html.index('<script id="page-data"'), html.index("<script>"), html.index('<script id="page-variants"')
    assert shown == tuple(sorted(shown)) and html.count('<script id="page-variants"') == 1
    before = script_json(html)
    assert [v["variant"] for v in before["variants"]] == [v["variant"] for v in raw["variants"]]
    assert all(set(v) == {"variant"} for v in before["variants"][1:])
    data = embedded(html)
    for index in (1, 17, 29):
        number = data["variants"][index]["variant"]
        with i18n.speaking(data["lang"]):
            made = page_data.set_data(variant_set(load_problem_set("ch13"), number))
        assert data["variants"][index]["problems"] == json.loads(json.dumps(made))


# --- the page speaks to students; the teacher is told in the terminal -------------------

COMMANDS = re.compile(r"attn-tutor\s+(export|grade|quiz|solve|generate|validate)")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_page_tells_students_no_command_to_run(run_cli, tmp_path, lang):
    html = export(run_cli, tmp_path, "--lang", lang)
    visible = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", html, flags=re.S)
    assert not COMMANDS.search(visible) and " --" not in visible, visible
    shown = {key: text for key, text in embedded(html)["messages"].items() if COMMANDS.search(text)}
    assert not shown, shown


@pytest.mark.parametrize(("lang", "said"), [("en", "for a test, print sheets with attn-tutor export"), ("ko", "시험은 attn-tutor export로 활동지를 인쇄해")])
def test_exporting_a_page_tells_the_teacher_how_tests_are_given(run_cli, tmp_path, lang, said):
    out = tmp_path / "practice.html"
    result = run_cli("export", "-f", "page", "-o", str(out), "--lang", lang)
    assert result.exit_code == 0
    assert said in " ".join(result.output.split())
    assert said.split(",")[0] not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        ({"attention"}, "a\nb\n"),
        ({"attention", "sampling"}, "a\n  // <kind sampling> note\n  s1\n  // </kind sampling>\nb\n"),
        (set(), "a\nb\n"),
    ],
    ids=["without", "with", "none"],
)
def test_a_script_carries_the_lines_of_the_kinds_its_page_holds(kinds, expected):
    text = "a\n  // <kind sampling> note\n  s1\n  // </kind sampling>\nb\n"
    assert page.for_kinds(text, kinds) == expected


def test_every_kind_block_in_the_scripts_is_closed_and_names_a_kind():
    from attn_tutor.core.model import KINDS

    live_assets = ROOT / "attn_tutor" / "live" / "assets"
    for path in [*ASSETS.glob("*.js"), *live_assets.glob("*.js")]:
        opened = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if found := re.match(r"\s*// <kind (\w+)>", line):
                assert opened is None and found[1] in KINDS, f"{path.name}:{number}"
                opened = found[1]
            elif found := re.match(r"\s*// </kind (\w+)>", line):
                assert found[1] == opened, f"{path.name}:{number}"
                opened = None
        assert opened is None, path.name
    widget = page.asset("widget.js", {"attention"})
    assert "sampling" not in widget.lower()  # a page of attention problems carries none of it
