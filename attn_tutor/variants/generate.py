"""Seeded, hand-computable problems: the same seed gives the same numbers everywhere.

* :func:`random_problem` makes a fresh practice problem (``quiz --random``,
  ``generate``): small integers -3…3 in Q, K and V, tokens drawn without
  repetition from a fixed list of Korean words (kept in sentence order), id
  ``random-{seed}``.
* :func:`variant` gives a problem new numbers and keeps everything else: id,
  title, tokens, key tokens, every shape (d_k, d_v, d_in, the number of heads),
  rows, ask, mask, divide_by, decimals, tolerance — and the problem's character:
  each matrix's entries are drawn from that matrix's own range and granularity
  (:func:`grids`: integers 0…2 stay integers 0…2, one-decimal entries stay
  one-decimal; a matrix of one repeated number takes the range of its kind), and
  a draw is kept only when :func:`attn_tutor.variants.fairness.is_fair` holds (scaled
  scores and e^x in the source's band, no asked cell on a rounding tie, no
  weights row rounding to one-hot or uniform and no output row free of the
  weights unless the source's is, every mistake the source shows still
  visible, every computed concept item about it with one clear answer). Without a fair draw in
  :data:`VARIANT_ATTEMPTS`, an :class:`~attn_tutor.core.errors.AttnTutorError` says so.
* :func:`variant_set` varies every problem of a set (per-student worksheets; the
  grader regenerates them from the printed seed).
* A ``kind: sampling`` problem is handed to its kind's generator
  (:mod:`attn_tutor.kinds.sampling.generate`: its own rule of fairness, the same stream):
  :func:`variant` of one, and :func:`practice_problems` with ``kind="sampling"``. Attention's
  draws are untouched by it.

Determinism. Integers come from our own generator (:class:`attn_tutor.variants.stream.Stream`): BLAKE2b (``hashlib``, the
same on every platform) over a key made from the seed and a label, read as
64-bit words, with rejection sampling for unbiased ranges. No numpy, no
``random``: a numpy or Python upgrade cannot change a problem. A problem's
stream is derived from ``(seed, problem.id)`` only — not from its position in
the set — so adding, removing or reordering problems never changes the others'
variants, and ``variant_set(s, seed).problems[i] == variant(s.problems[i], seed, s.concepts)``
(a problem no computed item is about draws the same variant with or without ``s.concepts``).

Guards, checked in exact integer arithmetic (in units of each matrix's grid): no
all-zero row in Q, K or V (the projected ones for projection problems); in every
head, no query row whose unmasked scores are all equal unless it has only one
unmasked key (the first row of a causal mask); a variant's numbers differ from
the original's. A draw that fails is drawn again from the next attempt's stream.
For :func:`random_problem` the -3…3 bound on projected Q, K, V is dropped for the
second half of the attempts, and after :data:`MAX_ATTEMPTS` (never reached in
practice: see the tests) a fixed construction that provably passes the first two
guards for every shape and mask is used instead (Q_i, K_j, V_j = c·e₁ with
distinct non-zero c, so row i's scores c_i·c_j are distinct). The fairness checks
use numpy's float arithmetic on the drawn numbers; their thresholds are far from
the last bits of a float, so the same seed gives the same variant everywhere.
"""

from __future__ import annotations

import secrets
from typing import Literal, NamedTuple, overload

from attn_tutor.core.errors import AttnTutorError, UsageError
from attn_tutor.core.model import DIM_MAX, SHEET_SEED_MAX, TOKENS_MAX, VARIANTS_MAX, Concept, Head, Matrix, Problem, ProblemSet
from attn_tutor.kinds.sampling import generate as sampling
from attn_tutor.kinds.sampling.model import SamplingProblem
from attn_tutor.variants import fairness
from attn_tutor.variants.stream import IntMatrix, Stream, check_seed

__all__ = [
    "random_problem", "practice_problems", "new_seed", "variant", "variant_set", "WORDS",
]  # fmt: skip

WORDS: tuple[str, ...] = (
    "나는", "어제", "오늘", "학교에서", "공원에서", "친구를", "고양이가", "강아지가",
    "생선을", "사과를", "책을", "함께", "천천히", "만났다", "먹었다", "읽었다",
)  # fmt: skip
"""Token names for random problems, in an order that reads like a sentence."""

