"""`attn-tutor grade` driven through the command line: the gradebook written, the summary shown, mistakes as sentences."""

from __future__ import annotations

import csv
import io
import json
import shutil

import pytest
from helpers.grading import grade
from helpers.output import flat
from helpers.paths import TESTS

FIXTURES = TESTS / "fixtures" / "grade"


SET = FIXTURES / "set.yaml"


CLASS = FIXTURES / "class"


BROKEN = FIXTURES / "broken"


def read_gradebook(data: bytes) -> list[dict[str, str]]:
    assert data.startswith("\ufeff".encode())  # a BOM, so Excel reads Korean as UTF-8
    text = data.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


# --- the command ---------------------------------------------------------------------------


def test_grade_command_writes_the_gradebook_and_shows_the_summary(run_cli, tmp_path):
    out, report = tmp_path / "book.csv", tmp_path / "book.json"
    result = run_cli("grade", str(CLASS), "--csv", str(out), "--json", str(report))
    assert result.exit_code == 0, result.output
    assert read_gradebook(out.read_bytes()) == read_gradebook(grade([CLASS]).csv)
    assert json.loads(report.read_text("utf-8"))["students"][0]["student"] == "김민지"
    for text in ("Class (13 students)", "Item analysis: cat-fish", "먹었다 · weights", "no e^x ×1", "Score distribution"):
        assert text in result.stdout
    bars = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines() if "%" in line and "█" in line}
    assert bars["30–40%"] == ["█" * 30, "7", "(53.8%)"]  # the tallest bar is full
    assert bars["90–100%"] == ["█" * 4 + "·" * 26, "1", "(7.7%)"]
    assert "all 13 students marked" in result.stdout
    assert f"gradebook written to {out}" in flat(result.stderr)  # where it wrote: on stderr, apart from the summary
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.csv", "book.json"]  # no temporary files left


def test_a_report_that_cannot_be_written_while_marking_is_a_sentence_and_leaves_nothing(run_cli, tmp_path, monkeypatch):
    # The reports go into the JSON file's own temporary file as the students are marked: a full disk
    # then is said as the JSON file's, as it would be at the end, and no file is left half-written.
    from attn_tutor.core import writing

    made = writing.AtomicFile.__init__

    class FullDisk:
        def __init__(self, stream):
            self.stream, self.writes = stream, 0

        def __getattr__(self, name):
            return getattr(self.stream, name)

        def write(self, data):
            self.writes += 1
            if self.writes > 1:  # the file's head goes in; the first report does not
                raise OSError(28, "No space left on device")
            return self.stream.write(data)

    def full_disk(self, path, **options):
        made(self, path, **options)
        self.stream = FullDisk(self.stream)

    monkeypatch.setattr(writing.AtomicFile, "__init__", full_disk)
    out, report = tmp_path / "book.csv", tmp_path / "book.json"
    result = run_cli("grade", str(CLASS), "--csv", str(out), "--json", str(report))
    assert result.exit_code == 1
    assert f"cannot write {report}" in flat(result.stderr) and "No space left on device" in flat(result.stderr)
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_grade_command_speaks_korean(run_cli):
    result = run_cli("grade", str(CLASS), "--lang", "ko")
    assert result.exit_code == 0, result.output
    for text in ("학급 (학생 13명)", "문항 분석: cat-fish", "점수 분포", "학생 13명 모두 채점했습니다"):
        assert text in result.stdout


def test_outputs_are_byte_identical_on_a_re_run(run_cli, tmp_path):
    outputs = []
    for attempt in range(2):
        out, report = tmp_path / f"{attempt}.csv", tmp_path / f"{attempt}.json"
        result = run_cli("grade", str(BROKEN), str(CLASS), "--csv", str(out), "--json", str(report))
        assert result.exit_code == 1
        outputs.append((out.read_bytes(), report.read_bytes()))
    assert outputs[0] == outputs[1]
    result = run_cli("grade", str(BROKEN), str(CLASS), "--csv", str(tmp_path / "0.csv"), "--force")
    assert (tmp_path / "0.csv").read_bytes() == outputs[0][0]


