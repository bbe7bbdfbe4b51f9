"""The LTI 1.3 tool's own storage (``serve --lti``, ``attn-tutor lti``): the platforms registered and
their deployments, the tool's signing keys, the logins under way (``state`` and ``nonce``), the
nonces already used, the activities (one per resource link, each with a live session of its own)
and the deep-linking requests under way. One SQLite file or one PostgreSQL schema, the tables
written once for both (:data:`TABLES`); every method is synchronous and thread-safe (the app calls
them from Starlette's threadpool). Every failure is a :class:`~attn_tutor.sessions.store.LiveError`
with a catalogue sentence, as a live session's.

The tool's private keys are kept here and nowhere else: :meth:`LtiStore.keys` gives them to the
app that signs with them; nothing prints them.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from attn_tutor.core.errors import Location
from attn_tutor.sessions.opening import is_postgres
from attn_tutor.sessions.store import LiveError

APPLICATION = "attn-tutor lti"
SCHEMA = 1
STATE_LIFE = 600.0  # seconds a login's state and nonce wait for the launch (the platform's login page between)
HANDOFF_LIFE = 300.0  # seconds a launch's landing link works (opened at once, or by a click on "open in a new window")
SENDER_LOCK = 370_001  # PostgreSQL advisory lock: the one worker that sends the grades
START_LOCK = 370_002  # PostgreSQL advisory lock (a transaction's): one worker at a time makes or completes the tables
NONCE_LIFE = 3600.0  # seconds a used nonce is remembered: longer than any id_token lives

TABLES = """
CREATE TABLE lti_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE lti_platforms (
    issuer TEXT NOT NULL, client_id TEXT NOT NULL, auth_url TEXT NOT NULL, token_url TEXT NOT NULL,
    jwks_url TEXT NOT NULL, added TEXT NOT NULL, PRIMARY KEY (issuer, client_id));
CREATE TABLE lti_deployments (
    issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
    PRIMARY KEY (issuer, client_id, deployment_id));
CREATE TABLE lti_keys (kid TEXT PRIMARY KEY, private_pem TEXT NOT NULL, created TEXT NOT NULL, active INTEGER NOT NULL);
CREATE TABLE lti_states (
    state TEXT PRIMARY KEY, nonce TEXT NOT NULL, issuer TEXT NOT NULL, client_id TEXT NOT NULL,
    made {real} NOT NULL, used INTEGER NOT NULL);
CREATE TABLE lti_nonces (issuer TEXT NOT NULL, nonce TEXT NOT NULL, seen {real} NOT NULL, PRIMARY KEY (issuer, nonce));
CREATE TABLE lti_links (
    link TEXT PRIMARY KEY, issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
    resource_link_id TEXT NOT NULL, set_ref TEXT NOT NULL, title TEXT NOT NULL, created TEXT NOT NULL,
    UNIQUE (issuer, deployment_id, resource_link_id));
CREATE TABLE lti_deep_links (
    token TEXT PRIMARY KEY, issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
    return_url TEXT NOT NULL, data TEXT, made {real} NOT NULL, used INTEGER NOT NULL);
CREATE TABLE lti_handoffs (
    token TEXT PRIMARY KEY, link TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL, made {real} NOT NULL, used INTEGER NOT NULL);
CREATE TABLE lti_grading (link TEXT PRIMARY KEY, lineitems TEXT, lineitem TEXT, scopes TEXT NOT NULL);
CREATE TABLE lti_rosters (link TEXT PRIMARY KEY, memberships TEXT NOT NULL);
CREATE TABLE lti_members (link TEXT PRIMARY KEY, members TEXT NOT NULL, fetched TEXT NOT NULL);
CREATE TABLE lti_learners (link TEXT NOT NULL, student_id {integer} NOT NULL, sub TEXT NOT NULL, PRIMARY KEY (link, student_id));
CREATE TABLE lti_scores (
    link TEXT NOT NULL, sub TEXT NOT NULL, given {real} NOT NULL, maximum {real} NOT NULL, progress TEXT NOT NULL,
    comment TEXT NOT NULL, changed TEXT NOT NULL, queued INTEGER NOT NULL, tries INTEGER NOT NULL, error TEXT,
    PRIMARY KEY (link, sub));
