"""Typer and Click only through their public names (issue 34, item 5).

Typer vendors Click as the private ``typer._click``, which it may change in any release; the
package reads neither that nor any other ``_private`` module or name of typer or click, in an
import or as an attribute (``typer._click``). Read from every module's syntax tree.
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers.paths import PACKAGE

LIBRARIES = ("typer", "click")


def _private(dotted: str) -> bool:
    parts = dotted.split(".")
    return parts[0] in LIBRARIES and any(part.startswith("_") and not part.startswith("__") for part in parts[1:])


def private_uses(path: Path) -> list[str]:
    """Each import of, or attribute reached through, a private part of typer or click."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {}  # a local name -> the library module it stands for (import typer as t)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    names[alias.name.split(".")[0]] = alias.name.split(".")[0]
                if _private(alias.name):
                    found.append(f"{path.name}:{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if _private(node.module) or (node.module.split(".")[0] in LIBRARIES and _private(f"{node.module}.{alias.name}")):
                    found.append(f"{path.name}:{node.lineno}: from {node.module} import {alias.name}")
                elif node.module.split(".")[0] in LIBRARIES:
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts = [node.attr]
            inner = node.value
            while isinstance(inner, ast.Attribute):
                parts.append(inner.attr)
                inner = inner.value
            if isinstance(inner, ast.Name) and inner.id in names:
                dotted = ".".join([names[inner.id], *reversed(parts)])
                if _private(dotted):
                    found.append(f"{path.name}:{node.lineno}: {dotted}")
    return found


def test_no_private_typer_or_click_is_used():
    wrong = [use for path in sorted(PACKAGE.rglob("*.py")) for use in private_uses(path)]
    assert not wrong, "\n".join(wrong)


def test_the_check_catches_each_way_in(tmp_path):
    probe = tmp_path / "probe.py"
    for source in (
        "import typer\nclick = typer._click\n",
        "import typer as t\nt._click.exceptions.UsageError\n",
        "from typer._click import exceptions\n",
        "from typer import _click\n",
        "import typer._click.types\n",
        "from typer.core import _split_opt\n",
        "import click\nclick._compat\n",
    ):
        probe.write_text(source, encoding="utf-8")
        assert private_uses(probe), source
    probe.write_text("import typer\nfrom typer.core import TyperCommand\ntyper.models.TyperPath\ntyper.BadParameter.__mro__\n", encoding="utf-8")
    assert not private_uses(probe)
