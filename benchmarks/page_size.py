"""The practice page's size and how soon its widget shows, for 1, 30 and 100 variants.

Writes `export -f page` of the packaged set with 1, 30 and 100 variants (seed 42), prints
each file's size, then opens them from disk in headless chromium (Debian's, through pip's
playwright), in alternation, round after round in a rotating order, and takes the time from
navigation to the first problem's section in the page (recorded in the page itself, by a
MutationObserver that playwright adds before the page's own scripts). Prints the median of
each and its ratio to the one-variant page, round by round (the target: 30 variants well
under 1 MB and shown within 1.2× of one). A benchmark, not a test: run it on a quiet machine.

    python benchmarks/page_size.py [--rounds 15] [--variants 1 30 100]

``--source DIR`` writes the pages with the attn_tutor of another checkout (for a before and
after: ``git archive COMMIT | tar -x -C DIR``), else with the one this Python imports.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
SHOWN = """
window.__shown = null;
new MutationObserver((_, observer) => {
  if (document.querySelector("section[data-problem]")) {
    window.__shown = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""


# attn_tutor from DIR, ahead of this environment's (an editable install's finder comes first)
FROM_SOURCE = (
    "import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f)]; "
    "sys.path.insert(0, sys.argv.pop(1)); from attn_tutor.__main__ import run; run()"
)


def write_page(out: Path, variants: int, source: str | None) -> Path:
    path = out / f"page-{variants}.html"
    command = [sys.executable, "-m", "attn_tutor"] if source is None else [sys.executable, "-c", FROM_SOURCE, source]
    command += ["export", "-f", "page", "-o", str(path), "--lang", "en", "--variants", str(variants), "--seed", "42"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path


def shown_after(browser, path: Path) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script(SHOWN)
        page.goto(path.resolve().as_uri())
        page.wait_for_function("window.__shown !== null")
        return page.evaluate("window.__shown")
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--variants", type=int, nargs="+", default=[1, 30, 100])
    parser.add_argument("--source", help="write the pages with the attn_tutor in this directory")
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        pages = {n: write_page(Path(folder), n, options.source) for n in options.variants}
        for n, path in pages.items():
            print(f"{n:>4} variants: {path.stat().st_size / 1e6:6.3f} MB")
        base = options.variants[0]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            names = list(pages)
            for n in names:
                shown_after(browser, pages[n])  # warm the file cache and the browser
            times: dict[int, list[float]] = {n: [] for n in names}
            for r in range(options.rounds):
                for n in names[r % len(names) :] + names[: r % len(names)]:
                    times[n].append(shown_after(browser, pages[n]))
            browser.close()
        for n in names:
            ratio = statistics.median(a / b for a, b in zip(times[n], times[base]))
            print(f"{n:>4} variants: widget shown after {statistics.median(times[n]):6.1f} ms (median of "
                  f"{options.rounds}); ÷ {base} variant(s), round by round: {ratio:.2f}")


if __name__ == "__main__":
    main()
