"""``market has ID`` (one copy or more left) and ``market has Q NAMES``: the copies of the
named establishments (ids, or every card of the icons or colours named) the market has
left.

A concept unit (issue 34), as :mod:`.doubles`; it compiles two grammar aliases.
"""

from __future__ import annotations

from ...records import Record
from ..conditions import Quantity

ALIAS = ("market_has", "market_count")
TABLE = "tests"


class MarketHas(Record):
    """``if market has ...``: the market's copies of ``cards`` (card indices) compared with
    ``quantity``."""

    # (no ``reads``: the order analysis counts it as reading everything, as before)

    quantity: Quantity
    cards: tuple

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        supply = game.supply
        return self.quantity(sum(supply[i] for i in self.cards))


def compile(compiler, tree) -> MarketHas:
    """The compiler binding of ``market has ID`` and ``market has Q NAMES``."""
    if tree.data == "market_has":
        from lark import Tree

        return MarketHas(Quantity(">=", 1),
                         compiler.names(Tree("names", [tree.children[0]]), ("id",)))
    return MarketHas(compiler.quantity(tree.children[0]),
                     compiler.names(tree.children[1], ("id", "icon", "colour")))


CONCEPT = {
    "name": "the market has", "kind": "condition",
    "words": "The market has the named card, or so many of the named cards.",
    "phrases": ALIAS, "classes": (MarketHas,),
    "examples": ("if market has mine, gain 1", "if market has 2 or more cup, gain 1"),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
