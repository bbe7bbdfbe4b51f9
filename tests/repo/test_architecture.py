"""The import rules of docs/architecture.md, read from every import in the package.

The packages stand in one order; each imports only those below it, packages on one
level do not import each other, no module imports a ``_private`` name of another,
and no import hides inside a function except numpy, yaml, rich, typst, pikepdf and Jinja2 (start-up)
and the few named below.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers.paths import PACKAGE

LEVELS = (
    ("core",),
    ("render",),
    ("problems",),
    ("solve",),
    ("marking",),
    ("variants",),
    ("export", "practice", "quiz"),
    ("gradebook",),
    ("sessions",),
    ("classroom",),
    ("live",),
    ("cli",),
)
LEVEL = {package: n for n, packages in enumerate(LEVELS) for package in packages}
KIND_JOBS = {
    # a problem kind's module (attn_tutor/kinds/<kind>/<job>.py) stands on its job's level
    "model": "core",
    "fields": "problems",
    "engine": "solve",
    "layout": "solve",
    "marking": "marking",
    "generate": "variants",
    "export": "export",
}
LAZY = ("numpy", "yaml", "rich", "typst", "pikepdf", "jinja2", "markupsafe")
LAZY_ALLOWED = {
    # (module, imported): why it is imported inside a function
    ("attn_tutor.cli.quiz", "readline"): "importing readline sets the terminal up: only when the quiz is on one",
    ("attn_tutor.cli.random_options", "attn_tutor.variants.generate"): "the generator and its marker: only --random (solve starts without)",
    ("attn_tutor.cli.solve", "attn_tutor.variants.generate"): "the generator and its marker: only solve --variant",
    ("attn_tutor.render.typst", "ctypes"): "glibc's malloc_trim after each chunk of a long PDF: only when one is made",
    ("attn_tutor.cli.options", "attn_tutor.render.terminal"): "drawing an error: --help and --version start without the renderer and its blocks",
    ("attn_tutor.solve.jsonout", "json"): "only solve --format json writes JSON: the terminal's solve starts without it",
    ("attn_tutor.sessions.postgres", "psycopg"): "the PostgreSQL driver: only a session on PostgreSQL (a SQLite session starts without it)",
    ("attn_tutor.sessions.lti", "psycopg"): "the PostgreSQL driver: only an LTI tool's store on PostgreSQL",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "assets" not in p.parts}


def imports(path: Path):
    """(imported module, imported name or None, inside a function?, line) for every import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner.update(id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, id(node) in inner, node.lineno
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: a relative import"
            for alias in node.names:
                yield node.module, alias.name, id(node) in inner, node.lineno


def target(module: str, name: str | None) -> str:
    """The attn_tutor module an import reads: ``from attn_tutor.solve import engine`` reads the module."""
    full = f"{module}.{name}" if name else module
    return full if full in MODULES else module


def package_of(module: str) -> str | None:
    """The package whose level a module stands on: a kind's module, its job's (KIND_JOBS)."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] == "kinds":
        return KIND_JOBS[parts[3]] if len(parts) == 4 else "core"
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LEVEL) else None


def edges():
    for module, path in MODULES.items():
        for imported, name, inside, line in imports(path):
            if imported.split(".")[0] == "attn_tutor":
                yield module, target(imported, name), name, inside, f"{module}:{line}"


def test_every_module_is_read():
    assert {"attn_tutor.core.model", "attn_tutor.marking.marker", "attn_tutor.cli.app"} <= set(MODULES)
    assert len(list(edges())) > 200


def test_every_package_is_in_the_order_and_says_what_it_may_use():
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")} - {"kinds"}
    assert packages == set(LEVEL)
    jobs = {p.stem for p in PACKAGE.glob("kinds/*/*.py")} - {"__init__"}
    assert jobs <= set(KIND_JOBS), jobs - set(KIND_JOBS)
    for package in packages:
        doc = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "May import" in doc, package


def test_imports_point_down_and_never_across_a_level():
    wrong = []
    for module, imported, _name, _inside, where in edges():
        mine, theirs = package_of(module), package_of(imported)
        if mine is None or theirs is None or mine == theirs:
            continue
        if LEVEL[theirs] >= LEVEL[mine]:
            wrong.append(f"{where}: {module} imports {imported} ({theirs} is not below {mine})")
    assert not wrong, "\n".join(wrong)


def test_no_circle_between_modules():
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, imported, _name, _inside, _where in edges():
        if imported in graph and imported != module and not MODULES[module].name == "__init__.py":
            graph[module].add(imported)
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                pytest.fail("an import circle: " + " -> ".join(path[path.index(nxt) :] + [nxt]))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_no_private_name_is_imported_from_another_module():
    wrong = [
        f"{where}: {name} from {imported}"
        for module, imported, name, _inside, where in edges()
        if name and name.startswith("_") and not name.startswith("__") and imported != module
    ]
    assert not wrong, "\n".join(wrong)


def test_imports_inside_functions_only_for_the_heavy_libraries():
    wrong = []
    for module, path in MODULES.items():
        for imported, name, inside, line in imports(path):
            if not inside or imported.split(".")[0] in LAZY:
                continue
            full = f"{imported}.{name}" if name else imported
            if (module, full) not in LAZY_ALLOWED and (module, imported) not in LAZY_ALLOWED:
                wrong.append(f"{module}:{line}: {full}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "source, broken, rule",
    [
        ("from attn_tutor.cli.app import main\n", "core", "test_imports_point_down_and_never_across_a_level"),
        ("from attn_tutor.export import moodle\n", "practice", "test_imports_point_down_and_never_across_a_level"),
        ("from attn_tutor.solve.engine import _EXP_LIMIT\n", "marking", "test_no_private_name_is_imported_from_another_module"),
        ("def f():\n    from attn_tutor.core import model\n", "solve", "test_imports_inside_functions_only_for_the_heavy_libraries"),
        ("import attn_tutor\n", "solve", "test_no_module_reaches_the_package_by_its_top_name"),
        ("import importlib\nimportlib.import_module('attn_tutor.cli.app')\n", "solve", "test_only_the_command_table_imports_by_name"),
    ],
)
def test_each_rule_catches_a_bad_import(tmp_path, monkeypatch, source, broken, rule):
    """The checks can fail: a probe module breaking one rule makes that rule's test fail."""
    probe = PACKAGE / broken / "zz_bad_import_probe.py"
    written = tmp_path / "probe.py"
    written.write_text(source, encoding="utf-8")
    monkeypatch.setitem(MODULES, module_name(probe), written)
    with pytest.raises(AssertionError):
        globals()[rule]()


def test_the_package_top_holds_only_its_entry_points():
    """Every module is in a package of the order (a flat attn_tutor/x.py would escape the rules)."""
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py"]


def test_no_module_reaches_the_package_by_its_top_name():
    """``import attn_tutor`` and then ``attn_tutor.x.y`` would hide an edge; only the version is read so."""
    wrong = [
        f"{where}: {imported}"
        for module, imported, name, _inside, where in edges()
        if imported == "attn_tutor" and name != "__version__" and module != "attn_tutor.__main__"
    ]
    assert not wrong, "\n".join(wrong)


def test_only_the_command_table_imports_by_name():
    """``importlib.import_module`` hides an edge from this test: only cli/app.py's table may use it."""
    wrong = []
    for module, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if module != "attn_tutor.cli.app" and ("import_module(" in text or "__import__(" in text):
            wrong.append(module)
    assert not wrong, wrong


def test_the_command_table_names_cli_modules_only():
    from attn_tutor.cli.app import COMMANDS

    for name, (module, function) in COMMANDS.items():
        assert f"attn_tutor.cli.{module}" in MODULES, name
        assert f"def {function}(" in MODULES[f"attn_tutor.cli.{module}"].read_text(encoding="utf-8"), name


def test_no_stray_pip_output_at_the_root():
    """`pip install pkg>=1.0` unquoted writes a file named `=1.0`; .gitignore keeps such files out."""
    root = PACKAGE.parent
    assert not [p.name for p in root.iterdir() if p.name.startswith("=")]
    assert "/=*" in (root / ".gitignore").read_text(encoding="utf-8").splitlines()
