"""Text entering a bank (a title, a problem's title, tokens) gives well-formed XML and whole category names.

* A control or invisible character is refused with a sentence before anything is written:
  in ``--title`` as a usage error (exit 2), in a problem set's text with its file:line:column
  (exit 1). Everything else, however hostile to XML or Cloze (``]]>``, ``&``, quotes,
  astral characters), is written so that an XML parser reads every written bank back.
* A set title or problem name holding ``/`` — at its start, its end, doubled — stays one
  Moodle category level: the path read back as Moodle's ``split_category_path`` reads it
  (tests/helpers/moodle.py) gives exactly the names written.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from types import SimpleNamespace

import pytest
from helpers.moodle import category_names, moodle_questions, split_category_path
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.export import moodle

SET = """title: {title}
problems:
  - id: p
    title: {problem_title}
    tokens: [{token}, b]
    key_tokens: [{key}, y]
    Q: [[1, 0], [0, 1]]
    K: [[1, 2], [0, 1]]
    V: [[1, 0], [0, 1]]
"""
PLAIN = {"title": "Set", "problem_title": "Problem", "token": "a", "key": "x"}
LINES = {"title": 1, "problem_title": 4, "token": 5, "key": 6}

REFUSED = {
    "NUL": "\x00", "SOH": "\x01", "vertical tab": "\x0b", "escape sequence": "\x1b[31m", "DEL": "\x7f",
    "NEL (C1)": "\x85", "zero width space": "\u200b", "right-to-left override": "\u202e",
    "line separator": "\u2028", "non-character": "\ufffe", "tab": "\t", "newline": "\n",
}  # fmt: skip
ACCEPTED = {
    "CDATA end": "a]]>b", "ampersand": "Q & K &amp; &#1;", "markup": "<b>x</b> <!-- c -->", "quotes": "\"'",
    "cloze": "{1:NM:=1} ~#}", "slashes": "/a//b/", "astral": "𝒜 😀", "replacement": "\ufffd", "korean": "질의 토큰",
}  # fmt: skip


def quoted(text: str) -> str:
    """A YAML double-quoted scalar: every character outside printable ASCII as a ``\\u`` escape but
    astral ones, written as they are (YAML has no surrogate-pair escapes)."""
    return '"' + "".join(
        ch if ch > "\uffff" or (" " <= ch <= "~" and ch not in '"\\') else f"\\u{ord(ch):04x}" for ch in text
    ) + '"'


def write_set(tmp_path, **fields) -> str:
    path = tmp_path / "set.yaml"
    path.write_text(SET.format(**{k: quoted(v) for k, v in {**PLAIN, **fields}.items()}), encoding="utf-8")
    return str(path)


def parsed_documents(fmt: str, data: bytes) -> list[ET.Element]:
    """Every XML document of a written bank, parsed (expat: a conforming XML 1.0 parser)."""
    if fmt == "moodle":
        return [ET.fromstring(data)]
    archive = zipfile.ZipFile(io.BytesIO(data))
    return [ET.fromstring(archive.read(name)) for name in archive.namelist()]


@pytest.mark.parametrize("fmt", ["moodle", "qti"])
@pytest.mark.parametrize("name", list(REFUSED))
def test_a_control_character_in_title_is_refused_before_anything_is_written(run_cli, tmp_path, fmt, name):
    out = tmp_path / "bank.out"
    result = run_cli("export", "-f", fmt, "--title", f"Quiz {REFUSED[name]} 3", "-o", str(out), "--lang", "en")
    assert result.exit_code == 2, result.output
    assert "--title" in result.output and f"U+{ord(REFUSED[name][0]):04X}" in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_a_byte_that_is_not_utf8_in_title_is_refused(run_cli, tmp_path):
    out = tmp_path / "bank.xml"
    result = run_cli("export", "-f", "moodle", "--title", "Quiz \udcff", "-o", str(out), "--lang", "ko")  # argv's surrogateescape
    assert result.exit_code == 2 and "--title" in result.output and "U+DCFF" in result.output
    assert not out.exists()


@pytest.mark.parametrize("fmt", ["moodle", "qti"])
@pytest.mark.parametrize("field", list(LINES))
@pytest.mark.parametrize("name", ["SOH", "escape sequence", "DEL", "NEL (C1)", "right-to-left override"])
def test_a_control_character_in_the_sets_text_is_refused_with_where(run_cli, tmp_path, fmt, field, name):
    path = write_set(tmp_path, **{field: f"v{REFUSED[name]}"})
    out = tmp_path / "bank.out"
    result = run_cli("export", path, "-f", fmt, "-o", str(out), "--lang", "en")
    assert result.exit_code == 1, result.output
    assert f"set.yaml:{LINES[field]}:" in result.output and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize("fmt", ["moodle", "qti"])
@pytest.mark.parametrize("name", list(ACCEPTED))
def test_hostile_but_allowed_text_makes_well_formed_xml_everywhere(run_cli, tmp_path, fmt, name):
    text = ACCEPTED[name]
    path = write_set(tmp_path, title=f"T {text}", problem_title=f"P {text}", token=f"a{text}", key=f"x{text}")
    out = tmp_path / "bank.out"
    for args, title in ((["--title", f"O {text}"], f"O {text}"), (["--variants", "2", "--seed", "5"], f"T {text}")):
        result = run_cli("export", path, "-f", fmt, "-o", str(out), "--force", "--lang", "en", *args)
        assert result.exit_code == 0, result.output
        documents = parsed_documents(fmt, out.read_bytes())
        # the parsed bank says the text as written
        if fmt == "moodle":
            categories = [c.findtext("category/text") for c in documents[0].iter("question") if c.get("type") == "category"]
            assert [category_names(c)[2:] for c in categories] == [[title.strip(), f"p — P {text}".strip()]]
        else:
            titles = [a.get("title") for doc in documents for a in doc.iter("{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}assessment")]
            assert titles and all(t.startswith(title) for t in titles)


NAMES = st.text(alphabet="ab/ 가<>&;#!-", min_size=1, max_size=12).filter(lambda s: s.strip(" "))


@given(set_title=NAMES, problem_id=st.sampled_from(["p", "a/b", "/p/"]), problem_title=st.none() | NAMES)
def test_a_category_path_reads_back_as_the_names_written(set_title, problem_id, problem_title):
    problem = SimpleNamespace(id=problem_id, title=problem_title)
    name = f"{problem_id} — {problem_title}" if problem_title else problem_id
    path = moodle.category_path(set_title, problem)
    assert category_names(path) == ["$course$", "top", set_title.strip(" "), name.strip(" ")]


@pytest.mark.parametrize(
    "title",
    # HTML: Moodle strips what looks like a tag from a category name and shows the rest as HTML
    ["Quiz/", "/Quiz", "A//B", "/", "a / b /", "Attention <Q, K>", "<b>x</b>", "a <b", "Q & K &amp; &lt;", "<!-- c -->/x"],
)
def test_a_set_title_with_slashes_or_html_stays_one_category_level_as_written(run_cli, tmp_path, title):
    out = tmp_path / "bank.xml"
    result = run_cli("export", write_set(tmp_path, title=title), "-f", "moodle", "-o", str(out))
    assert result.exit_code == 0, result.output
    ((category, _element),) = moodle_questions(out.read_bytes())
    assert category_names(category) == ["$course$", "top", title.strip(" "), "p — Problem"]


@pytest.mark.parametrize("fmt", ["moodle", "qti", "html"])
@pytest.mark.parametrize(
    ("title", "lang", "message"),
    [
        ("", "en", "--title is blank"),
        ("   ", "en", "--title is blank"),
        ("\u3000", "ko", "--title 값이 비어 있습니다"),  # an ideographic space is no title either
        ("\u00a0 ", "en", "--title is blank"),
        ("x" * 201, "en", "--title is 201 characters long; at most 200"),
        ("가" * 250, "ko", "최대 200자"),
    ],
)
def test_a_blank_or_overlong_title_is_refused_before_anything_is_written(run_cli, tmp_path, fmt, title, lang, message):
    """A blank --title is a slip (an empty shell variable), not a wish for no title: it is refused, as
    a blank title in a set is, and so is one longer than a set's title may be (Moodle keeps at most
    255 characters of a category name)."""
    out = tmp_path / "bank.out"
    result = run_cli("export", "-f", fmt, "--title", title, "-o", str(out), "--lang", lang)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize(("title", "shown"), [("x" * 200, "x" * 200), (" Quiz 3 ", "Quiz 3"), ("e\u0301", "\u00e9")])
def test_a_title_at_the_limit_or_with_spaces_around_is_written(run_cli, tmp_path, title, shown):
    out = tmp_path / "bank.xml"
    result = run_cli("export", "-f", "moodle", "--title", title, "-o", str(out), "--lang", "en")
    assert result.exit_code == 0, result.output
    categories = {category_names(category)[2] for category, _element in moodle_questions(out.read_bytes())}
    assert categories == {shown}  # composed as a set's own text is (NFC), trimmed as Moodle trims


@pytest.mark.parametrize(
    ("problem_id", "problem_title"),
    [
        ("p" * 200, "t" * 200),  # both at the set's limit: 403 characters whole
        ("q", "가" * 200),
        ("r" * 52, "s" * 200),  # exactly 255 whole: kept as it is
        ("u" * 200, "😀" * 200),  # astral characters count one each, as in Moodle's database
        ("w" * 200, "x" * 51 + " " * 10 + "y" * 139),  # cut where the title has spaces
        ("v" * 30, "<&" * 100),  # stored as references, 4 and 5 characters each: cut between them
    ],
)
def test_a_long_problem_id_and_title_make_a_category_name_moodle_can_store(run_cli, tmp_path, problem_id, problem_title):
    """Moodle stores a category name in 255 characters; a longer one stops the whole import with a
    database error. The problem's level keeps its whole id and as much of its title as fits."""
    path = write_set(tmp_path, problem_title=problem_title)
    text = (tmp_path / "set.yaml").read_text(encoding="utf-8").replace("  - id: p\n", f"  - id: {quoted(problem_id)}\n")
    (tmp_path / "set.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "bank.xml"
    result = run_cli("export", path, "-f", "moodle", "-o", str(out), "--variants", "2", "--seed", "3")
    assert result.exit_code == 0, result.output
    found = moodle_questions(out.read_bytes())
    assert len(found) == 2
    for category, _element in found:
        assert len(split_category_path(category)[3]) <= 255  # as Moodle stores it
        name = category_names(category)[3]  # as Moodle shows it
        whole = f"{problem_id} — {problem_title}"
        assert name.startswith(f"{problem_id} — ")  # the id whole: no two problems share a category
        if len(whole) <= 255 and not {"&", "<"} & set(whole):
            assert name == whole
        else:  # cut short, and said so
            assert name.endswith("…") and whole.startswith(name[:-1])
            assert len(split_category_path(category)[3]) >= 255 - len("&amp;")  # cut no shorter than it must be
