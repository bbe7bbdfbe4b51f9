"""The terminal renderer: aligned tables, colour only when wanted, text from files shown safely."""

from __future__ import annotations

import io
import re

import pytest

from attn_tutor.render import terminal
from attn_tutor.render.blocks import Bar, Bars, Heading, Table, display_width


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("김민지", "김민지"),
        ("Kim\nJr", "Kim⏎Jr"),
        ("evil\x1b[2Jname", "evil\\x1b[2Jname"),
        ("bell\x07", "bell\\x07"),
        ("zero\u200bwidth", "zero\\u200bwidth"),
    ],
)
def test_control_characters_are_shown_not_obeyed(text, shown):
    assert terminal.visible(text) == shown


def test_table_columns_line_up_with_korean_labels():
    table = Table(("query \\ key", "고양이가", "생선을"), (("먹었다", "0.023", "0.786"), ("고양이가", "1", "10.5")))
    lines = terminal.table_lines(table)
    header, rule, *rows = [line for line in lines if line]
    assert {display_width(line) for line in (header, rule, *rows)} == {display_width(rule)}


def test_blank_tables_draw_boxes_and_masked_cells_stay_marked():
    table = Table(("", "a", "b"), (("x", "", "—"),), blank=True)
    body = terminal.table_lines(table)[2]
    assert terminal.BOX in body and "—" in body


def test_a_hostile_name_cannot_break_a_table_or_the_terminal(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    terminal.draw([Table(("student", "score"), (("a\nb\x1b[31m", "3"), ("c", "4")))])
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert len([line for line in out.splitlines() if line.strip()]) == 4  # header, rule, two rows


def test_no_colour_codes_with_no_color_even_on_a_forced_console(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert terminal.wants_colour(io.StringIO()) is False


def test_colour_when_forced(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    out = io.StringIO()
    terminal.draw([Heading("제목"), Bars("b", (Bar("생선을", 0.786, "78.6%"),))], terminal.console(file=out))
    assert "\x1b[" in out.getvalue() and "제목" in out.getvalue()


def test_a_pipe_gets_plain_text():
    assert terminal.wants_colour(io.StringIO()) is False


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


class _ReadOnce:
    """Rows that can be read again and again but not indexed or measured, as a spool's."""

    def __init__(self, rows) -> None:
        self.rows, self.readings = rows, 0

    def __iter__(self):
        self.readings += 1
        return iter(self.rows)


CLASS_ROWS = tuple((f"학생{i:03d}" if i % 7 else "Kim Jr", str(1000 + i % 3) if i % 2 else "", f"{i % 9}", "8", f"{i % 9 * 12.5:.1f}%", "" if i % 5 else "1") for i in range(40))


@pytest.mark.parametrize("width", [None, 100, 40, 24, 12])  # whole, whole, column groups, groups, a cell a line
def test_a_table_read_from_a_spool_draws_as_the_same_lines(width):
    header = ("student", "variant", "score", "max_score", "percent", "errors")
    whole = Table(header, CLASS_ROWS, title="class")
    spooled = _ReadOnce(CLASS_ROWS)
    assert terminal.table_lines(Table(header, spooled, title="class"), width=width) == terminal.table_lines(whole, width=width)
    assert spooled.readings <= 2 or width is not None  # where it fits: once to measure, once to draw


def test_draw_writes_a_long_table_as_the_same_text(monkeypatch, capsys):
    rows = tuple((f"s{i}", str(i)) for i in range(5000))  # more lines than one write holds
    blocks = [Heading("class"), Table(("student", "n"), rows), Bars("scores", (Bar("0–10%", 0.5, "1"),))]
    terminal.draw(blocks)
    drawn = capsys.readouterr().out
    expected = "\n".join(line for block in blocks for line in terminal.block_lines(block)) + "\n"
    assert drawn == expected
    terminal.draw([])
    assert capsys.readouterr().out == "\n"
