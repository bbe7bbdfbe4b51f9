"""``grade ACTIVITY --lti-roster DB``: an LTI activity's course roster, as the tool keeps it.

An activity of ``serve --lti --db DB`` is a live session kept beside the tool's database (a SQLite
file ``<DB>-activities/<id>.sqlite``, or the PostgreSQL schema ``lti_<id>``;
:func:`attn_tutor.sessions.lti.activity_target`). When the tool fetches the course's members from the
platform (Names and Role Provisioning: the teacher's grades page, ``/teacher/lti``), it keeps them
(:meth:`~attn_tutor.sessions.lti.LtiStore.set_members`); here they are read as a
:class:`~attn_tutor.classroom.roster_file.Roster` of the course's learners, in the platform's order,
named as the platform names them, each with their LMS account (``sub``) as an identifier. Each
student of the session who came by a launch is known by that account
(:meth:`~attn_tutor.sessions.lti.LtiStore.learners`), so :func:`attn_tutor.classroom.roster.match`
places them by it, never by name; a learner who never opened the activity is absent, as any
roster's student without an answer file.
"""

from __future__ import annotations

import os
from typing import NamedTuple
from urllib.parse import parse_qsl, urlsplit

from attn_tutor.classroom.roster_file import Roster, RosterEntry
from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.sessions.documents import session_students
from attn_tutor.sessions.lti import activity_target, open_lti
from attn_tutor.sessions.opening import is_postgres

ACCOUNT = "sub"  # the identifier's field: the LMS account a launch names


class LtiRoster(NamedTuple):
    """The course's learners as a roster, and each session document's student's LMS account."""

    roster: Roster
    accounts: dict[str, str]  # a document's file (``<session>#<n>``) -> the ``sub`` that launched as its student


def activity_link(db: str, session: str) -> str | None:
    """The tool's id of the activity ``session`` is, when it is kept beside the tool's database ``db``; else None."""
    if is_postgres(session):
        if not is_postgres(db):
            return None
        options = dict(parse_qsl(urlsplit(session).query)).get("options", "")
        path = options.removeprefix("-csearch_path=").removeprefix("-c search_path=")
        link = path.removeprefix("lti_") if path.startswith("lti_") else ""
    else:
        if is_postgres(db):
            return None
        link = os.path.splitext(os.path.basename(session))[0]
        if os.path.realpath(activity_target(db, link)) != os.path.realpath(session):
            return None
    return link if len(link) == 24 and all(c in "0123456789abcdef" for c in link) else None


def read_lti_roster(db: str, sessions: tuple[str, ...]) -> LtiRoster:
    """The roster of the one LTI activity among ``sessions``, as the tool at ``db`` last fetched it
    from the platform; each problem a sentence (a usage error, or the store's)."""
    if len(sessions) != 1:
        raise UsageError("lti.roster.one_session", count=len(sessions))
    (session,) = sessions
    link_key = activity_link(db, session)
    with open_lti(db, create=False) as store:
        link = store.link(link_key) if link_key is not None else None
        if link is None:
            raise UsageError("lti.roster.not_activity", session=session, db=store.where)
        found = store.members(link.link)
        if found is None:
            raise AttnTutorError("lti.roster.not_fetched", title=link.title)
        members, _fetched = found
        learners = store.learners(link.link)
        where = f"{store.where}#{link.link}"
    entries = [RosterEntry(line=number, name=member.name or member.sub, email=member.email or None, ids=((ACCOUNT, member.sub),))
               for number, member in enumerate((m for m in members if m.learner), start=1)]  # fmt: skip
    students = session_students(session)
    accounts = {file: learners[student] for file, student in students.items() if student in learners}
    return LtiRoster(Roster("lti", where, [], entries), accounts)


def account_entries(roster: Roster, accounts: dict[str, str], wheres: list[str]) -> dict[int, RosterEntry | None]:
    """For matching: each student (by number, ``wheres`` their documents' files) who came by a launch ->
    the roster's entry of their account, or None when the course's roster has no such learner."""
    by_account = {value: entry for entry in roster.entries for field, value in entry.ids if field == ACCOUNT}
    return {number: by_account.get(accounts[where]) for number, where in enumerate(wheres) if where in accounts}
