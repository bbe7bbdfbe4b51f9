"""The live class's two pages: the students' (the practice page, served) and the teacher's.

The students' page is :func:`attn_tutor.practice.page.render` with the server's scripts
(:class:`attn_tutor.practice.page.Served`): the same widget, the same ``data-*`` contract, a join
form and ``assets/live.js`` (sending each checked stage). An exam page carries no answers at all
(:func:`exam_data`): the server marks, and says how once the teacher closes the problem. The
teacher's page is built here: the counts, the class's map, the scores, the controls and the
student link's QR code; ``assets/teacher.js`` keeps it current. Every text is escaped; the only
data a script reads is JSON (``/api/state``, ``/teacher/api/map``) or a
``<script type="application/json">`` block.
"""

from __future__ import annotations

import copy
from html import escape
from importlib import resources

from attn_tutor.core.i18n import messages, t
from attn_tutor.core.model import ProblemSet, Stage
from attn_tutor.marking.marker import diagnosis_name
from attn_tutor.marking.mistakes import STAGE_DIAGNOSES
from attn_tutor.practice import data as page_data
from attn_tutor.practice import page
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
LIVE_ASSETS = ("live.js", "teacher.js", "live.css")
MAP_VERDICTS = ("correct", "follow_through", "partial", "wrong")  # what a saved answer can be (never "missing")
NAME_LIMIT = 80

# What an exam page leaves out: every number a student is asked for, and everything made from them.
_EXAM_PROBLEM_KEYS = ("output", "output_text", "hints", "hint_walk", "projection")
_EXAM_HEAD_KEYS = ("raw", "scores", "scaled", "weights", "output", "rows")
_EXAM_CONCEPT_KEYS = ("answer", "scores", "feedback", "explanation")  # a concept item keeps its stem, options and order


def asset(name: str) -> tuple[str, str] | None:
    """A file the pages load (``/assets/NAME``): its text and media type; None for any other name."""
    if name in page.SCRIPTS or name == page.STYLE:
        text = page.asset(name)
    elif name in LIVE_ASSETS:
        text = resources.files("attn_tutor.live").joinpath("assets", name).read_text(encoding="utf-8")
    else:
        return None
    return text, "text/css" if name.endswith(".css") else "text/javascript"


def item_keys(problem_set: ProblemSet) -> list[str]:
    """Every asked item as ``problem/row/stage``, in gradebook order, then each concept item as ``concepts/<id>``."""
    return [
        f"{p.id}/{token}/{stage}"
        for p in problem_set.problems
        for token in p.asked_rows
        for stage in (s.value for s in Stage)
        if stage in p.asked_stages
    ] + [f"concepts/{c.id}" for c in problem_set.concepts]


def live_messages(lang: str) -> dict[str, str]:
    return messages("live.", lang)


def practice_data(problem_set: ProblemSet, *, lang: str, set_name: str, title: str) -> dict:
    """The students' page data: the practice page's, with the live sentences."""
    data = page_data.page_data(make_sheets(problem_set), lang=lang, set_name=set_name, title=title)
    data["messages"].update(live_messages(lang))
    return data


def exam_data(data: dict) -> dict:
    """``data`` without the answers: what an exam page may carry (the givens, the shapes, the mask)."""
    stripped = copy.deepcopy(data)
    for variant in stripped["variants"]:
        for problem in variant["problems"]:
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


def solutions_html(problem_set: ProblemSet, lang: str) -> dict[str, str]:
    """Each problem's worked solution, as the answer key shows it (solve's layout, in HTML)."""
    found = {}
    for problem in problem_set.problems:
        rows = [problem.row_index(token) for token in problem.asked_rows]
        blocks = solution_blocks(engine.solve(problem), lang, rows=rows, explain_rows=True, bars=False)
        found[problem.id] = "\n".join(block_html(block) for block in blocks)
    return found


def title_of(problem_set: ProblemSet, lang: str) -> str:
    return sheet_title(problem_set, lang)


def student_page(data: dict, *, title: str, lang: str, mode: str, session_id: str) -> str:
    """The students' page (``data``: :func:`practice_data`, or :func:`exam_data` of it for an exam)."""
    notes = [f'<p class="note">{escape(t("live.student_note", lang))}</p>\n']
    if mode == "exam":
        notes.append(f'<p class="notice" data-exam-note>{escape(t("live.exam_note", lang))}</p>\n')
    header = (
        "".join(notes)
        + '<form id="join" class="join" data-join-form>\n'
        + f"<h2>{escape(t('live.join_title', lang))}</h2>\n"
        + '<p class="answer-line">'
        + f'<label for="join-name">{escape(t("live.join_name", lang))}</label> '
        + f'<input id="join-name" type="text" data-join-name autocomplete="name" maxlength="{NAME_LIMIT}" required> '
        + f'<button type="submit" data-join>{escape(t("live.join", lang))}</button></p>\n'
        + '<p id="join-error" class="error" aria-live="polite"></p>\n'
        + "</form>\n"
        + '<p id="live-status" data-live-status aria-live="polite"></p>\n'
    )
    served = page.Served(
        scripts=tuple(f"/assets/{name}" for name in STUDENT_SCRIPTS),
        styles=tuple(f"/assets/{name}" for name in STUDENT_STYLES),
        header=header,
        meta={"attn-session": session_id, "attn-mode": mode},
    )
    return page.render(data, title=title, lang=lang, served=served)


