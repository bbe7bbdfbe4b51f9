"""How quickly hostile input is refused, and how quickly the packaged set loads, against the targets.

The tests bound this work in function calls (tests/helpers/work.py), which does not
depend on the machine; the seconds, which the tests once asserted, are measured here:

* every kind of line a student may type that ``parse_row`` refuses (over-long, too deep,
  an exponent or a product too large, nan, division by zero, …): each under 50 ms at worst
  (about 0.05 ms is usual);
* a "billion laughs" problem set (9^9 aliases if expanded): refused in under 1 s, with
  PyYAML's C loader and with the pure-Python one (well under a millisecond with C);
* the packaged ch13 set, loaded: under 0.1 s (a few ms is usual).

Prints the median and the worst of each over the rounds, and whether the worst is within
its target. A benchmark, not a test: run it on a quiet machine.

    python benchmarks/refusals.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import statistics
import time

from attn_tutor.core import yamlread
from attn_tutor.core.errors import InvalidProblemSet
from attn_tutor.marking.answers import MAX_DEPTH, AnswerError, parse_row
from attn_tutor.problems.load import load_problem_set, load_text

REFUSED = [
    "__import__('os')", "9^9^9^9", "1e308*1e308", "2^2000", "e^100", "exp(28)", "nan", "1 -Infinity",
    "1" * 100_000, "(" * 1000 + "1" + ")" * 1000, "(" * 1000, "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1),
    "-" * 500 + "1", "1/0", "sqrt(-1)", "(-8)^(1/3)", "답: 1 6 4", "1 * * 2", "2(3)", "[1, 2)", "sqrt(2, 3)",
]  # fmt: skip


def billion_laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    lines.append(f"problems: *a{levels}")
    return "\n".join(lines) + "\n"


def timed(work, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def refuse(text: str) -> None:
    try:
        parse_row(text)
    except AnswerError:
        return
    raise AssertionError(f"{text[:30]!r} was not refused")


def refuse_set(text: str) -> None:
    try:
        load_text(text, "laughs.yaml")
    except InvalidProblemSet:
        return
    raise AssertionError("the billion laughs loaded")


def show(label: str, times: list[float], target: float) -> None:
    verdict = "ok" if max(times) < target else f"OVER the {target * 1e3:g} ms target"
    print(f"{label:<46} median {statistics.median(times) * 1e3:8.3f} ms   worst {max(times) * 1e3:8.3f} ms   {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    by_text = {text: timed(lambda t=text: refuse(t), rounds) for text in REFUSED}
    slowest = max(by_text, key=lambda text: statistics.median(by_text[text]))
    show(f"refused by parse_row: {slowest[:20]!r}", by_text[slowest], 0.05)
    laughs = billion_laughs()
    for name in ("CSafeLoader", "SafeLoader"):
        import yaml

        loader = getattr(yaml, name, None)
        if loader is None:
            continue
        previous, yamlread.LOADER = yamlread.LOADER, loader
        try:
            show(f"billion laughs refused ({name})", timed(lambda: refuse_set(laughs), rounds), 1.0)
        finally:
            yamlread.LOADER = previous
    load_problem_set(None)
    show("the packaged set loaded", timed(lambda: load_problem_set(None), rounds), 0.1)


if __name__ == "__main__":
    main()
