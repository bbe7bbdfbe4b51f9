"""Writing a problem set as YAML (attn_tutor.problems.dump): every token stays a string, every number reads back."""

from __future__ import annotations

import pytest

from attn_tutor.core.i18n import speaking
from attn_tutor.core.model import Head, Problem, ProblemSet
from attn_tutor.problems.dump import dump_problem_set, number, quote


@pytest.mark.parametrize(
    "token", ["yes", "no", "on", "1", "1e3", "0x1F", "- x", "#", "null", "~", "a: b", "'q'", '"', "\\", "tab\there", "줄\n바꿈", "a\u2028b", "a\x85b", "🙂", " lead", "&anchor", "*alias", "!tag", "%dir", "@", "`"]
)
def test_dump_problem_set_keeps_every_token_a_string(token):
    from attn_tutor.problems.load import load_text

    problem = Problem(
        id=token + "-id",
        title=token,
        tokens=(token, "b"),
        heads=(Head(Q=((1, 0.5), (1e-4, 2)), K=((1, 0), (0, 1)), V=((1, 0), (0, 1))),),
        rows=(token,),
        ask=("scores", "weights"),
        decimals=2,
        tolerance=0.01,
    )
    original = ProblemSet((problem,), title=token)
    text = dump_problem_set(original, header_comment=f"header {token}\nsecond")
    if any(ch in token for ch in "\t\n\u2028\x85"):  # written escaped; the loader refuses control characters in text
        from attn_tutor.core.errors import InvalidProblemSet

        with pytest.raises(InvalidProblemSet, match="invisible or control character"):
            load_text(text, "x.yaml")
        return
    back = load_text(text, "x.yaml")
    assert back.title == token
    assert back.problems[0]._replace(line=None) == problem


def test_dump_round_trips_the_packaged_set():
    from attn_tutor.problems.load import load_problem_set, load_text

    original = load_problem_set(None)
    with speaking("ko"):
        dumped = dump_problem_set(original, header_comment="x")
    back = load_text(dumped, "x.yaml")
    strip = lambda s: tuple(p._replace(line=None) for p in s.problems)  # noqa: E731
    assert strip(back) == strip(original) and back.title == original.title


@pytest.mark.parametrize(("value", "text"), [(2.0, "2"), (-0.5, "-0.5"), (1e-05, "1.0e-05"), (1.5e20, "1.5e+20"), (0.1, "0.1")])
def test_numbers_are_written_as_yaml_1_1_reads_them(value, text):
    import yaml

    assert number(value) == text
    assert yaml.safe_load(text) == value


def test_quote_is_a_yaml_double_quoted_scalar():
    import yaml

    for text in ("plain", 'say "hi"', "back\\slash", "\x00\x07\x1b", "\ufeffbom"):
        assert yaml.safe_load(quote(text)) == text
