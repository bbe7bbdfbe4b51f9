"""A hand-back sheet is the student's: a file name safe on every system, and no text meant for the teacher.

Through the command line: each student's name becomes a sheet file name that is never a Windows
device (``CON``, ``NUL``, ``CONIN$``… with any extension, any case, trailing dots or spaces), never
holds a separator or a control character, and is distinct from every other; a sheet names the file
as the student handed it in, never a folder of the teacher's machine, and gives no advice meant for
the teacher (an option, a command to run) — whatever went wrong with the student's file.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import unicodedata
from pathlib import Path

import pytest
from helpers.answers import answer
from helpers.language import in_language
from helpers.output import flat
from helpers.paths import SET
from hypothesis import given
from hypothesis import strategies as st

from attn_tutor.classroom.handback import file_names, is_device_name, safe_stem

DEVICES = ["CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10)), "CONIN$", "CONOUT$"]

# (a student's name, the sheet's file name)
NAMES = [
    ("CON", "_CON.html"),
    ("nul", "_nul.html"),
    ("CONIN$", "_CONIN$.html"),
    ("conout$", "_conout$.html"),
    ("Com1", "_Com1.html"),
    ("lpt9.txt", "_lpt9.txt.html"),
    ("AUX.tar.gz", "_AUX.tar.gz.html"),
    ("PRN.", "_PRN.html"),
    ("NUL  ", "_NUL.html"),
    ("CON .x", "_CON .x.html"),
    ("console", "console.html"),
    ("a/b", "a_b.html"),
    ("..\\..\\evil", "evil.html"),
    ("tab\there", "tab_here.html"),
    ("김민지", "김민지.html"),
]


@pytest.mark.parametrize(("student", "expected"), NAMES)
def test_a_sheet_file_name_is_never_a_device_nor_holds_a_separator(run_cli, tmp_path, monkeypatch, student, expected):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, "set.yaml")
    Path("answers").mkdir()
    Path("answers/a.yaml").write_text(answer(json.dumps(student), "../set.yaml"), "utf-8")  # a JSON string is YAML
    result = run_cli("grade", "answers", "--feedback", "sheets")
    assert result.exit_code == 0, result.output
    assert [p.name for p in Path("sheets").iterdir()] == [expected]


def test_sheet_names_are_distinct_however_the_names_differ(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SET, "set.yaml")
    Path("answers").mkdir()
    names = ["kim", "KIM", "kim.", "kim ", "k/im", "k_im", unicodedata.normalize("NFD", "김민지"), "김민지", "con", "CON"]
    for i, name in enumerate(names):
        Path(f"answers/{i:02}.yaml").write_text(answer(json.dumps(name), "../set.yaml"), "utf-8")
    result = run_cli("grade", "answers", "--feedback", "sheets")
    assert "appears more than once" in flat(result.output)  # same-looking names are flagged, and still get a sheet each
    written = sorted(p.name.casefold() for p in Path("sheets").iterdir())
    assert len(written) == len(names) == len(set(written))


@given(st.text(max_size=60))
def test_any_name_gives_a_safe_stem(name):
    stem = safe_stem(name)
    assert stem and len(stem.encode("utf-8")) <= 120
    assert not is_device_name(stem) and not is_device_name(stem + ".html")
    assert not re.search(r'[\x00-\x1f\x7f/\\:*?"<>|]', stem)
    assert not stem.startswith((".", "-")) and not stem.endswith((".", " "))


@given(st.lists(st.sampled_from([*DEVICES, "a", "A", "a.", "ａ", "con.txt"]), max_size=12))
def test_any_class_gives_distinct_names_none_a_device(names):
    given_names = file_names(names)
    assert len({unicodedata.normalize("NFC", n.casefold()) for n in given_names}) == len(names)
    assert not any(is_device_name(n) for n in given_names)


def test_every_device_name_is_one_in_any_case_with_any_extension():
    for device in DEVICES:
        for name in (device, device.lower(), device.title(), f"{device}.txt", f"{device} .a.b", f"{device}..", f"{device} "):
            assert is_device_name(name), name
    for name in ("CONSOLE", "COM", "LPT10", "NULL", "xCON", "CON-2"):
        assert not is_device_name(name), name


# --- no teacher-only text on a sheet -------------------------------------------------------


def _visible(page: str) -> str:
    page = re.sub(r"(?s)<style.*?</style>|<script.*?</script>", "", page)
    return flat(html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _outside(room: Path):
    (room.parent / "elsewhere.yaml").write_text(SET.read_text("utf-8"), "utf-8")
    return "kim.yaml", answer("kim", str(room.parent / "elsewhere.yaml")), [], "is not a set your teacher uses"


def _invalid(room: Path):
    (room / "broken.yaml").write_text("problems: []\n", "utf-8")
    return "kim.yaml", answer("kim", "../broken.yaml"), [], "is not a valid problem set"


def _overridden(room: Path):
    return "kim.yaml", answer("kim", "ch13"), ["--problems", str(room / "set.yaml")], "marked against the set your teacher chose"


def _broken_set(room: Path):
    return "kim.yaml", "problems:\n  - id: x\n", [], "an answer file writes its answers under 'answers:'"


def _unknown_key(room: Path):
    return "kim.yaml", "colour: blue\n" + answer("kim", "../set.yaml"), [], "kim.yaml:1:9: unknown key 'colour'"


def _refused(room: Path):
    return "kim.yaml", None, [], "kim.yaml: is a link to a file that does not exist"


def _internal(room: Path):
    return "kim.yaml", answer("kim", "../set.yaml"), [], "this file could not be marked; your teacher has been told why"


TEACHER_ONLY = {
    "a set outside the working directory": _outside,
    "a set that does not load": _invalid,
    "marked against --problems": _overridden,
    "problems: and no answers": _broken_set,
    "an unknown key": _unknown_key,
    "a link to nowhere": _refused,
    "attn-tutor itself failing": _internal,
}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("case", sorted(TEACHER_ONLY))
def test_a_sheet_shows_no_path_of_the_teachers_machine_and_no_advice_for_the_teacher(run_cli, tmp_path, monkeypatch, case, lang):
    room = tmp_path / "course"
    (room / "answers").mkdir(parents=True)
    shutil.copy(SET, room / "set.yaml")
    name, text, options, sentence = TEACHER_ONLY[case](room)
    if text is None:
        (room / "answers" / name).symlink_to(room / "nowhere.yaml")
    else:
        (room / "answers" / name).write_text(text, "utf-8")
    if case == "attn-tutor itself failing":
        from attn_tutor.gradebook import grader

        def breaks(self, sub):
            raise RuntimeError(f"boom in {room}")

        monkeypatch.setattr(grader.Grader, "mark", breaks)
    monkeypatch.chdir(room)
    result = run_cli("grade", str(room / "answers"), *options, "--feedback", str(room / "sheets"), "--lang", lang)
    assert result.exit_code == 1, result.output
    (sheet,) = (room / "sheets").iterdir()
    shown = _visible(sheet.read_text("utf-8"))
    assert str(tmp_path) not in shown  # no folder of the teacher's machine
    assert not re.search(r"(?<![\w-])--[a-z]", shown) and "attn-tutor" not in shown  # no option, no command to run
    if lang == "en":
        assert sentence in shown
    assert "kim.yaml" in shown  # the file as the student handed it in


# The catalogue's sentences that name an option, a command or the teacher's folder and never reach
# a sheet: said of a run or of a file with no student in it (a sheet is only for a named student).
NEVER_ON_A_SHEET = {
    "grade.csv_needs_problems": "a usage error, before any marking",
    "grade.left_out.gradebook": "a file with no student: a note after the summary",
    "grade.csv_no_variant_column": "a CSV header's problem: a row without a student",
    "grade.csv_no_student": "a CSV header's problem: a row without a student",
    "grade.csv_no_name_column": "a CSV header's problem: a row without a student",
    "grade.same_output": "a usage error, before any marking",
    "grade.layout_needs_csv": "a usage error, before any marking",
    "grade.roster_needs_layout": "a usage error, before any marking",
    "grade.assignment_empty": "a usage error, before any marking",
    "grade.assignment_unsafe": "a usage error, before any marking",
    "grade.jobs_capped": "a note to the teacher before any marking",
    "grade.jobs_capped_one": "a note to the teacher before any marking",
}


def test_every_teachers_sentence_in_the_catalogue_that_can_reach_a_sheet_has_a_students_form():
    from attn_tutor.core.i18n import has, keys, messages, text

    for key, english in in_language("en", messages, "").items():
        if not key.startswith(("grade.", "input.", "problems.")) or key.endswith(".sheet") or key in NEVER_ON_A_SHEET:
            continue
        teachers = re.search(r"(?<![\w-])--[a-z]", english) or "attn-tutor" in english or "{directory}" in english
        if teachers:
            assert has(f"{key}.sheet"), f"{key} can reach a student's sheet: give it a {key}.sheet sentence"
    for key in (k for k in keys() if k.endswith(".sheet")):
        for sentence in (in_language("en", text, key), in_language("ko", text, key)):
            assert not re.search(r"(?<![\w-])--[a-z]", sentence) and "attn-tutor" not in sentence and "{directory}" not in sentence, key
