"""YAML syntax errors as catalogue sentences, pointing at the line where the mistake is.

PyYAML notices many mistakes at the next token: an unclosed '[' or a key without ':'
is reported at the start of the following line, in English. Each broken file below has
its true place known; `validate` (problem sets) and `grade` (answer files) must say it
there in the chosen language, with both of PyYAML's parsers (C and Python).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from helpers.language import in_language
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor.core import yamlread

LOADERS = {"C": getattr(yaml, "CSafeLoader", yaml.SafeLoader), "Python": yaml.SafeLoader}

GOOD = "problems:\n  - id: a\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n    V: [[1, 0], [0, 1]]\n"

# name, text, (line, column) of the mistake, catalogue key, English words, Korean words
CASES = [
    ("colon in a value", "title: a: b\n" + GOOD, (1, 9), "yaml.colon_in_value", "must be quoted", "따옴표로 감싸고"),
    ("a key without a colon", "title: x\nproblems\n  - id: a\n", (2, 9), "yaml.missing_colon", "'problems' has no ':'", "'problems'에는 키 뒤에 ':'가 없습니다"),
    ("a nested key without a colon", GOOD.replace("tokens: [x, y]", "tokens [x, y]"), (3, 18), "yaml.missing_colon", "no ':' after its key", "키 뒤에 ':'가 없습니다"),
    ("an unclosed bracket", GOOD.replace("Q: [[1, 0], [0, 1]]", "Q: [[1, 0], [0, 1]"), (4, 23), "yaml.unclosed_bracket", "the '[' opened at line 4, column 8 is not closed", "4행 8열에서 연 '['가 닫히지 않았습니다"),
    ("an unclosed bracket before a comment and a blank line", GOOD.replace("Q: [[1, 0], [0, 1]]", "Q: [[1, 0], [0, 1]   # Q\n\n    # the keys"), (4, 23), "yaml.unclosed_bracket", "close it with ']' here", "']'를 써서 닫으세요"),
    ("an unclosed bracket at the end", "problems: [\n", (1, 12), "yaml.unclosed_bracket", "opened at line 1, column 11", "1행 11열에서 연"),
    ("an unclosed brace", "title: {a: 1\nproblems: []\n", (1, 13), "yaml.unclosed_bracket", "close it with '}' here", "'}'를 써서 닫으세요"),
    ("a doubled comma", GOOD.replace("tokens: [x, y]", "tokens: [x, , y]"), (3, 17), "yaml.flow_expected", "items are separated by ','", "항목을 ','로 구분하고"),
    ("an unclosed double quote", 'title: "abc\n' + GOOD, (1, 8), "yaml.unclosed_quote", 'the quote " opened here is never closed', '따옴표 "가 닫히지 않았습니다'),
    ("an unclosed single quote", "title: 'abc\n" + GOOD, (1, 8), "yaml.unclosed_quote", "never closed", "닫히지 않았습니다"),
    ("a backslash in double quotes", 'title: "C:\\dir"\n' + GOOD, (1, 11), "yaml.escape", "single quotes", "작은따옴표로"),
    ("an @ starting a value", "title: @me\n" + GOOD, (1, 8), "yaml.reserved_character", "cannot start with '@'", "'@'로 시작할 수 없습니다"),
    ("a backquote starting a value", "title: `me`\n" + GOOD, (1, 8), "yaml.reserved_character", "cannot start with '`'", "'`'로 시작할 수 없습니다"),
    ("an undefined alias", GOOD.replace("K: [[1, 0], [0, 1]]", "K: *nothing"), (5, 8), "yaml.undefined_alias", "'*nothing' refers to an anchor '&nothing'", "'*nothing'은 위에 없는 앵커"),
    ("a lone asterisk", "title: *\n" + GOOD, (1, 8), "yaml.bad_anchor", "'*' here must be followed by a name", "'*' 뒤에는 이름"),
    ("text after a closed list", GOOD.replace("tokens: [x, y]", "tokens: [x, y]]"), (3, 19), "yaml.after_value", "']' follows a value already complete", "끝난 값 뒤에 ']'가 있습니다"),
    ("text after a closed quote", "title: 'a' b\n" + GOOD, (1, 12), "yaml.after_value", "'b' follows", "'b'가 있습니다"),
    ("a key indented one space short", GOOD.replace("    tokens:", "   tokens:"), (3, 4), "yaml.indentation_list", "does not fit the list that starts at line 2, column 3", "2행 3열에서 시작하는 목록과 맞지 않습니다"),
    ("a key indented back to the list", GOOD.replace("    Q:", "  Q:"), (4, 3), "yaml.indentation_list", "list that starts at line 2, column 3", "목록과 맞지 않습니다"),
    ("a dash without a space", "problems:\n  -id: a\n  - id: b\n", (2, 3), "yaml.dash_space", "write '- id: a'", "'- id: a'처럼 쓰세요"),
    ("a directive", "%x\n" + GOOD, (1, 1), "yaml.directive", "YAML directive", "YAML 지시문"),
    ("text after a block scalar sign", "title: |x\n  b\n" + GOOD, (1, 8), "yaml.block_scalar", "only a comment may follow '|'", "'|' 뒤에는 같은 줄에 주석만"),
]

PYYAML_WORDS = re.compile(r"while (scanning|parsing)|could not find|did not find|not allowed here|in this context|but found|cannot start any token")


@pytest.fixture(params=sorted(LOADERS))
def loader(request, monkeypatch):
    monkeypatch.setattr(yamlread, "LOADER", LOADERS[request.param])


@pytest.mark.parametrize(("name", "text", "place", "key", "english", "korean"), CASES, ids=[c[0] for c in CASES])
def test_validate_says_what_is_wrong_where_it_is(run_cli, tmp_path, monkeypatch, loader, name, text, place, key, english, korean):
    # named from its own folder: a long temporary path (a worker's, a TMPDIR's) would be folded mid-name at the terminal's width
    monkeypatch.chdir(tmp_path)
    path = Path("my-set.yaml")
    path.write_text(text, encoding="utf-8")
    for lang, words in (("en", english), ("ko", korean)):
        result = run_cli("validate", str(path), "--lang", lang)
        assert result.exit_code == 1
        output = " ".join(result.output.split())
        assert f"{path}:{place[0]}:{place[1]}: {words}" in output or (f"{path}:{place[0]}:{place[1]}:" in output and words in output), output
        assert not PYYAML_WORDS.search(output), output


@pytest.mark.parametrize(("name", "text", "place", "key", "english", "korean"), CASES, ids=[c[0] for c in CASES])
def test_the_loader_gives_the_catalogue_key_at_the_place(loader, name, text, place, key, english, korean):
    try:
        yamlread.compose(text, "f.yaml")
    except yamlread.BadYaml as bad:
        assert (f"yaml.{bad.reason}", bad.where.line, bad.where.column) == (key, *place)
    else:
        pytest.fail("composed")


@pytest.mark.parametrize(
    ("text", "place", "english"),
    [
        ("student: [a\n", (1, 12), "the '[' opened at line 1, column 10 is not closed"),
        ("student: kim\nanswers\n  cat-fish: {}\n", (2, 8), "'answers' has no ':'"),
        ('student: "kim\nanswers: {}\n', (1, 10), 'the quote " opened here is never closed'),
        ("student: kim\n---\nstudent: lee\n", (2, 1), "a second YAML document starts here"),
    ],
)
def test_an_answer_files_syntax_error_is_said_where_it_is(run_cli, tmp_path, text, place, english):
    (tmp_path / "kim.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "report.json"
    result = run_cli("grade", str(tmp_path / "kim.yaml"), "--json", str(out), "--lang", "en")
    assert "Traceback" not in result.output
    errors = [e for s in json.loads(out.read_text(encoding="utf-8"))["students"] for e in s["errors"]]
    assert any(f"kim.yaml:{place[0]}:{place[1]}: {english}" in e for e in errors), errors
    assert not any(PYYAML_WORDS.search(e) for e in errors), errors


YAMLISH = st.lists(st.sampled_from(list("ab: -[]{},'\"#*&|>%@`\\\t\n\r\u2028\u0085 ") + ["  ", "\n  ", "x: ", "- "]), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=YAMLISH, which=st.sampled_from(sorted(LOADERS)))
def test_any_broken_text_is_a_sentence_at_a_place_inside_the_file(text, which):
    yamlread.LOADER = LOADERS[which]
    try:
        yamlread.compose(text, "f.yaml")
    except yamlread.BadYaml as bad:
        lines = len(re.split("\r\n|[\r\n\x85\u2028\u2029]", text))
        if bad.where.line is not None:
            assert 1 <= bad.where.line <= lines + 1
            assert bad.where.column >= 1
        if bad.reason:
            from attn_tutor.core.i18n import t

            assert in_language("ko", t, f"yaml.{bad.reason}", **bad.fields) and in_language("en", t, f"yaml.{bad.reason}", **bad.fields)
    finally:
        yamlread.LOADER = None