def _head(title: str, lang: str, scripts, styles) -> str:
    links = "".join(f'<link rel="stylesheet" href="/assets/{name}">\n' for name in styles)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{"ko" if lang == "ko" else "en"}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{page.SERVED_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{escape(title)}</title>\n{links}"
        "</head>\n"
    )


def teacher_page(problem_set: ProblemSet, snapshot: dict, *, title: str, lang: str, student_url: str) -> str:
    """The teacher's page as it is now (``snapshot``: the app's map payload); teacher.js keeps it current."""
    heading = t("live.teacher_title", lang, title=title)
    out = [_head(heading, lang, TEACHER_SCRIPTS, TEACHER_STYLES), '<body class="teacher">\n<main>\n<header class="page">\n']
    out.append(f"<h1>{escape(heading)}</h1>\n")
    out.append(f'<p class="notice">{escape(t("live.teacher_note", lang))}</p>\n')
    out.append(
        f'<p data-counts aria-live="polite">{escape(t("live.counts", lang, joined=snapshot["joined"], answered=snapshot["answered"]))}</p>\n'
    )
    out.append('<p id="teacher-status" aria-live="polite"></p>\n</header>\n')
    # the QR code, large, for the projector
    qr_label = t("live.qr_title", lang, url=student_url)
    out.append('<section class="qr" aria-labelledby="qr-title">\n')
    out.append(f'<h2 id="qr-title">{escape(qr_label)}</h2>\n')
    out.append(f'<img class="qr" src="/teacher/qr.svg" alt="{escape(qr_label)}" width="480" height="480">\n')
    out.append(f'<p class="url" data-student-url>{escape(student_url)}</p>\n</section>\n')
    out.append(_controls_html(problem_set, snapshot, lang))
    out.append(_map_html(problem_set, snapshot, lang))
    # the scores
    out.append('<section class="distribution" aria-labelledby="distribution-title">\n')
    out.append(
        f'<h2 id="distribution-title">{escape(t("live.distribution_title", lang))}</h2>\n<ul data-distribution aria-live="polite">\n'
    )
    for bin_ in snapshot["distribution"]:
        label = t("live.distribution_row", lang, low=bin_["low"], high=bin_["high"], count=bin_["count"])
        out.append(f'<li data-distribution-bin="{bin_["low"]}">{escape(label)}</li>\n')
    out.append("</ul>\n</section>\n")
    # names: on this page only
    out.append('<section class="roster" aria-labelledby="roster-title">\n')
    out.append(f'<h2 id="roster-title">{escape(t("live.roster_title", lang))}</h2>\n<div class="scroll"><table data-roster>\n<thead><tr>')
    out.append(f'<th scope="col">{escape(t("live.roster_name", lang))}</th><th scope="col">{escape(t("live.roster_answered", lang))}</th>')
    out.append(f'<th scope="col">{escape(t("live.roster_score", lang))}</th></tr></thead>\n<tbody>\n')
    for student in snapshot["students"]:
        out.append(
            f"<tr data-student><td>{escape(student['name'])}</td><td>{student['answered']}</td><td>{escape(student['score_text'])}</td></tr>\n"
        )
    out.append("</tbody>\n</table></div>\n</section>\n</main>\n")
    out.append(f'<script id="teacher-data" type="application/json">{page.json_for_script({"messages": teacher_messages(lang)})}</script>\n')
    out.append("".join(f'<script src="/assets/{name}"></script>\n' for name in TEACHER_SCRIPTS))
    out.append("</body>\n</html>\n")
    return "".join(out)


def teacher_messages(lang: str) -> dict[str, str]:
    return messages(("live.", "grading.verdict.", "grading.diagnosis_name."), lang)


def message_page(message: str, *, lang: str) -> str:
    """A page of one sentence (a refused teacher's link, a page that is not there)."""
    return (
        _head("attn-tutor", lang, (), ("page.css",))
        + f'<body>\n<main>\n<p class="error">{escape(message)}</p>\n</main>\n</body>\n</html>\n'
    )


