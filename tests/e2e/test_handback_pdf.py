"""Hand-back sheets as PDF, read back with pdftotext: the same marks as the HTML sheet, the same bytes each run."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.paths import TESTS

FIXTURES = TESTS / "fixtures" / "grade"
CLASS = FIXTURES / "class"

pytestmark = [pytest.mark.pdf, pytest.mark.cjk_font]  # a Korean sheet, read back with pdftotext


def pdf_text(path: Path) -> str:
    import subprocess

    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_pdf_sheets_have_the_same_marks_and_the_same_bytes_each_run(run_cli, tmp_path):
    made = []
    for n in (1, 2):
        out = tmp_path / f"pdf{n}"
        result = run_cli("grade", str(CLASS / "04-no-exp.yaml"), "--feedback", str(out), "--feedback-format", "pdf", "--lang", "ko")
        assert result.exit_code == 0, result.output
        made.append((out / "최도윤.pdf").read_bytes())
    assert made[0].startswith(b"%PDF-") and made[0] == made[1]  # no creation date: the same bytes
    seen = " ".join(pdf_text(tmp_path / "pdf1" / "최도윤.pdf").split())
    assert "최도윤: 채점 결과" in seen
    assert "(c) 어텐션 가중치 (행별 Softmax): 오답, 0 / 1점" in seen
    assert "0.091 0.545 0.364" in seen  # the row typed
    assert "e^x를 구하지 않고" in seen
    assert "e^0.707 / (e^0.707 + e^4.243 + e^2.828) = 2.028 / 88.538 = 0.023" in seen
