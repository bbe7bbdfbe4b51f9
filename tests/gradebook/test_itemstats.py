"""Item statistics (attn_tutor.gradebook.itemstats): hand-worked, published, and their properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor.gradebook.itemstats import Choice, exact_sum, group_size, group_weights, item_flags, item_statistic, item_statistics

# A published worked example: "Item Analysis Worksheet", ten students, ten right/wrong questions,
# p and D by the upper and lower halves (five students each), https://studylib.net/doc/25270846/item-anaylsis-
# Rows: Joe, Dave, Sujie, Darrell, Eliza, Zoe, Grace, Hannah, Ricky, Anita (totals 100 ... 30%).
WORKSHEET = """
1 1 1 1 1 1 1 1 1 1
1 1 1 1 1 1 1 1 0 1
1 1 0 1 1 1 1 1 0 0
0 1 1 1 1 1 0 1 0 1
1 1 1 0 1 1 1 0 0 1
1 1 1 0 1 1 0 1 0 0
0 1 1 0 1 1 0 1 0 1
0 1 1 1 0 0 1 0 1 0
1 1 1 0 1 0 0 0 0 1
0 1 0 0 0 1 0 0 1 0
"""
WORKSHEET_TOTALS = (100, 90, 70, 70, 70, 60, 60, 50, 50, 30)  # as printed (%), ten questions of 10%
WORKSHEET_P = (0.60, 1, 0.80, 0.50, 0.80, 0.80, 0.50, 0.60, 0.30, 0.60)  # as printed
WORKSHEET_D = (0.4, 0, 0, 0.6, 0.4, 0.4, 0.6, 0.4, -0.2, 0.4)  # as printed


def test_the_published_worksheet_is_reproduced_to_its_printed_decimals():
    matrix = np.array([[int(cell) for cell in line.split()] for line in WORKSHEET.strip().splitlines()], dtype=float)
    assert tuple(matrix.sum(axis=1) * 10) == WORKSHEET_TOTALS  # the printed totals are the sums
    # the worksheet's halves; its ten students flagged as the worksheet does (minimum=2: below
    # MIN_STUDENTS, the default raises no flag on D or r_pb)
    stats = item_statistics(matrix, np.array(WORKSHEET_TOTALS, dtype=float), fraction=0.5, minimum=2)
    assert [round(s.facility, 2) for s in stats] == list(WORKSHEET_P)
    assert [round(s.discrimination, 1) for s in stats] == list(WORKSHEET_D)
    # Question 9, the one the worksheet says to eliminate, is the one flagged negative.
    assert [i + 1 for i, s in enumerate(stats) if "negative" in s.flags] == [9]
    default = item_statistics(matrix, np.array(WORKSHEET_TOTALS, dtype=float), fraction=0.5)
    assert [s.flags for s in default] == [tuple(f for f in s.flags if f in ("hard", "easy")) for s in stats]


# A class of ten worked on paper (Kelley's 27%):
#
#   student  total  A    B    C chose
#   S1       9      1    1    B
#   S2       8      1    0.5  B
#   S3       7      0    1    C
#   S4       7      1    0.5  B
#   S5       6      1    0    C
#   S6       5      0    0.5  A
#   S7       4      1    0    B
#   S8       3      0    0    A
#   S9       3      0    0    A
#   S10      2      0    0.5  A
#
# g = round_half_up(0.27 · 10) = round(2.7) = 3 seats in each group.
# Upper: the cut is the 3rd highest total, 7; S1, S2 are above it (2 seats), S3 and S4 are tied at
# it for the 1 seat left: each counts 1/2. Lower: the cut is the 3rd lowest, 3; S10 is below it,
# S8 and S9 tied at it share the 2 seats left: each counts 1. So the lower group is S8, S9, S10.
#
# A: F = 5/10 = 0.5; upper = (1 + 1 + ½·0 + ½·1)/3 = 2.5/3 = 0.8333; lower = 0; D = 0.8333.
#    r_pb against the rest (total − A): x = 1 1 0 1 1 0 1 0 0 0 (mean 0.5), y = 8 7 7 6 5 5 3 3 3 2
#    (mean 4.9); Σdx·dy = ½(3.1 + 2.1 + 1.1 + 0.1 − 1.9) − ½(2.1 + 0.1 − 1.9 − 1.9 − 2.9) = 4.5,
#    Σdx² = 2.5, Σdy² = 38.9; r = 4.5 / √(2.5 · 38.9) = 4.5 / 9.8615 = 0.4563.
# B: F = 4/10 = 0.4; upper = (1 + 0.5 + ½·1 + ½·0.5)/3 = 2.25/3 = 0.75; lower = 0.5/3 = 0.1667;
#    D = 0.5833.
# C (right: B; labels A–E): scores 1 1 0 1 0 0 1 0 0 0: F = 0.4, upper = 2.5/3 = 0.8333, lower 0.
#    A: chosen by S6, S8, S9, S10: all 0.4, upper 0, lower 3/3 = 1.
#    B: all 0.4, upper 0.8333, lower 0.
#    C: chosen by S3 and S5: all 0.2, upper ½/3 = 0.1667, lower 0: the strong students pick it ("upper").
#    D, E: nobody: "unused".
TOTALS = (9, 8, 7, 7, 6, 5, 4, 3, 3, 2)
ITEM_A = (1, 1, 0, 1, 1, 0, 1, 0, 0, 0)
ITEM_B = (1, 0.5, 1, 0.5, 0, 0.5, 0, 0, 0, 0.5)
CHOSEN = "BBCBCABAAA"
LABELS = ("A", "B", "C", "D", "E")


def _choice() -> Choice:
    return Choice(LABELS, ("B",), [1 << LABELS.index(label) for label in CHOSEN])


def test_a_class_of_ten_worked_on_paper():
    item_c = tuple(int(label == "B") for label in CHOSEN)
    matrix = np.array([ITEM_A, ITEM_B, item_c], dtype=float).T
    a, b, c = item_statistics(matrix, np.array(TOTALS, dtype=float), choices={2: _choice()}, minimum=10)
    assert (a.students, a.facility, a.discrimination, a.point_biserial) == (10, 0.5, 0.8333, 0.4563)
    assert (b.facility, b.discrimination) == (0.4, 0.5833)
    assert (c.facility, c.discrimination) == (0.4, 0.8333)
    assert a.options is None
    shares = {label: (share.all, share.upper, share.lower, share.flags) for label, share in c.options.items()}
    assert shares == {
        "A": (0.4, 0.0, 1.0, ()),
        "B": (0.4, 0.8333, 0.0, ("right",)),
        "C": (0.2, 0.1667, 0.0, ("upper",)),
        "D": (0.0, 0.0, 0.0, ("unused",)),
        "E": (0.0, 0.0, 0.0, ("unused",)),
    }
    assert list(c.options) == list(LABELS)  # in printed order


def test_the_groups_share_the_seats_at_a_tied_cut():
    upper, lower, seats = group_weights(np.array(TOTALS, dtype=float))
    assert seats == 3
    assert upper.tolist() == [1, 1, 0.5, 0.5, 0, 0, 0, 0, 0, 0]
    assert lower.tolist() == [0, 0, 0, 0, 0, 0, 0, 1, 1, 1]


@pytest.mark.parametrize(
    ("n", "fraction", "seats"),
    [
        (0, 0.27, 0), (1, 0.27, 0),  # no groups
        (2, 0.27, 1), (3, 0.27, 1), (5, 0.27, 1),  # round_half_up(1.35) = 1
        (6, 0.27, 2),  # 1.62 → 2
        (9, 0.27, 2),  # 2.43 → 2
        (10, 0.27, 3),  # 2.7 → 3
        (50, 0.27, 14),  # 13.5 → 14 (half up)
        (100, 0.27, 27),
        (10, 0.5, 5), (11, 0.5, 5),  # halves: an odd class leaves the middle student out
    ],
)  # fmt: skip
def test_group_size(n, fraction, seats):
    assert group_size(n, fraction) == seats


@pytest.mark.parametrize(
    ("facility", "d", "r", "flags"),
    [
        (0.5, 0.4, 0.35, ()),
        (0.5, -0.1, 0.3, ("negative",)),
        (0.5, 0.3, -0.01, ("negative",)),
        (0.5, 0.19, 0.5, ("weak",)),
        (0.5, 0.2, 0.2, ()),  # 0.20 is not weak
        (0.05, 0.0, None, ("weak", "hard")),
        (0.06, 0.3, 0.3, ()),
        (0.95, 0.1, 0.3, ("weak", "easy")),
        (1.0, 0.0, None, ("weak", "easy")),
        (None, None, None, ()),
    ],
)  # fmt: skip
def test_flags(facility, d, r, flags):
    assert item_flags(facility, d, r) == flags


def test_undefined_statistics_are_none_never_nan():
    everyone_right = item_statistic(np.ones(5), np.array([5.0, 4, 3, 2, 1]))
    assert everyone_right.point_biserial is None  # the item has no variance
    assert everyone_right.discrimination == 0.0 and everyone_right.facility == 1.0
    same_rest = item_statistic(np.array([1.0, 0, 1, 0]), np.array([3.0, 2, 3, 2]))  # rest = 2 for everyone
    assert same_rest.point_biserial is None
    alone = item_statistic(np.array([1.0]), np.array([4.0]), _choice()._replace(chosen=[2]))
    assert (alone.facility, alone.discrimination, alone.point_biserial) == (1.0, None, None)
    assert alone.options["B"] == (1.0, None, None, ("right",))
    nobody = item_statistic(np.array([]), np.array([]), _choice()._replace(chosen=[]))
    assert (nobody.students, nobody.facility, nobody.discrimination) == (0, None, None)


def test_items_a_student_was_not_set_are_left_out():
    matrix = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    taken = np.array([[True, False], [True, True], [True, True]])
    first, second = item_statistics(matrix, np.array([3.0, 2.0, 1.0]), taken=taken)
    assert (first.students, second.students) == (3, 2)
    assert second.facility == 0.5


classes = st.integers(min_value=0, max_value=30).flatmap(
    lambda n: st.tuples(
        st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=3, max_size=3), min_size=n, max_size=n),
        st.lists(st.sampled_from([1, 2, 4, 8]), min_size=n, max_size=n),
        st.randoms(use_true_random=False),
    )
)


@settings(max_examples=200, deadline=None)
@given(classes)
def test_properties(case):
    rows, chosen, random = case
    n = len(rows)
    matrix = np.array(rows, dtype=float).reshape(n, 3)
    totals = matrix.sum(axis=1) + np.array([random.choice([0.0, 1.0, 2.5]) for _ in range(n)])
    choice = Choice(("A", "B", "C", "D"), ("A",), chosen)
    stats = item_statistics(matrix, totals, choices={0: choice})
    for item, s in enumerate(stats):
        values = (s.facility, s.discrimination, s.point_biserial)
        assert all(v is None or not math.isnan(v) for v in values)
        if n:
            assert 0 <= s.facility <= 1
        if n >= 2:
            assert -1 <= s.discrimination <= 1
        rest = totals - matrix[:, item]
        no_variance = n < 2 or np.ptp(matrix[:, item]) == 0 or np.ptp(np.round(rest, 6)) == 0
        assert (s.point_biserial is None) == no_variance
        if s.point_biserial is not None:
            assert -1 <= s.point_biserial <= 1
            assert s.point_biserial == pytest.approx(float(np.corrcoef(matrix[:, item], rest)[0, 1]), abs=1e-4)
    for share in stats[0].options.values():
        assert 0 <= share.all <= 1
        assert all(v is None or 0 <= v <= 1 for v in (share.upper, share.lower))
    # The students' order (the order the files came in) changes nothing.
    order = list(range(n))
    random.shuffle(order)
    shuffled = item_statistics(matrix[order], totals[order], choices={0: choice._replace(chosen=[chosen[i] for i in order])})
    assert shuffled == stats


def _row(name: str, total: float, items, chosen=()):
    from attn_tutor.gradebook.rows import StudentRow

    entries = tuple((key, points, "", "correct" if points == 1 else "wrong", None) for key, points in items)
    return StudentRow((), entries, (), total, 10.0, "set", (name,), None, chosen=chosen)


def test_the_tally_carries_the_class_of_ten_into_the_json_and_the_summary():
    """The class worked on paper above, fed to the gradebook's Tally a student at a time: item C
    is a choice item (a concept), its chosen labels carried in each row's ``chosen``."""
    from attn_tutor.gradebook.analysis import Tally
    from attn_tutor.gradebook.summary import summary_blocks
    from attn_tutor.render.blocks import Table

    a, b, c = ("p", "r", "scores"), ("p", "r", "output"), ("p", "why", "weights")  # (a concept's key is the wiring's)
    tally = Tally(columns=[a, b, c])
    tally.add_choice(c, LABELS, ("B",))
    for s in range(10):
        label = CHOSEN[s]
        tally.add(_row(f"S{s + 1}", TOTALS[s], [(a, ITEM_A[s]), (b, ITEM_B[s]), (c, float(label == "B"))], ((c, (label,)),)))
    first, second, third = (stats.to_dict() for stats in tally.analysis())
    assert (first["facility"], first["discrimination"], first["point_biserial"], first["flags"]) == (0.5, 0.8333, 0.4563, [])
    assert (second["facility"], second["discrimination"]) == (0.4, 0.5833)
    assert "options" not in first
    assert third["options"] == {
        "A": {"overall": 0.4, "upper": 0.0, "lower": 1.0, "flags": []},
        "B": {"overall": 0.4, "upper": 0.8333, "lower": 0.0, "flags": ["right"]},
        "C": {"overall": 0.2, "upper": 0.1667, "lower": 0.0, "flags": []},  # ten students: no "upper" flag
        "D": {"overall": 0.0, "upper": 0.0, "lower": 0.0, "flags": ["unused"]},
        "E": {"overall": 0.0, "upper": 0.0, "lower": 0.0, "flags": ["unused"]},
    }
    tables = {block.title: block for block in summary_blocks(tally) if isinstance(block, Table)}
    options = tables["Options chosen: p · why"]
    assert [tuple(row) for row in options.rows] == [
        ("A", "40%", "0%", "100%", ""),
        ("B", "40%", "83%", "0%", "the right answer"),
        ("C", "20%", "17%", "0%", ""),
        ("D", "0%", "0%", "0%", "chosen by no one"),
        ("E", "0%", "0%", "0%", "chosen by no one"),
    ]
    stats = next(table for title, table in tables.items() if title.startswith("Item statistics: p"))
    assert [tuple(row)[1:3] for row in stats.rows] == [("0.50", "0.83"), ("0.40", "0.58"), ("0.40", "0.83")]
    assert stats.rows[0][3] == "0.46"


