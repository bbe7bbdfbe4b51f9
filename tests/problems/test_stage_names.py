"""`softmax` is another name for the weights stage: in `--stage`, in a set's `ask:` and in a form's CSV columns."""

from __future__ import annotations

import json


def test_softmax_is_another_name_for_the_weights_stage(run_cli):
    weights = run_cli("solve", "-p", "cat-fish", "--stage", "weights").output
    softmax = run_cli("solve", "-p", "cat-fish", "--stage", "softmax").output
    assert softmax == weights and "(d) Output" not in softmax and "(c) Attention weights" in softmax


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
