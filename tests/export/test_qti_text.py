"""Every text of a QTI zip survives Canvas's import as written (issue 35, rule 5).

Canvas keeps a text-only feedback or option as plain text, made by canvas-lms's
``HtmlHelper#clear_html``, which decodes decimal entities only and drops named ones
(tests/helpers/canvas.py cites the source); an HTML reading decodes every entity. A text
is written right when both readings give the same words: its characters, with ``&``,
``<`` and ``>`` as decimal entities and no named or hex entity anywhere.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile

import pytest
from helpers.canvas import ENTITY_NOT_DECIMAL, meant_text, plain_text
from helpers.concept_set import concept_set

from attn_tutor.export.qti import text

MATTEXT = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}mattext"
ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|\w+);")

CASES = {
    "apostrophe": ("use this token's q", "use this token's q"),
    "double quote": ('the "right" key', 'the "right" key'),
    "ampersand": ("Q & K", "Q &#38; K"),
    "markup": ("<b>x</b>", "&#60;b&#62;x&#60;/b&#62;"),
    "an entity's text": ("&#x27; and &#39;", "&#38;#x27; and &#38;#39;"),
    "korean": ("‘먹었다’의 Query는 ‘생선을’의 Key", "‘먹었다’의 Query는 ‘생선을’의 Key"),
    "astral and symbols": ("√d ≈ 1.732 𝒜 😀", "√d ≈ 1.732 𝒜 😀"),
}  # fmt: skip


@pytest.mark.parametrize(("value", "written"), list(CASES.values()), ids=list(CASES))
def test_a_text_is_its_characters_with_decimal_entities_only(value, written):
    assert text(value) == written
    paragraph = f"<p>{text(value)}</p>"
    assert not ENTITY_NOT_DECIMAL.search(paragraph)
    assert plain_text(paragraph) == value  # Canvas's plain reading (clear_html)
    assert meant_text(paragraph) == value  # an HTML reading


def export_zip(run_cli, tmp_path, *args) -> bytes:
    out = tmp_path / "bank.zip"
    result = run_cli("export", *args, "-f", "qti", "-o", str(out), "--force")
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def mattexts(data: bytes) -> list[str]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    found = []
    for name in archive.namelist():
        root = ET.fromstring(archive.read(name))
        found += [element.text or "" for element in root.iter(MATTEXT)]
        for element in root.iter():  # titles and identifiers: attributes, shown as plain text as they stand
            for value in element.attrib.values():
                assert not ENTITY.search(value), (name, value)  # never escaped for HTML by us
    return found


SOURCES = {"ch13": None, "concept items": "concepts"}
SHEETS = {"as written": (), "one variant": ("--seed", "7"), "four variants": ("--variants", "4", "--seed", "3")}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("sheets", list(SHEETS))
@pytest.mark.parametrize("source", list(SOURCES))
def test_every_text_of_a_qti_zip_reads_the_same_as_plain_text_and_as_html(run_cli, tmp_path, source, sheets, lang):
    args = [] if SOURCES[source] is None else [str(concept_set(tmp_path))]
    texts = mattexts(export_zip(run_cli, tmp_path, *args, *SHEETS[sheets], "--lang", lang))
    assert len(texts) > 20
    with_quotes = 0
    for html in texts:
        assert not ENTITY_NOT_DECIMAL.search(html), html
        assert plain_text(html) == meant_text(html), html
        with_quotes += "'" in html or "’" in html or '"' in html
    assert with_quotes  # the texts that showed &#x27; in Canvas are here, as characters


HOSTILE_SET = """title: "Q & K's <set>"
problems:
  - id: p
    title: "it's \\"q\\" < k & v > 0"
    tokens: ["it's", "<b>x</b>", "Q&K"]
    key_tokens: ["\\"k\\"", "a > b", "5 < 6"]
    Q: [[1, 0], [0, 1], [1, 1]]
    K: [[1, 2], [0, 1], [1, 0]]
    V: [[1, 0], [0, 1], [2, 1]]
"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_quotes_and_markup_in_a_sets_own_text_read_the_same_both_ways(run_cli, tmp_path, lang):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE_SET, encoding="utf-8")
    texts = mattexts(export_zip(run_cli, tmp_path, str(path), "--variants", "2", "--seed", "5", "--lang", lang))
    page = " ".join(meant_text(html) for html in texts)
    for written in ("it's", "<b>x</b>", "Q&K", '"k"', "a > b", "5 < 6", "it's \"q\" < k & v > 0"):
        assert written in page
    for html in texts:
        assert not ENTITY_NOT_DECIMAL.search(html), html
        assert plain_text(html) == meant_text(html), html