def test_a_class_of_many_blocks_is_held_a_block_at_a_time_and_counted_whole():
    """The answers' points go to the tally's file a block of students at a time: however many
    students came, it holds no more than one block of each item's in memory, and the statistics
    are those of every student (an item set to only some of them, a choice item too)."""
    import random

    from attn_tutor.gradebook.analysis import BLOCK, Tally

    rng = random.Random(7)
    a, b, c = ("p", "r", "scores"), ("p", "r", "output"), ("p", "why", "weights")
    tally = Tally(columns=[a, b, c])
    tally.add_choice(c, LABELS, ("B",))
    totals, points, chosen = [], {a: [], b: [], c: []}, []
    for s in range(2 * BLOCK + 300):
        total = rng.randrange(0, 41) / 4
        items = [(a, rng.choice((0, 0.5, 1)))] + ([(b, rng.choice((0, 1)))] if s % 3 else [])
        label = rng.choice(LABELS[:3])
        items.append((c, float(label == "B")))
        tally.add(_row(f"S{s}", total, items, ((c, (label,)),)))
        totals.append(total)
        for key, value in items:
            points[key].append((value, total))
        chosen.append(1 << LABELS.index(label))
        held = [len(array) for pair in tally._points.values() for array in pair]
        held += [len(array) for choice in tally._choices.values() for array in choice[2:]]
        assert max(held) <= BLOCK  # one block at most, whatever the class
    found = tally.statistics()
    for key in (a, b):
        scores, of = zip(*points[key])
        assert found[key] == item_statistic(np.array(scores), np.array(of))
    scores, of = zip(*points[c])
    assert found[c] == item_statistic(np.array(scores), np.array(of), Choice(LABELS, ("B",), np.array(chosen)))
    assert found[b].students == sum(1 for s in range(2 * BLOCK + 300) if s % 3)


