"""What a new student or teacher meets first: each point of issue 11, through the command line."""

from __future__ import annotations

import json
import re

import pytest

from attn_tutor.document import display_width

HANGUL = re.compile(r"[가-힣]")


def commands() -> list[str]:
    from attn_tutor.cli import app

    return sorted(info.name or info.callback.__name__ for info in app.registered_commands)


# --- Korean --help ----------------------------------------------------------------------


def help_texts(name: str | None, lang: str, monkeypatch) -> dict[str, str]:
    """Every help text of a command (or of the app) as the user sees it in ``lang``."""
    import typer.main

    monkeypatch.setenv("ATTN_TUTOR_LANG", lang)

    from attn_tutor.cli import app
    from attn_tutor.cli_help import LocalCommand

    group = typer.main.get_command(app)
    command = group if name is None else group.commands[name]
    assert isinstance(command, LocalCommand) or name is None, f"{name} is not a LocalCommand"
    ctx = command.make_context("attn-tutor", ["--help"], resilient_parsing=True)
    texts = {"": command.help or ""}
    for param in command.get_params(ctx):
        texts[param.name] = param.help or ""
    return texts


@pytest.mark.parametrize("name", [None, *commands()])
def test_every_command_and_option_has_help_in_korean_and_english(name, monkeypatch):
    english, korean = help_texts(name, "en", monkeypatch), help_texts(name, "ko", monkeypatch)
    assert english.keys() == korean.keys()
    for param, text in english.items():
        where = f"{name or 'attn-tutor'} {param or '(the command)'}"
        assert text and not text.startswith("help."), f"{where}: no help, or a key missing from attn_tutor/i18n.py"
        assert korean[param] != text, f"{where}: the Korean help is the English one; add a help.* key to i18n.py"
        assert HANGUL.search(korean[param]), f"{where}: no Hangul in the Korean help: {korean[param]!r}"


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["solve", "--help", "--lang", "ko"], {}),
        (["solve", "--lang=ko", "--help"], {}),
        (["solve", "--help"], {"ATTN_TUTOR_LANG": "ko"}),
        (["solve", "--help"], {"LANG": "ko_KR.UTF-8"}),
    ],
)
def test_help_follows_the_language_however_it_is_chosen(run_cli, args, env):
    result = run_cli(*args, env=env)
    assert result.exit_code == 0
    assert "이 id의 문제만" in result.output and "Only the problem with this id" not in result.output
    assert "옵션" in result.output  # the panel titles too


def test_the_app_help_lists_the_commands_in_korean(run_cli):
    result = run_cli("--help", env={"LANG": "ko_KR.UTF-8"})
    assert result.exit_code == 0
    assert "문제 세트의 문제 목록" in result.output and "명령" in result.output
    english = run_cli("--help")
    assert "List a problem set's problems" in english.output and "Commands" in english.output


# --- list, show, validate ch13 ----------------------------------------------------------


def flat(text: str) -> str:
    """Output with its line wrapping undone: every run of white space as one space."""
    return " ".join(text.split())


