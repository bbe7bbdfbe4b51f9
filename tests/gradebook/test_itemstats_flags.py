"""Issue 35, rule 6: each flag names the figures that raised it, no flag contradicts the numbers
beside it, and under MIN_STUDENTS students D and r_pb flag nothing (the class gets one caution)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.language import in_language
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor.gradebook.itemstats import (
    EASY,
    HARD,
    MIN_STUDENTS,
    WEAK,
    Caution,
    ItemStatistics,
    OptionShare,
    Reason,
    caution,
    flag_reasons,
    item_statistic,
)
from attn_tutor.gradebook.summary import caution_text, figure_text, option_row, reasons_text

R = Reason

# (facility, D, r_pb, students) -> the reasons, in flag order, D before r_pb
REASONS = [
    (0.5, 1.0, 0.06, 40, (R("weak", "point_biserial", 0.06, "<", WEAK),)),
    (0.5, 0.1, 0.5, 40, (R("weak", "discrimination", 0.1, "<", WEAK),)),
    (0.5, 0.1, 0.1, 40, (R("weak", "discrimination", 0.1, "<", WEAK), R("weak", "point_biserial", 0.1, "<", WEAK))),
    (0.5, -0.1, 0.1, 40, (R("negative", "discrimination", -0.1, "<", 0.0),)),  # negative, not also weak
    (0.5, 0.6, -0.01, 40, (R("negative", "point_biserial", -0.01, "<", 0.0),)),
    (0.5, 0.2, 0.2, 40, ()),  # 0.20 is not weak
    (1.0, 0.0, None, 40, (R("weak", "discrimination", 0.0, "<", WEAK), R("easy", "facility", 1.0, "≥", EASY))),
    (0.05, 0.5, 0.5, 40, (R("hard", "facility", 0.05, "≤", HARD),)),
    (0.5, 1.0, 0.06, 5, ()),  # the class of 5: D and r_pb flag nothing
    (0.5, -0.9, -0.8, MIN_STUDENTS - 1, ()),
    (0.5, -0.9, -0.8, MIN_STUDENTS, (R("negative", "discrimination", -0.9, "<", 0.0), R("negative", "point_biserial", -0.8, "<", 0.0))),
    (1.0, 0.0, None, 5, (R("easy", "facility", 1.0, "≥", EASY),)),  # a facility flag stays in a small class
    (0.0, 0.0, None, 3, (R("hard", "facility", 0.0, "≤", HARD),)),
]


@pytest.mark.parametrize(("facility", "d", "r", "students", "reasons"), REASONS)
def test_each_flag_comes_with_the_figures_that_raised_it(facility, d, r, students, reasons):
    assert flag_reasons(facility, d, r, students=students) == reasons


def _stats(facility, d, r, students=40):
    reasons = flag_reasons(facility, d, r, students=students)
    return ItemStatistics(students, facility, d, r, tuple(dict.fromkeys(x.flag for x in reasons)), None, reasons)


# (facility, D, r_pb) -> the check column, in English and in Korean
SAID = [
    (0.5, 1.0, 0.06, "weak discrimination (r_pb 0.06 < 0.20; D 1.00 says otherwise)", "변별력 약함 (r_pb 0.06 < 0.20; D 1.00으로 보면 해당하지 않음)"),
    (0.5, 0.1, 0.1, "weak discrimination (D 0.10 < 0.20, r_pb 0.10 < 0.20)", "변별력 약함 (D 0.10 < 0.20, r_pb 0.10 < 0.20)"),
    (0.5, -0.5, 0.4, "discriminates negatively: check the key (D -0.50 < 0; r_pb 0.40 says otherwise)", "역변별: 정답 확인 필요 (D -0.50 < 0; r_pb 0.40으로 보면 해당하지 않음)"),
    (0.5, 0.1996, 0.3, "weak discrimination (D 0.1996 < 0.20; r_pb 0.30 says otherwise)", "변별력 약함 (D 0.1996 < 0.20; r_pb 0.30으로 보면 해당하지 않음)"),
    (0.97, 0.3, 0.3, "extremely easy (facility 0.97 ≥ 0.95)", "매우 쉬움 (정답률 0.97 ≥ 0.95)"),
    (0.5, 0.3, 0.3, "", ""),
]


@pytest.mark.parametrize(("facility", "d", "r", "english", "korean"), SAID)
def test_the_check_column_names_the_figures_in_both_languages(facility, d, r, english, korean):
    stats = _stats(facility, d, r)
    assert in_language("en", reasons_text, stats) == english
    assert in_language("ko", reasons_text, stats) == korean


# a figure is shown to two places unless two would put it onto or across a bound it is tested against
SHOWN = [
    ("point_biserial", 0.1996, "0.1996"),
    ("point_biserial", 0.2, "0.20"),
    ("point_biserial", 0.2049, "0.20"),  # 0.20 is not weak, nor is 0.2049
    ("point_biserial", 0.06, "0.06"),
    ("discrimination", -0.004, "-0.0040"),
    ("discrimination", 0.004, "0.00"),  # not negative, and 0.00 is not either
    ("facility", 0.9496, "0.9496"),
    ("facility", 0.951, "0.95"),
    ("facility", 0.0504, "0.0504"),
    ("facility", 0.05, "0.05"),
    ("facility", None, "—"),
]


@pytest.mark.parametrize(("figure", "value", "shown"), SHOWN)
def test_a_figure_is_never_shown_on_the_wrong_side_of_its_bound(figure, value, shown):
    assert figure_text(figure, value) == shown


CAUTIONS = [
    ([5] * 8, Caution(5, 8, 8), "Only 5 students: D, r_pb", "학생이 5명뿐입니다"),
    ([29] * 3, Caution(29, 3, 3), "Only 29 students", "학생이 29명뿐입니다"),
    ([1] * 2, Caution(1, 2, 2), "Only 1 student:", "학생이 1명뿐입니다"),
    ([40, 40, 12], Caution(12, 1, 3), "Of 3 items, 1 had fewer than 30 students (at most 12)", "3개 문항 중 1개는 푼 학생이 30명 미만입니다(많아야 12명)"),
    ([30] * 4, None, None, None),
    ([0, 40], None, None, None),  # an item no one was set is left out
]


@pytest.mark.parametrize(("students", "expected", "english", "korean"), CAUTIONS)
def test_one_caution_for_a_small_class_with_its_number(students, expected, english, korean):
    found = caution([ItemStatistics(n, None, None, None, ()) for n in students])
    assert found == expected
    if found is not None:
        assert english in in_language("en", caution_text, found)
        assert korean in in_language("ko", caution_text, found)


FIGURES = ("facility", "discrimination", "point_biserial")
TESTS = {"<": lambda v, b: v < b, "≤": lambda v, b: v <= b, "≥": lambda v, b: v >= b}


@settings(max_examples=150, deadline=None)
@given(
    students=st.integers(min_value=2, max_value=70),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    spread=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_no_flag_contradicts_the_numbers_beside_it(students, seed, spread):
    """Random classes: every reason holds of the item's own figure, as stored and as shown; every
    flag has a reason; D and r_pb flag only from MIN_STUDENTS on, and then every figure that meets
    the test is named."""
    rng = np.random.default_rng(seed)
    ability = rng.random(students)
    scores = (rng.random(students) < (spread * ability + (1 - spread) * rng.random(students))).astype(float)
    totals = scores + rng.integers(0, 8, students) * spread + ability * 3
    stats = item_statistic(scores, totals)
    assert set(stats.flags) == {reason.flag for reason in stats.reasons}
    for reason in stats.reasons:
        value = getattr(stats, reason.figure)
        assert reason.value == value and TESTS[reason.test](value, reason.bound)
        assert TESTS[reason.test](float(figure_text(reason.figure, value)), reason.bound)  # as shown, too
    discriminating = [r for r in stats.reasons if r.flag in ("negative", "weak")]
    if students < MIN_STUDENTS:
        assert not discriminating
    elif discriminating:
        flag = discriminating[0].flag
        bound = 0.0 if flag == "negative" else WEAK
        meets = {f for f in FIGURES[1:] if getattr(stats, f) is not None and getattr(stats, f) < bound}
        assert {r.figure for r in discriminating} == meets


# an option's "upper" flag says the shares that raised it, each to as many places as it takes
OPTIONS = [
    (OptionShare(0.2, 0.1667, 0.0, ("upper",)), ("17%", "0%"), "chosen more by the upper group (17% > 0%)", "상위 집단이 더 많이 고름 (17% > 0%)"),
    (OptionShare(0.2, 0.1234, 0.12, ("upper",)), ("12.3%", "12.0%"), "chosen more by the upper group (12.3% > 12.0%)", "상위 집단이 더 많이 고름 (12.3% > 12.0%)"),
    (OptionShare(0.2, 0.1201, 0.12, ("upper",)), ("12.01%", "12.00%"), "chosen more by the upper group (12.01% > 12.00%)", "상위 집단이 더 많이 고름 (12.01% > 12.00%)"),
    (OptionShare(0.4, 0.8333, 0.0, ("right",)), ("83%", "0%"), "the right answer", "정답"),
    (OptionShare(0.0, 0.0, 0.0, ("unused",)), ("0%", "0%"), "chosen by no one", "아무도 고르지 않음"),
]


@pytest.mark.parametrize(("share", "groups", "english", "korean"), OPTIONS)
def test_an_options_flag_names_the_shares_beside_it(share, groups, english, korean):
    row = in_language("en", option_row, "C", share)
    assert row[2:] == (*groups, english)
    assert in_language("ko", option_row, "C", share)[4] == korean
