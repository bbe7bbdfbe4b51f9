"""The sampling golden cases (tests/golden/sampling.json) reproduce exactly from the Python engine,
and cover every rule's edge, so that the page's port (practice/assets/sampling.js, held to the
same file in Chromium by tests/e2e/test_sampling_browser.py) is checked where it matters.

When a rule changes on purpose, regenerate with ``python tests/tools/make_sampling_golden.py``,
review the diff, and commit it with the change (the JavaScript must follow).
"""

from __future__ import annotations

import math

import pytest
from helpers import sampling_golden as g

GOLDEN = g.load()["cases"]


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: c["name"])
def test_case_reproduces(case):
    assert g.run(case["problem"]) == case["expected"]


def test_the_fsum_cases_are_pythons_math_fsum():
    cases = g.load()["fsum"]
    assert cases == g.fsum_cases() and len(cases) >= 70
    for case in cases:
        assert g.encode(math.fsum(g.decode(case["values"]))) == case["sum"]


def test_the_file_is_what_the_maker_makes_now():
    """The seeds still draw the same problems (a change to the maker is regenerated, not hand-edited)."""
    assert [c["problem"] for c in g.cases()] == [c["problem"] for c in GOLDEN]


def test_the_cases_reach_every_rule():
    problems = [c["problem"] for c in GOLDEN]
    steps = [s for c in GOLDEN for s in c["expected"]["steps"]]
    assert len(GOLDEN) >= 400
    assert sum(p["top_k"] is not None for p in problems) >= 50
    assert sum(p["top_p"] is not None for p in problems) >= 50
    assert sum(p["draw"] is not None for p in problems) >= 100
    assert sum(p["continuation"] for p in problems) >= 50
    temperatures = [p["temperature"] for p in problems]
    assert min(temperatures) <= 0.1 and max(temperatures) >= 5
    # a token cut, an e^x past a float, a loss of inf, a draw past the first kept token
    assert any(None in s["kept"] for s in steps)
    assert any("inf" in s["exps"] for s in steps)
    assert any(s["loss"] == "inf" for s in steps)
    assert any(p["draw"] is not None and c["expected"]["steps"][0]["pick"] != c["expected"]["steps"][0]["ranked"][0]
               for c in GOLDEN for p in [c["problem"]])  # fmt: skip
    # a tie broken by the token listed first, at the top and at top-k's edge
    by_name = {c["problem"]["id"]: c["expected"]["steps"][0] for c in GOLDEN}
    assert by_name["tie"]["pick"] == 0
    assert by_name["tk-tie"]["kept_set"] == [0, 1]
    assert by_name["edge"]["pick"] == 1  # u = 0.5 on the edge [0, 0.5) | [0.5, 1): the second
    assert by_name["tp-exact"]["kept_set"] == [0]  # 0.5 reaches p = 0.5
    assert by_name["tp-edge"]["kept_set"] == list(range(8))  # a float sum a hair under p still reaches it
