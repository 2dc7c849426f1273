"""``roll is Q``: the current roll total, after any changes to it (Harbor's ``add 2 to the
roll``).

A concept unit (issue 34), as :mod:`.doubles`.
"""

from __future__ import annotations

from ...records import Record
from ..conditions import Quantity

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "roll_is"
TABLE = "tests"


class RollIs(Record):
    """``if roll is Q``: the current roll total (after any changes to it)."""

    reads: ClassVar[frozenset] = frozenset({"roll"})

    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        return self.quantity(game.total)


def compile(compiler, tree) -> RollIs:
    """The compiler binding of ``roll is``."""
    return RollIs(compiler.quantity(tree.children[0]))


CONCEPT = {
    "name": "the roll is", "kind": "condition",
    "words": "The roll's total is so much.",
    "phrases": (ALIAS,), "classes": (RollIs,),
    "examples": ("if roll is 10 or more, gain 1",),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
