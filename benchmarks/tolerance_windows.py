"""The widest default window per stage at decimals 1-4 (issue 35, rule 3), and how far correct
work that rounds as asked actually lands: seeded random problems without a tolerance of their
own (tests/helpers/fair_students.py), each at decimals 1, 2, 3 and 4. Not a test.

    python benchmarks/tolerance_windows.py [--problems 200] [--seed 35]

For each decimals and stage it prints the widest default tolerance over the problems (the
window is the exact value ± it), and the widest distance from the exact value that work
rounded half up as asked reaches (from the exact values, from the student's own rounded
carried values, and from the previous stage as displayed): the window holds every such value,
and is at most half a displayed unit wider than it where no intermediate rounding adds more.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the helpers package

import numpy as np  # noqa: E402
from helpers import fair_students  # noqa: E402

from attn_tutor.core.rounding import rounded  # noqa: E402
from attn_tutor.marking import marker as grading  # noqa: E402
from attn_tutor.solve import engine  # noqa: E402


def reached(solution, decimals: int) -> dict[str, float]:
    """Per stage: the farthest a value of correct work rounded as asked lands from the exact one."""
    problem = solution.problem
    far = dict.fromkeys(problem.stages, 0.0)
    half_up = np.vectorize(lambda v: rounded(v, decimals))
    for row in range(len(problem.tokens)):
        for shown in (False, True):
            carried = None
            for stage in problem.stages:
                exact = solution.stage_row(stage, row)
                made = exact if carried is None else grading.carry_forward(solution, row, stage, carried)
                typed = np.nan_to_num(half_up(made))
                marked = grading.marked_cells(solution, row, stage)
                far[stage] = max(far[stage], float(np.max(np.abs(typed - exact)[marked])))
                carried = np.nan_to_num(half_up(exact)) if shown else typed
    return far


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=200)
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    widest: dict[tuple[int, str], float] = {}
    reach: dict[tuple[int, str], float] = {}
    for problem in fair_students.random_problems(args.seed, args.problems):
        problem = problem._replace(tolerance=None)
        solution = engine.solve(problem)
        d = problem.decimals
        for stage, far in reached(solution, d).items():
            widest[d, stage] = max(widest.get((d, stage), 0.0), grading.stage_tolerance(problem, stage))
            reach[d, stage] = max(reach.get((d, stage), 0.0), far)
    print(f"{args.problems} problems x decimals 1-4 (seed {args.seed}): widest default tolerance (reached by correct work)")
    print("decimals  " + "".join(f"{stage:>22}" for stage in ("scores", "scaled", "weights", "output")))
    for d in (1, 2, 3, 4):
        cells = "".join(f"{widest.get((d, s), 0.0):>11.5f} ({reach.get((d, s), 0.0):.5f})" for s in ("scores", "scaled", "weights", "output"))
        print(f"{d:>8}  {cells}")


if __name__ == "__main__":
    main()
