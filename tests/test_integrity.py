"""Exams a teacher can trust (issue 9), each rule driven through the command line.

The teacher's problem set only; only regular files, under size caps; nothing
ambiguous passing silently; outputs that never clobber; output errors as sentences;
hand-sized problems; clean text.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tutor import files

FIXTURES = Path(__file__).parent / "fixtures" / "grade"
SET = FIXTURES / "set.yaml"
CLASS = FIXTURES / "class"
SECRET = "TOP-SECRET-4f1c"  # the contents of a file that is not a problem set
GOOD = (CLASS / "01-correct.yaml").read_text("utf-8")  # names ../set.yaml, all 8 items right


def flat(text: str) -> str:
    return " ".join(text.split())


def read_gradebook(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))


def answer(student: str, problem_set: str) -> str:
    return GOOD.replace('student: "김민지"', f"student: {student}").replace("problem_set: ../set.yaml", f"problem_set: {problem_set}")


def everything(result, *paths: Path) -> str:
    """All a user could read after a run: the terminal and every output file."""
    texts = [result.output, result.stderr]
    texts += [p.read_text("utf-8", "replace") for p in paths if p.exists()]
    return "\n".join(texts)


@pytest.fixture
def classroom(tmp_path, monkeypatch):
    """A teacher's directory: the set, an answers folder, and a secret file outside it."""
    room = tmp_path / "room"
    (room / "answers").mkdir(parents=True)
    shutil.copy(SET, room / "set.yaml")
    outside = tmp_path / "secret.yaml"
    outside.write_text(f"problems:\n  - id: x\n    tokens: [a]\n    Q: [[1]]\n    K: [[1]]\n    {SECRET}: 1\n", "utf-8")
    monkeypatch.chdir(room)
    return room


# --- 1. the teacher decides what marks each student ----------------------------------------


