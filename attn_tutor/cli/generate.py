"""The generate command: a new problem-set YAML of random, hand-computable problems."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Optional

import typer

from attn_tutor.cli.help import LangOption
from attn_tutor.cli.options import guarded
from attn_tutor.cli.output import ForceOption, OutputOption, check_output, write_output
from attn_tutor.core.errors import UsageError
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


class Kind(StrEnum):
    attention = "attention"
    sampling = "sampling"


@guarded
def generate(
    tokens: Annotated[Optional[int], typer.Option("--tokens", min=1, max=TOKENS_MAX, help="help.generate.tokens")] = None,
    dim: Annotated[Optional[int], typer.Option("--dim", min=1, max=DIM_MAX, help="help.generate.dim")] = None,
    count: Annotated[int, typer.Option("--count", min=1, max=PROBLEMS_MAX, help="help.generate.count")] = 1,
    seed: Annotated[Optional[int], typer.Option("--seed", min=0, max=SHEET_SEED_MAX, help="help.generate.seed")] = None,
    causal: Annotated[bool, typer.Option("--causal", help="help.generate.causal")] = False,
    kind: Annotated[Kind, typer.Option("--kind", help="help.generate.kind")] = Kind.attention,
    output: OutputOption = None,
    force: ForceOption = False,
    lang: LangOption = None,
) -> None:
    """Write a new problem-set YAML of random, hand-computable problems, commented for editing."""
    check_output(output, force)
    if kind == Kind.sampling and (dim is not None or causal):
        raise UsageError("generate.sampling.attention_only")

    if seed is None:
        seed = new_seed()
    language = resolve_lang(lang)
    problems, options, edit = _made(kind, seed, tokens, dim, causal, count)
    options += f" --lang {language}"
    header = "\n".join(
        (
            t("generate.comment.made", options=options),
            edit,
            t("generate.comment.check"),
        )
    )
    problem_set = ProblemSet(problems, title=t("generate.title", seed=seed))
    write_output(output, dump_problem_set(problem_set, header_comment=header), force)


def _made(kind: Kind, seed: int, tokens: int | None, dim: int | None, causal: bool, count: int) -> tuple[tuple[Any, ...], str, str]:
    """The problems of one kind (a generated set holds one), the options that make them again, and
    the header's line on what to edit."""
    if kind == Kind.sampling:
        options = "--kind sampling" + (f" --tokens {tokens}" if tokens is not None else "") + f" --count {count} --seed {seed}"
        return practice_problems(seed, tokens=tokens, count=count, kind="sampling"), options, t("generate.comment.sampling.edit")
    tokens, dim = tokens if tokens is not None else 3, dim if dim is not None else 2
    options = f"--tokens {tokens} --dim {dim} --count {count} --seed {seed}" + (" --causal" if causal else "")
    return practice_problems(seed, tokens=tokens, dim=dim, causal=causal, count=count), options, t("generate.comment.edit")
