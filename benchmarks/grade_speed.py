"""How long ``attn-tutor grade`` takes next to merely parsing the same files, and its peak memory.

Builds a synthetic class of N YAML answer files (default 10,000) for the packaged
ch13 set — every problem, every asked row and stage — in a temporary directory.
Students make every kind of mistake the marker knows (each drawn from
``grading.Marker.exact_mistakes`` and carried forward, as a student who slips keeps going
with their own numbers), round to 2–4 places, type rows as lists or as text with
fractions, percentages and arithmetic, leave stages blank, and a fifth work on
per-student variants (30 seeds). By default 55% of rows carry a known mistake and
10% random numbers (``--slips``): a harsh class, since every distinct wrong row
costs a real marking while right rows are cheap. Then, alternating for a few rounds, it times

  (a) parse: one process reading every file and ``yaml.load``-ing it with ``yaml.CSafeLoader``
      (in this process: no start-up counted);
  (b) ``attn-tutor grade DIR --csv OUT --jobs 1`` in a subprocess (start-up included);
  (c) ``attn-tutor grade DIR --csv OUT`` with every job (the default, one per CPU);

and prints each round and the median ratios (b)/(a) and (c)/(a) — targets on 2 cores:
<= 1.3 and <= 0.8. Every run starts a fresh process, so no round is helped by the last.
``--gc-freeze`` instead times ``grade --jobs 1`` against the same run with ``gc.freeze`` made a
no-op (how much freezing each chunk's survivors, the run's caches, saves). ``--memory`` instead builds a class of 10,000 files (and 50,000: four renamed copies) and reports the peak
resident memory of ``grade --jobs 1`` on each (the largest process's high-water mark,
from ``getrusage(RUSAGE_CHILDREN)`` of a fresh wrapper process), and of ``grade`` with
every job. The machine's load average is printed with each figure. A benchmark, not a test.

    python benchmarks/grade_speed.py [--students 10000] [--rounds 3] [--memory [--also-speed]] [--gc-freeze] [--profile]
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

from attn_tutor import gradebook
from attn_tutor.core.model import STAGES
from attn_tutor.gradebook.run import grade_class
from attn_tutor.marking import marker as grading
from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve import engine
from attn_tutor.variants.generate import variant_set

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
    """What ``attn-tutor grade DIR --csv OUT --jobs 1`` does, less start-up and the terminal: the one
    grading path (:func:`attn_tutor.gradebook.run.grade_class`) feeding the gradebook writer."""
    tally = gradebook.Tally()
    writer = gradebook.GradebookWriter(tally, csv_file=True)
    try:
        grade_class(gradebook.find_answer_files([folder]), tally, jobs=1, on_row=writer.add)
        with open(os.devnull, "wb") as sink:
            writer.write_csv(sink)
    finally:
        writer.close()
    return tally.total


def cli(folder: Path, out: Path, *jobs: str) -> list[str]:
    return [sys.executable, "-m", "attn_tutor", "grade", str(folder), "--csv", str(out), "--force", *jobs]


def without_freeze(command: list[str]) -> list[str]:
    """``command`` (an attn_tutor run) with ``gc.freeze`` made a no-op: the collector rescans the run's caches."""
    runner = "import gc, runpy, sys; gc.freeze = lambda: None; sys.argv[0] = 'attn-tutor'; runpy.run_module('attn_tutor', run_name='__main__')"
    return [sys.executable, "-c", runner, *command[3:]]


def freeze_gain(folder: Path, out: Path, rounds: int) -> None:
    """``grade --jobs 1`` as shipped against the same run with ``gc.freeze`` a no-op, alternating."""
    shipped, plain = cli(folder, out, "--jobs", "1"), without_freeze(cli(folder, out, "--jobs", "1"))
    run_quietly(shipped)
    ratios, cpu_ratios = [], []
    for round_number in range(rounds):
        times = {}
        for name, command in (("shipped", shipped), ("no freeze", plain)):
            start = time.perf_counter()
            cpu = cpu_of(run_quietly, command)
            times[name] = (time.perf_counter() - start, cpu)
        ratios.append(times["shipped"][0] / times["no freeze"][0])
        cpu_ratios.append(times["shipped"][1] / times["no freeze"][1])
        print(
            f"round {round_number + 1}: shipped {times['shipped'][0]:.2f} s (CPU {times['shipped'][1]:.2f} s), "
            f"without gc.freeze {times['no freeze'][0]:.2f} s (CPU {times['no freeze'][1]:.2f} s); {load()}",
            flush=True,
        )
    spread = lambda xs: f"{min(xs):.2f}–{max(xs):.2f}"  # noqa: E731
    print(f"median shipped / without gc.freeze: {statistics.median(ratios):.2f} ({spread(ratios)}); CPU {statistics.median(cpu_ratios):.2f} ({spread(cpu_ratios)})")


