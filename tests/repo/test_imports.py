"""Start-up: the cheap paths must not import the heavy libraries."""

from __future__ import annotations

import pytest
from helpers.paths import CLASS, SET
from helpers.startup import imported_by, modules_after


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["solve", "--help"], ["validate", "--help"]])
def test_cheap_paths_import_neither_numpy_nor_yaml_nor_jinja2(args):
    heavy = imported_by(*args)
    assert "numpy" not in heavy
    assert "yaml" not in heavy
    assert "jinja2" not in heavy


GRADE = ["grade", str(CLASS), "--problems", str(SET)]  # the gradebook CSV only: no page


@pytest.mark.parametrize("args", [["solve"], ["solve", "--format", "json"], ["export", "-f", "md"], ["grade", "--help"], GRADE])
def test_only_a_page_imports_jinja2(args):
    """The templates (render/templating.py) load Jinja2 when the first page is made, not before."""
    assert "jinja2" not in imported_by(*args)


def test_a_page_does_import_jinja2():
    """The probe sees Jinja2 when a page is made: export -f html is the document template."""
    assert "jinja2" in imported_by("export", "-f", "html")


def test_version_imports_no_rich_either():
    assert imported_by("--version") == []


@pytest.mark.parametrize("args", [["solve"], ["export", "-f", "html"], ["export", "--help"]])
def test_only_a_pdf_imports_typst(args):
    assert "typst" not in imported_by(*args)


def test_solve_does_import_numpy_and_yaml():
    """The probe itself works: a real solve pulls in what it needs."""
    heavy = imported_by("solve", "--format", "json")
    assert "numpy" in heavy and "yaml" in heavy


def probed(args: list[str]) -> set[str]:
    """The modules a fresh interpreter has imported once ``attn-tutor ARGS`` is done (helpers/startup.py)."""
    return modules_after(*args, env={"COLUMNS": "100", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["solve", "--help"], ["grade", "--help", "--lang", "ko"], ["solve", "--problme"]]
)
def test_help_version_and_usage_errors_import_no_markdown_highlighter_numpy_or_yaml(args):
    """Our own help formatter: neither rich (its Markdown, markdown_it, pygments) nor numpy or yaml."""
    modules = probed(args)
    heavy = {"rich", "rich.markdown", "markdown_it", "pygments", "numpy", "yaml", "jinja2"}
    assert not {m for m in modules if m.split(".")[0] in {h.split(".")[0] for h in heavy}}
    assert "attn_tutor.cli.solve" not in modules or args[0] == "solve"  # the app's help imports no command


SERVER_LIBRARIES = {"starlette", "uvicorn", "segno", "psycopg", "anyio", "h11", "httptools", "uvloop"}


@pytest.mark.parametrize("args", [["--help"], ["solve"], ["solve", "--help"], ["grade", "--help"]])
def test_solve_and_help_import_none_of_the_servers_libraries(args):
    """``serve``'s libraries (issue 20) stay out of every other command's start: solve, --help."""
    modules = {m.split(".")[0] for m in probed(args)}
    assert not modules & SERVER_LIBRARIES, sorted(modules & SERVER_LIBRARIES)
    assert "attn_tutor" in modules  # the probe ran the app


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["--lang", "ko", "--help"], ["--lang", "ko", "solvee"]])
def test_the_apps_help_and_version_import_neither_the_records_nor_the_errors(args):
    """The app's own help, ``--version`` and a mistyped command need typer and the catalogue only:
    not the problem records (core.model: enums and NamedTuples built at import) nor the errors
    (core.errors: a dataclass), which cost the app's ``--help`` a twelfth of its start-up."""
    modules = probed(args)
    assert "attn_tutor.cli.app" in modules  # the probe ran the app
    assert not modules & {"attn_tutor.core.model", "attn_tutor.core.errors", "attn_tutor.cli.options", "dataclasses"}


THREADS_PROBE = """
import os, sys
import attn_tutor.__main__
assert "numpy" not in sys.modules, "numpy was imported before the thread count was set"
import numpy
print(os.environ.get("OPENBLAS_NUM_THREADS"))
"""


@pytest.mark.parametrize(("given", "used"), [(None, "1"), ("4", "4")])
def test_the_command_line_starts_numpy_with_one_blas_thread_unless_told(given, used):
    """OpenBLAS's idle threads cost every start ~0.13 s of CPU for nothing (hand-sized matrices):
    the entry point asks for one before numpy is imported, and a user's own setting wins."""
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"} | ({} if given is None else {"OPENBLAS_NUM_THREADS": given})
    result = subprocess.run([sys.executable, "-c", THREADS_PROBE], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == used
