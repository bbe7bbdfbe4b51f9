"""A ``kind: sampling`` problem read from its YAML mapping, every finding with file:line:column.

The fields (docs/reference.md, "kind: sampling")::

    tokens       the candidate next tokens (2 to 12)
    logits       one score a token (one step); or
    steps        a continuation: [{logits: [...], target: token}, ...] (2 to 8 steps)
    temperature  T > 0 (default 1)
    top_k        keep the k most likely tokens (ties: the token listed first)
    top_p        keep the most likely tokens until their probabilities reach p
    draw         u in [0, 1): the token whose interval of the cumulative probabilities holds u
    target       the token that came next: the loss is -ln p(target)
    stages       which stages are asked (default: scaled, probabilities, pick)
    decimals, tolerance, title   as for attention
"""

from __future__ import annotations

import math

from attn_tutor.core.yamlread import MappingNode, Node, ScalarNode
from attn_tutor.kinds.sampling.model import (
    ALL_STAGES,
    CANDIDATES_MIN,
    STAGES,
    STEPS_MAX,
    STEPS_STAGES,
    TEMPERATURE_MAX,
    SamplingProblem,
    Step,
)
from attn_tutor.problems.fields import DEFAULT_DECIMALS, DEFAULT_TOLERANCE, Fields, shown

KEYS = (
    "id", "kind", "title", "tokens", "logits", "steps", "temperature", "top_k", "top_p",
    "draw", "target", "stages", "decimals", "tolerance",
)  # fmt: skip
STEP_KEYS = ("logits", "target")


