"""`export -f moodle` and `-f qti` write their banks as a stream, with the bytes of the whole tree.

The streamed writers (attn_tutor/export/xmlstream.py) make each question or item, write
it and drop it; what they write must be byte for byte what ElementTree gives for the
whole tree built at once (indented, then serialised) and, for QTI, what ``writestr`` of
those bytes gives in the zip. A run that fails part-way leaves nothing behind.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile

import pytest

from attn_tutor.core.i18n import speaking
from attn_tutor.export import moodle, qti, xmlstream
from attn_tutor.problems.load import load_problem_set
from attn_tutor.variants import sheets as variant_sheets


def _sheets(variants, seed, lang="en"):
    problem_set = load_problem_set(None)
    made = variant_sheets.make_sheets(problem_set, variants=variants, seed=seed)
    with speaking(lang):
        return made, variant_sheets.sheet_title(problem_set)


def _export(run_cli, tmp_path, *args) -> bytes:
    out = tmp_path / "bank.out"
    result = run_cli("export", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out.read_bytes()


@pytest.mark.parametrize(("variants", "seed", "lang"), [(None, None, "en"), (2, 3, "ko"), (3, 11, "en")])
def test_the_streamed_moodle_file_is_the_whole_tree(run_cli, tmp_path, variants, seed, lang):
    made, title = _sheets(variants, seed, lang)
    with speaking(lang):
        expected = xmlstream.whole_document(moodle.document(made, set_title=title))
    args = ["-f", "moodle", "--lang", lang] + ([] if variants is None else ["--variants", str(variants), "--seed", str(seed)])
    assert _export(run_cli, tmp_path, *args) == expected


@pytest.mark.parametrize(("variants", "seed", "lang"), [(None, None, "ko"), (2, 3, "en")])
def test_the_streamed_qti_zip_is_the_zip_of_the_whole_trees(run_cli, tmp_path, variants, seed, lang):
    made, title = _sheets(variants, seed, lang)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive, speaking(lang):
        for name, root in qti.package(made, set_title=title).items():
            archive.writestr(qti.zip_info(name), xmlstream.whole_document(root))
    args = ["-f", "qti", "--lang", lang] + ([] if variants is None else ["--variants", str(variants), "--seed", str(seed)])
    assert _export(run_cli, tmp_path, *args) == buffer.getvalue()


def test_standard_output_gets_the_bytes_of_the_file(run_cli, tmp_path):
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app_for

    file_bytes = _export(run_cli, tmp_path, "-f", "qti", "--variants", "2", "--seed", "8")
    args = ["export", "-f", "qti", "--variants", "2", "--seed", "8", "-o", "-"]
    result = CliRunner().invoke(app_for(args), args, env={"ATTN_TUTOR_LANG": "en"})
    assert result.exit_code == 0
    assert result.stdout_bytes == file_bytes


def test_the_streamed_xml_is_what_elementtree_writes_for_any_nesting():
    def leaf(i):
        element = ET.Element("leaf", {"n": str(i), "q": 'a"<&'})
        if i % 2:
            ET.SubElement(element, "text").text = "x & y < z"
        return element

    doc = xmlstream.Streamed("root", {"a": "1"}, [
        leaf(0),
        xmlstream.Streamed("empty", {"b": "&"}),
        xmlstream.Streamed("group", {}, (leaf(i) for i in range(1, 4))),
        xmlstream.Streamed("outer", {}, [xmlstream.Streamed("inner", {}, [leaf(5)])]),
    ])  # fmt: skip
    buffer = io.BytesIO()
    xmlstream.write_document(buffer, doc)
    rebuilt = xmlstream.Streamed("root", {"a": "1"}, [
        leaf(0),
        xmlstream.Streamed("empty", {"b": "&"}),
        xmlstream.Streamed("group", {}, [leaf(i) for i in range(1, 4)]),
        xmlstream.Streamed("outer", {}, [xmlstream.Streamed("inner", {}, [leaf(5)])]),
    ])  # fmt: skip
    assert buffer.getvalue() == xmlstream.whole_document(rebuilt)
    ET.fromstring(buffer.getvalue())


@pytest.mark.parametrize("fmt", ["moodle", "qti"])
def test_a_bank_that_fails_part_way_leaves_nothing(run_cli, tmp_path, monkeypatch, fmt):
    made = []
    real = moodle.question_text if fmt == "moodle" else qti.item

    def failing(*args, **kwargs):
        made.append(1)
        if len(made) == 3:  # some questions are already written to the temporary file
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(moodle if fmt == "moodle" else qti, "question_text" if fmt == "moodle" else "item", failing)
    out = tmp_path / "bank.out"
    result = run_cli("export", "-f", fmt, "--variants", "2", "--seed", "1", "-o", str(out))
    assert result.exit_code != 0 and len(made) == 3
    assert list(tmp_path.iterdir()) == []  # no bank, no temporary file
