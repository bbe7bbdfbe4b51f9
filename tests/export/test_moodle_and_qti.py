"""`export -f moodle` and `export -f qti`, read back as Moodle and a QTI importer read them.

The Moodle side follows the Cloze rules of Moodle's question/type/multianswer
source (qtype_multianswer_extract_question): a blank is ``{n:TYPE:alternatives}``,
alternatives are split at ``~``, an alternative is ``=`` or ``%fraction%``, an
answer up to ``#`` (not after ``\\`` or ``&``), then feedback up to ``~`` or ``}``
(not after ``\\``); a numerical answer is ``value:tolerance``; feedback is
HTML-entity-decoded once, as PHP's ``html_entity_decode`` does, ``\\}``, ``\\#``
unescaped, and kept as HTML that a browser shows (tests/helpers/moodle.py: Moodle's
regular expressions, with PHP's variable-width look-behind split into fixed-width ones).

The QTI side validates the quiz against the IMS QTI ASI 1.2.1 DTD, which ships in
the source distribution of the ``pyslet`` package on PyPI (no package ships the
XSD): ``.ci/run`` downloads it and points ``ATTN_TUTOR_QTI_DTD`` at it. That test is
marked ``qti_dtd``: skipped without the DTD or lxml, failed under CI=true.
"""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from helpers.concept_set import concept_set
from helpers.moodle import BLANK, moodle_questions, parse_cloze, shown
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.core.i18n import set_language, t
from attn_tutor.core.model import Head, Problem, ProblemSet
from attn_tutor.core.rounding import fmt
from attn_tutor.export import bank as lms
from attn_tutor.marking.marker import stage_tolerance
from attn_tutor.problems.dump import dump_problem_set
from attn_tutor.problems.load import load_problem_set
from attn_tutor.variants import sheets


