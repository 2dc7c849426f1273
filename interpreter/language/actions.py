"""Actions of the effect language: what a clause does to the game.

``run(game, card, owner, copies)`` changes the game. Actions that ask a decision have
``decision`` (its name, or None for the card's id), ``options(game, card, owner)`` and
``resolve(game, card, owner, copies, answer)`` instead. Static powers (:data:`STATIC`) do
nothing when run: the rule-set loader turns them into tables the engine reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from .conditions import Quantity


@dataclass(frozen=True)
class Gain:
    """``gain AMOUNT``: the bank pays the owner AMOUNT (plus boosts) per copy."""

    amount: object
    source: str = "bank"

    def run(self, game, card: int, owner: int, copies: int) -> None:
        per = self.amount.value(game, owner, owner) + game.boost(card, owner)
        if per > 0:
            game.gain(owner, per * copies, card)


@dataclass(frozen=True)
class PayBank:
    """``pay AMOUNT to the bank``: the owner pays what it can of AMOUNT per copy."""

    amount: object
    source: str = ""

    def run(self, game, card: int, owner: int, copies: int) -> None:
        owed = self.amount.value(game, owner, owner) * copies
        if owed > 0:
            game.pay_bank(owner, owed, card)


@dataclass(frozen=True)
class TakeFromRoller:
    """``take AMOUNT from roller``: the roller pays the owner, only what the roller has."""

    amount: object
    source: str = "roller"

    def run(self, game, card: int, owner: int, copies: int) -> None:
        roller = game.current
        if roller == owner:
            return
        per = self.amount.value(game, owner, roller) + game.boost(card, owner)
        if per > 0:
            game.transfer(roller, owner, per * copies, card)


@dataclass(frozen=True)
class TakeFromEach:
    """``take AMOUNT from each other player [with Q coins]``: every other player (those
    holding Q coins, when given) pays the owner, each only what it has; asked in payment
    order starting after the owner."""

    amount: object
    holding: Quantity | None = None
    source: str = "players"

    def run(self, game, card: int, owner: int, copies: int) -> None:
        boost = game.boost(card, owner)
        for payer in game.others(owner):
            if self.holding is not None and not self.holding(game.coins[payer]):
                continue
            per = self.amount.value(game, owner, payer) + boost
            if per > 0:
                game.transfer(payer, owner, per * copies, card)


@dataclass(frozen=True)
class TakeFromChosen:
    """``take AMOUNT from a chosen player``: the owner chooses another player (a decision
    named after the card), who pays what it can."""

    amount: object
    source: str = "players"
    decision: str | None = None
    chooses_player: bool = True  # the answer is a seat (for event text)

    def options(self, game, card: int, owner: int) -> tuple:
        return tuple(game.others(owner))

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        per = self.amount.value(game, owner, answer) + game.boost(card, owner)
        if per > 0:
            game.transfer(answer, owner, per * copies, card)


@dataclass(frozen=True)
class Swap:
    """``[may] swap an establishment [except NAMES] with a chosen player``: the owner gives
    one of its establishments and takes one of another player's (never a landmark, never
    an excluded card). A decision named after the card; its options are ``None`` (with
    ``may``) and mappings ``{"give": ID, "take": ID, "from": SEAT}``."""

    optional: bool
    swappable: tuple  # card indices that may change hands
    source: str = ""
    decision: str | None = None

    def options(self, game, card: int, owner: int) -> tuple:
        ids = game.rules.ids
        own = [i for i in self.swappable if game.owned[owner][i]]
        out: list = [None] if self.optional else []
        for other in game.others(owner):
            theirs = [i for i in self.swappable if game.owned[other][i]]
            for give in own:
                for take in theirs:
                    out.append({"give": ids[give], "take": ids[take], "from": other})
        if not out:
            out.append(None)
        return tuple(out)

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        if answer is None:
            return
        index = game.rules.index
        game.swap(owner, index[answer["give"]], answer["from"], index[answer["take"]], card)


@dataclass(frozen=True)
class ExtraTurn:
    """``extra turn``: the owner takes another turn after this one."""

    source: str = ""

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.grant_extra_turn(owner, card)


@dataclass(frozen=True)
class Reroll:
    """``may reroll``: once per turn, the roller may roll again (decision ``reroll``); only
    the new result counts. Options ``False``/``True`` (same number of dice), or, with the
    rules option ``reroll_same_dice: false``, ``False`` or the number of dice to reroll."""

    source: str = ""
    decision: str | None = "reroll"

    def options(self, game, card: int, owner: int) -> tuple:
        if game.rules.options["reroll_same_dice"]:
            return (False, True)
        return (False,) + game.dice_counts(owner)

    def available(self, game, card: int) -> bool:
        return card not in game.rerolls_used

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        if answer is True:
            game.reroll(card)
        elif answer is not False:
            game.reroll(card, answer)


@dataclass(frozen=True)
class AddToRoll:
    """``may add N to the roll``: the roller may raise the total by N (a decision named
    after the card); the new total is the roll for everyone."""

    n: int
    source: str = ""
    decision: str | None = None

    def options(self, game, card: int, owner: int) -> tuple:
        return (False, True)

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        if answer:
            game.add_to_roll(self.n, card)


@dataclass(frozen=True)
class DiceChoice:
    """``roll N or M dice`` (static): the owner chooses how many dice to roll (``dice``)."""

    counts: tuple
    source: str = ""


@dataclass(frozen=True)
class Boost:
    """``NAMES cards pay N more`` (static): each of the owner's matching cards pays N more
    coins per copy whenever it pays."""

    cards: tuple
    n: int
    source: str = ""


STATIC = (DiceChoice, Boost)
