"""The live class's two pages: the students' (the practice page, served) and the teacher's.

The students' page is :func:`attn_tutor.practice.page.render` with the server's scripts
(:class:`attn_tutor.practice.page.Served`): the same widget, the same ``data-*`` contract, a join
form and ``assets/live.js`` (sending each checked stage). An exam page carries no answers at all
(:func:`exam_data`): the server marks, and says how once the teacher closes the problem. The
teacher's page is built here: the counts, the class's map, the scores, the controls and the
student link's QR code; ``assets/teacher.js`` keeps it current. The pages are templates
(``templates/``: the teacher's, a one-sentence page on the same head, the students' header;
:mod:`attn_tutor.render.templating`), autoescaped, every text escaped by :func:`html.escape`; here
is what they show, as data. The only data a script reads is JSON (``/api/state``,
``/teacher/api/map``) or a ``<script type="application/json">`` block.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from importlib import resources
from typing import NamedTuple

from attn_tutor.core.i18n import language, messages, t
from attn_tutor.core.model import KINDS, ProblemSet, Stage
from attn_tutor.kinds.sampling.marking import STAGE_CODES as SAMPLING_STAGE_CODES
from attn_tutor.live.lecture import item_label, map_label
from attn_tutor.marking.marker import diagnosis_name
from attn_tutor.marking.mistakes import STAGE_DIAGNOSES
from attn_tutor.practice import data as page_data
from attn_tutor.practice import page
from attn_tutor.render import templating
from attn_tutor.render.html import block_html
from attn_tutor.sessions.store import CONCEPTS
from attn_tutor.solve import engine
from attn_tutor.solve.concepts import show
from attn_tutor.solve.layout import solution_blocks
from attn_tutor.variants.sheets import make_sheets, sheet_title

STUDENT_SCRIPTS = ("numbers.js", "particles.js", "answers.js", "marking.js", "live.js", "widget.js")
STUDENT_STYLES = ("page.css", "live.css")
TEACHER_SCRIPTS = ("teacher.js",)
TEACHER_STYLES = ("page.css", "live.css")
PROJECTOR_SCRIPTS = ("projector.js",)
PROJECTOR_STYLES = ("page.css", "live.css", "projector.css")
LIVE_ASSETS = ("live.js", "teacher.js", "projector.js", "live.css", "projector.css")
MAP_VERDICTS = ("correct", "follow_through", "partial", "wrong")  # what a saved answer can be (never "missing")
NAME_LIMIT = 80

# What an exam page leaves out: every number a student is asked for, and everything made from them.
_EXAM_PROBLEM_KEYS = ("output", "output_text", "hints", "hint_walk", "projection")
_EXAM_HEAD_KEYS = ("raw", "scores", "scaled", "weights", "output", "rows")
_EXAM_CONCEPT_KEYS = ("answer", "scores", "feedback", "explanation")  # a concept item keeps its stem, options and order
# What an exam page keeps of a sampling problem (practice/data.sampling_data): only its givens and the
# shape of what is asked — a list of what may stay, not of what goes: every number made from the givens is
# an answer (the windows, the key, the worked solution, and the slider, which draws the probabilities).
_EXAM_SAMPLING_KEYS = (
    "id", "kind", "heading", "settings", "notes", "givens_html", "tokens", "steps", "temperature", "top_k", "top_p", "draw",
    "continuation", "decimals", "stages", "asked_stages", "asked_rows", "labels", "titles", "counts", "tolerances",
)  # fmt: skip


def asset(name: str, kinds: Collection[str] = KINDS) -> tuple[str, str] | None:
    """A file the pages load (``/assets/NAME``) for a class of problems of ``kinds`` (``page.for_kinds``):
    its text and media type; None for any other name."""
    if name in (*page.SCRIPTS, *page.SAMPLING_SCRIPTS, page.STYLE, page.SAMPLING_STYLE):
        text = page.asset(name, kinds)
    elif name in LIVE_ASSETS:
        text = page.for_kinds(resources.files("attn_tutor.live").joinpath("assets", name).read_text(encoding="utf-8"), kinds)
    else:
        return None
    return text, "text/css" if name.endswith(".css") else "text/javascript"


def item_keys(problem_set: ProblemSet) -> list[str]:
    """Every asked item as ``problem/row/stage``, in gradebook order, then each concept item as ``concepts/<id>``."""
    return [
        f"{p.id}/{token}/{stage}"  # a sampling problem's stage: ``id//stage`` (its one row is "", as the store keeps it)
        for p in problem_set.problems
        for token in p.asked_rows
        for stage in ((s.value for s in Stage) if p.kind == "attention" else p.asked_stages)
        if stage in p.asked_stages
    ] + [f"concepts/{c.id}" for c in problem_set.concepts]


def live_messages(kinds) -> dict[str, str]:
    return page_data.of_kinds(messages("live."), kinds)


def practice_data(problem_set: ProblemSet, *, set_name: str, title: str) -> dict:
    """The students' page data: the practice page's, with the live sentences."""
    data = page_data.page_data(make_sheets(problem_set), set_name=set_name, title=title)
    data["messages"].update(live_messages(page_data.kinds_of(problem_set)))
    return data


def exam_data(data: dict) -> dict:
    """``data`` without the answers: what an exam page may carry (the givens, the shapes, the mask)."""
    stripped = copy.deepcopy(data)
    for variant in stripped["variants"]:
        for problem in variant["problems"]:
            if problem.get("kind") == "sampling":
                for key in [key for key in problem if key not in _EXAM_SAMPLING_KEYS]:
                    del problem[key]
                continue
            for key in _EXAM_PROBLEM_KEYS:
                problem.pop(key, None)
            for head in problem["heads"]:
                for key in _EXAM_HEAD_KEYS:
                    head.pop(key, None)
        for concept in variant.get("concepts", ()):
            for key in _EXAM_CONCEPT_KEYS:
                concept.pop(key, None)
    for base in stripped.get("concepts", ()):  # the items' texts, once for the page: no feedback, no explanation
        base["feedback"] = [None] * len(base["feedback"])
        base["explanation"] = None
    return stripped


def solutions_html(problem_set: ProblemSet) -> dict[str, str]:
    """Each problem's worked solution, as the answer key shows it (solve's layout, in HTML)."""
    found = {}
    for problem in problem_set.problems:
        rows = [problem.row_index(token) for token in problem.asked_rows] if problem.kind == "attention" else None
        blocks = solution_blocks(engine.solve(problem), rows=rows, explain_rows=True, bars=False)
        found[problem.id] = "\n".join(block_html(block) for block in blocks)
    return found


def title_of(problem_set: ProblemSet) -> str:
    return sheet_title(problem_set)


def _say():
    """``t`` as the templates call it: ``t("live.join")``, in the language spoken."""
    return lambda key, **args: t(key, **args)


def student_scripts(data: dict) -> tuple[str, ...]:
    """The students' page's scripts: :data:`STUDENT_SCRIPTS`, and with a sampling problem the practice
    page's sampling scripts (engine, marker, slider: ``page.SAMPLING_SCRIPTS``) before widget.js."""
    if not page.has_sampling(data):
        return STUDENT_SCRIPTS
    return (*STUDENT_SCRIPTS[:-1], *page.SAMPLING_SCRIPTS, STUDENT_SCRIPTS[-1])


