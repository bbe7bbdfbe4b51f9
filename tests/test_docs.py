"""The README and the manual in docs/ cannot drift from the tool: its commands, its examples,
its set-up lines, its links.

Every command shown in the README or a docs/*.md page — a line of an indented or fenced
code block starting with ``attn-tutor`` — is run, page by page, in document order, in an
empty folder holding a copy of ``tests/fixtures/grade/`` (so the commands that use the
repository's sample class run as from a checkout). A fenced YAML or CSV block whose
paragraph says it is "saved as `FILE`" is written to FILE at that point, so later commands
can read it. The shell the pages may use is small on purpose, and anything else fails the
test rather than being skipped:

- ``NAME=value attn-tutor …`` (environment variables for that command),
- ``printf '…' | attn-tutor …`` (what is typed; otherwise a quiz is sent ``q``),
- ``attn-tutor … > FILE`` (standard output into FILE),
- a trailing ``# exit status N`` when the command is shown failing (otherwise it must exit 0).
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README_PATH = ROOT / "README.md"
README = README_PATH.read_text(encoding="utf-8")
DOCS_DIR = ROOT / "docs"
DOCS = sorted(DOCS_DIR.glob("*.md"))
MANUAL = [README_PATH, *DOCS]
README_MAX_BYTES = 8000
PAGES = ("students.md", "teachers.md", "reference.md", "architecture.md")  # the manual's pages, each linked from the README
FIXTURES = ROOT / "tests" / "fixtures" / "grade"


def help_commands() -> list[str]:
    """The commands `attn-tutor --help` lists, in its Commands panel."""
    from typer.testing import CliRunner

    from attn_tutor.cli.app import app

    env = {"NO_COLOR": "1", "COLUMNS": "200", "TERMINAL_WIDTH": "200", "LANG": "C.UTF-8", "ATTN_TUTOR_LANG": "en"}
    result = CliRunner().invoke(app, ["--help"], env=env, prog_name="attn-tutor")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if "Commands" in line)
    names = []
    for line in lines[start + 1 :]:
        if line.lstrip().startswith(("╰", "+", "-")) and names:
            break
        found = re.match(r"^\W*\s([a-z][a-z0-9-]*)\s{2,}\S", line)
        if found:
            names.append(found.group(1))
    assert names, result.output
    return sorted(names)


def commands() -> list[str]:
    return help_commands()


def fenced(language: str, text: str = README) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("name", commands())
def test_every_command_has_help_and_is_in_the_readme(run_cli, name):
    result = run_cli(name, "--help")
    assert result.exit_code == 0
    assert f"`attn-tutor {name}" in README
    from attn_tutor.cli.app import app

    (info,) = [i for i in app.registered_commands if (i.name or i.callback.__name__) == name]
    assert (info.callback.__doc__ or "").strip()


SET_UP = [
    "python3 -m venv .venv",
    ". .venv/bin/activate",
    "pip install . && attn-tutor solve",
    "pip install '.[test]' && pytest -n auto",
]


def set_up_lines() -> list[str]:
    head = README.split("## ")[0]
    return [line.strip() for line in head.splitlines() if line.startswith("    ")]


def test_the_readme_sets_up_a_virtual_environment_then_gives_the_two_commands():
    assert set_up_lines() == SET_UP


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "sed -n 's/^    \\(pip install .*pytest.*\\)$/\\1/p' README.md" in ci


# --- the README is the front page; the manual is in docs/ -----------------------------------


def test_the_readme_is_at_most_8000_bytes():
    size = len(README_PATH.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes; the manual belongs in docs/"


def table_commands() -> list[str]:
    """The commands named in the README's command table (rows starting `| \\`attn-tutor NAME`)."""
    return re.findall(r"(?m)^\| `attn-tutor ([a-z][a-z0-9-]*)", README)


