"""How often the sampling generator draws again, and how quickly it makes problems and variants.

For each problem of a set (default: the tests' Ch14-style problems, tests/fixtures/sampling/ch14-like.yaml),
each step's logits (and the draw) drawn 1,000 times from the variant's grid, and how many of them
each part of the rule refuses (kinds/sampling/generate.py: step_verdict, "like its source" checked
first), then the seconds for 200 variants; and for random problems, 1,000 attempts of
``random_problem`` and what refuses them (random_verdict). A benchmark, not a test.

    python benchmarks/sampling_variants.py [SET.yaml] [--draws 1000]
"""

from __future__ import annotations

import argparse
import collections
import time
from pathlib import Path

from attn_tutor.kinds.sampling import generate as sampling
from attn_tutor.problems.load import load_path
from attn_tutor.variants.generate import variant
from attn_tutor.variants.stream import Stream

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sampling" / "ch14-like.yaml"


def shown(counts: collections.Counter, draws: int) -> str:
    refused = draws - counts.pop("fair", 0)
    parts = ", ".join(f"{reason} {n}" for reason, n in counts.most_common())
    return f"refused {refused}/{draws}" + (f" ({parts})" if parts else "")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("set", nargs="?", default=str(DEFAULT))
    parser.add_argument("--draws", type=int, default=1000)
    args = parser.parse_args()
    problem_set = load_path(args.set)
    for problem in problem_set.problems:
        if problem.kind != "sampling":
            continue
        source = sampling.facts(problem)  # type: ignore[arg-type]
        for index in range(len(problem.steps)):
            counts: collections.Counter = collections.Counter()
            for attempt in range(args.draws):
                stream = Stream("benchmark", problem.id, index, attempt)
                drawn = problem._replace(draw=sampling.draw_u(stream, source.draw_places) if source.draw_places else None)
                logits = sampling.draw_logits(stream, len(problem.tokens), source.grid)
                counts[sampling.step_verdict(drawn, logits, index, source) or "fair"] += 1  # type: ignore[arg-type]
            print(f"{problem.id} step {index + 1}: {shown(counts, args.draws)}")
        start = time.perf_counter()
        for seed in range(1, 201):
            variant(problem, seed)
        print(f"    200 variants in {time.perf_counter() - start:.3f} s")
    counts = collections.Counter()
    for attempt in range(args.draws):
        made = sampling.random_draw(attempt, None, "r", 0)
        counts[sampling.random_verdict(made) or "fair"] += 1
    print(f"random problems: {shown(counts, args.draws)}")
    start = time.perf_counter()
    for seed in range(1000):
        sampling.random_problem(seed)
    print(f"    1000 random problems in {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