def run_quietly(command: list[str]) -> None:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)


def peak_memory(command: list[str]) -> float:
    """The largest process's peak resident memory, in MiB, of ``command`` and everything it starts."""
    probe = (
        "import os, resource, subprocess, sys\n"
        "env = {**os.environ, 'NO_COLOR': '1', 'COLUMNS': '100'}\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def memory(temp: Path, slips: float, rounds: int = 0) -> None:
    """Peak memory at 10,000 files and at 50,000: the 10,000 and four copies of them, each copy's
    students renamed (building 50,000 distinct students takes the better part of an hour)."""
    folder = temp / "class"
    folder.mkdir()
    build_class(folder, 10_000, slips)
    if rounds:
        speed(folder, temp / "out.csv", rounds)
    peaks = {}
    for students in (10_000, 50_000):
        if students == 50_000:
            for copy in range(1, 5):
                for path in sorted(folder.glob("s0*.yaml")):
                    text = path.read_text("utf-8").replace("student: 학생", f"student: {copy}반 학생", 1)
                    (folder / f"c{copy}{path.name}").write_text(text, "utf-8")
        one = peak_memory(cli(folder, temp / "m.csv", "--jobs", "1"))
        every = peak_memory(cli(folder, temp / "m.csv"))
        peaks[students] = one
        print(f"{students} files: peak {one:.0f} MiB with --jobs 1, {every:.0f} MiB (largest process) with every job; {load()}", flush=True)
    print(f"peak 50,000 / 10,000 with --jobs 1: {peaks[50_000] / peaks[10_000]:.2f} (target <= 1.5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--slips", type=float, default=0.55, help="share of rows with a known mistake (another 0.1 have random numbers)"
    )
    parser.add_argument("--memory", action="store_true", help="peak memory at 10,000 and 50,000 files instead")
    parser.add_argument("--profile", action="store_true", help="profile one grading run instead")
    parser.add_argument("--gc-freeze", action="store_true", help="grade --jobs 1 against the same run without gc.freeze instead")
    parser.add_argument("--also-speed", action="store_true", help="with --memory: the timed rounds first, on the same 10,000 files")
    options = parser.parse_args()
    print(f"{len(os.sched_getaffinity(0))} CPUs; {load()}")
    with tempfile.TemporaryDirectory() as temp:
        if options.memory:
            memory(Path(temp), options.slips, options.rounds if options.also_speed else 0)
            return
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
        if options.gc_freeze:
            freeze_gain(folder, Path(temp) / "out.csv", options.rounds)
            return
        speed(folder, Path(temp) / "out.csv", options.rounds)


def cpu_of(function, *args) -> float:
    """CPU time (user + system) of this process and of the children it waited for, while ``function`` ran."""
    import resource

    def now() -> float:
        mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime

    start = now()
    function(*args)
    return now() - start


def speed(folder: Path, out: Path, rounds: int) -> None:
    """Wall-clock ratios (the targets), and CPU-time ratios: on a shared, loaded machine the clock
    measures the other processes as much as ours, the CPU time only ours."""
    run_quietly(cli(folder, out, "--jobs", "1"))  # warm the page cache and the imports once
    one_ratios, all_ratios, cpu_ratios = [], [], []
    for round_number in range(rounds):
        start = time.perf_counter()
        parse_cpu = cpu_of(parse_only, folder)
        parse_time = time.perf_counter() - start
        start = time.perf_counter()
        one_cpu = cpu_of(run_quietly, cli(folder, out, "--jobs", "1"))
        one_time = time.perf_counter() - start
        all_time = timed(run_quietly, cli(folder, out))
        one_ratios.append(one_time / parse_time)
        all_ratios.append(all_time / parse_time)
        cpu_ratios.append(one_cpu / parse_cpu)
        print(
            f"round {round_number + 1}: parse {parse_time:.2f} s, grade --jobs 1 {one_time:.2f} s "
            f"(ratio {one_ratios[-1]:.2f}), grade {all_time:.2f} s (ratio {all_ratios[-1]:.2f}); "
            f"CPU: parse {parse_cpu:.2f} s, grade --jobs 1 {one_cpu:.2f} s (ratio {cpu_ratios[-1]:.2f}); {load()}",
            flush=True,
        )
    spread = lambda xs: f"{min(xs):.2f}–{max(xs):.2f}"  # noqa: E731
    print(f"median ratio grade --jobs 1 / parse: {statistics.median(one_ratios):.2f} ({spread(one_ratios)}; target <= 1.3)")
    print(f"median ratio grade (every job) / parse: {statistics.median(all_ratios):.2f} ({spread(all_ratios)}; target <= 0.8)")
    print(f"median CPU-time ratio grade --jobs 1 / parse: {statistics.median(cpu_ratios):.2f} ({spread(cpu_ratios)})")


if __name__ == "__main__":
    main()
