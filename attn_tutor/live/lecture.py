"""Peer instruction in the live class: the teacher's lecture controls (focus, pause, hidden results,
ask again) as requests read them, and the projector's view of the class (no names, no one's score).

The lecture's state and the rounds are kept by the store (:mod:`attn_tutor.sessions.rounds`); here is
what a control request may say (:func:`lecture_change`), the labels the pages show for an item, a
stage and a score range (one place for each, so the teacher's page and the projector agree), and the
projector's payload (:func:`projector_view`): the counts, the item in focus with each round's verdicts
and mistakes (counts and shares), how many checked each of its stages, and the score distribution.
"""

from __future__ import annotations

from typing import NamedTuple

from attn_tutor.core.i18n import t
from attn_tutor.core.model import ProblemSet, Stage
from attn_tutor.live.marks import RequestError
from attn_tutor.marking.results import diagnosis_name
from attn_tutor.sessions.store import CONCEPT_STAGE, CONCEPTS, Session, Store

VERDICTS = ("correct", "follow_through", "partial", "wrong")  # the bars, in this order
ACTIONS = ("focus", "pause", "resume", "hide-results", "show-results", "ask-again")


class Change(NamedTuple):
    """A lecture control as asked (``POST /teacher/api/lecture``): what to change."""

    action: str
    focus: tuple[str, str] | None = None  # focus: (problem, row) or (CONCEPTS, id); None clears it
    fresh_variant: bool = False  # ask-again: on a fresh variant for everyone


def lecture_change(body: dict, problem_set: ProblemSet) -> Change:
    """The control a request's body asks for, checked: an action of :data:`ACTIONS`; ``focus`` names a
    problem and one of its asked rows, or a concept item (or ``"clear": true``); ``ask-again`` may ask
    ``"fresh_variant": true``. Anything else is a 400 or 404 with a sentence."""
    action = body.get("action")
    if action not in ACTIONS:
        raise RequestError(400, "live.error.bad_action", action=str(action)[:40], actions=", ".join(ACTIONS))
    if action == "ask-again":
        fresh = body.get("fresh_variant", False)
        if not isinstance(fresh, bool):
            raise RequestError(400, "live.error.field", field="fresh_variant", kind="true or false")
        return Change(action, fresh_variant=fresh)
    if action != "focus":
        return Change(action)
    if body.get("clear") is True:
        return Change(action, None)
    if "concept" in body:
        concept = body["concept"]
        ids = [c.id for c in problem_set.concepts]
        if concept not in ids:
            raise RequestError(404, "live.error.unknown_concept", concept=str(concept)[:60], ids=", ".join(ids) or "-")
        return Change(action, (CONCEPTS, concept))
    problems = {p.id: p for p in problem_set.problems}
    problem, row = body.get("problem"), body.get("row")
    if not isinstance(problem, str) or problem not in problems:
        raise RequestError(404, "live.error.unknown_problem", problem=str(problem)[:60], ids=", ".join(problems))
    if not isinstance(row, str) or row not in problems[problem].asked_rows:
        rows = ", ".join(problems[problem].asked_rows)
        raise RequestError(404, "live.error.unknown_row", problem=problem, row=str(row)[:60], rows=rows)
    return Change(action, (problem, row))


def item_label(problem: str, row: str) -> str:
    """An item's name on the pages: a problem's row, a concept item, or a problem without rows (a
    sampling problem's one row is "": its name is the problem's)."""
    if problem == CONCEPTS:
        return t("live.item_concept", concept=row)
    if not row:
        return t("live.item_problem", problem=problem)
    return t("live.item_row", problem=problem, row=row)


def stage_label(stage: str) -> str:
    """A stage's name in the language spoken (as the quiz names it)."""
    return t("quiz.stage.choice" if stage == CONCEPT_STAGE else f"quiz.stage.{stage}")


def map_label(key: str) -> str:
    """A row of the teacher's map (``problem/row/stage``, ``concepts/<id>``) in the language spoken."""
    if key.startswith("concepts/"):
        return item_label(CONCEPTS, key[len("concepts/") :])
    problem, rest = key.split("/", 1)
    row, stage = rest.rsplit("/", 1)
    return t("live.map_row", item=item_label(problem, row), stage=stage_label(stage))


