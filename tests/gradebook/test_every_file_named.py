"""Every file in a graded folder is marked or named with why; the same problem set by any path is one set.

Through the command line: a folder holding one good answer file and one entry of each
kind. The good student is always marked and every output written; the other entry is
either its own row's error (exit status 1) or listed as "not marked" with why.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.output import flat
from helpers.paths import SET

from attn_tutor.problems.load import packaged_path

GRADEBOOK_HEAD = "student,variant,score,max_score,percent,p/r/scores points,p/r/scores diagnosis,problem_set,file,errors"


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8-sig"), newline="")))


def _write(text: str):
    return lambda path: path.write_text(text, "utf-8")


def _flow(path: Path) -> str:
    """A problem set as YAML's flow style writes it: ``{problems: [...], title: ...}``."""
    import yaml

    return yaml.safe_dump(yaml.safe_load(path.read_text("utf-8")), default_flow_style=True, allow_unicode=True)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _unreadable(path: Path) -> None:
    path.write_text(answer("kim", "../set.yaml"), "utf-8")
    path.chmod(0)  # root reads it anyway: the test's open refuses it below, as the system would


def _link_to_folder(path: Path) -> None:
    elsewhere = path.absolute().parent.parent / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.yaml").write_text(answer("x", "../set.yaml"), "utf-8")
    os.symlink(elsewhere, path)


def _sub_folder(path: Path) -> None:
    path.mkdir()
    (path / "park.yaml").write_text(answer("park", "../../set.yaml"), "utf-8")


# (entry's name, how it is made, what is said of it, its own row in the gradebook?, exit status)
ENTRIES = [
    ("set.yaml", lambda p: shutil.copy(SET, p), "not marked: answers/set.yaml (a problem set, not an answer file)", None, 0),
    ("kim.yaml", _write("student: kim\nproblems:\n  cat-fish:\n    먹었다:\n      scores: [1, 6, 4]\n"),
     "kim.yaml:3:3: 'problems:' is where a problem set lists its problems; an answer file writes its answers under 'answers:'", "kim", 1),
    ("kim.yaml", _write("student: kim\nproblems: [\n  cat-fish\n"), "kim.yaml:3:11: the '[' opened at line 2, column 11 is not closed", "kim", 1),
    ("flow-set.yaml", lambda p: p.write_text(_flow(SET), "utf-8"), "not marked: answers/flow-set.yaml (a problem set, not an answer file)", None, 0),
    ("quoted-set.yaml", lambda p: p.write_text(SET.read_text("utf-8").replace("\nproblems:", '\n"problems":'), "utf-8"),
     "not marked: answers/quoted-set.yaml (a problem set, not an answer file)", None, 0),
    ("flow-kim.yaml", _write("{student: kim, problems: {cat-fish: {먹었다: {scores: [1, 6, 4]}}}}\n"),
     "'problems:' is where a problem set lists its problems", "kim", 1),
    ("broken-set.yaml", _write("problems:\n  - id: x\n"),
     "like a problem set, but it does not load as one, so it was read as an answer file", "broken-set", 1),
    ("dangling.yaml", lambda p: os.symlink("nowhere.yaml", p), "dangling.yaml: is a link to a file that does not exist", "dangling", 1),
    ("loop.yaml", lambda p: os.symlink("loop.yaml", p), "loop.yaml: is a link that leads round in a loop", "loop", 1),
    ("pipe.csv", _fifo, "pipe.csv: is a FIFO (a named pipe), not a regular file", "pipe", 1),
    ("locked.yaml", _unreadable, "locked.yaml: cannot be read: Permission denied", "locked", 1),
    ("old.csv", _write(f"{GRADEBOOK_HEAD}\r\nx,,1,2,50,1,correct,ch13,x.yaml,\r\n"),
     "not marked: answers/old.csv (a gradebook attn-tutor wrote, not answers)", None, 0),
    ("form.csv", _write("student,max_score,percent,problem_set,cat-fish/먹었다/scores\r\nchoi,1,50,../set.yaml,1 6 4\r\n"),
     "answers/form.csv:1: not used: 'max_score', 'percent'", "choi", 0),
    ("notes.txt", _write("student: txt\n"), "not marked: answers/notes.txt (not a .yaml, .yml or .csv file)", None, 0),
    (".draft.yaml", _write(answer("draft", "../set.yaml")), "not marked: answers/.draft.yaml (hidden: its name starts with a dot)", None, 0),
    (".git", lambda p: p.mkdir(), "not marked: answers/.git (hidden: its name starts with a dot)", None, 0),
    ("more", _link_to_folder, "not marked: answers/more (a link to a folder, not followed", None, 0),
    ("sub", _sub_folder, "", "park", 0),
    ("hard.yaml", lambda p: os.link(p.parent / "lee.yaml", p), "not marked again: answers/lee.yaml (the same file as answers/hard.yaml, marked once)",
     None, 0),
    ("head.csv", _write("student,problem_set,cat-fish/먹었다/scores\r\n"), "not marked: answers/head.csv (a CSV with no student's row under its header)",
     None, 0),
    ("blank.csv", _write("student,problem_set,cat-fish/먹었다/scores\r\n,,\r\n\r\n"),
     "not marked: answers/blank.csv (a CSV with no student's row under its header)", None, 0),
    ("again.yaml", lambda p: os.symlink("lee.yaml", p), "not marked again: answers/lee.yaml (the same file as answers/again.yaml, marked once)", None, 0),
]