@pytest.mark.parametrize(
    "named",
    [
        "ABSOLUTE",  # an absolute path elsewhere
        "../../secret.yaml",  # ../ out of the working directory
        "LINK",  # a symlink inside that points out
        "/etc/shadow",
        "/dev/zero",
    ],
)
def test_a_problem_set_outside_the_working_directory_is_refused_and_never_read(run_cli, classroom, named):
    if named == "ABSOLUTE":
        named = str(classroom.parent / "secret.yaml")
    if named == "LINK":
        os.symlink(classroom.parent / "secret.yaml", classroom / "mine.yaml")
        named = "../mine.yaml"
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", named), "utf-8")
    (classroom / "answers" / "lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    out, report = classroom.parent / "book.csv", classroom.parent / "reports.json"
    start = time.monotonic()
    result = run_cli("grade", "answers", "--csv", str(out), "--json", str(report))
    assert time.monotonic() - start < 10
    assert result.exit_code == 1
    rows = {row["student"]: row for row in read_gradebook(out)}
    assert rows["kim"]["score"] == "" and "is neither a packaged set nor a file under" in rows["kim"]["errors"]
    assert rows["lee"]["score"] == "8" and rows["lee"]["problem_set"] == "set.yaml"
    assert SECRET not in everything(result, out, report)


def test_a_cheating_set_inside_the_directory_is_flagged_in_the_summary(run_cli, classroom):
    (classroom / "mine.yaml").write_text("problems:\n  - id: cat-fish\n    tokens: [먹었다]\n    Q: [[1]]\n    K: [[1]]\n    V: [[1]]\n", "utf-8")
    (classroom / "answers" / "kim.yaml").write_text(
        "student: kim\nproblem_set: ../mine.yaml\nanswers:\n  cat-fish:\n    먹었다: {scores: [1], scaled: [1], weights: [1], output: [1]}\n",
        "utf-8",
    )
    (classroom / "answers" / "lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    result = run_cli("grade", "answers", "--csv", "book.csv")
    assert result.exit_code == 1  # two sets for one class: the teacher must look
    text = flat(result.output)
    assert "the students were marked against 2 different problem sets:" in text
    assert "mine.yaml: kim" in text and "set.yaml: lee" in text
    rows = {row["student"]: row for row in read_gradebook(classroom / "book.csv")}
    assert (rows["kim"]["problem_set"], rows["lee"]["problem_set"]) == ("mine.yaml", "set.yaml")
    assert rows["kim"]["file"] == "answers/kim.yaml"


def test_problems_option_marks_everyone_against_it_and_flags_other_names(run_cli, classroom):
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", "../../secret.yaml"), "utf-8")
    (classroom / "answers" / "lee.yaml").write_text(answer("lee", "../set.yaml"), "utf-8")
    result = run_cli("grade", "answers", "--problems", "set.yaml", "--csv", "book.csv")
    assert result.exit_code == 1
    rows = {row["student"]: row for row in read_gradebook(classroom / "book.csv")}
    assert rows["kim"]["score"] == "8"  # marked against the teacher's set all the same
    assert "names the problem set '../../secret.yaml', but it was marked against --problems set.yaml" in rows["kim"]["errors"]
    assert rows["lee"]["errors"] == ""  # the same file, named another way
    assert SECRET not in everything(result, classroom / "book.csv")


def test_a_named_set_that_is_not_a_problem_set_quotes_nothing_from_it(run_cli, classroom):
    (classroom / "notes.yaml").write_text(f"{SECRET}: [1, 2]\npassword: {SECRET}\n", "utf-8")
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", "../notes.yaml"), "utf-8")
    result = run_cli("grade", "answers", "--csv", "book.csv", "--json", "r.json")
    assert result.exit_code == 1
    assert "this answer names is not a valid problem set, so nothing was marked; attn-tutor validate notes.yaml" in flat(result.stderr)
    assert SECRET not in everything(result, classroom / "book.csv", classroom / "r.json")


def test_a_named_set_that_does_not_exist_says_so(run_cli, classroom):
    (classroom / "answers" / "kim.yaml").write_text(answer("kim", "ch14"), "utf-8")
    result = run_cli("grade", "answers")
    assert result.exit_code == 1
    assert "the problem set 'ch14' this answer names does not exist (packaged sets: ch13" in flat(result.stderr)


def test_a_csv_without_a_problem_set_column_needs_the_option(run_cli, classroom):
    shutil.copy(FIXTURES / "class.csv", classroom / "answers" / "form.csv")
    result = run_cli("grade", "answers/form.csv")
    assert result.exit_code == 2
    assert "has no problem_set column; say which set marks it with --problems SET" in flat(result.stderr)
    assert run_cli("grade", "answers/form.csv", "--problems", "set.yaml").exit_code == 0


# --- 2. only regular files, each under a size cap ------------------------------------------


SPECIALS = {
    "fifo": ("pipe.yaml", "is a FIFO (a named pipe), not a regular file"),
    "dev-zero": ("/dev/zero", "is a device, not a regular file"),
    "link-to-dev-zero": ("zero.yaml", "is a device, not a regular file"),
    "directory": ("dir.yaml", "is a directory"),
}


def _special(tmp_path, kind) -> Path:
    name, _ = SPECIALS[kind]
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        return Path("/dev/zero")
    elif kind == "link-to-dev-zero":
        os.symlink("/dev/zero", path)
    else:
        path.mkdir()
    return path


@pytest.mark.parametrize("kind", sorted(SPECIALS))
@pytest.mark.parametrize("command", ["solve", "validate", "quiz", "export", "grade --problems"])
def test_a_special_file_as_problem_set_is_a_sentence_within_seconds(tmp_path, kind, command):
    path = _special(tmp_path, kind)
    if command == "grade --problems":
        (tmp_path / "a.yaml").write_text("student: a\n", "utf-8")
        args = ["grade", str(tmp_path / "a.yaml"), "--problems", str(path)]
    else:
        args = [command, str(path)]
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "attn_tutor", *args], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert time.monotonic() - start < 10
    assert result.returncode == 1, result.stderr
    assert SPECIALS[kind][1] in flat(result.stdout + result.stderr)
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "link-to-dev-zero"])
def test_a_special_file_as_answer_file_is_that_students_error(tmp_path, kind, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _special(tmp_path, kind)
    (tmp_path / "good.yaml").write_text(answer("lee", str(SET)), "utf-8")
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "attn_tutor", "grade", str(path), "good.yaml", "--problems", str(SET), "--csv", "book.csv"],
        capture_output=True, text=True, timeout=20, cwd=tmp_path,
    )  # fmt: skip
    assert time.monotonic() - start < 10
    assert result.returncode == 1
    assert SPECIALS[kind][1] in flat(result.stderr)
    assert "written to" not in result.stdout + result.stderr and not (tmp_path / "book.csv").exists()  # a refused file: no gradebook
    assert "nothing was written" in flat(result.stderr)