def distribution(scores: list[float], top: int, bins: int) -> list[dict]:
    """The scores in about ``bins`` ranges of whole points, each ``{"low", "high", "count", "label"}``:
    ``low`` up to (not including) ``high``, but the last range, which holds ``high`` too (full marks
    alone when the ranges are one point wide)."""
    width = max(1, -(-top // bins))
    counts = [0] * (top // width + 1)
    for score in scores:
        counts[min(len(counts) - 1, max(0, int(score + 1e-9)) // width)] += 1
    found = []
    for k, count in enumerate(counts):
        low, high = k * width, min(top, (k + 1) * width)
        last = k == len(counts) - 1
        if last and low == high:
            label = t("live.distribution_top", high=high)
        elif last:
            label = t("live.distribution_last", low=low, high=high)
        else:
            label = t("live.distribution_range", low=low, high=high)
        found.append({"low": low, "high": high, "count": count, "label": label})
    return found


def _stages(problem_set: ProblemSet, problem: str) -> list[str]:
    if problem == CONCEPTS:
        return [CONCEPT_STAGE]
    found = problem_set.get(problem)
    if found.kind != "attention":  # its own stages, in its order
        return list(found.asked_stages)
    return [s.value for s in Stage if s.value in found.asked_stages]


def _round_view(number: int, variant: int | None, verdicts: dict[str, int], diagnoses: dict[str, int], answers: int) -> dict:
    share = (lambda n: round(n / answers, 3)) if answers else (lambda n: 0.0)
    return {
        "round": number,
        "variant": variant,
        "answers": answers,
        "verdicts": [{"verdict": v, "label": t(f"grading.verdict.{v}"), "count": verdicts.get(v, 0), "share": share(verdicts.get(v, 0))}
                     for v in VERDICTS],  # fmt: skip
        "diagnoses": [{"code": code, "name": diagnosis_name(code), "count": n, "share": share(n)}
                      for code, n in sorted(diagnoses.items(), key=lambda kv: (-kv[1], kv[0]))],  # fmt: skip
    }


def focus_view(store: Store, session: Session, problem_set: ProblemSet, counts: dict) -> dict | None:
    """The item in focus as the projector shows it: its name, round, how many checked each stage in the
    round now, and (unless the results are hidden, or it is an exam's problem still open: the students
    see no verdict before it closes, the wall neither) each round's verdicts and mistakes with their shares."""
    focus = session.lecture.focus
    if focus is None:
        return None
    problem, row = focus
    stages = _stages(problem_set, problem)
    current = session.round_of(problem, row)
    rounds: dict[int, dict] = {}
    if current is None:  # round 1: the class's map
        entry = rounds.setdefault(1, {"variant": None, "stages": {}, "verdicts": {}, "diagnoses": {}})
        for stage in stages:
            key = f"concepts/{row}" if problem == CONCEPTS else f"{problem}/{row}/{stage}"
            item = counts.get(key, {"verdicts": {}, "diagnoses": {}})
            entry["stages"][stage] = sum(item["verdicts"].values())
            for verdict, n in item["verdicts"].items():
                entry["verdicts"][verdict] = entry["verdicts"].get(verdict, 0) + n
            for code, n in item["diagnoses"].items():
                entry["diagnoses"][code] = entry["diagnoses"].get(code, 0) + n
    else:
        for number, variant, stage, verdict, diagnosis, n in store.round_counts(problem, row):
            entry = rounds.setdefault(number, {"variant": variant, "stages": {}, "verdicts": {}, "diagnoses": {}})
            entry["stages"][stage] = entry["stages"].get(stage, 0) + n
            entry["verdicts"][verdict] = entry["verdicts"].get(verdict, 0) + n
            if diagnosis and problem != CONCEPTS:
                entry["diagnoses"][diagnosis] = entry["diagnoses"].get(diagnosis, 0) + n
    number = current.round if current is not None else 1
    now = rounds.get(number, {"stages": {}})
    state = session.problems.get(problem)
    hidden = session.lecture.hidden or (session.mode == "exam" and state is not None and state.open)  # an exam: not before it closes
    view: dict = {
        "key": f"concepts/{row}" if problem == CONCEPTS else f"{problem}/{row}",
        "label": item_label(problem, row),
        "round": number,
        "fresh": current is not None and current.variant is not None,
        "answered": max(now["stages"].values(), default=0),
        "stages": [{"stage": s, "label": stage_label(s), "checked": now["stages"].get(s, 0)} for s in stages],
        "hidden": hidden,
    }
    if not hidden:
        view["rounds"] = [
            _round_view(n, entry["variant"], entry["verdicts"], entry["diagnoses"], sum(entry["verdicts"].values()))
            for n, entry in sorted(rounds.items())
        ]
    return view
