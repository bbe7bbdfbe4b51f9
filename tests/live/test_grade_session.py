"""`grade SESSION.sqlite` (and a PostgreSQL URL) is `grade` of the answer files the students would have
handed in: each holding the text they typed last for each stage. Every output — the gradebook CSV,
the JSON, the Canvas and Moodle files of `--roster`, the hand-back sheets, the class report, what
the terminal shows — is the same bytes, but for the names of the sources (the session's
``s.sqlite#N`` against ``answers/NN.yaml``).

The session is built through the Store from the sample class (tests/fixtures/grade/class), with
a wrong attempt before some final answers and a student who joined and typed nothing; the answer
files are written independently, with PyYAML.
"""

from __future__ import annotations

import csv
import io
import shutil
import sqlite3
from pathlib import Path

import pytest
import yaml
from helpers.paths import TESTS

from attn_tutor.problems.load import load_path
from attn_tutor.sessions.opening import open_store
from attn_tutor.sessions.store import CONCEPT_STAGE, CONCEPTS, Mark

FIXTURES = TESTS / "fixtures" / "grade"
CANVAS = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Attention by hand (4242),Current Score\n"
    "    Points Possible,,,,,10.00,(read only)\n"
    '"김, 민지",101,20230001,minji.kim@uni.ac.kr,AI-01,,\n'
    '"박, 서준",102,20230002,seojun.park@uni.ac.kr,AI-01,,\n'
    '"Absent, Alex",104,20230004,alex@uni.ac.kr,AI-02,,\n'
)
MOODLE = (
    '"First name","Last name","ID number","Email address","Assignment: Attention by hand (Real)"\n'
    "민지,김,20230001,minji.kim@uni.ac.kr,\n"
    "서준,박,20230002,seojun.park@uni.ac.kr,\n"
    "Alex,Absent,20230004,alex@uni.ac.kr,\n"
)
# Concept items beside the sample set's problem (a choice, a computed choice, an order), and what
# the students chose, as typed (labels, lower case, numbers, brackets, a wrong order); a student
# whose number is a multiple of 4 chose nothing.
CONCEPTS_YAML = """
concepts:
  - id: why-scale
    stem: "Why divide the scores by the square root of d?"
    options:
      - text: "Large scores push softmax to one key."
        right: true
      - text: "To compute faster."
        feedback: "Speed has nothing to do with it."
      - text: "To make the weights sum to 1."
        feedback: "Softmax does that."
    explanation: "Without it softmax saturates."
  - id: eat-attends
    kind: computed
    problem: cat-fish
    row: 먹었다
    ask: most-attended
    stem: "Which key does 먹었다 attend to most?"
  - id: steps
    kind: order
    stem: "Put the steps in order."
    steps: ["S = QK^T", "divide by sqrt d", "softmax per row", "mix V"]
"""
CHOICES = [
    {"why-scale": "A", "eat-attends": "B", "steps": "A B C D"},
    {"why-scale": "b", "steps": "BADC"},
    {"why-scale": "(C)", "eat-attends": "1", "steps": "1 2 3 4"},
]


def typed(value) -> str | None:
    """A fixture's answer as a student types it on the page: numbers with spaces between."""
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    return value if isinstance(value, str) else None


