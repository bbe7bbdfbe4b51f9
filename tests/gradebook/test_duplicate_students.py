"""One student handed in twice is flagged, however the name's letters were encoded.

A name typed on macOS often arrives decomposed (NFD: 김 as ㄱ+ㅣ+ㅁ, é as e + ´) and
the same name typed elsewhere composed (NFC). They are the same student: both rows
get the error naming both places, in the library (``gradebook.run.grade_class``: the CSV and JSON it feeds) as in
the command (``attn-tutor grade``), the name shown composed.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import unicodedata

import pytest
from helpers.answers import answer
from helpers.grading import grade
from helpers.output import flat
from helpers.paths import SET
from hypothesis import given
from hypothesis import strategies as st

NFC, NFD = "NFC", "NFD"
NAMES = {"hangul": "김민지", "latin": "José Núñez"}
# (first file, second file): where the composed and the decomposed spelling are handed in
LAYOUTS = {
    "two YAML files": (("a.yaml", NFC), ("b.yaml", NFD)),
    "a YAML file and a CSV row": (("a.yaml", NFD), ("form.csv", NFC)),
}


def hand_in(tmp_path, name: str, layout) -> list[str]:
    """The answer files of ``layout`` for ``name``, each naming set.yaml beside it; their places as messages name them."""
    shutil.copy(SET, tmp_path / "set.yaml")
    places = []
    for file, form in layout:
        spelled = unicodedata.normalize(form, name)
        if file.endswith(".csv"):
            (tmp_path / file).write_text(f"student,problem_set,cat-fish/먹었다/scores\r\n{spelled},set.yaml,1 6 4\r\n", "utf-8")
            places.append(f"{file}:2")
        else:
            (tmp_path / file).write_text(answer(f'"{spelled}"', "set.yaml"), "utf-8")
            places.append(file)
    assert unicodedata.normalize(NFC, name) == name and unicodedata.normalize(NFD, name) != name  # two spellings
    return places


def said(name: str, places: list[str]) -> list[str]:
    return [f"{place}: the student '{name}' appears more than once: {', '.join(places)}" for place in places]


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", list(NAMES))
def test_the_grading_path_flags_one_name_in_nfc_and_nfd_as_the_same_student(tmp_path, monkeypatch, name, layout):
    monkeypatch.chdir(tmp_path)
    places = hand_in(tmp_path, NAMES[name], LAYOUTS[layout])
    book = grade([file for file, _form in LAYOUTS[layout]])
    assert len(book.students) == 2 and len(book.failed) == 2
    errors = [[e for e in student["errors"] if "appears more than once" in e] for student in book.reports]
    assert errors == [[message] for message in said(NAMES[name], places)]


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", list(NAMES))
def test_the_grade_command_flags_one_name_in_nfc_and_nfd_as_the_same_student(run_cli, tmp_path, monkeypatch, name, layout):
    monkeypatch.chdir(tmp_path)
    places = hand_in(tmp_path, NAMES[name], LAYOUTS[layout])
    files = [file for file, _form in LAYOUTS[layout]]
    result = run_cli("grade", *files, "--csv", "book.csv", "--json", "r.json")
    assert result.exit_code == 1
    assert "2 students marked; 2 with problems" in flat(result.output)
    messages = said(NAMES[name], places)
    for message in messages:
        assert f"error: {message}" in flat(result.stderr)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "book.csv").read_text("utf-8-sig"), newline="")))
    assert [row["errors"] for row in rows] == messages
    reports = json.loads((tmp_path / "r.json").read_text("utf-8"))["students"]
    assert [[e for e in report["errors"] if "appears more than once" in e] for report in reports] == [[m] for m in messages]


def test_two_different_students_are_not_flagged(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, tmp_path / "set.yaml")
    (tmp_path / "a.yaml").write_text(answer('"김민지"', "set.yaml"), "utf-8")
    (tmp_path / "b.yaml").write_text(answer('"김민재"', "set.yaml"), "utf-8")
    book = grade(["a.yaml", "b.yaml"])
    assert book.failed == []
    result = run_cli("grade", "a.yaml", "b.yaml")
    assert result.exit_code == 0, result.output
    assert "appears more than once" not in result.output


# --- found from 8-byte hashes, confirmed by the names themselves ------------------------------


def _reference_repeats(rows) -> tuple[dict, int]:
    """Who appears more than once, and the rows whose only error that is, with every name held whole."""
    from attn_tutor.gradebook.writing import student_key

    places: dict = {}
    clean: dict = {}
    for row in rows:
        name = student_key(row.cells[0])
        if name and not row.refused:
            places.setdefault(name, []).append(row.file)
            clean[name] = clean.get(name, 0) + (not row.errors)
    repeated = {name: where for name, where in places.items() if len(where) > 1}
    return repeated, sum(clean[name] for name in repeated)


STUDENTS = st.lists(
    st.tuples(
        st.sampled_from(["김민지", "김민지 ", "박서준", "Kim", "kim", "", None, unicodedata.normalize(NFD, "김민지")]),
        st.booleans(),  # an error of its own
        st.booleans(),  # refused whole
    ),
    max_size=25,
)


@given(STUDENTS, st.sampled_from(["real", "all collide", "two buckets"]))
def test_repeated_students_are_the_same_whether_or_not_their_names_hashes_collide(students, hashing):
    from attn_tutor.gradebook import writing
    from attn_tutor.gradebook.analysis import Tally
    from attn_tutor.gradebook.rows import StudentRow

    rows = [
        StudentRow(
            cells=(name, None, None, None, None), items=(), errors=("its own error",) if error else (), score=None, max_score=None,
            set_key=None, summary=(), json=json.dumps({"student": name, "errors": []}).encode(), file=f"f{i}.yaml", refused=refused,
        )  # fmt: skip
        for i, (name, error, refused) in enumerate(students)
    ]
    hashes = {"real": hash, "all collide": lambda name: 7, "two buckets": lambda name: len(name) % 2}[hashing]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(writing, "hash", hashes, raising=False)  # the writer's own lookups of hash()
        writer = writing.GradebookWriter(Tally(), csv_file=True, json_file=True)
        try:
            for row in rows:
                writer.add(row)
            repeated, newly_failed = _reference_repeats(rows)
            assert writer.repeated() == repeated and list(writer.repeated()) == list(repeated)  # first-seen order
            assert writer.newly_failed() == newly_failed
            out = io.BytesIO()
            writer.write_json(out)
            reports = json.loads(out.getvalue())["students"]
            flagged = [any("appears more than once" in e for e in report["errors"]) for report in reports]
            assert flagged == [writing.student_key(row.cells[0]) in repeated and not row.refused for row in rows]
            gradebook = list(csv.reader(io.StringIO(b"".join(_csv(writer)).decode("utf-8-sig"), newline="")))
            by_name = [writing.student_key(row.cells[0]) in repeated for row in rows]  # (with a refused file no gradebook is written)
            assert [("appears more than once" in line[-1]) for line in gradebook[1:]] == by_name
        finally:
            writer.close()


def _csv(writer) -> list[bytes]:
    out = io.BytesIO()
    writer.write_csv(out)
    return [out.getvalue()]


@given(st.lists(st.sampled_from(["kim", "lee", "park", "choi", "jung", "kang"]), max_size=6, unique=True))
def test_the_reports_written_straight_into_their_file_are_the_bytes_a_copy_makes(names):
    # `grade --json` puts each report into the JSON file's own temporary file as it comes and ends
    # that file in place; a class with no repeated student must read as the copy would (a test's
    # BytesIO, or a class with a repeat, gets the reports copied).
    import tempfile

    from attn_tutor.gradebook import writing
    from attn_tutor.gradebook.analysis import Tally
    from attn_tutor.gradebook.rows import StudentRow

    rows = [
        StudentRow(
            cells=(name, None, None, None, None), items=(), errors=(), score=None, max_score=None, set_key=None,
            summary=(), json=json.dumps({"student": name, "errors": [], "note": "한 줄"}, ensure_ascii=False).encode(), file=f"f{i}.yaml",
        )  # fmt: skip
        for i, name in enumerate(names)
    ]
    made = {}
    for how in ("copied", "in place"):
        writer = writing.GradebookWriter(Tally(), csv_file=False, json_file=True)
        own = tempfile.TemporaryFile()
        try:
            if how == "in place":
                writer.reports_to(own)
            for row in rows:
                writer.add(row)
            assert writer.in_place()
            out = own if how == "in place" else io.BytesIO()
            writer.write_json(out)
            out.seek(0)
            made[how] = out.read()
        finally:
            writer.close()
            own.close()
    assert made["in place"] == made["copied"]
    assert [report["student"] for report in json.loads(made["copied"])["students"]] == names
