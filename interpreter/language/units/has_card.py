"""``owner|roller has NAME``: that player has at least one of the named cards (a landmark
built, or a copy of an establishment), in its town as the effects see it.

A concept unit (issue 34), as :mod:`.doubles`; the player it reads is
:class:`~machikoro.language.conditions.Subject`'s.
"""

from __future__ import annotations

from ..conditions import Subject

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "has_card"
TABLE = "tests"


class HasCard(Subject):
    """``if owner|roller has NAME``: that player owns at least one of ``cards`` (card
    indices)."""

    reads: ClassVar[frozenset] = frozenset({"towns"})

    cards: tuple

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        town = game.towns_seen[self.seat(game, owner)]
        return any(town[i] for i in self.cards)


def compile(compiler, tree) -> HasCard:
    """The compiler binding of ``has NAME`` (one card id)."""
    from lark import Tree

    return HasCard(compiler.is_roller(tree),
                   compiler.names(Tree("names", [tree.children[1]]), ("id",)))


CONCEPT = {
    "name": "has a card", "kind": "condition",
    "words": "The owner (or the roller) has one of the named cards.",
    "phrases": (ALIAS,), "classes": (HasCard,),
    "examples": ("if owner has shopping_mall, gain 1", "if roller has radio_tower, gain 1"),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
