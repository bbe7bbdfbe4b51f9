"""One family of exceptions, caught once at the command-line edge.

Every error carries a message key from the catalogue (:mod:`attn_tutor.core.i18n`) and
its arguments, so it can be shown in Korean or English, and where known the place
in a file it refers to (1-based line and column).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Self

from attn_tutor.core.i18n import speaking, t
from attn_tutor.core.text import escape_unsafe


class Location(NamedTuple):
    """A place in an input file; line and column are 1-based. (A NamedTuple: a class of
    10,000 answer files makes half a million of them, and a tuple is made three times faster.)"""

    file: str
    line: int | None = None
    column: int | None = None

    @classmethod
    def of_mark(cls, file: str, mark) -> Location:
        """Where a YAML node or event starts: PyYAML's marks count from 0."""
        return cls(file, mark.line + 1, mark.column + 1)

    def __str__(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


@dataclass(frozen=True)
class Finding:
    """One thing wrong with an input: a catalogue key, its arguments, and where."""

    key: str
    args: dict = field(default_factory=dict)
    where: Location | None = None

    def text(self) -> str:
        # What a file said is never shown raw: control and invisible characters become \u escapes.
        args = {name: escape_unsafe(value) if isinstance(value, str) else value for name, value in self.args.items()}
        message = t(self.key, **args)
        return f"{self.where}: {message}" if self.where else message


class AttnTutorError(Exception):
    """Base class: bad input from a user. The CLI turns it into exit status 1."""

    exit_code = 1

    def __init__(self, key: str, where: Location | None = None, /, **args: object) -> None:
        self.problems: list[Finding] = [Finding(key, dict(args), where)]
        with speaking("en"):  # str(error), as a traceback or a worker's reason shows it: English
            super().__init__(self.problems[0].text())

    @classmethod
    def many(cls, problems: list[Finding]) -> Self:
        error = cls(problems[0].key, problems[0].where, **problems[0].args)
        error.problems = list(problems)
        return error

    def messages(self) -> list[str]:
        return [p.text() for p in self.problems]


class InvalidProblemSet(AttnTutorError):
    """A problem-set file that cannot be loaded; carries every problem found."""


class UsageError(AttnTutorError):
    """A command-line choice that does not fit the input (exit status 2)."""

    exit_code = 2