assert len(WORDS) >= TOKENS_MAX  # random_problem names up to len(WORDS) tokens; the command line asks for at most TOKENS_MAX
MAX_ATTEMPTS = 200
VARIANT_ATTEMPTS = 2000  # draws for a fair variant; most unfair draws fail the cheap band check

VALUES = (-3, 3)  # Q, K, V of a plain problem; also the bound on projected Q, K, V
EMBEDDINGS = (-2, 2)  # X of a projection problem with d_in <= 2 (-1…1 for wider X)
WEIGHTS = (-1, 1)  # W_Q, W_K, W_V of a projection problem


# --- checks --------------------------------------------------------------------------


def _shape(matrix: Matrix | None) -> tuple[int, int] | None:
    if matrix is None:
        return None
    return _size(matrix)


def _size(matrix: Matrix) -> tuple[int, int]:
    return len(matrix), len(matrix[0]) if matrix else 0


def _matmul(a: IntMatrix, b: IntMatrix) -> IntMatrix:
    return tuple(tuple(sum(x * b[k][j] for k, x in enumerate(row)) for j in range(len(b[0]))) for row in a)


def _dot(u: tuple[int, ...], v: tuple[int, ...]) -> int:
    return sum(x * y for x, y in zip(u, v))


def _qkv(X: IntMatrix | None, head: dict[str, IntMatrix | None]) -> tuple[IntMatrix, IntMatrix, IntMatrix | None]:
    W_Q, W_K, W_V = head.get("W_Q"), head.get("W_K"), head.get("W_V")
    if W_Q is not None:
        assert X is not None and W_K is not None
        V = _matmul(X, W_V) if W_V is not None else None
        return _matmul(X, W_Q), _matmul(X, W_K), V
    Q, K = head["Q"], head["K"]
    assert Q is not None and K is not None  # a head without W_Q is given Q and K
    return Q, K, head.get("V")


def guards_hold(problem: Problem) -> bool:
    """Whether a problem with integer entries passes the generator's guards (no all-zero
    rows in Q, K, V; no query row with two or more unmasked keys whose scores are all equal)."""
    X = _as_int(problem.X)
    heads = [{name: _as_int(getattr(h, name)) for name in ("Q", "K", "V", "W_Q", "W_K", "W_V")} for h in problem.heads]
    return _passes(problem, X, heads, bound=None)


def _as_int(matrix: Matrix | None) -> IntMatrix | None:
    if matrix is None:
        return None
    return tuple(tuple(int(v) for v in row) for row in matrix)


def _passes(problem: Problem, X: IntMatrix | None, heads: list[dict], bound: int | None) -> bool:
    mask = problem.mask_matrix()
    for head in heads:
        Q, K, V = _qkv(X, head)
        for matrix in (Q, K, V):
            if matrix is None:
                continue
            if any(not any(row) for row in matrix):
                return False
            if bound is not None and any(abs(v) > bound for row in matrix for v in row):
                return False
        for i, q in enumerate(Q):
            seen = {_dot(q, K[j]) for j in range(len(K)) if mask[i][j]}
            unmasked = sum(1 for j in range(len(K)) if mask[i][j])
            if unmasked >= 2 and len(seen) < 2:
                return False
    return True


# --- drawing -------------------------------------------------------------------------


def _as_float(matrix: IntMatrix | None) -> Matrix | None:
    if matrix is None:
        return None
    return tuple(tuple(float(v) for v in row) for row in matrix)


def _build(problem: Problem, X: IntMatrix | None, heads: list[dict]) -> Problem:
    new_heads = tuple(Head(**{name: _as_float(m) for name, m in head.items()}) for head in heads)
    return problem._replace(X=_as_float(X), heads=new_heads)


