"""A live class under load: simulated students answer all of ch13 against `attn-tutor serve` on loopback.

Starts ``attn-tutor serve ch13 --host 127.0.0.1`` on a fresh SQLite file (or ``--db
postgresql://…``, with ``--workers``), then N simulated students (default 500; each a lean HTTP/1.1
client on asyncio's streams, one keep-alive connection each: :class:`Phone`) join and submit every asked stage of every asked row of the
packaged ch13 set, paced to finish within the window (default 60 s): most type the right
rows (rounded half up to the set's decimals), some a known mistake in one stage of a row
(made with :mod:`attn_tutor.marking.mistakes`, so the teacher's map has something to show).
A teacher follows the server-sent events. Measured:

- submission latency (send to acknowledgement) p50/p95/p99, throughput, errors (any
  answer not acknowledged, or acknowledged with another verdict than planned);
- the teacher's map lag: for each acknowledged answer, the time until the first event
  whose map counts that item's answers at least as often as answers had been acknowledged
  for it by then (0 when the event came first);
- the server's peak resident memory (the sum over its processes, sampled every 0.1 s);

then a second, smaller class joins, and once half of its answers are acknowledged the
server is killed (SIGKILL) and started again on the same database: the students resend
what was not acknowledged, under the same client ids, as the page does. At the end every
acknowledged answer of both classes is looked up in the store: the count missing must be 0.

With ``--streams`` every student also holds the students' event stream open (``GET /api/events``,
a connection of its own, as the page's EventSource would) from joining to the end; measured: how
long each took to its first event, and how many were turned away or dropped. Each server process's
peak memory is measured (the target is per worker), and on PostgreSQL the CPU of the database's
own backends serving it as well as the server's.

    python benchmarks/serve_load.py [--students 500] [--window 60] [--streams] [--db postgresql://…] [--workers 2] [--no-sqlite]

With ``--db`` the same load runs first on a fresh SQLite file (one process: a SQLite session has
one writer), then on a fresh schema of that PostgreSQL database with ``--workers``, in the same
run (``--no-sqlite``: PostgreSQL alone). Each store's figures are printed; the last line is the
last store's ``p50 … p95 … p99 … ms``.

Loopback only, bounded: the load ends with its window (plus at most --grace seconds for
answers in flight), the crash phase sends a fifth as many students' answers. Not a test;
tests/live/test_serve_load.py runs the same code on 50 students and checks what it counts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the helpers package

from helpers.serve import Server  # noqa: E402

TARGETS = {"p99_ms": 100.0, "errors": 0, "map_lag_s": 1.0, "rss_mb": 300.0, "missing": 0}


# --- what each student types ------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    problem: str
    row: str
    stage: str
    text: str
    verdict: str  # what the server's mark should say: "correct", or "wrong" (or "partial": some cells right) with ``diagnosis``
    diagnosis: str | None


def _line(values, decimals: int) -> str:
    """A row as a student types it: masked cells left out, each number rounded half up."""
    from attn_tutor.core.rounding import fmt

    return " ".join(fmt(float(v), decimals) for v in values if not math.isnan(float(v)))


def answer_sheets(problem_set):
    """Every asked (problem, row, stage) right, and for each (problem, row) the known mistakes one
    stage can show (one code per candidate): ``(right, mistakes)`` with ``mistakes[(problem,
    row)]`` a list of (stage index, Answer)."""
    import numpy as np

    from attn_tutor.marking import mistakes
    from attn_tutor.marking.marker import stage_tolerance
    from attn_tutor.solve import engine

    right: list[Answer] = []
    wrong: dict[tuple[str, str], list[tuple[int, Answer]]] = defaultdict(list)
    for problem in problem_set.problems:
        solution = engine.solve(problem)
        for token in problem.asked_rows:
            row = problem.row_index(token)
            for stage in problem.asked_stages:
                name = str(getattr(stage, "value", stage))
                shown = _line(solution.stage_row(stage, row), problem.decimals)
                right.append(Answer(problem.id, token, name, shown, "correct", None))
                for candidate in mistakes.exact_mistakes(solution, row, stage, rounding=False):
                    made = _line(candidate.made, problem.decimals)
                    apart = np.nanmax(np.abs(np.asarray(candidate.made, float) - np.asarray(candidate.right, float)))
                    # a mistake that changes the row beyond the tolerance (a masked row's ignored_mask types more cells)
                    if apart > stage_tolerance(problem, stage) and candidate.code != "ignored_mask":
                        index = len(right) - 1
                        wrong[(problem.id, token)].append((index, Answer(problem.id, token, name, made, "wrong", candidate.code)))
    return right, dict(wrong)


def plan(problem_set, students: int, wrong_share: float, seed: int) -> list[list[Answer]]:
    """Each student's answers in the order typed: the right rows, with (for ``wrong_share`` of the
    rows, seeded) one stage replaced by a known mistake; the later stages stay right (follow-through
    from the exact rows is marked correct)."""
    right, wrong = answer_sheets(problem_set)
    rng = random.Random(seed)
    sheets = []
    for _ in range(students):
        sheet = list(right)
        for choices in wrong.values():
            if rng.random() < wrong_share:
                index, mistaken = rng.choice(choices)
                sheet[index] = mistaken
        sheets.append(sheet)
    return sheets


# --- the students and the teacher --------------------------------------------------------


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)  # seconds, acknowledged answers of the measured phase
    errors: list[str] = field(default_factory=list)
    acked: list[tuple[str, str, Answer, float]] = field(default_factory=list)  # (student, client id, answer, ack time)
    unexpected: list[str] = field(default_factory=list)  # acknowledged with another mark than planned
    events: list[tuple[float, dict[str, int]]] = field(default_factory=list)  # (arrival, item -> answers counted)
    last_map: dict = field(default_factory=dict)  # the last event's map, as sent
    streams_open: int = 0  # students' event streams that sent their first event (--streams)
    streams_started: int = 0  # streams answered 200 (opened again after a drop: counted again)
    stream_first_s: list[float] = field(default_factory=list)  # each stream: seconds from asking to its first event
    stream_events: int = 0  # events the students' streams sent
    stream_drops: int = 0  # students' streams lost and opened again (as EventSource does)
    stream_drop_reasons: list[str] = field(default_factory=list)  # the first few
    teacher_drops: list[str] = field(default_factory=list)  # the event stream lost and opened again
    killed_after: int | None = None  # answers acknowledged when the server was killed
    resent: int = 0
    first_send: float = math.inf
    last_ack: float = 0.0


def map_items(payload: dict) -> dict[str, dict]:
    """The items of a teacher's map event: ``problem/row/stage`` -> {"verdicts": …, "diagnoses": …}."""
    items = payload.get("map", {})
    return {key: item for key, item in items.items() if isinstance(item, dict)}


