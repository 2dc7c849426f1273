"""Numbers of the effect language: game values, their sums and products, and rankings.

A value has ``value(game, owner, item=None) -> number``: ``owner`` is the seat whose point of
view it takes (the card's owner, or a strategy's player); ``item`` is the thing being ranked
by a strategy's ``prefer`` (a card index, or a seat for ``player``), None elsewhere.
Examples: ``owner coins``, ``roller landmarks``, ``copies of bread or cup`` (the owner's),
``roller copies of cup``,
``market ranch`` (copies left in the market), ``cost of cheese_factory``, ``cost of missing
landmarks``, ``roll``, ``most coins of other players``, and ``+``, ``-``, ``*`` of them.

Conditions compare two values (:class:`~machikoro.language.conditions.Compare`); a strategy
ranks options by one (:class:`Ranking`). Cards are counted in ``game.towns_seen`` (in the
income step, the towns as they stood at the roll: rules ``income.towns``).
"""

from __future__ import annotations

from ..records import Record

OWNER, ROLLER, ITEM = "owner", "roller", "item"
"""Whose value a player value reads: the owner, the current roller, or the ranked player."""


def seat_of(who: str, game, owner: int, item) -> int:
    """The seat ``who`` (:data:`OWNER`, :data:`ROLLER` or :data:`ITEM`) stands for."""
    if who == OWNER:
        return owner
    if who == ROLLER:
        return game.current
    return item


class Number(Record):
    """``N``: a whole number."""

    n: int

    def value(self, game, owner: int, item=None) -> int:
        return self.n


class CoinsOf(Record):
    """``owner|roller|player coins``: that player's coins."""

    who: str

    def value(self, game, owner: int, item=None) -> int:
        return game.coins[seat_of(self.who, game, owner, item)]


class LandmarksOf(Record):
    """``owner|roller|player landmarks``: how many of ``landmarks`` (those counted for
    victory) that player has built."""

    who: str
    landmarks: tuple

    def value(self, game, owner: int, item=None) -> int:
        town = game.towns_seen[seat_of(self.who, game, owner, item)]
        return sum(1 for i in self.landmarks if town[i])


class CardsOf(Record):
    """``[owner|roller|player] copies of NAMES``: copies of the named cards (ids, icons,
    colours) in that player's town (the owner's when no player is named)."""

    who: str
    cards: tuple

    def value(self, game, owner: int, item=None) -> int:
        town = game.towns_seen[seat_of(self.who, game, owner, item)]
        return sum(town[i] for i in self.cards)


class MarketCards(Record):
    """``market NAMES``: copies of the named establishments left in the market."""

    cards: tuple

    def value(self, game, owner: int, item=None) -> int:
        supply = game.supply
        return sum(supply[i] for i in self.cards)


class CostOf(Record):
    """``cost of ID``: what the card costs to build, in coins."""

    card: int

    def value(self, game, owner: int, item=None) -> int:
        return game.cost_to(owner, self.card)


class MissingCost(Record):
    """``cost of missing landmarks``: coins the owner still needs to build every landmark
    counted for victory that it lacks."""

    landmarks: tuple

    def value(self, game, owner: int, item=None) -> int:
        town, cost = game.towns_seen[owner], game.cost_to
        return sum(cost(owner, i) for i in self.landmarks if not town[i])


class RollTotal(Record):
    """``roll``: the current roll total (after any changes to it)."""

    def value(self, game, owner: int, item=None) -> int:
        return game.total


class OtherPlayersBest(Record):
    """``most|fewest STAT of other players``: the highest (``most``) or lowest value of
    ``stat`` (coins, landmarks or copies of cards, read for each player) among the owner's
    opponents."""

    stat: object
    most: bool

    def value(self, game, owner: int, item=None):
        stat = self.stat
        values = [stat.value(game, owner, other) for other in game.others(owner)]
        return (max if self.most else min)(values) if values else 0


class Arithmetic(Record):
    """``A + B``, ``A - B``, ``A * B``."""

    op: str
    left: object
    right: object

    def value(self, game, owner: int, item=None):
        a = self.left.value(game, owner, item)
        b = self.right.value(game, owner, item)
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        return a * b


class Ranking(Record):
    """How a strategy ranks options (its ``prefer``): the option with the highest ``keys``
    (compared in order) is preferred; ``target`` says what the options must be: ``card``
    (card ids), ``player`` (seats) or ``any`` (the list order alone: ``keys`` is empty).
    ``text`` is the source. Examples: ``most expensive``, ``highest expected income``,
    ``richest``, ``leader`` (most landmarks, then most coins)."""

    target: str
    keys: tuple
    text: str = ""

    def key(self, game, owner: int, item) -> tuple:
        """The sort key of option ``item`` for ``owner`` (higher is preferred)."""
        return tuple(k.value(game, owner, item) for k in self.keys)


class Negated(Record):
    """``lowest VALUE``: minus the value (a ranking prefers the highest key)."""

    inner: object

    def value(self, game, owner: int, item=None):
        return -self.inner.value(game, owner, item)