def test_a_fifo_inside_an_answer_directory_never_hangs(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "answers").mkdir()
    os.mkfifo(tmp_path / "answers" / "x.csv")
    (tmp_path / "answers" / "good.yaml").write_text(answer("lee", str(SET)), "utf-8")
    result = subprocess.run([sys.executable, "-m", "attn_tutor", "grade", "answers", "--problems", str(SET)], capture_output=True, text=True, timeout=20)
    assert result.returncode == 1 and "is a FIFO" in flat(result.stderr)


@pytest.mark.parametrize(
    ("what", "limit_name", "make"),
    [
        ("problem set", "MAX_PROBLEM_FILE_BYTES", lambda p: p.write_text("# " + "x" * 1_000_000 + "\n")),
        ("answer file", "MAX_ANSWER_FILE_BYTES", lambda p: p.write_text("student: a\n# " + "x" * 1_000_000 + "\n")),
    ],
)
def test_files_over_their_size_cap_are_refused_unread(run_cli, tmp_path, what, limit_name, make):
    path = tmp_path / "big.yaml"
    make(path)
    if what == "problem set":
        result = run_cli("validate", str(path))
        assert "the file is larger than the limit of 1,000,000 bytes; nothing was read from it" in flat(result.output)
    else:
        result = run_cli("grade", str(path), "--problems", str(SET), "--csv", str(tmp_path / "book.csv"))
        assert "the file is larger than the limit of 1,000,000 bytes" in flat(result.stderr)
        assert "written to" not in result.output and not (tmp_path / "book.csv").exists()
    assert result.exit_code == 1


def test_a_csv_over_its_cap_prints_no_written(run_cli, tmp_path, monkeypatch):
    from attn_tutor import model

    shutil.copy(FIXTURES / "class.csv", tmp_path / "form.csv")
    monkeypatch.setattr(model, "MAX_CSV_BYTES", 100)
    result = run_cli("grade", str(tmp_path / "form.csv"), "--problems", str(SET), "--csv", str(tmp_path / "book.csv"), "--json", str(tmp_path / "r.json"))
    assert result.exit_code == 1
    assert "larger than the limit of 100 bytes" in flat(result.stderr)
    assert "written to" not in result.output
    assert not (tmp_path / "book.csv").exists() and not (tmp_path / "r.json").exists()


def test_a_class_of_50000_in_one_csv_is_read_as_a_stream(tmp_path):
    from attn_tutor import gradebook, model

    header = "student,cat-fish/먹었다/scores\r\n"
    rows = "".join(f"s{i},1 6 4\r\n" for i in range(50_000))
    path = tmp_path / "class.csv"
    path.write_text(header + rows, "utf-8")
    assert path.stat().st_size < model.MAX_CSV_BYTES
    subs = gradebook.read_answer_file(path)
    assert len(subs) == 50_000 and subs[-1].student == "s49999" and subs[-1].line == 50_001
    assert not any(s.findings for s in subs[:: 5000])


# --- 3. nothing ambiguous passes silently --------------------------------------------------


