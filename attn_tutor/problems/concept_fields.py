"""Reading a problem set's concept items (``concepts:`` beside ``problems:``), strictly.

The YAML, one item per entry (see ``docs/reference.md``, "Concept items")::

    concepts:
      - id: why-scale                 # lowercase letters, digits and -, unique among the items
        kind: choice                  # choice (the default) | computed | order
        stem: "왜 스코어를 √d로 나누나요? (Why divide the scores by √d?)"
        options:                      # 3 to 5, distinct; exactly one right unless several: true
          - text: "…"
            right: true
          - text: "…"
            feedback: "…"             # every wrong option says the misconception it reveals
        several: false
        explanation: "…"              # optional: shown with the answer
      - id: eat-attends
        kind: computed
        problem: cat-fish             # a problem of this set, with one head
        row: 먹었다                    # a query token (or its number, from 1) for most-attended,
        ask: most-attended            #   least-attended and unscaled; none for the row asks
      - id: steps
        kind: order
        steps: [a, b, c, d]           # 3 to 6 distinct steps, in the right order

Every text (stem, option text and feedback, step, explanation) is a string, shown as written, or
``{ko: "…", en: "…"}``, of which the language spoken is shown (:class:`attn_tutor.core.model.Bilingual`).
A computed item's texts may hold the slots of its ask (``CONCEPT_SLOTS``: ``{answer}``,
``{runner_up}``, …; a stem only ``{row}``), filled from each variant's numbers by
:func:`attn_tutor.solve.concepts.show`; an unknown slot, and an explanation naming a token of its
problem as written (but the item's row), are findings: the answer changes with the numbers.

Every finding carries its ``file:line:column``, as the problems' do; a key of another kind
of item, an unknown key (with a did-you-mean), a missing one, a second right option, a
wrong option without feedback and a computed item naming a problem or row that does not
exist are each reported, and reading goes on to the end. Whether a computed item's answer
is a tie needs the numbers: :func:`attn_tutor.solve.concepts.tie_findings` (``validate``).
"""

from __future__ import annotations

import re

from attn_tutor.core.errors import Location
from attn_tutor.core.model import (
    COMPUTED_ASKS,
    CONCEPT_SLOTS,
    CONCEPT_TEXT_MAX,
    CONCEPTS_MAX,
    OPTIONS_MAX,
    OPTIONS_MIN,
    ROW_ASKS,
    STEPS_MAX,
    STEPS_MIN,
    Bilingual,
    Concept,
    ConceptKind,
    ConceptOption,
    Problem,
    SetText,
)
from attn_tutor.core.text import did_you_mean
from attn_tutor.core.yamlread import STR, MappingNode, Node, ScalarNode, is_plain
from attn_tutor.problems.fields import Fields

KINDS = tuple(ConceptKind)
COMMON_KEYS = ("id", "kind", "stem", "explanation")
KIND_KEYS = {
    "choice": ("options", "several"),
    "computed": ("problem", "row", "ask"),
    "order": ("steps",),
}
CONCEPT_KEYS = COMMON_KEYS + tuple(key for keys in KIND_KEYS.values() for key in keys)
OPTION_KEYS = ("text", "right", "feedback")
LANGUAGES = ("ko", "en")  # the keys of a text written in both languages

SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
"""A slot in a computed item's text, ``{answer}``: filled from each variant's numbers."""
STEM_SLOTS = ("row",)  # a stem asks: it may name the row, never the answer

_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
_TRUE, _FALSE = frozenset({"true", "True", "TRUE"}), frozenset({"false", "False", "FALSE"})


