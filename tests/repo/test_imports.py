"""Start-up: the cheap paths must not import the heavy libraries."""

from __future__ import annotations

import pytest
from helpers.startup import imported_by


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["solve", "--help"], ["validate", "--help"]])
def test_cheap_paths_import_neither_numpy_nor_yaml(args):
    heavy = imported_by(*args)
    assert "numpy" not in heavy
    assert "yaml" not in heavy


def test_version_imports_no_rich_either():
    assert imported_by("--version") == []


@pytest.mark.parametrize("args", [["solve"], ["export", "-f", "html"], ["export", "--help"]])
def test_only_a_pdf_imports_typst(args):
    assert "typst" not in imported_by(*args)


def test_solve_does_import_numpy_and_yaml():
    """The probe itself works: a real solve pulls in what it needs."""
    heavy = imported_by("solve", "--format", "json")
    assert "numpy" in heavy and "yaml" in heavy
