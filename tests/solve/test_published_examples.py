"""Worked examples published by other attention tutorials, reproduced to their printed precision.

Each fixture in ``tests/fixtures/published/`` names its source (title, author, address)
in a comment, with the numbers as printed there. The numbers are copied below as the
text that was printed, and a value matches when it lies within half a unit of the
printed number's last digit (``0.1385`` means 0.13845 … 0.13855; ``6.03366485e-06``
means ±5e-15). Every example is checked twice: through the engine, and through
``attn-tutor solve FILE --format json`` as a script would read it.

Sources (details and every printed number in each fixture):
- Raschka, "Build a Large Language Model (From Scratch)", ch. 3: simplified self-attention
  (unscaled, Q = K = V = inputs; 4 decimals) and the causal mask (divided by √2; 4 decimals).
- Rothman, "Transformers for NLP", ch. 1 notebook, after Karim, "Illustrated: Self-Attention":
  a projection X·W with integer weights, unscaled (numpy, 8 digits; torch, 5 significant).
- Karpathy, "Let's build GPT": causal averaging as a masked softmax (4 decimals).
- yangshiteng, "Data-Science-Learning-Path", multi_head_calculation.md: two heads, concatenated
  (2 decimals).
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path

import pytest
from helpers.paths import TESTS

from attn_tutor.problems.load import load_path
from attn_tutor.solve import engine

FIXTURES = TESTS / "fixtures" / "published"


# --------------------------------------------------------------------------- what was published

# Raschka, ch03.ipynb, cells 9–13: attn_scores = inputs @ inputs.T, torch.softmax, attn_weights @ inputs.
RASCHKA_SCORES = [
    "0.9995 0.9544 0.9422 0.4753 0.4576 0.6310",
    "0.9544 1.4950 1.4754 0.8434 0.7070 1.0865",
    "0.9422 1.4754 1.4570 0.8296 0.7154 1.0605",
    "0.4753 0.8434 0.8296 0.4937 0.3474 0.6565",
    "0.4576 0.7070 0.7154 0.3474 0.6654 0.2935",
    "0.6310 1.0865 1.0605 0.6565 0.2935 0.9450",
]
RASCHKA_WEIGHTS = [
    "0.2098 0.2006 0.1981 0.1242 0.1220 0.1452",
    "0.1385 0.2379 0.2333 0.1240 0.1082 0.1581",
    "0.1390 0.2369 0.2326 0.1242 0.1108 0.1565",
    "0.1435 0.2074 0.2046 0.1462 0.1263 0.1720",
    "0.1526 0.1958 0.1975 0.1367 0.1879 0.1295",
    "0.1385 0.2184 0.2128 0.1420 0.0988 0.1896",
]
RASCHKA_CONTEXT = [
    "0.4421 0.5931 0.5790",
    "0.4419 0.6515 0.5683",  # z(2), "journey": computed step by step in section 3.3.1
    "0.4431 0.6496 0.5671",
    "0.4304 0.6298 0.5510",
    "0.4671 0.5910 0.5266",
    "0.4177 0.6503 0.5645",
]

# Raschka, ch03.ipynb, cells 29–30: masked scores and torch.softmax(masked / keys.shape[-1]**0.5).
RASCHKA_CAUSAL_SCORES = [
    "0.2899 -inf -inf -inf -inf -inf",
    "0.4656 0.1723 -inf -inf -inf -inf",
    "0.4594 0.1703 0.1731 -inf -inf -inf",
    "0.2642 0.1024 0.1036 0.0186 -inf -inf",
    "0.2183 0.0874 0.0882 0.0177 0.0786 -inf",
    "0.3408 0.1270 0.1290 0.0198 0.1290 0.0078",
]
RASCHKA_CAUSAL_WEIGHTS = [
    "1.0000 0.0000 0.0000 0.0000 0.0000 0.0000",
    "0.5517 0.4483 0.0000 0.0000 0.0000 0.0000",
    "0.3800 0.3097 0.3103 0.0000 0.0000 0.0000",
    "0.2758 0.2460 0.2462 0.2319 0.0000 0.0000",
    "0.2175 0.1983 0.1984 0.1888 0.1971 0.0000",
    "0.1935 0.1663 0.1666 0.1542 0.1666 0.1529",
]
# The causal fixture starts from scores printed to 4 decimals (±0.00005), divided by √2.
# A softmax weight w moves by at most w(1 - w)·2·0.00005/√2 ≤ 0.0000177 under that rounding.
RASCHKA_CAUSAL_SLACK = 0.25 * 2 * 0.00005 / math.sqrt(2) * 1.01

# Rothman, Multi_Head_Attention_Sub_Layer.ipynb, steps 3–7 (numpy's default 8 digits).
ROTHMAN_Q = ["1. 0. 2.", "2. 2. 2.", "2. 1. 3."]
ROTHMAN_K = ["0. 1. 1.", "4. 4. 0.", "2. 3. 1."]
ROTHMAN_V = ["1. 2. 3.", "2. 8. 0.", "2. 6. 3."]
ROTHMAN_SCORES = ["2. 4. 4.", "4. 16. 12.", "4. 12. 10."]
ROTHMAN_WEIGHTS = [
    "0.06337894 0.46831053 0.46831053",
    "6.03366485e-06 9.82007865e-01 1.79861014e-02",
    "2.95387223e-04 8.80536902e-01 1.19167711e-01",
]
ROTHMAN_OUTPUT_ROW_1 = "1.93662106 6.68310531 1.59506841"
# Karim / Romero (torch), same weights printed to 5 significant digits.
KARIM_WEIGHTS = [
    "6.3379e-02 4.6831e-01 4.6831e-01",
    "6.0337e-06 9.8201e-01 1.7986e-02",
    "2.9539e-04 8.8054e-01 1.1917e-01",
]

# Karpathy, "The mathematical trick in self-attention": a (the weights) and c = a @ b.
KARPATHY_WEIGHTS = ["1.0000 0.0000 0.0000", "0.5000 0.5000 0.0000", "0.3333 0.3333 0.3333"]
KARPATHY_OUTPUT = ["2.0000 7.0000", "4.0000 5.5000", "4.6667 5.3333"]

# yangshiteng, multi_head_calculation.md: head outputs and their concatenation.
TWO_HEADS_HEAD1_WEIGHTS = ["0.73 0.27", "0.27 0.73"]
TWO_HEADS_HEAD1 = ["0.73 0.27", "0.27 0.73"]
TWO_HEADS_HEAD2 = ["0.27 0.73", "0.73 0.27"]
TWO_HEADS_COMBINED = ["0.73 0.27 0.27 0.73", "0.27 0.73 0.73 0.27"]


def rows(printed: list[str]) -> list[list[str]]:
    return [line.split() for line in printed]


# (fixture, where in the solved problem, printed rows, slack beyond the printed half unit)
CHECKS = [
    ("raschka-simplified-unscaled.yaml", "scores", RASCHKA_SCORES, 0.0),
    ("raschka-simplified-unscaled.yaml", "weights", RASCHKA_WEIGHTS, 0.0),
    ("raschka-simplified-unscaled.yaml", "output", RASCHKA_CONTEXT, 0.0),
    ("raschka-causal.yaml", "scores", RASCHKA_CAUSAL_SCORES, 0.0),
    ("raschka-causal.yaml", "weights", RASCHKA_CAUSAL_WEIGHTS, RASCHKA_CAUSAL_SLACK),
    ("rothman-karim-projection.yaml", "Q", ROTHMAN_Q, 0.0),
    ("rothman-karim-projection.yaml", "K", ROTHMAN_K, 0.0),
    ("rothman-karim-projection.yaml", "V", ROTHMAN_V, 0.0),
    ("rothman-karim-projection.yaml", "scores", ROTHMAN_SCORES, 0.0),
    ("rothman-karim-projection.yaml", "weights", ROTHMAN_WEIGHTS, 0.0),
    ("rothman-karim-projection.yaml", "weights", KARIM_WEIGHTS, 0.0),
    ("rothman-karim-projection.yaml", "output[:1]", [ROTHMAN_OUTPUT_ROW_1], 0.0),
    ("karpathy-causal-average.yaml", "weights", KARPATHY_WEIGHTS, 0.0),
    ("karpathy-causal-average.yaml", "output", KARPATHY_OUTPUT, 0.0),
    ("multihead-two-heads.yaml", "heads[0].weights", TWO_HEADS_HEAD1_WEIGHTS, 0.0),
    ("multihead-two-heads.yaml", "heads[0].output", TWO_HEADS_HEAD1, 0.0),
    ("multihead-two-heads.yaml", "heads[1].output", TWO_HEADS_HEAD2, 0.0),
    ("multihead-two-heads.yaml", "output", TWO_HEADS_COMBINED, 0.0),
]


# --------------------------------------------------------------------------- matching


def half_unit(printed: str) -> Decimal:
    """Half a unit in the last printed place: '0.1385' → 0.00005, '1.' → 0.5, '6.0337e-06' → 5e-11."""
    return Decimal(1).scaleb(Decimal(printed).as_tuple().exponent) / 2


def matches(value: float | None, printed: str, slack: float = 0.0) -> bool:
    if printed in ("-inf", "inf"):  # a masked cell: the tool writes null (NaN in the engine)
        return value is None
    if value is None or math.isnan(value):
        return False
    return abs(Decimal(repr(float(value))) - Decimal(printed)) <= half_unit(printed) + Decimal(repr(slack))


def test_half_unit_reads_the_printed_precision():
    assert half_unit("0.1385") == Decimal("0.00005")
    assert half_unit("1.") == Decimal("0.5")
    assert half_unit("6.03366485e-06") == Decimal("5e-15")
    assert half_unit("0.73") == Decimal("0.005")
    assert matches(0.13854, "0.1385") and matches(0.13855, "0.1385") and not matches(0.13856, "0.1385")
    assert matches(None, "-inf") and not matches(0.0, "-inf") and not matches(None, "0.1")


# --------------------------------------------------------------------------- two ways to solve


def _none_for_nan(matrix):
    return [[None if math.isnan(v) else v for v in row] for row in matrix.tolist()] if matrix is not None else None


def _head_dict(head) -> dict:
    return {name: _none_for_nan(getattr(head, name))
            for name in ("Q", "K", "V", "scores", "scaled", "weights", "output")}


def through_engine(path: Path) -> dict:
    (problem,) = load_path(path).problems
    solution = engine.solve(problem)
    result = _head_dict(solution.head) if len(solution.heads) == 1 else {}
    result["output"] = _none_for_nan(solution.output)
    if problem.multi_head:
        result["heads"] = [_head_dict(head) for head in solution.heads]
    return result


def through_cli(path: Path) -> dict:
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app

    result = CliRunner().invoke(app, ["solve", str(path), "--format", "json"], prog_name="attn-tutor")
    assert result.exit_code == 0, result.output
    (problem,) = json.loads(result.stdout)["problems"]
    return problem


SOLVERS = {"engine": through_engine, "cli-json": through_cli}


def pick(solved: dict, where: str):
    """'weights', 'heads[1].output' or 'output[:1]' from a solved problem (engine dict or CLI JSON)."""
    take_first_row = where.endswith("[:1]")
    where = where.removesuffix("[:1]")
    node = solved
    for part in where.split("."):
        if part.startswith("heads["):
            node = node["heads"][int(part[6:-1])]
        else:
            node = node[part]
    return node[:1] if take_first_row else node


@pytest.fixture(scope="module", params=sorted(SOLVERS))
def solver(request):
    cache: dict[Path, dict] = {}

    def solve(name: str) -> dict:
        path = FIXTURES / name
        if path not in cache:
            cache[path] = SOLVERS[request.param](path)
        return cache[path]

    return solve


# --------------------------------------------------------------------------- the checks


@pytest.mark.parametrize(
    ("fixture", "where", "printed", "slack"),
    CHECKS,
    ids=[f"{fixture.removesuffix('.yaml')}:{where}:{i}" for i, (fixture, where, _, _) in enumerate(CHECKS)],
)
def test_reproduces_the_published_numbers(solver, fixture, where, printed, slack):
    got = pick(solver(fixture), where)
    want = rows(printed)
    assert len(got) == len(want), (where, got)
    for i, (got_row, want_row) in enumerate(zip(got, want)):
        assert len(got_row) == len(want_row), (where, i, got_row)
        for j, (value, text) in enumerate(zip(got_row, want_row)):
            assert matches(value, text, slack), f"{fixture} {where}[{i}][{j}] = {value!r}, published {text}"


def test_every_fixture_is_checked_and_cites_its_source():
    checked = {fixture for fixture, *_ in CHECKS}
    assert checked == {path.name for path in FIXTURES.glob("*.yaml")}
    for path in FIXTURES.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert "# Source:" in text and "Published" in text and "http" in text, path.name


def test_the_published_examples_cover_projection_unscaled_causal_and_multi_head():
    problems = {path.name: load_path(path).problems[0] for path in FIXTURES.glob("*.yaml")}
    assert any(p.X is not None and p.heads[0].projected for p in problems.values())
    assert any(p.divide_by == 1 for p in problems.values())
    assert any(p.mask == "causal" for p in problems.values())
    assert any(p.multi_head and len(p.heads) > 1 for p in problems.values())
    # the causal fixture divides by the book's √2, not by √d_k of its identity K (√6)
    assert problems["raschka-causal.yaml"].divide_by == pytest.approx(math.sqrt(2), abs=1e-16)


def test_raschka_journey_row_step_by_step():
    """Section 3.3.1 computes the row of "journey" alone before the matrix form."""
    solved = through_engine(FIXTURES / "raschka-simplified-unscaled.yaml")
    journey = 1
    for value, text in zip(solved["scores"][journey], "0.9544 1.4950 1.4754 0.8434 0.7070 1.0865".split()):
        assert matches(value, text)
    assert matches(sum(solved["weights"][journey]), "1.")  # "Sum: tensor(1.)"
