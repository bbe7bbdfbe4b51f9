"""Record what attn-tutor shows and writes, to show that a move changed no byte of it.

    python tests/tools/golden_corpus.py record DIR     # with the attn-tutor on PATH
    python tests/tools/golden_corpus.py compare OLD NEW

``record`` runs a fixed list of commands with the installed ``attn-tutor`` (the one the
active virtual environment has) in a scratch folder: ``solve`` as text, JSON and Markdown
in both languages, quiz transcripts, ``grade`` of a class with variants and concept items
(gradebook CSV and JSON, the LMS layouts with a roster, hand-back sheets, the class report),
every ``export`` format at a fixed seed, ``generate``, ``validate`` of good and bad files,
``--help`` of every command, and the live pages of a fixed session served by ``serve``
on 127.0.0.1. Each command's exit status, standard output and standard error, and every
file it wrote, land in DIR. The random tokens a live session makes (the teacher's
secret, the cookies, the CSRF token, the student's key from a random token) are replaced by placeholders.

``compare`` lists every file that differs between two records, PDFs compared by their
text (``pdftotext``) and page count (``pdfinfo``), zips member by member; it exits 1 when
anything differs.

To check a change: record at the commit before it (a ``git worktree`` with its own
virtual environment), record after, compare.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERMINAL_WIDTH": "100", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
LANGS = ("en", "ko")
PORTS = {"en": 18713, "ko": 18714}  # fixed: the student link, its QR code and a particle after it depend on the port


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "ATTN_TUTOR_LANG", "CLICOLOR_FORCE")}
    env.update(ENV)
    return env


class Recorder:
    def __init__(self, out: Path, work: Path) -> None:
        self.out, self.work, self.count = out, work, 0

    def run(self, name: str, *args: str, stdin: str = "", files: tuple[str, ...] = ()) -> None:
        """``attn-tutor ARGS`` in the scratch folder; its status, output and the FILES it wrote, under NAME."""
        for file in files:
            target = self.work / file
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        done = subprocess.run(["attn-tutor", *args], cwd=self.work, input=stdin.encode(), capture_output=True, env=_env(), timeout=600)
        folder = self.out / name
        folder.mkdir(parents=True)
        (folder / "command").write_bytes(self.placeless(" ".join(args).encode() + b"\n"))
        (folder / "status").write_text(f"{done.returncode}\n")
        (folder / "stdout").write_bytes(self.placeless(done.stdout))
        (folder / "stderr").write_bytes(self.placeless(done.stderr))
        for file in files:
            source = self.work / file
            if source.is_dir():
                shutil.copytree(source, folder / "files" / file)
            elif source.exists():
                (folder / "files").mkdir(exist_ok=True)
                shutil.copy(source, folder / "files" / file)
        for written in (folder / "files").rglob("*") if (folder / "files").exists() else ():
            if written.is_file() and written.suffix not in (".pdf", ".zip"):
                written.write_bytes(self.placeless(written.read_bytes()))
        self.count += 1

    def placeless(self, data: bytes) -> bytes:
        """The scratch folder and the checkout as WORK and REPO: two records made in other folders compare equal."""
        return data.replace(str(self.work).encode(), b"WORK").replace(str(REPO).encode(), b"REPO")


def _class_with_variants(work: Path) -> Path:
    """A class of ch13 answer files: variants, concept choices, a slip, a blank, a bad file."""
    folder = work / "class"
    folder.mkdir()
    import yaml

    asked = {
        p["id"]: p.get("rows") or p["tokens"]
        for p in yaml.safe_load((REPO / "problems" / "ch13.yaml").read_text(encoding="utf-8"))["problems"]
    }
    solved = {}
    for variant in (None, 42001, 42002):
        args = ["attn-tutor", "solve", "ch13", "--format", "json"] + (["--variant", str(variant)] if variant else [])
        solved[variant] = json.loads(subprocess.run(args, capture_output=True, env=_env(), check=True).stdout)
    students = [("김민지", None, 0), ("Lee, Jun", 42001, 1), ("박서연", 42002, 2), ("Kim Ara", 42001, 3), ("최도윤", None, 4)]
    for number, (name, variant, style) in enumerate(students, 1):
        data = solved[variant]
        answers: dict = {}
        for problem in data["problems"][:3]:
            rows = {}
            for index, token in enumerate(problem["tokens"]):
                if token not in asked[problem["id"]]:
                    continue
                stages = {}
                for stage in ("scores", "scaled", "weights", "output"):
                    if problem.get(stage) is None or (style == 3 and stage == "weights"):
                        continue
                    values = [round(v, 3) for v in problem[stage][index]]
                    if style == 1 and stage == "scaled":
                        values = [v * 2 for v in values]
                    stages[stage] = values
                rows[token] = stages
            answers[problem["id"]] = rows
        concepts = {item["id"]: "ABCD"[(number + index) % 4] for index, item in enumerate(data.get("concepts", [])[:6])}
        document = {"student": name, "problem_set": "ch13", "answers": answers, "concepts": concepts}
        if variant:
            document["variant"] = variant
        (folder / f"{number:02d}.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    (folder / "06-broken.yaml").write_text("student: Broken\nanswers: [\n", encoding="utf-8")
    roster = work / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n김민지,1,s1,kim,A\n\"Lee, Jun\",2,s2,lee,A\n박서연,3,s3,park,A\n"
                      "Kim Ara,4,s4,ara,A\n최도윤,5,s5,choi,A\nNo Show,6,s6,none,A\n", encoding="utf-8")  # fmt: skip
    return folder


def _json_to_yaml_names(folder: Path) -> None:
    """Answer files are YAML (JSON is YAML): give them the suffix grade reads."""
    for path in folder.glob("*.json"):
        path.rename(path.with_suffix(".yaml"))


def record_cli(rec: Recorder) -> None:
    commands = ["solve", "list", "show", "validate", "quiz", "grade", "export", "generate", "serve"]
    for lang in LANGS:
        rec.run(f"help-{lang}", "--help", "--lang", lang)
        for command in commands:
            rec.run(f"help-{command}-{lang}", command, "--help", "--lang", lang)
        rec.run(f"solve-{lang}", "solve", "--lang", lang)
        rec.run(f"solve-explain-{lang}", "solve", "ch13", "--problem", "cat-fish", "--explain", "--lang", lang)
        rec.run(f"solve-json-{lang}", "solve", "ch13", "--format", "json", "--lang", lang)
        rec.run(f"solve-md-{lang}", "solve", "ch13", "--format", "markdown", "--lang", lang)
        rec.run(f"solve-variant-{lang}", "solve", "ch13", "--variant", "42002", "--lang", lang)
        rec.run(f"solve-random-{lang}", "solve", "--random", "--tokens", "3", "--dim", "2", "--seed", "7", "--lang", lang)
        rec.run(f"list-{lang}", "list", "--lang", lang)
        rec.run(f"validate-good-{lang}", "validate", str(FIXTURES / "grade" / "set.yaml"), "--lang", lang)
        rec.run(f"validate-bad-{lang}", "validate", *sorted(str(p) for p in (FIXTURES / "grade" / "broken").iterdir()), "--lang", lang)
        rec.run(f"generate-{lang}", "generate", "--tokens", "4", "--dim", "2", "--count", "2", "--seed", "7", "--lang", lang)
        rec.run(f"quiz-{lang}", "quiz", "--random", "--tokens", "3", "--dim", "2", "--seed", "7", "--lang", lang,
                stdin="1 2 3\n?\n0.5 0.5 0.5\n\n1 1\nq\n")  # fmt: skip
        rec.run(
            f"quiz-ch13-{lang}", "quiz", "ch13", "--problem", "cat-fish", "--lang", lang, stdin="1 6 4\n0.71 4.24 2.83\n0.02 0.79 0.19\nq\n"
        )
        rec.run(f"unknown-command-{lang}", "solv", "--lang", lang)
        rec.run(f"bad-option-{lang}", "solve", "--decimals", "x", "--lang", lang)
    rec.run("show", "show", "ch13")
    for published in sorted((FIXTURES / "published").iterdir()):
        rec.run(f"solve-published-{published.stem}", "solve", str(published), "--format", "json")


def record_grade(rec: Recorder) -> None:
    shutil.copytree(FIXTURES / "grade", rec.work / "fixture")
    _class_with_variants(rec.work)
    _json_to_yaml_names(rec.work / "class")
    outputs = ("gradebook.csv", "report.json", "report.html", "sheets", "lms.csv")
    for lang in LANGS:
        rec.run(f"grade-fixture-{lang}", "grade", "fixture/class", "--csv", "gradebook.csv", "--json", "report.json",
                "--class-report", "report.html", "--feedback", "sheets", "--lang", lang, files=outputs)  # fmt: skip
        rec.run(f"grade-variants-{lang}", "grade", "class", "--csv", "gradebook.csv", "--json", "report.json", "--class-report", "report.html",
                "--feedback", "sheets", "--lang", lang, "--jobs", "1", files=outputs)  # fmt: skip
        for layout in ("canvas", "moodle"):
            rec.run(f"grade-{layout}-{lang}", "grade", "class", "--roster", "roster.csv", "--csv-layout", layout, "--assignment", "Attention quiz", "--csv", "lms.csv",
                    "--lang", lang, files=outputs)  # fmt: skip
        rec.run(f"grade-csv-{lang}", "grade", "fixture/class.csv", "--problems", "fixture/set.yaml",
                "--json", "report.json", "--lang", lang, files=outputs)  # fmt: skip


def record_export(rec: Recorder) -> None:
    sets = {"ch13": "ch13", "fixture": str(FIXTURES / "grade" / "set.yaml")}
    for label, source in sets.items():
        for fmt in ("html", "md", "tex", "page", "pdf", "moodle", "qti"):
            suffix = {"moodle": "xml", "qti": "zip", "page": "html"}.get(fmt, fmt)
            out = f"out.{suffix}"
            answers = ("--answers",) if fmt in ("html", "md", "tex", "pdf") else ()
            rec.run(
                f"export-{label}-{fmt}", "export", source, "-f", fmt, "-o", out, "--variants", "3", "--seed", "42", *answers, files=(out,)
            )
        for lang in LANGS:
            rec.run(f"export-{label}-html-{lang}", "export", source, "--lang", lang, "--key-table", "--variants", "2", "--seed", "1")
    rec.run("export-ch13-pdf-ko", "export", "ch13", "-f", "pdf", "-o", "ko.pdf", "--lang", "ko", "--answers", files=("ko.pdf",))
    rec.run("export-ch13-key-only", "export", "ch13", "-f", "md", "--key-only")


_SESSION = re.compile(r"\b[0-9a-f]{32}\b")
_SECRETS = re.compile(r"(key=|\"key\":\s*\"|csrf\"?:\s*\"|csrf_token=|attn_[a-z_]*=)[A-Za-z0-9_\-]{16,}")


def _hidden(text: str, secret: str, port: int) -> str:
    """The random parts of a live session's page or reply as placeholders: the secret, tokens, the session id, the port."""
    text = text.replace(secret, "SECRET").replace(f":{port}", ":PORT")
    return _SESSION.sub("SESSION", _SECRETS.sub(lambda m: m.group(1) + "TOKEN", text))


