"""A non-editable install ships every subpackage, the packaged problem sets, the page's assets and the pages' templates."""

from __future__ import annotations

import fnmatch
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
    assert {"assets/*.js", "assets/*.css"} <= set(data["attn_tutor.practice"])


def test_the_hangul_font_ships_as_package_data_with_its_licence_and_every_syllable():
    """`pip install .` carries a Hangul font (so Korean PDFs need no system font) and its OFL beside it."""
    from fontTools.ttLib import TTFont

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert {"fonts/*.otf", "fonts/OFL.txt"} <= set(data["attn_tutor.render"])
    folder = ROOT / "attn_tutor" / "render" / "fonts"
    assert "SIL OPEN FONT LICENSE" in (folder / "OFL.txt").read_text(encoding="utf-8")
    faces = sorted(folder.glob("*.otf"))
    assert [p.name for p in faces] == ["NotoSansCJKkr-Hangul-Bold.otf", "NotoSansCJKkr-Hangul-Regular.otf"]
    for face in faces:
        cmap = TTFont(face).getBestCmap()
        missing = [chr(c) for c in range(0xAC00, 0xD7A4) if c not in cmap]
        assert not missing, f"{face.name} lacks {len(missing)} Hangul syllables, {''.join(missing[:5])}..."
        assert all(ord(ch) in cmap for ch in "0123456789.,-−√·≈ÆéαβΣ→─") and all(c in cmap for c in range(0x3131, 0x318F))


def test_every_template_ships_as_package_data():
    """Each package's Jinja2 templates (``<package>/templates/*.html``, render/templating.py) are package data
    of that package, so a non-editable install (a wheel) carries them."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    templates = sorted((ROOT / "attn_tutor").rglob("templates/*"))
    assert {path.parent.parent.name for path in templates} >= {"live", "practice", "render"}
    for path in templates:
        package = ".".join(path.parent.parent.relative_to(ROOT).parts)
        name = path.relative_to(path.parent.parent).as_posix()
        assert any(fnmatch.fnmatch(name, pattern) for pattern in data.get(package, ())), f"{package}: {name} is not package data"