def test_the_tally_works_the_statistics_out_again_only_when_the_class_grew():
    from attn_tutor.gradebook.analysis import Tally

    key = ("p", "r", "scores")
    tally = Tally(columns=[key])
    for s in range(4):
        tally.add(_row(f"S{s}", TOTALS[s], [(key, ITEM_A[s])]))
    first = tally.statistics()
    assert tally.statistics() is first  # asked again (terminal, JSON, report): the same, not redone
    tally.add(_row("S4", TOTALS[4], [(key, ITEM_A[4])]))
    again = tally.statistics()
    assert again is not first and again[key].students == 5


def test_the_tally_counts_alike_however_often_it_folds_and_whenever_an_item_is_known(monkeypatch):
    """The verdict and diagnosis counts of a class are the same whether the rows' entries are folded in
    at the end or every few students, and an item's rows counted before its column was known count."""
    from attn_tutor.gradebook import analysis
    from attn_tutor.gradebook.rows import StudentRow

    a, b = ("p", "r", "scores"), ("q", "r", "output")
    entries = [(a, 1.0, "right", "correct", None), (a, 0.0, "wrong: x", "wrong", "rounding"), (a, 0.5, "wrong: y", "wrong", "not_scaled"),
               (b, 0.0, "missing", "missing", None), (b, 1.0, "right", "correct", None), (b, 0.0, "wrong: x", "wrong", "rounding")]  # fmt: skip

    def counted(fold_every: int) -> list:
        monkeypatch.setattr(analysis, "SEEN", fold_every)
        tally = analysis.Tally(columns=[a])
        for s in range(30):
            items = (entries[s % 3], entries[3 + (s * 7) % 3])
            tally.add(StudentRow((), items, (), 1.0, 2.0, "set", (f"S{s}",), None))
            if s == 20:
                tally.add_columns([b])  # b's first 21 students came before b was known
        return [(stats.name, stats.students, stats.counts, stats.diagnoses) for stats in tally.analysis()]

    at_the_end = counted(10_000)
    assert at_the_end == counted(1) == counted(2)
    assert [students for _name, students, _counts, _diagnoses in at_the_end] == [30, 30]
    assert dict(at_the_end[0][2]) == {"correct": 10, "follow_through": 0, "partial": 0, "wrong": 20, "missing": 0}


