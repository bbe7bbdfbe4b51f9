"""Start-up cost of `attn-tutor solve` against the libraries it cannot avoid, and what each trick earns.

Times, in alternation (each round every command once, in a rotating order),
`attn-tutor solve`, `solve --format json`, `--help`, `solve --help` and `--version`,
against the import floor `python -c "import numpy, yaml"` (and with rich.table too, and with one
OpenBLAS thread, as attn-tutor starts numpy: against that one, the CPU ratio is our own cost alone),
and prints each median and its ratio to each floor, taken round by round (the bars:
`solve` at most 1.2, `--help` at most 0.6). It also times importing typer beside numpy and
yaml (one BLAS thread): what any command of a Typer CLI costs before it does anything. ``--source DIR`` times another checkout's
attn_tutor (``git archive COMMIT | tar -x -C DIR``) for a before and after. A
benchmark, not a test: run it on a quiet machine.

``--tricks`` instead times `solve` as shipped and with each start-up trick
switched alone (off, or on for one that was removed), all in the same alternation:
each round runs every variant once, back to back, in a rotating order, and the
difference to "as shipped" is taken round by round, by CPU time (steady on a
shared machine) and by the clock. A trick earns its place when it wins in at least
three rounds of four (the difference's quartiles are both on one side of 0);
otherwise its gain is within the run-to-run spread.

  * ``gc off`` (removed): ``__main__.run`` switched the cyclic garbage collector off and
    ``grade`` back on; measured, it saved nothing;
  * ``one command``: ``cli.main`` gives Typer a group holding only the named command;
  * ``NamedTuples``: the model's records and the document blocks are NamedTuples; switched
    off, the same classes are frozen dataclasses (rewritten as the modules are imported).

    python benchmarks/startup.py [--rounds 30] [--tricks] [--source DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def script() -> str:
    found = Path(sys.executable).with_name("attn-tutor")
    return str(found) if found.exists() else shutil.which("attn-tutor") or "attn-tutor"


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - start


def compare(label: str, ours: list[str], baseline: list[str], rounds: int, env: dict[str, str]) -> float:
    timed(ours, env), timed(baseline, env)  # warm the file cache
    a, b = [], []
    for _ in range(rounds):
        a.append(timed(ours, env))
        b.append(timed(baseline, env))
    ratio = statistics.median(x / y for x, y in zip(a, b))
    print(
        f"{label:<28} ours {statistics.median(a) * 1000:7.1f} ms   "
        f"baseline {statistics.median(b) * 1000:7.1f} ms   median ratio {ratio:.2f}"
    )
    return ratio


# Each variant runs `solve` as `python -c CODE solve`, so they differ only in the trick.
_DATACLASSES = r"""
import importlib.abc, importlib.util, re, sys
class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in ("attn_tutor.core.model", "attn_tutor.render.blocks"):
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        sys.meta_path.insert(0, self)
        source = open(spec.origin, encoding="utf-8").read()
        head = "import dataclasses as _dc\nclass _Record:\n    def _replace(self, **changes):\n        return _dc.replace(self, **changes)\n"
        source = re.sub(r"^from __future__ import annotations\n", "from __future__ import annotations\n" + head, source, flags=re.M)
        source = re.sub(r"^class (\w+)\(NamedTuple\):", r"@_dc.dataclass(frozen=True)\nclass \1(_Record):", source, flags=re.M)
        class Loader(importlib.abc.Loader):
            def create_module(self, spec): return None
            def exec_module(self, module): exec(compile(source, spec.origin, "exec"), module.__dict__)
        return importlib.util.spec_from_loader(name, Loader(), origin=spec.origin)
sys.meta_path.insert(0, _Finder())
"""
VARIANTS = {
    "as shipped": "from attn_tutor.__main__ import run; run()",
    "with gc off (removed)": "import gc; gc.disable(); from attn_tutor.__main__ import run; run()",
    "without one command": "from attn_tutor.cli.app import app; app(prog_name='attn-tutor')",
    "without NamedTuples": _DATACLASSES + "from attn_tutor.__main__ import run; run()",
    "without both": _DATACLASSES + "from attn_tutor.cli.app import app; app(prog_name='attn-tutor')",
}


def cpu_timed(command: list[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) the command spent: on a shared machine, far steadier than the clock."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def quartiles(values: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def alternate(commands: dict[str, list[str]], rounds: int, env: dict[str, str]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each command once to warm the file cache, then ``rounds`` rounds, each starting one command
    later than the last: every command's wall-clock and CPU times, by name."""
    names = list(commands)
    for name in names:
        timed(commands[name], env)
    clock: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            start = time.perf_counter()
            cpu[name].append(cpu_timed(commands[name], env))
            clock[name].append(time.perf_counter() - start)
    return clock, cpu


