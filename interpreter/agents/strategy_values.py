"""The strategy words of the effect language: values and tests only a strategy file may use.

The effect language (below the engine) parses them; what they mean needs the engine's
expectations or the strategy itself, so they are made here and handed to the language's
compiler as ``extensions`` (:func:`extensions`). Each object has the language's usual
method: ``value(game, owner, item=None)`` (``item``: the card index being ranked) or
``test(game, owner)``; ``owner`` is the strategy's seat.

- ``cost``, ``copies``, ``expected income``: the card being ranked (its cost in coins, the
  owner's copies of it, the coins per round one more copy is expected to bring the owner);
- ``roll income``: coins the current roll brings the owner (what it gains less what it
  pays, through the whole income step); ``roll pays nothing``, ``roll pays Q coins``;
- ``expected income with N dice``: the owner's expected income from its own roll of N dice;
- ``best paying total``: the roll total that would pay the owner most on its own roll;
- ``build list done``: every card of the build list it belongs to is at its cap, at the
  card's limit, or sold out.
"""

from __future__ import annotations

from ..engine import expectations
from ..engine.game import Game
from ..language.conditions import Quantity
from ..records import Record


class OptionCost(Record):
    """``cost``: what the card being ranked costs the owner now, in coins (its tier and
    the cost changes in force, :meth:`~machikoro.engine.game.Game.cost_to`)."""

    def value(self, game: Game, owner: int, item=None) -> int:
        return game.cost_to(owner, item)


class OptionCopies(Record):
    """``copies``: how many copies of the card being ranked the owner has."""

    def value(self, game: Game, owner: int, item=None) -> int:
        return game.owned[owner][item]


class ExpectedIncome(Record):
    """``expected income``: expected coins per round (every player's turn once) one more
    copy of the card being ranked brings the owner, given every town now
    (:func:`~machikoro.engine.expectations.card_value`; 0 for a landmark)."""

    def value(self, game: Game, owner: int, item=None) -> float:
        return expectations.card_value(game, owner, item)


def roll_income(game: Game, owner: int) -> int:
    """Coins the current roll (its faces and total) brings ``owner``, less what it pays:
    the whole income step, run on a copy of the game."""
    return expectations.outcome_income(game, game.current, game.dice, game.total)[owner]


class RollIncome(Record):
    """``roll income``: coins the current roll brings the owner (see :func:`roll_income`)."""

    def value(self, game: Game, owner: int, item=None) -> int:
        return roll_income(game, owner)


class RollPays(Record):
    """``roll pays Q coins`` (``roll pays nothing``: 0 or fewer): the current roll's income
    for the owner compared with Q."""

    quantity: Quantity

    def test(self, game: Game, owner: int) -> bool:
        return self.quantity(roll_income(game, owner))


class ExpectedRollIncome(Record):
    """``expected income with N dice``: the owner's expected coins from its own roll of
    ``dice`` dice now."""

    dice: int

    def value(self, game: Game, owner: int, item=None) -> float:
        return expectations.expected_roll_income(game, owner, self.dice)


class BestPayingTotal(Record):
    """``best paying total``: the roll total that would bring the owner the most coins on
    its own roll now, over every total the rule set's dice counts can make (the lowest such
    total on a tie); 0 when no total pays anything."""

    def value(self, game: Game, owner: int, item=None) -> int:
        rules = game.rules
        counts = {rules.dice_count} | {n for _, options in rules.dice_options for n in options}
        best, best_income = 0, 0
        done: set = set()
        for dice in sorted(counts):
            for total in range(dice, dice * rules.dice_faces + 1):
                if total in done:
                    continue
                done.add(total)
                income = expectations.roll_income(game, owner, total, dice)[owner]
                if income > best_income:  # totals rise, so a tie keeps the lower
                    best, best_income = total, income
        return best


class BuildListDone(Record):
    """``build list done``: no card of the build list can ever be built again under it:
    each is at the entry's cap or the card's limit, or (an establishment) sold out.
    ``cards`` holds ``(card index, cap)`` pairs."""

    cards: tuple

    def test(self, game: Game, owner: int) -> bool:
        rules, town, supply = game.rules, game.owned[owner], game.supply
        for i, cap in self.cards:
            if town[i] < cap and town[i] < rules.limit[i] and (
                    supply[i] > 0 or rules.cards[i].is_landmark):
                return False
        return True


def extensions(build_cards: tuple = ()) -> dict:
    """The compiler's ``extensions`` for a strategy file: ``{grammar alias: factory}``;
    ``build_cards`` (``(card index, cap)`` pairs) is the build list ``build list done``
    reads."""
    return {
        "option_cost": OptionCost,
        "option_copies": OptionCopies,
        "expected_income": ExpectedIncome,
        "roll_income": RollIncome,
        "roll_pays": RollPays,
        "roll_pays_nothing": lambda: RollPays(Quantity("<=", 0)),
        "expected_roll_income": ExpectedRollIncome,
        "best_paying_total": BestPayingTotal,
        "build_list_done": lambda: BuildListDone(tuple(build_cards)),
    }
