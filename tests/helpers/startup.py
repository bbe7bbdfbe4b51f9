"""The start-up probe: which heavy libraries a command line imports, run in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import sys, json
sys.argv = ["attn-tutor", *{args!r}]
from attn_tutor.cli.app import main
try:
    main()
except SystemExit:
    pass
heavy = sorted(m for m in ("numpy", "yaml", "rich", "typst", "lxml", "jinja2") if m in sys.modules)
sys.stderr.write("\\nIMPORTED=" + json.dumps(heavy) + "\\n")
"""


def imported_by(*args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=list(args))],
        capture_output=True,
        text=True,
        env={"NO_COLOR": "1", "COLUMNS": "100", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    line = [part for part in result.stderr.splitlines() if part.startswith("IMPORTED=")][-1]
    return json.loads(line.removeprefix("IMPORTED="))