def test_the_same_student_twice_marks_both_rows(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, tmp_path / "set.yaml")
    (tmp_path / "a.yaml").write_text(answer("김민지", "set.yaml"), "utf-8")
    (tmp_path / "form.csv").write_text("student,problem_set,cat-fish/먹었다/scores\r\n박서준,set.yaml,1 6 4\r\n김민지,set.yaml,1 6 4\r\n", "utf-8")
    result = run_cli("grade", "a.yaml", "form.csv", "--csv", "book.csv", "--json", "r.json")
    assert result.exit_code == 1
    assert "3 students marked; 2 with problems" in flat(result.output)
    reports = json.loads((tmp_path / "r.json").read_text("utf-8"))["students"]
    assert [len([e for e in s["errors"] if "appears more than once" in e]) for s in reports] == [1, 0, 1]
    rows = read_gradebook(tmp_path / "book.csv")
    kim = [row for row in rows if row["student"] == "김민지"]
    assert len(kim) == 2
    for row in kim:
        assert "the student '김민지' appears more than once: a.yaml, form.csv:3" in row["errors"]
    assert [row["errors"] for row in rows if row["student"] == "박서준"] == [""]


def test_an_unclosed_quote_in_a_csv_is_an_error_naming_its_line(run_cli, tmp_path):
    path = tmp_path / "form.csv"
    path.write_text('student,cat-fish/먹었다/scores\r\nkim,"1 6 4\r\nlee,1 6 4\r\npark,"1 6 4"\r\n', "utf-8")
    result = run_cli("grade", str(path), "--problems", str(SET))
    assert result.exit_code == 1
    assert f"{path}:2:2: the cell in column 2 runs over 3 lines (to line 4)" in flat(result.stderr)
    assert "a quote is probably not closed" in flat(result.stderr)


# --- 4. an exam never loses an answered item -----------------------------------------------

EAT = ["1 6 4", "0.71 4.24 2.83", "0.02 0.79 0.19", "0.21 0.98"]
EXAM = ["quiz", "ch13", "--problem", "cat-fish", "--exam"]


def test_quit_early_reports_every_item_and_the_whole_max_score(run_cli, tmp_path):
    report = tmp_path / "r.json"
    result = run_cli(*EXAM, "--report", str(report), input="1 6 4\n0.71 4.24 2.83\nq\n")
    assert result.exit_code == 0
    assert "Stopped after 3 of 8 questions. Score so far: 2 / 2" in result.output  # the score over what was answered
    saved = json.loads(report.read_text("utf-8"))
    assert (saved["score"], saved["max_score"], saved["finished"], len(saved["items"])) == (2, 8, False, 8)
    assert [i["verdict"] for i in saved["items"]] == ["correct", "correct"] + ["missing"] * 6


def test_a_finished_exam_says_so(run_cli, tmp_path):
    report = tmp_path / "r.json"
    lines = EAT + ["2 2 3", "1.414 1.414 2.121", "0.248 0.248 0.503", "0.752 0.752"]
    result = run_cli(*EXAM, "--report", str(report), input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    saved = json.loads(report.read_text("utf-8"))
    assert (saved["score"], saved["max_score"], saved["finished"]) == (8, 8, True)


def _wait_for_items(report: Path, answered: int, timeout: float = 15.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            saved = json.loads(report.read_text("utf-8"))
        except (OSError, ValueError):
            saved = None
        if saved and sum(i["verdict"] != "missing" for i in saved["items"]) >= answered:
            return saved
        time.sleep(0.05)
    raise AssertionError("the report never showed the answered items")


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_a_signal_mid_exam_leaves_a_complete_report(tmp_path, signum, status):
    report = tmp_path / "r.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "attn_tutor", *EXAM, "--report", str(report)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    process.stdin.write("1 6 4\n0.71 4.24 2.83\n")
    process.stdin.flush()
    _wait_for_items(report, 2)
    process.send_signal(signum)
    out, err = process.communicate(timeout=15)
    assert process.returncode == status, err
    assert "Traceback" not in err
    # the signal may come before the third question is put, or while it waits for an answer
    assert re.search(r"Interrupted after [23] of 8 questions\. Score so far: 2 / 2", out), out
    saved = json.loads(report.read_text("utf-8"))
    assert (saved["finished"], saved["score"], saved["max_score"], len(saved["items"])) == (False, 2, 8, 8)
    assert list(tmp_path.iterdir()) == [report]  # no temporary file left


def test_a_full_standard_output_does_not_lose_the_report(tmp_path):
    report = tmp_path / "r.json"
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "attn_tutor", *EXAM, "--report", str(report)],
            input="\n".join(EAT) + "\n", stdout=full, stderr=subprocess.PIPE, text=True, timeout=30,
        )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == ["error: cannot write to standard output: No space left on device; free some space, or send the output somewhere else"]
    saved = json.loads(report.read_text("utf-8"))
    assert [i["verdict"] for i in saved["items"]][:4] == ["correct"] * 4


