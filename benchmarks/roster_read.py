"""How much memory and time ``grade --roster`` spends reading a large class list, next to merely
streaming the same file through the csv module.

Writes synthetic Canvas gradebook exports in a temporary directory: a *narrow* one (the
student columns and one assignment, ~60 bytes a student: the worst case for memory per
byte) and a *wide* one (60 assignment columns), each just under the roster cap
(:data:`attn_tutor.core.model.ROSTER_BYTES_MAX`), and one of 300 MB. Then, alternating for a
few rounds, each in a fresh process, it measures

  (a) baseline: ``csv.reader`` over the file, keeping nothing (the least any reader can do);
  (b) ``read_roster`` on it;

and prints the peak resident memory above a bare interpreter's and the time of each, the
median time ratio (b)/(a) and (b)'s memory per megabyte of roster. The 300 MB file is refused by its size before a byte is read:
its figures show the refusal is immediate and takes no memory. The machine's load average
is printed with each round. A benchmark, not a test.

    python benchmarks/roster_read.py [--rounds 3] [--megabytes 19]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BASELINE = """
import csv, sys, time
start = time.perf_counter()
with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
    for row in csv.reader(f):
        pass
print(time.perf_counter() - start)
"""
READ = """
import sys, time
from attn_tutor.classroom.roster_file import read_roster
from attn_tutor.core.errors import AttnTutorError
start = time.perf_counter()
try:
    read_roster(sys.argv[1])
except AttnTutorError:
    pass
print(time.perf_counter() - start)
"""
BARE = "import attn_tutor.classroom.roster_file"


def write_roster(path: Path, size: int, assignments: int) -> None:
    head = ",".join(f"Homework {n} ({4000 + n})" for n in range(assignments))
    with path.open("w", encoding="utf-8") as out:
        out.write(f"Student,ID,SIS User ID,SIS Login ID,Section,{head}\n")
        out.write("    Points Possible,,,,," + ",".join("10.00" for _ in range(assignments)) + "\n")
        written, number = 0, 0
        grades = ",".join(str(n % 11) for n in range(assignments))
        while True:
            line = f'"김, 민지{number}",{1000 + number},2023{number:06d},m{number}@uni.ac.kr,AI-01,{grades}\n'
            written += len(line.encode("utf-8"))
            if written >= size:
                break
            out.write(line)
            number += 1


def measure(code: str, path: Path) -> tuple[float, float]:
    """(seconds, peak resident MB) of ``code`` run on ``path`` in a fresh process."""
    wrapper = (
        "import resource, subprocess, sys\n"
        "out = subprocess.run([sys.executable, '-c', sys.argv[1], sys.argv[2]], capture_output=True, text=True, check=True)\n"
        "print(out.stdout.strip(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", wrapper, code, str(path)], capture_output=True, text=True, check=True)
    seconds, peak = done.stdout.split()
    return float(seconds), float(peak)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--megabytes", type=float, default=19)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        files = {
            "narrow": (Path(work) / "narrow.csv", int(options.megabytes * 1e6), 1),
            "wide": (Path(work) / "wide.csv", int(options.megabytes * 1e6), 60),
            "300 MB": (Path(work) / "huge.csv", 300_000_000, 60),
        }
        for path, size, assignments in files.values():
            write_roster(path, size, assignments)
        _, plain = measure("print(0)", files["narrow"][0])
        _, bare = measure(BARE + "\nprint(0)", files["narrow"][0])
        print(f"bare interpreter: {plain:.0f} MB; with attn_tutor's roster reader imported: {bare:.0f} MB")
        for name, (path, _size, _assignments) in files.items():
            times, memories = [], []
            for round_number in range(options.rounds):
                read_time, read_peak = measure(READ, path)
                load = os.getloadavg()[0]
                if name == "300 MB":  # refused by its size: no baseline to compare with
                    print(f"{name} round {round_number + 1}: refused in {read_time:.4f} s, {read_peak - bare:.0f} MB (load {load:.1f})")
                    continue
                base_time, base_peak = measure(BASELINE, path)
                print(
                    f"{name} ({path.stat().st_size / 1e6:.0f} MB) round {round_number + 1}: csv.reader {base_time:.2f} s "
                    f"{base_peak - plain:.0f} MB; read_roster {read_time:.2f} s {read_peak - bare:.0f} MB (load {load:.1f})"
                )
                times.append(read_time / base_time)
                memories.append((read_peak - bare) / path.stat().st_size * 1e6)
            if times:
                print(
                    f"{name}: median read_roster / csv.reader time {statistics.median(times):.2f}; "
                    f"memory {statistics.median(memories):.1f} MB per MB of roster"
                )

if __name__ == "__main__":
    main()