def the_class() -> list[tuple[str, dict[str, dict[str, dict[str, str]]]]]:
    """(student, their final typed answers) of every sample file, in file order."""
    found = []
    for path in sorted((FIXTURES / "class").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        answers = {
            problem: {str(row): {stage: text for stage, value in stages.items() if (text := typed(value)) is not None} for row, stages in rows.items()}
            for problem, rows in (data.get("answers") or {}).items()
        }
        found.append((data["student"], answers))
    return found


@pytest.fixture
def graded_both(tmp_path, monkeypatch, run_cli, live_store_url):
    """The sample class as a session at ``live_store_url`` and as answer files in ``answers/``, under
    one folder with their problem set; ``grade(source, *options)`` runs grade there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "set.yaml").write_text((FIXTURES / "set.yaml").read_text(encoding="utf-8") + CONCEPTS_YAML, encoding="utf-8")
    problem_set = load_path(tmp_path / "set.yaml")
    students = the_class()
    assert len(students) >= 10
    (tmp_path / "answers").mkdir()
    with open_store(live_store_url, problem_set, create=True) as store:
        store.join("joined, typed nothing", "idle device")
        for number, (name, answers) in enumerate(students, start=1):
            student = store.join(name, f"device {number}")
            sends = 0
            for problem, rows in answers.items():
                for row, stages in rows.items():
                    for stage, text in stages.items():
                        if (number + sends) % 3 == 0:  # a first try, changed since
                            store.save(student.id, problem, row, stage, "9 9 9", f"try-{sends}", Mark("wrong"))
                            sends += 1
                        store.save(student.id, problem, row, stage, text, f"final-{sends}", Mark("correct", None, 1))
                        sends += 1
            chosen = CHOICES[number % 3] if number % 4 else {}
            for concept, text in chosen.items():
                if number % 2:  # a first choice, changed since
                    store.save(student.id, CONCEPTS, concept, CONCEPT_STAGE, "D", f"try-{sends}", Mark("wrong", "D", 0))
                store.save(student.id, CONCEPTS, concept, CONCEPT_STAGE, text, f"final-{sends}", Mark("correct", None, 1))
                sends += 1
            document = {"student": name, "problem_set": "../set.yaml", "answers": answers}
            if chosen:
                document["concepts"] = chosen
            (tmp_path / "answers" / f"{number:02}.yaml").write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    files = [f"answers/{number:02}.yaml" for number in range(1, len(students) + 1)]
    (tmp_path / "canvas.csv").write_text(CANVAS, encoding="utf-8")
    (tmp_path / "moodle.csv").write_text(MOODLE, encoding="utf-8")

    def grade(sources: list[str], *options: str) -> tuple[str, int, dict[str, bytes]]:
        out = tmp_path / "out"
        out.mkdir()
        result = run_cli("grade", *sources, *options)
        written = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        shutil.rmtree(out)
        return result.output, result.exit_code, written

    return grade, files, len(students)


def same_but_sources(session_text: str, files_text: str, session: str, count: int) -> tuple[str, str]:
    for number in range(count, 0, -1):  # #10 before #1
        session_text = session_text.replace(f"{session}#{number}", f"SOURCE-{number}")
        files_text = files_text.replace(f"answers/{number:02}.yaml", f"SOURCE-{number}")
    return session_text, files_text


OUTPUTS = {
    "gradebook, JSON, sheets and class report": (
        "--csv", "out/gradebook.csv", "--json", "out/reports.json", "--feedback", "out/sheets", "--class-report", "out/report.html"
    ),
    "canvas": ("--roster", "canvas.csv", "--csv-layout", "canvas", "--csv", "out/canvas-import.csv"),
    "moodle": ("--roster", "moodle.csv", "--csv-layout", "moodle", "--csv", "out/moodle-import.csv", "--json", "out/r.json"),
    "half follow-through, two workers": ("--follow-through", "half", "--jobs", "2", "--csv", "out/g.csv"),
}  # fmt: skip


@pytest.mark.parametrize("options", OUTPUTS.values(), ids=OUTPUTS.keys())
def test_grading_a_session_gives_every_output_its_answer_files_give(graded_both, live_store_url, options):
    grade, files, count = graded_both
    session = "s.sqlite" if not live_store_url.startswith("postgresql") else live_store_url
    if session == "s.sqlite":
        shutil.move(live_store_url, "s.sqlite")
    said_s, status_s, written_s = grade([session], *options)
    said_f, status_f, written_f = grade(files, *options)
    assert status_s == status_f
    assert sorted(written_s) == sorted(written_f) and written_f
    with open_store(session, None, create=False, readonly=True) as store:
        shown = store.where  # how the outputs name the session (a URL without its password)
    for name in written_f:
        one, other = same_but_sources(written_s[name].decode("utf-8"), written_f[name].decode("utf-8"), shown, count)
        assert one == other, name
    one, other = same_but_sources(said_s, said_f, shown, count)
    assert one == other
    assert "joined, typed nothing" not in said_s  # who typed nothing handed nothing in
    if "reports.json" in written_s:  # the concept choices were graded, not left out of both
        assert b'"concept": "why-scale", "kind": "choice", "chosen": ["A"]' in written_s["reports.json"]


def test_a_session_whose_set_file_changed_since_is_refused(graded_both, live_store_url, tmp_path):
    grade, _files, _count = graded_both
    (tmp_path / "set.yaml").write_text((tmp_path / "set.yaml").read_text(encoding="utf-8").replace("[1, 0", "[2, 0", 1), encoding="utf-8")
    said, status, written = grade([live_store_url], "--csv", "out/g.csv")
    assert status == 1 and not written
    assert "has changed since this session was made" in " ".join(said.split())


@pytest.mark.parametrize(
    "make, sentence",
    [
        (lambda path: path.write_text("student: kim\n", encoding="utf-8"), "this is not an attn-tutor session database"),
        (lambda path: sqlite3.connect(path).execute("CREATE TABLE t (a)").connection.commit(), "this is not an attn-tutor session database"),
        (lambda path: None, "there is no session here"),
    ],
    ids=["a text file", "another program's database", "nothing there"],
)
def test_grade_says_what_is_wrong_with_a_session_file_and_writes_nothing(run_cli, tmp_path, monkeypatch, make, sentence):
    monkeypatch.chdir(tmp_path)
    make(Path("class.sqlite"))
    result = run_cli("grade", "class.sqlite", "--csv", "g.csv")
    assert result.exit_code == 1
    assert f"class.sqlite: {sentence}" in " ".join(result.output.split())
    assert "Traceback" not in result.output and not Path("g.csv").exists()


@pytest.mark.parametrize(
    "move",
    [
        lambda old: old.rename(old.parent / "moved" / "set.yaml"),
        lambda old: (old.parent / "moved" / "set.yaml").write_text("# the teacher's copy, commented\n" + old.read_text(encoding="utf-8"), encoding="utf-8"),
    ],
    ids=["moved", "a commented copy"],
)
def test_grade_session_with_problems_naming_the_same_set_by_content_marks_it_as_its_own_and_exits_0(graded_both, live_store_url, tmp_path, move):
    grade, _files, count = graded_both
    said_before, status_before, written_before = grade([live_store_url], "--csv", "out/g.csv")
    assert status_before == 0, said_before
    (tmp_path / "moved").mkdir()
    move(tmp_path / "set.yaml")
    said, status, written = grade([live_store_url], "--problems", "moved/set.yaml", "--csv", "out/g.csv")
    assert status == 0, said
    assert "Error" not in said and "not the set" not in said
    assert written["g.csv"].decode("utf-8").count("\n") == written_before["g.csv"].decode("utf-8").count("\n") >= count
    assert marks_of(written["g.csv"]) == marks_of(written_before["g.csv"])


def marks_of(gradebook: bytes) -> list[dict]:
    """A gradebook's rows but the set's label (the same set by another path)."""
    rows = list(csv.DictReader(io.StringIO(gradebook.decode("utf-8-sig"))))
    assert rows and "problem_set" in rows[0]
    return [{k: v for k, v in row.items() if k != "problem_set"} for row in rows]


def test_grade_session_with_problems_naming_another_set_still_says_so_of_each_student(graded_both, live_store_url):
    grade, _files, count = graded_both
    said, status, _written = grade([live_store_url], "--problems", "ch13", "--csv", "out/g.csv")
    assert status == 1
    assert " ".join(said.split()).count("ch13") >= count


def test_a_session_whose_set_is_gone_is_said_once_not_of_every_student(graded_both, live_store_url, tmp_path):
    grade, _files, count = graded_both
    (tmp_path / "set.yaml").rename(tmp_path / "kept.yaml")
    said, status, written = grade([live_store_url], "--csv", "out/g.csv")
    flat = " ".join(said.split())
    assert status == 1 and not written
    assert flat.count("this session was made for is not there any more; name it with --problems") == 1, flat
    assert "#1" not in flat and "#2" not in flat
    said, status, _ = grade([live_store_url], "--problems", "kept.yaml", "--csv", "out/g.csv")
    assert status == 0, said
