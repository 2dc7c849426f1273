"""``owner|roller has Q coins``: that player's coins now.

A concept unit (issue 34), as :mod:`.doubles`; the player it reads is
:class:`~machikoro.language.conditions.Subject`'s.
"""

from __future__ import annotations

from ..conditions import Quantity, Subject

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "has_coins"
TABLE = "tests"


class HasCoins(Subject):
    """``if owner|roller has Q coins``."""

    reads: ClassVar[frozenset] = frozenset({"coins"})

    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        return self.quantity(game.coins[self.seat(game, owner)])


def compile(compiler, tree) -> HasCoins:
    """The compiler binding of ``has Q coins``."""
    return HasCoins(compiler.is_roller(tree), compiler.quantity(tree.children[1]))


CONCEPT = {
    "name": "has coins", "kind": "condition",
    "words": "The owner (or the roller) has so many coins.",
    "phrases": (ALIAS,), "classes": (HasCoins,),
    "examples": ("if owner has 2 or more coins, gain 1",),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