@pytest.mark.parametrize(("name", "make", "said", "own_row", "status"), ENTRIES, ids=[f"{e[0]}-{i}" for i, e in enumerate(ENTRIES)])
def test_every_entry_of_a_graded_folder_is_marked_or_named(run_cli, tmp_path, monkeypatch, name, make, said, own_row, status):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, "set.yaml")
    Path("answers").mkdir()
    Path("answers/lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    make(Path("answers", name))
    if name == "locked.yaml":
        from attn_tutor.core import reading

        real_open = os.open

        def refusing_open(path, *args, **kwargs):
            if os.fspath(path).endswith("locked.yaml"):
                raise PermissionError(13, "Permission denied")
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(reading.os, "open", refusing_open)
    result = run_cli("grade", "answers", "--csv", "book.csv", "--json", "r.json", "--class-report", "r.html")
    assert result.exit_code == status, result.output
    assert said in flat(result.output)
    rows = {row["student"]: row for row in _rows(Path("book.csv"))}
    assert rows["lee"]["score"] == "8"  # the rest of the class marked, every output written
    assert Path("r.json").exists() and Path("r.html").exists()
    assert set(rows) == {"lee"} | ({own_row} if own_row else set())
    assert "Traceback" not in result.output
    report = json.loads(Path("r.json").read_text("utf-8"))  # what the summary says of a file, the JSON says too
    messages = [note["message"] for note in report["not_marked"] + report["file_notes"]]
    assert any(said in message for message in messages) == (own_row is None and bool(said) or name == "form.csv")


# (the language, a file left out, its code, its sentence in the JSON)
JSON_NOTES = [
    ("en", "set.yaml", "problem_set", "not marked: answers/set.yaml (a problem set, not an answer file)"),
    ("ko", "set.yaml", "problem_set", "채점하지 않음: answers/set.yaml (답안 파일이 아니라 문제 세트입니다)"),
    ("en", "notes.txt", "not_answers", "not marked: answers/notes.txt (not a .yaml, .yml or .csv file)"),
    ("ko", ".draft.yaml", "hidden", "채점하지 않음: answers/.draft.yaml"),
]


@pytest.mark.parametrize(("lang", "name", "why", "message"), JSON_NOTES)
def test_the_json_report_names_every_file_left_out(run_cli, tmp_path, monkeypatch, lang, name, why, message):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, "set.yaml")
    Path("answers").mkdir()
    Path("answers/lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    shutil.copy(SET, Path("answers", name))
    result = run_cli("grade", "answers", "--json", "r.json", "--lang", lang)
    assert result.exit_code == 0, result.output
    [note] = json.loads(Path("r.json").read_text("utf-8"))["not_marked"]
    assert note["file"] == f"answers/{name}" and note["why"] == why and note["message"].startswith(message)


@pytest.mark.parametrize(("lang", "sentence"), [("en", "answers/zero.csv: the file is empty"), ("ko", "answers/zero.csv: 파일이 비어 있습니다")])
def test_an_empty_csv_in_a_folder_is_its_own_error_not_the_class(run_cli, tmp_path, monkeypatch, lang, sentence):
    monkeypatch.chdir(tmp_path)  # was: "has no problem_set column", exit 2, nobody marked
    shutil.copy(SET, "set.yaml")
    Path("answers").mkdir()
    Path("answers/lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    Path("answers/zero.csv").write_bytes(b"")
    result = run_cli("grade", "answers", "--csv", "book.csv", "--lang", lang)
    assert result.exit_code == 1, result.output
    assert sentence in flat(result.output)
    assert {row["student"]: row["score"] for row in _rows(Path("book.csv"))}["lee"] == "8"


def test_a_problem_set_named_on_the_command_line_is_read_as_answers(run_cli, tmp_path):
    shutil.copy(SET, tmp_path / "kim.yaml")
    result = run_cli("grade", str(tmp_path / "kim.yaml"), "--problems", str(SET))
    assert result.exit_code == 1
    assert "'problems:' is where a problem set lists its problems" in flat(result.output)


# --- the same problem set by another path ---------------------------------------------------


def _room(tmp_path: Path) -> Path:
    (tmp_path / "course" / "answers").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(SET, tmp_path / "course" / "set.yaml")
    os.symlink(tmp_path / "course" / "set.yaml", tmp_path / "course" / "link.yaml")
    shutil.copy(SET, tmp_path / "course" / "copy.yaml")
    changed = SET.read_text("utf-8").replace('title: "grade test set"', 'title: "another set"')
    (tmp_path / "course" / "other.yaml").write_text(changed, "utf-8")
    return tmp_path


# (the working directory, --problems, what the answer names, the same set?)
SAME_SET = [
    ("elsewhere", "../course/set.yaml", "../set.yaml", True),  # the case: the working directory elsewhere
    ("course", "set.yaml", "../set.yaml", True),
    ("course", "ABS", "../set.yaml", True),
    ("course", "set.yaml", "ABS", True),
    ("course", "link.yaml", "../set.yaml", True),  # a symlink to it
    ("course", "set.yaml", "../link.yaml", True),
    ("course", "set.yaml", "./.././set.yaml", True),
    ("course", "set.yaml", "../copy.yaml", True),  # the very same bytes
    ("course", "ch13", "PACKAGED", True),  # a packaged set and its own file
    ("course", "PACKAGED", "ch13", True),
    ("course", "set.yaml", "../other.yaml", False),
    ("course", "set.yaml", "ch13", False),
    ("elsewhere", "../course/set.yaml", "../missing.yaml", False),
]


@pytest.mark.parametrize(("cwd", "problems", "named", "same"), SAME_SET)
def test_a_problem_set_named_by_another_path_is_the_same_set(run_cli, tmp_path, monkeypatch, cwd, problems, named, same):
    room = _room(tmp_path)
    swap = {"ABS": str(room / "course" / "set.yaml"), "PACKAGED": str(packaged_path("ch13"))}
    problems, named = swap.get(problems, problems), swap.get(named, named)
    (room / "course" / "answers" / "lee.yaml").write_text(answer("lee", named), "utf-8")
    monkeypatch.chdir(room / cwd)
    answers = os.path.relpath(room / "course" / "answers")
    result = run_cli("grade", answers, "--problems", problems)
    flagged = "but it was marked against --problems" in flat(result.output)
    assert flagged is not same, result.output
    if same and problems != "ch13" and named != "ch13":
        assert result.exit_code == 0, result.output


def test_a_folder_that_cannot_be_read_is_an_error_and_the_rest_is_marked(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, "set.yaml")
    Path("answers/locked").mkdir(parents=True)
    Path("answers/lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    real_scandir = os.scandir

    def refusing(path="."):  # root lists any folder: refused as the system refuses anyone else
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    result = run_cli("grade", "answers", "--csv", "book.csv")
    assert result.exit_code == 1  # students may be in there
    assert "error: not marked: answers/locked (a folder that cannot be read: Permission denied)" in flat(result.output)
    assert [row["student"] for row in _rows(Path("book.csv"))] == ["lee"]


def test_a_folder_with_no_answer_file_names_what_it_holds(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("answers").mkdir()
    Path("answers/kim.txt").write_text("student: kim\n", "utf-8")
    shutil.copy(SET, "answers/set.yaml")
    result = run_cli("grade", "answers")
    assert result.exit_code == 1
    said = flat(result.output)
    assert "no student's answers were found: every file was left out" in said
    assert "not marked: answers/kim.txt (not a .yaml, .yml or .csv file)" in said
    assert "not marked: answers/set.yaml (a problem set, not an answer file)" in said
    Path("answers/set.yaml").unlink()
    result = run_cli("grade", "answers")
    assert result.exit_code == 1
    assert "no answer files (.yaml, .yml, .csv) found" in flat(result.output)
    assert "not marked: answers/kim.txt (not a .yaml, .yml or .csv file)" in flat(result.output)


def test_an_output_that_is_an_answer_file_by_another_name_is_refused(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, "set.yaml")
    Path("answers").mkdir()
    Path("answers/lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    os.link("answers/lee.yaml", "book.csv")  # the same file, outside the folder
    before = Path("answers/lee.yaml").read_bytes()
    result = run_cli("grade", "answers", "--csv", "book.csv", "--force")
    assert result.exit_code == 2
    assert "book.csv is one of this command's inputs" in flat(result.output)
    assert Path("answers/lee.yaml").read_bytes() == before


@pytest.mark.parametrize(
    ("cwd", "path", "files", "inputs"),
    [
        ("room", ".", ["cls/a.yaml", "cls/link.yaml", "cls/sub/c.yaml"], ["cls/sub/b.yaml", "cls/to_b.yaml"]),
        ("room", "./cls/", ["cls/a.yaml", "cls/link.yaml", "cls/sub/c.yaml"], ["cls/sub/b.yaml", "cls/to_b.yaml"]),
        ("room/cls", ".", ["a.yaml", "link.yaml", "sub/c.yaml"], ["sub/b.yaml", "to_b.yaml"]),
        ("room/cls/sub", "..", ["../a.yaml", "../link.yaml", "../sub/c.yaml"], ["../sub/b.yaml", "../to_b.yaml"]),
    ],
)
def test_a_folders_files_are_named_as_their_paths_and_known_by_their_real_paths(tmp_path, monkeypatch, cwd, path, files, inputs):
    """Each file in a graded folder is named as ``Path(folder, name)`` names it, wherever the run
    starts, and an input is left out under every name that leads to it (a link too), by its real path."""
    from attn_tutor.gradebook.answer_files import survey

    cls = tmp_path / "room" / "cls"
    (cls / "sub").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    for name in ("a.yaml", "sub/b.yaml", "sub/c.yaml"):
        (cls / name).write_text("student: x\n", encoding="utf-8")
    (tmp_path / "elsewhere" / "e.yaml").write_text("student: e\n", encoding="utf-8")
    (cls / "link.yaml").symlink_to(tmp_path / "elsewhere" / "e.yaml")
    (cls / "to_b.yaml").symlink_to("sub/b.yaml")
    monkeypatch.chdir(tmp_path / cwd)
    found = survey([Path(path)], exclude=[("--roster", cls / "sub" / "b.yaml")])
    assert [str(file) for file, _from_dir in found.files] == files
    assert sorted(note.file for note in found.left_out if note.key == "grade.left_out.input") == inputs