class SamplingFields(Fields):
    """The readers of a sampling problem's fields (the loader's reader builds on it)."""

    def sampling_problem(self, node: Node, path: str, read_id, read_options) -> SamplingProblem | None:
        """The problem at ``node``, or None with every finding added. ``read_id(node, path)`` and
        ``read_options(m, path)`` are the loader's (the id's uniqueness; decimals and tolerance)."""
        before = len(self.findings)
        m = self._mapping(node, path, KEYS, required=("id", "tokens"))
        if m is None:
            return None

        def value(key: str) -> Node | None:
            return m[key][1] if key in m else None

        problem_id = read_id(value("id"), f"{path}.id")
        title = self._text(value("title"), f"{path}.title") if "title" in m else None
        tokens = self._tokens(value("tokens"), f"{path}.tokens")
        if tokens is not None and len(tokens) < CANDIDATES_MIN:
            self.add("problems.sampling.too_few_tokens", value("tokens"), path=f"{path}.tokens", count=len(tokens))
        n = len(tokens) if tokens is not None else None
        continuation = "steps" in m
        if continuation and "logits" in m:
            self.add("problems.sampling.logits_and_steps", m["steps"][0], path=path)
        elif not continuation and "logits" not in m:
            self.add("problems.sampling.missing_logits", node, path=path)
        steps: list[Step] = []
        if continuation:
            steps = self._s_steps(value("steps"), f"{path}.steps", tokens)
            for key in ("top_k", "top_p", "draw", "target"):
                if key in m:
                    self.add("problems.sampling.not_in_continuation", m[key][0], path=f"{path}.{key}", field=key)
        elif "logits" in m:
            logits = self._s_logits(value("logits"), f"{path}.logits", n)
            target = self._s_target(value("target"), f"{path}.target", tokens) if "target" in m else None
            if logits is not None:
                steps = [Step(logits, target)]
        temperature = self._s_temperature(value("temperature"), f"{path}.temperature") if "temperature" in m else 1.0
        top_k, top_p, draw = self._s_choice(m, path, n) if not continuation else (None, None, None)
        ask = self._s_stages(value("stages"), f"{path}.stages", continuation) if "stages" in m else None
        options = read_options(m, path)
        asked = ask if ask is not None else (STEPS_STAGES if continuation else ())
        if "loss" in asked and not continuation and "target" not in m and "logits" in m:
            self.add("problems.sampling.loss_without_target", m["stages"][1], path=f"{path}.stages")
        if len(self.findings) > before:
            return None
        return SamplingProblem(
            id=problem_id,
            tokens=tokens,  # type: ignore[arg-type]  # read without a finding (checked above)
            steps=tuple(steps),
            temperature=temperature,
            top_k=top_k,
            top_p=top_p,
            draw=draw,
            ask=ask,
            title=title,
            decimals=options.get("decimals", DEFAULT_DECIMALS),
            tolerance=options.get("tolerance", DEFAULT_TOLERANCE),
            continuation=continuation,
            line=node.start_mark.line + 1,
        )

    # -- the fields -------------------------------------------------------------

    def _s_choice(self, m: dict, path: str, n: int | None) -> tuple[int | None, float | None, float | None]:
        """``top_k``, ``top_p`` (not both) and ``draw`` of a one-step problem."""
        top_k = self._s_top_k(m["top_k"][1], f"{path}.top_k", n) if "top_k" in m else None
        top_p = self._s_top_p(m["top_p"][1], f"{path}.top_p") if "top_p" in m else None
        if "top_k" in m and "top_p" in m:
            self.add("problems.sampling.both_truncations", m["top_p"][0], path=path)
        draw = self._s_draw(m["draw"][1], f"{path}.draw") if "draw" in m else None
        return top_k, top_p, draw

    def _s_logits(self, node: Node | None, path: str, n: int | None) -> tuple[float, ...] | None:
        items = self._list(node, path)
        if items is None:
            return None
        out: list[float] = []
        for i, item in enumerate(items, start=1):
            number, problem = self._number(item)
            if problem is not None or number is None:
                self.add("problems.sampling.entry", item, path=path, item=i, text=shown(item))
                continue
            if abs(number) > 1e6:
                self.add("problems.sampling.entry_large", item, path=path, item=i, text=shown(item))
                continue
            out.append(number)
        if n is not None and len(items) != n:
            self.add("problems.sampling.logits_count", node, path=path, count=len(items), n=n)
            return None
        return tuple(out) if len(out) == len(items) else None

    def _s_target(self, node: Node | None, path: str, tokens) -> str | None:
        text = self._text(node, path)
        if text is None:
            return None
        if tokens is not None and text not in tokens:
            self.add("problems.sampling.unknown_target", node, path=path, token=text, tokens=", ".join(tokens))
            return None
        return text

    def _s_steps(self, node: Node | None, path: str, tokens) -> list[Step]:
        items = self._list(node, path)
        if items is None:
            return []
        if len(items) > STEPS_MAX:
            self.add("problems.sampling.too_many_steps", node, path=path, count=len(items), limit=STEPS_MAX)
            return []
        steps: list[Step] = []
        n = len(tokens) if tokens is not None else None
        for i, item in enumerate(items):
            where = f"{path}[{i}]"
            m = self._mapping(item, where, STEP_KEYS, required=STEP_KEYS)
            if m is None or len(m) < len(STEP_KEYS):
                continue
            logits = self._s_logits(m["logits"][1], f"{where}.logits", n)
            target = self._s_target(m["target"][1], f"{where}.target", tokens)
            if logits is not None and target is not None:
                steps.append(Step(logits, target))
        return steps

    def _s_positive(self, node: Node | None, path: str) -> tuple[float | None, ScalarNode | None]:
        scalar = self._scalar(node, path)
        if scalar is None:
            return None, None
        number, problem = self._number(scalar)
        return (number if problem is None else None), scalar

    def _s_temperature(self, node: Node | None, path: str) -> float:
        number, scalar = self._s_positive(node, path)
        if scalar is None:
            return 1.0
        if number is None or not 0 < number <= TEMPERATURE_MAX:
            self.add("problems.sampling.temperature", scalar, path=path, text=shown(scalar), limit=int(TEMPERATURE_MAX))
            return 1.0
        return number

    def _s_top_k(self, node: Node | None, path: str, n: int | None) -> int | None:
        number, scalar = self._s_positive(node, path)
        if scalar is None:
            return None
        if number is None or number != int(number) or not 1 <= number <= (n or 1) or "." in scalar.value:
            self.add("problems.sampling.top_k", scalar, path=path, text=shown(scalar), n=n or 1)
            return None
        return int(number)

    def _s_top_p(self, node: Node | None, path: str) -> float | None:
        number, scalar = self._s_positive(node, path)
        if scalar is None:
            return None
        if number is None or not 0 < number <= 1:
            self.add("problems.sampling.top_p", scalar, path=path, text=shown(scalar))
            return None
        return number

    def _s_draw(self, node: Node | None, path: str) -> float | None:
        number, scalar = self._s_positive(node, path)
        if scalar is None:
            return None
        if number is None or not 0 <= number < 1 or not math.isfinite(number):
            self.add("problems.sampling.draw", scalar, path=path, text=shown(scalar))
            return None
        return number

    def _s_stages(self, node: Node | None, path: str, continuation: bool) -> tuple[str, ...] | None:
        items = self._text_list(node, path)
        if items is None:
            return None
        allowed = STEPS_STAGES if continuation else STAGES
        asked: set[str] = set()
        for word, item in items:
            if word in asked:
                self.add("problems.duplicate_entry", item, path=path, value=word)
            elif word not in allowed:
                key = "problems.sampling.unknown_stage"
                if word in ALL_STAGES:
                    key = "problems.sampling.stage_in_continuation" if continuation else "problems.sampling.perplexity_one_step"
                self.add(key, item, path=path, stage=word, stages=", ".join(allowed))
            asked.add(word)
        return tuple(stage for stage in ALL_STAGES if stage in asked)


def kind_of(node: Node) -> tuple[str | None, Node | None]:
    """The text of a problem mapping's ``kind:`` (None when it has none) and its value's node."""
    if not isinstance(node, MappingNode):
        return None, None
    for key, value in node.value:
        if isinstance(key, ScalarNode) and key.value == "kind":
            return (value.value if isinstance(value, ScalarNode) else ""), value
    return None, None
