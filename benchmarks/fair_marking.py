"""The fair-marking simulation of issue 18, bigger than the test: seeded random problems at
decimals 1–4 and simulated students (tests/helpers/fair_students.py).

Prints how many correct answers (worked as asked, rounded half up at every stage) were
marked down — the goal is none — and, of the early roundings that change the numbers,
the share diagnosed ``rounding`` (goal >= 0.9), with the most common misses. Not a test.

    python benchmarks/fair_marking.py [--problems 200] [--seed 18]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the helpers package

from helpers import fair_students  # noqa: E402

from attn_tutor.marking import marker as grading  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=200)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    start = time.perf_counter()
    tally = fair_students.simulate(fair_students.random_problems(args.seed, args.problems), grading.Marker(follow_through="none"))
    took = time.perf_counter() - start
    print(f"{args.problems} problems x decimals 1-4 (seed {args.seed}), {took:.0f} s")
    print(f"correct answers: {tally.correct_items}, marked down: {len(tally.marked_down)}")
    print(f"early roundings that change the numbers: {tally.changed}, diagnosed rounding: {tally.diagnosed} ({tally.rate:.4f})")
    for (kind, stage, diagnosis), count in sorted(tally.missed.items(), key=lambda pair: -pair[1])[:8]:
        print(f"  missed {count}: {kind} rounded early in {stage}, diagnosed {diagnosis}")
    for problem, row, mode, item in tally.marked_down[:5]:
        print(f"  marked down: {problem.id} decimals {problem.decimals} row {row} {mode} {item.stage} {item.given}")


if __name__ == "__main__":
    main()
