"""The problem model: immutable records, no numpy, no YAML.

A :class:`ProblemSet` is what a teacher's YAML file describes once it has been
checked by :mod:`attn_tutor.problems.load`. Matrices are tuples of row tuples of
floats, so a problem is hashable and cannot be changed by accident.

The records are NamedTuples, not frozen dataclasses: every command builds these
classes at start-up, and a NamedTuple class costs a sixth as much (2 ms of
`solve`'s budget). Change one with ``problem._replace(field=value)``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

Matrix = tuple[tuple[float, ...], ...]


# --- the vocabulary: written out once, used by the CLI, grading, quiz, worksheets, generator ---


class Stage(StrEnum):
    """The four stages a student computes, in pipeline order (each equal to its name)."""

    scores = "scores"
    scaled = "scaled"
    weights = "weights"
    output = "output"

    @property
    def letter(self) -> str:
        """The stage's letter in a problem's summary: (a) scores ... (d) output."""
        return "abcd"[STAGES.index(self)]


STAGES: tuple[Stage, ...] = tuple(Stage)

STAGE_ALIASES = {"softmax": Stage.weights}
"""Other names a teacher or student may give a stage: the softmax's result is the weights."""


def stage_name(word: str) -> str:
    """The stage ``word`` names (``softmax`` → ``weights``); other words unchanged."""
    return STAGE_ALIASES.get(word, word)


KINDS: tuple[str, ...] = ("attention", "sampling")
"""The kinds of problem a set may hold (``kind:``; attention when a problem says none). Every kind
but attention is a folder of :mod:`attn_tutor.kinds` (docs/architecture.md, "Problem kinds")."""


class Verdict(StrEnum):
    """How one item was marked, in the order reports list them."""

    correct = "correct"
    follow_through = "follow_through"
    partial = "partial"
    wrong = "wrong"
    missing = "missing"


class FollowThrough(StrEnum):
    """How much a cell right from the student's own earlier numbers earns."""

    full = "full"
    half = "half"
    none = "none"

    @property
    def credit(self) -> float:
        return {"full": 1.0, "half": 0.5, "none": 0.0}[self.value]


# Limits, inclusive: a value v is accepted when MIN <= v <= MAX.
SEED_MAX = 2**63 - 1
"""The largest seed (``quiz --random --seed``, a problem's variant number, an answer file's ``variant``)."""
VARIANTS_MAX = 999
"""The most variants of one batch (``export --variants``) and problems of one ``generate --count``."""
SHEET_SEED_MAX = SEED_MAX // (VARIANTS_MAX + 1) - 1
"""The largest batch seed (``export --seed``, ``generate --seed``): each sheet's seed ``S * 1000 + k`` stays <= SEED_MAX."""
DECIMALS_MAX = 10
"""The most decimal places a problem (``decimals:``) or ``solve --decimals`` may ask for."""
TOLERANCE_MAX = 1.0
"""The largest ``tolerance:`` a problem may set."""
NUMBER_MAX = 1e15
"""The largest magnitude of any number in a problem-set file: beyond it a number cannot be
worked by hand and stops being an exact integer in a float."""
DIVIDE_BY_MIN, DIVIDE_BY_MAX = 1e-15, 1e15
"""The range of ``divide_by:``: with it, every projected and scaled score stays far below the float64 limit."""

# --- hand-sized problem sets -------------------------------------------------------------
# The sizes every command accepts; the loader, grade and the README use these names. A
# problem beyond them is not a hand calculation, and they keep every command fast (solve,
# quiz and export of the largest set allowed take seconds, not minutes) and every printed
# product exact: entries are decimals of at most ENTRY_DECIMALS_MAX places, so the engine
# works each product and score (and Q = X·W_Q) in integers and gives the float nearest the
# exact value (engine._product); the sizes keep that work small.
TOKENS_MAX = 12  # query tokens, and key tokens, per problem (--tokens of generate and of solve/quiz --random goes as far)
DIM_MAX = 8  # d_k, d_v and d_in (the width of X): numbers per row (--dim goes as far)
HEADS_MAX = 4  # heads per problem
PROBLEMS_MAX = 50  # problems per set (generate's --count goes as far)
SET_CELLS_MAX = 8_000  # score cells in a whole set: heads × query tokens × key tokens, summed over its problems
ENTRY_MAX = 1e6  # |entry| of Q, K, V, X and the W matrices
ENTRY_DECIMALS_MAX = 4  # digits after the decimal point in an entry (0.1234)
TEXT_MAX = 200  # characters in a title, an id or a token
PROBLEM_FILE_BYTES_MAX = 1_000_000  # a problem-set file (the chapter's is 7 kB)
ANSWER_FILE_BYTES_MAX = 1_000_000  # one student's YAML answer file
CSV_BYTES_MAX = 1_000_000_000  # a CSV answer file, read as a stream: 50,000 form rows fit many times over
ROSTER_BYTES_MAX = 20_000_000  # a class list from an LMS (a Canvas export of 10,000 students and 100 assignments is ~10 MB)
MATCH_BYTES_MAX = 1_000_000  # a grade --match file: answer-file student -> roster ID


