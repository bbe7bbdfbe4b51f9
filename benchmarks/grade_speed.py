"""How ``attn-tutor grade`` scales with the class: wall time next to merely parsing the files,
CPU time of every process (and of the parent alone), and peak memory of every process together.

Builds synthetic classes of N **distinct** students (by default 10,000 and 50,000) for the
packaged ch13 set — every problem, every asked row and stage. Students make every kind of
mistake the marker knows (each drawn from ``grading.Marker.exact_mistakes`` and carried
forward, as a student who slips keeps going with their own numbers), round to 2–4 places,
type rows as lists or as text with fractions, percentages and arithmetic, leave stages
blank, and a fifth work on per-student variants (30 seeds). By default 55% of rows carry a
known mistake and 10% random numbers (``--slips``): a harsh class, since every distinct
wrong row costs a real marking while right rows are cheap. Every size is its own class
drawn from one random stream (no class is another copied), built once and kept under the
temporary directory keyed by its parameters and the code that draws it (``--no-cache``:
build afresh; the mistakes and their carried rows are drawn once per row, so building
costs less than grading).

Then, for a few rounds, alternating sizes and commands, it runs

  (a) parse: one process reading every file and ``yaml.load``-ing it with ``yaml.CSafeLoader``
      (in this process: no start-up counted);
  (b) ``attn-tutor grade DIR --csv OUT --json OUT --class-report OUT --jobs 1`` (start-up included);
  (c) the same with ``--jobs 2``, and with the default jobs (one per usable CPU) when that is not 2;

each grade in a fresh process, timing its wall clock, its CPU time (user + system of it and
of every process it started, from ``getrusage(RUSAGE_CHILDREN)``; and the parent's own, which
the runner reports at its exit: with workers, what start-up, routing, merging, the tally and
the outputs cost beside the marking) and its memory: the sum of
the peak resident memory of every process of the run — the parent's own high-water mark
(``ru_maxrss``, reported at its exit by the small runner that starts it) plus each worker's
``VmHWM``, read from ``/proc`` every 0.1 s while it lives (it only grows; the last reading is
taken within 0.1 s of the worker's end). Pages a forked worker shares with the parent count
in both, as the kernel counts them. It prints each round and the medians of the ratios
against the targets:

  default jobs / parse, 10,000 and 50,000 files     <= 0.6
  CPU --jobs 2 / CPU --jobs 1, 50,000 files         <= 1.05
  peak memory (all processes) 50,000 / 10,000       <= 1.2
  --jobs 1 / parse, 10,000 files                    <= 1.3

``--gc-freeze`` instead times ``grade --jobs 1`` against the same run with ``gc.freeze`` made a
no-op, and ``--fast-path`` ``grade --jobs 1`` and with the default jobs against the same runs
with the answer files' fast path turned off (``yamlread.PlainReader``: every file then composed
by PyYAML's C parser, as ``answer_yaml.read_nodes`` reads it), each beside parsing: the fast
path stays while it keeps grade ÷ parse at 10,000 files at or under 1.0 and composing does not
(3 rounds, two cores: 0.98 against 1.36 with two jobs, 1.61 against 2.53 with one; CPU 0.63
and 0.68 of composing's).
``--profile`` profiles one in-process grading run. The machine's load average is printed with
each round. A benchmark, not a test.

``--against PYTHON`` runs another interpreter's attn_tutor (main's, say) beside this one in
every round, so before and after are measured under the same load.

    python benchmarks/grade_speed.py [--sizes 10000,50000] [--rounds 3] [--against PYTHON] [--gc-freeze] [--fast-path] [--profile]
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import yaml

import attn_tutor
from attn_tutor import gradebook
from attn_tutor.core.model import STAGES
from attn_tutor.gradebook.records import FileNote
from attn_tutor.gradebook.run import available_cpus, grade_class
from attn_tutor.marking import marker as grading
from attn_tutor.problems.load import load_problem_set
from attn_tutor.solve import engine
from attn_tutor.variants.generate import variant_set

SEEDS = list(range(1000, 1030))
_MARKER = grading.Marker()  # only for building the class


def _cells(values, decimals: int) -> list[float]:
    return [round(v, decimals) if math.isfinite(v) else 0.0 for v in values]


def _as_text(values: list[float], rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return " ".join(f"{v:g}" for v in values)
    if style == 1:
        return "(" + ", ".join(f"{v:g}" for v in values) + ")"
    if style == 2:  # percentages, as a student reading weights
        return ", ".join(f"{100 * v:.1f}%" for v in values)
    return " ".join(f"{v * 4:g}/4" for v in values)  # arithmetic


# What every student of one (solution, row) shares, drawn once: the building costs less than the grading.
_RIGHT: dict = {}  # (solution, row) -> each stage's right row
_MISTAKES: dict = {}  # (solution, row, stage) -> the marker's exact mistakes there
_CARRIED: dict = {}  # (solution, row, stage, mistake) -> that mistake's row and every later one carried from it


def _right(solution, problem, row: int) -> dict[str, list[float]]:
    key = (id(solution), row)
    if key not in _RIGHT:
        _RIGHT[key] = {s: [float(v) for v in solution.stage_row(s, row)] for s in STAGES if s in problem.stages}
    return _RIGHT[key]


def _mistakes(solution, row: int, stage: str) -> list:
    key = (id(solution), row, stage)
    if key not in _MISTAKES:
        _MISTAKES[key] = _MARKER.exact_mistakes(solution, row, stage)
    return _MISTAKES[key]


def _carry_on(solution, row: int, stage: str, stages: list[str], start: list[float]) -> dict[str, list[float]]:
    """``start`` at ``stage``, and the stages after it carried from it."""
    carried = {stage: start}
    for later in stages[stages.index(stage) + 1 :]:
        carried[later] = grading.carry_forward(solution, row, later, carried[grading.previous_stage(later)]).tolist()
    return carried


def _carried(solution, row: int, stage: str, stages: list[str], choice: int, made) -> dict[str, list[float]]:
    key = (id(solution), row, stage, choice)
    if key not in _CARRIED:
        start = [0.0 if v is None or not math.isfinite(v) else float(v) for v in made]
        _CARRIED[key] = _carry_on(solution, row, stage, stages, start)
    return _CARRIED[key]


def student_rows(solution, problem, token: str, rng: random.Random, slips: float) -> dict[str, object]:
    """One student's answers to one row: right, or one known mistake carried forward."""
    row = problem.row_index(token)
    rows = dict(_right(solution, problem, row))
    stages = list(rows)
    kind = rng.random()
    if kind < slips:  # a mistake at some stage, then the student's own numbers carried on
        stage = rng.choice(stages)
        mistakes = _mistakes(solution, row, stage)
        if mistakes:
            choice = rng.randrange(len(mistakes))
            rows.update(_carried(solution, row, stage, stages, choice, mistakes[choice][1]))
        else:
            shift = rng.choice([-1, 1]) * rng.uniform(0.01, 2.0)
            rows.update(_carry_on(solution, row, stage, stages, [v + shift for v in rows[stage]]))
    elif kind < slips + 0.1:  # random numbers
        stage = rng.choice(stages)
        rows[stage] = [float(rng.randint(-5, 9)) for _ in rows[stage]]
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


