"""``round is Q``: the round the game is in (the first is 1), for effects that change with
time (a head start in the first rounds, an income that grows late in the game).

A round is every player's turn once: extra turns belong to the round of the turn that gave
them. On the game's ``turn`` (turns finished) and ``extra_turns`` (those that were extra
turns), the round of the turn being played is ``(turn - extra_turns) // players + 1``: what
the rules file's ``turn.build_only_rounds`` counts too.

Greedy's look-ahead keeps its tables by towns and coins, so a card with this condition is
not simulated there (``looked_ahead``): its roll is valued by the engine itself.
"""

from __future__ import annotations

from ...records import Record
from ..conditions import Quantity

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "round_is"
TABLE = "tests"


def round_of(game) -> int:
    """The round of the turn ``game`` is playing (1 for the first): every player's turn
    once, an extra turn in the round of the turn that gave it."""
    return (game.turn - game.extra_turns) // game.n + 1


def compiled_round(turn, extra_turns, players):
    """The compiled engine's form of :func:`round_of` (plain numbers; Numba compiles it
    where the engine is made)."""
    return (turn - extra_turns) // players + 1


class RoundIs(Record):
    """``if round is Q``: the round of the turn being played (1 for the first)."""

    reads: ClassVar[frozenset] = frozenset({"round"})
    looked_ahead: ClassVar[bool] = False  # greedy's look-ahead keys no table on the round

    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        """The reference rule: the game's round meets the quantity."""
        return self.quantity(round_of(game))


def compile(compiler, tree) -> RoundIs:
    """The compiler binding of ``round is QUANTITY``."""
    return RoundIs(compiler.quantity(tree.children[0]))


CONCEPT = {
    "name": "the round is", "kind": "condition",
    "words": "The game is in so many rounds (the first is round 1; an extra turn is in the "
             "round of the turn that gave it).",
    "phrases": (ALIAS,), "classes": (RoundIs,),
    "examples": ("if round is 3 or fewer, gain 1",),
    "gaps": {"lookahead": "its tables are kept by towns and coins, not by the round: the "
                          "card's roll falls back to the engine (exact, slower)"},
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
