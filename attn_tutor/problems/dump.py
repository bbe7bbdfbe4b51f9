"""Write a problem set as YAML a teacher can read and edit: pure text, deterministic.

The text is written by hand, not by a YAML library, so that it carries comments
(the token of each matrix row, what each key means) and so that the same problem
set always gives the same bytes. Every string (ids, titles, tokens) is a
double-quoted scalar with JSON-style escapes, so a token such as ``yes``, ``1``,
``- x`` or ``#`` stays a string. Numbers are written so that YAML 1.1 (PyYAML)
reads them back as the same numbers: whole numbers as integers, others by
``repr`` with a decimal point before any exponent (``1.0e-05``).

Keys left at their defaults (``rows``, ``ask``, ``divide_by``, ``mask``; a sampling
problem's ``top_k``/``top_p``, ``draw``, ``target``, ``stages``) are written as comments
showing the default, so loading the text gives back the same problem set and the teacher
still sees what can be changed.
"""

from __future__ import annotations

import math

from attn_tutor.core.i18n import t
from attn_tutor.core.model import Head, Matrix, Problem, ProblemSet
from attn_tutor.kinds.sampling.model import SamplingProblem

_NAMED_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _printable(ch: str) -> bool:
    """Characters YAML reads as themselves inside a double-quoted scalar."""
    if ch == " ":
        return True
    if ch in "\ufeff\u2028\u2029\u0085":
        return False
    return ch.isprintable()


