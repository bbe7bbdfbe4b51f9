"""The serve command: a live class on this computer (the web app of :mod:`attn_tutor.live.app`, served by uvicorn).

Prints ``student: URL`` and ``teacher: URL`` (the teacher's carries a new random secret), the
address phones use, where the session is kept, and the student link as a QR code; then serves
until Ctrl-C or SIGTERM, which stop it cleanly (exit status 0, the database closed). The server's
libraries (starlette, uvicorn, segno, psycopg) are imported by this module: the command table
imports it only for ``serve`` (``--help`` and ``solve`` start without them).
"""

from __future__ import annotations

import contextlib
import errno
import inspect
import json
import os
import secrets
import signal
import socket
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import Annotated, Optional

import segno
import typer
import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.supervisors import Multiprocess

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import SetArgument, guarded
from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.i18n import resolve_lang, t
from attn_tutor.live.app import make_app
from attn_tutor.live.lti.app import make_lti_app
from attn_tutor.practice.data import set_name
from attn_tutor.problems.load import load_problem_set
from attn_tutor.sessions.lti import open_lti
from attn_tutor.sessions.opening import is_postgres, open_store

HostOption = Annotated[str, typer.Option("--host", help="help.serve.host")]
PortOption = Annotated[int, typer.Option("--port", help="help.serve.port")]
DbOption = Annotated[Optional[str], typer.Option("--db", help="help.serve.db")]
ModeOption = Annotated[Optional[str], typer.Option("--mode", help="help.serve.mode")]
WorkersOption = Annotated[int, typer.Option("--workers", help="help.serve.workers")]
LtiOption = Annotated[bool, typer.Option("--lti", help="help.serve.lti")]
PublicUrlOption = Annotated[Optional[str], typer.Option("--public-url", help="help.serve.public_url")]


@guarded
def serve(
    file: SetArgument = None,
    host: HostOption = "0.0.0.0",
    port: PortOption = 8000,
    db: DbOption = None,
    mode: ModeOption = None,
    lang: LangOption = None,
    workers: WorkersOption = 1,
    lti: LtiOption = False,
    public_url: PublicUrlOption = None,
) -> None:
    """Run a live class. (Its --help is the catalogue key help.cmd.serve, not this docstring.)"""
    language = resolve_lang(lang)
    if mode is not None and mode not in ("practice", "exam"):
        raise UsageError("live.error.bad_mode", mode=mode)
    if not 0 <= port <= 65535:
        raise UsageError("serve.bad_port", port=port)
    if workers < 1:
        raise UsageError("serve.bad_workers", workers=workers)
    if lti:  # the LTI tool: a live class per activity, no set named here
        return _serve_lti(file, host, port, db, public_url, language, workers)
    postgres = db is not None and is_postgres(db)
    if workers > 1 and not postgres:
        raise UsageError("serve.workers_sqlite", workers=workers)

    problem_set = load_problem_set(file)
    defaulted = db is None
    if db is None:
        stem = Path(set_name(problem_set, file)).stem or "session"
        db = str(Path.cwd() / f"{stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite")
    listener = _listen(host, port)
    try:
        store = open_store(db, problem_set, create=True)
    except BaseException:
        listener.close()
        raise
    try:
        with store.starting():
            if mode is not None and store.session().mode != mode:
                store.set_mode(mode)
            secret = store.teacher_secret(secrets.token_urlsafe(24))  # kept: a restart prints the same link
        bound = listener.getsockname()[1]
        address, note = _address(host)
        student_url = f"http://{_url_host(address)}:{bound}/"
        teacher_url = f"http://{_url_host(address)}:{bound}/teacher?key={secret}"
        app = make_app(store, problem_set, lang=language, secret=secret, student_url=student_url, set_name=set_name(problem_set, file))
        with _stops_noted() as stops:
            try:
                _announce(student_url, teacher_url, note, db if defaulted else None)
                if workers > 1:
                    _serve_workers(listener, db, file, language, secret, student_url, workers, stops)
                else:
                    _serve_one(app, listener, stops)
            except KeyboardInterrupt:  # a Ctrl-C before serve was running: as clean a stop
                pass
    finally:
        listener.close()
        stopped = _rescued(store, db)
        store.close()
    sys.stderr.write(stopped + "\n")


