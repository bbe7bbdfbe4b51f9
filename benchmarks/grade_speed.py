"""How long grading a class takes next to merely parsing its files (issue 4: at most 2×).

Builds a synthetic class of N YAML answer files (default 10,000) for the packaged
ch13 set — every problem, every asked row and stage — in a temporary directory.
Students make every kind of mistake the marker knows (each drawn from
``grading.Marker.exact_mistakes`` and carried forward, as a student who slips keeps going
with their own numbers), round to 2–4 places, type rows as lists or as text with
fractions, percentages and arithmetic, leave stages blank, and a fifth work on
per-student variants (30 seeds). By default 55% of rows carry a known mistake and
10% random numbers (``--slips``): a harsh class, since every distinct wrong row
costs a real marking while right rows are cheap. Then, alternating for a few rounds, it times

  (a) parse: read every file and ``yaml.load`` it with ``yaml.CSafeLoader``;
  (b) grade: ``gradebook.grade_files`` on the directory — find, read, check, mark
      every student in exam mode — plus the gradebook CSV (as ``grade --csv``);
  (c) the same plus the ``--json`` file of every student's full report;

and prints each round and the median ratios (b)/(a) and (c)/(a). The same files, in the
same process, (a) and (b) alternating so that a busy machine slows both; every grading
run makes its own marker and cell reader (there are no module-level caches), so no
round is helped by the last, as a fresh ``attn-tutor grade`` starts empty too. ``--cli`` also times the
``attn-tutor grade DIR --csv OUT --json OUT`` command in a subprocess (start-up
and terminal summary included). A benchmark, not a test.

    python benchmarks/grade_speed.py [--students 10000] [--rounds 3] [--cli] [--profile]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

from attn_tutor import engine, gradebook, grading
from attn_tutor.generate import variant_set
from attn_tutor.model import STAGES
from attn_tutor.problem_load import load_problem_set

SEEDS = list(range(1000, 1030))
_MARKER = grading.Marker()  # only for building the class


def _cells(values, decimals: int) -> list[float]:
    return [0.0 if not np.isfinite(v) else round(float(v), decimals) for v in values]


def _as_text(values: list[float], rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return " ".join(f"{v:g}" for v in values)
    if style == 1:
        return "(" + ", ".join(f"{v:g}" for v in values) + ")"
    if style == 2:  # percentages, as a student reading weights
        return ", ".join(f"{100 * v:.1f}%" for v in values)
    return " ".join(f"{v * 4:g}/4" for v in values)  # arithmetic


def student_rows(solution, problem, token: str, rng: random.Random, slips: float) -> dict[str, object]:
    """One student's answers to one row: right, or one known mistake carried forward."""
    row = problem.row_index(token)
    stages = [s for s in STAGES if s in problem.stages]
    rows = {s: np.array(solution.stage_row(s, row), dtype=float) for s in stages}
    kind = rng.random()
    if kind < slips:  # a mistake at some stage, then the student's own numbers carried on
        stage = rng.choice(stages)
        mistakes = _MARKER.exact_mistakes(solution, row, stage)
        if mistakes:
            _, made = rng.choice(mistakes)
            rows[stage] = np.array([0.0 if v is None or not np.isfinite(v) else v for v in made])
        else:
            rows[stage] = rows[stage] + rng.choice([-1, 1]) * rng.uniform(0.01, 2.0)
        for later in stages[stages.index(stage) + 1 :]:
            rows[later] = grading.carry_forward(solution, row, later, rows[grading.previous_stage(later)])
    elif kind < slips + 0.1:  # random numbers
        stage = rng.choice(stages)
        rows[stage] = np.array([rng.randint(-5, 9) for _ in rows[stage]], dtype=float)
    decimals = rng.choice([2, 3, 3, 3, 4])
    answers: dict[str, object] = {}
    for stage in problem.asked_stages:
        if rng.random() < 0.05:
            continue  # left blank
        values = _cells(rows[stage], decimals)
        answers[stage] = _as_text(values, rng) if rng.random() < 0.3 else values
    return answers