def cached_class(students: int, slips: float, seed: int = 4, cache: bool = True) -> Path:
    """The class of ``students`` built by :func:`build_class`, kept under the temporary directory
    keyed by its parameters and the source that draws it (the builder, the marker's mistakes,
    the variants), so a second run starts at once. Built into a fresh folder, then renamed."""
    source = inspect.getsource(sys.modules[__name__])
    digest = hashlib.sha256(source[source.index("SEEDS = ") : source.index("def cached_class")].encode())  # the builder
    package = Path(attn_tutor.__file__).parent
    for sub in ("marking", "variants", "solve", "problems"):
        for path in sorted((package / sub).glob("*.py")):
            digest.update(path.read_bytes())
    root = Path(tempfile.gettempdir()) / "attn-tutor-grade-bench"
    folder = root / f"class-{students}-{slips}-{seed}-{digest.hexdigest()[:12]}"
    if cache and (folder / "class").is_dir():
        return folder / "class"
    root.mkdir(exist_ok=True)
    building = Path(tempfile.mkdtemp(dir=root, prefix="building-"))
    (building / "class").mkdir()
    start = time.perf_counter()
    build_class(building / "class", students, slips, seed)
    size = sum(p.stat().st_size for p in (building / "class").iterdir())
    print(f"built {students} answer files ({size / 1e6:.1f} MB) in {time.perf_counter() - start:.1f} s", flush=True)
    if not cache:
        return building / "class"
    shutil.rmtree(folder, ignore_errors=True)
    building.rename(folder)
    return folder / "class"


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
        for window in grade_class(gradebook.find_answer_files([folder]), tally, jobs=1):
            for row in window.rows:
                if type(row) is not FileNote:
                    writer.add(row)
        with open(os.devnull, "wb") as sink:
            writer.write_csv(sink)
    finally:
        writer.close()
    return tally.total


