"""The session's changes fanned out to every event stream a worker process has open: :class:`Feed`.

The teacher's page holds ``GET /teacher/events`` (the map after each change) and each student's
page may hold ``GET /api/events`` (the session's state after each control). However many are open,
a process follows the store once: one task waits for the change number (:meth:`Store.wait_change`,
in one worker thread; on PostgreSQL the process's one ``LISTEN`` connection wakes it, on a SQLite
file the commit in this process), makes the teacher's snapshot once for each change (at most once
each ``gap`` seconds) and the students' state once, and wakes every stream, which sends the newest
event it has not sent. An open stream costs no thread, no database connection and no query.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from attn_tutor.core.errors import AttnTutorError
from attn_tutor.core.i18n import speaking

WAITING = ": waiting\n\n"  # the keep-alive line


def event(name: str, payload: dict) -> str:
    """One server-sent event: ``event: NAME`` and the payload as compact JSON."""
    return f"event: {name}\ndata: {json.dumps(payload, ensure_ascii=False, separators=(',', ':'))}\n\n"


STATE = "state"  # the students' kind: the session's state, sent as ``event: state``; every other kind is the teacher's, ``event: map``


class Feed:
    """One process's follower of the session (see the module): the newest event of each kind of
    stream as its text, and for each an :class:`asyncio.Event` set (and replaced) at each new one.

    ``views``: each kind's maker, called in a worker thread — the teacher's map (``map``: it reads the
    store, its payload says its change number as ``seq``), the projector's view likewise
    (``projector``: the map without a name), the students' state (``state``: the session's record,
    read again only after a control). ``lang`` is the session's language, for the sentence a stream
    says while the store cannot be read."""

    def __init__(self, store, *, views: dict[str, Callable[[], dict]], lang: str, wait: float, gap: float, quiet: float) -> None:
        self.store, self.views, self.lang = store, views, lang
        self.wait = wait  # seconds the follower and a teacher's stream wait for something new (then a keep-alive line)
        self.gap = gap  # seconds at least between two maps, however fast answers come
        # each kind's seconds between keep-alive lines (a class's 500 students' streams: rarely)
        self.quiet = {kind: quiet if kind == STATE else wait for kind in views}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reset()

    def _reset(self) -> None:
        self._listeners = dict.fromkeys(self.views, 0)
        self._latest: dict[str, tuple[int, str] | None] = dict.fromkeys(self.views)  # (change number, the event's text)
        self._said: str | None = None  # why the store cannot be read, while it cannot (a comment line)
        self._said_last, self._said_count = "", 0  # the last such line, and how many were said: each stream says each
        self._new = {kind: asyncio.Event() for kind in self.views}  # set (and replaced) when there is a new one of each
        self._task: asyncio.Task | None = None
        self._making: dict[str, asyncio.Future | None] = dict.fromkeys(self.views)  # a first event being made

    def _here(self) -> None:
        """The feed of the running event loop (a test's client may run each app on a loop of its own)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._reset()

    def _publish(self, *kinds: str) -> None:
        """Every stream of ``kinds`` (default: all) woken: a map does not wake the students' streams."""
        for kind in kinds or tuple(self._new):
            self._new[kind].set()
            self._new[kind] = asyncio.Event()

    def _keep(self, kind: str, seq: int, text: str) -> None:
        known = self._latest[kind]
        if known is None or (seq >= known[0] and text != known[1]):  # a state unchanged by an answer wakes no one
            self._latest[kind] = (seq, text)
            self._publish(kind)

    def _made(self, kind: str, seq: int | None = None) -> tuple[int, str]:
        """The event of ``kind`` as the store has it now, its JSON written too (in a worker thread, off the loop)."""
        payload = self.views[kind]()
        if kind != STATE:
            return int(payload.get("seq", 0)), event("map", payload)
        return self.store.changes() if seq is None else seq, event(STATE, payload)

    async def _make(self, kind: str) -> tuple[int, str]:
        return await run_in_threadpool(self._made, kind)

    def _cycle(self, last: int, kinds: tuple[str, ...]) -> tuple[int, dict[str, tuple[int, str]]]:
        """One turn of the follower, all in one worker thread (one trip from the loop and back, however
        busy the loop is): the change number once past ``last`` (or after ``wait``), and if it moved,
        the events of ``kinds`` made afresh."""
        seq = self.store.changes() if last < 0 else self.store.wait_change(last, self.wait)
        if seq == last:
            return seq, {}
        return seq, {kind: self._made(kind, seq) for kind in kinds}

    async def _first(self, kind: str) -> str | None:
        """The first event of ``kind`` made once for every stream that opens before it is there; if the
        store cannot be read, why (a comment line for the stream to send)."""
        making = self._making[kind]
        if making is None:
            making = self._making[kind] = asyncio.ensure_future(self._make(kind))
        try:
            seq, text = await asyncio.shield(making)
        except AttnTutorError as error:
            return self._why(error)
        finally:
            if making.done() and self._making[kind] is making:
                self._making[kind] = None
        self._keep(kind, seq, text)
        return None

    def _why(self, error: AttnTutorError) -> str:
        with speaking(self.lang):  # the session's, whoever iterates the stream (never across a yield)
            return f": {error.messages()[0]}\n\n"

    async def _follow(self) -> None:
        """The one task that follows the store while any stream is open."""
        last = -1
        try:
            while any(self._listeners.values()):
                try:
                    kinds = tuple(kind for kind, count in self._listeners.items() if count)
                    seq, made = await run_in_threadpool(self._cycle, last, kinds)
                    if seq == last:
                        continue
                    for kind, (at, text) in made.items():
                        self._keep(kind, at, text)
                except AttnTutorError as error:  # the database went away: said, and tried again until it is back
                    self._said = self._said_last = self._why(error)
                    self._said_count += 1
                    self._publish()
                    last = -1
                    await asyncio.sleep(self.wait)
                    continue
                if self._said is not None:
                    self._said = None
                    self._publish()
                last = seq
                await asyncio.sleep(self.gap)
        finally:
            self._task = None

    async def stream(self, kind: str, is_disconnected: Callable[[], Awaitable[bool]]) -> AsyncIterator[str]:
        """One stream of ``kind`` (``map``: the teacher's; ``projector``: the projector's; ``state``: a student's) until the browser goes:
        the newest event at once, then each newer one, a keep-alive line after ``wait`` seconds without,
        and while the store cannot be read, why."""
        self._here()
        self._listeners[kind] += 1
        if self._task is None:
            self._task = asyncio.ensure_future(self._follow())
        sent: Any = None
        said = self._said_count  # the follower's sentences said on this stream: every one since it opened, even
        try:  # one the store recovered from before this stream's turn came (then the map follows it)
            while not await is_disconnected():
                new = self._new[kind]
                if said != self._said_count:
                    said = self._said_count
                    yield self._said_last
                    continue
                if self._said is None:
                    latest = self._latest[kind]
                    if latest is None:  # the first of its kind here: made now (once, however many wait), not at the next change
                        why = await self._first(kind)
                        if why is not None:
                            yield why
                            await asyncio.sleep(self.wait)
                        continue  # (what the follower said meanwhile goes first)
                    if latest is not None and latest is not sent:
                        sent = latest
                        yield latest[1]
                        continue
                try:
                    await asyncio.wait_for(new.wait(), self.quiet[kind])
                except TimeoutError:
                    yield WAITING
        finally:
            self._listeners[kind] -= 1
            if not self._listeners[kind]:
                self._latest[kind] = None  # none kept while no one follows it: it would go stale
