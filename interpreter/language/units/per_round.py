"""``N per round``: N coins for each round the game has reached (1 in the first round, 2 in
the second...): an income that grows as the game goes on, for a house rule that speeds up
a long game's end (``gain 1 per round``; ``take 1 per round from the roller``).

The round is that of :mod:`.round_is` (an extra turn belongs to the round of the turn that
gave it). Greedy's look-ahead keeps its tables by towns and coins, not by the round, so a
card with this amount is not simulated there (``looked_ahead``): its roll is valued by the
engine itself. The second concept unit of the language, and its first amount (issue 34).
"""

from __future__ import annotations

from ...records import Record, field
from .round_is import round_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "per_round"
TABLE = "amounts"


class PerRound(Record):
    """``N per round``: ``n`` coins times the round of the turn being played."""

    n: int
    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset({"round"})
    looked_ahead: ClassVar[bool] = False

    def value(self, game, card: int, owner: int, payer: int) -> int:
        """The reference rule: ``n`` per round reached."""
        return self.n * round_of(game)

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        """The value with what went into it: ``per`` and ``count`` (the round)."""
        count = round_of(game)
        return {"text": self.text, "value": self.n * count, "per": self.n, "count": count}


def compile(compiler, tree) -> PerRound:
    """The compiler binding of ``N [coins] per round``."""
    return PerRound(compiler.positive(tree.children[0]))


CONCEPT = {
    "name": "N per round", "kind": "amount",
    "words": "N coins for each round the game has reached (1 in the first round, 2 in the "
             "second...).",
    "phrases": (ALIAS,), "classes": (PerRound,),
    "examples": ("gain 1 per round", "take 1 per round from the roller"),
    "gaps": {"lookahead": "its tables are kept by towns and coins, not by the round: the "
                          "card's roll falls back to the engine (exact, slower)"},
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
