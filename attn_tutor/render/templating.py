"""HTML pages from Jinja2 templates: one environment per package, its templates in ``<package>/templates/``.

The pages (the live class's, the practice page's shell, the self-contained document of the class
report, the hand-back sheets and ``export -f html``) are templates with autoescaping; what goes
inside them that code draws (a block renderer's HTML, a JSON block, an inline stylesheet or
script, a Content-Security-Policy) is marked ``|safe`` where the template puts it.

Every ``{{ value }}`` is escaped by the package's own function, :func:`html.escape` unless it gives
another, as the pages have always escaped: the environment's ``finalize`` hands each value to
autoescaping as ``Markup`` of that function's text, so ``'`` stays ``&#x27;`` and ``"`` stays
``&quot;`` (MarkupSafe's own escaping writes ``&#39;`` and ``&#34;``) and every page keeps its
bytes. Autoescaping stays on underneath: nothing reaches a page unescaped but what a template
marks safe. The templates' whitespace is ``trim_blocks`` and ``lstrip_blocks`` (a line holding only a
tag leaves nothing), with the final newline kept.

Jinja2 is imported when a package's first page is made: ``--help``, ``solve`` and a ``grade`` that
writes no page never import it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import cache


@cache
def environment(package: str, escape: Callable[[str], str] = html.escape):
    """The Jinja2 environment of ``package``'s templates (made once a process), escaping with ``escape``."""
    import jinja2
    import markupsafe

    def finalize(value: object) -> object:
        return value if hasattr(value, "__html__") else markupsafe.Markup(escape(str(value)))

    return jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        autoescape=True,
        finalize=finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
    )


def render(package: str, name: str, context: dict, escape: Callable[[str], str] = html.escape) -> str:
    """``package``'s template ``name`` (in its ``templates/`` folder) filled with ``context``."""
    return environment(package, escape).get_template(name).render(context)
