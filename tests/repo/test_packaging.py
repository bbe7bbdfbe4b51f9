"""A non-editable install ships every subpackage, the packaged problem sets and the page's assets."""

from __future__ import annotations

import os
import tomllib

from helpers.paths import ROOT


def test_pyproject_finds_every_subpackage_by_itself():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert list(config["packages"]) == ["find"], "pyproject lists packages by hand: let packages.find find them"
    from setuptools import find_packages  # what the build backend runs (a build requirement)

    shipped = set(find_packages(where=str(ROOT), include=config["packages"]["find"]["include"]))
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "attn_tutor").rglob("__init__.py")
        if "__pycache__" not in path.parts
    }
    assert found and found <= shipped
    assert not {name for name in shipped if not name.startswith("attn_tutor")}


def test_the_packaged_sets_are_the_top_level_problems_folder():
    link = ROOT / "attn_tutor" / "sets"
    assert link.is_symlink() and os.readlink(link) == "../problems"
    assert (link / "ch13.yaml").read_bytes() == (ROOT / "problems" / "ch13.yaml").read_bytes()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert data["attn_tutor.sets"] == ["*.yaml"]
    assert set(data["attn_tutor.practice"]) == {"assets/*.js", "assets/*.css"}