"""


class Platform(NamedTuple):
    """A platform registered (``lti add-platform``): an LMS by its issuer and the client id it gave the tool."""

    issuer: str
    client_id: str
    auth_url: str
    token_url: str
    jwks_url: str
    deployments: tuple[str, ...]


class Login(NamedTuple):
    """A login under way (made at the OIDC login, taken once at the launch)."""

    state: str
    nonce: str
    issuer: str
    client_id: str


class Link(NamedTuple):
    """An activity: one resource link of one deployment, and the live session it launches."""

    link: str  # the tool's own id of it (a hash of the platform's ids)
    issuer: str
    client_id: str
    deployment_id: str
    resource_link_id: str
    set_ref: str
    title: str


class Handoff(NamedTuple):
    """A launch's landing, taken once in the browser's own window: who the cookies are to make it."""

    token: str
    link: str
    kind: str  # "teacher" | "student"
    value: str  # the student's token (their cookie); "" for the teacher


class DeepLink(NamedTuple):
    """A deep-linking request under way: where the teacher's choice goes back to."""

    token: str
    issuer: str
    client_id: str
    deployment_id: str
    return_url: str
    data: str | None


class Grading(NamedTuple):
    """An activity's Assignment and Grade Services endpoint, as its launches gave it."""

    link: str
    lineitems: str | None
    lineitem: str | None  # the launch's own line item, or the one the tool made (found again by link and tag)
    scopes: tuple[str, ...]


class Member(NamedTuple):
    """One member of an activity's course, as the platform's Names and Role Provisioning service gave it."""

    sub: str  # the LMS's user id: the launch's ``sub``
    name: str  # as the platform gives it ("" when it gives none)
    email: str
    learner: bool  # a learner of the course (not a teacher)


class Score(NamedTuple):
    """A learner's score as the platform is to have it (queued until it is)."""

    link: str
    sub: str
    given: float
    maximum: float
    progress: str
    comment: str
    changed: str  # ISO 8601: when the score last changed
    tries: int
    error: str | None