def test_nothing_is_overwritten_without_force(run_cli, tmp_path):
    out, report = tmp_path / "book.csv", tmp_path / "book.json"
    out.write_text("precious", "utf-8")
    result = run_cli("grade", str(CLASS), "--json", str(report), "--csv", str(out))
    assert result.exit_code == 2  # the command line must change: another file, or --force
    assert f"error: {out} already exists; add --force to overwrite it" in flat(result.stderr)
    assert out.read_text("utf-8") == "precious"
    assert not report.exists()  # checked before any work
    result = run_cli("grade", str(CLASS), "--csv", str(out), "--force")
    assert result.exit_code == 0 and out.read_bytes().startswith("\ufeffstudent,".encode())


def test_some_files_failing_gives_exit_1_and_a_gradebook_anyway(run_cli, tmp_path):
    out = tmp_path / "book.csv"
    result = run_cli("grade", str(BROKEN), "--csv", str(out))
    assert result.exit_code == 1
    assert "6 of 8 students marked; 6 with problems (listed above)" in result.stdout
    assert f"error: {BROKEN / 'b-bad-yaml.yaml'}:4:22: the '[' opened at line 4, column 13 is not closed" in flat(result.stderr)
    assert "Traceback" not in result.output
    assert len(read_gradebook(out.read_bytes())) == 8


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["grade", "nowhere"], 1, "nowhere does not exist"),
        (["grade", str(CLASS), "--problems", "nope.yaml"], 1, "nope.yaml"),
        (["grade", str(CLASS), "--csv", "same.out", "--json", "same.out"], 2, "--csv and --json name the same file"),
        (["grade", str(CLASS), "--csv", "no/such/dir/x.csv"], 2, "cannot write no/such/dir/x.csv: there is no directory"),
        (["grade", str(CLASS), "--follow-through", "most"], 2, "most"),
    ],
)
def test_command_line_mistakes_are_sentences(run_cli, tmp_path, monkeypatch, args, code, message):
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.exit_code == code
    assert message in flat(result.output)
    assert "Traceback" not in result.output


def test_no_answer_files_is_an_error(run_cli, tmp_path):
    result = run_cli("grade", str(tmp_path))
    assert result.exit_code == 1
    assert "no answer files (.yaml, .yml, .csv) found" in flat(result.stderr)


def test_follow_through_policy_changes_the_marks(run_cli, tmp_path):
    for policy, expected in (("full", "3"), ("half", "2"), ("none", "1")):
        out = tmp_path / f"{policy}.csv"
        result = run_cli("grade", str(CLASS / "02-not-scaled.yaml"), "--follow-through", policy, "--csv", str(out))
        assert result.exit_code == 0, result.output
        assert read_gradebook(out.read_bytes())[0]["score"] == expected


def test_problems_option_overrides_the_files_set(run_cli, tmp_path, monkeypatch):
    shutil.copy(CLASS / "01-correct.yaml", tmp_path / "a.yaml")  # names ../set.yaml, which is not there
    out = tmp_path / "book.csv"
    result = run_cli("grade", str(tmp_path / "a.yaml"), "--problems", str(SET), "--csv", str(out))
    assert result.exit_code == 1, result.output  # marked, and the other name flagged in its row
    row = read_gradebook(out.read_bytes())[0]
    assert row["score"] == "8"
    assert "names the problem set '../set.yaml', but it was marked against --problems" in row["errors"]
    monkeypatch.chdir(tmp_path)
    result = run_cli("grade", "a.yaml")
    assert result.exit_code == 1
    assert "a.yaml: problem_set '../set.yaml' is neither a packaged set nor a file under" in flat(result.stderr)


def test_grade_help_imports_neither_numpy_nor_yaml():
    from helpers.startup import imported_by

    heavy = imported_by("grade", "--help")
    assert "numpy" not in heavy and "yaml" not in heavy
