"""A page in a browser context of its own, every script error it meets recorded (tests/e2e/).

Each :class:`Watched` is one person's browser: its own cookies and localStorage, a viewport
``width`` × ``height`` (900) px, and ``errors``, what the page threw (``pageerror``) and what it wrote to
the console as an error, but for the messages that start with one of ``expected`` (chromium's
own words for a server killed on purpose, say). The tests assert ``errors == []`` at the end:
no script error, no CSP violation.
"""

from __future__ import annotations


class Watched:
    """A browser context and its page, with the page's script errors in ``errors``."""

    def __init__(self, browser, width: int = 1280, *, height: int = 900, expected: tuple[str, ...] = (), **options):
        self.context = browser.new_context(viewport={"width": width, "height": height}, **options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and not m.text.startswith(expected) else None)


class People:
    """Several people's browsers in one test: calling it with a width makes another :class:`Watched`
    and gives its page (:meth:`watched`: the Watched itself); :meth:`close` closes them all and gives
    every error they met."""

    def __init__(self, browser, *, expected: tuple[str, ...] = ()):
        self.browser, self.expected = browser, expected
        self.made: list[Watched] = []

    def __call__(self, width: int = 1280):
        return self.watched(width).page

    def watched(self, width: int = 1280, height: int = 900) -> Watched:
        """Another person's browser, ``width`` × ``height`` px."""
        self.made.append(Watched(self.browser, width, height=height, expected=self.expected))
        return self.made[-1]

    def close(self) -> list[str]:
        for watched in self.made:
            watched.context.close()
        return [error for watched in self.made for error in watched.errors]
