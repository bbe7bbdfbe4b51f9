"""Item statistics a teacher can act on: facility, discrimination, point-biserial, option shares.

Pure numpy (imported inside the functions), no files, no terminal. Each item is scored 0..1
as a fraction of its marks (a missing answer scores 0); a student's *total* is their score on
the whole test. Defined for teachers in ``docs/item-statistics.md``; in short, per item over
the ``n`` students who were set it:

Facility ``F``
    The mean item score (Moodle's facility index, as a fraction: 0.75 is Moodle's 75%).

Discrimination index ``D`` (Kelley's upper and lower 27%)
    ``D = mean(upper group) − mean(lower group)``, the groups ranked by total score (the total
    *with* the item, as Kelley and every hand method rank). Each group has
    ``g = round_half_up(0.27·n)`` seats, at most ``n // 2`` (so the groups never overlap; with
    ``fraction=0.5``, the upper and lower halves, an odd class leaves the middle student out) and
    at least 1; ``n < 2``: undefined. **Ties at the cut** share the seats left: if ``a``
    students are strictly above the cut total and ``m`` students are at it, each of those ``m``
    counts with weight ``(g − a)/m``, so the result never depends on the order the files came
    in. A class where every total is the same has identical groups, so ``D = 0``.

Point-biserial ``r_pb`` (corrected: item against the rest of the test)
    Pearson's correlation of the item score with ``total − item`` (the "rest" total), as
    Moodle's quiz statistics compute their discrimination index: against the whole total an
    item correlates with itself, which inflates ``r`` on a short test. For a right/wrong item
    this is the point-biserial; for partial credit it is the same formula. Undefined (``None``,
    shown ``—``) when the item or the rest totals have no variance (everyone scored the same).

Flags (on the values as rounded for display, :data:`DECIMALS` places)
    ``negative``: ``D < 0`` or ``r_pb < 0`` (Moodle marks an item whose discrimination index is
    negative "likely to need checking"; the key may be wrong); ``weak``: not negative, but
    ``D < 0.20`` or ``r_pb < 0.20`` (Ebel's "poor" band for D; Moodle's "very weak" band 0–19%
    for its index); ``hard``: ``F ≤ 0.05`` and ``easy``: ``F ≥ 0.95`` (the Open University's
    Moodle guide: "5 or less: extremely difficult or something wrong with the question",
    "95–100: extremely easy"). Undefined statistics raise no flag. Each flag comes with the
    figures that raised it (:class:`Reason`: "r_pb 0.06 < 0.20"); a figure that does not meet the
    flag's test is not among them, so where D and r_pb disagree the reasons say which one flagged.

Small classes
    D, r_pb and the upper and lower groups mean little under :data:`MIN_STUDENTS` students (with 5,
    each group is one student). An item set to fewer raises no ``negative`` or ``weak`` flag and
    its options no ``upper``; the facility flags and ``unused`` stay (they are counts, not
    correlations). :func:`caution` says so once for the class, with the number of students.

Choice items
    For each label, the share of the students who chose it, overall and in the upper and lower
    groups (the same weighted seats as ``D``; a student choosing several labels counts for each).
    A wrong option that nobody chose is flagged ``unused`` (it distracts no one); a wrong option
    the upper group chose more often than the lower is flagged ``upper`` (the strong students
    are drawn to it: an ambiguous or mis-keyed option); a right option is marked ``right``.

No ``NaN`` ever leaves this module: an undefined value is ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import fsum
from typing import TYPE_CHECKING, NamedTuple, overload

from attn_tutor.core.rounding import rounded

if TYPE_CHECKING:
    import numpy as np

KELLEY = 0.27  # Kelley (1939): the upper and lower 27%
DECIMALS = 4  # every statistic is rounded half up to this many places before it is flagged or shown
WEAK = 0.20  # below this (and not negative), D or r_pb is weak
HARD = 0.05  # facility at or below: extremely difficult
EASY = 0.95  # facility at or above: extremely easy
MIN_STUDENTS = 30  # below this many students an item raises no flag on D, r_pb or the groups' choices
FLAGS = ("negative", "weak", "hard", "easy")
OPTION_FLAGS = ("right", "unused", "upper")
PLACES = 6  # scores and totals are compared to this many places (marks are given to 4; float32 keeps 7 digits)


class Choice(NamedTuple):
    """A choice item's answers: its labels in printed order, the right ones, and per student
    (in the same order as the scores) a bit mask of the labels chosen (bit ``i``: ``labels[i]``)."""

    labels: tuple[str, ...]
    right: tuple[str, ...]
    chosen: Sequence[int]  # or a uint8 numpy array


class OptionShare(NamedTuple):
    """The share of students choosing one label: all of them, the upper and the lower group
    (None: no groups, fewer than two students)."""

    all: float
    upper: float | None
    lower: float | None
    flags: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"overall": self.all, "upper": self.upper, "lower": self.lower, "flags": list(self.flags)}


class Reason(NamedTuple):
    """One figure that raised a flag: ``figure`` (``facility``, ``discrimination`` or
    ``point_biserial``) ``value`` ``test`` (``<``, ``≤``, ``≥``) ``bound``."""

    flag: str
    figure: str
    value: float
    test: str
    bound: float

    def to_dict(self) -> dict:
        return {"flag": self.flag, "figure": self.figure, "value": self.value, "test": self.test, "bound": self.bound}


class ItemStatistics(NamedTuple):
    """One item's statistics (rounded to DECIMALS places; None: undefined, see the module)."""

    students: int
    facility: float | None
    discrimination: float | None
    point_biserial: float | None
    flags: tuple[str, ...]
    options: dict[str, OptionShare] | None = None  # choice items: by label, in printed order
    reasons: tuple[Reason, ...] = ()  # the figures that raised each flag, in flag order


