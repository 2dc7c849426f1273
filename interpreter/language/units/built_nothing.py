"""``built nothing``: the current turn's build step built no card (Machi Koro's Airport,
the Charterhouse and others that pay a player who builds nothing).

A concept unit (issue 34), as :mod:`.doubles`.
"""

from __future__ import annotations

from ...records import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "built_nothing"
TABLE = "tests"


class BuiltNothing(Record):
    """``if built nothing``: the current turn's build step built no card."""

    reads: ClassVar[frozenset] = frozenset({"towns"})

    def test(self, game, owner: int) -> bool:
        """The reference rule (the scalar engine's; greedy's look-ahead runs it on its view
        of a roll)."""
        return not game.built_this_turn


def compile(compiler, tree) -> BuiltNothing:
    """The compiler binding of ``built nothing``."""
    return BuiltNothing()


CONCEPT = {
    "name": "built nothing", "kind": "condition",
    "words": "The owner built nothing this turn.",
    "phrases": (ALIAS,), "classes": (BuiltNothing,),
    "examples": ("at end of turn, if built nothing, gain 1",
                 "if built nothing, take 2 from the roller"),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
