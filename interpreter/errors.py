"""The package's exceptions: one base class, a few specific subclasses.

Every error about a data file carries :class:`Problem` records with the file, the line and
column (1-based), the field as a JSON path (``colours.red.order``, ``activation[0]``), a stable
code and a message a card author can act on. The command line prints them as
``FILE:LINE:COL: FIELD: message`` (``FILE:LINE:COL: warning: FIELD: message`` for a warning);
the Python API raises :class:`DataError` holding all of them.
"""

from __future__ import annotations

from .records import Record

# ascii(): the escape as Python writes it (the unicode_escape codec's, without its import)
_LINE_BREAKS = {ord(c): ascii(c)[1:-1]
                for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def one_line(text: str) -> str:
    """``text`` with every character that could end a line (``\\n``, ``\\r``, U+0085,
    U+2028...) written as its escape, so that a message stays on one line of output."""
    return str(text).translate(_LINE_BREAKS)


class Problem(Record):
    """One located finding about a data file.

    ``line`` and ``column`` are 1-based (1:1 for a finding about a whole file); ``span`` is
    how many characters of the source line the finding covers (for the caret line);
    ``severity`` is ``"error"`` or ``"warning"``; ``code`` is stable across versions:
    reading (``file``, ``no-yaml``, ``encoding``, ``limits``, ``yaml``; ``limits`` also for
    an effect nested too deep), the file's kind and schema (``kind``, ``schema``), names
    (``unknown-name``, ``wrong-kind``, ``duplicate``, ``variant``, ``removed`` for a name
    a variant's ``remove`` left unknown), the rules
    (``players``, ``victory``, ``market``, ``cost`` for a tiered cost), rule cases (``limit``, ``dice``), effects
    (``effect-syntax``, ``effect-range``, ``effect-placement``), warnings
    (``colour-income``, ``unreachable``) and ``too-many`` for the note that a file's further
    problems are left out. The one-line form escapes line breaks in the file, field and
    message (:func:`one_line`), so one problem is always one line.
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

    def __post_init__(self) -> None:
        # a finding about a whole file (missing, too big, empty) is reported at 1:1, so every
        # line of output has the same FILE:LINE:COL form for editors and CI annotations
        if self.line < 1:
            object.__setattr__(self, "line", 1)
        if self.column < 1:
            object.__setattr__(self, "column", 1)

    def __str__(self) -> str:
        field = f" {one_line(self.field)}:" if self.field else ""
        kind = " warning:" if self.severity == "warning" else ""
        return (f"{one_line(self.file)}:{self.line}:{self.column}:{kind}{field} "
                f"{one_line(self.message)}")

    def render(self) -> str:
        """The one-line form, plus the source line and a caret under the offending text."""
        text = str(self)
        if self.source_line and self.column <= len(self.source_line) + 1:
            # one character per column: tabs become a space; control characters and the
            # replacement of bytes that are not UTF-8 become '?'
            line = "".join(" " if c == "\t" else c if c.isprintable() and c != "\ufffd"
                           else "?" for c in self.source_line)
            column = self.column
            if len(line) > 100:  # show a window of a long line around the column
                start = max(0, column - 40)
                line = ("..." if start else "") + line[start:start + 100] + "..."
                column = column - start + (3 if start else 0)
            # wide (CJK) characters take two cells on a terminal
            import unicodedata  # only for a caret line: not at start-up

            pad = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1
                      for c in line[:column - 1])
            caret = " " * pad + "^" * max(1, min(self.span, 60, len(line) - column + 1))
            text += f"\n    {line}\n    {caret}"
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
    ``line``, ``column``, ``field``, ``message`` and ``code`` repeat the first one for
    convenience. ``str(error)`` is every problem rendered, one per line, with the source
    line and a caret.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems) or [Problem("", 1, 1, "", "invalid data")]
        first = self.problems[0]
        self.file, self.line, self.column = first.file, first.line, first.column
        self.field, self.message, self.code = first.field, first.message, first.code
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


class NothingPending(MachikoroError):
    """``answer()`` with no decision waiting, or ``apply_chance()`` with no chance step
    waiting (call ``decision()`` or ``chance_step()`` first); the game is unchanged."""


class GameOver(NothingPending):
    """An answer or a chance outcome was given to a game that has already ended: nothing
    is pending any more (so ``except NothingPending`` catches it too)."""


class LimitExceeded(MachikoroError):
    """A computation would go past one of the package's documented limits (for example
    ``machikoro analyze`` on dice with too many distinct outcomes); the message names the
    limit."""


class WeightsError(MachikoroError):
    """Learned weights (:mod:`machikoro.agents.value`) that cannot be used: none for this
    rule set and player count, a file that cannot be read, was changed since it was
    written, or was trained for another rule set (its digest), player count or feature
    map. The message names the file and says to train again (``machikoro train``)."""


class CompiledUnsupported(MachikoroError):
    """The compiled engine (:mod:`machikoro.compiled`) cannot play this rule set yet:
    ``concept`` names what it lacks. Raised when the rule set is encoded for it, never
    during play."""

    def __init__(self, concept: str):
        self.concept = concept
        super().__init__(f"the compiled engine cannot play {concept} yet")


class IllegalActions(MachikoroError):
    """A batched step was given answers that are not options for some games: ``games``
    (their indices in the batch, ascending), ``decision`` (the name of the decision each
    was asked, as the scalar engine names it) and ``answers`` (what was given). Nothing was
    applied to any game of the batch."""

    def __init__(self, games: list, decisions: list, answers: list, reason: str = ""):
        self.games, self.decisions, self.answers = list(games), list(decisions), list(answers)
        shown = ", ".join(f"game {g} ({d}): {a!r}" for g, d, a in
                          list(zip(self.games, self.decisions, self.answers))[:5])
        more = f" and {len(self.games) - 5} more" if len(self.games) > 5 else ""
        why = f" ({reason})" if reason else ""
        super().__init__(f"illegal answers for {len(self.games)} game(s){why}: {shown}{more}; "
                         "nothing was applied")
