"""Conditions of the effect language (``if doubles``, ``if owner has 2 or more cow``...).

Every condition has ``test(game, owner) -> bool``; ``owner`` is the seat owning the card,
and ``reads``: the parts of the game state it depends on (for the purple-order check).
Towns are read in ``game.towns_seen``: in the income step, the towns as they stood at the
roll (rules ``income.towns``); coins, the roll and the market are read as they are.
:class:`Quantity` is the comparison with a number they share (``N``, ``N or more``...).
"""

from __future__ import annotations

from ..records import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar


class Quantity(Record):
    """A comparison with a number: ``op`` is one of ``== >= <= < >``."""

    op: str
    n: int

    def __call__(self, value: int) -> bool:
        op, n = self.op, self.n
        if op == "==":
            return value == n
        if op == ">=":
            return value >= n
        if op == "<=":
            return value <= n
        if op == "<":
            return value < n
        return value > n

    def __str__(self) -> str:
        return {"==": "{}", ">=": "{} or more", "<=": "{} or fewer", "<": "fewer than {}",
                ">": "more than {}"}[self.op].format(self.n)


class HasCard(Record):
    """``if owner|roller has NAME``: that player owns at least one of the cards."""

    reads: ClassVar[frozenset] = frozenset({"towns"})

    roller: bool
    cards: tuple

    def test(self, game, owner: int) -> bool:
        town = game.towns_seen[game.current if self.roller else owner]
        return any(town[i] for i in self.cards)


class HasLandmarks(Record):
    """``if owner|roller has Q landmarks``: counts built landmarks that count for victory."""

    reads: ClassVar[frozenset] = frozenset({"towns"})

    roller: bool
    quantity: Quantity
    landmarks: tuple

    def test(self, game, owner: int) -> bool:
        town = game.towns_seen[game.current if self.roller else owner]
        return self.quantity(sum(1 for i in self.landmarks if town[i]))


class HasCoins(Record):
    """``if owner|roller has Q coins``."""

    reads: ClassVar[frozenset] = frozenset({"coins"})

    roller: bool
    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        return self.quantity(game.coins[game.current if self.roller else owner])


class HasCount(Record):
    """``if owner|roller has Q NAMES``: how many matching cards (copies of the ids, or cards
    with the icons or colours) that player's town holds."""

    reads: ClassVar[frozenset] = frozenset({"towns"})

    roller: bool
    quantity: Quantity
    cards: tuple

    def test(self, game, owner: int) -> bool:
        town = game.towns_seen[game.current if self.roller else owner]
        return self.quantity(sum(town[i] for i in self.cards))


class ReceivedCoins(Record):
    """``if owner|roller received no coins this turn`` (or ``received Q coins``): the coins
    that player received so far in the current turn, from the bank or from other players,
    whatever it paid (``game.received``; the engine counts them only in a rule set that
    reads them). Machi Koro 2's Charterhouse."""

    reads: ClassVar[frozenset] = frozenset({"coins"})

    roller: bool
    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        return self.quantity(game.received[game.current if self.roller else owner])


# ------------------------------------------------------------- combinations and comparisons


class AllOf(Record):
    """``A and B``: every test holds (used inside ``or`` and ``not``; a clause's own
    top-level ``and`` is its tuple of conditions)."""

    tests: tuple

    def test(self, game, owner: int) -> bool:
        for t in self.tests:
            if not t.test(game, owner):
                return False
        return True


class AnyOf(Record):
    """``A or B``: at least one test holds (``and`` binds tighter: ``A and B or C`` is
    ``(A and B) or C``)."""

    tests: tuple

    def test(self, game, owner: int) -> bool:
        for t in self.tests:
            if t.test(game, owner):
                return True
        return False


class Not(Record):
    """``not A``: the test does not hold."""

    inner: object

    def test(self, game, owner: int) -> bool:
        return not self.inner.test(game, owner)


COMPARE = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           "<": lambda a, b: a < b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b}
"""The comparison signs of ``VALUE SIGN VALUE``."""


class Compare(Record):
    """``VALUE SIGN VALUE``, e.g. ``owner coins >= cost of missing landmarks`` or
    ``roller coins > owner coins``; ``op`` is one of ``>= <= > < = !=``
    (values: :mod:`machikoro.language.values`)."""

    left: object
    op: str
    right: object

    def test(self, game, owner: int) -> bool:
        return COMPARE[self.op](self.left.value(game, owner), self.right.value(game, owner))


class MarketHas(Record):
    """``market has ID`` (at least one copy left) or ``market has Q NAMES``: copies of the
    named establishments left in the market."""

    quantity: Quantity
    cards: tuple

    def test(self, game, owner: int) -> bool:
        supply = game.supply
        return self.quantity(sum(supply[i] for i in self.cards))


class OtherPlayers(Record):
    """``any|every|no other player has ...``: the test about a player (``inner``, read for
    each of the owner's opponents in turn) holds for at least one (``any``), for all
    (``every``) or for none (``none``) of them."""

    mode: str
    inner: object

    def test(self, game, owner: int) -> bool:
        inner = self.inner
        found = [inner.test(game, other) for other in game.others(owner)]
        if self.mode == "any":
            return any(found)
        if self.mode == "every":
            return all(found)
        return not any(found)
