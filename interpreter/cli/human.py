"""A person at the terminal as an agent (``machikoro play --human SEAT``): each decision
is asked as numbered options, after the table (every player's coins, landmarks and town,
and the market) is printed."""

from __future__ import annotations

from ..logs.decision_text import option_text, question_text
from ..logs.event_text import position_lines


class InputEnded(Exception):
    """The person's input ended (end of file) before the game did."""


class TerminalPlayer:
    """An agent whose ``choose`` asks a person: it writes the table, the question and the
    options numbered from 1 on ``out``, and reads the number from ``read`` (a callable
    returning one line, as ``input`` does; it raises EOFError at the end of input). A
    line that is no option's number is asked again. Raises :class:`InputEnded` at the end
    of input; Ctrl-C goes through as KeyboardInterrupt."""

    def __init__(self, read, out):
        self.read = read
        self.out = out

    def choose(self, game, decision):
        """The option the person picks (one of ``decision.options``)."""
        out = self.out
        out.write(f"\nThe table (turn {game.turn + 1}):\n")
        for line in position_lines(game):
            out.write(line + "\n")
        out.write(question_text(game, decision) + "\n")
        options = decision.options
        for number, option in enumerate(options, 1):
            out.write(f"  {number}. {option_text(game, decision, option)}\n")
        while True:
            out.write(f"Your choice (1-{len(options)}): ")
            out.flush()
            try:
                text = self.read().strip()
            except EOFError:
                out.write("\n")
                raise InputEnded from None
            if text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            out.write(f"  '{text[:20]}' is not one of the numbers 1-{len(options)}\n")
