"""The pages' templates (render/templating.py): escaped as html.escape escapes, strict, and all of them compile."""

from __future__ import annotations

import html

import pytest

from attn_tutor.render import templating
from attn_tutor.render.html import escape as document_escape

HOSTILE = "<b class='x'>\"&amp;\u200b\x07"


def test_every_value_is_escaped_as_html_escape_escapes_it():
    """&#x27; and &quot; as the pages always wrote them, not MarkupSafe's &#39; and &#34;."""
    env = templating.environment("attn_tutor.live")
    assert env.autoescape is True
    made = env.from_string('<p title="{{ x }}">{{ x }} {{ n }}</p>').render(x=HOSTILE, n=3)
    assert made == f'<p title="{html.escape(HOSTILE)}">{html.escape(HOSTILE)} 3</p>'
    assert "&#x27;" in made and "&quot;" in made and "&#39;" not in made and "&#34;" not in made


def test_a_package_may_escape_with_its_own_function():
    env = templating.environment("attn_tutor.render", document_escape)
    assert env.from_string("{{ x }}").render(x=HOSTILE) == document_escape(HOSTILE)
    assert document_escape(HOSTILE) != html.escape(HOSTILE)  # its control characters written as \uXXXX


def test_only_what_a_template_marks_safe_goes_in_as_it_is():
    env = templating.environment("attn_tutor.practice")
    assert env.from_string("{{ x|safe }}|{{ x }}").render(x="<i>") == "<i>|&lt;i&gt;"


def test_a_name_the_template_is_not_given_is_an_error_not_an_empty_string():
    import jinja2

    with pytest.raises(jinja2.UndefinedError):
        templating.environment("attn_tutor.live").from_string("{{ missing }}").render()


@pytest.mark.parametrize("package", ["attn_tutor.render", "attn_tutor.practice", "attn_tutor.live"])
def test_every_template_compiles(package):
    env = templating.environment(package)
    names = env.list_templates()
    assert names
    for name in names:
        env.get_template(name)
