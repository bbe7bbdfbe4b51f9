"""Which answer file belongs to which roster student (``grade --roster``), and what the teacher is told.

Pure: the answer files' ``student`` texts and the roster
(:mod:`attn_tutor.classroom.roster_file`) in, the matching out; used by the LMS
gradebook layouts (:mod:`attn_tutor.classroom.lms_gradebook`).

What a ``student`` says
    Everything in it is a *key*: the whole text as an identifier (``ID number``,
    ``SIS User ID``, ``SIS Login ID``, ``ID``, ``Username``) or an email address;
    each word in it that is an identifier (an e-mail address, or at least 4
    characters with a digit in them: ``김민지 20231234``, as students write name and
    학번); and the rest of it as a name (first and last in either order, with or
    without spaces: ``김민지`` = ``김 민지``; ``Minji Kim`` = ``Kim, Minji``). Every
    comparison is on NFKC-normalised, case-folded text with spaces collapsed, so
    full-width letters and digits, other cases and decomposed Hangul (macOS file
    names) compare equal.

The rule
    A student is matched when every key that fits anyone fits one and the same
    roster entry (the 학번 can pick one of two 이하은s). Keys that fit different
    entries (her name, and a 학번 with a one-digit typo that is 박서준's) are a
    *conflict*: no grade for any entry named, so 박서준's own file is *held* too,
    until the answer file is fixed or a ``--match`` file
    (:mod:`attn_tutor.classroom.match_file`) says who it is. Keys that all fit the
    same several entries leave the student *ambiguous*, and likewise no grade for
    any of those entries: another file that matches one of them is *doubted*
    (two 이하은s: a one-digit typo in one's 학번 cannot be told from the other's
    학번, and the file that says only 이하은 may be either). An entry claimed by two
    answer files is matched to neither (a *duplicate*). Nothing is dropped
    silently: every answer-file student is matched (with how) or listed with why
    not, and every roster entry without an answer file is listed as absent
    (Canvas's test student excepted, and said so once).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from attn_tutor.classroom.roster_file import (
    MIN_ID_IN_NAME,
    TITLE_AND_ID,
    Index,
    Roster,
    RosterEntry,
    fold,
    moodle_item_title,
    name_keys,
    read_roster,
    read_roster_text,
)
from attn_tutor.core.i18n import t
from attn_tutor.render.blocks import Table

if TYPE_CHECKING:
    from attn_tutor.classroom.match_file import Overrides

__all__ = [
    "TITLE_AND_ID", "Graded", "Key", "Match", "Matching", "Roster", "RosterEntry", "Unmatched", "absent_message",
    "fold", "keys_of", "match", "matching_blocks", "moodle_item_title", "name_keys", "nobody_message", "read_roster",
    "read_roster_text", "test_student_message", "unmatched_messages",
]  # fmt: skip


# --- matching ------------------------------------------------------------------------------


class Graded(NamedTuple):
    """What matching and the LMS file need of a marked student (from the gradebook's row)."""

    student: str
    where: str  # the answer file (and CSV line), for messages
    score: float | None  # None: the student could not be marked
    max_score: float | None

    @classmethod
    def of(cls, row) -> Graded:
        """From a :class:`~attn_tutor.gradebook.rows.StudentRow`."""
        return cls(row.cells[0] or "", row.file, row.score, row.max_score)


HOW = ("lms", "id", "email", "id_in_name", "email_in_name", "name", "match")  # the order a match is said by
REASONS = ("none", "ambiguous", "duplicate", "conflict", "held", "doubted")
ID_WORD_SPLIT = re.compile(r"[\s,;()\[\]<>/]+")
HANGUL_DIGITS = re.compile(r"(?<=[\uac00-\ud7a3])(?=\d)|(?<=\d)(?=[\uac00-\ud7a3])")  # 김민지20231234: two words


@dataclass(frozen=True)
class Match:
    student: int  # index into the students matched
    entry: RosterEntry
    how: str  # one of HOW
    field: str  # which roster field: "ID number", "SIS Login ID", "email", "name"; "match": the --match file's place


@dataclass(frozen=True)
class Key:
    """One thing an answer file's ``student`` says, and the roster entries it fits."""

    how: str  # id, email, id_in_name, email_in_name, name
    field: str
    entries: tuple[RosterEntry, ...]


@dataclass(frozen=True)
class Unmatched:
    student: int
    reason: str  # one of REASONS
    candidates: tuple[RosterEntry, ...] = ()  # ambiguous: the entries it fits; duplicate, held, doubted: the entry claimed
    others: tuple[int, ...] = ()  # duplicate: the other students claiming the same entry; held, doubted: the conflicting or ambiguous ones
    keys: tuple[Key, ...] = ()  # conflict: what each part of the student's text fits


@dataclass
class Matching:
    matches: list[Match]
    unmatched: list[Unmatched]
    absent: list[RosterEntry]  # roster entries no answer file matched (Canvas's test student left out)
    test_students: list[RosterEntry] = field(default_factory=list)  # Canvas's test student, when absent

    def __post_init__(self) -> None:
        self._by_student = {m.student: m for m in self.matches}

    def of(self, student: int) -> Match | None:
        return self._by_student.get(student)


def _id_like(word: str) -> bool:
    """A word of a ``student`` that is an identifier, not part of a name: an e-mail address, a number (a
    Canvas ID such as 102 is short), or at least 4 characters with a digit in them (a 학번, not a word of
    a name that is someone's username)."""
    return "@" in word or word.isdigit() or (len(word) >= MIN_ID_IN_NAME and any(c.isdigit() for c in word))


def keys_of(text: str, index: Index) -> list[Key]:
    """Everything ``text`` says about who it is, each with the entries it fits: the whole text as an
    identifier or email; the whole text as a roster name written so (whatever characters it holds: then
    none of its words is an identifier); else each identifier-like word in it and the rest of it as a name."""
    whole = fold(text)
    if not whole:
        return []
    keys = []
    found = index.identifier(whole)
    if found:
        how = "email" if all(label == "email" for _, label in found) else "id"
        keys.append(Key(how, found[0][1], tuple(entry for entry, _ in found)))
    as_written = index.named(text)  # the whole text a roster name as written, whatever it holds ("@Cho, Bo", "Stu5, Name5")
    if as_written:  # its words are that name's, not identifiers
        return [*keys, Key("name", "name", tuple(as_written))]
    words = [word for word in ID_WORD_SPLIT.split(HANGUL_DIGITS.sub(" ", whole)) if word]
    for word in dict.fromkeys(words):
        if word == whole or not _id_like(word):
            continue
        found = index.identifier(word)
        if found:
            how = "email_in_name" if all(label == "email" for _, label in found) else "id_in_name"
            keys.append(Key(how, found[0][1], tuple(entry for entry, _ in found)))
    if any(_id_like(word) for word in words):
        name = " ".join(word for word in words if not _id_like(word))
    else:
        name = text  # as written: "Kim, Minji" keeps its comma
    named = index.named(name) if name else []
    if named:
        keys.append(Key("name", "name", tuple(named)))
    return keys


def _decide(keys: list[Key], order: dict[int, int]):
    """(entry, key) when every key fits one and the same entry; else (None, reason, candidates)."""
    if not keys:
        return None, "none", ()
    common = set.intersection(*({id(e) for e in key.entries} for key in keys))
    if not common:
        return None, "conflict", ()
    entries = sorted((e for key in keys for e in key.entries if id(e) in common), key=lambda e: order[id(e)])
    entries = list({id(e): e for e in entries}.values())
    if len(entries) > 1:
        return None, "ambiguous", tuple(entries)
    entry = entries[0]
    best = min(keys, key=lambda key: (len(key.entries) != 1, HOW.index(key.how)))
    return entry, best


def _by_account(number: int, entry: RosterEntry | None, claimed: dict, unmatched: list[Unmatched]) -> None:
    """A student known by their LMS account: that account's entry claimed, or not found (no such learner)."""
    if entry is None:
        unmatched.append(Unmatched(number, "none"))
    else:
        claimed.setdefault(id(entry), []).append((number, "lms", "sub"))


def match(students: Sequence[str], roster: Roster, overrides: Overrides | None = None,
          accounts: Mapping[int, RosterEntry | None] | None = None) -> Matching:  # fmt: skip
    """Which roster entry each answer-file student is: the one entry that everything its ``student``
    says fits (module docstring), or the one a ``--match`` file maps it to. ``accounts``
    (``--lti-roster``): the students known by their LMS account (an LTI launch's ``sub``), by number,
    each the entry of that account, or None when the course's roster has no such learner: those
    are matched by their account alone, never by what their name says."""
    index = Index(roster.entries)
    order = {id(entry): number for number, entry in enumerate(roster.entries)}
    claimed: dict[int, list[tuple[int, str, str]]] = {}  # id(entry) -> [(student, how, field)]
    by_id = {id(entry): entry for entry in roster.entries}
    unmatched: list[Unmatched] = []
    held: dict[int, list[int]] = {}  # id(entry) -> the students whose conflict names it
    doubted: dict[int, list[int]] = {}  # id(entry) -> the ambiguous students it may be
    for number, text in enumerate(students):
        if accounts is not None and number in accounts:  # by their account alone
            _by_account(number, accounts[number], claimed, unmatched)
            continue
        mapped = overrides.get(text or "") if overrides is not None else None
        if mapped is not None:
            entry, where = mapped
            claimed.setdefault(id(entry), []).append((number, "match", where))
            continue
        keys = keys_of(text or "", index)
        decided = _decide(keys, order)
        if decided[0] is None:
            _, reason, candidates = decided
            unmatched.append(Unmatched(number, reason, candidates, keys=tuple(keys) if reason == "conflict" else ()))
            if reason == "conflict":
                for key in keys:
                    for entry in key.entries:
                        held.setdefault(id(entry), []).append(number)
            for entry in candidates:  # ambiguous: any of them may be this file's student
                doubted.setdefault(id(entry), []).append(number)
            continue
        entry, key = decided
        claimed.setdefault(id(entry), []).append((number, key.how, key.field))
    matches = []
    for entry_id, claims in claimed.items():
        entry = by_id[entry_id]
        numbers = tuple(number for number, _, _ in claims)
        if entry_id in held or entry_id in doubted:
            holders = tuple(dict.fromkeys(held.get(entry_id, []) + doubted.get(entry_id, [])))
            for number in numbers:
                unmatched.append(Unmatched(number, "held" if entry_id in held else "doubted", (entry,), holders))
        elif len(claims) == 1:
            number, how, label = claims[0]
            matches.append(Match(number, entry, how, label))
        else:
            for number in numbers:
                unmatched.append(Unmatched(number, "duplicate", (entry,), tuple(n for n in numbers if n != number)))
    matches.sort(key=lambda m: m.student)
    unmatched.sort(key=lambda u: u.student)
    taken = set(claimed) | set(held)
    tests = {id(entry) for entry in roster.test_students}
    absent = [entry for entry in roster.entries if id(entry) not in taken and id(entry) not in tests]
    test_students = [entry for entry in roster.test_students if id(entry) not in taken]
    return Matching(matches, unmatched, absent, test_students)


# --- what the teacher is told --------------------------------------------------------------


def how_text(m: Match) -> str:
    return t(f"roster.how.{m.how}", field=m.field)


def matching_blocks(students: Sequence, matching: Matching) -> list:
    """A table of every match (answer file's student, roster name and line, how)."""

    rows = tuple(
        (students[m.student].student or "—", m.entry.name or "—", str(m.entry.line), how_text(m))
        for m in matching.matches
    )
    header = tuple(t(f"roster.col.{name}") for name in ("student", "entry", "line", "how"))
    key = "roster.match_title_one" if len(students) == 1 else "roster.match_title"
    title = t(key, matched=len(matching.matches), total=len(students))
    return [Table(header, rows, title=title)]


def _entry_text(entry: RosterEntry, roster: Roster) -> str:
    return f"{entry.name or '—'} ({roster.file}:{entry.line})"


def unmatched_messages(students: Sequence, matching: Matching, roster: Roster, *, lms: bool = False) -> list[str]:
    """One sentence per answer-file student who is not matched, with the file it came from
    (``lms``: an LMS file is written, which leaves them out: said only then)."""

    lines = []
    for u in matching.unmatched:
        student = students[u.student]
        where = student.where
        name = student.student or t("feedback.no_name")
        if u.reason == "ambiguous":
            candidates = "; ".join(_entry_text(e, roster) for e in u.candidates)
            lines.append(t("roster.unmatched.ambiguous", where=where, student=name, candidates=candidates))
        elif u.reason == "duplicate":
            others = ", ".join(students[o].where for o in u.others)
            lines.append(t("roster.unmatched.duplicate", where=where, student=name, others=others))
        elif u.reason == "conflict":
            parts = "; ".join(
                t("roster.conflict.part", entries=", ".join(_entry_text(e, roster) for e in key.entries), how=_key_how(key))
                for key in u.keys
            )
            lines.append(t("roster.unmatched.conflict", where=where, student=name, parts=parts))
        elif u.reason in ("held", "doubted"):
            others = ", ".join(students[o].where for o in u.others)
            entry = _entry_text(u.candidates[0], roster)
            lines.append(t(f"roster.unmatched.{u.reason}", where=where, student=name, entry=entry, others=others))
        else:
            lines.append(t("roster.unmatched.none", where=where, student=name, roster=roster.file))
    if lms:
        lines = [t("roster.not_written", message=line) for line in lines]
    return lines


def _key_how(key: Key) -> str:
    return t(f"roster.how.{key.how}", field=key.field)


def absent_message(matching: Matching) -> str | None:
    if not matching.absent:
        return None
    return t("roster.absent", names=", ".join(f"{e.name or '—'} ({e.line})" for e in matching.absent))


def test_student_message(matching: Matching, roster: Roster) -> str | None:
    """Canvas's Student View account, left out of the absent list: said once."""
    if not matching.test_students:
        return None
    lines = ", ".join(str(entry.line) for entry in matching.test_students)
    return t("roster.test_student", name=matching.test_students[0].name, roster=roster.file, lines=lines)


def nobody_message(students: Sequence, matching: Matching, roster: Roster) -> str:
    """No answer-file student is matched, so no LMS file: how to make them match (or, when some were
    found but in conflict or not told apart, that the sentences above say what to settle)."""
    key = "roster.matched_nobody" if all(u.reason == "none" for u in matching.unmatched) else "roster.placed_nobody"
    return t(key + ("_one" if len(students) == 1 else ""), count=len(students), roster=roster.file)