def test_list_shows_every_problem_with_its_ids_rows_and_stages(run_cli):
    result = run_cli("list", env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for problem_id in ("cat-fish", "widget-meet-friend", "practice-two-heads"):
        assert problem_id in result.output
    line = next(line for line in result.output.splitlines() if line.startswith(" cat-fish"))
    assert "고양이가 생선을 먹었다" in line and "먹었다 고양이가" in line  # tokens, then the asked rows
    assert "2 + 2 (2 heads)" in result.output
    assert "8 problems" in result.output and "attn-tutor solve --problem ID" in result.output


def test_list_as_json(run_cli):
    data = json.loads(run_cli("list", "ch13", "--format", "json").output)
    assert data["problem_set"] == "ch13"
    first = data["problems"][0]
    assert first == {
        "id": "cat-fish",
        "title": "고양이가 생선을 먹었다 — 본문 예제",
        "tokens": ["고양이가", "생선을", "먹었다"],
        "key_tokens": None,
        "d_k": 2,
        "heads": 1,
        "rows": ["먹었다", "고양이가"],
        "stages": ["scores", "scaled", "weights", "output"],
    }
    assert [p["id"] for p in data["problems"]][-1] == "practice-two-heads"
    assert {p["id"]: p["heads"] for p in data["problems"]}["practice-two-heads"] == 2


def test_list_in_korean_and_of_a_file(run_cli, tmp_path):
    path = tmp_path / "one.yaml"
    path.write_text("problems:\n  - id: a\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n", "utf-8")
    result = run_cli("list", str(path), "--lang", "ko")
    assert result.exit_code == 0
    assert "문제 1개" in result.output and "묻는 단계" in result.output
    assert f"attn-tutor solve {path} --problem ID" in flat(result.output)


def test_show_prints_the_packaged_yaml_verbatim_and_it_validates(run_cli, tmp_path):
    from attn_tutor.problem_load import packaged_path

    result = run_cli("show", "ch13")
    assert result.exit_code == 0
    assert result.stdout_bytes == packaged_path("ch13").read_bytes()  # comments and all
    assert "# 13장 어텐션 손계산" in result.output
    copy = tmp_path / "my-set.yaml"
    copy.write_bytes(result.stdout_bytes)
    checked = run_cli("validate", str(copy))
    assert checked.exit_code == 0 and "valid" in checked.output
    assert run_cli("solve", str(copy), "--all", "--format", "json").output == run_cli("solve", "ch13", "--format", "json").output


def test_show_of_an_unknown_set_names_the_sets_there_are(run_cli):
    result = run_cli("show", "ch99")
    assert result.exit_code == 1
    assert "no packaged problem set 'ch99'" in result.output and "ch13" in result.output


def test_validate_takes_a_packaged_name(run_cli):
    result = run_cli("validate", "ch13")
    assert result.exit_code == 0 and "ch13: valid" in result.output
    missing = run_cli("validate", "nothing-here")
    assert missing.exit_code == 1 and "no packaged problem set of that name" in missing.output


# --- the first solve --------------------------------------------------------------------


def test_the_first_solve_shows_the_chapters_example_then_how_to_see_the_rest(run_cli):
    result = run_cli("solve")
    assert result.exit_code == 0
    assert "cat-fish — 고양이가 생선을 먹었다" in result.output
    assert result.output.count("(a) Scores") == 1
    assert "The set's other 7 problems" in result.output
    for problem_id in ("widget-meet-friend", "practice-causal", "practice-two-heads"):
        assert re.search(rf"attn-tutor solve --problem {problem_id} +# ", result.output)
    assert "Every problem at once: attn-tutor solve --all" in result.output
    assert len(result.output.splitlines()) < 120  # not 640 lines


def test_solve_all_and_the_file_formats_give_every_problem(run_cli):
    every = run_cli("solve", "--all")
    assert every.output.count("(a) Scores") >= 8 and "The set's other" not in every.output
    assert len(json.loads(run_cli("solve", "--format", "json").output)["problems"]) == 8
    assert run_cli("solve", "--format", "markdown").output.count("practice-") >= 5


def test_solve_of_a_named_file_lists_its_commands_with_the_file(run_cli, tmp_path):
    from attn_tutor.problem_load import packaged_path

    copy = tmp_path / "mine.yaml"
    copy.write_bytes(packaged_path("ch13").read_bytes())
    result = run_cli("solve", str(copy))
    assert f"attn-tutor solve {copy} --problem widget-meet-friend" in flat(result.output)


def test_softmax_is_another_name_for_the_weights_stage(run_cli):
    weights = run_cli("solve", "-p", "cat-fish", "--stage", "weights").output
    softmax = run_cli("solve", "-p", "cat-fish", "--stage", "softmax").output
    assert softmax == weights and "(d) Output" not in softmax and "(c) Attention weights" in softmax


# --- one seed, one problem --------------------------------------------------------------


def quiz_givens(run_cli, *options: str) -> str:
    result = run_cli("quiz", "--random", *options, input="q\n")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    "options",
    [("--seed", "7"), ("--seed", "123456", "--tokens", "4", "--dim", "3"), ("--seed", "5", "--tokens", "5", "--causal")],
)
def test_one_seed_makes_one_problem_in_solve_quiz_and_generate(run_cli, tmp_path, options):
    from attn_tutor.problem_load import load_path

    generated = run_cli("generate", *options)
    assert generated.exit_code == 0
    path = tmp_path / "g.yaml"
    path.write_text(generated.stdout, "utf-8")
    (from_generate,) = load_path(path).problems
    solved = json.loads(run_cli("solve", "--random", *options, "--format", "json").stdout)["problems"][0]
    from_file = json.loads(run_cli("solve", str(path), "--format", "json").stdout)["problems"][0]
    assert solved == from_file  # the same tokens, matrices and every stage
    assert solved["id"] == from_generate.id
    quizzed = quiz_givens(run_cli, *options)
    assert from_generate.id in quizzed
    for token in from_generate.tokens:
        assert token in quizzed


