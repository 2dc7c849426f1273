"""The package's exceptions: one base class, a few specific subclasses.

Every error about a data file carries :class:`Problem` records with the file, the line and
column (1-based), the field as a JSON path (``colours.red.order``, ``activation[0]``), a stable
code and a message a card author can act on. The command line prints them as
``FILE:LINE:COL: FIELD: message``; the Python API raises :class:`DataError` holding all of
them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One located finding about a data file.

    ``line`` and ``column`` are 1-based (0 when unknown); ``span`` is how many characters of
    the source line the finding covers (for the caret line); ``severity`` is ``"error"`` or
    ``"warning"``; ``code`` is stable across versions (``schema``, ``yaml``, ``effect-syntax``,
    ``unknown-name``, ...).
    """

    file: str
    line: int
    column: int
    field: str
    message: str
    code: str = "error"
    severity: str = "error"
    source_line: str = ""
    span: int = 1

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        field = f" {self.field}:" if self.field else ""
        kind = " warning:" if self.severity == "warning" else ""
        return f"{where}:{kind}{field} {self.message}"

    def render(self) -> str:
        """The one-line form, plus the source line and a caret under the offending text."""
        text = str(self)
        if self.source_line and self.column:
            caret = " " * (self.column - 1) + "^" * max(1, self.span)
            text += f"\n    {self.source_line}\n    {caret}"
        return text

    def as_dict(self) -> dict:
        """A JSON-ready mapping of every field."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "field": self.field,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }


class MachikoroError(ValueError):
    """Base class of every error this package raises on purpose."""


class DataError(MachikoroError):
    """A rule set, card, variant or case file is wrong.

    ``problems`` lists every error found (all of them, not only the first); ``file``,
    ``line``, ``column``, ``field`` and ``message`` repeat the first one for convenience.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        first = self.problems[0]
        self.file, self.line, self.column = first.file, first.line, first.column
        self.field, self.message = first.field, first.message
        super().__init__("\n".join(p.render() for p in self.problems))


class IllegalChoice(MachikoroError):
    """An answer the rules forbid, for the decision ``decision`` (a :class:`Decision`).

    The game state is left unchanged; ask ``game.decision()`` again and answer with one of
    its ``options``.
    """

    def __init__(self, decision, answer, reason: str = ""):
        self.decision = decision
        self.answer = answer
        why = f": {reason}" if reason else ""
        super().__init__(
            f"illegal answer {answer!r} to decision {decision.name!r} of player "
            f"{decision.player}{why}"
        )


class GameOver(MachikoroError):
    """An answer was given to a game that has already ended."""
