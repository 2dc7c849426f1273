"""Amounts of the effect language (``N``, ``N per NAMES [in every town | of theirs]``).

Every amount has ``value(game, owner, payer) -> int``: coins for one copy of the card.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fixed:
    """``N`` coins."""

    n: int

    def value(self, game, owner: int, payer: int) -> int:
        return self.n


@dataclass(frozen=True)
class PerCard:
    """``N per NAMES [in every town | of theirs]``: N for each matching card in the owner's
    town (default), in every town, or in the paying player's town."""

    n: int
    cards: tuple
    scope: str  # "owner", "every_town", "payer"

    def value(self, game, owner: int, payer: int) -> int:
        if self.scope == "every_town":
            return self.n * sum(town[i] for town in game.owned for i in self.cards)
        town = game.owned[payer if self.scope == "payer" else owner]
        return self.n * sum(town[i] for i in self.cards)