@pytest.mark.parametrize("name", commands())
def test_every_command_is_in_the_readme_table_with_an_example_and_shown_in_the_docs(name):
    assert name in table_commands(), f"{name} is not in the README's command table"
    assert any(shown_args(c)[:1] == [name] for c in shown_commands(README_PATH)), f"the README shows no example of {name}"
    assert any(shown_args(c)[:1] == [name] for doc in DOCS for c in shown_commands(doc)), f"no page in docs/ shows {name}"


def test_the_readme_table_lists_only_real_commands():
    assert sorted(table_commands()) == commands()


def test_the_readme_links_every_page_of_the_manual():
    linked = {m.split("#")[0] for m in re.findall(r"\]\((docs/[^)\s]+)\)", README)}
    for page in PAGES:
        assert (DOCS_DIR / page).is_file(), f"docs/{page} is missing"
        assert f"docs/{page}" in linked, f"the README does not link docs/{page}"
    for target in linked:
        assert (ROOT / target).is_file(), f"the README links {target}, which does not exist"


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m) for m in re.findall(r"(?m)^#{1,6} (.+)$", text)}


@pytest.mark.parametrize("doc", MANUAL, ids=lambda p: p.name)
def test_every_link_of_the_manual_resolves(doc):
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # an address on the web
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        assert path.exists(), f"{doc.name} links {target}: no such file"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{doc.name} links {target}: no such heading in {path.name}"


# --- the commands shown, run ------------------------------------------------------------------

SHOWN = re.compile(r"^(?:printf '[^']*' \| )?(?:[A-Z][A-Z0-9_]*=\S+ )*attn-tutor(?: |$)")


class Saved:
    """A fenced block the page says is saved as a file."""

    def __init__(self, name: str, text: str, line: int) -> None:
        self.name, self.text, self.line = name, text, line


class Shown:
    """A command line shown in a code block."""

    def __init__(self, text: str, line: int) -> None:
        self.text, self.line = text, line


def steps(path: Path) -> list[Saved | Shown]:
    """The page's files and commands, in document order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Saved | Shown] = []
    before: list[str] = []  # the paragraph last read: it names the file a fenced block is saved as
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^ {0,3}```\s*([\w-]*)", line)
        if fence:
            language, start, body = fence.group(1), i, []
            i += 1
            while i < len(lines) and not re.match(r"^ {0,3}```\s*$", lines[i]):
                body.append(lines[i])
                i += 1
            saved = re.findall(r"(?i)saved as `([^`]+)`", " ".join(before))
            if language in ("yaml", "yml", "csv") and saved:
                out.append(Saved(saved[-1], "\n".join(body) + "\n", start + 1))
            else:
                out += [Shown(b.strip(), start + 2 + n) for n, b in enumerate(body) if SHOWN.match(b.strip())]
            before = []
        elif line.startswith("    "):
            if SHOWN.match(line.strip()):
                out.append(Shown(line.strip(), i + 1))
            before = []
        elif line.strip():
            if i and not lines[i - 1].strip():
                before = []  # a new paragraph
            before.append(line)
        i += 1
    return out


def shown_commands(path: Path) -> list[str]:
    return [s.text for s in steps(path) if isinstance(s, Shown)]


def without_comment(text: str) -> str:
    """The line without its shell comment: from a `#` that starts a word, outside quotes."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i]
    return text


