"""`attn-tutor export` and `generate` as a teacher uses them.

Every format is parsed back (HTML with html.parser, Markdown tables row by row,
LaTeX by its environments) rather than searched for strings.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pytest
from helpers.sheets import HOSTILE_HTML, HOSTILE_MD, HOSTILE_MORE, HOSTILE_TEX, export, hostile_set, write_set

from attn_tutor.core import model
from attn_tutor.export import worksheet
from attn_tutor.problems.load import load_problem_set
from attn_tutor.render import latex
from attn_tutor.variants import generate
from attn_tutor.variants import sheets as variant_sheets

# --- helpers -----------------------------------------------------------------------


class Page(HTMLParser):
    """The parts of an exported HTML file a reader sees: sheets, problems, tables, cells."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.sheets = 0
        self.problem: str | None = None
        self.tables: list[dict] = []  # {"problem", "sheet", "class", "caption", "rows": [[(tag, class, text)]]}
        self.fields: dict[str, str] = {}
        self.pres: list[str] = []
        self.style = ""
        self._text: list[str] | None = None
        self._where: str | None = None
        self._caption: str | None = None
        self._field_label: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        css = attrs.get("class") or ""
        if tag == "div" and "sheet" in css.split():
            self.sheets += 1
        if tag in ("h2", "figcaption", "th", "td", "pre", "style") or (tag == "span" and css in ("label", "value")):
            self._text, self._where = [], tag if tag != "span" else css
        if tag == "table":
            self.tables.append(
                {"problem": self.problem, "sheet": self.sheets, "class": css, "caption": self._caption, "rows": []}
            )
        if tag == "tr":
            self.tables[-1]["rows"].append([])
        if tag in ("th", "td"):
            self._cell = (tag, css)
        if tag == "figure":
            self._caption = None

    def handle_endtag(self, tag):
        if self._text is None:
            return
        text = "".join(self._text)
        where = self._where
        if where == "h2" and tag == "h2":
            self.problem = text.split(" — ")[0]
        elif where == "figcaption" and tag == "figcaption":
            self._caption = text
        elif where in ("th", "td") and tag == where:
            self.tables[-1]["rows"][-1].append((self._cell[0], self._cell[1], text))
        elif where == "pre" and tag == "pre":
            self.pres.append(text)
        elif where == "style" and tag == "style":
            self.style += text
        elif where == "label" and tag == "span":
            self._field_label = text.rstrip(":")
        elif where == "value" and tag == "span":
            self.fields[self._field_label or ""] = text
        else:
            return
        self._text = self._where = None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)


