"""A non-editable install ships every subpackage, the packaged problem sets, the page's assets, the pages' templates and the compiled catalogues."""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile

from helpers.language import in_language
from helpers.paths import ROOT

from attn_tutor.core.i18n import text


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


def copy_of_the_source(tmp_path):
    """What a build reads, copied: the build writes nothing into the checkout, and no .mo of an editable install rides along."""
    source = tmp_path / "source"
    for name in ("attn_tutor", "problems"):
        shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    return source


def test_the_wheel_carries_the_compiled_catalogues_and_speaks_korean(tmp_path):
    """`pip install .` builds a wheel whose .mo files setup.py compiled from the .po files: an install of it speaks Korean."""
    source = copy_of_the_source(tmp_path)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "dist").glob("attn_tutor-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in ("en", "ko"):
        assert f"attn_tutor/locale/{lang}/LC_MESSAGES/attn_tutor.mo" in names
    assert {"attn_tutor/locale/attn_tutor.pot", "attn_tutor/locale/ko/LC_MESSAGES/attn_tutor.po"} <= names
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)], capture_output=True, text=True, timeout=600
    )
    assert installed.returncode == 0, installed.stderr
    env = {**os.environ, "PYTHONPATH": str(site), "COLUMNS": "80", "NO_COLOR": "1"}
    env.pop("ATTN_TUTOR_LANG", None)
    where = subprocess.run([sys.executable, "-c", "import attn_tutor; print(attn_tutor.__file__)"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert where.stdout.startswith(str(site)), where.stdout + where.stderr
    spoken = subprocess.run([sys.executable, "-m", "attn_tutor", "solve", "--lang", "ko"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert spoken.returncode == 0, spoken.stderr
    assert f"\n{in_language('ko', text, 'solve.given')}\n" in spoken.stdout and in_language("ko", text, "solve.given") == "주어진 값"


def test_an_editable_install_compiles_the_catalogues_beside_the_po_files(tmp_path):
    """`pip install -e .` reads the package from the checkout: setup.py writes the .mo files there (git ignores them)."""
    source = copy_of_the_source(tmp_path)
    # --ignore-installed: else pip, installing into another --prefix, uninstalls the attn-tutor these tests run
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--ignore-installed", "--prefix", str(tmp_path / "prefix"), "-e", str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    assert sorted(p.relative_to(source).as_posix() for p in source.rglob("*.mo")) == [
        "attn_tutor/locale/en/LC_MESSAGES/attn_tutor.mo",
        "attn_tutor/locale/ko/LC_MESSAGES/attn_tutor.mo",
    ]
    [site] = (tmp_path / "prefix").glob("lib/python*/site-packages")
    # -S: no site-packages but the editable install's own (its .pth hooks the checkout in)
    code = f"import site; site.addsitedir({str(site)!r}); from attn_tutor.core import i18n; print(i18n.__file__); i18n.set_language('ko'); print(i18n.t('solve.given'))"
    spoken = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert spoken.returncode == 0, spoken.stderr
    assert spoken.stdout.splitlines() == [str(source / "attn_tutor" / "core" / "i18n.py"), "주어진 값"]
    assert "*.mo" in (ROOT / ".gitignore").read_text(encoding="utf-8")


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