# Every float, from the smallest subnormal up to a thousandth of the largest (so no sum of up to a
# thousand of them overflows, which fsum refuses), of either sign; and the marker's own kind of value.
_FLOATS = st.floats(min_value=-1.7e305, max_value=1.7e305, allow_nan=False, allow_infinity=False)
_MARKS = st.integers(0, 10_000).map(lambda k: round(k / 10_000, 4))


@settings(max_examples=400, deadline=None)
@given(st.lists(_FLOATS | _MARKS, max_size=1000))
def test_the_exact_sum_is_math_fsum_to_the_last_bit(values):
    # The item statistics sum with exact_sum instead of a Python step per value: the same float as
    # fsum's correctly rounded sum, or a statistic could move across a rounding tie.
    assert exact_sum(np.array(values, dtype=np.float64)) == math.fsum(values)


@pytest.mark.parametrize(
    "values",
    [[], [-0.0], [5e-324, 5e-324], [1.0, 1e100, 1.0, -1e100], [0.1] * 10, [2.0**-1074, -3 * 2.0**-1074, 1.5], [0.5, 0.25, -0.75]],
)
def test_the_exact_sum_of_values_that_cancel_or_are_tiny(values):
    assert exact_sum(np.array(values, dtype=np.float64)) == math.fsum(values)


def test_the_exact_sum_leaves_an_infinity_or_a_nan_to_fsum():
    assert exact_sum(np.array([math.inf, 1.0])) == math.inf
    assert math.isnan(exact_sum(np.array([math.nan, 1.0])))
    with pytest.raises(ValueError):  # as fsum says of -inf + inf
        exact_sum(np.array([math.inf, -math.inf]))
