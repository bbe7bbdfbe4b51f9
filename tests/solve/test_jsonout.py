"""`solve --format json` (attn_tutor.solve.jsonout): streamed as one json.dumps, and --large for a demonstration."""

from __future__ import annotations

import json

from helpers.output import flat


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
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.solve import engine, jsonout

    solutions = [engine.solve(p) for p in load_problem_set(None).problems]
    for chosen in (solutions, solutions[:1], []):
        whole = json.dumps({"problems": [jsonout.solution_dict(s) for s in chosen]}, ensure_ascii=False, indent=2) + "\n"
        assert jsonout.dumps(chosen) == whole
