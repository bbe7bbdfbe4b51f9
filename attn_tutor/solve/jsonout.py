"""``solve --format json``: every stage at full precision, in a shape scripts rely on.

    {"problems": [{"id", "tokens", "key_tokens", "d_k", "divide_by", "Q", "K", "V",
                   "scores", "scaled", "weights", "output", ("heads": [...])}]}

Masked cells are ``null`` in ``scores`` and ``scaled`` and 0 in ``weights``; ``V``
and ``output`` are ``null`` when the problem has no values. A multi-head problem
adds ``heads`` (one such object per head, without ``id``/``tokens``) and its
top-level ``output`` is the heads' outputs side by side (its top-level Q, K, V,
scores, scaled and weights are those of the first head).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from attn_tutor.kinds.sampling import layout as sampling
from attn_tutor.solve.engine import HeadResult, Solution


def _matrix(array) -> list | None:
    if array is None:
        return None
    return [[None if math.isnan(v) else float(v) for v in row] for row in array.tolist()]


def head_dict(head: HeadResult) -> dict:
    return {
        "d_k": head.d_k,
        "divide_by": head.divisor,
        "Q": _matrix(head.Q),
        "K": _matrix(head.K),
        "V": _matrix(head.V),
        "scores": _matrix(head.scores),
        "scaled": _matrix(head.scaled),
        "weights": _matrix(head.weights),
        "output": _matrix(head.output),
    }


def solution_dict(solution: Solution) -> dict:
    problem = solution.problem
    if problem.kind == "sampling":
        return sampling.solution_dict(solution)  # type: ignore[arg-type]
    result: dict[str, Any] = {"id": problem.id, "tokens": list(problem.tokens), "key_tokens": list(problem.keys)}
    result.update(head_dict(solution.head))
    result["output"] = _matrix(solution.output)
    if problem.multi_head:
        result["heads"] = [head_dict(h) for h in solution.heads]
    return result


def dumps(solutions: list[Solution]) -> str:
    return "".join(chunks(solutions))


def chunks(solutions, concepts: list[dict] | None = None) -> Iterator[str]:
    """:func:`dumps` piece by piece, one problem at a time (``solutions`` may be a generator), so a
    large demonstration is written as it is solved; the text is the same as one ``json.dumps``."""
    import json  # here, not at the top: the terminal's `solve` starts without it

    yield '{\n  "problems": ['
    first = True
    for solution in solutions:
        text = json.dumps(solution_dict(solution), ensure_ascii=False, indent=2)
        yield ("\n" if first else ",\n") + "\n".join("    " + line for line in text.split("\n"))
        first = False
    if concepts is None:
        yield ("\n  ]\n}\n" if not first else "]\n}\n")
        return
    # the set's concept items (attn_tutor.solve.concepts.concept_dict), after its problems
    text = json.dumps(concepts, ensure_ascii=False, indent=2)
    yield ("\n  ]," if not first else "],") + '\n  "concepts": ' + "\n".join(("  " if i else "") + line for i, line in enumerate(text.split("\n"))) + "\n}\n"
