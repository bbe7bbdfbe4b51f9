"""The generate command: a new problem-set YAML of random, hand-computable problems."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import guarded
from attn_tutor.cli.output import ForceOption, OutputOption, check_output, write_output
from attn_tutor.core.i18n import resolve_lang, t
from attn_tutor.core.model import (
    DIM_MAX,
    PROBLEMS_MAX,
    SHEET_SEED_MAX,
    TOKENS_MAX,
    ProblemSet,
)
from attn_tutor.problems.dump import dump_problem_set
from attn_tutor.variants.generate import new_seed, practice_problems


@guarded
def generate(
    tokens: Annotated[int, typer.Option("--tokens", min=1, max=TOKENS_MAX, help="help.generate.tokens")] = 3,
    dim: Annotated[int, typer.Option("--dim", min=1, max=DIM_MAX, help="help.generate.dim")] = 2,
    count: Annotated[int, typer.Option("--count", min=1, max=PROBLEMS_MAX, help="help.generate.count")] = 1,
    seed: Annotated[Optional[int], typer.Option("--seed", min=0, max=SHEET_SEED_MAX, help="help.generate.seed")] = None,
    causal: Annotated[bool, typer.Option("--causal", help="help.generate.causal")] = False,
    output: OutputOption = None,
    force: ForceOption = False,
    lang: LangOption = None,
) -> None:
    """Write a new problem-set YAML of random, hand-computable problems, commented for editing."""
    check_output(output, force)

    if seed is None:
        seed = new_seed()
    language = resolve_lang(lang)
    problems = practice_problems(seed, tokens=tokens, dim=dim, causal=causal, count=count)
    options = f"--tokens {tokens} --dim {dim} --count {count} --seed {seed}" + (" --causal" if causal else "")
    options += f" --lang {language}"
    header = "\n".join(
        (
            t("generate.comment.made", options=options),
            t("generate.comment.edit"),
            t("generate.comment.check"),
        )
    )
    problem_set = ProblemSet(problems, title=t("generate.title", seed=seed))
    write_output(output, dump_problem_set(problem_set, header_comment=header), force)
