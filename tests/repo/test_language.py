"""The language is chosen once, at the edge: below ``cli/`` and ``live/`` no function takes a
parameter named ``lang`` or ``language``, except those docs/architecture.md names under
"The language" (read from there, so the list and the code cannot drift).

Every function counts: methods, nested functions and lambdas too.
"""

from __future__ import annotations

import ast
import re

from helpers.paths import PACKAGE, ROOT

EDGES = ("cli", "live")  # where the language is chosen: their functions may take it
NAMES = {"lang", "language"}
SECTION = "## The language"


def _named_in_docs() -> set[tuple[str, str]]:
    """Each ``package/module.py:function`` the section names, as (module, function)."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = doc.index(SECTION)
    end = doc.find("\n## ", start + len(SECTION))
    section = doc[start : end if end != -1 else len(doc)]
    return set(re.findall(r"`([a-z0-9_]+/[a-z0-9_]+\.py):([A-Za-z0-9_]+)`", section))


def _taking_a_language() -> set[tuple[str, str]]:
    """Every function below cli and live with a parameter named lang or language, as (module, function)."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module.split("/")[0] in EDGES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                args = node.args
                params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
                params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
                if params & NAMES:
                    found.add((module, getattr(node, "name", "<lambda>")))
    return found


def test_no_function_below_the_edges_takes_the_language_unless_the_docs_name_it():
    unnamed = _taking_a_language() - _named_in_docs()
    assert not unnamed, f"these take lang/language: read i18n.language(), or name them in docs/architecture.md: {sorted(unnamed)}"


def test_every_function_the_docs_name_is_there():
    named = _named_in_docs()
    assert named, f"docs/architecture.md has no {SECTION!r} section naming functions"
    defined = set()
    for module, _function in named:
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        defined |= {(module, n.name) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    assert named <= defined, sorted(named - defined)
