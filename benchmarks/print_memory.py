"""Peak memory and time of ``attn-tutor export -f pdf --variants N``, per variant.

For each N (default 10, 30, 100, 200) it runs ``python -m attn_tutor export -f pdf
--variants N --seed 1 --lang ko`` in a fresh process, ``--rounds`` times, alternating the
sizes (and, with ``--baseline SRC``, alternating with the same command run on another
source tree, e.g. ``git archive main | tar -x -C /tmp/base``, in the same loop), and prints
the median peak memory, wall time, CPU time and PDF size, and those divided by N.

CPU time is the process tree's (user and system, the command's and every descendant's it
waited for, as ``wait4`` reports them): unlike wall time it hardly changes with the
machine's load, so it is the figure to compare between trees and sizes on a busy machine.

Peak memory is of the whole process tree: the command's resident set plus its
descendants', sampled every 10 ms from /proc, and never less than the high-water mark the
kernel reports for the process when it ends (``wait4``). Linux only. A benchmark, not a test.

    python benchmarks/print_memory.py [--sizes 10,30,100,200] [--rounds 3] [--part questions|with_answers|key]
                                      [--lang ko|en] [--baseline SRC]
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

PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from /proc/PID/task/*/children."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    todo += [int(child) for child in handle.read().split()]
            except OSError:
                pass
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def run(command: list[str], env: dict[str, str], cwd: str) -> tuple[float, int, float]:
    """(wall seconds, peak bytes of the process tree, CPU seconds of the tree) of one run of ``command``."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while True:
        done, status, usage = os.wait4(process.pid, os.WNOHANG)
        if done:
            break
        peak = max(peak, sum(_rss(pid) for pid in _tree(process.pid)))
        time.sleep(0.01)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{error}")
    return wall, max(peak, usage.ru_maxrss * 1024), usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,30,100,200")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--part", choices=("questions", "with_answers", "key"), default="questions")
    parser.add_argument("--lang", choices=("ko", "en"), default="ko")
    parser.add_argument("--baseline", type=Path, help="another source tree to run alternately (its attn_tutor/ on PYTHONPATH)")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    trees = {"this": None}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    part = {"questions": [], "with_answers": ["--answers"], "key": ["--key-only"]}[args.part]
    results: dict[tuple[str, int], list[tuple[float, int, int, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for n in sizes:
                for name, src in trees.items():
                    env = dict(os.environ, ATTN_TUTOR_LANG=args.lang)
                    if src is not None:
                        env["PYTHONPATH"] = str(src)
                    out = Path(tmp) / f"{name}-{n}.pdf"
                    command = [sys.executable, "-m", "attn_tutor", "export", "-f", "pdf", "--variants", str(n), "--seed", "1"]
                    command += ["--lang", args.lang, "-o", str(out), "--force", *part]
                    wall, peak, cpu = run(command, env, tmp)  # not from a checkout: -m would import its attn_tutor first
                    size = out.stat().st_size
                    results.setdefault((name, n), []).append((wall, peak, size, cpu))
                    print(f"round {round_ + 1} {name:>8} N={n:<4} {wall:7.2f} s  {cpu:7.2f} s CPU  {peak / 2**20:8.1f} MiB  "
                          f"{size / 2**20:7.2f} MiB PDF", flush=True)
    load = os.getloadavg()[0]
    print(f"\nmedians of {args.rounds} rounds ({args.part}, {args.lang}; load average {load:.2f}):")
    print(f"{'tree':>8} {'N':>5} {'time s':>8} {'s/variant':>10} {'CPU s':>8} {'CPU s/variant':>14} {'peak MiB':>9} {'MiB/variant':>12} "
          f"{'PDF MiB':>8} {'KiB/variant':>12}")
    for (name, n), runs in sorted(results.items(), key=lambda item: (item[0][1], item[0][0])):
        wall = statistics.median(r[0] for r in runs)
        peak = statistics.median(r[1] for r in runs) / 2**20
        size = statistics.median(r[2] for r in runs)
        cpu = statistics.median(r[3] for r in runs)
        print(f"{name:>8} {n:>5} {wall:8.2f} {wall / n:10.3f} {cpu:8.2f} {cpu / n:14.3f} {peak:9.1f} {peak / n:12.2f} "
              f"{size / 2**20:8.2f} {size / 1024 / n:12.1f}")
    if args.baseline is not None:
        print("\nthis ÷ baseline:")
        for n in sizes:
            mine, base = results[("this", n)], results[("baseline", n)]
            ratio = [statistics.median(r[i] for r in mine) / statistics.median(r[i] for r in base) for i in range(4)]
            print(f"  N={n:<4} time {ratio[0]:.2f}  CPU {ratio[3]:.2f}  peak memory {ratio[1]:.2f}  PDF size {ratio[2]:.2f}")


if __name__ == "__main__":
    main()