def tricks(rounds: int, env: dict[str, str]) -> None:
    py = sys.executable
    commands = {name: [py, "-c", code, "solve"] for name, code in VARIANTS.items()}  # noqa: E501
    commands["floor: import numpy, yaml, rich.table"] = [py, "-c", "import numpy, yaml, rich.table"]
    outputs = {name: subprocess.run(c, capture_output=True, env=env).stdout for name, c in commands.items() if "floor" not in name}
    assert len(set(outputs.values())) == 1, "a variant printed something else"
    names = list(commands)
    clock, cpu = alternate(commands, rounds, env)
    print(f"{rounds} rounds; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, times in (("CPU time", cpu), ("wall clock", clock)):
        best = statistics.median(times["as shipped"])
        low, high = quartiles(times["as shipped"])
        floor = statistics.median(times["floor: import numpy, yaml, rich.table"])
        both = statistics.median(times["without both"])
        print(f"-- {label}: without both kept tricks, solve / floor would be {both / floor:.2f}")
        print(f"-- {label}: as shipped median {best * 1000:.1f} ms (quartiles {low * 1000:.1f}–{high * 1000:.1f}); "
              f"floor {floor * 1000:.1f} ms; solve / floor {best / floor:.2f}")
        for name in names[1:-1]:
            # Paired by round: each round runs every variant back to back, so a busy moment slows both.
            diffs = [v - b for v, b in zip(times[name], times["as shipped"])]
            d_low, d_high = quartiles(diffs)
            cost = statistics.median(diffs)
            verdict = "the trick wins in 3 rounds of 4 or more" if (d_low > 0 or d_high < 0) else "within the run-to-run spread"
            print(f"   {name:<22} median {statistics.median(times[name]) * 1000:7.1f} ms   difference {cost * 1000:+6.1f} ms "
                  f"(quartiles {d_low * 1000:+.1f} to {d_high * 1000:+.1f})   {verdict}")


# The floor as attn-tutor itself starts numpy (attn_tutor/__main__.py): with one OpenBLAS thread, so
# that the CPU ratio against it shows what is ours alone, not the idle threads we no longer start.
ONE_THREAD = "import os; os.environ.setdefault('OPENBLAS_NUM_THREADS', '1'); "

# attn_tutor from DIR, ahead of this environment's (an editable install's finder comes first)
FROM_SOURCE = (
    "import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f)]; "
    "sys.path.insert(0, sys.argv.pop(1)); from attn_tutor.__main__ import run; run()"
)


def against_floor(rounds: int, env: dict[str, str], source: str | None) -> None:
    """`solve`, `--help`, `--version` and the two floors, each round all of them in a rotating
    order; each command's ratio to a floor is taken round by round, and the median printed."""
    py = sys.executable
    ours = [script()] if source is None else [py, "-c", FROM_SOURCE, source]
    commands = {
        "solve": [*ours, "solve"],
        "solve --format json": [*ours, "solve", "--format", "json"],
        "--help": [*ours, "--help"],
        "solve --help": [*ours, "solve", "--help"],
        "--version": [*ours, "--version"],
        "floor: numpy, yaml": [py, "-c", "import numpy, yaml"],
        "floor: numpy, yaml, rich.table": [py, "-c", "import numpy, yaml, rich.table"],
        "floor: numpy, yaml, 1 BLAS thread": [py, "-c", ONE_THREAD + "import numpy, yaml"],
        "numpy, yaml, typer, 1 BLAS thread": [py, "-c", ONE_THREAD + "import numpy, yaml, typer"],  # what no Typer CLI starts below
        "python -c pass": [py, "-c", "pass"],
    }
    names = list(commands)
    clock, cpu = alternate(commands, rounds, env)
    print(f"{rounds} rounds; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    floors = ("floor: numpy, yaml", "floor: numpy, yaml, rich.table", "floor: numpy, yaml, 1 BLAS thread")
    for label, times in (("wall clock", clock), ("CPU time (steadier on a shared machine)", cpu)):
        print(f"-- {label}")
        for name in names:
            ratios = "   ".join(
                f"÷ {floor[7:]} {statistics.median(a / b for a, b in zip(times[name], times[floor])):.2f}" for floor in floors
            )
            print(f"   {name:<32} {statistics.median(times[name]) * 1000:7.1f} ms   {ratios}")


def compiled(source: str | None) -> None:
    """Bytecode for every module of the attn_tutor timed, first, as an installed package has it:
    with ``PYTHONDONTWRITEBYTECODE`` set (as here), a checkout that has none would compile
    each of its modules again at every start (a ``--source`` run of main measured 2.1 × the
    floor for `solve` that way, about 1.5 with its bytecode)."""
    import compileall
    import importlib.util

    if source is not None:
        where = str(Path(source) / "attn_tutor")
    else:
        where = importlib.util.find_spec("attn_tutor").submodule_search_locations[0]
    compileall.compile_dir(where, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--tricks", action="store_true", help="what each start-up trick earns instead")
    parser.add_argument("--source", help="time the attn_tutor in this directory (a checkout) instead")
    options = parser.parse_args()
    rounds = options.rounds
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    if options.tricks:
        compiled(None)
        tricks(rounds, env)
        return
    compiled(options.source)
    against_floor(rounds, env, options.source)


if __name__ == "__main__":
    main()