def map_totals(payload: dict) -> dict[str, int]:
    """Each item's count of answers in a teacher's map event: the sum of its verdict counts."""
    return {key: sum(int(v) for v in item.get("verdicts", {}).values()) for key, item in map_items(payload).items()}


def map_codes(payload: dict) -> set[str]:
    """The diagnoses a map shows on any item."""
    return {code for item in map_items(payload).values() for code, n in item.get("diagnoses", {}).items() if n}


def as_planned(answer: Answer, verdict: str, diagnosis: str | None) -> bool:
    """Whether the server marked an answer as planned: a right row correct, a mistake named by its code."""
    if answer.verdict == "correct":
        return verdict == "correct"
    return verdict in ("wrong", "partial") and diagnosis == answer.diagnosis


class Student:
    def __init__(self, name: str, sheet: list[Answer]):
        self.name, self.sheet = name, sheet
        self.client_ids = [str(uuid.uuid4()) for _ in sheet]
        self.csrf = ""
        self.done = 0  # answers acknowledged, in order


class Phone:
    """One student's phone: one HTTP/1.1 keep-alive connection on asyncio's streams, its cookies,
    JSON in and out. Leaner than a general client (a few objects a request), so that 500 of them
    on the server's own two cores leave the server its share: what is timed is the server's reply.
    A dropped connection is made again at the next request (as a browser does); a failure is an
    OSError (or asyncio's IncompleteReadError, an EOFError) for the caller to retry."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        from urllib.parse import urlsplit

        where = urlsplit(base)
        self.host, self.port = where.hostname, where.port or 80
        self.authority = where.netloc.encode("ascii")
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: dict | None = None, headers: dict[str, str] | None = None):
        """``(status, reply)``: the reply's JSON (None if it is not JSON)."""
        try:
            return await asyncio.wait_for(self._exchange(method, path, body, headers or {}), self.timeout)
        except BaseException:
            await self.close()  # whatever was half read goes with the connection
            raise

    async def _exchange(self, method, path, body, headers):
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        head = [f"{method} {path} HTTP/1.1".encode("ascii"), b"Host: " + self.authority]
        if body is not None:
            head += [b"Content-Type: application/json", b"Content-Length: %d" % len(data)]
        if self.cookies:
            head.append(("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items())).encode("latin-1"))
        head += [f"{k}: {v}".encode("latin-1") for k, v in headers.items()]
        self._writer.write(b"\r\n".join(head) + b"\r\n\r\n" + data)
        status_line = await self._reader.readuntil(b"\r\n")
        status = int(status_line.split(b" ", 2)[1])
        length, close = 0, False
        for line in (await self._reader.readuntil(b"\r\n\r\n")).split(b"\r\n"):
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"set-cookie":
                cookie = value.decode("latin-1").split(";", 1)[0].strip()
                key, _, val = cookie.partition("=")
                self.cookies[key] = val
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        payload = await self._reader.readexactly(length)
        if close:
            await self.close()
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, None

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except (OSError, asyncio.CancelledError):
                pass


REQUEST_ERRORS = (OSError, EOFError, asyncio.TimeoutError, ValueError, IndexError)  # refused, reset, cut short, garbled


async def hold_stream(base: str, cookies: dict[str, str], figures: Figures, stop: asyncio.Event) -> None:
    """A student's page holding ``GET /api/events`` (a connection of its own, as a browser's EventSource):
    read until ``stop``, each event counted; a dropped stream opened again half a second later."""
    from urllib.parse import urlsplit

    where = urlsplit(base)
    first, began = True, time.monotonic()
    while not stop.is_set():
        writer = None
        try:
            reader, writer = await asyncio.open_connection(where.hostname, where.port or 80)
            cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
            writer.write(f"GET /api/events HTTP/1.1\r\nHost: {where.netloc}\r\nAccept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode("latin-1"))
            status = int((await reader.readuntil(b"\r\n")).split(b" ", 2)[1])
            head = await reader.readuntil(b"\r\n\r\n")
            if status != 200:
                raise ValueError(f"events: {status} {(head + await reader.read(300)).decode('utf-8', 'replace')[-200:]}")
            figures.streams_started += 1
            reading = asyncio.ensure_future(stop.wait())
            while not stop.is_set():
                chunk = asyncio.ensure_future(reader.read(65536))
                await asyncio.wait([chunk, reading], return_when=asyncio.FIRST_COMPLETED)
                if not chunk.done():
                    chunk.cancel()
                    break
                data = chunk.result()
                if not data:
                    raise EOFError("the stream ended")
                events = data.count(b"event: state")
                if events and first:
                    figures.streams_open += 1
                    figures.stream_first_s.append(time.monotonic() - began)
                    first = False
                figures.stream_events += events
            reading.cancel()
        except (*REQUEST_ERRORS, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            figures.stream_drops += 1
            if len(figures.stream_drop_reasons) < 5:
                figures.stream_drop_reasons.append(repr(error)[:200])
            await asyncio.sleep(0.5)
        finally:
            if writer is not None:
                writer.close()


async def join(client: Phone, student: Student, figures: Figures, retry_until: float) -> None:
    """As the page does: its state first (the CSRF cookie and token), then the name; a dropped
    connection or a 5xx tried again a moment later, until ``retry_until``."""
    while True:
        try:
            return await join_once(client, student)
        except (RuntimeError, *REQUEST_ERRORS) as error:
            if time.monotonic() > retry_until:
                raise
            if isinstance(error, RuntimeError) and " 5" not in str(error)[:60]:
                raise
            await asyncio.sleep(0.5)


async def join_once(client: Phone, student: Student) -> None:
    status, reply = await client.request("GET", "/api/state")
    if status != 200:
        raise RuntimeError(f"state {student.name}: {status} {str(reply)[:200]}")
    status, reply = await client.request("POST", "/api/join", {"name": student.name}, {"X-CSRF-Token": reply["csrf"]})
    if status != 200:
        raise RuntimeError(f"join {student.name}: {status} {str(reply)[:200]}")
    student.csrf = reply["csrf"]


async def send(client, student: Student, index: int, figures: Figures, *, measured: bool, retry_until: float) -> bool:
    """Send one answer; on a dropped connection or a 5xx, wait and resend it (the same client id),
    as the page does, until ``retry_until``. True once acknowledged."""
    answer = student.sheet[index]
    body = {"problem": answer.problem, "row": answer.row, "stage": answer.stage, "text": answer.text, "client_id": student.client_ids[index]}
    tries = 0
    while True:
        started = time.monotonic()
        figures.first_send = min(figures.first_send, started)
        try:
            status, reply = await client.request("POST", "/api/answer", body, {"X-CSRF-Token": student.csrf})
            reply = reply if status < 500 else None
        except REQUEST_ERRORS as error:  # a connection refused or reset while the server is down
            status, reply = 0, repr(error)
        acked = time.monotonic()
        if status == 200 and reply.get("saved"):
            figures.last_ack = max(figures.last_ack, acked)
            if measured and tries == 0:
                figures.latencies.append(acked - started)
            if tries:
                figures.resent += 1
            figures.acked.append((student.name, student.client_ids[index], answer, acked))
            if "verdict" in reply and not as_planned(answer, reply["verdict"], reply.get("diagnosis")):
                figures.unexpected.append(f"{answer.problem}/{answer.row}/{answer.stage} {answer.text!r}: {reply['verdict']} {reply.get('diagnosis')}, planned {answer.verdict} {answer.diagnosis}")
            return True
        if measured and status != 429:
            figures.errors.append(f"{answer.problem}/{answer.row}/{answer.stage}: {status} {str(reply)[:200]}")
            if status and status < 500:
                return False
        if time.monotonic() > retry_until:
            figures.errors.append(f"{answer.problem}/{answer.row}/{answer.stage}: never acknowledged")
            return False
        tries += 1
        await asyncio.sleep(0.2 if status == 429 else 0.3)


async def run_students(base: str, students: list[Student], figures: Figures, *, window: float, grace: float, measured: bool,
                       on_ack=None, streams: bool = False) -> None:  # fmt: skip
    """Every student joins, then sends its answers paced over ``window`` seconds (each student's
    start spread over the first tenth), one at a time, each after the previous one's acknowledgement.
    Every student's answers are the same step apart, so the class stays as spread out at the end as
    at the start: a step that shrank with a late start would bring all 500 last answers into the same
    tenth of a second, a burst no class makes. With ``streams``, each student holds the students'
    event stream open from joining until the whole class is done (:func:`hold_stream`)."""
    begin = time.monotonic()
    spread = window * 0.1
    retry_until = begin + window + grace
    clients = []
    held: list[asyncio.Future] = []
    done = asyncio.Event()

    async def one(student: Student, offset: float):
        client = Phone(base)  # each student a phone of its own: its cookies, one connection
        clients.append(client)
        await asyncio.sleep(offset)
        try:
            await join(client, student, figures, retry_until)
        except Exception as error:  # noqa: BLE001
            figures.errors.append(f"join {student.name}: {error!r}")
            return
        if streams:
            held.append(asyncio.ensure_future(hold_stream(base, client.cookies, figures, done)))
        step = (window * 0.9 - spread) / max(1, len(student.sheet))
        for index in range(len(student.sheet)):
            if time.monotonic() > retry_until:  # bounded: what is left was not answered in time
                figures.errors.append(f"{student.name}: {len(student.sheet) - index} answers not sent within the window")
                return
            due = begin + offset + index * step
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if await send(client, student, index, figures, measured=measured, retry_until=retry_until):
                student.done += 1
                if on_ack is not None:
                    on_ack()

    rng = random.Random(len(students))
    try:
        await asyncio.gather(*(one(s, rng.uniform(0, spread)) for s in students))
    finally:
        done.set()
        await asyncio.gather(*held, return_exceptions=True)
        for client in clients:
            await client.close()


async def follow_map(server: Server, figures: Figures, stop: asyncio.Event) -> None:
    """The teacher's page: the secret link once (its cookie), then the event stream, each event's map kept."""
    from urllib.parse import urlsplit

    import httpx2 as httpx  # the test extra's client (Starlette's TestClient wants it too)

    url = urlsplit(server.teacher_url)
    base = f"{url.scheme}://{url.netloc}"
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(30.0, read=None), follow_redirects=True) as client:
        async def read():
            signed_in = False
            while not stop.is_set():  # a dropped stream is opened again, as the browser's EventSource does
                try:
                    if not signed_in:
                        response = await client.get(f"{url.path}?{url.query}")
                        response.raise_for_status()
                        signed_in = True
                    await read_once()
                except httpx.HTTPError as error:
                    figures.teacher_drops.append(repr(error))
                    await asyncio.sleep(0.5)

        async def read_once():
            async with client.stream("GET", "/teacher/events", headers={"Accept": "text/event-stream"}) as stream:
                data = []
                async for line in stream.aiter_lines():
                    if line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif line == "" and data:
                        arrived = time.monotonic()
                        try:
                            payload = json.loads("\n".join(data))
                            figures.events.append((arrived, map_totals(payload)))
                            figures.last_map = payload
                        except (ValueError, AttributeError):
                            pass
                        data = []

        reader = asyncio.ensure_future(read())
        await stop.wait()
        reader.cancel()
        try:
            await reader
        except (asyncio.CancelledError, Exception):  # noqa: BLE001
            pass


def map_lags(figures: Figures) -> list[float]:
    """For each acknowledged answer: seconds until an event's map counted its item as often as
    answers of that item had been acknowledged by then (0 if the event came before the ack)."""
    order = sorted(figures.acked, key=lambda a: a[3])
    seen: dict[str, int] = defaultdict(int)
    events = figures.events
    lags = []
    for _name, _client, answer, acked in order:
        key = f"{answer.problem}/{answer.row}/{answer.stage}"
        seen[key] += 1
        wanted = seen[key]
        lag = math.inf
        for arrived, totals in events:  # events in arrival order; the first that counts this many
            if totals.get(key, 0) >= wanted:
                lag = max(0.0, arrived - acked)
                break
        lags.append(lag)
    return lags


def pg_backend_cpu(db: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving ``serve`` (``application_name`` "attn-tutor
    serve"), by process id: what the database's own processes spend on the answers (a local server only)."""
    import os

    import psycopg

    from attn_tutor.sessions.postgres import APPLICATION_NAME

    with psycopg.connect(db, autocommit=True) as conn:
        pids = [row[0] for row in conn.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", (APPLICATION_NAME,))]
    found = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            found[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return found


def missing_answers(db: str, figures_list: list[Figures]) -> list[str]:
    """Acknowledged answers the store does not hold as the student's latest, text and client id."""
    from attn_tutor.sessions.opening import open_store

    store = open_store(db, None, create=False, readonly=True)
    try:
        by_name = {student.name: student.id for student, _answered, _score in store.roster()}
        latest_of: dict[int, dict] = {}
        missing = []
        for figures in figures_list:
            for name, client_id, answer, _acked in figures.acked:
                student_id = by_name.get(name)
                if student_id is None:
                    missing.append(f"{name}: not in the session")
                    continue
                if student_id not in latest_of:
                    latest_of[student_id] = store.latest(student_id)
                kept = latest_of[student_id].get((answer.problem, answer.row, answer.stage))
                if kept is None or kept.client_id != client_id or kept.text != answer.text:
                    missing.append(f"{name}: {answer.problem}/{answer.row}/{answer.stage}")
        return missing
    finally:
        store.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


# --- the run ------------------------------------------------------------------------------


@dataclass
class Result:
    students: int
    submissions: int
    acknowledged: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    throughput: float
    errors: list[str]
    unexpected: list[str]
    map_lag_s: float  # the largest
    map_lag_p99_s: float
    rss_mb: float  # the server's processes together, at their peak
    rss_worker_mb: float  # the largest one process (a worker, or the one server) was
    store: str  # "sqlite" | "postgresql"
    workers: int
    streams: int  # students' event streams held open (0 without --streams)
    streams_open: int  # of them, those that sent their first event
    stream_first_p50_s: float  # seconds from asking for a stream to its first event: the median
    stream_first_max_s: float  # and the longest
    stream_drops: int
    crash_students: int
    crash_acknowledged: int
    resent_after_restart: int
    missing: list[str]
    last_counts: dict[str, int]  # each item's count of answers on the last map the teacher had
    diagnoses_on_map: int  # how many of the planned mistakes' codes the final map shows
    diagnoses_planned: int
    killed_after: int | None
    server_cpu_ms: float  # server CPU time per acknowledged answer of the measured phase
    database_cpu_ms: float  # PostgreSQL's backends' CPU time per acknowledged answer (nan: SQLite, in the server's)
    load: str  # the machine's load average at the end of the measured phase

    def lines(self) -> list[str]:
        ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
        return [
            f"{self.store}, {self.workers} worker{'s' if self.workers > 1 else ''}: {self.students} students"
            + (f" holding {self.streams} event streams ({self.streams_open} sent their first event, after {self.stream_first_p50_s:.2f} s"
               f" (median) to {self.stream_first_max_s:.2f} s; {self.stream_drops} turned away or dropped and opened again)"
               if self.streams else "") + ",",
            f"{self.students} students, {self.submissions} answers sent, {self.acknowledged} acknowledged",
            f"latency p50 {self.p50_ms:.1f} ms, p95 {self.p95_ms:.1f} ms, p99 {self.p99_ms:.1f} ms"
            f" (target p99 <= {TARGETS['p99_ms']:.0f} ms: {ok(self.p99_ms <= TARGETS['p99_ms'])})",
            f"throughput {self.throughput:.0f} answers/s; server CPU {self.server_cpu_ms:.2f} ms an answer"
            f" (one core's worth: {1000 / max(self.server_cpu_ms, 1e-9):.0f} answers/s)"
            + ("" if math.isnan(self.database_cpu_ms) else f", PostgreSQL's backends {self.database_cpu_ms:.2f} ms an answer")
            + f"; load average {self.load}",
            f"errors {len(self.errors)} (target 0: {ok(not self.errors)}); marked other than planned: {len(self.unexpected)}",
            f"teacher's map lag: max {self.map_lag_s:.3f} s, p99 {self.map_lag_p99_s:.3f} s"
            f" (target <= {TARGETS['map_lag_s']:.0f} s: {ok(self.map_lag_s <= TARGETS['map_lag_s'])}); mistakes' codes on the map: {self.diagnoses_on_map} of {self.diagnoses_planned}",
            f"server memory peak {self.rss_worker_mb:.0f} MB a process (target <= {TARGETS['rss_mb']:.0f} MB a worker:"
            f" {ok(self.rss_worker_mb <= TARGETS['rss_mb'])}), {self.rss_mb:.0f} MB all its processes together",
            (f"kill -9 with {self.crash_students} more students, after {self.killed_after} of their answers were acknowledged,"
             if self.killed_after is not None else f"{self.crash_students} more students, the server NOT killed (the phase ended first),")
            + " restarted on the same database:"
            f" {self.crash_acknowledged} acknowledged ({self.resent_after_restart} resent after the restart),"
            f" acknowledged answers missing {len(self.missing)} (target 0: {ok(not self.missing)})",
        ]

    def last_line(self) -> str:
        return f"p50 {self.p50_ms:.1f} p95 {self.p95_ms:.1f} p99 {self.p99_ms:.1f} ms"


async def _measured(server: Server, students: list[Student], figures: Figures, window: float, grace: float, streams: bool) -> None:
    stop = asyncio.Event()
    teacher = asyncio.ensure_future(follow_map(server, figures, stop))
    await asyncio.sleep(0.5)  # the teacher's page is open before the class starts
    try:
        await run_students(server.student_url.split("?")[0].rstrip("/"), students, figures, window=window, grace=grace, measured=True,
                           streams=streams)  # fmt: skip
        await asyncio.sleep(1.5)  # the last events
    finally:
        stop.set()
        await teacher


async def _crash(server: Server, students: list[Student], figures: Figures, window: float, grace: float, streams: bool) -> None:
    total = sum(len(s.sheet) for s in students)
    half = asyncio.Event()
    count = 0

    def on_ack():
        nonlocal count
        count += 1
        if count >= total // 2:
            half.set()

    base = server.student_url.split("?")[0].rstrip("/")
    class_ = asyncio.ensure_future(run_students(base, students, figures, window=window, grace=grace, measured=False, on_ack=on_ack,
                                                  streams=streams))  # fmt: skip
    halfway = asyncio.ensure_future(half.wait())
    # mid-run: when half the answers are acknowledged, or half the window has gone by, whichever comes first
    await asyncio.wait([class_, halfway], timeout=window / 2, return_when=asyncio.FIRST_COMPLETED)
    if not class_.done():
        await asyncio.to_thread(server.kill)
        figures.killed_after = len(figures.acked)
        await asyncio.to_thread(server.start)
    else:
        figures.errors.append("the crash phase ended before the server was killed")
    halfway.cancel()
    await class_


def run(*, students: int = 500, window: float = 60.0, db: str | None = None, workers: int = 1, wrong_share: float = 0.2,
        seed: int = 20, grace: float = 20.0, crash_share: float = 0.2, workdir: Path | None = None, streams: bool = False) -> Result:  # fmt: skip
    from attn_tutor.problems.load import load_problem_set

    problem_set = load_problem_set("ch13")
    sheets = plan(problem_set, students + max(1, int(students * crash_share)), wrong_share, seed)
    made_dir = None
    if db is None:
        made_dir = tempfile.TemporaryDirectory(prefix="serve-load-", dir=workdir)
        db = str(Path(made_dir.name) / "load.sqlite")
    server = Server(db, workers=workers)
    server.start()
    try:
        measured = Figures()
        class_ = [Student(f"load-{i:04d}", sheets[i]) for i in range(students)]
        postgres = db.startswith(("postgresql://", "postgres://"))
        cpu = server.cpu_seconds()
        backends = pg_backend_cpu(db) if postgres else {}
        asyncio.run(_measured(server, class_, measured, window, grace, streams))
        cpu = server.cpu_seconds() - cpu
        database_cpu = sum(now - backends.get(pid, 0.0) for pid, now in pg_backend_cpu(db).items()) if postgres else math.nan
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        peak, peak_process = server.peak_rss, server.peak_process_rss
        crashed = Figures()
        crash_class = [Student(f"crash-{i:04d}", sheets[students + i]) for i in range(len(sheets) - students)]
        asyncio.run(_crash(server, crash_class, crashed, max(2.0, window * crash_share), grace, streams))
        peak, peak_process = max(peak, server.peak_rss), max(peak_process, server.peak_process_rss)
    finally:
        server.stop()
    try:
        missing = missing_answers(db, [measured, crashed])
        lags = map_lags(measured)
        planned_codes = {a.diagnosis for s in class_ for a in s.sheet if a.diagnosis}
        return Result(
            students=students,
            submissions=sum(len(s.sheet) for s in class_),
            acknowledged=len(measured.acked),
            p50_ms=1000 * percentile(measured.latencies, 50),
            p95_ms=1000 * percentile(measured.latencies, 95),
            p99_ms=1000 * percentile(measured.latencies, 99),
            throughput=len(measured.acked) / max(1e-9, measured.last_ack - measured.first_send),
            errors=measured.errors + [e for e in crashed.errors if "never acknowledged" in e or "ended before" in e],
            unexpected=measured.unexpected,
            map_lag_s=max(lags, default=math.inf),
            map_lag_p99_s=percentile(lags, 99),
            rss_mb=peak / 2**20,
            rss_worker_mb=peak_process / 2**20,
            store="postgresql" if db.startswith(("postgresql://", "postgres://")) else "sqlite",
            workers=workers,
            streams=students if streams else 0,
            streams_open=measured.streams_open,
            stream_first_p50_s=percentile(measured.stream_first_s, 50),
            stream_first_max_s=max(measured.stream_first_s, default=math.nan),
            stream_drops=measured.stream_drops,
            crash_students=len(crash_class),
            crash_acknowledged=len(crashed.acked),
            resent_after_restart=crashed.resent,
            missing=missing,
            last_counts=map_totals(measured.last_map),
            diagnoses_on_map=len(planned_codes & map_codes(measured.last_map)),
            diagnoses_planned=len(planned_codes),
            killed_after=crashed.killed_after,
            server_cpu_ms=1000 * cpu / max(1, len(measured.acked)),
            database_cpu_ms=1000 * database_cpu / max(1, len(measured.acked)),
            load=load,
        )
    finally:
        if made_dir is not None:
            made_dir.cleanup()


def pg_schema_url(base: str):
    """A fresh schema of its own in the database ``base`` names, as a URL, and how to drop it afterwards."""
    import psycopg

    schema = f"serve_load_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")

    def drop() -> None:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")

    return f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}", drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--window", type=float, default=60.0, help="seconds the class has to answer everything")
    parser.add_argument("--db", help="a postgresql:// URL (default: a fresh SQLite file in a temporary folder)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (PostgreSQL only; a SQLite file has one)")
    parser.add_argument("--streams", action="store_true", help="every student holds the students' event stream open")
    parser.add_argument("--no-sqlite", action="store_true",
                        help="with --db: leave out the same load on a SQLite file, run first for comparison")  # fmt: skip
    parser.add_argument("--wrong-share", type=float, default=0.2, help="the share of rows typed with a known mistake")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    same = {"students": args.students, "window": args.window, "wrong_share": args.wrong_share, "seed": args.seed, "streams": args.streams}
    results = []
    if args.db is None or not args.no_sqlite:  # SQLite: one process holds the file
        results.append(run(db=None, workers=1, **same))
        for line in results[-1].lines():
            print(line, flush=True)
        print(flush=True)
    if args.db is not None:
        db, drop = pg_schema_url(args.db)
        try:
            results.append(run(db=db, workers=args.workers, **same))
        finally:
            drop()
        for line in results[-1].lines():
            print(line)
    for result in results:
        for error in (result.errors + result.unexpected + result.missing)[:10]:
            print("  ", result.store, error)
    print(results[-1].last_line())


if __name__ == "__main__":
    main()
