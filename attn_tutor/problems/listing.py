"""What a problem set holds, problem by problem: ``attn-tutor list``.

Pure: reads a :class:`~attn_tutor.core.model.ProblemSet` (no numpy: the sizes come from
the given matrices), returns document blocks or JSON text.
"""

from __future__ import annotations

import json

from attn_tutor.core.i18n import t
from attn_tutor.core.model import Problem, ProblemSet, asked_stages
from attn_tutor.render.blocks import Block, Heading, Paragraph, Table


def d_ks(problem: Problem) -> list[int]:
    """Each head's d_k: the width of its Q, or of its W_Q for a projection."""
    widths = []
    for head in problem.heads:
        Q = head.Q if head.Q is not None else head.W_Q
        assert Q is not None  # a head is given Q or W_Q
        widths.append(len(Q[0]))
    return widths


def problem_row(problem: Problem) -> dict:
    if problem.kind != "attention":
        return {"id": problem.id, "kind": problem.kind, "title": problem.title, "tokens": list(problem.tokens), "stages": asked_stages(problem)}
    sizes = d_ks(problem)
    return {
        "id": problem.id,
        "title": problem.title,
        "tokens": list(problem.tokens),
        "key_tokens": list(problem.key_tokens) if problem.key_tokens is not None else None,
        "d_k": sizes[0] if len(set(sizes)) == 1 else sizes,
        "heads": len(sizes),
        "rows": list(problem.asked_rows),
        "stages": asked_stages(problem),
    }


def stage_label(problem, stage: str) -> str:
    """A stage's name in the language spoken: each kind names its own stages."""
    return t(f"quiz.stage.{stage}") if problem.kind == "attention" else t(f"{problem.kind}.stage.{stage}")


def list_json(problem_set: ProblemSet) -> str:
    data = {
        "problem_set": problem_set.name or problem_set.source,
        "title": problem_set.title,
        "problems": [problem_row(problem) for problem in problem_set.problems],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def list_blocks(problem_set: ProblemSet, file: str | None = None) -> list[Block]:
    """A table of the problems, then the commands that solve or quiz one (``file``: as the user named the set)."""
    header = tuple(t(f"list.col.{name}") for name in ("id", "title", "tokens", "d_k", "rows", "stages"))
    rows = []
    for problem in problem_set.problems:
        if problem.kind != "attention":
            d_k, asked_rows = t(f"list.kind.{problem.kind}"), ""
        else:
            sizes = d_ks(problem)
            d_k = str(sizes[0]) if len(sizes) == 1 else t("list.heads", d_k=" + ".join(map(str, sizes)), count=len(sizes))
            asked_rows = " ".join(problem.asked_rows)
        rows.append(
            (
                problem.id,
                problem.title or "",
                " ".join(problem.tokens),
                d_k,
                asked_rows,
                ", ".join(stage_label(problem, stage) for stage in asked_stages(problem)),
            )
        )
    name = problem_set.name or problem_set.source
    title = problem_set.title or name
    count = len(problem_set.problems)
    blocks: list[Block] = [Heading(title, level=1)]
    blocks.append(Table(header, tuple(rows), title=t("list.count_one" if count == 1 else "list.count", count=count)))
    where = "" if file is None else f" {file}"
    blocks.append(Paragraph(t("list.see", solve=f"attn-tutor solve{where} --problem ID", quiz=f"attn-tutor quiz{where} --problem ID")))
    return blocks
