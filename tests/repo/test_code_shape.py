"""The code's shape: no function in attn_tutor/ over 60 lines and no module over 600 lines,
unless it says why.

A function may be longer only when its docstring has a sentence containing
:data:`MARKER` ("Over 60 lines because …") that gives the reason — a single table,
or a parser loop that reads best whole. Lengths are counted as the AST counts them,
``end_lineno - lineno + 1``, decorators not included; methods and nested functions
count too.
"""

from __future__ import annotations

import ast

from helpers.paths import ROOT

PACKAGE = ROOT / "attn_tutor"
MOST_FUNCTION_LINES = 60
MOST_MODULE_LINES = 600
MARKER = "over 60 lines because"  # matched in a function's docstring, any case
MODULE_MARKER = "long because"  # matched in a long module's docstring, any case

KNOWN_LONG_FUNCTIONS = {
    # The Typer commands: each signature is the option list Typer needs (their docstrings
    # say so with the marker too).
    ("cli/solve.py", "solve"): "a Typer command: its signature is the option list Typer needs",
    ("cli/quiz.py", "quiz"): "a Typer command: its signature is the option list Typer needs",
    ("cli/grade.py", "grade"): "a Typer command: its signature is the option list Typer needs",
}

# none since the message catalogue moved from core/i18n.py to gettext files (attn_tutor/locale)
LONG_MODULES: dict[str, str] = {}


def _modules() -> list[tuple[str, str]]:
    return [(path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))]


def _functions(source: str):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node, node.end_lineno - node.lineno + 1


def test_the_scan_reads_the_package():
    modules = dict(_modules())
    assert "cli/app.py" in modules and "gradebook/answer_csv.py" in modules
    assert sum(1 for _, source in modules.items() for _ in _functions(source)) > 300


def test_no_function_is_over_60_lines_unless_its_docstring_says_why():
    too_long = []
    for name, source in _modules():
        for node, lines in _functions(source):
            if lines <= MOST_FUNCTION_LINES or (name, node.name) in KNOWN_LONG_FUNCTIONS:
                continue
            if MARKER not in (ast.get_docstring(node) or "").casefold():
                too_long.append(f"attn_tutor/{name}:{node.lineno} {node.name} ({lines} lines)")
    assert not too_long, (
        f"functions over {MOST_FUNCTION_LINES} lines: split them into a function per step, "
        f"or say why in the docstring ('Over 60 lines because …'):\n" + "\n".join(too_long)
    )


def test_no_module_is_over_600_lines_unless_it_says_why():
    modules = dict(_modules())
    too_long = [
        f"attn_tutor/{name} ({len(source.splitlines())} lines)"
        for name, source in modules.items()
        if len(source.splitlines()) > MOST_MODULE_LINES and name not in LONG_MODULES
    ]
    assert not too_long, f"modules over {MOST_MODULE_LINES} lines: split them by job:\n" + "\n".join(too_long)
    for name in LONG_MODULES:  # a long module says why, in its own docstring
        assert MODULE_MARKER in (ast.get_docstring(ast.parse(modules[name])) or "").casefold(), name