class _Grades:
    """The grades' part of the store (mixed into :class:`LtiStore`): endpoints, learners, the queue."""

    def _transaction(self):  # pragma: no cover - LtiStore's
        raise NotImplementedError

    def set_grading(self, link: str, lineitems: str | None, lineitem: str | None, scopes: list[str]) -> None:
        with self._transaction() as cur:
            cur.execute("INSERT INTO lti_grading (link, lineitems, lineitem, scopes) VALUES (?, ?, ?, ?) ON CONFLICT (link) DO UPDATE"
                        " SET lineitems = excluded.lineitems, scopes = excluded.scopes,"
                        " lineitem = COALESCE(excluded.lineitem, lti_grading.lineitem)",
                        (link, lineitems, lineitem, " ".join(scopes)))  # fmt: skip

    def set_lineitem(self, link: str, lineitem: str) -> None:
        with self._transaction() as cur:
            cur.execute("UPDATE lti_grading SET lineitem = ? WHERE link = ?", (lineitem, link))

    def grading(self) -> list[Grading]:
        with self._transaction() as cur:
            rows = cur.execute("SELECT link, lineitems, lineitem, scopes FROM lti_grading ORDER BY link").fetchall()
        return [Grading(link, items, item, tuple(scopes.split())) for link, items, item, scopes in rows]

    def set_roster(self, link: str, memberships: str) -> None:
        """The Names and Role Provisioning service of ``link``'s course (its memberships URL)."""
        with self._transaction() as cur:
            cur.execute("INSERT INTO lti_rosters (link, memberships) VALUES (?, ?) ON CONFLICT (link) DO UPDATE"
                        " SET memberships = excluded.memberships", (link, memberships))  # fmt: skip

    def roster_url(self, link: str) -> str | None:
        with self._transaction() as cur:
            row = cur.execute("SELECT memberships FROM lti_rosters WHERE link = ?", (link,)).fetchone()
        return None if row is None else row[0]

    def set_members(self, link: str, members: list[Member]) -> None:
        """The course's members of ``link`` as the platform last listed them (kept for ``grade --lti-roster``)."""
        data = json.dumps([list(member) for member in members], ensure_ascii=False)
        with self._transaction() as cur:
            cur.execute("INSERT INTO lti_members (link, members, fetched) VALUES (?, ?, ?) ON CONFLICT (link) DO UPDATE"
                        " SET members = excluded.members, fetched = excluded.fetched", (link, data, _now()))  # fmt: skip

    def members(self, link: str) -> tuple[list[Member], str] | None:
        """The course's members of ``link`` as last fetched, and when (ISO 8601); None: never fetched."""
        with self._transaction() as cur:
            row = cur.execute("SELECT members, fetched FROM lti_members WHERE link = ?", (link,)).fetchone()
        if row is None:
            return None
        return [Member(str(sub), str(name), str(email), bool(learner)) for sub, name, email, learner in json.loads(row[0])], row[1]

    def scores(self, link: str) -> list[Score]:
        """Every learner's score of ``link`` as last queued (``tries``/``error``: while it waits)."""
        with self._transaction() as cur:
            rows = cur.execute("SELECT link, sub, given, maximum, progress, comment, changed, tries, error FROM lti_scores"
                               " WHERE link = ? ORDER BY sub", (link,)).fetchall()  # fmt: skip
        return [Score(*row) for row in rows]

    def queued_subs(self, link: str) -> set[str]:
        with self._transaction() as cur:
            return {row[0] for row in cur.execute("SELECT sub FROM lti_scores WHERE link = ? AND queued = 1", (link,)).fetchall()}

    def queue_again(self, link: str) -> int:
        """Every learner's score of ``link`` queued to be sent again ("send grades"); how many."""
        with self._transaction() as cur:
            cur.execute("UPDATE lti_scores SET queued = 1, tries = 0 WHERE link = ?", (link,))
            return cur.execute("SELECT COUNT(*) FROM lti_scores WHERE link = ?", (link,)).fetchone()[0]

    def add_learner(self, link: str, student_id: int, sub: str) -> None:
        with self._transaction() as cur:
            cur.execute("INSERT INTO lti_learners (link, student_id, sub) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (link, student_id, sub))

    def learners(self, link: str) -> dict[int, str]:
        with self._transaction() as cur:
            return dict(cur.execute("SELECT student_id, sub FROM lti_learners WHERE link = ?", (link,)).fetchall())

    def queue_score(self, link: str, sub: str, given: float, maximum: float, progress: str, comment: str) -> bool:
        """The learner's score queued to be sent, if it is not what was queued or sent last (True: queued now)."""
        with self._transaction() as cur:
            row = cur.execute("SELECT given, maximum, progress, comment FROM lti_scores WHERE link = ? AND sub = ?", (link, sub)).fetchone()
            if row is not None and tuple(row) == (given, maximum, progress, comment):
                return False
            cur.execute("INSERT INTO lti_scores (link, sub, given, maximum, progress, comment, changed, queued, tries, error)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0, NULL) ON CONFLICT (link, sub) DO UPDATE SET given = excluded.given,"
                        " maximum = excluded.maximum, progress = excluded.progress, comment = excluded.comment,"
                        " changed = excluded.changed, queued = 1, tries = 0, error = NULL",
                        (link, sub, given, maximum, progress, comment, datetime.now(UTC).isoformat(timespec="milliseconds")))  # fmt: skip
        return True

    def queued(self, link: str | None = None) -> list[Score]:
        """The scores not yet taken by the platform (of ``link``, or of every activity)."""
        with self._transaction() as cur:
            sql = "SELECT link, sub, given, maximum, progress, comment, changed, tries, error FROM lti_scores WHERE queued = 1"
            rows = cur.execute(sql + (" AND link = ?" if link else "") + " ORDER BY changed", (link,) if link else ()).fetchall()
        return [Score(*row) for row in rows]

    def score_sent(self, score: Score) -> None:
        """``score`` taken by the platform (unless it changed again meanwhile: then it stays queued)."""
        with self._transaction() as cur:
            cur.execute("UPDATE lti_scores SET queued = 0, error = NULL WHERE link = ? AND sub = ? AND changed = ?",
                        (score.link, score.sub, score.changed))  # fmt: skip

    def score_failed(self, score: Score, error: str) -> None:
        with self._transaction() as cur:
            cur.execute("UPDATE lti_scores SET tries = tries + 1, error = ? WHERE link = ? AND sub = ? AND changed = ?",
                        (error[:500], score.link, score.sub, score.changed))  # fmt: skip


def _table(statement: str) -> str:
    """The table a ``CREATE TABLE`` statement of :data:`TABLES` makes."""
    return statement.split("CREATE TABLE", 1)[1].split("(", 1)[0].strip()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class LtiStore(_Grades):
    """The LTI tables in a SQLite file or a PostgreSQL schema (:func:`open_lti`)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.postgres = is_postgres(target)
        self.where = target.split("@")[-1] if self.postgres else target
        self._lock = threading.RLock()
        self._conn: Any = None
        self._psycopg: Any = None
        self._sender: Any = None  # the connection holding the grades' sender lock (PostgreSQL)

    # --- the connection ------------------------------------------------------------------

    def _error(self, key: str, **args: object) -> LiveError:
        return LiveError(key, Location(self.where), **args)

    def _connect(self):
        if self.postgres:
            try:
                import psycopg
            except ImportError:  # pragma: no cover - a default dependency
                raise self._error("live.store.no_driver") from None
            self._psycopg = psycopg
            try:
                return psycopg.connect(self.target, autocommit=True, connect_timeout=5, application_name="attn-tutor lti")
            except psycopg.ProgrammingError as error:
                raise self._error("live.store.bad_url", reason=str(error).splitlines()[0]) from None
            except psycopg.OperationalError as error:
                raise self._error("live.store.unreachable", reason=str(error).splitlines()[0]) from None
        try:
            conn = sqlite3.connect(self.target, isolation_level=None, check_same_thread=False, timeout=5)
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as error:
            raise self._error("live.store.unreadable", reason=str(error)) from None
        return conn

    @contextlib.contextmanager
    def _transaction(self):
        """A cursor in one transaction, under the store's lock; the database's errors as sentences."""
        with self._lock:
            if self._conn is None or (self.postgres and (self._conn.closed or self._conn.broken)):
                self._conn = self._connect()
            conn = self._conn
            try:
                if self.postgres:
                    with conn.transaction():
                        yield _Cursor(conn.cursor(), "%s")
                else:
                    conn.execute("BEGIN IMMEDIATE")
                    try:
                        yield _Cursor(conn.cursor(), "?")
                    except BaseException:
                        if conn.in_transaction:
                            conn.rollback()
                        raise
                    conn.execute("COMMIT")
            except sqlite3.Error as error:
                raise self._error("live.store.refused", reason=str(error)) from None
            except Exception as error:
                if self._psycopg is not None and isinstance(error, self._psycopg.OperationalError):
                    raise self._error("live.store.unreachable", reason=str(error).splitlines()[0]) from None
                if self._psycopg is not None and isinstance(error, self._psycopg.Error):
                    raise self._error("live.store.refused", reason=str(error).splitlines()[0]) from None
                raise

    def is_sender(self) -> bool:
        """Whether this process sends the grades: always on SQLite (one process); on PostgreSQL the one
        worker whose connection holds the advisory lock :data:`SENDER_LOCK` (another takes it if it goes)."""
        if not self.postgres:
            return True
        with self._transaction() as cur:
            if self._sender is not None and self._sender is self._conn:
                return True
            if cur.execute("SELECT pg_try_advisory_lock(?)", (SENDER_LOCK,)).fetchone()[0]:
                self._sender = self._conn
                return True
        return False

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = None

    def __enter__(self) -> LtiStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, *, create: bool = True) -> None:
        """The tables made if there are none yet (a table added since: made too); a database holding
        something else is refused. On PostgreSQL under a transaction's advisory lock (:data:`START_LOCK`):
        workers starting at once on a new database make the tables once."""
        real, integer = ("DOUBLE PRECISION", "BIGINT") if self.postgres else ("REAL", "INTEGER")
        statements = [s for s in TABLES.format(real=real, integer=integer).split(";") if s.strip()]
        with self._transaction() as cur:
            if self.postgres:
                cur.execute("SELECT pg_advisory_xact_lock(?)", (START_LOCK,))
                names = {row[0] for row in cur.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
            else:
                names = {row[0] for row in cur.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "lti_meta" not in names:
                if names or not create:
                    raise self._error("lti.store.not_lti" if names else "lti.store.none")
                for statement in statements:
                    cur.execute(statement)
                cur.execute("INSERT INTO lti_meta (key, value) VALUES (?, ?)", ("application", APPLICATION))
                cur.execute("INSERT INTO lti_meta (key, value) VALUES (?, ?)", ("schema", str(SCHEMA)))
                names = {"lti_meta", *(_table(statement) for statement in statements)}
            meta = dict(cur.execute("SELECT key, value FROM lti_meta").fetchall())
            if meta.get("application") != APPLICATION:
                raise self._error("lti.store.not_lti")
            if int(meta.get("schema", "0")) > SCHEMA:
                raise self._error("live.store.newer", schema=meta["schema"], ours=SCHEMA)
            for statement in statements:  # a table added since the store was made (lti_members)
                if _table(statement) not in names:
                    cur.execute(statement)

    def registration_secret(self) -> str:
        """The secret in the tool's registration URL (``lti config``'s ``registration_url``): made once, kept."""
        with self._transaction() as cur:
            cur.execute("INSERT INTO lti_meta (key, value) VALUES ('registration_secret', ?) ON CONFLICT (key) DO NOTHING",
                        (secrets.token_urlsafe(24),))  # fmt: skip
            return cur.execute("SELECT value FROM lti_meta WHERE key = 'registration_secret'").fetchone()[0]

    # --- platforms -----------------------------------------------------------------------

    def add_platform(self, issuer: str, client_id: str, deployment_id: str, *, auth_url: str, token_url: str,
                     jwks_url: str) -> bool:  # fmt: skip
        """Register a platform (True), or update one registered already (False); its deployment added."""
        with self._transaction() as cur:
            known = cur.execute("SELECT 1 FROM lti_platforms WHERE issuer = ? AND client_id = ?", (issuer, client_id)).fetchone()
            if known:
                cur.execute(
                    "UPDATE lti_platforms SET auth_url = ?, token_url = ?, jwks_url = ? WHERE issuer = ? AND client_id = ?",
                    (auth_url, token_url, jwks_url, issuer, client_id),
                )
            else:
                cur.execute(
                    "INSERT INTO lti_platforms (issuer, client_id, auth_url, token_url, jwks_url, added) VALUES (?, ?, ?, ?, ?, ?)",
                    (issuer, client_id, auth_url, token_url, jwks_url, _now()),
                )
            cur.execute(
                "INSERT INTO lti_deployments (issuer, client_id, deployment_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (issuer, client_id, deployment_id),
            )
        return not known

    def platforms(self, issuer: str) -> list[Platform]:
        """The registrations of ``issuer`` (one a client id), with their deployments."""
        with self._transaction() as cur:
            rows = cur.execute(
                "SELECT issuer, client_id, auth_url, token_url, jwks_url FROM lti_platforms WHERE issuer = ? ORDER BY client_id",
                (issuer,),
            ).fetchall()
            found = []
            for row in rows:
                deployments = cur.execute(
                    "SELECT deployment_id FROM lti_deployments WHERE issuer = ? AND client_id = ? ORDER BY deployment_id",
                    (row[0], row[1]),
                ).fetchall()
                found.append(Platform(row[0], row[1], row[2], row[3], row[4], tuple(d[0] for d in deployments)))
        return found

    # --- the tool's keys -----------------------------------------------------------------

    def keys(self) -> list[tuple[str, str, bool]]:
        """The tool's keys, newest first: (kid, private key PEM, active)."""
        with self._transaction() as cur:
            return [(kid, pem, bool(active)) for kid, pem, active in
                    cur.execute("SELECT kid, private_pem, active FROM lti_keys ORDER BY created DESC, kid").fetchall()]  # fmt: skip

    def add_key(self, kid: str, private_pem: str, *, keep: int = 2) -> None:
        """A new active key; the one before stays published (tokens signed with it still verify), older ones go."""
        with self._transaction() as cur:
            cur.execute("UPDATE lti_keys SET active = 0")
            cur.execute("INSERT INTO lti_keys (kid, private_pem, created, active) VALUES (?, ?, ?, 1)",
                        (kid, private_pem, datetime.now(UTC).isoformat(timespec="microseconds")))  # fmt: skip
            kept = [row[0] for row in cur.execute("SELECT kid FROM lti_keys ORDER BY created DESC").fetchall()][:keep]
            for (old,) in cur.execute("SELECT kid FROM lti_keys").fetchall():
                if old not in kept:
                    cur.execute("DELETE FROM lti_keys WHERE kid = ?", (old,))

    # --- logins and nonces ---------------------------------------------------------------

    def begin_login(self, login: Login) -> None:
        now = time.time()
        with self._transaction() as cur:
            cur.execute("DELETE FROM lti_states WHERE made < ?", (now - STATE_LIFE,))
            cur.execute("INSERT INTO lti_states (state, nonce, issuer, client_id, made, used) VALUES (?, ?, ?, ?, ?, 0)",
                        (login.state, login.nonce, login.issuer, login.client_id, now))  # fmt: skip

    def take_login(self, state: str) -> Login | None:
        """The login of ``state``, once: None when unknown, expired or taken already (a replay)."""
        with self._transaction() as cur:
            row = cur.execute("SELECT state, nonce, issuer, client_id, made, used FROM lti_states WHERE state = ?", (state,)).fetchone()
            if row is None or row[5] or row[4] < time.time() - STATE_LIFE:
                return None
            cur.execute("UPDATE lti_states SET used = 1 WHERE state = ?", (state,))
        return Login(*row[:4])

    def use_nonce(self, issuer: str, nonce: str) -> bool:
        """Whether ``nonce`` is new from ``issuer`` (and now used); False: seen before, a replay."""
        now = time.time()
        with self._transaction() as cur:
            cur.execute("DELETE FROM lti_nonces WHERE seen < ?", (now - NONCE_LIFE,))
            row = cur.execute("INSERT INTO lti_nonces (issuer, nonce, seen) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1",
                              (issuer, nonce, now)).fetchone()  # fmt: skip
        return row is not None

    # --- activities ----------------------------------------------------------------------

    def link(self, link: str) -> Link | None:
        with self._transaction() as cur:
            row = cur.execute(f"SELECT {_LINK_FIELDS} FROM lti_links WHERE link = ?", (link,)).fetchone()
        return None if row is None else Link(*row)

    def find_or_add_link(self, new: Link) -> Link:
        """The activity of ``new``'s resource link: the one kept, or ``new`` kept as it (its first launch)."""
        with self._transaction() as cur:
            cur.execute(f"INSERT INTO lti_links ({_LINK_FIELDS}, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (*new, _now()))  # fmt: skip
            row = cur.execute(
                f"SELECT {_LINK_FIELDS} FROM lti_links WHERE issuer = ? AND deployment_id = ? AND resource_link_id = ?",
                (new.issuer, new.deployment_id, new.resource_link_id),
            ).fetchone()
        return Link(*row)

    def make_place(self, link: str) -> None:
        """The place an activity's session will be kept (:func:`activity_target`): its schema or its folder."""
        if self.postgres:
            with self._transaction() as cur:  # (IF NOT EXISTS alone races: two workers' first launches at once)
                cur.execute("SELECT pg_advisory_xact_lock(?)", (START_LOCK,))
                cur.execute(f"CREATE SCHEMA IF NOT EXISTS lti_{link}")  # (link: hexadecimal digits, made by the tool)
            return
        folder = Path(activity_target(self.target, link)).parent
        try:
            folder.mkdir(exist_ok=True)
        except OSError as error:
            raise self._error("live.store.cannot_write", reason=error.strerror or str(error)) from None

    def begin_handoff(self, handoff: Handoff) -> None:
        now = time.time()
        with self._transaction() as cur:
            cur.execute("DELETE FROM lti_handoffs WHERE made < ?", (now - HANDOFF_LIFE,))
            cur.execute("INSERT INTO lti_handoffs (token, link, kind, value, made, used) VALUES (?, ?, ?, ?, ?, 0)", (*handoff, now))

    def take_handoff(self, token: str) -> Handoff | None:
        """The landing of ``token``, once, within :data:`HANDOFF_LIFE` seconds; else None."""
        with self._transaction() as cur:
            row = cur.execute("SELECT token, link, kind, value, made, used FROM lti_handoffs WHERE token = ?", (token,)).fetchone()
            if row is None or row[5] or row[4] < time.time() - HANDOFF_LIFE:
                return None
            cur.execute("UPDATE lti_handoffs SET used = 1 WHERE token = ?", (token,))
        return Handoff(*row[:4])

    # --- deep linking --------------------------------------------------------------------

    def begin_deep_link(self, request: DeepLink) -> None:
        now = time.time()
        with self._transaction() as cur:
            cur.execute("DELETE FROM lti_deep_links WHERE made < ?", (now - STATE_LIFE * 6,))
            cur.execute("INSERT INTO lti_deep_links (token, issuer, client_id, deployment_id, return_url, data, made, used)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, 0)", (*request, now))  # fmt: skip

    def deep_link(self, token: str, *, take: bool = False) -> DeepLink | None:
        """The deep-linking request of ``token`` while it waits (``take``: and no more after)."""
        with self._transaction() as cur:
            row = cur.execute("SELECT token, issuer, client_id, deployment_id, return_url, data, made, used FROM lti_deep_links"
                              " WHERE token = ?", (token,)).fetchone()  # fmt: skip
            if row is None or row[7] or row[6] < time.time() - STATE_LIFE * 6:
                return None
            if take:
                cur.execute("UPDATE lti_deep_links SET used = 1 WHERE token = ?", (token,))
        return DeepLink(*row[:6])


_LINK_FIELDS = "link, issuer, client_id, deployment_id, resource_link_id, set_ref, title"


class _Cursor:
    """A cursor that takes ``?`` placeholders on both databases."""

    def __init__(self, cursor, placeholder: str) -> None:
        self.cursor, self.placeholder = cursor, placeholder

    def execute(self, sql: str, args: tuple = ()):
        self.cursor.execute(sql if self.placeholder == "?" else sql.replace("?", "%s"), args)
        return self.cursor


def activity_target(target: str, link: str) -> str:
    """Where the live session of activity ``link`` is kept, beside the LTI store at ``target``: a
    SQLite file in the folder ``<store>-activities/``, or a PostgreSQL schema ``lti_<link>`` of the
    same database (the URL's ``options`` set to it; :meth:`LtiStore.make_schema` makes it)."""
    if is_postgres(target):
        parts = urlsplit(target)
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "options"]
        query.append(("options", f"-csearch_path=lti_{link}"))
        return urlunsplit(parts._replace(query=urlencode(query)))
    path = Path(target)
    return str(path.with_name(path.stem + "-activities") / f"{link}.sqlite")


def open_lti(target: str, *, create: bool = True) -> LtiStore:
    """The LTI store at ``target`` (a SQLite file path or a ``postgresql://`` URL), made if new
    (``create=False``: a store that is not there yet is said, and nothing is made)."""
    if not is_postgres(target) and Path(target).is_dir():
        raise LiveError("lti.store.not_lti", Location(target))
    if not create and not is_postgres(target) and not Path(target).is_file():
        raise LiveError("lti.store.none", Location(target))
    store = LtiStore(target)
    try:
        store.start(create=create)
    except BaseException:
        store.close()
        raise
    return store
