"""``owner|roller has Q NAMES``: how many copies of the named cards (ids, or every card of
the icons or colours named) that player's town holds, as the effects see it.

A concept unit (issue 34), as :mod:`.doubles`; the player it reads is
:class:`~machikoro.language.conditions.Subject`'s.
"""

from __future__ import annotations

from ..conditions import Quantity, Subject

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "has_count"
TABLE = "tests"


class HasCount(Subject):
    """``if owner|roller has Q NAMES``: that player's copies of ``cards`` (card indices)
    compared with ``quantity``."""

    reads: ClassVar[frozenset] = frozenset({"towns"})

    quantity: Quantity
    cards: tuple

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        town = game.towns_seen[self.seat(game, owner)]
        return self.quantity(sum(town[i] for i in self.cards))


def compile(compiler, tree) -> HasCount:
    """The compiler binding of ``has Q NAMES``."""
    return HasCount(compiler.is_roller(tree), compiler.quantity(tree.children[1]),
                    compiler.names(tree.children[2], ("id", "icon", "colour")))


CONCEPT = {
    "name": "has cards", "kind": "condition",
    "words": "The owner (or the roller) has so many copies of the named cards.",
    "phrases": (ALIAS,), "classes": (HasCount,),
    "examples": ("if owner has 2 or more cup, gain 1",),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
