"""The start-up probe: which modules a command line imports, run in a fresh interpreter.

:func:`modules_after` runs ``attn-tutor ARGS`` in a new Python and returns every module it has
imported by the end; :func:`imported_by` names the heavy libraries among them.
"""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
sys.argv = ["attn-tutor", *{args!r}]
from attn_tutor.cli.app import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES=" + " ".join(sorted(sys.modules)) + "\\n")
"""

HEAVY = ("numpy", "yaml", "rich", "typst", "lxml", "jinja2")


def modules_after(*args: str, env: dict[str, str]) -> set[str]:
    """The modules a fresh interpreter (environment ``env`` alone) has imported once ``attn-tutor ARGS`` is done."""
    result = subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))], capture_output=True, text=True, env=env, timeout=60)
    line = [part for part in result.stderr.splitlines() if part.startswith("MODULES=")][-1]
    return set(line.removeprefix("MODULES=").split())


def imported_by(*args: str) -> list[str]:
    """The heavy libraries (HEAVY) that ``attn-tutor ARGS`` imports, sorted."""
    modules = modules_after(*args, env={"NO_COLOR": "1", "COLUMNS": "100", "PATH": "/usr/bin:/bin"})
    return sorted(m for m in HEAVY if m in modules)