class Limits(NamedTuple):
    """The sizes a problem set may have (entries stay hand-sized, so products stay exact)."""

    tokens: int = TOKENS_MAX
    dim: int = DIM_MAX
    heads: int = HEADS_MAX
    problems: int = PROBLEMS_MAX
    cells: int = SET_CELLS_MAX
    file_bytes: int = PROBLEM_FILE_BYTES_MAX


HAND_SIZED = Limits()
# `solve --format json --large`: a teacher's demonstration, worked by the machine and streamed.
LARGE = Limits(tokens=512, dim=512, heads=16, problems=PROBLEMS_MAX, cells=4_000_000, file_bytes=50_000_000)


class Head(NamedTuple):
    """One attention head: either Q, K (and V) given, or W_Q, W_K (and W_V) to project X."""

    Q: Matrix | None = None
    K: Matrix | None = None
    V: Matrix | None = None
    W_Q: Matrix | None = None
    W_K: Matrix | None = None
    W_V: Matrix | None = None

    @property
    def projected(self) -> bool:
        return self.W_Q is not None

    @property
    def has_values(self) -> bool:
        return self.V is not None or self.W_V is not None


class Problem(NamedTuple):
    """One attention problem, checked and complete (defaults filled in)."""

    id: str
    tokens: tuple[str, ...]
    heads: tuple[Head, ...]
    title: str | None = None
    key_tokens: tuple[str, ...] | None = None  # None: the same as tokens
    X: Matrix | None = None
    multi_head: bool = False  # written with `heads:` (even if only one)
    divide_by: float | None = None  # None: sqrt(d_k)
    mask: str | Matrix = "none"  # "none", "causal" or a 0/1 matrix (1 = may attend)
    rows: tuple[str, ...] | None = None  # None: every query token
    ask: tuple[str, ...] | None = None  # None: every stage that exists
    decimals: int = 3
    tolerance: float | None = None  # None: the default that fits decimals (attn_tutor.marking.tolerance)
    line: int | None = None  # where the problem starts in its file

    @property
    def kind(self) -> str:
        return "attention"

    @property
    def keys(self) -> tuple[str, ...]:
        """The tokens the rows of K and V belong to."""
        return self.key_tokens if self.key_tokens is not None else self.tokens

    @property
    def has_values(self) -> bool:
        return all(head.has_values for head in self.heads)

    @property
    def stages(self) -> tuple[str, ...]:
        """The stages this problem has: a problem without V stops at the weights."""
        return STAGES if self.has_values else STAGES[:3]

    @property
    def asked_stages(self) -> tuple[str, ...]:
        return self.ask if self.ask is not None else self.stages

    @property
    def asked_rows(self) -> tuple[str, ...]:
        return self.rows if self.rows is not None else self.tokens

    def row_index(self, token: str) -> int:
        return self.tokens.index(token)

    def mask_matrix(self) -> tuple[tuple[bool, ...], ...]:
        """Which (query, key) pairs may attend, as booleans."""
        n_q, n_k = len(self.tokens), len(self.keys)
        if self.mask == "none":
            return tuple((True,) * n_k for _ in range(n_q))
        if self.mask == "causal":
            return tuple(tuple(j <= i for j in range(n_k)) for i in range(n_q))
        return tuple(tuple(bool(v) for v in row) for row in self.mask)


# --- concept items (issue 21): "why" questions beside the hand calculation ----------------


class ConceptKind(StrEnum):
    """The kinds of concept item: a choice written out, a choice worked out from a problem's
    numbers, and putting steps in order."""

    choice = "choice"
    computed = "computed"
    order = "order"


