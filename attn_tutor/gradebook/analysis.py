"""Item analysis, the score distribution and the class table, counted one student at a time.

A :class:`Tally` takes the class's :class:`~attn_tutor.gradebook.rows.StudentRow`\\ s
in order and keeps only counts (bounded by the items, verdicts, diagnoses and distinct
scores, not by the students) and each marked student's total; each student's short table
row goes to a :class:`~attn_tutor.core.spool.Spool` and is read back when the table is
drawn, and each answer's points (for the item statistics) to an
:class:`~attn_tutor.core.spool.ArraySpool` a block of students at a time, so a class of
50,000 costs the memory of one of 10,000.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from attn_tutor.core.spool import ArraySpool, Spool
from attn_tutor.gradebook.itemstats import Choice, ItemStatistics, item_statistic
from attn_tutor.gradebook.records import BINS, TOP_DIAGNOSES, ItemKey, ItemStats
from attn_tutor.marking.marker import DIAGNOSES, VERDICTS

SCALE = 10_000  # an item's points are kept as whole ten-thousandths (the marker rounds them to 4 places)
BLOCK = 1024  # marked students whose answers' points are held in memory before they go to the tally's file
SEEN = 50_000  # distinct item entries counted before they are folded into each item's counts


class Tally:
    """The class so far: its item columns, per-item verdict and diagnosis counts, the bins, and
    what the item statistics need (:mod:`.itemstats`): each marked student's total, and per item
    the points of each student set it (as ten-thousandths in a uint16, exact for the marker's four
    places) with that student's place among the totals (a uint32). Those are 6 bytes an answer,
    19 MB for 50,000 students of 64 items: they go to a temporary file every :data:`BLOCK` marked
    students (as does what each chose on a choice item) and are read back an item at a time for
    the statistics. Only the totals, which the groups need all at once, stay in memory (8 bytes a
    student) and grow with the class where the counts do not."""

    def __init__(self, follow_through: str = "full", columns: Iterable[ItemKey] = ()) -> None:
        self.follow_through = follow_through
        self.columns: list[ItemKey] = []
        self._verdicts: dict[ItemKey, Counter[str]] = {}
        self._diagnoses: dict[ItemKey, Counter[str]] = {}
        self._seen: Counter[tuple] = Counter()  # a row's item entry -> students, not yet folded in (at most SEEN)
        self._waiting: Counter[tuple] = Counter()  # (item, verdict, diagnosis) -> students, of items not yet known
        self._sets: set[str] = set()
        self.bins = [0] * BINS
        self._totals = array("d")  # each marked student's total, in gradebook order
        self._answers = ArraySpool()  # the arrays of _points and _choices, on disk but for the last block
        self._points: dict[ItemKey, tuple[array, array]] = {}  # item -> (points × 10,000, place in _totals), of the last block
        self._statistics: tuple | None = None  # (what the class was, its statistics), see statistics()
        self._choices: dict = {}  # choice item -> (labels, right labels, chosen as bit masks, place in _totals), the last block's
        self._masks: dict = {}  # (choice item, labels chosen) -> their bit mask, each made once (at most SEEN)
        self._bin_of: dict[tuple[float, float], int] = {}  # each distinct (score, max_score), binned once
        self.summary = Spool()  # the class table's rows (tuples of str), in order; read back to draw it
        self.total = self.marked = self.failed = 0
        self.file_problems = 0  # files' own rows with a problem (a CSV header's): not students
        self.add_columns(columns)

    def add_columns(self, columns: Iterable[ItemKey], set_key: str | None = None) -> None:
        """A problem set's items, in order, after those already there (each column once)."""
        if set_key is not None:
            self._sets.add(set_key)
        for column in columns:
            if column not in self._verdicts:
                self.columns.append(column)
                self._verdicts[column] = Counter()
                self._diagnoses[column] = Counter()
                self._points[column] = (self._answers.new((column, "points"), "H"), self._answers.new((column, "places"), "I"))

    def add_choice(self, column, labels: tuple[str, ...], right: tuple[str, ...]) -> None:
        """A choice item's labels (in printed order, at most 8) and its right ones: the item statistics
        then count the labels each student chose (a row's ``chosen``) overall and in the groups.

        For a concept item: ``column`` is its key in the tally's columns (its points come in the
        row's ``items`` like any item's), ``labels`` and ``right`` are its shown form's without a
        seed (the file's order), and each row's ``chosen`` holds ``(column, labels)`` with the labels
        the student chose turned back into that order, so a class on shuffled variants counts each
        option under one label. An order item is not a choice item (no option shares)."""
        if column not in self._choices:
            masks, places = self._answers.new((column, "chosen"), "B"), self._answers.new((column, "chosen places"), "I")
            self._choices[column] = (tuple(labels), tuple(right), masks, places)

    def knows(self, set_key: str) -> bool:
        return set_key in self._sets

    def add(self, row) -> None:
        """One student (a StudentRow), in gradebook order; a file's own row (a CSV header's problems)
        is listed in the class table but counted apart, in ``file_problems``, not as a student."""
        self.summary.add(row.summary)
        if row.of_file:
            self.file_problems += bool(row.errors)
            return
        self.total += 1
        self.failed += bool(row.errors)
        if row.score is None:
            return
        self.marked += 1
        scored = (row.score, row.max_score)
        index = self._bin_of.get(scored)
        if index is None:
            index = self._bin_of[scored] = score_bin(row.score, row.max_score)
        self.bins[index] += 1
        place = len(self._totals)
        if place and not place % BLOCK:
            self._answers.spill()
        self._totals.append(row.score)
        items = row.items
        self._seen.update(items)  # counted whole, in C: the students who share a marked item share its entry
        if len(self._seen) > SEEN:
            self._count()
        points_of = self._points.get
        for column, points, _cell, _verdict, _diagnosis in items:  # the hot loop
            kept = points_of(column)
            if kept is not None:
                kept[0].append(int(points * SCALE + 0.5))
                kept[1].append(place)
        for column, labels, *declared in row.chosen:  # choice items only: (column, labels chosen[, (labels, right)])
            choice = self._choices.get(column)
            if choice is None and declared and column in self._points:
                self.add_choice(column, *declared[0])
                choice = self._choices[column]
            if choice is not None:
                mask = self._masks.get((column, labels))
                if mask is None:
                    known = choice[0]
                    mask = sum(1 << known.index(label) for label in set(labels) if label in known)
                    if len(self._masks) < SEEN:
                        self._masks[(column, labels)] = mask
                choice[2].append(mask)
                choice[3].append(place)

    def _count(self) -> None:
        """Fold the counts of the rows' item entries, by (item, verdict, diagnosis), into each known
        item's verdict and diagnosis counts; those of an item not yet known wait, as if counted at the end."""
        waiting = self._waiting
        for (column, _points, _cell, verdict, diagnosis), count in self._seen.items():
            waiting[(column, verdict, diagnosis)] += count
        self._seen.clear()
        verdicts, diagnoses = self._verdicts, self._diagnoses
        for key in [key for key in waiting if key[0] in verdicts]:
            column, verdict, diagnosis = key
            count = waiting.pop(key)
            verdicts[column][verdict] += count
            if diagnosis:
                diagnoses[column][diagnosis] += count

    def diagnoses(self) -> dict[ItemKey, Counter[str]]:
        """Item -> how many marked students made each diagnosed mistake on it: every diagnosis, where
        :meth:`analysis` keeps the most common few (the class report's misconception map)."""
        self._count()
        return self._diagnoses

    def analysis(self) -> list[ItemStats]:
        """Per item: the share of each verdict, the most common diagnoses (ties in DIAGNOSES order)
        and the item statistics (:func:`.itemstats.item_statistic`)."""

        self._count()
        statistics = self.statistics()

        rank = {code: index for index, code in enumerate(DIAGNOSES)}
        stats = []
        for key in self.columns:
            verdicts = self._verdicts[key]
            common = sorted(self._diagnoses[key].items(), key=lambda pair: (-pair[1], rank.get(pair[0], len(rank)), pair[0]))
            stats.append(
                ItemStats(
                    *key,
                    students=sum(verdicts.values()),
                    counts=tuple((str(verdict), verdicts[verdict]) for verdict in VERDICTS),
                    diagnoses=tuple(common[:TOP_DIAGNOSES]),
                    statistics=statistics[key],
                )
            )
        return stats

    def statistics(self) -> dict[ItemKey, ItemStatistics]:
        """Each item's statistics over the marked students who were set it: worked out once for the
        class as it stands (the terminal, the JSON and the class report all ask; 50,000 students
        of 64 items take about 0.6 s), again only after more students or items came in."""
        import numpy as np

        stamp = (len(self._totals), len(self.columns), len(self._choices))
        if self._statistics is not None and self._statistics[0] == stamp:
            return self._statistics[1]
        totals = np.frombuffer(self._totals, dtype=np.float64) if self._totals else np.zeros(0)
        found = {}
        read = self._answers.read
        for key in self.columns:
            points, places = read((key, "points")), read((key, "places"))
            scores = np.frombuffer(points, dtype=np.uint16) / SCALE if points else np.zeros(0)
            at = np.frombuffer(places, dtype=np.uint32) if places else np.zeros(0, dtype=np.uint32)
            found[key] = item_statistic(scores, totals[at], self._choice(key, at))
        self._statistics = (stamp, found)
        return found

    def _choice(self, key, at) -> Choice | None:
        """A choice item's labels and what each of its students (at their places ``at``) chose."""
        import numpy as np

        if key not in self._choices:
            return None
        labels, right = self._choices[key][:2]
        masks, places = self._answers.read((key, "chosen")), self._answers.read((key, "chosen places"))
        chosen = np.zeros(len(self._totals), dtype=np.uint8)
        if places:
            chosen[np.frombuffer(places, dtype=np.uint32)] = np.frombuffer(masks, dtype=np.uint8)
        return Choice(labels, right, chosen[at])

    def distribution(self) -> list[int]:
        return list(self.bins)

    def close(self) -> None:
        """The class table's and the answers' spools gone (they also go with the tally)."""
        self.summary.close()
        self._answers.close()


def score_bin(score: float, max_score: float) -> int:
    """Which 10% bin a score falls in: 0..9, a full score in the last."""
    if max_score <= 0:
        return 0
    # From the decimal the marker rounded to (repr), not the binary float: 0.7 of 1 is 70%.
    index = int(Fraction(repr(float(score))) * BINS // Fraction(repr(float(max_score))))
    return max(0, min(index, BINS - 1))


def bin_label(index: int) -> str:
    low, high = index * 100 // BINS, (index + 1) * 100 // BINS
    return f"{low}–{high}%"
