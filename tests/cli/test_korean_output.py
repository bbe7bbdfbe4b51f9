"""Korean where a Korean reader looks: no diagnosis code or English stage name in a summary or a gradebook,
labels that quote the token, sheets that talk about paper.
"""

from __future__ import annotations

import re

from helpers.paths import TESTS

from attn_tutor.marking.marker import DIAGNOSES

CLASS = TESTS / "fixtures" / "grade" / "class"


ENGLISH_STAGES = ("scores", "scaled", "weights", "output")


ENGLISH_VERDICTS = ("correct", "follow_through", "follow-through", "partial", "wrong", "missing")


def english_words(text: str) -> set[str]:
    """The diagnosis codes, English stage names and verdicts that appear in ``text`` as words."""
    words = set(re.findall(r"[A-Za-z_\-]+", text))
    return words & {*DIAGNOSES, *ENGLISH_STAGES, *ENGLISH_VERDICTS}


def test_a_korean_exam_summary_names_everything_in_korean(run_cli):
    # 먹었다 not scaled, then weights left out, a causal problem with the mask ignored — every kind of item
    typed = "1 6 4\n1 6 4\n0.1 0.2 0.7\n0.21 0.98\n2 2 3\n1.414 1.414 2.121\n0.2 0.2 0.6\n0.8 0.8\n"
    result = run_cli("quiz", "ch13", "--problem", "cat-fish", "--exam", "--lang", "ko", input=typed)
    assert result.exit_code == 0, result.output
    summary = result.output.split("결과")[-1]
    assert "오답 (√d로 안 나눔)" in summary
    assert "(b) 스케일된 스코어" in summary
    assert english_words(summary) == set(), summary
    # the exam's only feedback: the explanation sentence, once for the item it applies to
    assert summary.count("√d로 나누지 않았습니다: 스코어를 그대로 적었습니다.") == 1
    assert "틀린 이유" in summary


def test_a_korean_gradebook_and_grade_summary_name_everything_in_korean(run_cli, tmp_path):
    out = tmp_path / "book.csv"
    result = run_cli("grade", str(CLASS), "--csv", str(out), "--lang", "ko")
    assert result.exit_code == 0, result.output
    before_paths = result.stdout.split(str(tmp_path))[0]
    assert "√d로 안 나눔 ×1" in before_paths and "먹었다 · 가중치" in before_paths
    assert english_words(before_paths) == set(), before_paths
    lines = out.read_bytes().decode("utf-8-sig").splitlines()
    body = "\n".join(lines[1:])  # the header keeps the item ids (problem/row/stage), as answer CSVs name them
    assert "오답: √d로 안 나눔" in body and "오답: 너무 이른 반올림" in body
    assert english_words(body.replace("cat-fish", "")) == set(), body


def test_the_json_keeps_the_codes(run_cli, tmp_path):
    import json

    report = tmp_path / "r.json"
    result = run_cli("grade", str(CLASS), "--json", str(report), "--lang", "ko")
    assert result.exit_code == 0
    items = [item for student in json.loads(report.read_text("utf-8"))["students"] for item in student["report"]["items"]]
    assert {"not_scaled", "rounding"} <= {item["diagnosis"] for item in items}
    assert {item["verdict"] for item in items} <= {"correct", "follow_through", "partial", "wrong", "missing"}


def test_korean_labels_quote_the_token(run_cli):
    solved = run_cli("solve", "-p", "widget-meet-friend", "--lang", "ko").output
    assert "‘만났다’ 행의 시선" in solved and "만났다의" not in solved
    quizzed = run_cli("quiz", "-p", "cat-fish", "-r", "먹었다", "--lang", "ko", input="1 6 4\n0.707 4.243 2.828\n0.023 0.786 0.191\nq\n")
    assert "‘먹었다’ 행의 출력을 입력하세요" in quizzed.output and "먹었다의 출력" not in quizzed.output


def test_a_korean_sheet_talks_about_paper_and_keeps_words_whole(run_cli):
    sheet = run_cli("export", "--lang", "ko", "--variants", "1", "--seed", "2").output
    assert '<span class="label">변형 번호:</span>' in sheet and '<span class="label">variant:</span>' not in sheet
    assert "답안지의 변형 번호 칸에 2001을 옮겨 적으세요" in sheet
    assert "word-break: keep-all" in sheet  # 가중치 never breaks as 가 / 중치
    english = run_cli("export", "--variants", "1", "--seed", "2").output
    assert "Copy the variant number 2001 into the variant box of your answer sheet" in english
