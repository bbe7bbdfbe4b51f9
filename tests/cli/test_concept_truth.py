"""Issue 35, rules 2 and 7, through the command line: every output that shows a computed concept
item says, for each variant, what that variant's own numbers give, in the language asked for only.

One row per output (solve's table and JSON, the Markdown key, the Moodle and Canvas banks, the
practice page), in both languages: each variant's explanation of ch13's computed items, made from
its own solution (its slots filled), is what the output shows for that variant.
"""

from __future__ import annotations

import html
import io
import json
import re
import zipfile

import pytest
from helpers.language import in_language
from helpers.page import script_json

from attn_tutor.practice.data import unpack
from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve.concepts import filled, show, slots, work
from attn_tutor.variants.generate import variant_seed, variant_set

CH13 = load_problem_set("ch13")
SEED, COUNT = 42, 4
VARIANTS = [variant_seed(SEED, k) for k in range(1, COUNT + 1)]
COMPUTED = [c for c in CH13.concepts if c.kind == "computed"]
ENGLISH_WORD = re.compile(r"\b(?!softmax\b)[a-z]{3,}\b")


def said(concept, number: int, lang: str) -> str:
    """The author's sentence of ``concept`` on variant ``number``, its slots filled from that variant."""
    varied = variant_set(CH13, number)
    problem = varied.get(concept.problem)

    def made() -> str:
        return filled(concept.explanation, slots(concept, problem, work(concept, problem)))

    return in_language(lang, made)


def flat(text: str) -> str:
    return " ".join(text.split())


def _solve_table(run_cli, tmp_path, lang):
    return {n: run_cli("solve", "ch13", "--all", "--variant", str(n), "--lang", lang).output for n in VARIANTS}


def _solve_json(run_cli, tmp_path, lang):
    out = {}
    for n in VARIANTS:
        data = json.loads(run_cli("solve", "ch13", "--format", "json", "--variant", str(n), "--lang", lang).output)
        out[n] = "\n".join(item["explanation"] or "" for item in data["concepts"])
    return out


def _exported(run_cli, tmp_path, lang, fmt, name, *extra) -> bytes:
    path = tmp_path / name
    result = run_cli("export", "ch13", "-f", fmt, "--variants", str(COUNT), "--seed", str(SEED), "-o", str(path), "--lang", lang, *extra)
    assert result.exit_code == 0, result.output
    return path.read_bytes()


def _split_by_variant(text: str) -> dict[int, str]:
    """A file holding every variant, cut at each variant number (each sheet's part follows its number)."""
    places = sorted((text.find(str(n)), n) for n in VARIANTS)
    assert all(at >= 0 for at, _ in places)
    return {n: text[at : (places[i + 1][0] if i + 1 < len(places) else len(text))] for i, (at, n) in enumerate(places)}


def _markdown_key(run_cli, tmp_path, lang):
    text = _exported(run_cli, tmp_path, lang, "md", "key.md", "--key-only").decode()
    return _split_by_variant(text)


def _moodle(run_cli, tmp_path, lang):
    text = html.unescape(html.unescape(_exported(run_cli, tmp_path, lang, "moodle", "bank.xml").decode()))  # XML holding HTML
    return {n: text for n in VARIANTS}  # every variant's question in one file: each must be there


def _qti(run_cli, tmp_path, lang):
    with zipfile.ZipFile(io.BytesIO(_exported(run_cli, tmp_path, lang, "qti", "bank.zip"))) as archive:
        text = "\n".join(html.unescape(html.unescape(archive.read(name).decode())) for name in archive.namelist())  # XML holding HTML
    return {n: text for n in VARIANTS}


def _page(run_cli, tmp_path, lang):
    page = _exported(run_cli, tmp_path, lang, "page", "page.html").decode()
    data, packed = script_json(page), script_json(page, "page-variants")
    out = {}
    for entry, text in zip(data["variants"], packed):  # the first plain, the others packed after the scripts
        own = unpack(text) if text is not None else entry
        out[entry["variant"]] = "\n".join(item.get("explanation", base["explanation"]) or "" for item, base in zip(own["concepts"], data["concepts"]))
    return out


OUTPUTS = {
    "solve table": _solve_table,
    "solve json": _solve_json,
    "markdown key": _markdown_key,
    "moodle bank": _moodle,
    "canvas qti": _qti,
    "practice page": _page,
}


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("output", list(OUTPUTS))
def test_each_output_explains_each_variants_computed_items_from_its_own_numbers(run_cli, tmp_path, output, lang):
    shown = OUTPUTS[output](run_cli, tmp_path, lang)
    for number in VARIANTS:
        text = flat(shown[number])
        for concept in COMPUTED:
            sentence = flat(said(concept, number, lang))
            assert sentence in text, (output, number, concept.id, sentence)


