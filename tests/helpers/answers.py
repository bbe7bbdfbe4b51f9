"""Answer files written for a test: every asked row answered from a problem set, or a chosen mistake."""

from __future__ import annotations

import math
from pathlib import Path

from helpers.paths import CLASS

GOOD = (CLASS / "01-correct.yaml").read_text("utf-8")  # names ../set.yaml, all 8 items right


def answer(student: str, problem_set: str) -> str:
    """The class's all-correct answer file, for ``student``, naming ``problem_set``."""
    return GOOD.replace('student: "김민지"', f"student: {student}").replace("problem_set: ../set.yaml", f"problem_set: {problem_set}")


def answer_yaml(student: str, problem_set, variant: int | None = None, problem_set_path: str = "../set.yaml") -> str:
    """A YAML answer file with every asked row answered exactly from ``problem_set``."""
    from attn_tutor.solve import engine

    lines = [f"student: {student}", f"problem_set: {problem_set_path}"]
    if variant is not None:
        lines.append(f"variant: {variant}")
    lines.append("answers:")
    for problem in problem_set.problems:
        solution = engine.solve(problem)
        lines.append(f"  {problem.id}:")
        for token in problem.asked_rows:
            lines.append(f"    {token}:")
            for stage in problem.asked_stages:
                values = solution.stage_row(stage, problem.row_index(token))
                lines.append(f"      {stage}: [{', '.join(repr(float(v)) for v in values)}]")
    return "\n".join(lines) + "\n"


def two_heads_answers(path: Path) -> Path:
    """A student who forgot √d in both heads of ch13's two-head problem, typed the causal problem right."""
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.solve import engine

    lines = ["student: 두헤드", "problem_set: ch13", "answers:"]
    for problem in load_problem_set("ch13").problems:
        if problem.id not in ("practice-two-heads", "practice-causal"):
            continue
        solution = engine.solve(problem)
        lines.append(f"  {problem.id}:")
        for token in problem.asked_rows:
            row = problem.row_index(token)
            lines.append(f"    {token}:")
            for stage in problem.asked_stages:
                source = "scores" if stage == "scaled" and problem.id == "practice-two-heads" else stage
                cells = [0.0 if math.isnan(v) else round(float(v), 3) for v in solution.stage_row(source, row)]
                lines.append(f"      {stage}: {cells}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