def build_class(folder: Path, students: int, slips: float, seed: int = 4) -> None:
    rng = random.Random(seed)
    base = load_problem_set("ch13")
    solved: dict = {}
    for index in range(students):
        variant = rng.choice(SEEDS) if rng.random() < 0.2 else None
        if variant not in solved:
            problem_set = base if variant is None else variant_set(base, variant)
            solved[variant] = [(p, engine.solve(p)) for p in problem_set.problems]
        lines = [f"student: 학생{index:05d}", "problem_set: ch13"]
        if variant is not None:
            lines.append(f"variant: {variant}")
        lines.append("answers:")
        for problem, solution in solved[variant]:
            lines.append(f"  {problem.id}:")
            for token in problem.asked_rows:
                lines.append(f"    {token}:")
                for stage, value in student_rows(solution, problem, token, rng, slips).items():
                    text = f'"{value}"' if isinstance(value, str) else "[" + ", ".join(f"{v:g}" for v in value) + "]"
                    lines.append(f"      {stage}: {text}")
        (folder / f"s{index:05d}.yaml").write_text("\n".join(lines) + "\n", "utf-8")


def parse_only(folder: Path) -> int:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    count = 0
    for path in sorted(folder.glob("*.yaml")):
        with open(path, "rb") as stream:
            yaml.load(stream.read(), Loader=loader)
        count += 1
    return count


def grade(folder: Path) -> int:
    """What ``attn-tutor grade DIR --csv OUT`` does, less start-up and the terminal."""
    book = gradebook.grade_files([folder])
    gradebook.gradebook_csv(book)
    return len(book.students)


def grade_with_json(folder: Path) -> int:
    book = gradebook.grade_files([folder])
    gradebook.gradebook_csv(book)
    gradebook.gradebook_json(book)
    return len(book.students)


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--slips", type=float, default=0.55, help="share of rows with a known mistake (another 0.1 have random numbers)"
    )
    parser.add_argument("--cli", action="store_true", help="also time the attn-tutor grade command")
    parser.add_argument("--profile", action="store_true", help="profile one grading run instead")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "class"
        folder.mkdir()
        start = time.perf_counter()
        build_class(folder, options.students, options.slips)
        size = sum(p.stat().st_size for p in folder.iterdir())
        print(f"built {options.students} answer files ({size / 1e6:.1f} MB) in {time.perf_counter() - start:.1f} s")
        if options.profile:
            import cProfile
            import pstats

            cProfile.runctx("grade(folder)", globals(), {"folder": folder}, str(Path(temp) / "prof"))
            pstats.Stats(str(Path(temp) / "prof")).sort_stats("cumulative").print_stats(25)
            return
        grade(folder)  # warm the page cache and the imports once
        ratios, json_ratios, cli_ratios = [], [], []
        for round_number in range(options.rounds):
            parse_time = timed(parse_only, folder)
            grade_time = timed(grade, folder)
            json_time = timed(grade_with_json, folder)
            ratios.append(grade_time / parse_time)
            json_ratios.append(json_time / parse_time)
            line = (
                f"round {round_number + 1}: parse {parse_time:.2f} s, grade {grade_time:.2f} s (ratio {ratios[-1]:.2f}), "
                f"with JSON {json_time:.2f} s (ratio {json_ratios[-1]:.2f})"
            )
            if options.cli:
                out = Path(temp) / "out"
                command = [sys.executable, "-m", "attn_tutor", "grade", str(folder), "--csv", f"{out}.csv", "--json", f"{out}.json", "--force"]
                env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
                cli_time = timed(lambda: subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False))
                cli_ratios.append(cli_time / parse_time)
                line += f"; CLI {cli_time:.2f} s, ratio {cli_ratios[-1]:.2f}"
            print(line)
        print(f"median ratio grade/parse: {statistics.median(ratios):.2f} (target <= 2)")
        print(f"median ratio grade+JSON/parse: {statistics.median(json_ratios):.2f}")
        if cli_ratios:
            print(f"median ratio CLI/parse: {statistics.median(cli_ratios):.2f}")


if __name__ == "__main__":
    main()