def test_the_chapters_false_sentences_are_gone_from_the_variants_that_contradicted_them(run_cli):
    """eat-attends said ‘생선을’ and meet-attends "whom it met" whatever the variant's key was."""
    contradicted = 0
    for number in VARIANTS:
        output = run_cli("solve", "ch13", "--all", "--variant", str(number), "--lang", "ko").output
        answer = in_language("ko", show, CH13.concept("eat-attends"), variant_set(CH13, number), seed=number)
        key = answer.options[answer.labels.index(answer.answer[0])]
        if key != "생선을":
            contradicted += 1
            assert "‘생선을’의 Key와 가장 잘 맞습니다" not in output
        assert "누구를 만났는지를 봅니다" not in output
    assert contradicted  # at least one variant's key is another token


@pytest.mark.parametrize(("args", "section"), [
    (("export", "ch13", "-f", "md", "--key-only", "--variants", "2", "--seed", "42"), "## 개념 문제"),
    (("solve", "ch13", "--all", "--variant", "42002"), "개념 문항"),
    (("solve", "ch13", "--all"), "개념 문항"),
])  # fmt: skip
def test_korean_mode_writes_the_concept_items_and_their_keys_in_korean_only(run_cli, args, section):
    result = run_cli(*args, "--lang", "ko")
    assert result.exit_code == 0, result.output
    for concepts in result.output.split(section)[1:]:
        concepts = re.sub(r"\([a-z0-9-]+\)", "", concepts.split("\n# ", 1)[0])  # up to the next sheet; item ids are names
        words = {w for w in ENGLISH_WORD.findall(concepts)}
        assert words == set(), sorted(words)  # was "(not this order; …)", "(사과를: 0.110, but 나는: 0.348)", every set text in both
        for token in {t for p in CH13.problems for t in (*p.tokens, *p.keys)}:
            assert not re.search(re.escape(token) + "[은는이가을를]", concepts), token  # was "사과를은 …, 나는은 …"


def test_english_mode_writes_the_concept_items_in_english(run_cli):
    result = run_cli("solve", "ch13", "--all", "--lang", "en")
    concepts = result.output.split("Concept items", 1)[1]
    assert "Which key does ‘먹었다’ attend to most?" in flat(concepts)
    assert "왜 스코어를" not in concepts and "Why divide the scores by √d?" in concepts


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_each_students_hand_back_sheet_explains_their_own_variant(run_cli, tmp_path, monkeypatch, lang):
    """Two students on variants whose eat-attends keys differ, each choosing a wrong option: each
    sheet names the student's own key and the feedback of the option they chose, in one language."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "class").mkdir()
    students, keys = {}, set()
    for number in range(variant_seed(SEED, 1), variant_seed(SEED, 60)):  # the first two variants, one answer each, with different keys
        shown = in_language(lang, show, CH13.concept("eat-attends"), variant_set(CH13, number), seed=number)
        key = shown.options[shown.labels.index(shown.answer[0])]
        if len(shown.answer) == 1 and key not in keys:
            keys.add(key)
            wrong = next(label for label in shown.labels if label not in shown.answer)
            students[("ann", "bob")[len(students)]] = (number, shown, wrong)
        if len(students) == 2:
            break
    for name, (number, _shown, wrong) in students.items():
        (tmp_path / "class" / f"{name}.yaml").write_text(
            f"student: {name}\nproblem_set: ch13\nvariant: {number}\nanswers:\nconcepts:\n  eat-attends: {wrong}\n", encoding="utf-8"
        )
    assert len(keys) == 2  # the two variants' keys differ: each sheet must say its own
    result = run_cli("grade", "class", "--feedback", "sheets", "--lang", lang)
    assert result.exit_code == 0, result.output
    for name, (number, shown, wrong) in students.items():
        page = (tmp_path / "sheets" / f"{name}.html").read_text(encoding="utf-8")
        sheet = flat(html.unescape(re.sub("<[^>]+>", " ", page)))
        assert flat(said(CH13.concept("eat-attends"), number, lang)) in sheet
        assert flat(shown.feedback[wrong]) in sheet
        if lang == "ko":
            concepts = sheet.split("개념 문항", 1)[-1]
            assert not {w for w in ENGLISH_WORD.findall(concepts)} - {"html"}, concepts
