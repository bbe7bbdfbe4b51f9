"""Each cell's arithmetic written out (attn_tutor.solve.explain): `=` where the shown numbers add up, `≈` where not."""

from __future__ import annotations

import pytest
from helpers.output import flat

# --- arithmetic that adds up ------------------------------------------------------------


def test_explain_marks_a_line_whose_shown_numbers_do_not_add_up(run_cli):
    result = run_cli("solve", "-p", "cat-fish", "-r", "고양이가", "--explain")
    assert "0.248×(1, 0) + 0.248×(0, 1) + 0.503×(1, 1) ≈ (0.752, 0.752)" in result.output
    assert "≈ : the result is worked from the unrounded values" in flat(result.output)
    assert "2 / √2 = 2 / 1.414 = 1.414" in result.output  # 2/1.414 = 1.41442: rounds to what is printed
    assert "3 / √2 = 3 / 1.414 ≈ 2.121" in result.output  # 3/1.414 = 2.12164 → 2.122, printed 2.121
    exact = run_cli("solve", "-p", "practice-d4", "--explain").output
    assert "≈ (" not in exact.split("output:")[0].split("scaling:")[0]  # √4 = 2: exact divisions stay "="


@pytest.mark.parametrize(
    ("shown", "exact", "sign"),
    [
        ("0.999", 1.0, "≈"),
        ("0.7515", 0.7515, "="),  # exactly half: half up on both sides
        ("0.7514999", 0.7515, "≈"),
        ("4.2426", 4.242640687, "="),
        ("2.1216", 2.1213203, "≈"),
    ],
)
def test_result_sign_is_one_rule(shown, exact, sign):
    from decimal import Decimal

    from attn_tutor.solve.explain import result_sign

    assert result_sign(Decimal(shown), exact, 3) == sign


def test_the_answer_key_and_the_hint_use_the_same_note(run_cli):
    key = run_cli("export", "-f", "md", "--key-only").output
    assert "≈ (0.752, 0.752)" in key and "the result is worked from the unrounded values" in key
    # weights typed wrong: the hint works on the exact weights, shown rounded
    hint = run_cli("quiz", "-p", "cat-fish", "-r", "고양이가", input="2 2 3\n1.414 1.414 2.121\n0.2 0.2 0.6\n?\n?\nq\n")
    assert "0.248×1 + 0.248×0 + 0.503×1 ≈ 0.752" in hint.output
    assert "≈ : the result is worked from the unrounded values" in flat(hint.output)