class ConceptFields(Fields):
    """The readers of ``concepts:``; the loader's reader builds on it."""

    def _concepts(self, node: Node, problems: list[Problem | None]) -> tuple[Concept, ...]:
        items = self._list(node, "concepts")
        if items is None:
            return ()
        if len(items) > CONCEPTS_MAX:
            self.add("problems.too_many_concepts", node, count=len(items), limit=CONCEPTS_MAX)
            return ()
        by_id = {p.id: p for p in problems if p is not None}
        ids: dict[str, int] = {}
        out = []
        for i, item in enumerate(items):
            concept = self._concept(item, f"concepts[{i}]", by_id, ids)
            if concept is not None:
                out.append(concept)
        return tuple(out)

    def _concept(self, node: Node, path: str, problems: dict[str, Problem], ids: dict[str, int]) -> Concept | None:
        before = len(self.findings)
        m = self._mapping(node, path, CONCEPT_KEYS, required=("id", "stem"))
        if m is None:
            return None

        def value(key: str) -> Node | None:
            return m[key][1] if key in m else None

        concept_id = self._concept_id(value("id"), f"{path}.id", ids)
        kind = self._kind(value("kind"), f"{path}.kind") if "kind" in m else "choice"
        stem = self._set_text(value("stem"), f"{path}.stem")
        explanation = self._set_text(value("explanation"), f"{path}.explanation") if "explanation" in m else None
        if kind is None:
            return None
        for key in CONCEPT_KEYS:
            if key in m and key not in COMMON_KEYS and key not in KIND_KEYS[kind]:
                self.add("problems.concept_key_for_kind", m[key][0], path=f"{path}.{key}", field=key, kind=kind,
                         allowed=", ".join(COMMON_KEYS + KIND_KEYS[kind]))  # fmt: skip
        fields: dict = {}
        if kind == "choice":
            if "options" not in m:
                self.add("problems.missing_key", node, path=path, field="options")
            several = self._flag(value("several"), f"{path}.several") if "several" in m else False
            options = self._choice_options(value("options"), f"{path}.options", bool(several)) if "options" in m else None
            fields = dict(options=options or (), several=bool(several))
        elif kind == "computed":
            fields = self._computed(m, node, path, problems)
            self._computed_texts(m, path, fields, problems)
        else:
            if "steps" not in m:
                self.add("problems.missing_key", node, path=path, field="steps")
            fields = dict(steps=self._steps(value("steps"), f"{path}.steps") if "steps" in m else ())
        if len(self.findings) > before:
            return None
        return Concept(
            # the type: ignore below: each field read without a finding is set (checked just above)
            id=concept_id, kind=kind, stem=stem, explanation=explanation,  # type: ignore[arg-type]
            line=node.start_mark.line + 1, **fields,
        )  # fmt: skip

    def _concept_id(self, node: Node | None, path: str, ids: dict[str, int]) -> str | None:
        concept_id = self._text(node, path)
        if concept_id is None:
            return None
        if not _ID.fullmatch(concept_id):
            self.add("problems.concept_id", node, path=path, id=concept_id)
        elif concept_id in ids:
            self.add("problems.duplicate_concept_id", node, id=concept_id, first_line=ids[concept_id])
        else:
            # the type: ignore below: a node read from the file carries its place
            ids[concept_id] = node.start_mark.line + 1  # type: ignore[union-attr]
        return concept_id

    def _word(self, node: Node | None, path: str, words: tuple[str, ...], key: str) -> str | None:
        """One of ``words``; another is reported with a did-you-mean (``key``: the message's family)."""
        word = self._text(node, path)
        if word is None:
            return None
        if word in words:
            return word
        suggestion = did_you_mean(word, words)
        if suggestion:
            self.add(f"{key}_suggest", node, path=path, value=word, suggestion=suggestion)
        else:
            self.add(key, node, path=path, value=word, allowed=", ".join(words))
        return None

    def _kind(self, node: Node | None, path: str) -> str | None:
        return self._word(node, path, KINDS, "problems.concept_kind")

    def _flag(self, node: Node | None, path: str) -> bool | None:
        scalar = self._scalar(node, path)
        if scalar is None:
            return None
        if is_plain(scalar) and scalar.tag != STR:
            if scalar.value in _TRUE:
                return True
            if scalar.value in _FALSE:
                return False
        self.add("problems.concept_flag", scalar, path=path, text=scalar.value)
        return None

    def _choice_options(self, node: Node | None, path: str, several: bool) -> tuple[ConceptOption, ...] | None:
        items = self._list(node, path)
        if items is None:
            return None
        if not OPTIONS_MIN <= len(items) <= OPTIONS_MAX:
            self.add("problems.concept_option_count", node, path=path, count=len(items), least=OPTIONS_MIN, most=OPTIONS_MAX)
        options: list[ConceptOption] = []
        first: dict[str, int] = {}
        ok = True
        for i, item in enumerate(items, start=1):
            item_path = f"{path}[{i - 1}]"
            m = self._mapping(item, item_path, OPTION_KEYS, required=("text",))
            if m is None:
                ok = False
                continue
            text = self._set_text(m["text"][1], f"{item_path}.text") if "text" in m else None
            right = self._flag(m["right"][1], f"{item_path}.right") if "right" in m else False
            feedback = self._set_text(m["feedback"][1], f"{item_path}.feedback") if "feedback" in m else None
            if text is None or right is None or ("feedback" in m and feedback is None):
                ok = False
                continue
            if not right and feedback is None:
                self.add("problems.concept_no_feedback", item, path=item_path, option=i)
            folded = " ".join(str(text).split()).casefold()
            if folded in first:
                self.add("problems.concept_same_option", m["text"][1], path=path, first=first[folded], second=i)
            else:
                first[folded] = i
            options.append(ConceptOption(text, right, feedback))
        if ok:
            rights = sum(option.right for option in options)
            if several and rights == 0:
                self.add("problems.concept_no_right", node, path=path)
            elif not several and rights != 1:
                self.add("problems.concept_one_right", node, path=path, count=rights)
        return tuple(options) if ok else None

    def _computed(self, m: dict, node: Node, path: str, problems: dict[str, Problem]) -> dict:
        for key in ("problem", "ask"):
            if key not in m:
                self.add("problems.missing_key", node, path=path, field=key)
        problem_id = self._text(m["problem"][1], f"{path}.problem") if "problem" in m else None
        ask = self._word(m["ask"][1], f"{path}.ask", COMPUTED_ASKS, "problems.concept_ask") if "ask" in m else None
        problem = None
        if problem_id is not None:
            problem = problems.get(problem_id)
            if problem is None:
                where = m["problem"][1]
                suggestion = did_you_mean(problem_id, problems)
                if suggestion:
                    self.add("problems.concept_problem_suggest", where, path=f"{path}.problem", id=problem_id, suggestion=suggestion)
                else:
                    self.add("problems.concept_problem", where, path=f"{path}.problem", id=problem_id, ids=", ".join(problems) or "-")
            elif problem.kind != "attention":
                self.add("problems.concept_not_attention", m["problem"][1], path=f"{path}.problem", id=problem_id, kind=problem.kind)
                problem = None
            elif len(problem.heads) != 1:
                self.add("problems.concept_multi_head", m["problem"][1], path=f"{path}.problem", id=problem_id)
        row = None
        if ask is not None and ask in ROW_ASKS and "row" not in m:
            self.add("problems.concept_needs_row", node, path=path, ask=ask)
        elif ask is not None and ask not in ROW_ASKS and "row" in m:
            self.add("problems.concept_no_row", m["row"][0], path=f"{path}.row", ask=ask)
        elif "row" in m:
            row = self._concept_row(m["row"][1], f"{path}.row", problem)
        return dict(problem=problem_id, row=row, ask=ask)

    def _concept_row(self, node: Node | None, path: str, problem: Problem | None) -> str | None:
        """A query token of ``problem``, or its number counted from 1 (given as the token)."""
        token = self._text(node, path)
        if token is None or problem is None:
            return token
        if token in problem.tokens:
            return token
        if isinstance(node, ScalarNode) and is_plain(node) and token.isdigit() and 1 <= int(token) <= len(problem.tokens):
            return problem.tokens[int(token) - 1]
        suggestion = did_you_mean(token, problem.tokens)
        if suggestion:
            self.add("problems.unknown_row_suggest", node, path=path, token=token, suggestion=suggestion)
        else:
            self.add("problems.unknown_row", node, path=path, token=token, tokens=", ".join(problem.tokens))
        return None

    def _steps(self, node: Node | None, path: str) -> tuple[SetText, ...]:
        items = self._list(node, path)
        if items is None:
            return ()
        if not STEPS_MIN <= len(items) <= STEPS_MAX:
            self.add("problems.concept_step_count", node, path=path, count=len(items), least=STEPS_MIN, most=STEPS_MAX)
        steps: list[SetText] = []
        seen: set[SetText] = set()
        for i, item in enumerate(items):
            step = self._set_text(item, f"{path}[{i}]")
            if step is None:
                continue
            if step in seen:
                self.add("problems.duplicate_entry", item, path=path, value=str(step))
            seen.add(step)
            steps.append(step)
        return tuple(steps)

    # -- texts in one language or both, and a computed item's slots -----------------

    def _set_text(self, node: Node | None, path: str) -> SetText | None:
        """A text as written (a string), or ``{ko: ..., en: ...}``: the one the language spoken shows."""
        if not isinstance(node, MappingNode):
            return self._text(node, path, CONCEPT_TEXT_MAX)
        m = self._mapping(node, path, LANGUAGES, required=LANGUAGES)
        if m is None:
            return None
        texts = {lang: self._text(m[lang][1], f"{path}.{lang}", CONCEPT_TEXT_MAX) for lang in LANGUAGES if lang in m}
        if texts.get("ko") is None or texts.get("en") is None:
            return None
        return Bilingual(ko=texts["ko"], en=texts["en"])  # type: ignore[arg-type]  # both read (checked just above)

    def _computed_texts(self, m: dict, path: str, fields: dict, problems: dict[str, Problem]) -> None:
        """A computed item's stem and explanation: known slots only (a stem: ``{row}``), and the
        explanation naming no token of its problem but the row (the answer changes with the numbers)."""
        ask = fields.get("ask")
        if ask is None:
            return
        problem = problems.get(fields.get("problem") or "")
        for field, allowed in (("stem", tuple(s for s in CONCEPT_SLOTS[ask] if s in STEM_SLOTS)), ("explanation", CONCEPT_SLOTS[ask])):
            if field not in m:
                continue
            for text, node, where in self._pieces(m[field][1], f"{path}.{field}"):
                for match in SLOT.finditer(text):
                    if match[1] not in allowed:
                        self.add("problems.concept_slot", self._at(node, text, match.start()), path=where,
                                 slot=match[0], ask=ask, slots=", ".join(f"{{{s}}}" for s in allowed) or "-")  # fmt: skip
                if field == "explanation" and problem is not None:
                    self._literal_tokens(text, node, where, problem, fields.get("row"), allowed)

    def _pieces(self, node: Node, path: str) -> list[tuple[str, ScalarNode, str]]:
        """The texts of a stem or an explanation as read, each with its node and its path."""
        if isinstance(node, MappingNode):
            pairs = [(key.value, value) for key, value in node.value if isinstance(key, ScalarNode)]
            return [(v.value, v, f"{path}.{k}") for k, v in pairs if k in LANGUAGES and isinstance(v, ScalarNode)]
        return [(node.value, node, path)] if isinstance(node, ScalarNode) else []

    def _literal_tokens(self, text: str, node: ScalarNode, path: str, problem: Problem, row: str | None, allowed: tuple[str, ...]) -> None:
        """A finding for the first token of ``problem`` (not the item's row) that ``text`` names as written."""
        plain = SLOT.sub(lambda match: " " * len(match[0]), text)
        for token in sorted(set(problem.tokens) | set(problem.keys), key=len, reverse=True):
            if token == row:
                continue
            at = _named_at(plain, token)
            if at is not None:
                self.add("problems.concept_literal_token", self._at(node, text, at), path=path, token=token,
                         slots=", ".join(f"{{{s}}}" for s in allowed))  # fmt: skip
                return

    def _at(self, node: ScalarNode, text: str, index: int) -> Node | Location:
        """Where ``text[index]`` stands in the file: exact for a text on one line written without
        escapes, else the text's start."""
        start, end = node.start_mark, node.end_mark
        quote = 0 if node.style in (None, "") else 1
        if node.style in (None, "", "'", '"') and start.line == end.line and end.column - start.column == len(text) + 2 * quote:
            return Location(self.source, start.line + 1, start.column + 1 + quote + index)
        return node



def _named_at(text: str, token: str) -> int | None:
    """Where ``text`` names ``token`` as a word: not inside another word (a Korean particle may
    follow a Hangul token; a token ending in a Latin letter or digit is followed by neither)."""
    start = 0
    while (at := text.find(token, start)) >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(token)] if at + len(token) < len(text) else " "
        latin_end = token[-1].isascii() and token[-1].isalnum()
        if not before.isalnum() and not (latin_end and after.isascii() and after.isalnum()):
            return at
        start = at + 1
    return None
