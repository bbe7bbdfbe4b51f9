"""A variant never hands a student a weights row that is one-hot at the asked decimals.

The other tests' sources have narrow score ranges: no draw from them can put one
weight at 1.0 and the rest at 0.0, so the rule was never put to work. Here the source
is a teacher's problem with entries -3…2 whose scaled scores run from -3.5 to 6.4,
weights to one decimal: no row of its own rounds to one-hot (its largest weights
are 0.9), but its band is wide enough that a raw draw often does (a gap of 3 between
one score and the others already gives 0.95 → 1.0). Every variant must still be a
softmax a student works out, not a row that reads (0.0, 1.0, 0.0) whatever they do.
"""

from __future__ import annotations

import json
import math

import pytest

from attn_tutor.core.model import Head, Problem, ProblemSet
from attn_tutor.problems.dump import dump_problem_set
from attn_tutor.solve import engine
from attn_tutor.variants import fairness


def floats(rows) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in row) for row in rows)


WIDE = Problem(
    id="wide-scores",
    tokens=("나는", "사과를", "먹었다"),
    heads=(
        Head(
            Q=floats([[2, 1], [-3, -1], [-3, -3]]),
            K=floats([[2, -3], [-1, -1], [-2, -1]]),
            V=floats([[1, 0], [0, 1], [1, 1]]),
        ),
    ),
    decimals=1,
)

# A draw from WIDE's own grids (Q and K -3…2, V 0…1), within its band: row 나는's scores
# are (-2, 6, 2)/√2, its weights 0.001, 0.985, 0.014, shown 0.0, 1.0, 0.0.
ONE_HOT_DRAW = WIDE._replace(
    heads=(
        Head(
            Q=floats([[-2, 0], [0, -3], [-1, 0]]),
            K=floats([[2, -3], [-3, -2], [0, 1]]),
            V=floats([[0, 1], [1, 0], [0, 1]]),
        ),
    )
)

VARIANTS = [7000 + k for k in range(1, 13)]  # what `export --variants 12 --seed 7` prints on the sheets


def shown(weight: float, decimals: int) -> float:
    """A weight as the answer key shows it: rounded half up."""
    return math.floor(weight * 10**decimals + 0.5) / 10**decimals


def one_hot_rows(weights: list[list[float]], decimals: int) -> list[list[float]]:
    """The rows (as shown) that read 1 and 0s."""
    rows = [[shown(w, decimals) for w in row] for row in weights]
    return [row for row in rows if sorted(row)[-1] == 1.0 and all(w == 0.0 for w in sorted(row)[:-1])]


def test_the_source_has_no_one_hot_row_but_a_draw_from_its_band_can():
    solution = engine.solve(WIDE)
    assert one_hot_rows(solution.head.weights.tolist(), WIDE.decimals) == []
    facts = fairness.source_facts(WIDE)
    assert fairness.in_band(ONE_HOT_DRAW, facts)  # the band rule alone lets it through
    assert one_hot_rows(engine.solve(ONE_HOT_DRAW).head.weights.tolist(), WIDE.decimals) == [[0.0, 1.0, 0.0]]


def test_a_one_hot_draw_is_not_a_fair_variant():
    assert not fairness.is_fair(ONE_HOT_DRAW, fairness.source_facts(WIDE))


@pytest.fixture(scope="module")
def wide_set(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("wide") / "set.yaml"
    path.write_text(dump_problem_set(ProblemSet((WIDE,))), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("number", VARIANTS)
def test_no_variant_of_a_wide_source_shows_a_one_hot_weights_row(run_cli, wide_set, number):
    result = run_cli("solve", wide_set, "--variant", str(number), "--format", "json")
    assert result.exit_code == 0, result.output
    (problem,) = json.loads(result.stdout)["problems"]
    assert problem["Q"] != [list(row) for row in WIDE.heads[0].Q]  # new numbers
    assert one_hot_rows(problem["weights"], WIDE.decimals) == []
