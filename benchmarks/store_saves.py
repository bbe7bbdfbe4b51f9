"""The live session's store alone: answers saved a second, and each save's latency.

    python benchmarks/store_saves.py                 # SQLite: flat out on 1 and 8 threads, then paced
    python benchmarks/store_saves.py --pg URL        # the same on PostgreSQL too

Flat out measures the most a second; paced sends the target's 400 a second for ten seconds
from 40 threads (Starlette's threadpool), so its p99 is the latency a class would see.

The target it is measured against: 500 students saving every stage of every asked row of
ch13 in 60 seconds (about 400 saves a second, p99 within 100 ms, on two cores). Each run
is a fresh session of ch13 in a temporary folder (or schema); every save is a distinct
student answer committed before ``save`` returns, as ``serve`` makes them. Not a test:
it prints the ratio to the target.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path

from attn_tutor.problems.load import load_problem_set
from attn_tutor.sessions.opening import open_store
from attn_tutor.sessions.store import Mark

TARGET = 400  # saves a second


def run(target: str, threads: int, saves: int, rate: float | None = None) -> tuple[float, float, float]:
    problem_set = load_problem_set("ch13")
    store = open_store(target, problem_set, create=True)
    items = [
        (problem.id, row, stage)
        for problem in problem_set.problems
        for row in problem.rows or problem.tokens
        for stage in ("scores", "scaled", "weights", "output")
    ]
    students = [store.join(f"student {n}", f"device {n}").id for n in range(max(1, saves // len(items)) + threads)]
    latencies: list[float] = []
    lock = threading.Lock()

    def work(part: int) -> None:
        mine = []
        for n in range(part, saves, threads):
            problem, row, stage = items[n % len(items)]
            if rate is not None:  # the n-th save is due at n / rate seconds
                time.sleep(max(0.0, began + n / rate - time.perf_counter()))
            start = time.perf_counter()
            store.save(students[n // len(items)], problem, row, stage, "0.5 3 2", uuid.uuid4().hex, Mark("wrong", "no_sqrt", 0.0))
            mine.append(time.perf_counter() - start)
        with lock:
            latencies.extend(mine)

    began = time.perf_counter() + 0.1
    workers = [threading.Thread(target=work, args=(part,)) for part in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    took = time.perf_counter() - max(began, 0)
    store.close()
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    return saves / took, statistics.median(latencies) * 1000, p99 * 1000


PACED = 40  # threads of the paced run


def label(threads: int, backend: str) -> str:
    return f"{backend}, paced 400/s" if threads == PACED else f"{backend}, {threads} thread(s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="a PostgreSQL URL (its own schema is made and dropped)")
    parser.add_argument("--saves", type=int, default=6000)
    args = parser.parse_args()
    targets = []
    with tempfile.TemporaryDirectory() as folder:
        for threads in (1, 8, PACED):
            targets.append((label(threads, "sqlite"), str(Path(folder) / f"bench-{threads}.sqlite"), threads))
        schemas = []
        if args.pg:
            import psycopg

            for threads in (1, 8, PACED):
                schema = f"bench_{uuid.uuid4().hex[:12]}"
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(f"CREATE SCHEMA {schema}")
                schemas.append(schema)
                sep = "&" if "?" in args.pg else "?"
                targets.append((label(threads, "postgresql"), f"{args.pg}{sep}options=-csearch_path%3D{schema}", threads))
        try:
            for name, target, threads in targets:
                paced = threads == PACED
                rate, p50, p99 = run(target, threads, TARGET * 10 if paced else args.saves, TARGET if paced else None)
                print(f"{name:28} {rate:8.0f} saves/s  ({rate / TARGET:5.1f} x the 400/s target)  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms")
        finally:
            if schemas:
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    for schema in schemas:
                        conn.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    main()