RUNNER = (
    "import atexit, os, resource, runpy, sys\n"
    "def _peak():\n"
    "    own = resource.getrusage(resource.RUSAGE_SELF)\n"
    "    with open(os.environ['GRADE_BENCH_PEAK'], 'w') as out:\n"
    "        out.write('%d %r' % (own.ru_maxrss, own.ru_utime + own.ru_stime))\n"
    "atexit.register(_peak)\n"
    "{patch}"
    "sys.argv[0] = 'attn-tutor'\n"
    "runpy.run_module('attn_tutor', run_name='__main__', alter_sys=True)\n"
)


# What --gc-freeze and --fast-path turn off: (what both runs import, what the second then replaces)
TRICKS = {
    "gc.freeze": ("import gc\n", "gc.freeze = lambda: None\n"),
    "the fast path": (
        "import attn_tutor.gradebook.answer_yaml as answer_yaml\n",
        "answer_yaml.read_plain_file = lambda *args, **kwargs: None\n",  # read_yaml_text then composes every file
    ),
}


def cli(folder: Path, out: Path, *jobs: str, patch: str = "", python: str = sys.executable) -> list[str]:
    """``attn-tutor grade`` with every output but sheets, through the runner that reports its peak
    (``python``: the interpreter whose attn_tutor runs, its own installed one even when the working
    directory is another checkout: ``-c`` alone would put that first on the path). ``patch``: code the
    runner runs first (a trick of :data:`TRICKS` turned off; forked workers inherit it)."""
    runner = RUNNER.format(patch=patch)
    outputs = ("--csv", str(out / "grades.csv"), "--json", str(out / "grades.json"), "--class-report", str(out / "report.html"))
    return [python, "-P", "-c", runner, "grade", str(folder), *outputs, "--force", *jobs]  # -P: not the attn_tutor of the working directory


