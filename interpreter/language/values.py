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

Each game value holds its batched engine's form beside its reference rule:
``kernel(rules, item=False)`` gives ``(b, g, owner) -> int64 array`` over a batch ``b``
(:mod:`machikoro.vector.kernels`); ``item`` is True inside ``most|fewest ... of other
players``, whose statistic reads the player it is asked for, passed as ``owner``. A player
value about the ranked player elsewhere (a strategy's ``player coins``) has none: the
kernel raises :class:`~machikoro.errors.VectorUnsupported`. NumPy is imported only when a
kernel is made.
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


def seats_of(who: str, item: bool):
    """The batched form of :func:`seat_of`: ``(b, g, owner) -> seats``, the roller of each
    game or ``owner`` (inside ``most|fewest ... of other players`` the player asked
    about). Raises :class:`~machikoro.errors.VectorUnsupported` for the ranked player
    outside it (a strategy's ``player ...`` value)."""
    if who == ITEM and not item:
        from ..errors import VectorUnsupported

        raise VectorUnsupported("a strategy's 'player ...' value")
    if who == ROLLER:
        return lambda b, g, owner: b.current[g]
    return lambda b, g, owner: owner


def kernel_of(value, rules, item: bool = False):
    """``value.kernel(rules, item)``: the batched engine's form of a game value (the module
    text). Raises :class:`~machikoro.errors.VectorUnsupported` for a value with none (a
    strategy's ranking words)."""
    make = getattr(value, "kernel", None)
    if make is None:
        from ..errors import VectorUnsupported

        raise VectorUnsupported(f"the value '{type(value).__name__}'")
    return make(rules, item)


def _constant(n: int):
    """The kernel of a value that is ``n`` in every game."""
    import numpy as np

    return lambda b, g, owner: np.full(len(g), n, dtype=np.int64)


class Number(Record):
    """``N``: a whole number."""

    n: int

    def value(self, game, owner: int, item=None) -> int:
        return self.n

    def kernel(self, rules, item: bool = False):
        return _constant(self.n)


class CoinsOf(Record):
    """``owner|roller|player coins``: that player's coins."""

    who: str

    def value(self, game, owner: int, item=None) -> int:
        return game.coins[seat_of(self.who, game, owner, item)]

    def kernel(self, rules, item: bool = False):
        import numpy as np

        seats = seats_of(self.who, item)
        return lambda b, g, owner: b.seat_coins(g, seats(b, g, owner)).astype(np.int64)


class LandmarksOf(Record):
    """``owner|roller|player landmarks``: how many of ``landmarks`` (those counted for
    victory) that player has built."""

    who: str
    landmarks: tuple

    def value(self, game, owner: int, item=None) -> int:
        town = game.towns_seen[seat_of(self.who, game, owner, item)]
        return sum(1 for i in self.landmarks if town[i])

    def kernel(self, rules, item: bool = False):
        seats, landmarks = seats_of(self.who, item), self.landmarks
        return lambda b, g, owner: b.seen_built(g, seats(b, g, owner), landmarks)


class CardsOf(Record):
    """``[owner|roller|player] copies of NAMES``: copies of the named cards (ids, icons,
    colours) in that player's town (the owner's when no player is named)."""

    who: str
    cards: tuple

    def value(self, game, owner: int, item=None) -> int:
        town = game.towns_seen[seat_of(self.who, game, owner, item)]
        return sum(town[i] for i in self.cards)

    def kernel(self, rules, item: bool = False):
        seats, cards = seats_of(self.who, item), self.cards
        return lambda b, g, owner: b.seen_count(g, seats(b, g, owner), cards)


class MarketCards(Record):
    """``market NAMES``: copies of the named establishments left in the market."""

    cards: tuple

    def value(self, game, owner: int, item=None) -> int:
        supply = game.supply
        return sum(supply[i] for i in self.cards)

    def kernel(self, rules, item: bool = False):
        import numpy as np

        cards = list(self.cards)
        return lambda b, g, owner: b.supply[g][:, cards].sum(axis=1, dtype=np.int64)


class CostOf(Record):
    """``cost of ID``: what the card costs to build, in coins."""

    card: int

    def value(self, game, owner: int, item=None) -> int:
        return game.cost_to(owner, self.card)

    def kernel(self, rules, item: bool = False):
        """The batched engine's form: the rule set's cost (the batched engine plays no
        rule set whose costs change)."""
        return _constant(rules.cost[self.card])


class MissingCost(Record):
    """``cost of missing landmarks``: coins the owner still needs to build every landmark
    counted for victory that it lacks."""

    landmarks: tuple

    def value(self, game, owner: int, item=None) -> int:
        town, cost = game.towns_seen[owner], game.cost_to
        return sum(cost(owner, i) for i in self.landmarks if not town[i])

    def kernel(self, rules, item: bool = False):
        """The batched engine's form, at the rule set's costs (as :meth:`CostOf.kernel`)."""
        import numpy as np

        marks = list(self.landmarks)
        cost = np.array([rules.cost[i] for i in marks], dtype=np.int64)
        return lambda b, g, owner: ((b.seen_town(g, owner)[:, marks] == 0) * cost).sum(axis=1)


class RollTotal(Record):
    """``roll``: the current roll total (after any changes to it)."""

    def value(self, game, owner: int, item=None) -> int:
        return game.total

    def kernel(self, rules, item: bool = False):
        import numpy as np

        return lambda b, g, owner: b.total[g].astype(np.int64)


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

    def kernel(self, rules, item: bool = False):
        import numpy as np

        stat, most = kernel_of(self.stat, rules, item=True), self.most

        def best(b, g, owner):
            if b.players == 1:
                return np.zeros(len(g), dtype=np.int64)
            found = np.stack([stat(b, g, b.others[owner, k]) for k in range(b.players - 1)])
            return found.max(axis=0) if most else found.min(axis=0)
        return best


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

    def kernel(self, rules, item: bool = False):
        left, right, op = kernel_of(self.left, rules, item), \
            kernel_of(self.right, rules, item), self.op

        def arithmetic(b, g, owner):
            x, y = left(b, g, owner), right(b, g, owner)
            return x + y if op == "+" else x - y if op == "-" else x * y
        return arithmetic


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