# --- 5. outputs never clobber --------------------------------------------------------------


def _target(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "out.csv"
    if kind == "char device":
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # what /dev/null is
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        (tmp_path / "real.csv").write_text("keep me")
        os.symlink(tmp_path / "real.csv", path)
    elif kind == "directory":
        path.mkdir()
    return path


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root (CI runs as root)")
@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("char device", "is a device, FIFO or socket, not a regular file; --force replaces only regular files"),
        ("fifo", "is a device, FIFO or socket, not a regular file"),
        ("symlink", "is a symbolic link; --force replaces only regular files"),
        ("directory", "is a directory"),
    ],
)
@pytest.mark.parametrize("command", ["grade", "export", "generate", "quiz"])
def test_force_replaces_only_regular_files(run_cli, tmp_path, kind, message, command):
    target = _target(tmp_path, kind)
    before = os.lstat(target)
    args = {
        "grade": ["grade", str(CLASS / "01-correct.yaml"), "--csv", str(target)],
        "export": ["export", "-f", "html", "-o", str(target)],
        "generate": ["generate", "-o", str(target)],
        "quiz": ["quiz", "--report", str(target)],
    }[command]
    result = run_cli(*args, "--force", input="q\n")
    assert result.exit_code == 2
    assert message in flat(result.stderr)
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    if kind == "symlink":
        assert (tmp_path / "real.csv").read_text() == "keep me"


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444])
def test_a_replaced_file_keeps_its_permission_bits(run_cli, tmp_path, mode):
    out = tmp_path / "book.csv"
    out.write_text("old")
    out.chmod(mode)
    result = run_cli("grade", str(CLASS / "01-correct.yaml"), "--csv", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(out.stat().st_mode) == mode and out.read_bytes().startswith(b"\xef\xbb\xbfstudent")


def test_a_file_that_appears_while_working_is_never_overwritten(run_cli, tmp_path, monkeypatch):
    out = tmp_path / "sheet.html"

    def someone_else_writes(temp, target):
        Path(target).write_text("theirs")

    monkeypatch.setattr(files, "_before_link", someone_else_writes)
    result = run_cli("export", "-o", str(out))
    assert result.exit_code == 1
    assert "appeared while attn-tutor was working and was left as it is" in flat(result.stderr)
    assert out.read_text() == "theirs"
    assert sorted(os.listdir(tmp_path)) == ["sheet.html"]  # no temporary file left


@pytest.mark.parametrize(
    "case",
    ["grade answer dir", "grade named answer", "export problem file", "quiz problem file", "grade problems file"],
)
def test_an_output_that_is_an_input_is_refused_even_with_force(run_cli, tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "same").mkdir()
    (tmp_path / "same" / "good.yaml").write_text(answer("kim", str(SET)), "utf-8")
    shutil.copy(SET, tmp_path / "s.yaml")
    args, protected = {
        "grade answer dir": (["grade", "same", "--csv", "same/good.yaml"], "same/good.yaml"),
        "grade named answer": (["grade", "same/good.yaml", "--csv", "./same/../same/good.yaml"], "same/good.yaml"),
        "export problem file": (["export", "s.yaml", "-f", "md", "-o", "s.yaml"], "s.yaml"),
        "quiz problem file": (["quiz", "s.yaml", "--report", "s.yaml"], "s.yaml"),
        "grade problems file": (["grade", "same", "--problems", "s.yaml", "--json", "s.yaml"], "s.yaml"),
    }[case]
    before = (tmp_path / protected).read_bytes()
    result = run_cli(*args, "--force", input="q\n")
    assert result.exit_code == 2
    assert "being graded" in flat(result.stderr) or "is one of this command's inputs" in flat(result.stderr)
    assert (tmp_path / protected).read_bytes() == before


def test_sigterm_while_writing_removes_the_temporary_file(tmp_path):
    out = tmp_path / "sheet.html"
    code = (
        "import os, signal, sys\n"
        "from attn_tutor import files\n"
        "files._before_link = lambda temp, target: os.kill(os.getpid(), signal.SIGTERM)\n"
        "from attn_tutor.cli import main\n"
        f"sys.argv = ['attn-tutor', 'export', '-o', {str(out)!r}]\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert result.returncode == 143, result.stderr
    assert os.listdir(tmp_path) == []  # neither the sheet nor a temporary file


# --- 6. output errors are sentences --------------------------------------------------------


@pytest.mark.parametrize(
    ("shell", "message"),
    [
        ("{cmd} solve > /dev/full", "error: cannot write to standard output: No space left on device"),
        ("{cmd} solve >&-", "error: standard output is closed, so nothing could be shown"),
        ("{cmd} export -f md > /dev/full", "error: cannot write to standard output: No space left on device"),
        ("{cmd} solve --format json > /dev/full", "error: cannot write to standard output: No space left on device"),
        ("{cmd} generate >&-", "error: standard output is closed"),
        ("{cmd} export -f qti > /dev/full", "error: cannot write to standard output: No space left on device"),  # bytes
    ],
)
def test_output_errors_are_one_sentence(shell, message):
    cmd = f"{sys.executable} -m attn_tutor"
    result = subprocess.run(["bash", "-c", shell.format(cmd=cmd)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [result.stderr.strip()]  # one line
    assert result.stderr.startswith(message) and "Traceback" not in result.stderr


@pytest.mark.parametrize("encoding", ["cp949", "ascii", "latin-1"])
def test_a_non_utf8_output_encoding_gets_utf8_text(tmp_path, encoding):
    notes = tmp_path / "notes.txt"
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    with open(notes, "w") as out:
        result = subprocess.run([sys.executable, "-m", "attn_tutor", "solve", "--lang", "ko"], stdout=out, stderr=subprocess.PIPE, text=True, env=env, timeout=30)
    assert result.returncode == 0, result.stderr
    text = notes.read_bytes().decode("utf-8")  # UTF-8, whatever the console's encoding
    assert "13장 어텐션 손계산 문제집" in text and "√" in text


# --- 7. hand-sized problems ----------------------------------------------------------------


def _set(problem: str) -> str:
    return "problems:\n" + problem


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("13 tokens", _set("  - id: a\n    tokens: [" + ", ".join(f"t{i}" for i in range(13)) + "]\n    Q: [[1]]\n    K: [[1]]\n"),
         "tokens has 13 tokens; at most 12 are allowed (a hand-sized limit)"),
        ("d_k 9", _set("  - id: a\n    tokens: [x]\n    Q: [[" + ", ".join(["1"] * 9) + "]]\n    K: [[1]]\n"),
         "problems[0].Q is 1 × 9; a matrix has at most 12 rows and 8 numbers per row (hand-sized limits)"),
        ("5 heads", _set("  - id: a\n    tokens: [x]\n    heads:\n" + "      - {Q: [[1]], K: [[1]]}\n" * 5),
         "problems[0].heads has 5 heads; at most 4 are allowed (a hand-sized limit)"),
        ("entry 1e15", _set("  - id: a\n    tokens: [x]\n    Q: [[1e15]]\n    K: [[1e15]]\n"),
         "entries must lie between -1000000 and 1000000 (a hand-sized limit)"),
        ("5 decimals", _set("  - id: a\n    tokens: [x]\n    Q: [[0.00001]]\n    K: [[1]]\n"),
         "entries have at most 4 decimal places (a hand-sized limit)"),
        ("51 problems", _set("".join(f"  - {{id: p{i}, tokens: [x], Q: [[1]], K: [[1]]}}\n" for i in range(51))),
         "problems has 51 problems; at most 50 are allowed in one set (a hand-sized limit)"),
    ],
)
@pytest.mark.parametrize("command", ["validate", "solve", "quiz", "export"])
def test_every_command_refuses_beyond_the_limits_naming_them(run_cli, tmp_path, name, text, message, command):
    path = tmp_path / "big.yaml"
    path.write_text(text, "utf-8")
    result = run_cli(command, str(path), input="q\n")
    assert result.exit_code == 1
    assert message in flat(result.output + result.stderr)


def test_3000_tokens_are_refused_at_once(run_cli, tmp_path):
    tokens = [f"t{i}" for i in range(3000)]
    rows = "\n".join(f"      - [{i % 7}, {i % 5}]" for i in range(3000))
    path = tmp_path / "huge.yaml"
    path.write_text(f"problems:\n  - id: a\n    tokens: [{', '.join(tokens)}]\n    Q:\n{rows}\n    K:\n{rows}\n", "utf-8")
    start = time.monotonic()
    result = run_cli("solve", str(path))
    assert time.monotonic() - start < 5
    assert result.exit_code == 1
    found = flat(result.stderr)
    assert "has 3000 tokens; at most 12" in found and "is 3000 × 2; a matrix has at most 12 rows" in found
    assert len(result.stderr.splitlines()) <= 4  # a sentence per thing, not one per entry


@pytest.mark.parametrize(
    ("Q", "K", "decimals", "shown"),
    [
        ("[[1000000, 1000000]]", "[[1000000, 1000000]]", 0, "2000000000000"),  # 1e6×1e6 + 1e6×1e6, exact
        ("[[999999, 999999]]", "[[999999, -1]]", 0, "999997000002"),
        ("[[0.15, 0.25, 0.35]]", "[[0.3, 0.3, 0.3]]", 2, "0.23"),  # 0.225 exactly: half up, as by hand
        ("[[0.0625]]", "[[1]]", 3, "0.063"),
        ("[[123.4567, 0.0001]]", "[[765.4321, 9999.9999]]", 4, "94498.7211"),
    ],
)
def test_printed_scores_are_exact_within_the_limits(run_cli, tmp_path, Q, K, decimals, shown):
    from decimal import ROUND_HALF_UP, Decimal
    from fractions import Fraction

    path = tmp_path / "p.yaml"
    path.write_text(f"problems:\n  - id: a\n    tokens: [x]\n    Q: {Q}\n    K: {K}\n    decimals: {decimals}\n", "utf-8")
    result = run_cli("solve", str(path), "--stage", "scores")
    assert result.exit_code == 0, result.output
    q, k = json.loads(Q)[0], json.loads(K)[0]
    exact = sum(Fraction(str(a)) * Fraction(str(b)) for a, b in zip(q, k))
    by_hand = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
    assert f"{by_hand:f}" == shown
    assert f" {shown}" in result.output


# --- 8. text from files is clean -----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('title: "\\ec"', "title holds an invisible or control character (U+001B, character 1)"),
        ('title: "a\\e]0;owned\\a"', "title holds an invisible or control character (U+001B, character 2)"),
        ('title: "right\\u202eleft"', "title holds an invisible or control character (U+202E, character 6)"),
    ],
)
def test_control_characters_in_titles_are_refused_with_their_place(run_cli, tmp_path, line, message):
    path = tmp_path / "t.yaml"
    path.write_text(f"{line}\nproblems:\n  - {{id: a, tokens: [x], Q: [[1]], K: [[1]]}}\n", "utf-8")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:1:8: {message}" in flat(result.output)
    assert "\x1b" not in result.output


