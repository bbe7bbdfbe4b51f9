"""Each student's JSON report, as ``grade --json`` writes it, is ``dumps(student.to_dict(lang))`` to the
byte, though each marked item's text is made once a run (rows typed alike share one marked item)."""

from __future__ import annotations

import dataclasses

import pytest

from attn_tutor.core.i18n import speaking
from attn_tutor.gradebook.rows import dumps, student_json, student_row
from tests.helpers.grading import grade
from tests.helpers.paths import GRADE


def a_class_with_concepts(folder):
    """Two students of ch13 who answered a concept item too (one rightly, one not), one with nothing."""
    for name, choice in (("ann", "A"), ("bob", "Z")):
        (folder / f"{name}.yaml").write_text(
            f"student: {name}\nproblem_set: ch13\nanswers:\n  cat-fish:\n    먹었다:\n      scores: [1, 6, 5]\n"
            f'concepts:\n  why-scale: "{choice}"\n',
            encoding="utf-8",
        )
    (folder / "cy.yaml").write_text("student: cy\nproblem_set: ch13\nanswers:\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_report_is_the_dict_dumped(lang, tmp_path):
    paths = [GRADE / "class", GRADE / "broken", GRADE / "class.csv", a_class_with_concepts(tmp_path)]
    graded = grade(paths, lang=lang)
    assert len(graded.rows) > 20
    assert any(s.report is None for s in graded.students) and any(s.report and s.report.concepts for s in graded.students)
    for row, student in zip(graded.rows, graded.students):
        with speaking(lang):
            assert row.json == dumps(student.to_dict()).encode("utf-8")


def test_an_item_met_again_is_written_from_its_text_and_a_stale_one_never():
    student = grade([GRADE / "class" / "02-not-scaled.yaml"]).students[0]
    first = student.report.items[0]
    texts: dict = {}
    assert student_json(student, texts) == dumps(student.to_dict()).encode("utf-8")
    assert texts[id(first)] == (first, dumps(first.to_dict()).encode("utf-8"))
    other = dataclasses.replace(first, points=0.125)
    texts[id(first)] = (other, dumps(other.to_dict()).encode("utf-8"))  # another item under the same id: not this one's text
    assert student_json(student, texts) == dumps(student.to_dict()).encode("utf-8")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_students_sharing_a_marked_item_share_its_entry_equal_to_a_fresh_one(lang, tmp_path):
    """A row's entry for an item (or concept item) the marker hands back to many students is made once
    a run, and it is the entry made afresh; one remembered under the same id for another item is never used."""
    students = grade([GRADE / "class", a_class_with_concepts(tmp_path)]).students
    marked = [s for s in students if s.report is not None]
    assert any(s.report.concepts for s in marked)
    entries: dict = {}
    with speaking(lang):
        shared = [student_row(s, entries=entries) for s in marked]
        fresh = [student_row(s) for s in marked]
    assert [row.items for row in shared] == [row.items for row in fresh]
    ids = [id(entry) for row in shared for entry in row.items]
    assert len(set(ids)) < len(ids)  # some students share an item, and so its entry
    first = marked[0].report.items[0]
    other = dataclasses.replace(first, points=0.125)
    entries[id(first)] = (other, ((first.problem, first.row, first.stage), 0.125, "stale", "wrong", None))
    with speaking(lang):
        assert student_row(marked[0], entries=entries).items == fresh[0].items


def test_students_who_chose_alike_share_one_concept_mark_equal_to_a_fresh_one(tmp_path):
    """A concept item left unanswered (or answered alike) is marked once a run and shared, and that
    shared result is the one marking it afresh gives."""
    from attn_tutor.marking.concepts import mark_result
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.solve.concepts import show_all

    graded = grade([a_class_with_concepts(tmp_path)])
    by_name = {s.student: s for s in graded.students}
    cy, ann = by_name["cy"].report.concepts, by_name["ann"].report.concepts
    unanswered = [c for c in ann if c.id != "why-scale"]
    assert unanswered and all(any(c is other for other in cy) for c in unanswered)
    shown = {s.id: s for s in show_all(load_problem_set("ch13"))}
    assert [mark_result(shown[c.id], None) for c in unanswered] == unanswered