class Run(NamedTuple):
    wall: float  # s
    cpu: float  # s, user + system of every process
    memory: float  # MiB, the sum of every process's peak
    processes: int
    parent_cpu: float  # s, user + system of the parent alone (start-up, routing, merging, the tally and every output)


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc."""
    found: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    ppid = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            found.setdefault(ppid, []).append(int(name))
    return found


def _high_water(pid: int) -> int | None:
    """A process's peak resident memory so far, in KiB (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def measured(command: list[str], every: float = 0.1) -> Run:
    """``command`` run to its end, its wall time, CPU time and summed peak memory (see the module's doc)."""
    import resource

    def cpu() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return children.ru_utime + children.ru_stime

    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak_file:
        env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "GRADE_BENCH_PEAK": peak_file.name}
        cpu_start, start = cpu(), time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        peaks: dict[int, int] = {}
        while process.poll() is None:
            below = _children()
            stack = list(below.get(process.pid, ()))
            while stack:
                pid = stack.pop()
                stack.extend(below.get(pid, ()))
                high = _high_water(pid)
                if high is not None:
                    peaks[pid] = max(peaks.get(pid, 0), high)
            time.sleep(every)
        wall, used = time.perf_counter() - start, cpu() - cpu_start
        parent, parent_cpu = (peak_file.read() or "0 0").split()
    return Run(wall, used, (int(parent) + sum(peaks.values())) / 1024, 1 + len(peaks), float(parent_cpu))


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def scaling(sizes: list[int], slips: float, rounds: int, cache: bool, against: str | None = None) -> None:
    """The four figures of the module's doc, from alternating rounds; with ``against`` (another
    interpreter, such as main's), its attn_tutor too, run in turn with this one's in every round."""
    classes = {n: cached_class(n, slips, cache=cache) for n in sizes}
    out = Path(tempfile.mkdtemp())
    cpus = available_cpus()
    pythons = {"": sys.executable, **({"against: ": against} if against else {})}
    jobs = {"--jobs 1": ("--jobs", "1"), "--jobs 2": ("--jobs", "2")}
    if cpus != 2:
        jobs[f"default ({cpus} jobs)"] = ()
    default = "--jobs 2" if cpus == 2 else f"default ({cpus} jobs)"
    commands = {(who, name): (python, args) for who, python in pythons.items() for name, args in jobs.items()}
    for python in pythons.values():
        measured(cli(classes[sizes[0]], out, "--jobs", "1", python=python))  # warm the imports once
    figures: dict = {}
    try:
        for number in range(rounds):
            for students in sizes if number % 2 == 0 else reversed(sizes):
                folder = classes[students]
                start, cpu_start = time.perf_counter(), time.process_time()
                parse_only(folder)
                parse, parse_cpu = time.perf_counter() - start, time.process_time() - cpu_start
                figures.setdefault((students, "parse"), []).append(parse)
                figures.setdefault((students, "parse CPU"), []).append(parse_cpu)
                line = [f"round {number + 1}, {students} files: parse {parse:.2f} s (CPU {parse_cpu:.2f} s)"]
                for key, (python, args) in commands.items() if number % 2 == 0 else reversed(commands.items()):
                    run = measured(cli(folder, out, *args, python=python))
                    figures.setdefault((students, key), []).append(run)
                    line.append(
                        f"{key[0]}{key[1]} {run.wall:.2f} s (÷ parse {run.wall / parse:.2f}), CPU {run.cpu:.2f} s "
                        f"(the parent's {run.parent_cpu:.2f} s), "
                        f"{run.memory:.0f} MiB in {run.processes} processes"
                    )
                print("; ".join(line) + f"; {load()}", flush=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"{cpus} usable CPUs; medians over {rounds} rounds (lowest–highest):")
    small, large = sizes[0], sizes[-1]

    def ratios(students: int, key, of=lambda run: run.wall, over=None) -> list[float]:
        runs = figures[(students, key)]
        base = figures[(students, "parse")] if over is None else [of(r) for r in figures[(students, over)]]
        return [of(run) / b for run, b in zip(runs, base)]

    cpu_of = lambda run: run.cpu  # noqa: E731
    for who in pythons:
        for students in sizes:
            print(f"  {who}grade, default jobs / parse, {students} files: {median(ratios(students, (who, default)))} (target <= 0.6)")
        print(f"  {who}grade --jobs 1 / parse, {small} files: {median(ratios(small, (who, '--jobs 1')))} (target <= 1.3)")
        by_cpu = [run.cpu / parse for run, parse in zip(figures[(small, (who, "--jobs 1"))], figures[(small, "parse CPU")])]
        print(f"  {who}CPU time of grade --jobs 1 / of parse, {small} files: {median(by_cpu)} (on a loaded machine the clock measures the others too)")
        for students in sizes:
            share = [run.parent_cpu / run.cpu for run in figures[(students, (who, default))]]
            print(f"  {who}the parent's share of the CPU, default jobs, {students} files: {median(share)} (the rest is the workers')")
        cpu = median(ratios(large, (who, "--jobs 2"), cpu_of, (who, "--jobs 1")))
        print(f"  {who}CPU --jobs 2 / CPU --jobs 1, {large} files: {cpu} (target <= 1.05)")
        for name in jobs:
            peaks = {n: [run.memory for run in figures[(n, (who, name))]] for n in (small, large)}
            growth = [b / a for a, b in zip(peaks[small], peaks[large])]
            print(
                f"  {who}peak memory, all processes, {name}: {statistics.median(peaks[small]):.0f} MiB at {small}, "
                f"{statistics.median(peaks[large]):.0f} MiB at {large}; {large} / {small}: {median(growth)} (target <= 1.2)"
            )