@pytest.mark.parametrize(("first", "second"), [("a", "a\\u200b"), ("\\u00e9", "e\\u0301"), ("b", "b\\ufeff")])
def test_tokens_that_look_the_same_are_refused(run_cli, tmp_path, first, second):
    path = tmp_path / "t.yaml"
    path.write_text(f'problems:\n  - id: a\n    tokens: ["{first}", "{second}"]\n    Q: [[1], [1]]\n    K: [[1], [1]]\n', "utf-8")
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    text = flat(result.output)
    assert "appears twice" in text or "invisible or control character" in text


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_renderers_never_pass_control_characters_on(fmt):
    from attn_tutor.document import Heading, Math, Paragraph, Table
    from attn_tutor.render import html, markdown

    hostile = "x\x1bc\x1b]0;owned\x07\u202e"
    blocks = [Heading(hostile, 1), Paragraph(hostile), Table((hostile, "b"), ((hostile, "1"),), title=hostile), Math((hostile,), title=hostile)]
    text = markdown.render(blocks) if fmt == "md" else html.render(blocks, title=hostile)
    assert not any(ch in text for ch in "\x1b\x07\u202e")
    assert "\\u001b" in text


def test_solve_json_large_allows_a_demonstration_and_streams_the_same_json(run_cli, tmp_path):
    n, d = 40, 20
    rows = lambda shift: "\n".join(f"      - [{', '.join(str((i * j + shift) % 7 - 3) for j in range(d))}]" for i in range(n))  # noqa: E731
    path = tmp_path / "demo.yaml"
    path.write_text(f"problems:\n  - id: demo\n    tokens: [{', '.join(f't{i}' for i in range(n))}]\n    Q:\n{rows(0)}\n    K:\n{rows(1)}\n    V:\n{rows(2)}\n", "utf-8")
    assert run_cli("solve", str(path), "-f", "json").exit_code == 1  # hand-sized by default
    result = run_cli("solve", str(path), "-f", "json", "--large")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["problems"][0]["weights"]) == n and len(data["problems"][0]["Q"][0]) == d
    refused = run_cli("solve", str(path), "--large")
    assert refused.exit_code == 2 and "--large is for --format json only" in flat(refused.stderr)