def test_solve_random_prints_the_seed_to_replay_on_stderr(run_cli):
    result = run_cli("solve", "--random", "--seed", "42", "--format", "json")
    assert result.exit_code == 0
    assert "attn-tutor solve --random --tokens 3 --dim 2 --seed 42" in result.stderr
    json.loads(result.stdout)  # standard output stays pure JSON
    fresh = run_cli("solve", "--random")
    seed = re.search(r"--seed (\d+)", fresh.stderr).group(1)
    again = run_cli("solve", "--random", "--seed", seed)
    assert again.stdout == fresh.stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["solve", "--seed", "3"], 2, "go with --random"),
        (["solve", "--random", "ch13"], 2, "--random makes its own problem"),
        (["solve", "--random", "--all"], 2, "--random makes one problem"),
        (["solve", "--problem", "nope"], 1, "no problem with id 'nope'"),
        (["solve", "-p", "cat-fish", "--row", "개가"], 1, "has no query token '개가'"),
        (["solve", "--row", "개가"], 1, "no problem in ch13 has a query token '개가'"),
        (["solve", "missing.yaml"], 1, "missing.yaml"),
        (["grade", "nowhere"], 1, "nowhere does not exist"),
        (["solve", "--bogus"], 2, "--bogus"),
    ],
)
def test_missing_things_exit_1_malformed_usage_exits_2(run_cli, args, code, message):
    result = run_cli(*args)
    assert result.exit_code == code, result.output
    assert message in result.output


# --- the quiz shows the way -------------------------------------------------------------


def test_the_quiz_says_how_far_and_how_many_decimals(run_cli):
    result = run_cli("quiz", "-p", "cat-fish", input="1 6 4\nq\n")
    assert "(a) Scores S = Q·Kᵀ — question 1 of 8" in result.output
    assert "(b) Scaled scores S / √2 ≈ 1.414 — question 2 of 8" in result.output
    assert "Round to 3 decimal places." in result.output
    korean = run_cli("quiz", "-p", "cat-fish", "--lang", "ko", input="q\n")
    assert "8문제 중 1번째" in korean.output and "소수점 아래 3자리까지 반올림하세요" in flat(korean.output)


def test_a_stopped_quiz_scores_the_questions_answered(run_cli, tmp_path):
    report = tmp_path / "r.json"
    result = run_cli("quiz", "-p", "cat-fish", "--report", str(report), input="1 6 4\n1 2 3\nq\n")
    assert "Stopped after 3 of 8 questions. Score so far: 1 / 2" in result.output
    data = json.loads(report.read_text("utf-8"))
    assert [item["verdict"] for item in data["items"]][-1] == "missing"  # the report still lists it


# --- arithmetic that adds up ------------------------------------------------------------


def test_explain_marks_a_line_whose_shown_numbers_do_not_add_up(run_cli):
    result = run_cli("solve", "-p", "cat-fish", "-r", "고양이가", "--explain")
    assert "0.248×(1, 0) + 0.248×(0, 1) + 0.503×(1, 1) ≈ (0.752, 0.752)" in result.output
    assert "≈ : the result is worked from the unrounded values" in flat(result.output)
    assert "2 / √2 = 2 / 1.414 = 1.414" in result.output  # 2/1.414 = 1.41442: rounds to what is printed
    assert "3 / √2 = 3 / 1.414 ≈ 2.121" in result.output  # 3/1.414 = 2.12164 → 2.122, printed 2.121
    exact = run_cli("solve", "-p", "practice-d4", "--explain").output
    assert "≈ (" not in exact.split("output:")[0].split("scaling:")[0]  # √4 = 2: exact divisions stay "="


