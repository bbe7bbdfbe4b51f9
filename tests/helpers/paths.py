"""Where the tests' files are, from this checkout's ``tests/`` folder (never from the test file's own depth)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent  # the checkout: pyproject.toml, attn_tutor/, problems/, benchmarks/
PACKAGE = ROOT / "attn_tutor"
FIXTURES = TESTS / "fixtures"
GRADE = FIXTURES / "grade"  # a class's answer files: see tests/README.md
SET = GRADE / "set.yaml"
CLASS = GRADE / "class"
BROKEN = GRADE / "broken"
PUBLISHED = FIXTURES / "published"
GOLDEN = TESTS / "golden"