def _serve_lti(file: str | None, host: str, port: int, db: str | None, public_url: str | None, language: str, workers: int) -> None:
    """``serve --lti``: the LTI tool (:mod:`attn_tutor.live.lti.app`) on the store ``db``, one live
    class a resource link, until Ctrl-C or SIGTERM."""
    if file is not None:
        raise UsageError("serve.lti_set", file=file)
    if workers > 1 and not (db is not None and is_postgres(db)):
        raise UsageError("serve.workers_sqlite", workers=workers)
    db = db or str(Path.cwd() / "attn-tutor-lti.sqlite")
    listener = _listen(host, port)
    try:
        store = open_lti(db)
    except BaseException:
        listener.close()
        raise
    front = None
    try:
        address, note = _address(host)
        public = (public_url or f"http://{_url_host(address)}:{listener.getsockname()[1]}").rstrip("/")
        if workers == 1:
            front = make_lti_app(store, lang=language, public_url=public)
        with _stops_noted() as stops:
            sys.stdout.write(t("serve.lti", url=public) + "\n" + note + "\n" + t("serve.stop_hint") + "\n")
            sys.stdout.flush()
            try:
                if front is not None:
                    _serve_one(front, listener, stops)
                else:
                    _serve_lti_workers(listener, db, language, public, workers, stops)
            except KeyboardInterrupt:
                pass
    finally:
        listener.close()
        if front is not None:
            front.tool.close()
        store.close()
    sys.stderr.write(t("serve.stopped", db=_shown_db(db)) + "\n")


LTI_ENV = "ATTN_TUTOR_LTI_WORKER"


def _serve_lti_workers(listener, db: str, lang: str, public_url: str, workers: int, stops: list[int]) -> None:
    """``serve --lti --workers N`` (PostgreSQL): N processes on one socket, each with its own
    connections, its activities opened as they are asked for (:func:`lti_worker_app`)."""
    os.environ[LTI_ENV] = json.dumps({"db": db, "lang": lang, "public_url": public_url})
    config = _config("attn_tutor.cli.serve:lti_worker_app", factory=True, workers=workers)
    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.36: the supervisor is told what to run
        supervisor = Multiprocess(config, target=_server_class([])(config).run, sockets=[listener])  # type: ignore[call-arg]  # (that older uvicorn's)
    else:
        supervisor = Multiprocess(config, sockets=[listener])
    if stops:
        if not hasattr(supervisor, "signal_queue"):
            return
        supervisor.signal_queue.extend(stops)
    supervisor.run()


def lti_worker_app():
    """One worker's LTI tool (``serve --lti --workers``): the store named in the environment, opened in this process."""
    told = json.loads(os.environ[LTI_ENV])
    return make_lti_app(open_lti(told["db"]), lang=told["lang"], public_url=told["public_url"])


def _rescued(store, db: str) -> str:
    """What the stop says of the answers: where every one is saved (the session file removed or
    replaced while serving: copied to a new file first, or why it could not be)."""
    if not store.gone():
        return t("serve.stopped", db=_shown_db(db))
    try:
        rescued = store.rescue()
    except AttnTutorError as error:
        return t("serve.stopped_gone", db=db, reason=error.messages()[0])
    return t("serve.stopped_rescued", db=db, rescued=rescued)


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a port in use is a sentence (exit 1), not a traceback."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise AttnTutorError("serve.cannot_listen", host=host, port=port, reason=str(error)) from None
    family, kind, proto, _, where = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(where)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise AttnTutorError("serve.port_in_use", host=host, port=port) from None
        raise AttnTutorError("serve.cannot_listen", host=host, port=port, reason=error.strerror or str(error)) from None
    sock.set_inheritable(True)
    return sock


def _lan_address() -> str | None:
    """This computer's address on its network (the one a route out would use; nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, only chooses the interface
        address = probe.getsockname()[0]
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None


def _address(host: str) -> tuple[str, str]:
    """The address to print in the links, and the sentence about who can reach it."""
    if host in ("0.0.0.0", "::", ""):
        lan = _lan_address()
        if lan is None:
            return "127.0.0.1", t("serve.no_lan")
        return lan, t("serve.lan", host=lan)
    if host in ("localhost",) or host.startswith("127.") or host == "::1":
        return host, t("serve.local_only", host=host)
    return host, t("serve.lan", host=host)


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _shown_db(db: str) -> str:
    if is_postgres(db):
        return db.split("@")[-1]  # the host and database, never the password
    return db


def _announce(student_url: str, teacher_url: str, note: str, defaulted_db: str | None) -> None:
    out = sys.stdout
    out.write(t("serve.student", url=student_url) + "\n")
    out.write(t("serve.teacher", url=teacher_url) + "\n")
    out.write(note + "\n")
    if defaulted_db is not None:
        out.write(t("serve.db_default", path=defaulted_db) + "\n")
    out.flush()
    with contextlib.suppress(OSError, UnicodeEncodeError):
        segno.make(student_url, error="m").terminal(out=out, compact=True)
    out.write(t("serve.stop_hint") + "\n")
    out.flush()


STOPS = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])


@contextlib.contextmanager
def _stops_noted():
    """Ctrl-C, SIGTERM and SIGHUP noted (the list yielded) from before the links are printed until
    the session is closed, so that a stop at any moment is a clean stop: one that comes before
    uvicorn has taken the signals over is handed to it when it does (:func:`_server_class`), and it
    stops as soon as it has started. Without this, Python's own Ctrl-C (a KeyboardInterrupt raised
    wherever the program is) is lost when it lands in a finalizer or a weak reference's callback,
    which swallow it, and the server then runs on; and a SIGTERM then ends the process at once."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    stops: list[int] = []
    before = {sig: signal.signal(sig, lambda sig, frame: stops.append(sig)) for sig in STOPS}
    try:
        yield stops
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _server_class(stops: list[int]):
    class Server(uvicorn.Server):
        """uvicorn's server, but a Ctrl-C or SIGTERM that stopped it is not raised again: serve ends with
        status 0; and one that came before it took the signals over (``stops``) stops it at once."""

        @contextlib.contextmanager
        def capture_signals(self):
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            before = {sig: signal.signal(sig, self.handle_exit) for sig in STOPS}
            for sig in stops:
                self.handle_exit(sig, None)
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

    return Server