COMPUTED_ASKS = ("most-attended", "least-attended", "most-uniform-row", "sharpest-row", "unscaled")
"""What a computed choice asks. The first two and ``unscaled`` are about one query row (``row:``);
the other two choose among the problem's rows."""
ROW_ASKS = ("most-attended", "least-attended", "unscaled")
UNSCALED_ANSWERS = ("sharper", "flatter", "unchanged")
"""The options of an ``unscaled`` item, in this order: the weights without the division."""
OPTIONS_MIN, OPTIONS_MAX = 3, 5  # options of a choice item
STEPS_MIN, STEPS_MAX = 3, 6  # steps of an order item
CONCEPTS_MAX = 50  # concept items per set
CONCEPT_TEXT_MAX = 600  # characters in a stem, an option, a feedback sentence or an explanation (Korean and English in one)


class Bilingual(NamedTuple):
    """A concept item's text written in both languages, ``{ko: ..., en: ...}`` in the file: the
    language spoken shows its own (:func:`attn_tutor.solve.concepts.show`)."""

    ko: str
    en: str


SetText = str | Bilingual
"""A concept item's text as written: one string (shown as written) or a :class:`Bilingual`."""

CONCEPT_SLOTS: dict[str, tuple[str, ...]] = {
    "most-attended": ("row", "answer", "answer_weight", "runner_up", "runner_up_weight", "top", "top_weight"),
    "least-attended": ("row", "answer", "answer_weight", "runner_up", "runner_up_weight", "top", "top_weight"),
    "most-uniform-row": ("answer", "answer_weight", "runner_up", "runner_up_weight"),
    "sharpest-row": ("answer", "answer_weight", "runner_up", "runner_up_weight"),
    "unscaled": ("row", "answer", "top", "top_weight", "unscaled_weight"),
}
"""The slots a computed item's texts may hold, by its ``ask``, filled from each variant's own
numbers (docs/reference.md, "Slots"): ``{row}`` the item's query token, ``{answer}`` the right
option, ``{runner_up}`` the next best, ``{top}`` the key ``row`` attends to most, and each one's
``_weight``; ``{unscaled_weight}`` the largest weight of ``row`` without ÷√d."""


class ConceptOption(NamedTuple):
    """One option of a choice item as written: its text, whether it is right, and for a wrong
    one the misconception it reveals."""

    text: SetText
    right: bool = False
    feedback: SetText | None = None


class Concept(NamedTuple):
    """One concept item, checked (see :mod:`attn_tutor.problems.load`); shown by
    :func:`attn_tutor.solve.concepts.show`."""

    id: str
    kind: str  # a ConceptKind
    stem: SetText
    options: tuple[ConceptOption, ...] = ()  # choice only
    several: bool = False  # choice: several options are right (the sheet says so)
    explanation: SetText | None = None
    problem: str | None = None  # computed: the problem's id
    row: str | None = None  # computed: a query token of that problem (for ROW_ASKS)
    ask: str | None = None  # computed: one of COMPUTED_ASKS
    steps: tuple[SetText, ...] = ()  # order: the steps in the right order
    line: int | None = None  # where the item starts in its file


class ProblemSet(NamedTuple):
    problems: tuple[Problem, ...]
    title: str | None = None
    source: str = "<memory>"  # the file's path or the packaged set's name
    name: str | None = None  # a packaged set's name ("ch13"), else None
    concepts: tuple[Concept, ...] = ()  # the concept items beside the problems

    def concept(self, concept_id: str) -> Concept:
        for concept in self.concepts:
            if concept.id == concept_id:
                return concept
        raise KeyError(concept_id)

    def get(self, problem_id: str) -> Problem:
        for problem in self.problems:
            if problem.id == problem_id:
                return problem
        raise KeyError(problem_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.problems)


def asked_stages(problem: Problem) -> list[str]:
    """The asked stages in pipeline order, whatever order the file lists them in."""
    if problem.kind != "attention":
        return list(problem.asked_stages)  # a kind's own record keeps them in its order
    return [stage for stage in STAGES if stage in problem.asked_stages and stage in problem.stages]


def asked_row_indices(problem: Problem) -> list[int]:
    return [problem.row_index(token) for token in problem.asked_rows]
