"""The outside tools' markers: a missing tool skips its tests here and fails them under CI=true.

Each outside tool has one marker (tests/helpers/tools.py), registered in pyproject. Where
the tool is missing its tests skip with a sentence saying what to install; when the
environment says ``CI=true`` they fail with that sentence instead, so CI, where ``.ci/run``
installs every one (playwright through the test extra, pointed at Debian's chromium: never
`playwright install`), cannot pass by skipping the real-terminal, real-browser, PDF and
XeLaTeX checks.
"""

from __future__ import annotations

import tomllib

import pytest
from helpers import tools
from helpers.paths import ROOT, TESTS


def registered_markers() -> dict[str, str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lines = config["tool"]["pytest"]["ini_options"]["markers"]
    return dict(line.split(":", 1) for line in lines)


def test_every_tool_has_a_registered_marker_and_every_marker_a_tool():
    assert set(registered_markers()) == set(tools.TOOLS)


def test_every_tool_says_how_to_install_what_it_needs():
    for tool in tools.TOOLS.values():
        assert tool.needs and all(need.name and need.install for need in tool.needs), tool.marker


@pytest.mark.parametrize(("value", "ci"), [("true", True), ("1", True), ("yes", True), ("", False), ("false", False), ("0", False)])
def test_ci_is_what_ci_services_set(monkeypatch, value, ci):
    monkeypatch.setenv("CI", value)
    assert tools.in_ci() is ci
    monkeypatch.delenv("CI")
    assert tools.in_ci() is False


@pytest.fixture
def no_tmux(monkeypatch):
    """A machine without tmux: the PATH lookup finds nothing by that name."""
    real = tools.shutil.which
    monkeypatch.setattr(tools.shutil, "which", lambda name, *args, **kwargs: None if name == "tmux" else real(name, *args, **kwargs))


def test_a_missing_tool_skips_with_what_to_install(monkeypatch, no_tmux):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        tools.require("tmux")
    assert "tmux is missing (install the Debian package tmux)" in str(skipped.value)


def test_under_ci_a_missing_tool_fails_naming_it_and_its_debian_package(monkeypatch, no_tmux):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception) as failed:
        tools.require("tmux")
    assert str(failed.value) == "CI=true, so the tmux tests must run, not skip: tmux is missing (install the Debian package tmux)."


def test_a_tool_that_is_there_neither_skips_nor_fails(monkeypatch):
    monkeypatch.setattr(tools, "TOOLS", {"here": tools.Tool("here", "always", (tools.Need("a", lambda: True, "nothing"),))})
    monkeypatch.setenv("CI", "true")
    tools.require("here")


MARKED = """
import pytest

@pytest.mark.tmux
def test_needs_tmux():
    pass

def test_needs_nothing():
    pass
"""


@pytest.mark.parametrize(("ci", "outcome"), [(None, {"passed": 1, "skipped": 1}), ("true", {"passed": 1, "errors": 1})])
def test_a_marked_test_is_skipped_or_in_ci_fails_the_run(pytester, monkeypatch, ci, outcome):
    """The whole chain, in a pytest of its own: the marker, tests/conftest.py's set-up hook, a PATH without tmux."""
    pytester.makeini(f"[pytest]\npythonpath = {TESTS}\nmarkers =\n    tmux: a real terminal\n")
    pytester.makepyfile(test_marked=MARKED)
    monkeypatch.setenv("PATH", str(pytester.path))  # no tmux on it
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    result = pytester.runpytest_subprocess("-p", "conftest", "-p", "no:cacheprovider", "-rs")  # tests/conftest.py, as a plugin
    result.assert_outcomes(**outcome)
    assert result.ret == (pytest.ExitCode.OK if ci is None else pytest.ExitCode.TESTS_FAILED)
    result.stdout.fnmatch_lines(["*tmux is missing (install the Debian package tmux)*"])


@pytest.mark.skipif(not tools.in_ci(), reason="only CI promises every outside tool")
@pytest.mark.parametrize("marker", sorted(tools.TOOLS))
def test_ci_has_every_outside_tool(marker):
    """In CI every tool is there, whether or not a test that needs it was selected."""
    assert not tools.missing(marker), tools.explain(tools.missing(marker))
