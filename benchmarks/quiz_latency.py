"""Time from an answer line to its feedback in `attn-tutor quiz` (target: under 20 ms after start-up).

Drives :func:`attn_tutor.quiz.loop.run` in-process, the way the command does, with a
clock around each answer: from the moment ``read_line`` hands the loop a line to
the end of the last drawing before the loop asks for the next one. That covers
parsing, marking, building the feedback and the next question, and rendering them
into memory, plain and with colour (as in a terminal). Start-up (imports, loading the set) is
not counted. Prints the median, the 95th percentile and the worst, per mode.
A benchmark, not a test.

    python benchmarks/quiz_latency.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time

from attn_tutor.problems.load import load_problem_set
from attn_tutor.quiz import loop as quiz
from attn_tutor.render import terminal

# The chapter's two rows: 먹었다 rounded to two places, 고양이가 with √d forgotten,
# one bad line re-asked and a hint.
LINES = [
    "1 6 4", "0.71 4.24 2.83", "0.02 0.79 0.19", "0.21 0.98",
    "2 2 3", "2, 2", "2 2 3", "?", "e^2/(2*e^2+e^3) e^2/(2*e^2+e^3) e^3/(2*e^2+e^3)", "0.788 0.788",
]  # fmt: skip


def measure(mode: str, rounds: int, colour: bool = False) -> list[float]:
    problem = load_problem_set(None).get("cat-fish")
    plans = quiz.plan([problem]) * rounds
    config = quiz.QuizConfig(plans=plans, problem_set="ch13", mode=mode)
    lines = LINES * rounds
    if colour:
        os.environ["FORCE_COLOR"] = "1"  # rich then paints escape codes as in a terminal
    else:
        os.environ.pop("FORCE_COLOR", None)
        os.environ["NO_COLOR"] = "1"
    out = terminal.console(file=io.StringIO())
    os.environ.pop("NO_COLOR", None)
    times: list[float] = []
    started: list[float | None] = [None]
    last_draw = [0.0]

    def read_line(prompt: str) -> str | None:
        if started[0] is not None:
            times.append(last_draw[0] - started[0])
        if not lines:
            return None
        started[0] = time.perf_counter()
        return lines.pop(0)

    def show(blocks) -> None:
        if isinstance(blocks, str):
            out.print(blocks, markup=False)
        else:
            terminal.draw(blocks, out)
        last_draw[0] = time.perf_counter()

    quiz.run(config, read_line, show)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50, help="how many times to go through the two rows")
    args = parser.parse_args()
    measure("practice", 2), measure("exam", 2)  # warm up: imports, first rich tables
    for mode, colour in (("practice", False), ("practice", True), ("exam", False), ("exam", True)):
        times = sorted(measure(mode, args.rounds, colour))
        ms = [1000 * x for x in times]
        p95 = ms[int(0.95 * (len(ms) - 1))]
        label = f"{mode}, {'colour' if colour else 'plain'}"
        print(
            f"{label:16}  answer line -> feedback: median {statistics.median(ms):.2f} ms, "
            f"p95 {p95:.2f} ms, worst {ms[-1]:.2f} ms over {len(ms)} lines (target < 20 ms)"
        )


if __name__ == "__main__":
    main()
