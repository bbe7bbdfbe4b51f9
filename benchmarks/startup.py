"""Start-up cost of `attn-tutor solve` against the libraries it cannot avoid.

Times, in alternation, `attn-tutor solve` on the packaged set and
`python -c "import numpy, yaml, rich.table"`, and prints the median of each and
their ratio (the bar: at most 1.3). Also times `--help` and `--version` against a
bare `python -c pass`. A benchmark, not a test: run it on a quiet machine.

    python benchmarks/startup.py [--rounds 30]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def script() -> str:
    found = Path(sys.executable).with_name("attn-tutor")
    return str(found) if found.exists() else shutil.which("attn-tutor") or "attn-tutor"


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - start


def compare(label: str, ours: list[str], baseline: list[str], rounds: int, env: dict[str, str]) -> float:
    timed(ours, env), timed(baseline, env)  # warm the file cache
    a, b = [], []
    for _ in range(rounds):
        a.append(timed(ours, env))
        b.append(timed(baseline, env))
    ratio = statistics.median(x / y for x, y in zip(a, b))
    print(
        f"{label:<28} ours {statistics.median(a) * 1000:7.1f} ms   "
        f"baseline {statistics.median(b) * 1000:7.1f} ms   median ratio {ratio:.2f}"
    )
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    exe = script()
    py = sys.executable
    compare("solve vs import numpy,yaml,rich", [exe, "solve"], [py, "-c", "import numpy, yaml, rich.table"], rounds, env)
    compare("solve --format json", [exe, "solve", "--format", "json"], [py, "-c", "import numpy, yaml, rich.table"], rounds, env)
    compare("--help vs python -c pass", [exe, "--help"], [py, "-c", "pass"], rounds, env)
    compare("--version vs python -c pass", [exe, "--version"], [py, "-c", "pass"], rounds, env)


if __name__ == "__main__":
    main()
