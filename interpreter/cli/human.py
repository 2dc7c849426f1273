"""A person at the terminal as an agent (``machikoro play --human SEAT``): each decision
is asked as numbered options, after the table (every player's coins, landmarks and town,
the market, the landmarks each player has left with their costs, and how to win) is
printed; a build option shows the card's face (:mod:`.card_text`). Besides a number, the
person may answer ``?`` (a hint: the advisor, :func:`~machikoro.lab.advise.advise`, on
the position, within a budget of CPU seconds said before it starts) or ``card NAME`` /
``? NAME`` (a card's whole face), and is asked again."""

from __future__ import annotations

from ..logs.decision_text import option_text, question_text
from ..logs.event_text import position_lines
from .card_text import card_lines, face_line, find_card, landmark_lines

HELP_LINE = "  (a number answers; ? asks for a hint; card NAME, or ? NAME, shows a card)"
"""The line under the options: what else the prompt takes."""


class InputEnded(Exception):
    """The person's input ended (end of file) before the game did."""


class TerminalPlayer:
    """An agent whose ``choose`` asks a person: it writes the table, the question and the
    options numbered from 1 on ``out``, and reads the answer from ``read`` (a callable
    returning one line, as ``input`` does; it raises EOFError at the end of input). ``?``
    runs the advisor for at most ``hint_seconds`` of CPU (greedy playouts for every
    seat) and shows the options ranked; ``card NAME`` or ``? NAME`` shows a card; any
    other line that is no option's number is asked again. Raises :class:`InputEnded` at
    the end of input; Ctrl-C goes through as KeyboardInterrupt."""

    def __init__(self, read, out, hint_seconds: float = 2.0):
        self.read = read
        self.out = out
        self.hint_seconds = hint_seconds

    def choose(self, game, decision):
        """The option the person picks (one of ``decision.options``)."""
        out = self.out
        self._ask(game, decision)
        options = decision.options
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
            word, _, rest = text.partition(" ")
            if text == "?":
                self._hint(game, decision)
            elif word.lower() in ("?", "card") and rest.strip():
                self._card(game, rest)
            else:
                out.write(f"  '{text[:20]}' is not one of the numbers 1-{len(options)}, "
                          "? or card NAME\n")

    def _ask(self, game, decision) -> None:
        """The table, the question and the numbered options (a build option with the
        card's face under it), then :data:`HELP_LINE`."""
        out = self.out
        out.write(f"\nThe table (turn {game.turn + 1}):\n")
        for line in position_lines(game) + landmark_lines(game):
            out.write(line + "\n")
        out.write(question_text(game, decision) + "\n")
        builds = decision.name == "build" and decision.card is None
        for number, option in enumerate(decision.options, 1):
            out.write(f"  {number}. {option_text(game, decision, option)}\n")
            if builds and option is not None:
                out.write(f"       {face_line(game, decision.player, option)}\n")
        out.write(HELP_LINE + "\n")

    def _card(self, game, text: str) -> None:
        """Write the face of the card ``text`` names, or what it could be."""
        card, matches = find_card(game.rules, text)
        if card is None:
            known = f": {', '.join(matches)}" if matches else \
                f"; the cards: {', '.join(c.name for c in game.rules.cards)}"
            self.out.write(f"  '{text.strip()[:40]}' names no one card{known}\n")
            return
        for line in card_lines(game, card):
            self.out.write("  " + line + "\n")

    def _hint(self, game, decision) -> None:
        """Run the advisor on the position and write the options ranked, with their
        numbers, rates and 95% intervals."""
        from ..lab.advise import advise  # (NumPy and the agents: only when asked)

        out, who = self.out, game.names[decision.player]
        out.write(f"  thinking {self.hint_seconds:g} s of CPU (greedy plays every seat "
                  f"to the end after each option)...\n")
        out.flush()
        ranked = advise(game, games=max(20_000, len(decision.options)),
                        seconds=self.hint_seconds)
        played = sum(e.games for e in ranked)
        out.write(f"  hint: {who}'s chance to win after each option ({played:,} games "
                  f"played, 95% intervals), best first:\n")
        numbers = {id(option): n for n, option in enumerate(decision.options, 1)}
        labels = [option_text(game, decision, e.option) for e in ranked]
        width = max(map(len, labels))
        for e, label in zip(ranked, labels):
            out.write(f"  {numbers[id(e.option)]:>3}. {label:<{width}}  {e.rate:6.1%}  "
                      f"({e.low:.1%} to {e.high:.1%})\n")