def test_streamed_json_is_one_json_dumps():
    from attn_tutor import engine
    from attn_tutor.problem_load import load_problem_set
    from attn_tutor.render import jsonout

    solutions = [engine.solve(p) for p in load_problem_set(None).problems]
    for chosen in (solutions, solutions[:1], []):
        whole = json.dumps({"problems": [jsonout.solution_dict(s) for s in chosen]}, ensure_ascii=False, indent=2) + "\n"
        assert jsonout.dumps(chosen) == whole


# hand-sized entries: up to 1e6 in size, up to 4 decimal places
hand_entry = st.integers(-(10**10), 10**10).map(lambda n: n / 10**4) | st.integers(-(10**6), 10**6).map(float)


@st.composite
def hand_problems(draw, projected: bool):
    from attn_tutor.model import Head, Problem

    n_q, n_k, d, d_in = (draw(st.integers(1, 4)) for _ in range(4))
    matrix = lambda rows, cols: tuple(tuple(draw(hand_entry) for _ in range(cols)) for _ in range(rows))  # noqa: E731
    if projected:
        X = matrix(n_q, d_in)
        head = Head(W_Q=matrix(d_in, d), W_K=matrix(d_in, d))
        return Problem("p", tuple(f"t{i}" for i in range(n_q)), (head,), X=X)
    head = Head(Q=matrix(n_q, d), K=matrix(n_k, d))
    return Problem("p", tuple(f"t{i}" for i in range(n_q)), (head,), key_tokens=tuple(f"k{i}" for i in range(n_k)))


def _exact_scores(problem):
    from fractions import Fraction

    head = problem.heads[0]
    exact = lambda m: [[Fraction(repr(v)) for v in row] for row in m]  # noqa: E731
    times = lambda a, b: [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]  # noqa: E731
    if head.projected:
        X = exact(problem.X)
        Q, K = times(X, exact(head.W_Q)), times(X, exact(head.W_K))
    else:
        Q, K = exact(head.Q), exact(head.K)
    return times(Q, [list(col) for col in zip(*K)])


@settings(max_examples=150)
@given(st.booleans().flatmap(hand_problems))
def test_every_score_is_the_float_nearest_the_exact_value(problem):
    from attn_tutor import engine

    solution = engine.solve(problem)
    expected = [[float(v) for v in row] for row in _exact_scores(problem)]
    assert solution.head.scores.tolist() == expected
