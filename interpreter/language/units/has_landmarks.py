"""``owner|roller has Q landmarks``: how many of the landmarks that count for victory that
player has built, in its town as the effects see it.

A concept unit (issue 34), as :mod:`.doubles`; the player it reads is
:class:`~machikoro.language.conditions.Subject`'s.
"""

from __future__ import annotations

from ..conditions import Quantity, Subject

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "has_landmarks"
TABLE = "tests"


class HasLandmarks(Subject):
    """``if owner|roller has Q landmarks``: counts that player's built ``landmarks`` (the
    victory landmarks' card indices)."""

    reads: ClassVar[frozenset] = frozenset({"towns"})

    quantity: Quantity
    landmarks: tuple

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        town = game.towns_seen[self.seat(game, owner)]
        return self.quantity(sum(1 for i in self.landmarks if town[i]))


def compile(compiler, tree) -> HasLandmarks:
    """The compiler binding of ``has Q landmarks``."""
    return HasLandmarks(compiler.is_roller(tree), compiler.quantity(tree.children[1]),
                        compiler.vocab.victory)


CONCEPT = {
    "name": "has landmarks", "kind": "condition",
    "words": "The owner (or the roller) has so many landmarks built.",
    "phrases": (ALIAS,), "classes": (HasLandmarks,),
    "examples": ("if roller has 2 or more landmarks, gain 1",),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