def parse_shown(text: str) -> tuple[list[str], str | None, dict[str, str], str | None, int]:
    """A shown line as (arguments after attn-tutor, what is typed, environment, > file, exit status)."""
    status = 0
    expected = re.search(r"\s#\s*exit status (\d+)\s*$", text)
    if expected:
        status = int(expected.group(1))
    typed = None
    piped = re.match(r"^printf ('[^']*') \| ", text)
    if piped:
        typed = shlex.split(piped.group(1))[0].replace("\\n", "\n")
        text = text[piped.end() :]
    words = shlex.split(without_comment(text))
    env = {}
    while words and re.fullmatch(r"[A-Z][A-Z0-9_]*=\S*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    assert words and words[0] == "attn-tutor", text
    args, target = words[1:], None
    if ">" in args:
        at = args.index(">")
        assert at == len(args) - 2, f"only `> FILE` at the end is supported: {text}"
        args, target = args[:at], args[at + 1]
    for word in args:
        assert word not in ("|", "||", "&&", ";", "<", "2>", ">>", "&"), f"the docs' commands run without a shell: {text}"
    return args, typed, env, target, status


def shown_args(text: str) -> list[str]:
    return parse_shown(text)[0]


def workspace(tmp_path: Path, monkeypatch) -> Path:
    """An empty folder to run a page in, with the repository's sample class where a checkout has it."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(FIXTURES, work / "tests" / "fixtures" / "grade")
    monkeypatch.chdir(work)
    return work


def run_served(args: list[str], env: dict, where: str) -> None:
    """A ``serve`` line shown: started as shown (on 127.0.0.1 and a free port), it must print its
    student and teacher links and then stop cleanly on Ctrl-C."""
    import os
    import signal
    import subprocess
    import sys

    run_env = {k: v for k, v in {**os.environ, "ATTN_TUTOR_LANG": "en", **env}.items() if v is not None}
    server = subprocess.Popen(
        [sys.executable, "-m", "attn_tutor", *args, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=run_env,
    )  # fmt: skip
    try:
        first, second = server.stdout.readline(), server.stdout.readline()
        if "--lti" in args:  # the LTI tool: its address (students and teachers come from the course)
            assert first.startswith("LTI tool: http"), f"{where}\n{first}{second}"
        else:
            assert first.startswith("student: http://") and second.startswith("teacher: http://"), f"{where}\n{first}{second}"
    finally:
        server.send_signal(signal.SIGINT)
        _, stderr = server.communicate(timeout=30)
    assert server.returncode == 0, f"{where}\nexit status {server.returncode}\n{stderr[-3000:]}"


def run_shown(run_cli, doc: Path, step: Shown, work: Path):
    args, typed, env, target, status = parse_shown(step.text)
    if args[:1] == ["serve"] and status == 0:  # a server runs until stopped: started, checked, stopped
        return run_served(args, env, f"{doc.relative_to(ROOT)}:{step.line}: {step.text}")
    env = {"ATTN_TUTOR_LANG": None, **env}  # type: ignore[dict-item]
    result = run_cli(*args, input="q\n" if typed is None else typed, env=env)
    where = f"{doc.relative_to(ROOT)}:{step.line}: {step.text}"
    crash = ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        import traceback

        crash = "".join(traceback.format_exception(result.exception))[-3000:]
    assert result.exit_code == status, f"{where}\nexit status {result.exit_code}, not {status}\n{result.output[-3000:]}{crash}"
    if target is not None:
        (work / target).write_text(result.stdout, encoding="utf-8")
    return result


def runnable_pages() -> list:
    """The pages to run; one that makes a PDF needs a Hangul font (its problems have Korean tokens)."""
    pages = []
    for doc in MANUAL:
        makes_pdf = any(re.search(r"\.pdf\b|--feedback-format pdf", c) for c in shown_commands(doc))
        pages.append(pytest.param(doc, id=doc.name, marks=[pytest.mark.cjk_font] if makes_pdf else []))
    return pages


@pytest.mark.parametrize("doc", runnable_pages())
def test_every_command_shown_runs_in_order(run_cli, doc, tmp_path, monkeypatch):
    work = workspace(tmp_path, monkeypatch)
    ran = 0
    for step in steps(doc):
        if isinstance(step, Saved):
            target = work / step.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, encoding="utf-8")
        else:
            run_shown(run_cli, doc, step, work)
            ran += 1
    if doc.name != "architecture.md":  # the architecture page shows only development commands
        assert ran, f"{doc.name} shows no attn-tutor command"


def test_the_pages_show_the_files_their_commands_read():
    """Every file a docs page saves is one of its commands' arguments (or read through one)."""
    for doc in DOCS:
        saved = [s.name for s in steps(doc) if isinstance(s, Saved)]
        used = " ".join(shown_commands(doc)) + " " + " ".join(s.text for s in steps(doc) if isinstance(s, Saved))
        for name in saved:
            folder = name.rsplit("/", 1)[0] + "/" if "/" in name else None
            assert name in used or (folder and folder in used), f"{doc.name} saves {name} but no command reads it"


def problem_set_examples() -> list[tuple[Path, str]]:
    return [(doc, block) for doc in MANUAL for block in fenced("yaml", doc.read_text(encoding="utf-8")) if "problems:" in block]


def test_the_docs_problem_set_examples_load_and_solve(run_cli, tmp_path):
    examples = problem_set_examples()
    assert examples, "no page shows a problem set"
    for n, (doc, example) in enumerate(examples):
        path = tmp_path / f"example-{n}.yaml"
        path.write_text(example, encoding="utf-8")
        assert run_cli("validate", str(path)).exit_code == 0, doc.name
        assert run_cli("solve", str(path)).exit_code == 0, doc.name
    # the chapter's example, wherever it is shown, gives the chapter's numbers
    chapter = [example for _, example in examples if "id: cat-fish" in example and "[[2, 1], [1, 2], [1, 3]]" in example]
    assert chapter
    for n, example in enumerate(chapter):
        path = tmp_path / f"chapter-{n}.yaml"
        path.write_text(example, encoding="utf-8")
        result = run_cli("solve", str(path), "--row", "먹었다")
        assert result.exit_code == 0 and "0.786" in result.output


def test_the_docs_answer_file_examples_grade(run_cli, tmp_path, monkeypatch):
    graded = 0
    for doc in DOCS:
        work = tmp_path / doc.stem
        work.mkdir()
        monkeypatch.chdir(work)
        saved = [s for s in steps(doc) if isinstance(s, Saved)]
        for s in saved:
            (work / s.name).parent.mkdir(parents=True, exist_ok=True)
            (work / s.name).write_text(s.text, encoding="utf-8")
        for s in saved:
            if s.name.endswith((".yaml", ".yml")) and re.search(r"(?m)^answers:", s.text):
                student = re.search(r"(?m)^student: *(.+)$", s.text).group(1).strip().strip("\"'")
                result = run_cli("grade", s.name)
                assert result.exit_code == 0, (doc.name, s.name, result.output)
                assert student in result.output
                graded += 1
    assert graded, "no page shows an answer file"


@pytest.mark.git
def test_the_readme_set_up_works_in_a_fresh_clone_and_a_fresh_virtual_environment(tmp_path):
    """The README's first three lines, run by bash in a fresh clone: a new venv, activated,
    `pip install . && attn-tutor solve`. One line is added after the venv is made: a .pth
    file pointing at this environment's site-packages, so pip finds numpy and the rest
    already installed instead of downloading them (only the build backend is fetched)."""
    import os
    import subprocess
    import sys
    import sysconfig

    root = Path(__file__).resolve().parent.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        if os.environ.get("CI"):
            pytest.fail("CI must run from a git clone")
        pytest.skip("not a git checkout")
    clone = tmp_path / "attn-tutor"
    subprocess.run(["git", "clone", "--quiet", str(root), str(clone)], check=True, timeout=120)
    venv_make, activate, install_and_solve, _tests = set_up_lines()
    ours = sysconfig.get_paths()["purelib"]
    share = f'echo {ours!r} > "$(python -c "import sysconfig; print(sysconfig.get_paths()[\'purelib\'])")/outer.pth"'
    script = "\n".join(["set -eu", venv_make, activate, share, install_and_solve])
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "COLUMNS")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != str(Path(sys.executable).parent))
    done = subprocess.run(["bash", "-c", script], cwd=clone, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert (clone / ".venv" / "bin" / "attn-tutor").exists()  # installed in the new environment, not ours
    assert "cat-fish — 고양이가 생선을 먹었다" in done.stdout  # the chapter's own example first
    assert "attn-tutor solve --problem widget-meet-friend" in done.stdout  # then the way to the others
    assert "practice-two-heads" in done.stdout and "(c) Attention weights" in done.stdout
    assert done.stdout.count("(a) Scores") == 1  # one problem worked, not the whole set
