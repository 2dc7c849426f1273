"""The ``order`` decision: the owner of several activated cards of a colour whose owner
chooses the order (rules file: ``owner_orders: true``) picks the order they resolve in,
when it can change the result (the rules: 紫が複数種類あれば、自分の都合のよい順で処理できます).

The decision is a queue item placed before the owner's items of that colour group; its
``copies`` slot holds how many items follow it. Options are the orders of the cards whose
order matters, as tuples of card ids; the other items keep their market order, first.
"""

from __future__ import annotations

from itertools import permutations

from ..language.clauses import Clause
from ..records import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar


class Reorder(Record):
    """Choose the order of ``kinds`` (card indices) among the next queue items."""

    kinds: tuple
    asks: ClassVar[bool] = True
    static: ClassVar[bool] = False
    decision: ClassVar[str] = "order"
    chooses_player: ClassVar[bool] = False
    source: ClassVar[str] = ""

    def options(self, game, card: int, owner: int) -> tuple:
        ids = game.rules.ids
        return tuple(tuple(ids[k] for k in order) for order in permutations(self.kinds))

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        rank = {game.rules.index[card_id]: n for n, card_id in enumerate(answer)}
        start = game.qpos
        block = game.queue[start:start + copies]
        block.sort(key=lambda item: rank.get(item[0], -1))  # stable: copies keep order
        game.queue[start:start + copies] = block


def order_clause(kinds: tuple) -> Clause:
    """The pseudo-clause of one ``order`` decision over ``kinds``."""
    return Clause(None, (), Reorder(kinds), "order")
