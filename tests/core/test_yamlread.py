"""The plain YAML reader (attn_tutor.core.yamlread.PlainReader) reads what the composer reads.

Two levels: the reader's tree against the composed node tree (values, styles and
every value's line and column), and the answer reader's fast path against its
composing path (the whole Submission). Texts come from the shapes students hand in,
varied (indent widths, comments, blank lines, quoting, CRLF, spacing, lists and text
answers, Korean tokens) and now and then spoiled by one junk character.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.benchmarks import load_benchmark
from helpers.paths import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor.core import yamlread
from attn_tutor.core.yamlread import STR, Leaf, MappingNode, ScalarNode, SequenceNode
from attn_tutor.gradebook import answer_yaml

FIXTURES = TESTS / "fixtures" / "grade"


def composed_tree(text: str):
    """The composer's reading in read_plain's shape, or a string saying why read_plain must give up."""
    try:
        root = yamlread.compose(text, "x.yaml")
    except yamlread.BadYaml as bad:
        return f"bad yaml: {bad.kind}"
    if root is None:
        return "empty"
    issues, aliased = yamlread.scan(root)
    if issues or aliased:
        return "issues"

    def tree(node):
        place = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, MappingNode):
            keys = [key for key, _ in node.value]
            if not all(isinstance(k, ScalarNode) and yamlread.is_plain(k) and k.tag == STR for k in keys):
                return "a key that is not plain text"
            return {key.value: tree(value) for key, value in node.value}
        if isinstance(node, SequenceNode):
            items = tuple(c.value if isinstance(c, ScalarNode) and yamlread.is_plain(c) else "!" for c in node.value)
            return Leaf(items, "[", *place)
        return Leaf(node.value, node.style or "", *place)

    return tree(root) if isinstance(root, MappingNode) else "not a mapping"


def assert_plain_reads_as_composed(text: str) -> None:
    fast = yamlread.read_plain(text)
    if fast is not None:
        assert fast == composed_tree(text)
    slow = answer_yaml.read_nodes(text, "x.yaml", default_student="x")
    sub = answer_yaml.read_plain_file(text, "x.yaml", default_student="x")
    assert sub is None or sub == slow  # None: the composing reader's turn
    assert answer_yaml.read_yaml_text(text, "x.yaml", default_student="x") == slow
    return fast, sub


# --- keys and values at the edge of the plain subset -------------------------------------

_EDGE_KEYS = [
    "a[1]", "a{b}", "a,b", "a]", "a&b", "a*b", "a!b", "a|b", "a>b", "a'b", 'a"b', "a%b", "a@b", "a`b", "a-", "a?", "a b  c",
    "a.b", "..a", ".a", "a\\b", "a~", "~a", "a/b", "a=b", "=", "<<", "1_000", "0o7", "+1", "+", ".inf", ".nan", "null",
    "Null", "NO", "y", "n", "off", "2024-01-01", "12:30", "1e3", "0x", "0b1", "한글 키", "😀",
]  # fmt: skip
_EDGE_VALUES = [
    "a[1]", "a]", "a{", "a}", "a,b", "a'b", "'a'b", 'a"b', "a\\b", "%a", "a%", "a@", "a`", "a&", "a*", "a!", "a|", "a>", "a?",
    "?a", ":a", "a:", "a:b", "a::b", "-a", "--a", "-", "--", "---", "...", "a ...", "a---", "~", "a~", "'a' ", '"a"  # x',
    "[a, b]", "[a b, c d]", "[-a, b]", "[a-, b]", "[., b]", "[a.b, c]", "[a!, b]", "[a&b]", "[a*b]", "[a|b]", "[a>b]",
    "[a%b]", "[a@b]", "[a`b]", "[a\\b]", "[~, ~a]", "[😀]", "[1,2]", "[ 1 ]", "[1 ,2]",
]  # fmt: skip


@pytest.mark.parametrize("text", [f"{k}: x\n" for k in _EDGE_KEYS] + [f"p:\n  {k}: x\n" for k in _EDGE_KEYS])
def test_edge_keys_read_as_composed(text):
    assert_plain_reads_as_composed(text)


@pytest.mark.parametrize("text", [f"x: {v}\n" for v in _EDGE_VALUES] + [f"p:\n  x: {v}\n  y: 1\n" for v in _EDGE_VALUES])
def test_edge_values_read_as_composed(text):
    assert_plain_reads_as_composed(text)


@pytest.mark.parametrize("start", ["---", "--- ", "--- # a", "--- #\r a", "--- #\r\n a", "--- # \x85 a", "--- # \u2028 a", "--- # \x07", "---\t# a"])
def test_a_document_start_line_reads_as_composed(start):
    """The ``---`` line is held to the same odd characters as every other line: a lone CR (or NEL,
    or LS) in its comment starts a new line for the composer, so the fast path must not read past it."""
    assert_plain_reads_as_composed(f"{start}\nproblem_set: ch13\nanswers:\n cat-fish:\n  먹었다:\n   scores: yes\n")


# --- texts as students hand them in --------------------------------------------------------

_PROBLEMS = ["cat-fish", "widget-meet-friend", "practice-d4", "river-fishing"]
_TOKENS = ["먹었다", "고양이가", "만났다", "ate", "the", "나는", "학생 A", "x_y", "a-b", "ok.2"]
_STAGES = ["scores", "scaled", "weights", "output"]
_NUMBER = st.one_of(st.integers(-20, 99).map(str), st.decimals(-100, 100, places=3, allow_nan=False).map(lambda d: f"{d:f}"))
_CELLS = st.lists(_NUMBER, min_size=1, max_size=5)
_SEPARATOR = st.sampled_from([", ", ",", " , ", ",  "])


@st.composite
def _ordinary_value(draw) -> str:
    """An answer as students type it: a flow list of numbers, or a row as text (plain or quoted)."""
    cells = draw(_CELLS)
    kind = draw(st.sampled_from(["list", "list", "plain", "single", "double", "percent", "fraction", "empty", "blank list"]))
    if kind == "list":
        inside = draw(_SEPARATOR).join(cells)
        return draw(st.sampled_from(["[{}]", "[ {} ]", "[{} ]"])).format(inside)
    if kind == "percent":
        return '"' + ", ".join(c + "%" for c in cells) + '"'
    if kind == "fraction":
        return "'" + " ".join(c + "/4" for c in cells) + "'"
    if kind == "empty":
        return draw(st.sampled_from(["", "~", "null", "''", '""']))
    if kind == "blank list":
        return "[]"
    text = draw(st.sampled_from([" ", ", "])).join(cells)
    if kind == "plain":
        text = text if not text.startswith("-") or text[1:2].isdigit() else "0"
        return text if "," not in text else "(" + text + ")"
    quote = "'" if kind == "single" else '"'
    return quote + draw(st.sampled_from(["{}", "({})", "[{}]"])).format(text) + quote


_ODD_VALUES = [
    "yes", "'yes'", "on", "x", "1:30", "- 1", "[1, , 2]", "[1, 2,]", "'a''b'", '"a\\"b"', '"\\x41"', "[1, '2']", "&a 1",
    "*a", "!!str 1", "{a: 1}", "|", "[1, [2]]", "1 # c", "1#2", "a: b", "일 이", "[1:2]", "?", "%", "@x", "`x`", "-",
]  # fmt: skip
_JUNK = ["\t", "#", ":", "&", "*", "!", "|", ">", "-", "[", "]", "{", '"', "'", "\r", "\x00", "\ufeff", "\u2028", " ", "\n", "😀", "\\", "%", "?"]


@st.composite
def answer_texts(draw) -> tuple[str, bool]:
    """(text, ordinary): an answer file; ordinary when nothing odd went into it (the fast path must take it)."""
    indents = [draw(st.integers(1, 4)) for _ in range(3)]
    odd = False

    def line(depth: int, key: str, value: str | None) -> str:
        space = draw(st.sampled_from(["", "", "", " "]))
        gap = draw(st.sampled_from([" ", " ", "  "])) if value else draw(st.sampled_from(["", "", "  "]))
        trail = draw(st.sampled_from(["", "", "", "  ", " # note", "   # 메모"]))
        return " " * sum(indents[:depth]) + key + space + ":" + gap + (value or "") + trail

    lines = []
    if draw(st.booleans()):
        name = draw(st.sampled_from(["김민수", "student 1", "'Kim, Jr'", '"이 # 영희"', "s-01"]))
        lines.append(line(0, "student", name))
    lines.append(line(0, "problem_set", draw(st.sampled_from(["ch13", "../set.yaml", "'ch13'"]))))
    if draw(st.booleans()):
        lines.append(line(0, "variant", str(draw(st.integers(0, 10**6)))))
    lines.append(line(0, "answers", None))
    for problem in draw(st.lists(st.sampled_from(_PROBLEMS), min_size=1, max_size=2, unique=True)):
        lines.append(line(1, problem, None))
        for token in draw(st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=2, unique=True)):
            lines.append(line(2, token, None))
            for stage in draw(st.lists(st.sampled_from(_STAGES), min_size=1, max_size=4, unique=True)):
                if draw(st.integers(0, 9)) == 0:
                    value, odd = draw(st.sampled_from(_ODD_VALUES)), True
                else:
                    value = draw(_ordinary_value())
                lines.append(line(3, stage, value))
    for _ in range(draw(st.integers(0, 3))):  # comments and blank lines anywhere
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(st.sampled_from(["", "   ", "# 주석", "      # an indented comment", "#"])))
    if draw(st.integers(0, 4)) == 0:
        lines.insert(0, draw(st.sampled_from(["---", "--- # answers", "# heading"])))
    text = draw(st.sampled_from(["\n", "\n", "\r\n"])).join(lines) + draw(st.sampled_from(["\n", "", "\r\n"]))
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(text)))
        text, odd = text[:at] + draw(st.sampled_from(_JUNK)) + text[at:], True
    return text, not odd


@settings(max_examples=300, deadline=None)
@given(answer_texts())
def test_the_plain_reader_reads_answer_files_as_the_composer_does(case):
    text, ordinary = case
    fast, sub = assert_plain_reads_as_composed(text)
    if ordinary:  # nothing odd went in: the fast path must have taken it
        assert fast is not None and sub is not None, text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    "a:", " b:", "  c:", "   d:", "a: 1", " b: x y", "  c: [1, 2]", "a: 'q'", ' b: "r"', "# c", "", "  ", "---", "...", "- 1",
    "a: b: c", "a: [1, 2", "a:b", "a: 1 # c", "? a", ": b", "a: |", "  x", "a: &x 1", "b: *x", "a\t: 1", "c: {d: 1}",
    "e: 😀", "f: '#'", "g: \"\\\\\"", "h: ~", "i: -1", "j: [-1, -0]", "k: [a b, c]", "yes: 1", "'l': 1", "m : 2",
]), max_size=12), st.sampled_from(["\n", "\r\n"]))  # fmt: skip
def test_any_mix_of_plain_lines_reads_as_composed_or_gives_up(lines, newline):
    assert_plain_reads_as_composed(newline.join(lines) + newline)


# --- what must take the fast path ---------------------------------------------------------


def _benchmark_class(folder: Path, students: int) -> list[Path]:
    load_benchmark("grade_speed").build_class(folder, students, 0.55)
    return sorted(folder.glob("*.yaml"))


def test_benchmark_files_take_the_fast_path(tmp_path):
    paths = _benchmark_class(tmp_path, 60)
    fast = 0
    for path in paths:
        text = path.read_text("utf-8")
        for variant in (text, text.replace("\n", "\r\n")):
            slow = answer_yaml.read_nodes(variant, str(path))
            sub = answer_yaml.read_plain_file(variant, str(path))
            assert sub is None or sub == slow
            if not slow.findings:  # nothing to report: the fast path reads it
                assert sub is not None, path.name
                fast += 1
    assert fast >= 100  # most of the class has nothing to report


@pytest.mark.parametrize("path", sorted((FIXTURES / "class").glob("*.yaml")), ids=lambda p: p.name)
def test_the_class_fixtures_take_the_fast_path(path):
    text = path.read_text("utf-8")
    for variant in (text, text.replace("\n", "\r\n"), "---\n" + text):
        sub = answer_yaml.read_plain_file(variant, str(path))
        assert sub is not None and sub == answer_yaml.read_nodes(variant, str(path))


def test_what_the_reader_remembers_is_bounded_and_shared_by_one_run_only():
    reader = yamlread.PlainReader(limit=3)
    first = reader("a: 1\nb: [1, 2]\nc: x\nd: y\n")
    assert first == reader("a: 1\nb: [1, 2]\nc: x\nd: y\n")
    assert len(reader._lines) == 3
    assert yamlread.read_plain("a: 1\n") == {"a": Leaf("1", "", 1, 4)}
