"""Amounts of the effect language: how many coins an action moves.

Every amount has ``value(game, card, owner, payer) -> int``: coins for one copy of ``card``
owned by ``owner``, paid by ``payer`` (the owner itself for bank income), and
``explain(game, card, owner, payer) -> dict``: the same value with what went into it, for
the explanation of an event (read before any coin of the payment moves): ``value`` (the
coins per copy), ``text`` (the amount as written, ``3 per cow``) and, by kind, ``count``
(the cards counted), ``coins`` (the payer's coins, or the coins on the card) or ``total``
(the side roll). ``text`` is set by the compiler. ``reads`` names the
parts of the game state the value depends on (for the purple-order check,
:mod:`machikoro.rules.tables`). Cards are counted in ``game.towns_seen``: in the income step,
the towns as they stood at the roll (rules ``income.towns``); coins are read as they are.
"""

from __future__ import annotations

from ..records import Record, field

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar


class Fixed(Record):
    """``N`` coins (``gain 1``, ``gain 1 coin``)."""

    n: int
    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset()

    def value(self, game, card: int, owner: int, payer: int) -> int:
        return self.n

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        return {"text": self.text, "value": self.n}


class PerCard(Record):
    """``N per NAMES [in every town | of theirs]``: N for each matching card in the owner's
    town (default), in every town, or in the paying player's town. NAMES are card ids,
    icons or colours; ``N per landmark`` counts the built landmarks that count for victory
    (their indices are ``cards``)."""

    n: int
    cards: tuple
    scope: str  # "owner", "every_town", "payer"
    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset({"towns"})

    def value(self, game, card: int, owner: int, payer: int) -> int:
        if self.scope == "every_town":
            return self.n * sum(town[i] for town in game.towns_seen for i in self.cards)
        town = game.towns_seen[payer if self.scope == "payer" else owner]
        return self.n * sum(town[i] for i in self.cards)

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        count = self.value(game, card, owner, payer) // self.n
        return {"text": self.text, "value": self.n * count, "per": self.n, "count": count}


class PerChosen(Record):
    """``N per copy of it [in every town | of theirs]``: N for each copy of the kind chosen
    earlier in the same clause (``choose an establishment, then ...``)."""

    n: int
    scope: str  # "owner", "every_town", "payer"
    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset({"towns"})

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        count = self.value(game, card, owner, payer) // self.n
        return {"text": self.text, "value": self.n * count, "per": self.n, "count": count}

    def value(self, game, card: int, owner: int, payer: int) -> int:
        kind = game.bound
        if kind is None:
            return 0
        if self.scope == "every_town":
            return self.n * sum(town[kind] for town in game.towns_seen)
        return self.n * game.towns_seen[payer if self.scope == "payer" else owner][kind]


class AllCoins(Record):
    """``all of their coins``: every coin the paying player holds (Members Only Club)."""

    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset({"coins"})

    def value(self, game, card: int, owner: int, payer: int) -> int:
        return game.coins[payer]

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        return {"text": self.text, "value": game.coins[payer], "coins": game.coins[payer]}


class HalfCoins(Record):
    """``half of their coins``: half the paying player's coins, rounded down (Tax Office)."""

    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset({"coins"})

    def value(self, game, card: int, owner: int, payer: int) -> int:
        return game.coins[payer] // 2

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        coins = game.coins[payer]
        return {"text": self.text, "value": coins // 2, "coins": coins}


class CardCoins(Record):
    """``the coins on this card``: the coins the owner has stored on this card (a marker
    that holds coins; Tech Startup). ``marker`` is the marker's index in the rule set. A
    card that moved in this income step after it activated took its coins with it: they
    are read where it is now (none once back in the market)."""

    marker: int
    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset({"markers"})

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        coins = self.value(game, card, owner, payer)
        return {"text": self.text, "value": coins, "coins": coins}

    def value(self, game, card: int, owner: int, payer: int) -> int:
        if game.income_moves is not None:
            where = game.activated_copies(owner, card, 1)
            return game.marks[self.marker][where[0][0]][card] if where else 0
        return game.marks[self.marker][owner][card]


class SideRoll(Record):
    """``the total of a side roll of N dice``: N dice rolled once, in one income step, for
    every copy of this card that needs it (Tuna Boat); the side roll activates nothing."""

    dice: int
    text: str = field(default="", compare=False, repr=False)
    reads: ClassVar[frozenset] = frozenset()

    def value(self, game, card: int, owner: int, payer: int) -> int:
        return game.side_roll(card, self.dice)

    def explain(self, game, card: int, owner: int, payer: int) -> dict:
        total = game.side_roll(card, self.dice)  # rolled already: the value just paid
        return {"text": self.text, "value": total, "total": total}
