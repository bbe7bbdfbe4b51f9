"""solve shows a set's concept items with their answers: the terminal, Markdown and JSON."""

from __future__ import annotations

import json
import re

from attn_tutor.problems.load import load_problem_set


def test_the_json_carries_every_concept_item_per_the_contract(run_cli):
    result = run_cli("solve", "ch13", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    items = {item["id"]: item for item in data["concepts"]}
    assert len(items) == len(load_problem_set("ch13").concepts)
    for item in items.values():
        assert {"id", "kind", "stem", "options", "labels", "answer", "explanation"} <= set(item)
        assert item["labels"] == list("ABCDEFGHIJKL"[: len(item["options"])])
        assert set(item["answer"]) <= set(item["labels"])
    eat = items["eat-attends"]
    assert eat["options"][eat["labels"].index(eat["answer"][0])] == "생선을"  # 0.786, the chapter's number
    steps = items["steps"]
    assert [steps["options"][steps["labels"].index(label)] for label in steps["answer"]][0].startswith("the scores S = Q·Kᵀ")
    korean = {item["id"]: item for item in json.loads(run_cli("solve", "ch13", "--format", "json", "--lang", "ko").output)["concepts"]}
    steps = korean["steps"]  # the set's texts in both languages: each shows its own
    assert [steps["options"][steps["labels"].index(label)] for label in steps["answer"]][0].startswith("스코어 S = Q·Kᵀ")


def test_one_problem_in_json_leaves_the_concepts_out(run_cli):
    data = json.loads(run_cli("solve", "ch13", "--problem", "cat-fish", "--format", "json").output)
    assert "concepts" not in data


def test_a_variant_shuffles_the_options_and_its_answer_follows(run_cli):
    plain = {i["id"]: i for i in json.loads(run_cli("solve", "ch13", "--format", "json").output)["concepts"]}
    varied = {i["id"]: i for i in json.loads(run_cli("solve", "ch13", "--format", "json", "--variant", "42017").output)["concepts"]}
    moved = [key for key in plain if plain[key]["options"] != varied[key]["options"]]
    assert len(moved) >= len(plain) // 2
    for key, item in varied.items():
        if item["kind"] == "choice":
            right = {item["options"][item["labels"].index(label)] for label in item["answer"]}
            assert right == {plain[key]["options"][plain[key]["labels"].index(label)] for label in plain[key]["answer"]}


def test_the_terminal_shows_each_item_with_its_answer_and_the_misconceptions(run_cli):
    result = run_cli("solve", "ch13", "--all", "--lang", "en")
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "Concept items" in text
    assert "Why divide the scores by √d?" in text
    assert "Answer: A" in text
    assert "that is the Key: the Query is the one searching" in text  # a wrong option's feedback
    assert re.search(r"Answer, in order: [A-D] [A-D] [A-D] [A-D]", text)
    assert "The weights of '먹었다': 고양이가 0.023, 생선을 0.786, 먹었다 0.191." in text


def test_the_overview_names_the_concept_items_and_markdown_holds_them(run_cli):
    overview = run_cli("solve", "ch13", "--lang", "en")
    count = len(load_problem_set("ch13").concepts)
    assert f"--all shows the set's {count} concept items too, with their answers" in " ".join(overview.output.split())
    markdown = run_cli("solve", "ch13", "--format", "markdown", "--lang", "ko").output
    assert "## 개념 문항" in markdown
    assert "### 4. 왜 스코어를 √d로 나누나요?" in markdown
    assert "정답: A" in markdown