def student_styles(data: dict) -> tuple[str, ...]:
    """The students' page's stylesheets, with the sampling view's (``page.SAMPLING_STYLE``) when it has one."""
    return (*STUDENT_STYLES, page.SAMPLING_STYLE) if page.has_sampling(data) else STUDENT_STYLES


def student_page(data: dict, *, title: str, mode: str, session_id: str, rounds: str = "") -> str:
    """The students' page (``data``: :func:`practice_data`, or :func:`exam_data` of it for an exam);
    ``rounds``: the key of the rounds it was made for (live.js reloads it when they change)."""
    header = templating.render("attn_tutor.live", "student_header.html", {"t": _say(), "mode": mode, "name_limit": NAME_LIMIT})
    served = page.Served(
        scripts=tuple(f"/assets/{name}" for name in student_scripts(data)),
        styles=tuple(f"/assets/{name}" for name in student_styles(data)),
        header=header,
        meta={"attn-session": session_id, "attn-mode": mode, "attn-rounds": rounds},
    )
    return page.render(data, title=title, served=served)


def _page(name: str, *, title: str, styles: tuple[str, ...], **context) -> str:
    """One of ``templates/``'s pages on ``base.html``: the served page's policy, ``styles``, ``title``."""
    head = {"lang": "ko" if language() == "ko" else "en", "t": _say(), "csp": page.SERVED_CSP, "title": title, "styles": styles}
    return templating.render("attn_tutor.live", name, head | context)


