"""Points and scores as a person reads them: at most two places, half up, never -0.

The marker keeps four places (1/3 of a point is 0.3333) and the JSON report keeps
them; the terminal summary, the gradebook CSV, the class report, the hand-back
sheets, the quiz and the LMS files show at most two (3.3333 → 3.33).
"""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal

from helpers.paths import TESTS
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.core.rounding import SCORE_PLACES, fmt_score, round_half_up

CLASS = TESTS / "fixtures" / "grade" / "class"
TRANSPOSED = CLASS / "08-transposed.yaml"  # 윤예준: 1/3 of the scores row right, so 3.3333 of 8 points
LONG = re.compile(r"\d\.\d{3,}")


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_a_score_has_at_most_two_places_half_up_from_the_exact_value(x):
    text = fmt_score(x)
    assert not text.startswith("-0") or Decimal(text) != 0
    assert len(text.partition(".")[2]) <= SCORE_PLACES
    assert Decimal(text) == round_half_up(x, SCORE_PLACES)


def test_four_place_points_are_shown_with_two():
    assert [fmt_score(x) for x in (9.8333, 3.3333, 0.3333, 0.6667, 0.005, 2.0, 0.5, -0.0001)] == [
        "9.83", "3.33", "0.33", "0.67", "0.01", "2", "0.5", "0",
    ]  # fmt: skip


def test_every_output_a_person_reads_shows_two_places(run_cli, tmp_path):
    out = {name: tmp_path / name for name in ("book.csv", "report.html", "sheets", "report.json")}
    result = run_cli(
        "grade", str(TRANSPOSED), "--problems", str(CLASS.parent / "set.yaml"), "--csv", str(out["book.csv"]),
        "--class-report", str(out["report.html"]), "--feedback", str(out["sheets"]), "--json", str(out["report.json"]),
    )  # fmt: skip
    assert "3.33" in result.stdout and not LONG.search(result.stdout), result.stdout
    rows = list(csv.DictReader(io.StringIO(out["book.csv"].read_text(encoding="utf-8-sig"))))
    assert rows[0]["score"] == "3.33" and rows[0]["cat-fish/먹었다/scores points"] == "0.33"
    assert not LONG.search(",".join(v for k, v in rows[0].items() if k not in ("file", "errors", "problem_set")))
    report = re.sub(r"<[^>]+>", " ", out["report.html"].read_text(encoding="utf-8"))
    assert "41.7%" in report and not LONG.search(report)
    sheet = next(out["sheets"].iterdir()).read_text(encoding="utf-8")
    assert "3.33 / 8" in sheet and "0.33" in sheet
    student = json.loads(out["report.json"].read_text(encoding="utf-8"))["students"][0]
    assert student["report"]["score"] == 3.3333  # the file a program reads keeps the marker's places


def test_the_quiz_shows_points_with_two_places(run_cli):
    # the scores row with one cell of three right: 1/3 of a point
    result = run_cli("quiz", "--exam", "--row", "먹었다", "--problem", "cat-fish", input="1 0 0\nq\n")
    assert "0.33" in result.output and "0.3333" not in result.output, result.output
