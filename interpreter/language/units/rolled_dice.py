"""``rolled Q dice``: how many dice the turn's roll threw (the roller's choice of dice, a
reroll's count; 0 before the roll and on a build-only turn). Machi Koro 2's cards that pay
only on a roll of one or of two dice.

Moved here from the language's conditions as the first existing concept made a unit
(issue 34): before, it was written in five files of three subpackages (the grammar, the
compiler's table, the conditions, the batched kernels and their table, the look-ahead's
list of roll tests); now in this module and the grammar.
"""

from __future__ import annotations

from ...records import Record
from ..conditions import Quantity

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "rolled_dice"
TABLE = "tests"


class RolledDice(Record):
    """``if rolled Q dice``: the number of dice of the turn's roll meets the quantity."""

    reads: ClassVar[frozenset] = frozenset({"roll"})

    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        """The reference rule: the dice the game's roll threw."""
        return self.quantity(len(game.dice))


def compile(compiler, tree) -> RolledDice:
    """The compiler binding of ``rolled QUANTITY dice``."""
    return RolledDice(compiler.quantity(tree.children[0]))


CONCEPT = {
    "name": "rolled dice", "kind": "condition",
    "words": "The roller rolled so many dice.",
    "phrases": (ALIAS,), "classes": (RolledDice,),
    "examples": ("if rolled 2 dice, gain 1",),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