def parse_html(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    return page


def answer_tables(page: Page, problem: str, sheet: int | None = None, css: str = "answer") -> list[dict]:
    return [
        t
        for t in page.tables
        if t["problem"] == problem and css in t["class"].split() and (sheet is None or t["sheet"] == sheet)
    ]


def body_rows(table: dict) -> list[list[tuple[str, str, str]]]:
    return table["rows"][1:]


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every table as rows of cells, split on unescaped pipes (the separator row dropped)."""
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                continue
            if current is None:
                current = []
                tables.append(current)
            current.append(cells)
        else:
            current = None
    return tables


def tex_environments(text: str) -> list[str]:
    """The environments opened, checking every \\begin has its \\end in order."""
    stack, seen = [], []
    for kind, name in re.findall(r"\\(begin|end)\{([a-z*]+)\}", text):
        if kind == "begin":
            stack.append(name)
            seen.append(name)
        else:
            assert stack and stack[-1] == name, f"\\end{{{name}}} closes {stack[-1:]}"
            stack.pop()
    assert not stack, f"unclosed: {stack}"
    return seen


def tex_tabulars(text: str) -> list[list[str]]:
    """The rows of every tabular (cells split on unescaped &)."""
    result = []
    for body in re.findall(r"\\begin\{tabular\}\{[^\n]*\}\n(.*?)\\end\{tabular\}", text, re.S):
        rows = []
        for raw in body.split(r"\\"):
            raw = re.sub(r"\\(hline|toprule|midrule|bottomrule)", "", raw).strip()
            if raw:
                rows.append([c.strip() for c in re.split(r"(?<!\\)&", raw)])
        result.append(rows)
    return result


_UNTEX = sorted(((v, k) for k, v in latex._SPECIAL.items() if k not in "\n\t"), key=lambda p: -len(p[0]))


def untex(text: str) -> str:
    """Undo :func:`latex.escape` (what a reader of the PDF sees)."""
    out, i = [], 0
    while i < len(text):
        for escaped, plain in _UNTEX:
            if text.startswith(escaped, i):
                out.append(plain)
                i += len(escaped)
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


# --- HTML ----------------------------------------------------------------------------


def test_html_worksheet_has_an_empty_box_for_each_asked_row_and_stage(run_cli):
    page = parse_html(export(run_cli))
    tables = answer_tables(page, "cat-fish")
    assert [t["caption"].split(" ")[0] for t in tables] == ["(a)", "(b)", "(c)", "(d)"]
    for table in tables:
        assert [row[0][2] for row in body_rows(table)] == ["먹었다", "고양이가"]  # the asked rows, in order
        cells = [cell for row in body_rows(table) for cell in row[1:]]
        assert cells and all(cell == ("td", "box", "") for cell in cells)
    assert len(body_rows(tables[0])[0]) == 1 + 3  # a box per key
    assert len(body_rows(tables[3])[0]) == 1 + 2  # a box per output dimension
    # the givens are printed with their tokens
    given = [t for t in page.tables if t["problem"] == "cat-fish" and t["caption"] == "Given"][0]
    assert [r[0][2] for r in body_rows(given)] == ["고양이가", "생선을", "먹었다"]
    assert body_rows(given)[2][1][2] == "(1, 3)"


def test_html_key_fills_the_boxes_and_shows_the_arithmetic(run_cli):
    page = parse_html(export(run_cli, "--key-only"))
    tables = [t for t in page.tables if t["problem"] == "cat-fish"]
    weights = [t for t in tables if t["caption"].startswith("(c) Attention weights")][0]
    output = [t for t in tables if t["caption"].startswith("(d)")][0]
    assert [[c[2] for c in row] for row in body_rows(weights)][0] == ["먹었다", "0.023", "0.786", "0.191"]
    assert [[c[2] for c in row] for row in body_rows(output)] == [["먹었다", "0.214", "0.977"], ["고양이가", "0.752", "0.752"]]
    assert not any(cell[1] == "box" for t in page.tables for row in t["rows"] for cell in row)
    work = "\n".join(page.pres)
    assert "먹었다·생선을 = 1×0 + 3×2 = 6" in work
    assert "0.023×(1, 0) + 0.786×(0, 1) + 0.191×(1, 1) = (0.214, 0.977)" in work


def test_answers_puts_the_key_after_the_questions_on_a_new_page(run_cli):
    page = parse_html(export(run_cli, "--answers"))
    assert page.sheets == 2
    assert {t["sheet"] for t in page.tables if "answer" in t["class"].split()} == {1}
    assert any(t["sheet"] == 2 and t["caption"].startswith("(d)") for t in page.tables)


def test_html_is_self_contained_and_prints_cleanly(run_cli):
    text = export(run_cli, "--variants", "2", "--seed", "3", "--answers")
    page = parse_html(text)
    assert not [tag for tag, _ in page.tags if tag in ("script", "link", "img", "iframe", "object", "embed")]
    for _, attrs in page.tags:
        for name in ("src", "href", "srcset", "action"):
            assert name not in attrs
    assert "url(" not in page.style and "@import" not in page.style and "//" not in page.style
    csp = [a["content"] for tag, a in page.tags if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0]
    for rule in ("@page", "break-before: page", "break-inside: avoid", '"Noto Sans CJK KR"', '"Malgun Gothic"'):
        assert rule in page.style
    assert re.search(r"table\.answer td\.box \{[^}]*height: 1\dmm", page.style)  # room to write
    assert re.search(r"table\.answer th, table\.answer td \{ border: 1\.5pt solid #000", page.style)
    assert page.sheets == 4  # two sheets, two keys


@pytest.mark.parametrize("token", [HOSTILE_HTML, "&amp; \"'", HOSTILE_MORE])
def test_html_prints_hostile_text_as_text(run_cli, tmp_path, token):
    page = parse_html(export(run_cli, write_set(tmp_path, hostile_set(token)), "--answers"))
    assert not [tag for tag, _ in page.tags if tag == "script"]
    heads = [row[0][2] for t in page.tables for row in body_rows(t)]
    assert token in heads
    assert page.problem == "hostile"


# --- Markdown ------------------------------------------------------------------------


def test_markdown_tables_have_every_row_and_a_blank_cell_per_box(run_cli):
    tables = markdown_tables(export(run_cli, "--format", "md", "--answers"))
    scores = [t for t in tables if t[0][0] == "query \\\\ key"]
    blank, filled = scores[0], [t for t in scores if t[1][1] not in ("&nbsp;" * 8,)][0]
    assert [row[0] for row in blank[1:]] == ["**먹었다**", "**고양이가**"]
    assert all(cell == "&nbsp;" * 8 for row in blank[1:] for cell in row[1:])
    assert filled[1:] == [["**먹었다**", "1", "6", "4"], ["**고양이가**", "2", "2", "3"]]  # the key: cat-fish's scores
    for table in tables:
        assert {len(row) for row in table} == {len(table[0])}


def test_markdown_pipe_in_a_token_does_not_break_the_table(run_cli, tmp_path):
    text = export(run_cli, write_set(tmp_path, hostile_set(HOSTILE_MD, "x`y")), "-f", "md", "--answers")
    tables = markdown_tables(text)
    assert len(tables) >= 8
    for table in tables:
        assert {len(row) for row in table} == {len(table[0])}
    assert any(row[0] == "**a\\|b**" for table in tables for row in table)


# --- LaTeX ---------------------------------------------------------------------------


def test_latex_document_is_complete_with_balanced_environments(run_cli):
    text = export(run_cli, "--format", "tex", "--variants", "2", "--seed", "5", "--answers")
    assert text.startswith("% ")
    head = text.split(r"\documentclass")[0]
    for need in ("xelatex", "kotex", "booktabs", "array", "geometry"):
        assert need in head
    assert re.search(r"\\usepackage\{kotex\}", text)
    envs = tex_environments(text)
    assert envs[0] == "document" and "tabular" in envs and "enumerate" in envs
    assert text.count(r"\clearpage") == 3  # two sheets and two keys
    tabulars = tex_tabulars(text)
    blank = [t for t in tabulars if t[1][1] == r"\answerbox"]
    assert blank and all(len(row) == len(t[0]) for t in tabulars for row in t)


@pytest.mark.parametrize("token", [HOSTILE_TEX, HOSTILE_MORE, "%", "\\", "}{", "100%~^"])
def test_latex_escapes_every_special_character(token):
    escaped = latex.escape(token)
    assert untex(escaped) == token
    stripped = re.sub(r"\\[a-zA-Z]+\{\}|\\[%&_#${}]|\{[\[\]]\}|\\ensuremath\{\\[a-z]+\}", "", escaped)
    assert not set(stripped) & set("%&_#$~^\\<>|")


def test_latex_tables_keep_their_shape_with_hostile_tokens(run_cli, tmp_path):
    text = export(run_cli, write_set(tmp_path, hostile_set(HOSTILE_TEX, HOSTILE_MORE, "[3pt]")), "-f", "tex", "--answers")
    tex_environments(text)
    for table in tex_tabulars(text):
        assert {len(row) for row in table} == {len(table[0])}
    labels = {untex(row[0].removeprefix(r"\textbf{").removesuffix("}")) for t in tex_tabulars(text) for row in t}
    assert {HOSTILE_TEX, HOSTILE_MORE, "[3pt]"} <= labels


# --- variants ------------------------------------------------------------------------


def test_variants_are_deterministic_distinct_and_numbered(run_cli):
    args = ("--variants", "3", "--seed", "42", "--answers")
    first, second = export(run_cli, *args), export(run_cli, *args)
    assert first == second
    page = parse_html(first)
    numbers = [int(page.fields["variant"])] if "variant" in page.fields else []
    printed = re.findall(r'<span class="value">(\d+)</span>', first)
    assert printed == ["42001", "42002", "42003"]
    assert numbers == [42003]
    givens = [
        tuple(tuple(c[2] for c in row) for row in t["rows"])
        for t in page.tables
        if t["problem"] == "cat-fish" and t["caption"] == "Given"
    ]
    assert len(givens) == 3 and len(set(givens)) == 3  # new numbers on each sheet
    assert all([row[0] for row in g[1:]] == ["고양이가", "생선을", "먹었다"] for g in givens)  # same tokens
    assert export(run_cli, "--variants", "3", "--seed", "43") != export(run_cli, "--variants", "3", "--seed", "42")


def test_the_printed_number_regenerates_its_sheet(run_cli):
    from attn_tutor.problems.load import load_problem_set
    from attn_tutor.render import html
    from attn_tutor.variants.generate import variant_set

    text = export(run_cli, "--variants", "2", "--seed", "7", "--answers")
    printed = [int(n) for n in re.findall(r'<span class="value">(\d+)</span>', text)]
    assert printed == [generate.variant_seed(7, 1), generate.variant_seed(7, 2)]
    original = load_problem_set(None)
    remade = [variant_sheets.Sheet(variant_set(original, n), n) for n in printed]
    assert text == html.render(
        worksheet.build(remade, part="with_answers"), title=original.title or ""
    )
    # the key of the second sheet is the regenerated set, solved
    from attn_tutor.core.rounding import fmt
    from attn_tutor.solve import engine

    again = variant_set(original, printed[1])
    problem = again.get("cat-fish")
    row = problem.row_index("먹었다")
    expected = [fmt(v, problem.decimals) for v in engine.solve(problem).output[row]]
    page = parse_html(text)
    keys = [t for t in page.tables if t["problem"] == "cat-fish" and t["sheet"] == 4 and t["caption"].startswith("(d)")]
    assert [c[2] for c in body_rows(keys[0])[0][1:]] == expected


def test_variant_seed_is_documented_and_bounded():
    assert generate.variant_seed(0, 1) == 1
    assert generate.variant_seed(42, 3) == 42003
    assert generate.variant_seed(model.SHEET_SEED_MAX, model.VARIANTS_MAX) < 2**63
    with pytest.raises(ValueError):
        generate.variant_seed(1, 1000)


def test_each_variant_starts_a_new_page_in_every_format(run_cli):
    args = ("--variants", "3", "--seed", "1")
    assert parse_html(export(run_cli, *args)).sheets == 3
    assert export(run_cli, *args, "-f", "tex").count(r"\clearpage") == 2
    md = export(run_cli, *args, "-f", "md")
    assert md.count("\n---\n") == 2 and md.count("variant: 100") == 3


def test_seed_alone_means_one_variant(run_cli):
    assert re.findall(r'<span class="value">(\d+)</span>', export(run_cli, "--seed", "9")) == ["9001"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--answers", "--key-only"], "cannot be used together"),
        (["--variants", "2"], "--variants needs --seed"),
        (["--variants", "0", "--seed", "1"], "--variants"),
        (["--variants", "1000", "--seed", "1"], "--variants"),
        (["--seed", "-1"], "--seed"),
        (["--format", "docx"], "--format"),
        (["--lang", "fr"], "fr"),
    ],
)
def test_usage_errors_exit_2_with_a_sentence(run_cli, args, message):
    result = run_cli("export", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_missing_problem_file_is_a_sentence(run_cli, tmp_path):
    result = run_cli("export", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 1
    assert "nope.yaml" in result.output and "Traceback" not in result.output


# --- files ---------------------------------------------------------------------------


def test_never_overwrites_without_force_and_checks_before_work(run_cli, tmp_path):
    out = tmp_path / "sheet.html"
    out.write_text("keep me", encoding="utf-8")
    # the check comes first: even a problem file that does not exist is not read
    result = run_cli("export", str(tmp_path / "missing.yaml"), "-o", str(out))
    assert result.exit_code == 2 and "--force" in result.output
    result = run_cli("export", "-o", str(out))
    assert result.exit_code == 2 and "already exists" in result.output
    assert out.read_text(encoding="utf-8") == "keep me"
    result = run_cli("export", "-o", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert parse_html(out.read_text(encoding="utf-8")).sheets == 1
    assert sorted(os.listdir(tmp_path)) == ["sheet.html"]  # no temporary files left


@pytest.mark.cjk_font
def test_the_format_follows_the_output_suffix(run_cli, tmp_path):
    for name, start in (("a.tex", "% "), ("a.md", "# "), ("a.html", "<!DOCTYPE html>"), ("a.HTM", "<!DOCTYPE html>")):
        assert run_cli("export", "-o", str(tmp_path / name)).exit_code == 0
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(start)
    assert (tmp_path / "a.pdf").exists() is False
    assert run_cli("export", "-o", str(tmp_path / "a.pdf")).exit_code == 0
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF-")
    assert run_cli("export", "-o", str(tmp_path / "b.md"), "-f", "tex").exit_code == 0
    assert (tmp_path / "b.md").read_text(encoding="utf-8").startswith("% ")


def test_an_interrupted_write_leaves_nothing_behind(run_cli, tmp_path, monkeypatch):
    out = tmp_path / "sheet.html"

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    monkeypatch.setattr(os, "link", broken_replace)  # a new file is put in place with os.link
    result = run_cli("export", "-o", str(out))
    assert result.exit_code == 1
    assert "No space left on device" in " ".join(result.output.split()) and "Traceback" not in result.output
    assert os.listdir(tmp_path) == []


def test_an_unwritable_place_is_a_sentence(run_cli, tmp_path):
    result = run_cli("export", "-o", str(tmp_path / "no" / "such" / "dir.html"))
    assert result.exit_code == 2  # the command line must change: refused before any work
    assert "cannot write" in result.output and "there is no directory" in " ".join(result.output.split()) and "Traceback" not in result.output


def test_same_inputs_give_byte_identical_files(run_cli, tmp_path):
    for name in ("a.tex", "b.tex"):
        assert run_cli("export", "-o", str(tmp_path / name), "--variants", "2", "--seed", "11", "--answers", "--lang", "ko").exit_code == 0
    assert (tmp_path / "a.tex").read_bytes() == (tmp_path / "b.tex").read_bytes()


# --- generate ------------------------------------------------------------------------


def test_generate_validate_solve_round_trip(run_cli, tmp_path):
    out = tmp_path / "practice.yaml"
    result = run_cli("generate", "--tokens", "4", "--dim", "4", "--count", "3", "--seed", "12", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# ") and "--seed 12" in text.splitlines()[0]
    validated = run_cli("validate", str(out))
    assert validated.exit_code == 0, validated.output
    assert "valid" in validated.output
    solved = run_cli("solve", str(out), "--format", "json")
    assert solved.exit_code == 0, solved.output
    import json

    problems = json.loads(solved.stdout)["problems"]
    assert len(problems) == 3 and all(len(p["tokens"]) == 4 and p["d_k"] == 4 for p in problems)
    assert run_cli("export", str(out), "--variants", "2", "--seed", "1").exit_code == 0


def test_generate_is_reproducible_and_refuses_to_overwrite(run_cli, tmp_path):
    a = run_cli("generate", "--seed", "5", "--causal", "--count", "2")
    b = run_cli("generate", "--seed", "5", "--causal", "--count", "2")
    c = run_cli("generate", "--seed", "6", "--causal", "--count", "2")
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout != c.stdout
    assert "mask: causal" in a.stdout
    out = tmp_path / "p.yaml"
    out.write_text("mine", encoding="utf-8")
    assert run_cli("generate", "-o", str(out)).exit_code == 2
    assert out.read_text(encoding="utf-8") == "mine"


def test_generate_without_a_seed_writes_the_seed_it_chose(run_cli):
    result = run_cli("generate")
    assert result.exit_code == 0, result.output
    seed = re.search(r"--seed (\d+)", result.stdout.splitlines()[0]).group(1)
    assert run_cli("generate", "--seed", seed).stdout == result.stdout


def test_title_and_language_reach_every_format(run_cli):
    text = export(run_cli, "--title", "Quiz 3 <b>", "--lang", "ko", "--variants", "1", "--seed", "2")
    page = parse_html(text)
    assert ("html", {"lang": "ko"}) in page.tags
    assert "<title>Quiz 3 &lt;b&gt;</title>" in text
    assert "<h1>Quiz 3 &lt;b&gt; — 변형 2001</h1>" in text
    assert "다음 Query 토큰의 행을 계산하세요: 먹었다, 고양이가." in text
    assert "답안지의 변형 번호 칸에 2001을 옮겨 적으세요" in text
    md = export(run_cli, "--title", "Quiz 3", "-f", "md", "--key-only")
    assert md.startswith("# Answer key — Quiz 3\n")
    tex = export(run_cli, "--title", "Quiz_3", "-f", "tex")
    assert r"\section*{Quiz\_3}" in tex


def test_projection_problems_leave_the_projection_to_the_student(run_cli):
    sheet = parse_html(export(run_cli))
    captions = [t["caption"] for t in sheet.tables if t["problem"] == "practice-projection"]
    assert "W_Q" in captions and "Q, K, V after projection" not in captions
    key = parse_html(export(run_cli, "--key-only"))
    assert "Q, K, V after projection" in [t["caption"] for t in key.tables if t["problem"] == "practice-projection"]


# --- the key table ---------------------------------------------------------------------


def test_key_table_has_one_line_per_variant_row_and_stage_in_every_format(run_cli, tmp_path):
    sheets = variant_sheets.make_sheets(load_problem_set(None), variants=3, seed=8)
    asked = sum(len(p.asked_rows) * len(model.asked_stages(p)) for p in sheets[0].problem_set.problems)
    asked += len(sheets[0].problem_set.concepts)  # and a line per concept item
    md = run_cli("export", "-f", "md", "--key-table", "--variants", "3", "--seed", "8").output
    lines = [line for line in md.splitlines() if line.startswith("| **800")]
    assert len(lines) == 3 * asked
    first = sheets[0].problem_set.get("cat-fish")
    from attn_tutor.core.rounding import fmt
    from attn_tutor.solve import engine

    weights = engine.solve(first).stage_row("weights", first.row_index("먹었다"))
    assert f"| **8001** | cat-fish | 먹었다 | weights | {', '.join(fmt(w, 3) for w in weights)} |" in lines
    html = run_cli("export", "-f", "html", "--key-table", "--variants", "3", "--seed", "8").output
    assert html.count("<tr>") == 3 * asked + 1
    tex = run_cli("export", "-f", "tex", "--key-table", "--variants", "3", "--seed", "8").output
    assert r"\begin{longtable}" in tex and tex.count(r" \\") == 3 * asked + 1


def test_key_table_without_variants_has_no_variant_column(run_cli):
    md = run_cli("export", "-f", "md", "--key-table").output
    assert "| problem | row | stage | answer |" in md and "variant" not in md.split("| problem")[1][:40]


@pytest.mark.parametrize("args", [["--key-table", "--answers"], ["--key-table", "--key-only"]])
def test_key_table_alone(run_cli, args):
    result = run_cli("export", *args)
    assert result.exit_code == 2 and "--key-table" in result.output


def test_paper_applies_to_tex_and_is_refused_where_a_browser_chooses(run_cli):
    letter = run_cli("export", "-f", "tex", "--paper", "letter").output
    assert r"\usepackage[letterpaper," in letter and "a4paper" not in letter
    assert r"\usepackage[a4paper," in run_cli("export", "-f", "tex").output
    for fmt in ("html", "md"):
        result = run_cli("export", "-f", fmt, "--paper", "letter")
        assert result.exit_code == 2 and "--paper" in result.output
