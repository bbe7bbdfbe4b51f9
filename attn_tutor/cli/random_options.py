"""A random practice problem: the same options make the same problem in solve and quiz."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from attn_tutor.core.errors import UsageError
from attn_tutor.core.model import DIM_MAX, SHEET_SEED_MAX, TOKENS_MAX

RandomOption = Annotated[bool, typer.Option("--random", help="help.random")]


TokensOption = Annotated[Optional[int], typer.Option("--tokens", min=1, max=TOKENS_MAX, help="help.random.tokens")]


DimOption = Annotated[Optional[int], typer.Option("--dim", min=1, max=DIM_MAX, help="help.random.dim")]


SeedOption = Annotated[Optional[int], typer.Option("--seed", min=0, max=SHEET_SEED_MAX, help="help.random.seed")]


CausalOption = Annotated[bool, typer.Option("--causal", help="help.random.causal")]


def random_problem(command: str, seed, tokens, dim, causal: bool):
    """The practice problem of these options, and the command that makes it again."""
    from attn_tutor.variants.generate import new_seed, practice_problems  # only --random makes one: solve starts without

    chosen = seed if seed is not None else new_seed()
    n_tokens, d = tokens if tokens is not None else 3, dim if dim is not None else 2
    (made,) = practice_problems(chosen, tokens=n_tokens, dim=d, causal=causal)
    replay = f"attn-tutor {command} --random --tokens {n_tokens} --dim {d} --seed {chosen}" + (" --causal" if causal else "")
    return made, chosen, replay


def check_random(random: bool, file, problem, tokens, dim, seed, causal: bool) -> None:
    if not random and (tokens is not None or dim is not None or seed is not None or causal):
        raise UsageError("quiz.random_only")
    if random and (file is not None or problem is not None):
        raise UsageError("quiz.random_and_file")
