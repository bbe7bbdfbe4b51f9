"""`attn-tutor list`, `show` and `validate`: what a set holds, the packaged YAML as written, and whether a set is valid."""

from __future__ import annotations

import json

from helpers.output import flat


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
    from attn_tutor.problems.load import packaged_path

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
