"""What the teacher's page counts of a session, kept as answers are committed by the session's one
writer (:attr:`attn_tutor.sessions.store.Store.alone`): see :class:`Tally`."""

from __future__ import annotations

import math
from typing import Any, NamedTuple


class Kept(NamedTuple):
    """A student's latest mark of one item, as the tally keeps it (a :class:`~attn_tutor.sessions.store.Mark`'s fields)."""

    verdict: str
    diagnosis: str | None
    points: float


class Tally:
    """What the teacher's page counts, kept as answers are committed, so a map costs the groups and the
    roll rather than a read of every answer: each student's latest (verdict, diagnosis, points) per
    item, the count of each (problem, row, stage, verdict, diagnosis) group, each student's score."""

    def __init__(self, students: list, latest) -> None:
        self._students: dict[int, list] = {student.id: [student, {}, 0.0] for student in students}  # in order of joining
        self._groups: dict[tuple, int] = {}
        for student_id, problem, row, stage, verdict, diagnosis, points in latest:
            self._set(student_id, (problem, row, stage), Kept(verdict, diagnosis, float(points)))
        for entry in self._students.values():
            entry[2] = math.fsum(mark.points for mark in entry[1].values())

    def joined(self, student) -> None:
        self._students.setdefault(student.id, [student, {}, 0.0])

    def saved(self, student_id: int, item: tuple[str, str, str], mark) -> None:
        self._set(student_id, item, mark)
        entry = self._students[student_id]
        entry[2] = math.fsum(kept.points for kept in entry[1].values())

    def _set(self, student_id: int, item: tuple[str, str, str], mark) -> None:
        latest = self._students[student_id][1]
        before = latest.get(item)
        if before is not None:
            group = (*item, before.verdict, before.diagnosis)
            self._groups[group] -= 1
            if not self._groups[group]:
                del self._groups[group]
        latest[item] = mark
        group = (*item, mark.verdict, mark.diagnosis)
        self._groups[group] = self._groups.get(group, 0) + 1

    def groups(self) -> list[tuple]:
        """The groups in ``GROUP BY``'s order (SQLite's: each column ascending, no diagnosis first)."""
        ordered = sorted(self._groups.items(), key=lambda kv: (*kv[0][:4], kv[0][4] is not None, kv[0][4] or ""))
        return [(*group, count) for group, count in ordered]

    def roster(self) -> list[tuple[Any, int, float]]:
        return [(student, len(latest), score) for student, latest, score in self._students.values()]