def _draw(problem: Problem, stream: Stream) -> tuple[IntMatrix | None, list[dict]]:
    X = None
    if problem.X is not None:
        rows, d_in = _size(problem.X)
        X = stream.matrix(rows, d_in, _embedding_range(d_in), nonzero_rows=True)
    heads = []
    for head in problem.heads:
        drawn: dict[str, IntMatrix | None] = {}
        if head.projected:
            for name in ("W_Q", "W_K", "W_V"):
                shape = _shape(getattr(head, name))
                drawn[name] = stream.matrix(*shape, WEIGHTS) if shape else None
        else:
            for name in ("Q", "K", "V"):
                shape = _shape(getattr(head, name))
                drawn[name] = stream.matrix(*shape, VALUES, nonzero_rows=True) if shape else None
        heads.append(drawn)
    return X, heads


def _embedding_range(d_in: int) -> tuple[int, int]:
    """X in -2…2 when Q = X·W sums at most two products, else -1…1, so Q, K, V stay within -3…3."""
    return EMBEDDINGS if d_in <= 2 else WEIGHTS


def _distinct_nonzero(count: int) -> list[int]:
    """1, -1, 2, -2, 3, -3, ...: ``count`` distinct non-zero integers, smallest first."""
    return [(k // 2 + 1) * (1 if k % 2 == 0 else -1) for k in range(count)]


def _safe(problem: Problem) -> tuple[IntMatrix | None, list[dict]]:
    """The fallback: row i of Q (of X) is c_i·e₁ and row j of K, V is c_j·e₁ with distinct non-zero
    c, so the scores of row i, c_i·c_j, are distinct across j — for every shape and mask."""

    def spread(rows: int, cols: int) -> IntMatrix:
        c = _distinct_nonzero(rows)
        return tuple(tuple(c[r] if k == 0 else 0 for k in range(cols)) for r in range(rows))

    def first_row(rows: int, cols: int) -> IntMatrix:
        return tuple(tuple(1 if r == 0 and k == 0 else 0 for k in range(cols)) for r in range(rows))

    X = spread(*_size(problem.X)) if problem.X is not None else None
    heads = []
    for head in problem.heads:
        drawn: dict[str, IntMatrix | None] = {}
        names = ("W_Q", "W_K", "W_V") if head.projected else ("Q", "K", "V")
        make = first_row if head.projected else spread
        for name in names:
            shape = _shape(getattr(head, name))
            drawn[name] = make(*shape) if shape else None
        heads.append(drawn)
    return X, heads


def _numbers(problem: Problem) -> tuple:
    return (problem.X, tuple((h.Q, h.K, h.V, h.W_Q, h.W_K, h.W_V) for h in problem.heads))


def _fill(problem: Problem, *parts: object) -> Problem:
    """New integers for every matrix of ``problem`` (shapes kept) that pass the guards."""
    bound = VALUES[1] if any(h.projected for h in problem.heads) else None
    original = _numbers(problem)
    for attempt in range(MAX_ATTEMPTS):
        X, heads = _draw(problem, Stream(*parts, attempt))
        if _passes(problem, X, heads, bound if attempt < MAX_ATTEMPTS // 2 else None):
            candidate = _build(problem, X, heads)
            if _numbers(candidate) != original:
                return candidate
    return _build(problem, *_safe(problem))


# --- the public API ------------------------------------------------------------------


def random_problem(
    seed: int,
    *,
    tokens: int = 3,
    dim: int = 2,
    causal: bool = False,
    with_values: bool = True,
    problem_id: str | None = None,
) -> Problem:
    """A fresh problem: ``tokens`` Korean words, Q, K (and V) of width ``dim`` in -3…3."""
    check_seed(seed)
    if isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= len(WORDS):
        raise UsageError("generate.bad_tokens", tokens=tokens, most=len(WORDS))
    if isinstance(dim, bool) or not isinstance(dim, int) or not 1 <= dim <= DIM_MAX:
        raise UsageError("generate.bad_dim", dim=dim, most=DIM_MAX)
    names = tuple(WORDS[i] for i in sorted(Stream("random-tokens", seed, tokens).sample(len(WORDS), tokens)))
    zeros = tuple((0.0,) * dim for _ in range(tokens))
    skeleton = Problem(
        id=problem_id if problem_id is not None else f"random-{seed}",
        tokens=names,
        heads=(Head(Q=zeros, K=zeros, V=zeros if with_values else None),),
        mask="causal" if causal else "none",
    )
    return _fill(skeleton, "random", seed, tokens, dim, bool(causal), bool(with_values))


@overload
def practice_problems(
    seed: int, *, tokens: int = 3, dim: int = 2, causal: bool = False, count: int = 1, kind: Literal["attention"] = "attention"
) -> tuple[Problem, ...]: ...
@overload
def practice_problems(seed: int, *, tokens: int | None = None, count: int = 1, kind: Literal["sampling"]) -> tuple[SamplingProblem, ...]: ...
def practice_problems(
    seed: int, *, tokens: int | None = None, dim: int = 2, causal: bool = False, count: int = 1, kind: str = "attention"
) -> tuple[Problem, ...] | tuple[SamplingProblem, ...]:
    """The practice problems of a seed and size options: ``solve --random``, ``quiz --random``
    and ``generate`` all make theirs here, so one seed gives one problem in every command.

    Problem ``k`` (1-based) is :func:`random_problem` of the variant seed ``seed * 1000 + k``
    (:func:`variant_seed`), so its id is ``random-{seed}00k``. ``kind="sampling"`` makes sampling
    problems of ``tokens`` candidates (None: 3 to 6, drawn):
    :func:`attn_tutor.kinds.sampling.generate.random_problem` of the same seeds.
    """

    if kind == "sampling":
        return tuple(sampling.random_problem(variant_seed(seed, k), tokens=tokens) for k in range(1, count + 1))
    size = tokens if tokens is not None else 3
    return tuple(random_problem(variant_seed(seed, k), tokens=size, dim=dim, causal=causal) for k in range(1, count + 1))


def new_seed() -> int:
    """A fresh seed when none is given: short enough to read out and type again."""

    return secrets.randbelow(1_000_000)


# --- fair variants -------------------------------------------------------------------

MAX_PLACES = 3  # the finest granularity a variant keeps (entries like 0.125)


class Grid(NamedTuple):
    """Where a matrix's entries come from: ``low..high`` in units of ``10^-places``."""

    low: int
    high: int
    places: int


def _places(values: list[float]) -> int:
    for places in range(MAX_PLACES + 1):
        if all(abs(v * 10**places - round(v * 10**places)) < 1e-9 for v in values):
            return places
    return MAX_PLACES


def _grid_of(values: list[float], places: int) -> Grid:
    return Grid(round(min(values) * 10**places), round(max(values) * 10**places), places)


def grids(problem: Problem) -> dict[tuple[int | None, str], Grid]:
    """Each given matrix's grid: its own range and granularity (``(head, name)``; ``(None, "X")`` for X).

    A matrix whose entries are all one number takes the range of every matrix of its
    kind (Q, K and V; or the W's) in the problem, and if that is one number too, one
    unit either side of it.
    """
    named: dict[tuple[int | None, str], list[float]] = {}
    if problem.X is not None:
        named[(None, "X")] = [v for row in problem.X for v in row]
    for h, head in enumerate(problem.heads):
        for name in ("Q", "K", "V", "W_Q", "W_K", "W_V"):
            matrix = getattr(head, name)
            if matrix is not None:
                named[(h, name)] = [v for row in matrix for v in row]
    result = {}
    for key, values in named.items():
        family = [v for (h, name), vs in named.items() if name.startswith("W") == key[1].startswith("W") for v in vs]
        places = _places(values)
        grid = _grid_of(values, places)
        if grid.low == grid.high:
            places = max(places, _places(family))
            grid = _grid_of(family, places)
        if grid.low == grid.high:
            grid = Grid(grid.low - 1, grid.high + 1, places)
        result[key] = grid
    return result


def _draw_like(problem: Problem, stream: Stream, where: dict) -> tuple[IntMatrix | None, list[dict]]:
    """Entries in units of each matrix's grid (no all-zero row in X, Q, K, V)."""
    X = None
    if problem.X is not None:
        grid = where[(None, "X")]
        X = stream.matrix(*_size(problem.X), (grid.low, grid.high), nonzero_rows=True)
    heads = []
    for h, head in enumerate(problem.heads):
        drawn: dict[str, IntMatrix | None] = {}
        for name in ("W_Q", "W_K", "W_V") if head.projected else ("Q", "K", "V"):
            shape = _shape(getattr(head, name))
            if shape is None:
                drawn[name] = None
                continue
            grid = where[(h, name)]
            drawn[name] = stream.matrix(*shape, (grid.low, grid.high), nonzero_rows=not head.projected)
        heads.append(drawn)
    return X, heads


def _units_to_float(matrix: IntMatrix | None, places: int) -> Matrix | None:
    if matrix is None:
        return None
    return tuple(tuple(v / 10**places for v in row) for row in matrix)


def _build_like(problem: Problem, X: IntMatrix | None, heads: list[dict], where: dict) -> Problem:
    new_heads = tuple(
        Head(**{name: _units_to_float(m, where[(h, name)].places) if m is not None else None for name, m in head.items()})
        for h, head in enumerate(heads)
    )
    new_X = _units_to_float(X, where[(None, "X")].places) if X is not None else None
    return problem._replace(X=new_X, heads=new_heads)


@overload
def variant(problem: Problem, seed: int, concepts: tuple[Concept, ...] = ()) -> Problem: ...
@overload
def variant(problem: SamplingProblem, seed: int, concepts: tuple[Concept, ...] = ()) -> SamplingProblem: ...
def variant(problem: Problem | SamplingProblem, seed: int, concepts: tuple[Concept, ...] = ()) -> Problem | SamplingProblem:
    """``problem`` with new numbers drawn from ``(seed, problem.id)`` that keep its character; nothing else changes.

    A sampling problem's variant is :func:`attn_tutor.kinds.sampling.generate.variant` (its own
    rule of fairness; concept items are not drawn against it).

    Entries come from each matrix's own range and granularity (:func:`grids`); a draw
    is kept when it passes the guards and :func:`attn_tutor.variants.fairness.is_fair`, and every
    computed item of ``concepts`` about the problem has one clear answer in its numbers
    (:func:`attn_tutor.variants.fairness.unclear_item`). After :data:`VARIANT_ATTEMPTS` draws
    without one, an :class:`AttnTutorError` says so (naming the concept item when the draws that
    were fair otherwise all left it without one clear answer).
    """
    if isinstance(problem, SamplingProblem):
        return sampling.variant(problem, seed)
    check_seed(seed)

    where = grids(problem)
    original = _numbers(problem)
    facts = fairness.source_facts(problem)
    unclear, item = 0, None  # draws fair but for a concept item, and the last such item
    for attempt in range(VARIANT_ATTEMPTS):
        X, heads = _draw_like(problem, Stream("variant", seed, problem.id, attempt), where)
        if not _passes(problem, X, heads, bound=None):
            continue
        candidate = _build_like(problem, X, heads, where)
        if _numbers(candidate) != original and fairness.is_fair(candidate, facts):
            item = fairness.unclear_item(candidate, concepts)
            if item is None:
                return candidate
            unclear += 1
    if item is not None:
        raise AttnTutorError("generate.no_clear_concept", id=problem.id, seed=seed, attempts=VARIANT_ATTEMPTS, item=item.id, unclear=unclear)
    raise AttnTutorError("generate.no_fair_variant", id=problem.id, seed=seed, attempts=VARIANT_ATTEMPTS)


def variant_seed(seed: int, k: int) -> int:
    """The seed of sheet ``k`` (1-based) of a batch made with ``seed``: ``seed * 1000 + k``."""
    if not 0 <= seed <= SHEET_SEED_MAX:
        raise ValueError(f"seed {seed} out of range 0..{SHEET_SEED_MAX}")
    if not 1 <= k <= VARIANTS_MAX:
        raise ValueError(f"variant {k} out of range 1..{VARIANTS_MAX}")
    return seed * 1000 + k


def variant_set(problem_set: ProblemSet, seed: int) -> ProblemSet:
    """Every problem varied with :func:`variant`; the set's title, source and name are kept.

    This is how a printed variant number is turned back into its problems, by
    ``grade`` and by ``solve --variant`` alike (:func:`regenerate`).
    """
    check_seed(seed)
    return problem_set._replace(problems=tuple(variant(p, seed, problem_set.concepts) for p in problem_set.problems))


def regenerate(problem_set: ProblemSet, number: int | None) -> ProblemSet:
    """The set a sheet with variant ``number`` was printed from (None: the set as written)."""
    return problem_set if number is None else variant_set(problem_set, number)
