"""``pay AMOUNT to the poorest other player``: the owner pays the other player holding the
fewest coins (the first of them in payment order on a tie), what it can: a catch-up rule
for a house rule (a card whose owner helps the one falling behind).

The first coin action made a concept unit (issue 34): its role, the seat it stands for, is
written here once per backend: :meth:`PayPoorest.counterpart` (the reference rule, which
the scalar engine and greedy's look-ahead run), :meth:`PayPoorest.compiled` (the compiled
engine's); the transfer itself is every backend's own one rule
(:func:`~machikoro.language.actions.move_coins` and its twins).
"""

from __future__ import annotations

from ...records import Record
from ..actions import OWNER, CoinAction, move_coins

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

ALIAS = "poorest"
TABLE = "payees"
ROLE = "poorest"
"""The role of the player paid: the other player with the fewest coins."""


class PayPoorest(CoinAction, Record):
    """``pay AMOUNT to the poorest other player``: the owner pays what it can of AMOUNT per
    copy to the other player holding the fewest coins."""

    amount: object
    payer: ClassVar[str] = OWNER
    payee: ClassVar[str] = ROLE
    writes: ClassVar[frozenset] = frozenset({"coins"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return getattr(self.amount, "reads", frozenset()) | {"coins"}

    @staticmethod
    def counterpart(game, owner: int) -> int | None:
        """The reference rule of the role: the other seat with the fewest coins, the first
        in payment order on a tie; None when there is none."""
        others = game.others(owner)
        if not others:
            return None
        coins = game.coins
        return min(others, key=coins.__getitem__)  # min keeps the first on a tie

    @staticmethod
    def compiled(coins, order, players):
        """The compiled engine's form of the role (Numba compiles it where the engine is
        made): ``coins`` the game's coins per seat, ``order`` every seat in payment order
        from the owner; the seat, -1 for none."""
        found = -1
        for k in range(1, players):
            if found < 0 or coins[order[k]] < coins[found]:
                found = order[k]
        return found

    def run(self, game, card: int, owner: int, copies: int):
        """The owner pays the poorest other player (False when there is none)."""
        payee = self.counterpart(game, owner)
        if payee is None:
            return False
        move_coins(game, card, owner, copies, self.amount, owner, payee)
        return None


def compile(amount) -> PayPoorest:
    """The compiler binding of ``pay AMOUNT to the poorest other player``."""
    return PayPoorest(amount)


CONCEPT = {
    "name": "pay the poorest other player", "kind": "action",
    "words": "The owner pays N coins, or all it has if fewer, to the other player with the "
             "fewest coins (the first in payment order on a tie).",
    "phrases": ("pay " + ALIAS,), "classes": (PayPoorest,),
    "examples": ("gain 3, then pay 2 to the poorest other player",),
}
"""Its entry of the registry (:class:`~machikoro.language.concepts.Concept`'s fields)."""