def _request(port: int, method: str, path: str, body: dict | None = None, cookies: dict | None = None, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = dict(headers or {})
    if cookies:
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    payload = response.read()
    set_cookies = {}
    for name, value in response.getheaders():
        if name.lower() == "set-cookie":
            key, _, rest = value.partition("=")
            set_cookies[key] = rest.split(";")[0]
    shown = [(k, v) for k, v in response.getheaders() if k.lower() not in ("date", "server")]
    connection.close()
    return response.status, shown, payload, set_cookies


def record_live(rec: Recorder) -> None:
    """A fixed session in each language, served for real: the pages and replies a student and the teacher get."""
    for lang in LANGS:
        _record_session(rec, lang)


def _record_session(rec: Recorder, lang: str) -> None:
    db = rec.work / f"live-{lang}.sqlite"
    process = subprocess.Popen(["attn-tutor", "serve", "ch13", "--host", "127.0.0.1", "--port", str(PORTS[lang]), "--db", str(db), "--lang", lang],
                               cwd=rec.work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())  # fmt: skip
    try:
        port, secret = None, None
        deadline = time.monotonic() + 60
        while (port is None or secret is None) and time.monotonic() < deadline:
            line = process.stdout.readline().decode()
            if not line:
                break
            found = re.search(r"http://127\.0\.0\.1:(\d+)/teacher\?key=(\S+)", line)
            if found:
                port, secret = int(found.group(1)), found.group(2)
        assert port and secret, "serve printed no teacher link"
        folder = rec.out / f"live-{lang}"
        folder.mkdir()
        log: list[str] = []

        def keep(name: str, reply) -> None:
            status, headers, payload, _ = reply
            text = _hidden(rec.placeless(payload).decode("utf-8", "replace"), secret, port)
            (folder / name).write_text(text, encoding="utf-8")
            log.append(f"{name}: {status} {[(k, _hidden(v, secret, port)) for k, v in headers]}")

        first = _request(port, "GET", "/")
        keep("student.html", first)
        csrf = first[3].get("attn_csrf") or next(iter(first[3].values()), "")
        cookies = {name: value for name, value in first[3].items()}
        origin = {"Origin": f"http://127.0.0.1:{port}", "X-CSRF-Token": csrf}
        joined = _request(port, "POST", "/api/join", {"name": "김민지", "device": "d" * 20}, cookies, origin)
        keep("join.json", joined)
        cookies.update(joined[3])
        keep("state.json", _request(port, "GET", "/api/state", None, cookies))
        for stage, text in (("scores", "1 6 4"), ("scaled", "0.71 4.24 2.83"), ("weights", "0.1 0.2")):
            keep(f"answer-{stage}.json", _request(port, "POST", "/api/answer",
                 {"problem": "cat-fish", "row": "먹었다", "stage": stage, "text": text, "client_id": f"c-{stage}-0001"}, cookies, origin))  # fmt: skip
        keep("answer-nocsrf.json", _request(port, "POST", "/api/answer", {"problem": "cat-fish"}, cookies, {"Origin": origin["Origin"]}))
        keep("answer-origin.json", _request(port, "POST", "/api/answer", {}, cookies, {**origin, "Origin": "http://evil.example"}))
        keep("teacher-denied.html", _request(port, "GET", "/teacher"))
        keyed = _request(port, "GET", f"/teacher?key={secret}")
        keep("teacher-redirect.txt", keyed)
        teacher = {**cookies, **keyed[3]}
        keep("teacher.html", _request(port, "GET", "/teacher", None, teacher))
        keep("map.json", _request(port, "GET", "/teacher/api/map", None, teacher))
        keep("close.json", _request(port, "POST", "/teacher/api/problem/cat-fish", {"open": False, "revealed": True}, teacher, origin))
        keep("mode.json", _request(port, "POST", "/teacher/api/mode", {"mode": "exam"}, teacher, origin))
        keep("student-exam.html", _request(port, "GET", "/", None, cookies))
        keep("state-exam.json", _request(port, "GET", "/api/state", None, cookies))
        keep("teacher-after.html", _request(port, "GET", "/teacher", None, teacher))
        keep("qr.svg", _request(port, "GET", "/teacher/qr.svg", None, teacher))
        keep("missing.json", _request(port, "GET", "/nowhere"))
        keep("method.json", _request(port, "DELETE", "/api/state"))
        for asset in ("live.js", "live.css", "widget.js"):
            keep(f"asset-{asset}", _request(port, "GET", f"/assets/{asset}"))
        (folder / "log").write_text("\n".join(log) + "\n", encoding="utf-8")
    finally:
        process.terminate()
        process.wait(timeout=30)
    rec.run(f"grade-live-{lang}", "grade", str(db), "--json", "live.json", "--lang", lang, files=("live.json",))


def record(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=False)
    with tempfile.TemporaryDirectory() as scratch:
        rec = Recorder(out, Path(scratch))
        record_cli(rec)
        record_grade(rec)
        record_export(rec)
        record_live(rec)
    print(f"recorded {rec.count} commands and the live pages in {out}")


def _pdf_view(path: Path) -> bytes:
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True).stdout
    pages = re.search(rb"Pages:\s+(\d+)", subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True).stdout)
    return b"pages " + (pages.group(1) if pages else b"?") + b"\n" + text


def _zip_view(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in sorted(archive.namelist())}


def compare(old: Path, new: Path) -> int:
    names = sorted(
        {p.relative_to(old) for p in old.rglob("*") if p.is_file()} | {p.relative_to(new) for p in new.rglob("*") if p.is_file()}
    )
    differ = []
    for name in names:
        a, b = old / name, new / name
        if not a.exists() or not b.exists():
            differ.append(f"{name}: only in {'new' if b.exists() else 'old'}")
            continue
        if a.suffix == ".pdf":
            same = _pdf_view(a) == _pdf_view(b)
        elif a.suffix == ".zip":
            same = _zip_view(a) == _zip_view(b)
        else:
            same = a.read_bytes() == b.read_bytes()
        if not same:
            differ.append(str(name))
    for line in differ:
        print("differs:", line)
    print(f"{len(names)} files compared, {len(differ)} differ")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "record":
        record(Path(argv[1]))
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