def quote(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON-style escapes for anything unprintable)."""
    out = ['"']
    for ch in text:
        if ch in _NAMED_ESCAPES:
            out.append(_NAMED_ESCAPES[ch])
        elif _printable(ch):
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


def comment_text(text: str) -> str:
    """Text that stays on one comment line: unprintable characters escaped as in :func:`quote`."""
    return quote(text)[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def number(x: float) -> str:
    """A finite number as YAML 1.1 reads it back: ``2``, ``-0.5``, ``1.0e-05``."""
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"cannot write {x} in a problem set")
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = repr(x)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        sign = "" if exponent.startswith(("-", "+")) else "+"
        text = f"{mantissa}e{sign}{exponent}"
    return text


def _flow(values) -> str:
    return "[" + ", ".join(number(v) for v in values) + "]"


def _strings(values) -> str:
    return "[" + ", ".join(quote(v) for v in values) + "]"


def _comment(text: str) -> str:
    return "  # " + comment_text(text) if text else ""


def _matrix(name: str, matrix: Matrix, labels, indent: str, note: str) -> list[str]:
    lines = [f"{indent}{name}:{_comment(note)}"]
    for index, row in enumerate(matrix):
        label = labels[index] if labels is not None and index < len(labels) else ""
        lines.append(f"{indent}  - {_flow(row)}{_comment(label)}")
    return lines


def _head(head: Head, problem: Problem, indent: str) -> list[str]:
    lines: list[str] = []
    row_note = t("generate.comment.matrix")
    if head.Q is not None:
        lines += _matrix("Q", head.Q, problem.tokens, indent, row_note)
    if head.K is not None:
        lines += _matrix("K", head.K, problem.keys, indent, "")
    if head.V is not None:
        lines += _matrix("V", head.V, problem.keys, indent, "")
    w_note = t("generate.comment.weights")
    for name in ("W_Q", "W_K", "W_V"):
        W = getattr(head, name)
        if W is not None:
            lines += _matrix(name, W, None, indent, w_note if name == "W_Q" else "")
    return lines


def dump_sampling(problem: SamplingProblem) -> list[str]:
    """A ``kind: sampling`` problem as lines of YAML, starting with ``  - id: ...``: every key it may
    have, a key left at its default written as a comment that says the default."""
    ind = "    "
    lines = [f"  - id: {quote(problem.id)}", f"{ind}kind: sampling{_comment(t('generate.comment.sampling.kind'))}"]
    if problem.title is not None:
        lines.append(f"{ind}title: {quote(problem.title)}")
    lines.append(f"{ind}tokens: {_strings(problem.tokens)}{_comment(t('generate.comment.sampling.tokens'))}")
    if problem.continuation:
        lines.append(f"{ind}steps:{_comment(t('generate.comment.sampling.steps'))}")
        lines += [f"{ind}  - {{logits: {_flow(step.logits)}, target: {quote(step.target or '')}}}" for step in problem.steps]
    else:
        lines.append(f"{ind}logits: {_flow(problem.logits)}{_comment(t('generate.comment.sampling.logits'))}")
    lines.append(f"{ind}temperature: {number(problem.temperature)}{_comment(t('generate.comment.sampling.temperature'))}")
    if not problem.continuation:
        cut = ("top_k", str(problem.top_k)) if problem.top_k is not None else ("top_p", number(problem.top_p)) if problem.top_p is not None else None
        draw = None if problem.draw is None else ("draw", number(problem.draw))
        target = None if problem.target is None else ("target", quote(problem.target))
        for given, default in ((cut, "cut_default"), (draw, "draw_default"), (target, "target_default")):
            if given is None:  # left at its default: said in a comment
                lines.append(f"{ind}# {comment_text(t(f'generate.comment.sampling.{default}'))}")
            else:
                lines.append(f"{ind}{given[0]}: {given[1]}{_comment(t(f'generate.comment.sampling.{given[0]}'))}")
    if problem.ask is not None:
        lines.append(f"{ind}stages: {_strings(problem.asked_stages)}{_comment(t('generate.comment.sampling.stages'))}")
    else:
        default = "generate.comment.sampling.steps_stages_default" if problem.continuation else "generate.comment.sampling.stages_default"
        lines.append(f"{ind}# {comment_text(t(default))}")
    lines.append(f"{ind}decimals: {problem.decimals}{_comment(t('generate.comment.decimals'))}")
    if problem.tolerance is None:
        lines.append(f"{ind}# {comment_text(t('generate.comment.tolerance_default'))}")
    else:
        lines.append(f"{ind}tolerance: {number(problem.tolerance)}{_comment(t('generate.comment.tolerance'))}")
    return lines


def dump_problem(problem: Problem | SamplingProblem) -> list[str]:
    """One problem as lines of YAML, starting with ``  - id: ...`` (a sampling problem: :func:`dump_sampling`)."""
    if isinstance(problem, SamplingProblem):
        return dump_sampling(problem)
    lines = [f"  - id: {quote(problem.id)}"]
    ind = "    "
    if problem.title is not None:
        lines.append(f"{ind}title: {quote(problem.title)}")
    lines.append(f"{ind}tokens: {_strings(problem.tokens)}{_comment(t('generate.comment.tokens'))}")
    if problem.key_tokens is not None:
        lines.append(f"{ind}key_tokens: {_strings(problem.key_tokens)}{_comment(t('generate.comment.key_tokens'))}")
    if problem.X is not None:
        lines += _matrix("X", problem.X, problem.tokens, ind, t("generate.comment.matrix"))
    if problem.multi_head:
        lines.append(f"{ind}heads:")
        for head in problem.heads:
            head_lines = _head(head, problem, ind + "    ")
            head_lines[0] = ind + "  - " + head_lines[0][len(ind) + 4 :]
            lines += head_lines
    else:
        lines += _head(problem.heads[0], problem, ind)
    if problem.divide_by is None:
        lines.append(f"{ind}# divide_by: sqrt_d  # {comment_text(t('generate.comment.divide_by'))}")
    else:
        lines.append(f"{ind}divide_by: {number(problem.divide_by)}{_comment(t('generate.comment.divide_by'))}")
    if problem.mask == "none":
        lines.append(f"{ind}# mask: none  # {comment_text(t('generate.comment.mask'))}")
    elif problem.mask == "causal":
        lines.append(f"{ind}mask: causal{_comment(t('generate.comment.mask'))}")
    else:
        # the type: ignore below: a matrix here: the mask's two strings are handled above
        lines += _matrix("mask", problem.mask, problem.tokens, ind, t("generate.comment.mask"))  # type: ignore[arg-type]
    if problem.rows is None:
        lines.append(f"{ind}# {comment_text(t('generate.comment.rows_default'))}")
    else:
        lines.append(f"{ind}rows: {_strings(problem.rows)}{_comment(t('generate.comment.rows'))}")
    if problem.ask is None:
        lines.append(f"{ind}# {comment_text(t('generate.comment.ask_default'))}")
    else:
        lines.append(f"{ind}ask: {_strings(problem.ask)}{_comment(t('generate.comment.ask'))}")
    lines.append(f"{ind}decimals: {problem.decimals}{_comment(t('generate.comment.decimals'))}")
    if problem.tolerance is None:
        lines.append(f"{ind}# {comment_text(t('generate.comment.tolerance_default'))}")
    else:
        lines.append(f"{ind}tolerance: {number(problem.tolerance)}{_comment(t('generate.comment.tolerance'))}")
    return lines


def dump_problem_set(problem_set: ProblemSet, *, header_comment: str = "") -> str:
    """The whole set as YAML text: the header comment (each line prefixed ``# ``),
    the title, then every problem separated by a blank line."""
    lines = [f"# {comment_text(line)}".rstrip() for line in header_comment.splitlines()]
    if lines:
        lines.append("")
    if problem_set.title is not None:
        lines.append(f"title: {quote(problem_set.title)}")
    lines.append("problems:")
    for index, problem in enumerate(problem_set.problems):
        if index:
            lines.append("")
        lines += dump_problem(problem)
    return "\n".join(lines) + "\n"