HEADER_TIMEOUT = 10.0  # seconds a connection has to send a request's headers (slowloris: a byte a minute holds a socket)
PARTIAL_LIMIT = 256  # connections at once still sending their headers, each process: more are turned away (503)


_PARTIAL: set = set()  # this process's connections still sending a request's headers


class GuardedHTTP(AutoHTTPProtocol):  # type: ignore[valid-type,misc]  # (httptools' or h11's, chosen at import)
    """uvicorn's HTTP protocol (httptools where installed, else h11) with what uvicorn does not offer:
    a deadline for each request's headers (:data:`HEADER_TIMEOUT`, from the connection or the last
    response: 408, then closed) and a cap on connections still sending them (:data:`PARTIAL_LIMIT`:
    503, closed at once): a new connection until its first request's headers came, a kept-alive one
    once the next request's first bytes came. A kept-alive connection between two requests (a phone
    between two answers) is not counted, so a class of 500 phones, each with an event stream open
    too, is served; it has the header deadline, and uvicorn closes it when idle. uvicorn's own limits stand: an incomplete request's size (h11's 16 KiB, the
    body by :data:`attn_tutor.live.app.BODY_LIMIT`) and the keep-alive timeout between requests."""

    _deadline = None
    _before = None  # the request/response cycle before the headers awaited: a new one means they came

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        if len(_PARTIAL) >= PARTIAL_LIMIT:
            self._refuse(503, "serve.too_many_partial")
            return
        self._await_headers(counted=True)

    def _await_headers(self, *, counted: bool) -> None:
        self._stop_waiting()
        self._before = self.cycle
        self._deadline = self.loop.call_later(HEADER_TIMEOUT, self._refuse, 408, "serve.header_timeout")
        if counted:
            _PARTIAL.add(self)

    def _stop_waiting(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        _PARTIAL.discard(self)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._deadline is not None:
            if self.cycle is not self._before:  # the headers came: a request
                self._stop_waiting()
            elif not self.transport.is_closing():  # a kept-alive connection's next request begun: counted from now
                _PARTIAL.add(self)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._await_headers(counted=False)  # kept alive, no request pipelined behind: the next one's headers have the same time

    def connection_lost(self, exc) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def _refuse(self, status: int, key: str) -> None:
        self._stop_waiting()
        if self.transport.is_closing():
            return
        body = (t(key, seconds=f"{HEADER_TIMEOUT:g}") + "\n").encode("utf-8")
        reason = {408: "Request Timeout", 503: "Service Unavailable"}[status]
        head = f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {len(body)}\r\nconnection: close\r\n\r\n"
        self.transport.write(head.encode("ascii") + body)
        self.transport.close()


def _config(app, **extra):
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=3,
                          server_header=False, http=GuardedHTTP, **extra)  # fmt: skip


def _serve_one(app, listener: socket.socket, stops: list[int]) -> None:
    server = _server_class(stops)(_config(app))
    server.run(sockets=[listener])


LIVE_ENV = "ATTN_TUTOR_LIVE_WORKER"


def _serve_workers(listener, db: str, file: str | None, lang: str, secret: str, student_url: str, workers: int,
                   stops: list[int]) -> None:  # fmt: skip
    """``workers`` processes on one socket, each with its own connection to the PostgreSQL session."""
    os.environ[LIVE_ENV] = json.dumps({"db": db, "set": file, "lang": lang, "secret": secret, "student_url": student_url})
    config = _config("attn_tutor.cli.serve:worker_app", factory=True, workers=workers)
    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.36: the supervisor is told what to run
        supervisor = Multiprocess(config, target=_server_class([])(config).run, sockets=[listener])  # type: ignore[call-arg]  # (that older uvicorn's)
    else:
        supervisor = Multiprocess(config, sockets=[listener])
    if stops:  # a stop before the supervisor took the signals over (it queues its own the same way)
        if not hasattr(supervisor, "signal_queue"):
            return
        supervisor.signal_queue.extend(stops)
    supervisor.run()


def worker_app():
    """One worker's app (``--workers``): the session named in the environment, opened again in this process."""
    told = json.loads(os.environ[LIVE_ENV])
    problem_set = load_problem_set(told["set"])
    store = open_store(told["db"], problem_set, create=False)
    return make_app(store, problem_set, lang=told["lang"], secret=told["secret"], student_url=told["student_url"],
                    set_name=set_name(problem_set, told["set"]))  # fmt: skip