class Caution(NamedTuple):
    """Items set to fewer than ``minimum`` students (``items`` of ``total``; ``students``: the most
    students any of them had), whose D and r_pb raise no flag."""

    students: int
    items: int
    total: int
    minimum: int = MIN_STUDENTS

    def to_dict(self) -> dict:
        return {"students": self.students, "items": self.items, "total": self.total, "minimum": self.minimum}


def group_size(n: int, fraction: float = KELLEY) -> int:
    """Seats in each of the upper and lower groups of ``n`` students: ``round_half_up(fraction·n)``,
    at least 1 and at most ``n // 2``; 0 when ``n < 2`` (no groups)."""
    if n < 2:
        return 0
    return max(1, min(n // 2, int(rounded(fraction * n, 0))))


def group_weights(totals: np.ndarray, fraction: float = KELLEY) -> tuple[np.ndarray, np.ndarray, int]:
    """Each student's seat in the upper and in the lower group (1, 0, or a share when tied at the
    cut, see the module), and the seats ``g`` in each; all zeros when ``g`` is 0."""
    import numpy as np

    totals = np.asarray(totals, dtype=np.float64)
    n = len(totals)
    g = group_size(n, fraction)
    if g == 0:
        zeros = np.zeros(n)
        return zeros, zeros.copy(), 0
    order = np.sort(totals)
    return _seats(totals, order[n - g], g, above=True), _seats(totals, order[g - 1], g, above=False), g


def _seats(totals: np.ndarray, cut: float, g: int, *, above: bool) -> np.ndarray:
    import numpy as np

    beyond = totals > cut if above else totals < cut
    tied = totals == cut
    weights = beyond.astype(np.float64)
    weights[tied] = (g - int(beyond.sum())) / int(tied.sum())
    return weights


def exact_sum(values: np.ndarray) -> float:
    """``math.fsum(values)`` of a float64 array (the exact sum, correctly rounded), without a Python
    step per value: each value is an integer times a power of two (``np.frexp``), the integers are
    summed exactly in int64 per power (split in halves of 26 bits, so 2**36 values cannot overflow)
    and the few sums joined as Python integers, whose true division rounds correctly, as fsum's sum
    does. An infinity, a NaN or a sum beyond the floats is left to fsum and its own rules."""
    import numpy as np

    values = np.asarray(values, dtype=np.float64).ravel()
    if not values.size:
        return 0.0
    if not np.isfinite(values).all():
        return fsum(values.tolist())
    mantissas, powers = np.frexp(values)
    whole = (mantissas * 2.0**53).astype(np.int64)  # exact: value = whole * 2**(power - 53), |whole| < 2**53
    lowest = int(powers.min())
    slot = powers - lowest
    high, low = np.zeros((2, int(powers.max()) - lowest + 1), dtype=np.int64)
    np.add.at(high, slot, whole >> 26)
    np.add.at(low, slot, whole & ((1 << 26) - 1))
    total = sum(((h << 26) + l) << shift for shift, (h, l) in enumerate(zip(high.tolist(), low.tolist())) if h or l)
    lowest -= 53
    try:
        return float(total << lowest) if lowest >= 0 else total / (1 << -lowest)
    except OverflowError:
        return fsum(values.tolist())


def _correlation(x: np.ndarray, y: np.ndarray) -> float | None:
    """Pearson's r, or None when either has no variance. Every sum is exact (:func:`exact_sum`,
    correctly rounded), so the students' order never moves a result across a rounding tie."""
    dx, dy = x - exact_sum(x) / len(x), y - exact_sum(y) / len(y)
    if not dx.any() or not dy.any():
        return None
    sxx, syy = exact_sum(dx * dx), exact_sum(dy * dy)
    return max(-1.0, min(1.0, exact_sum(dx * dy) / (sxx * syy) ** 0.5))


def _difference(upper: np.ndarray, lower: np.ndarray, values: np.ndarray, g: int) -> float:
    """mean(upper group) − mean(lower group) of ``values``, summed exactly (order-free)."""
    import numpy as np

    return exact_sum(np.concatenate((upper * values, -(lower * values)))) / g


@overload
def _round(x: float) -> float: ...
@overload
def _round(x: None) -> None: ...
def _round(x: float | None) -> float | None:
    return None if x is None else rounded(x, DECIMALS) + 0.0  # + 0.0: never -0.0


def item_statistic(
    scores: np.ndarray, totals: np.ndarray, choice: Choice | None = None, *, fraction: float = KELLEY, minimum: int = MIN_STUDENTS
) -> ItemStatistics:
    """One item: ``scores`` (0..1) and ``totals`` of the students who were set it, in the same order;
    ``choice``: its labels and what each of those students chose, for a choice item; ``minimum``: the
    students under which D, r_pb and the groups raise no flag."""
    import numpy as np

    scores = np.round(np.clip(np.asarray(scores, dtype=np.float64), 0.0, 1.0), PLACES)
    totals = np.round(np.asarray(totals, dtype=np.float64), PLACES)  # sums of marks: equal totals compare equal
    n = len(scores)
    if n == 0:
        return ItemStatistics(0, None, None, None, (), _options(choice, None, None, None, 0) if choice else None)
    upper, lower, g = group_weights(totals, fraction)
    facility = _round(exact_sum(scores) / n)
    discrimination = _round(_difference(upper, lower, scores, g)) if g else None
    point_biserial = _round(_correlation(scores, np.round(totals - scores, PLACES))) if n >= 2 else None
    reasons = flag_reasons(facility, discrimination, point_biserial, students=n, minimum=minimum)
    flags = tuple(dict.fromkeys(reason.flag for reason in reasons))
    grouped = g if n >= minimum else 0  # a small class: no "upper" flag on its options
    options = _options(choice, np.asarray(choice.chosen, dtype=np.int64), upper, lower, g, grouped) if choice else None
    return ItemStatistics(n, facility, discrimination, point_biserial, flags, options, reasons)


def item_flags(
    facility: float | None, discrimination: float | None, point_biserial: float | None, *, students: int | None = None, minimum: int = MIN_STUDENTS
) -> tuple[str, ...]:
    """The flags of an item's (rounded) statistics, in FLAGS order (``students``: how many were set
    it; under ``minimum``, none on D or r_pb)."""
    reasons = flag_reasons(facility, discrimination, point_biserial, students=students, minimum=minimum)
    return tuple(dict.fromkeys(reason.flag for reason in reasons))


def flag_reasons(
    facility: float | None, discrimination: float | None, point_biserial: float | None, *, students: int | None = None, minimum: int = MIN_STUDENTS
) -> tuple[Reason, ...]:
    """Each flag with each figure that raised it, in FLAGS order and D before r_pb; D and r_pb raise
    none when ``students`` (if given) is under ``minimum``."""
    found = [] if students is not None and students < minimum else [
        (name, value) for name, value in (("discrimination", discrimination), ("point_biserial", point_biserial)) if value is not None
    ]  # fmt: skip
    reasons = [Reason("negative", name, value, "<", 0.0) for name, value in found if value < 0]
    if not reasons:
        reasons = [Reason("weak", name, value, "<", WEAK) for name, value in found if value < WEAK]
    if facility is not None and facility <= HARD:
        reasons.append(Reason("hard", "facility", facility, "≤", HARD))
    if facility is not None and facility >= EASY:
        reasons.append(Reason("easy", "facility", facility, "≥", EASY))
    return tuple(reasons)


def caution(statistics: Sequence[ItemStatistics], minimum: int = MIN_STUDENTS) -> Caution | None:
    """The one caution for a class whose items were set to fewer than ``minimum`` students (their
    D and r_pb raised no flag), or None; items no one was set are left out."""
    small = [stats.students for stats in statistics if 0 < stats.students < minimum]
    if not small:
        return None
    return Caution(max(small), len(small), sum(1 for stats in statistics if stats.students > 0), minimum)


def _options(choice: Choice, chosen, upper, lower, g: int, grouped: int | None = None) -> dict[str, OptionShare]:
    """Each label's shares; ``grouped`` 0: too few students for the ``upper`` flag (default ``g``)."""
    import numpy as np

    shares = {}
    n = 0 if chosen is None else len(chosen)
    for bit, label in enumerate(choice.labels):
        if n == 0:
            shares[label] = OptionShare(0.0, None, None, ("right",) if label in choice.right else ("unused",))
            continue
        picked = ((chosen >> bit) & 1).astype(np.float64)
        everyone = _round(exact_sum(picked) / n)
        high = _round(exact_sum(upper * picked) / g) if g else None
        low = _round(exact_sum(lower * picked) / g) if g else None
        flags = ("right",) if label in choice.right else ()
        if label not in choice.right:
            if not picked.any():
                flags = ("unused",)
            elif (g if grouped is None else grouped) and high is not None and low is not None and high > low:
                flags = ("upper",)
        shares[label] = OptionShare(everyone, high, low, flags)
    return shares


def item_statistics(
    scores: np.ndarray,
    totals: np.ndarray,
    *,
    taken: np.ndarray | None = None,
    choices: Mapping[int, Choice] | None = None,
    fraction: float = KELLEY,
    minimum: int = MIN_STUDENTS,
) -> list[ItemStatistics]:
    """Every item of a students × items score matrix (0..1, missing = 0) with the students' totals.

    ``taken``: a students × items mask of the items each student was set (default: all of them);
    an item's statistics are over the students who were set it. ``choices``: by item index, the
    choice items' labels and each student's chosen labels (a bit mask per student, all students
    in the matrix's order)."""
    import numpy as np

    scores = np.asarray(scores, dtype=np.float64)
    totals = np.asarray(totals, dtype=np.float64)
    if scores.ndim != 2 or len(totals) != len(scores):
        raise ValueError(f"scores must be students × items and totals one per student, not {scores.shape} and {totals.shape}")
    taken = np.ones(scores.shape, dtype=bool) if taken is None else np.asarray(taken, dtype=bool)
    found = []
    for item in range(scores.shape[1]):
        rows = taken[:, item]
        choice = (choices or {}).get(item)
        if choice is not None:
            choice = choice._replace(chosen=np.asarray(choice.chosen, dtype=np.int64)[rows])
        found.append(item_statistic(scores[rows, item], totals[rows], choice, fraction=fraction, minimum=minimum))
    return found