@pytest.mark.parametrize(
    ("shown", "exact", "sign"),
    [
        ("0.999", 1.0, "≈"),
        ("0.7515", 0.7515, "="),  # exactly half: half up on both sides
        ("0.7514999", 0.7515, "≈"),
        ("4.2426", 4.242640687, "="),
        ("2.1216", 2.1213203, "≈"),
    ],
)
def test_result_sign_is_one_rule(shown, exact, sign):
    from decimal import Decimal

    from attn_tutor.explain import result_sign

    assert result_sign(Decimal(shown), exact, 3) == sign


def test_the_answer_key_and_the_hint_use_the_same_note(run_cli):
    key = run_cli("export", "-f", "md", "--key-only").output
    assert "≈ (0.752, 0.752)" in key and "the result is worked from the unrounded values" in key
    # weights typed wrong: the hint works on the exact weights, shown rounded
    hint = run_cli("quiz", "-p", "cat-fish", "-r", "고양이가", input="2 2 3\n1.414 1.414 2.121\n0.2 0.2 0.6\n?\n?\nq\n")
    assert "0.248×1 + 0.248×0 + 0.503×1 ≈ 0.752" in hint.output
    assert "≈ : the result is worked from the unrounded values" in flat(hint.output)


# --- forms-friendly CSV -----------------------------------------------------------------


@pytest.mark.parametrize("column", ["student", "Name", "이름", "성명"])
def test_a_forms_csv_may_name_the_student_column_as_forms_do(run_cli, tmp_path, column):
    path = tmp_path / "form.csv"
    path.write_text(f"{column},cat-fish/먹었다/scores\r\n김민지,1 6 4\r\n", "utf-8-sig")
    result = run_cli("grade", str(path), "--problems", "ch13")
    assert result.exit_code == 0, result.output
    assert "김민지" in result.output and "1 student marked" in result.output
    assert "Class (1 student)" in result.output


def test_name_column_names_any_column(run_cli, tmp_path):
    path = tmp_path / "form.csv"
    path.write_text("타임스탬프,학번,cat-fish/먹었다/scores\r\n2026-03-02,20261234,1 6 4\r\n", "utf-8")
    result = run_cli("grade", str(path), "--problems", "ch13", "--name-column", "학번")
    assert result.exit_code == 0 and "20261234" in result.output
    wrong = run_cli("grade", str(path), "--problems", "ch13", "--name-column", "반")
    assert wrong.exit_code == 1 and "there is no column '반'" in wrong.output and "학번" in wrong.output


def test_a_header_problem_is_reported_once_with_its_column(run_cli, tmp_path):
    rows = "".join(f"학생{n},1 6 4,x\r\n" for n in range(30))
    path = tmp_path / "form.csv"
    path.write_text("이름,cat-fish/먹었다/scores,cat-fish/먹었다\r\n" + rows, "utf-8")
    result = run_cli("grade", str(path), "--problems", "ch13")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if "is not problem/row/stage" in line]
    assert errors == [f"error: {path}:1:3: column 'cat-fish/먹었다' is not problem/row/stage"]


# --- small things -----------------------------------------------------------------------


def test_commands_that_write_say_where_on_stderr(run_cli, tmp_path):
    sheet, practice, book = tmp_path / "s.html", tmp_path / "p.yaml", tmp_path / "b.csv"
    exported = run_cli("export", "-o", str(sheet))
    assert exported.stdout == "" and exported.stderr.strip() == f"written to {sheet}"
    generated = run_cli("generate", "--seed", "1", "-o", str(practice), "--lang", "ko")
    assert generated.stderr.strip() == f"{practice}에 저장했습니다"
    answers = tmp_path / "kim.yaml"
    answers.write_text("student: kim\nproblem_set: ch13\nanswers: {}\n", "utf-8")
    graded = run_cli("grade", str(answers), "--csv", str(book))
    assert f"gradebook written to {book}" in graded.stderr and "written" not in graded.stdout


