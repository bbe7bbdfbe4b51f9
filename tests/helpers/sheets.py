"""Worksheets made for a test: a problem set with hostile tokens, written to a file and exported."""

from __future__ import annotations

from pathlib import Path

from attn_tutor.core.model import Head, Problem, ProblemSet
from attn_tutor.problems.dump import dump_problem_set

HOSTILE_HTML = "<script>alert(1)</script>"
HOSTILE_TEX = "a%b&c_d#e$f{g}h~i^j\\k"
HOSTILE_MORE = "<x>|[y]--`'\"!?"
HOSTILE_MD = "a|b"


def hostile_set(*tokens: str) -> ProblemSet:
    tokens = tokens + tuple(f"t{i}" for i in range(3 - len(tokens)))
    problem = Problem(
        id="hostile",
        title="title " + HOSTILE_HTML,
        tokens=tokens[:3],
        heads=(Head(Q=((2, 1), (1, 2), (1, 3)), K=((1, 0), (0, 2), (1, 1)), V=((1, 0), (0, 1), (1, 1))),),
    )
    return ProblemSet((problem,), title="set " + HOSTILE_TEX)


def write_set(tmp_path: Path, problem_set: ProblemSet, name: str = "set.yaml") -> str:
    path = tmp_path / name
    path.write_text(dump_problem_set(problem_set, header_comment="test"), encoding="utf-8")
    return str(path)


def export(run_cli, *args: str) -> str:
    """What ``attn-tutor export ARGS`` printed, after checking it succeeded."""
    result = run_cli("export", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def one_problem_set(tmp_path: Path, tokens=("고양이가", "생선을", "먹었다"), title="한 문제") -> Path:
    """A set of one three-token problem (Korean unless ``tokens`` say otherwise), written to ``one.yaml``."""
    problem = Problem(
        id="one",
        title=title,
        tokens=tuple(tokens),
        heads=(Head(Q=((2.0, 1.0), (1.0, 2.0), (1.0, 3.0)), K=((1.0, 0.0), (0.0, 2.0), (1.0, 1.0)), V=((1.0, 0.0), (0.0, 1.0), (1.0, 1.0))),),
        rows=(tokens[2],),
    )
    path = tmp_path / "one.yaml"
    path.write_text(dump_problem_set(ProblemSet((problem,), title=title)), encoding="utf-8")
    return path


def export_pdf(run_cli, out: Path, *args: str) -> Path:
    """``attn-tutor export ARGS -o OUT``, checked to have written a PDF."""
    result = run_cli("export", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF-")
    return out