def trick_gain(folder: Path, rounds: int, trick: str, jobs: list[str]) -> None:
    """``grade`` as shipped against the same run with ``trick`` (of :data:`TRICKS`) turned off, for
    each of ``jobs`` (``--jobs`` values; "" the default), alternating, each beside parsing."""
    out = Path(tempfile.mkdtemp())
    imports, off = TRICKS[trick]
    runs = {
        (number, name): cli(folder, out, *(("--jobs", number) if number else ()), patch=patch)
        for number in jobs for name, patch in (("shipped", imports), (f"without {trick}", imports + off))
    }  # fmt: skip
    measured(next(iter(runs.values())))  # warm the imports once
    figures: dict = {}
    try:
        for number in range(rounds):
            start, cpu_start = time.perf_counter(), time.process_time()
            parse_only(folder)
            parse, parse_cpu = time.perf_counter() - start, time.process_time() - cpu_start
            line = [f"round {number + 1}: parse {parse:.2f} s (CPU {parse_cpu:.2f} s)"]
            for key, command in runs.items() if number % 2 == 0 else reversed(runs.items()):
                run = measured(command)
                figures.setdefault(key, []).append((run, parse, parse_cpu))
                jobs_name = f"--jobs {key[0]}" if key[0] else "default jobs"
                line.append(f"{key[1]}, {jobs_name} {run.wall:.2f} s (÷ parse {run.wall / parse:.2f}), CPU {run.cpu:.2f} s")
            print("; ".join(line) + f"; {load()}", flush=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"medians over {rounds} rounds (lowest–highest):")
    for number in jobs:
        jobs_name = f"--jobs {number}" if number else "default jobs"
        shipped, without = figures[(number, "shipped")], figures[(number, f"without {trick}")]
        for name, results in (("shipped", shipped), (f"without {trick}", without)):
            print(f"  {name}, {jobs_name}: ÷ parse {median([run.wall / parse for run, parse, _ in results])}; "
                  f"CPU ÷ parse CPU {median([run.cpu / cpu for run, _, cpu in results])}")  # fmt: skip
        gain = median([a.wall / b.wall for (a, _, _), (b, _, _) in zip(shipped, without)])
        cpu = median([a.cpu / b.cpu for (a, _, _), (b, _, _) in zip(shipped, without)])
        print(f"  shipped / without {trick}, {jobs_name}: {gain}; CPU {cpu}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,50000", help="class sizes, smallest first (default 10000,50000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slips", type=float, default=0.55, help="share of rows with a known mistake (another 0.1 have random numbers)")
    parser.add_argument("--no-cache", action="store_true", help="build the classes afresh (and throw them away)")
    parser.add_argument("--against", metavar="PYTHON", help="also run another interpreter's attn_tutor (say main's) in every round")
    parser.add_argument("--profile", action="store_true", help="profile one grading run of the smallest class instead")
    parser.add_argument("--gc-freeze", action="store_true", help="grade --jobs 1 against the same run without gc.freeze instead")
    parser.add_argument("--fast-path", action="store_true", help="grade against the same run without the answer files' fast path instead")
    options = parser.parse_args()
    sizes = sorted(int(size) for size in options.sizes.split(","))
    print(f"{available_cpus()} CPUs; {load()}")
    if options.profile or options.gc_freeze or options.fast_path:
        folder = cached_class(sizes[0], options.slips, cache=not options.no_cache)
        if options.gc_freeze or options.fast_path:
            trick = "gc.freeze" if options.gc_freeze else "the fast path"
            trick_gain(folder, options.rounds, trick, ["1"] if options.gc_freeze else ["1", ""])
            return
        import cProfile
        import pstats

        with tempfile.TemporaryDirectory() as temp:
            cProfile.runctx("grade(folder)", globals(), {"folder": folder}, str(Path(temp) / "prof"))
            pstats.Stats(str(Path(temp) / "prof")).sort_stats("cumulative").print_stats(25)
        return
    scaling(sizes, options.slips, options.rounds, not options.no_cache, options.against)


if __name__ == "__main__":
    main()
