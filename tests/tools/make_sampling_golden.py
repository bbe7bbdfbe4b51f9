"""Write tests/golden/sampling.json from the Python sampling engine (then review the diff).

    python tests/tools/make_sampling_golden.py     # rewrites tests/golden/sampling.json

The problems and what is recorded of each: tests/helpers/sampling_golden.py. The page's port,
attn_tutor/practice/assets/sampling.js, is held to these numbers in Chromium
(tests/e2e/test_sampling_browser.py). It writes tests/golden/sampling_marking.json too: typed
answers and the Python marker's verdicts, cells, diagnoses and points, which the marker's port
(practice/assets/sampling_marking.js) is held to (tests/e2e/test_sampling_page_browser.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the helpers package

from helpers import sampling_golden as g  # noqa: E402


def main() -> None:
    cases = g.cases()
    data = {
        "about": "Made by tests/tools/make_sampling_golden.py from attn_tutor/kinds/sampling/engine.py; see tests/helpers/sampling_golden.py.",
        "cases": cases,
    }
    # one case a line: a change to the engine shows in the diff as the cases it changed
    lines = ",\n".join(json.dumps(case, ensure_ascii=False, allow_nan=False) for case in data["cases"])
    sums = ",\n".join(json.dumps(case, allow_nan=False) for case in g.fsum_cases())
    g.CASES.write_text(
        f'{{"about": {json.dumps(data["about"])},\n"fsum": [\n{sums}\n],\n"cases": [\n{lines}\n]}}\n', encoding="utf-8"
    )
    print(f"wrote {g.CASES}: {len(cases)} cases, {sum(len(c['problem']['steps']) for c in cases)} steps")
    marked = g.marking_cases()
    problems = g.marking_problems(marked)
    for case in marked:
        case.pop("page", None)
    about = "Made by tests/tools/make_sampling_golden.py from attn_tutor/kinds/sampling/marking.py; see tests/helpers/sampling_golden.py."
    body = ",\n".join(json.dumps(case, ensure_ascii=False, allow_nan=False) for case in marked)
    shown = ",\n".join(json.dumps([k, v], ensure_ascii=False, allow_nan=False) for k, v in problems.items())
    g.MARKING_CASES.write_text(f'{{"about": {json.dumps(about)},\n"problems": [\n{shown}\n],\n"cases": [\n{body}\n]}}\n', encoding="utf-8")
    print(f"wrote {g.MARKING_CASES}: {len(marked)} cases of {len(problems)} problems")


if __name__ == "__main__":
    main()
