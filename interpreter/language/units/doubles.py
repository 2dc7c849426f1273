"""``doubles``: two or more dice were rolled and all show the same face (the Amusement
Park's extra turn, Harbor's and Machi Koro 2's cards that pay on doubles).

A concept unit (issue 34): its reference rule, its compiler binding and its registry
entry, here; before, in five files of three subpackages (the grammar, the compiler's table,
the conditions, the kernels and their table, the valuation's list and reading).
"""

from __future__ import annotations

from ...records import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "doubles"
TABLE = "tests"


class Doubles(Record):
    """``if doubles``: two or more dice were rolled and all show the same face."""

    reads: ClassVar[frozenset] = frozenset({"roll"})

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        dice = game.dice
        return len(dice) > 1 and dice.count(dice[0]) == len(dice)


def compile(compiler, tree) -> Doubles:
    """The compiler binding of ``doubles``."""
    return Doubles()


CONCEPT = {
    "name": "doubles", "kind": "condition",
    "words": "The roll's dice all show the same number.",
    "phrases": (ALIAS,), "classes": (Doubles,),
    "examples": ("if doubles, gain 1",),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
