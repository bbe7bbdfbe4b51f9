"""The live class's student pages (practice and exam) carry the digits the CLI reads, as the practice page does."""

from __future__ import annotations

from attn_tutor.live.pages import exam_data, practice_data
from attn_tutor.marking.digits import DIGITS, FRACTIONS
from attn_tutor.problems.load import load_problem_set


def test_the_live_pages_are_given_the_cli_digits():
    data = practice_data(load_problem_set(None), set_name="ch13", title="ch13")
    for page in (data, exam_data(data)):
        assert page["digits"] == DIGITS and page["fractions"] == FRACTIONS