def export_bytes(run_cli, tmp_path, name, *args) -> bytes:
    out = tmp_path / name
    result = run_cli("export", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out.read_bytes()


# --- Moodle -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_cloze_blank_parses_with_the_tolerance_and_the_diagnosis_feedback(run_cli, tmp_path, lang):
    data = export_bytes(run_cli, tmp_path, "bank.xml", "--variants", "2", "--seed", "7", "--lang", lang)
    problem_set = load_problem_set(None)
    set_language(lang)  # the rest of the test speaks it (tests/conftest.py resets it after)
    expected = lms.questions(sheets.make_sheets(problem_set, variants=2, seed=7))
    expected.sort(key=lambda q: problem_set.ids.index(q.problem.id))  # the file groups the variants by problem
    found = moodle_questions(data)
    assert len(found) == len(expected) == 2 * len(problem_set.problems)
    sentences = {t(f"grading.diagnosis.{code}") for code in ("not_scaled", "no_exp", "used_keys")}
    seen_sentences = set()
    for (category, element), question in zip(found, expected):
        assert category.endswith(question.problem.id + (f" — {question.problem.title}" if question.problem.title else ""))
        blanks, rest = parse_cloze(element.findtext("questiontext/text"))
        assert BLANK.search(rest) is None and len(blanks) == len(question.cells)
        for blank, cell in zip(blanks, question.cells):
            rights = [a for a in blank["alternatives"] if a["fraction"] == 1.0]
            wrong = blank["alternatives"][len(rights) :]
            right = rights[0]
            assert all(a["feedback"] is None for a in rights) and 1 <= len(rights) <= 2
            # the answer Moodle shows is rounded as asked; the right answers hold the exact value ± the tolerance
            assert right["value"] == float(fmt(cell.value, question.problem.decimals))
            tolerance = stage_tolerance(question.problem, cell.stage)  # the default fits decimals
            assert min(a["value"] - a["tolerance"] for a in rights) <= cell.value - tolerance
            assert cell.value + tolerance <= max(a["value"] + a["tolerance"] for a in rights)
            assert len(wrong) == len(cell.mistakes)
            for alternative, mistake in zip(wrong, cell.mistakes):
                assert alternative["fraction"] == 0.0
                assert alternative["value"] == pytest.approx(mistake.value, abs=1e-12)
                assert alternative["tolerance"] == tolerance
                assert all(abs(alternative["value"] - a["value"]) > a["tolerance"] for a in rights)
                # Moodle shows the decoded feedback as HTML: the reader sees the diagnosis sentence
                assert shown(alternative["feedback"]) == t(f"grading.diagnosis.{mistake.code}")
                seen_sentences.add(shown(alternative["feedback"]))
    assert sentences <= seen_sentences


def test_each_problems_variants_share_one_category(run_cli, tmp_path):
    found = moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml", "--variants", "3", "--seed", "2"))
    by_category: dict[str, list[str]] = {}
    for category, element in found:
        by_category.setdefault(category, []).append(element.findtext("name/text"))
    assert len(by_category) == len(load_problem_set(None).problems)
    for category, names in by_category.items():
        assert category.startswith("$course$/top/")
        assert [name.rsplit(" ", 1)[-1] for name in names] == ["2001", "2002", "2003"]
        assert len({name.split(" — ")[0] for name in names}) == 1
    # one quiz per variant: the bank filtered by a variant's tag holds that variant of every problem, once
    by_tag: dict[str, list[str]] = {}
    for category, element in found:
        (tag,) = [tag.text for tag in element.findall("tags/tag/text")]
        assert element.findtext("name/text").endswith(tag)
        by_tag.setdefault(tag, []).append(category)
    assert sorted(by_tag) == ["variant 2001", "variant 2002", "variant 2003"]
    assert all(sorted(categories) == sorted(by_category) for categories in by_tag.values())


def test_the_set_as_written_has_no_variant_tags(run_cli, tmp_path):
    found = moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml"))
    assert found and all(element.find("tags") is None for _category, element in found)


def test_the_first_mistake_listed_is_the_one_grade_would_name(run_cli, tmp_path):
    """Typing a mistake's row into Moodle gives the feedback grade gives for the same row."""
    from attn_tutor.marking import marker as grading
    from attn_tutor.solve import engine

    problem = load_problem_set(None).get("cat-fish")
    solution = engine.solve(problem)
    row = problem.row_index("먹었다")
    for code, made in lms.applicable_mistakes(solution, row, "scaled"):
        item = grading.mark_stage(solution, row, "scaled", made)
        assert item.diagnosis == code
    cells = [c for c in lms.asked_cells(solution) if c.row == row and c.stage == "scaled"]
    # √2 taken as 1.4 and as 1.41 give numbers of their own (as 1 it is not_scaled's, listed once)
    assert [m.code for m in cells[1].mistakes] == ["not_scaled", "divided_by_d", "rounding", "rounding"]


HOSTILE = ["{1:NM:=1}", "a}b~c#d", "e\\f/g\"h", "<b>&amp;</b>", "{#1}"]


def hostile_set(tmp_path) -> Path:
    problem = Problem(
        id="hostile",
        title="T {1:SA:=x} ~#} / \" \\",
        tokens=tuple(HOSTILE[:3]),
        key_tokens=tuple(HOSTILE[2:]),
        heads=(Head(Q=((1.0, 2.0), (0.0, 1.0), (2.0, 2.0)), K=((1.0, 0.0), (0.0, 2.0), (1.0, 1.0)), V=((1.0, 0.0), (0.0, 1.0), (2.0, 1.0))),),
    )
    path = tmp_path / "hostile.yaml"
    path.write_text(dump_problem_set(ProblemSet((problem,), title="A/B {2:NM:=2}")), encoding="utf-8")
    return path


def test_tokens_that_look_like_cloze_or_html_stay_text(run_cli, tmp_path):
    path = hostile_set(tmp_path)
    found = moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml", str(path)))
    (category, element), = found
    # a / inside a name is doubled, as Moodle's category paths read it
    assert category == "$course$/top/A//B {2:NM:=2}/hostile — T {1:SA:=x} ~#} // \" \\"
    problem = load_problem_set(str(path)).problems[0]
    from attn_tutor.solve import engine

    cells = lms.asked_cells(engine.solve(problem))
    blanks, rest = parse_cloze(element.findtext("questiontext/text"))
    assert len(blanks) == len(cells)  # no token opened a blank of its own
    page = shown(rest)
    for token in HOSTILE:
        assert token in page
    assert problem.title in page
    assert "{#1}" in rest.replace("&#123;#1&#125;", "")  # the placeholder Moodle puts back, once per blank


def test_moodle_file_is_byte_identical_when_remade(run_cli, tmp_path):
    first = export_bytes(run_cli, tmp_path, "a.xml", "-f", "moodle", "--variants", "2", "--seed", "4")
    second = export_bytes(run_cli, tmp_path, "b.xml", "-f", "moodle", "--variants", "2", "--seed", "4")
    assert first == second


# --- QTI ----------------------------------------------------------------------------

QTI = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"


def open_package(data: bytes) -> tuple[zipfile.ZipFile, ET.Element, list[ET.Element]]:
    """The zip, its manifest, and the quiz of each QTI resource in manifest order."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None
    manifest = ET.fromstring(archive.read("imsmanifest.xml"))
    listed = [f.get("href") for f in manifest.iter(f"{CP}file")]
    assert sorted(listed + ["imsmanifest.xml"]) == sorted(archive.namelist())  # every file listed, nothing else
    quizzes = []
    for resource in manifest.iter(f"{CP}resource"):
        assert resource.get("type") == "imsqti_xmlv1p2" and resource.get("href") in listed
        quiz = ET.fromstring(archive.read(resource.get("href")))
        assert quiz.find(f"{QTI}assessment").get("ident") == resource.get("identifier")
        quizzes.append(quiz)
    return archive, manifest, quizzes


def test_qti_package_lists_every_file(run_cli, tmp_path):
    _archive, _manifest, quizzes = open_package(export_bytes(run_cli, tmp_path, "bank.zip", "--variants", "2", "--seed", "3", "--lang", "ko"))
    assert len(quizzes) == 2  # one quiz per variant


@pytest.mark.qti_dtd
@pytest.mark.parametrize("concepts", [False, True], ids=["ch13", "concept-items"])
def test_qti_package_validates_against_the_qti_dtd(run_cli, tmp_path, concepts):
    source = [str(concept_set(tmp_path))] if concepts else []  # every kind of concept item, several and order too
    data = export_bytes(run_cli, tmp_path, "bank.zip", *source, "--variants", "2", "--seed", "3", "--lang", "ko")
    archive, _manifest, _quizzes = open_package(data)
    from lxml import etree

    dtd = etree.DTD(os.environ["ATTN_TUTOR_QTI_DTD"])
    for name in archive.namelist():
        if name == "imsmanifest.xml":
            continue
        root = etree.fromstring(archive.read(name))
        for element in root.iter():
            element.tag = etree.QName(element).localname
            for attribute in list(element.attrib):
                if attribute.startswith("{"):  # xsi:schemaLocation: the DTD predates namespaces
                    del element.attrib[attribute]
        etree.cleanup_namespaces(root)
        for extension in root.iter("selection_extension"):  # ANY in the DTD: Canvas's own vocabulary
            for child in list(extension):
                extension.remove(child)
        assert dtd.validate(root), dtd.error_log.filter_from_errors()[:3]


def _number(element) -> float:
    return float(element.text)


def test_qti_items_accept_the_tolerance_and_give_each_diagnosis_on_its_range(run_cli, tmp_path):
    data = export_bytes(run_cli, tmp_path, "bank.zip", "--variants", "2", "--seed", "3")
    _archive, _manifest, quizzes = open_package(data)
    problem_set = load_problem_set(None)
    made = sheets.make_sheets(problem_set, variants=2, seed=3)
    assert len(quizzes) == len(made)
    checked = 0
    for quiz, sheet in zip(quizzes, made):
        # one quiz per variant: a section per problem, no random draw, every cell of this variant only
        assert quiz.find(f".//{QTI}selection_ordering") is None
        assert quiz.find(f"{QTI}assessment").get("title").endswith(f"variant {sheet.variant}")
        sections = quiz.find(f"{QTI}assessment/{QTI}section").findall(f"{QTI}section")
        if problem_set.concepts:  # the concept items' section follows the problems' (tests/export/test_concept_items.py)
            assert sections.pop().get("title") == t("export.concepts")
        expected = lms.questions([sheet])
        assert len(sections) == len(expected) == len(problem_set.problems)
        for section, question in zip(sections, expected):
            items = section.findall(f"{QTI}item")
            assert len(items) == len(question.cells)
            for item, cell in zip(items, question.cells):
                title = f"{question.problem.id} · variant {question.variant} · {cell.token} · {t('quiz.stage.' + cell.stage)} · {cell.column}"
                assert item.get("title") == title
                fields = {f.findtext(f"{QTI}fieldlabel"): f.findtext(f"{QTI}fieldentry") for f in item.iter(f"{QTI}qtimetadatafield")}
                assert fields["question_type"] == "numerical_question"
                assert item.find(f".//{QTI}render_fib").get("fibtype") == "Decimal"
                conditions = item.find(f"{QTI}resprocessing").findall(f"{QTI}respcondition")
                rights = [c for c in conditions if c.findtext(f"{QTI}setvar") == "100"]
                wrong = conditions[len(rights) :]
                assert rights[0].find(f".//{QTI}varequal").text == fmt(cell.value, question.problem.decimals)  # as asked
                low = min(_number(c.find(f".//{QTI}vargte")) for c in rights)
                high = max(_number(c.find(f".//{QTI}varlte")) for c in rights)
                assert low <= cell.value - cell.tolerance and cell.value + cell.tolerance <= high
                feedback = {f.get("ident"): shown(f.findtext(f".//{QTI}mattext")) for f in item.findall(f"{QTI}itemfeedback")}
                ranges = [c for c in wrong if c.find(f".//{QTI}other") is None]
                assert len(ranges) == len(cell.mistakes)
                for condition, mistake in zip(ranges, cell.mistakes):
                    assert condition.findtext(f"{QTI}setvar") == "0"
                    low = _number(condition.find(f".//{QTI}vargte"))
                    high = _number(condition.find(f".//{QTI}varlte"))
                    assert low <= mistake.value <= high and not low <= cell.value <= high
                    link = condition.find(f"{QTI}displayfeedback").get("linkrefid")
                    assert feedback[link] == t(f"grading.diagnosis.{mistake.code}")
                    # Canvas shows the general incorrect feedback: it names every diagnosis too
                    assert mistake.sentence in feedback["general_incorrect_fb"]
                    checked += 1
    assert checked > 100


def test_no_two_banks_share_an_ident(run_cli, tmp_path):
    """Canvas keys questions and quizzes by ident: two banks (another set, another title, other
    variants, the other language) never share one; the same bank made again keeps its own."""
    from attn_tutor.problems.dump import dump_problem_set as dump

    one = load_problem_set(None)
    other = tmp_path / "other.yaml"
    other.write_text(dump(ProblemSet(one.problems[:2], title=one.title)), encoding="utf-8")  # same ids, fewer problems
    banks = {
        "set": ["--variants", "2", "--seed", "3", "--lang", "en"],
        "again": ["--variants", "2", "--seed", "3", "--lang", "en"],
        "title": ["--variants", "2", "--seed", "3", "--title", "Quiz 2"],
        "seed": ["--variants", "2", "--seed", "4"],
        "as written": [],
        "another set": [str(other)],
        "in Korean": ["--variants", "2", "--seed", "3", "--lang", "ko"],  # one course may import both languages
    }
    idents = {}
    for name, args in banks.items():
        _archive, _manifest, quizzes = open_package(export_bytes(run_cli, tmp_path, f"{name}.zip", *args))
        kinds = (f"{QTI}assessment", f"{QTI}section", f"{QTI}item")
        found = [e.get("ident") for quiz in quizzes for e in quiz.iter() if e.tag in kinds and e.get("ident") != "root_section"]
        found.append(_manifest.get("identifier"))
        assert len(found) == len(set(found))  # unique within the package
        idents[name] = set(found)
    assert idents["set"] == idents["again"]
    names = [n for n in banks if n != "again"]
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not idents[a] & idents[b], (a, b)


def test_qti_zip_is_byte_identical_when_remade(run_cli, tmp_path):
    first = export_bytes(run_cli, tmp_path, "a.zip", "--variants", "2", "--seed", "4")
    second = export_bytes(run_cli, tmp_path, "b.zip", "--variants", "2", "--seed", "4")
    assert first == second


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-f", "moodle", "--answers"], "marks itself"),
        (["-f", "qti", "--key-table"], "marks itself"),
        (["-f", "moodle", "--paper", "letter"], "--paper"),
        (["-o", "sheet.docx"], ".pdf"),
        (["-o", "sheet"], ".xml"),
    ],
)
def test_bank_usage_errors(run_cli, tmp_path, args, message):
    args = [str(tmp_path / a) if a.startswith("sheet") else a for a in args]
    result = run_cli("export", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def _shapes() -> dict[str, Problem]:
    q, k, v = ((1.0, 2.0), (0.0, 1.0), (2.0, 2.0)), ((1.0, 0.0), (0.0, 2.0), (1.0, 1.0)), ((1.0, 0.0), (0.0, 1.0), (2.0, 1.0))
    tokens = ("가", "나", "다")
    return {
        "two heads, every row": Problem(id="heads", tokens=tokens, heads=(Head(Q=q, K=k, V=v), Head(Q=k, K=q, V=v)), multi_head=True),
        "causal mask": Problem(id="causal", tokens=tokens, heads=(Head(Q=q, K=k, V=v),), mask="causal"),
        "no values, 2 decimals": Problem(id="novalues", tokens=tokens, heads=(Head(Q=q, K=k),), decimals=2, tolerance=0.01),
        "cross-attention": Problem(id="cross", tokens=("a", "b"), key_tokens=tokens, heads=(Head(Q=q[:2], K=k, V=v),)),
    }


@pytest.mark.parametrize("shape", list(_shapes()))
def test_blanks_follow_the_tables_for_every_shape(run_cli, tmp_path, shape):
    problem = _shapes()[shape]
    path = tmp_path / "set.yaml"
    path.write_text(dump_problem_set(ProblemSet((problem,))), encoding="utf-8")
    (_category, element), = moodle_questions(export_bytes(run_cli, tmp_path, "bank.xml", str(path)))
    from attn_tutor.solve import engine

    loaded = load_problem_set(str(path)).problems[0]
    cells = lms.asked_cells(engine.solve(loaded))
    blanks, _rest = parse_cloze(element.findtext("questiontext/text"))
    assert [b["alternatives"][0]["value"] for b in blanks] == [float(fmt(c.value, loaded.decimals)) for c in cells]
    assert all(b["alternatives"][0]["tolerance"] == float(c.right.margin) for b, c in zip(blanks, cells))
    masked = sum(1 for row in range(len(loaded.tokens)) for stage in ("scores", "scaled", "weights")
                 for j in range(len(loaded.keys)) if not engine.solve(loaded).head.mask[row, j]) * len(loaded.heads)
    width = sum(len(loaded.keys) * len(loaded.heads) for _ in ("scores", "scaled", "weights")) * len(loaded.tokens)
    out = engine.solve(loaded).output
    width += 0 if out is None else out.shape[1] * len(loaded.tokens)
    assert len(cells) == width - masked  # every open cell of every asked row and stage, once


# --- the shared core: properties ----------------------------------------------------


@given(seed=st.integers(0, 10**6), tokens=st.integers(2, 5), dim=st.integers(1, 4), causal=st.booleans())
def test_every_listed_mistake_is_one_grade_would_diagnose(seed, tokens, dim, causal):
    """What the banks give as a diagnosis is what `grade` says for the same numbers."""
    from attn_tutor.marking import marker as grading
    from attn_tutor.solve import engine
    from attn_tutor.variants.generate import random_problem

    solution = engine.solve(random_problem(seed, tokens=tokens, dim=dim, causal=causal))
    problem = solution.problem
    order = {code: i for i, code in enumerate(grading.DIAGNOSES)}
    for stage in problem.stages:
        for row in range(len(problem.tokens)):
            for code, made in lms.applicable_mistakes(solution, row, stage):
                typed = [0.0 if v is None else v for v in made]  # a masked score: any number goes there
                item = grading.mark_stage(solution, row, stage, typed)
                assert item.diagnosis is not None and order[item.diagnosis] <= order[code]
    for cell in lms.asked_cells(solution):
        values = [cell.value] + [m.value for m in cell.mistakes]
        for i, a in enumerate(values):  # every alternative is its own number: Moodle reaches each one
            for b in values[i + 1 :]:
                assert abs(a - b) > cell.tolerance