def _controls_html(problem_set: ProblemSet, snapshot: dict, lang: str) -> str:
    """The controls: the mode, and each problem opened or closed, its solution shown or not."""
    out = []
    # controls
    out.append('<section class="controls" aria-labelledby="controls-title">\n')
    out.append(f'<h2 id="controls-title">{escape(t("live.controls_title", lang))}</h2>\n')
    mode = snapshot["mode"]
    other = "practice" if mode == "exam" else "exam"
    out.append(f'<p><span data-mode="{escape(mode)}">{escape(t(f"live.mode.{mode}", lang))}</span> ')
    out.append(f'<button type="button" data-control="mode" data-value="{other}">{escape(t(f"live.to_{other}", lang))}</button></p>\n')
    out.append('<ul class="problem-controls">\n')
    for p in problem_set.problems:
        state = snapshot["problems"][p.id]
        said = t("live.problem_open" if state["open"] else "live.problem_closed", lang, problem=p.id)
        toggle = t("live.close" if state["open"] else "live.open", lang, problem=p.id)
        reveal = t("live.unreveal" if state["revealed"] else "live.reveal", lang, problem=p.id)
        out.append(
            f'<li data-problem-control="{escape(p.id)}"><span data-problem-state>{escape(said)}</span> '
            f'<button type="button" data-control="open" data-problem="{escape(p.id)}" data-value="{str(not state["open"]).lower()}">{escape(toggle)}</button> '
            f'<button type="button" class="secondary" data-control="revealed" data-problem="{escape(p.id)}" '
            f'data-value="{str(not state["revealed"]).lower()}">{escape(reveal)}</button></li>\n'
        )
    if problem_set.concepts:  # the concept items open and close together
        is_open = snapshot["problems"][CONCEPTS]["open"]
        said = t("live.concepts_open" if is_open else "live.concepts_closed", lang)
        toggle = t("live.concepts_close" if is_open else "live.concepts_reopen", lang)
        out.append(
            f'<li data-problem-control="{CONCEPTS}"><span data-problem-state>{escape(said)}</span> '
            f'<button type="button" data-control="open" data-problem="{CONCEPTS}" data-value="{str(not is_open).lower()}">{escape(toggle)}</button></li>\n'
        )
    out.append("</ul>\n</section>\n")
    return "".join(out)


def _map_html(problem_set: ProblemSet, snapshot: dict, lang: str) -> str:
    """The class's map: per item, each verdict's count and each diagnosis's (``data-map-*``)."""
    out = []
    # the map
    out.append('<section class="map" aria-labelledby="map-title">\n')
    out.append(f'<h2 id="map-title">{escape(t("live.map_title", lang))}</h2>\n<div class="scroll">\n<table data-map>\n<thead><tr>')
    out.append(f'<th scope="col">{escape(t("live.map_item", lang))}</th>')
    for verdict in MAP_VERDICTS:
        out.append(f'<th scope="col">{escape(t(f"grading.verdict.{verdict}", lang))}</th>')
    out.append(f'<th scope="col">{escape(t("live.map_diagnoses", lang))}</th></tr></thead>\n<tbody aria-live="polite">\n')
    keys = item_keys(problem_set)
    for key in keys[: len(keys) - len(problem_set.concepts)]:  # the problems' items (the concept items' below)
        counts = snapshot["map"].get(key, {"verdicts": {}, "diagnoses": {}})
        stage = key.rsplit("/", 1)[1]
        out.append(f'<tr data-map-item="{escape(key)}"><th scope="row">{escape(key)}</th>')
        for verdict in MAP_VERDICTS:
            out.append(f'<td data-map-verdict="{verdict}">{counts["verdicts"].get(verdict, 0)}</td>')
        out.append('<td class="diagnoses"><ul>')
        for code in STAGE_DIAGNOSES[Stage(stage)]:
            n = counts["diagnoses"].get(code, 0)
            hidden = "" if n else " hidden"
            out.append(
                f'<li{hidden}><span class="label">{escape(diagnosis_name(code, lang))}</span> '
                f'<span data-map-diagnosis="{code}">{n}</span></li>'
            )
        out.append("</ul></td></tr>\n")
    for concept in problem_set.concepts:  # each label's count (not for an order), right and wrong
        key = f"concepts/{concept.id}"
        counts = snapshot["map"].get(key, {"verdicts": {}, "options": {}})
        out.append(f'<tr data-map-item="{escape(key)}" data-map-concept><th scope="row">{escape(key)}</th>')
        for verdict in MAP_VERDICTS:
            out.append(f'<td data-map-verdict="{verdict}">{counts["verdicts"].get(verdict, 0)}</td>')
        out.append('<td class="diagnoses options"><ul>')
        if concept.kind != "order":
            for label in show(concept, problem_set, seed=None).labels:
                n = counts.get("options", {}).get(label, 0)
                out.append(f'<li><span class="label">({label})</span> <span data-map-option="{label}">{n}</span></li>')
        out.append("</ul></td></tr>\n")
    out.append("</tbody>\n</table>\n</div>\n</section>\n")
    return "".join(out)
