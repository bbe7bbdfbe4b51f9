"""Peak memory and time of the question banks: ``export -f qti`` and ``export -f moodle``.

Each run is a fresh ``attn-tutor export`` process writing the packaged set's bank with
10, 30 and 100 variants (``--seed 1``); its peak resident memory comes from the
kernel (``wait4``'s ``ru_maxrss``) and its time from the wall clock. The runs
alternate (every format and size once per round, in turn) so that a busy machine
slows them all alike, and each figure is the median over the rounds. As a baseline in
the same alternation, ``attn-tutor solve`` (start-up, loading and solving the set, no
bank) is run too; the table gives each bank's time and memory as a ratio to it.

The issue's target: ``-f qti --variants 30`` at most 100 MiB (it peaked at 297 MiB
when the whole zip was built in memory).

    python benchmarks/bank_memory.py [--rounds 3] [--python PYTHON] [--before PYTHON]

``--python`` runs another interpreter (another checkout's venv, say). ``--before
PYTHON`` runs every case with that interpreter too, alternating with ``--python`` in
each round, and adds the ratios after ÷ before of time and memory. A benchmark, not a
test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = (10, 30, 100)
FORMATS = ("qti", "moodle")


def run(python: str, args: list[str]) -> tuple[float, float, int]:
    """(seconds, peak MiB, bytes written) of one ``attn-tutor`` run."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "bank"
        argv = [python, "-m", "attn_tutor", *[str(out) if a == "{out}" else a for a in args]]
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=folder)
        _pid, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        stderr = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
        process.stderr.close()
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}):\n{stderr}")
        size = out.stat().st_size if out.exists() else 0
    return seconds, usage.ru_maxrss / 1024, size  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--before", default=None, help="another interpreter to alternate with, for after ÷ before")
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    options = parser.parse_args()

    cases = {("solve", 0): ["solve", "--lang", "en"]}
    for fmt in FORMATS:
        for n in options.sizes:
            cases[(fmt, n)] = ["export", "-f", fmt, "--variants", str(n), "--seed", "1", "--lang", "en", "-o", "{out}"]
    pythons = {"after": options.python} if options.before is None else {"before": options.before, "after": options.python}
    results = {(who, key): [] for who in pythons for key in cases}
    for _ in range(options.rounds):
        for key, args in cases.items():
            for who, python in pythons.items():
                results[(who, key)].append(run(python, args))

    def median(who, key, i):
        return statistics.median(r[i] for r in results[(who, key)])

    for who in pythons:
        base_time, base_mem = median(who, ("solve", 0), 0), median(who, ("solve", 0), 1)
        label = "" if len(pythons) == 1 else f"{who}: "
        print(f"{label}baseline `attn-tutor solve`: {base_time:.2f} s, {base_mem:.0f} MiB (medians of {options.rounds})")
        print(f"{'format':8} {'variants':>8} {'seconds':>8} {'÷ solve':>8} {'peak MiB':>9} {'÷ solve':>8} {'file KB':>9}")
        for fmt, n in cases:
            if fmt == "solve":
                continue
            seconds, memory = median(who, (fmt, n), 0), median(who, (fmt, n), 1)
            size = results[(who, (fmt, n))][-1][2] / 1000
            print(f"{fmt:8} {n:8d} {seconds:8.2f} {seconds / base_time:8.2f} {memory:9.0f} {memory / base_mem:8.2f} {size:9.0f}")
    if "before" in pythons:
        print(f"after ÷ before (alternating, medians): {'format':8} {'variants':>8} {'time':>6} {'memory':>7}")
        for fmt, n in cases:
            if fmt != "solve":
                time_ratio = median("after", (fmt, n), 0) / median("before", (fmt, n), 0)
                memory_ratio = median("after", (fmt, n), 1) / median("before", (fmt, n), 1)
                print(f"{'':39}{fmt:8} {n:8d} {time_ratio:6.2f} {memory_ratio:7.2f}")
    if ("qti", 30) in cases:
        peak = median("after", ("qti", 30), 1)
        print(f"target: -f qti --variants 30 at most 100 MiB: {peak:.0f} MiB, {'met' if peak <= 100 else 'NOT met'}")


if __name__ == "__main__":
    main()