def teacher_page(problem_set: ProblemSet, snapshot: dict, *, title: str, student_url: str, grades_url: str | None = None) -> str:
    """The teacher's page as it is now (``snapshot``: the app's map payload); teacher.js keeps it current.
    ``grades_url``: a link to the grades sent to the course (an LTI activity's), else none."""
    concepts = {"id": CONCEPTS, "open": snapshot["problems"][CONCEPTS]["open"]} if problem_set.concepts else None
    return _page(
        "teacher.html",
        title=t("live.teacher_title", title=title),
        styles=TEACHER_STYLES,
        snapshot=snapshot,
        student_url=student_url,
        grades_url=grades_url,
        problems=[(p.id, snapshot["problems"][p.id]) for p in problem_set.problems],
        concepts=concepts,  # the concept items open and close together
        verdicts=MAP_VERDICTS,
        map_rows=map_rows(problem_set, snapshot),
        focus_items=focus_items(problem_set),
        lecture=snapshot["lecture"],
        data=page.json_for_script({"messages": teacher_messages(page_data.kinds_of(problem_set))}),
        scripts=TEACHER_SCRIPTS,
    )


def focus_items(problem_set: ProblemSet) -> list[tuple[str, str | None, str, str]]:
    """What the teacher can focus the class on: each problem's asked rows, then each concept item, as
    (problem or None, row, concept or None..., label): ``(problem, row, None, label)`` or ``(None, None, id, label)``."""
    found: list = [(p.id, token, None, item_label(p.id, token)) for p in problem_set.problems for token in p.asked_rows]
    return found + [(None, None, c.id, item_label(CONCEPTS, c.id)) for c in problem_set.concepts]


def projector_page(view: dict, *, title: str, student_url: str, kinds) -> str:
    """The projector's page (``view``: :meth:`attn_tutor.live.liveclass.LiveClass.projector_snapshot`): no
    name and no one's score; assets/projector.js draws it from its event stream."""
    return _page(
        "projector.html",
        title=t("live.projector_title", title=title),
        styles=PROJECTOR_STYLES,
        view=view,
        student_url=student_url,
        data=page.json_for_script({"messages": teacher_messages(kinds), "view": view}),
        scripts=PROJECTOR_SCRIPTS,
    )


def teacher_messages(kinds) -> dict[str, str]:
    """The teacher's and the projector's sentences, for a set of problems of ``kinds``."""
    return page_data.of_kinds(messages(("live.", "grading.verdict.", "grading.diagnosis_name.")), kinds)


def message_page(message: str) -> str:
    """A page of one sentence (a refused teacher's link, a page that is not there)."""
    return _page("message.html", title="attn-tutor", styles=("page.css",), message=message)


class MapRow(NamedTuple):
    """One row of the class's map: an item (``problem/row/stage``, or ``concepts/<id>``) and its name in
    the language spoken, each verdict's count, and each diagnosis's (code, name, count) or, for a concept
    item, each option's (label, count)."""

    key: str
    label: str
    concept: bool
    verdicts: list[tuple[str, int]]
    counts: list[tuple]


def map_rows(problem_set: ProblemSet, snapshot: dict) -> list[MapRow]:
    """The class's map (``data-map-*``): the problems' items, then each concept item's options
    (none for an order), right and wrong."""
    rows = []
    keys = item_keys(problem_set)
    for key in keys[: len(keys) - len(problem_set.concepts)]:  # the problems' items (the concept items' below)
        counts = snapshot["map"].get(key, {"verdicts": {}, "diagnoses": {}})
        problem, stage = key.split("/", 1)[0], key.rsplit("/", 1)[1]
        codes = STAGE_DIAGNOSES[Stage(stage)] if problem_set.get(problem).kind == "attention" else SAMPLING_STAGE_CODES[stage]
        diagnoses = [(code, diagnosis_name(code), counts["diagnoses"].get(code, 0)) for code in codes]
        rows.append(MapRow(key, map_label(key), False, [(v, counts["verdicts"].get(v, 0)) for v in MAP_VERDICTS], diagnoses))
    for concept in problem_set.concepts:
        key = f"concepts/{concept.id}"
        counts = snapshot["map"].get(key, {"verdicts": {}, "options": {}})
        labels = () if concept.kind == "order" else show(concept, problem_set, seed=None).labels
        options = [(label, counts.get("options", {}).get(label, 0)) for label in labels]
        rows.append(MapRow(key, map_label(key), True, [(v, counts["verdicts"].get(v, 0)) for v in MAP_VERDICTS], options))
    return rows
