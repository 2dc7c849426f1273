"""``owner|roller received Q coins this turn`` (or ``received no coins this turn``): the
coins that player received so far in the current turn, from the bank or from other players,
whatever it paid (Machi Koro 2's Charterhouse).

A concept unit (issue 34), as :mod:`.doubles`; the player it reads is
:class:`~machikoro.language.conditions.Subject`'s. The engines count what a player receives
only in a rule set that reads it (``RuleSet.tracks_received``).
"""

from __future__ import annotations

from ..conditions import Quantity, Subject

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "received_coins"
TABLE = "tests"


class ReceivedCoins(Subject):
    """``if owner|roller received Q coins this turn``: ``game.received`` of that player
    compared with ``quantity`` (``received no coins``: ``== 0``)."""

    reads: ClassVar[frozenset] = frozenset({"coins"})

    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's)."""
        return self.quantity(game.received[self.seat(game, owner)])


def compile(compiler, tree) -> ReceivedCoins:
    """The compiler binding of ``received Q coins this turn`` and ``received no coins
    this turn``."""
    told = tree.children[1]
    return ReceivedCoins(compiler.is_roller(tree), Quantity("==", 0)
                         if told.data == "received_none" else compiler.quantity(told))


CONCEPT = {
    "name": "the coins received this turn ('received ... coins')", "kind": "condition",
    "words": "The owner (or the roller) received so many coins this turn (or none).",
    "phrases": (ALIAS, "received_none"), "classes": (ReceivedCoins,),
    "examples": ("after income, if owner received no coins this turn, gain 1",),
    "uses": lambda rules: rules.tracks_received,
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