# --- narrow terminals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "typed"),
    [
        (["solve", "-p", "cat-fish", "--explain"], None),
        (["solve", "-p", "practice-two-heads", "--explain"], None),
        (["solve", "-p", "widget-meet-friend", "--lang", "ko"], None),
        (["list"], None),
        (["quiz", "-p", "cat-fish", "-r", "먹었다"], "1 6 4\n0.71 4.24 2.83\n?\nq\n"),
        (["quiz", "-p", "practice-two-heads", "--exam", "--lang", "ko"], "1 2 3 4 5 6\nq\n"),
    ],
)
def test_at_60_columns_no_line_is_wider_than_the_screen(run_cli, args, typed):
    result = run_cli(*args, input=typed, env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    wide = [line for line in result.output.splitlines() if display_width(line) > 60]
    assert not wide, "\n".join(wide)


def test_a_narrow_table_keeps_every_cell(run_cli):
    wide = run_cli("solve", "-p", "cat-fish", "--stage", "weights", env={"COLUMNS": "100"}).output
    narrow = run_cli("solve", "-p", "cat-fish", "--stage", "weights", env={"COLUMNS": "34"}).output
    numbers = re.compile(r"\d+\.\d{3}")
    assert sorted(numbers.findall(narrow)) == sorted(numbers.findall(wide))


def test_softmax_names_the_weights_in_ask_and_in_csv_columns(run_cli, tmp_path):
    problem_set = tmp_path / "set.yaml"
    problem_set.write_text(
        "problems:\n  - id: a\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n    ask: [scores, softmax]\n",
        "utf-8",
    )
    listed = json.loads(run_cli("list", str(problem_set), "--format", "json").output)
    assert listed["problems"][0]["stages"] == ["scores", "weights"]
    answers = tmp_path / "form.csv"
    answers.write_text("이름,a/x/scores,a/x/softmax\r\n김민지,1 0,0.731 0.269\r\n", "utf-8")
    result = run_cli("grade", str(answers), "--problems", str(problem_set), "--json", str(tmp_path / "r.json"))
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    text = json.dumps(report, ensure_ascii=False)
    assert '"weights"' in text and '"correct"' in text
    twice = tmp_path / "twice.csv"
    twice.write_text("이름,a/x/weights,a/x/softmax\r\n김민지,0.731 0.269,0.731 0.269\r\n", "utf-8")
    assert "appears more than once" in run_cli("grade", str(twice), "--problems", str(problem_set)).output


# --- Korean that reads naturally --------------------------------------------------------

TOKEN_PLACEHOLDERS = ("token", "row", "keys")


def test_no_korean_message_glues_a_particle_to_a_token():
    """"친구를의 시선" came from "{token}의 시선": a token is quoted or followed by a noun (행), never a particle."""
    from attn_tutor.i18n import MESSAGES

    glued = re.compile(r"\{(" + "|".join(TOKEN_PLACEHOLDERS) + r")\}[의을를이가은는에와과로도만]")
    bad = {key: korean for key, (_english, korean) in MESSAGES.items() if glued.search(korean)}
    assert not bad, bad


def test_korean_labels_quote_the_token(run_cli):
    solved = run_cli("solve", "-p", "widget-meet-friend", "--lang", "ko").output
    assert "‘만났다’ 행의 시선" in solved and "만났다의" not in solved
    quizzed = run_cli("quiz", "-p", "cat-fish", "-r", "먹었다", "--lang", "ko", input="1 6 4\n0.707 4.243 2.828\n0.023 0.786 0.191\nq\n")
    assert "‘먹었다’ 행의 출력을 입력하세요" in quizzed.output and "먹었다의 출력" not in quizzed.output


def test_a_korean_sheet_talks_about_paper_and_keeps_words_whole(run_cli):
    sheet = run_cli("export", "--lang", "ko", "--variants", "1", "--seed", "2").output
    assert '<span class="label">변형 번호:</span>' in sheet and '<span class="label">variant:</span>' not in sheet
    assert "답안지의 변형 번호 칸에 2001을(를) 옮겨 적으세요" in sheet
    assert "word-break: keep-all" in sheet  # 가중치 never breaks as 가 / 중치
    english = run_cli("export", "--variants", "1", "--seed", "2").output
    assert "Copy the variant number 2001 into the variant box of your answer sheet" in english


def test_one_is_singular(run_cli, tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(
        "problems:\n"
        "  - id: a\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[1, 0], [0, 1]]\n    rows: [x]\n    ask: [scores]\n"
        "  - id: b\n    tokens: [x, y]\n    Q: [[1, 0], [0, 1]]\n    K: [[2, 0], [0, 1]]\n",
        "utf-8",
    )
    assert "The set's other problem" in run_cli("solve", str(path)).output
    stopped = run_cli("quiz", str(path), "-p", "a", input="q\n").output
    assert "Stopped before the only question. Score so far: 0 / 0" in stopped
    assert "2 problems" in run_cli("list", str(path)).output
