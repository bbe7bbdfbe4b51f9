"""What each student chose on a set's choice items, in the file's own labels, for the item statistics.

A variant shuffles each choice item's options, and a student answers with their own sheet's labels
(``B`` on variant 42017 may be the file's ``D``). The option shares count options, not letters, so
each chosen label is turned back into the label the same option has in the file's order (no seed),
matched by the option's text. The right labels and all the labels are the file's own form's (the
set without a variant): a computed item whose right option depends on a variant's numbers is
flagged against the file's numbers. Order items have no option shares. Made in whichever process
marked the student; each (set, variant) is worked out once there (at most :data:`LIMIT` kept).
"""

from __future__ import annotations

from attn_tutor.gradebook.records import StudentResult, concept_key
from attn_tutor.solve.concepts import show_all

LIMIT = 1_000  # (set, variant) label maps kept per process, then forgotten and made again as met


class ChoiceLabels:
    """Turns a marked student's concept choices into ``StudentRow.chosen`` entries."""

    def __init__(self, grader) -> None:
        self.grader = grader
        self._maps: dict = {}

    def chosen(self, result: StudentResult) -> tuple:
        """``((item, labels chosen in the file's order, (the file's labels, its right labels)), ...)``."""
        report = result.report
        concepts = getattr(report, "concepts", None)
        if not concepts or result.set_key is None:
            return ()
        maps = self._map(result.set_key, result.variant)
        found = []
        for concept in concepts:
            known = maps.get(concept.id)
            if known is not None:
                back, info = known
                found.append((concept_key(concept.id), tuple(back[label] for label in concept.chosen if label in back), info))
        return tuple(found)

    def _map(self, key: str, variant: int | None) -> dict:
        cache = (key, variant)
        found = self._maps.get(cache)
        if found is None:
            if len(self._maps) >= LIMIT:
                self._maps.clear()
            found = self._maps[cache] = self._work_out(key, variant)
        return found

    def _work_out(self, key: str, variant: int | None) -> dict:
        solved, base = self.grader.solved(key, variant), self.grader.solved(key, None)
        if isinstance(solved, Exception) or isinstance(base, Exception):
            return {}
        problem_set, shown = solved[0], solved[3]
        plain = {item.id: item for item in show_all(problem_set)}  # this variant's numbers, the file's order
        files = {item.id: item for item in base[3]}
        maps = {}
        for item in shown:
            if item.kind == "order" or item.id not in plain or item.id not in files:
                continue
            own = plain[item.id]
            back = {}
            for label, text in zip(item.labels, item.options):
                if text in own.options:
                    back[label] = own.labels[own.options.index(text)]
            maps[item.id] = (back, (files[item.id].labels, files[item.id].answer))
        return maps
