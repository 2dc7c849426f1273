"""Actions of the effect language: what a clause does to the game.

Two kinds of action:

- a plain action has ``run(game, card, owner, copies)``; it returns False when it did not
  happen (a ``then`` step after it is skipped), anything else when it did; a coin
  action moves its coins by one transfer rule (:func:`move_coins`);
- a choice asks its owner a decision: ``decision`` (its name, or None for the card's id),
  ``options(game, card, owner)`` (the legal answers; none means the action cannot happen
  and is skipped) and ``resolve(game, card, owner, copies, answer)``, which returns False
  when the answer did nothing (declined).

``asks`` tells them apart. Static powers (:data:`STATIC`) never run: the rule-set loader
turns them into tables the engine reads. ``reads`` and ``writes`` name the parts of the
game state an action depends on and changes (``coins``, ``towns``, ``markers``,
``market``, ``roll``; ``coins+`` for coins that only flow to the owner, ``*`` for
anything); the loader uses them to decide when the order of a player's cards can change
the result (:mod:`machikoro.rules.tables`). ``source`` is who pays, for the check against a
colour's ``income_from``.

Amounts and conditions read the towns as the rules say the income sees them
(``game.towns_seen``); what a choice offers and what an action changes are the towns as they
are now (``game.owned``): a player gives what it holds.
"""

from __future__ import annotations

from ..records import Record, replace
from .conditions import Quantity

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import ClassVar

_NOTHING: frozenset = frozenset()


class FrozenAnswer(dict):
    """An answer made of several parts (``{"give": ID, "take": ID, "from": SEAT}``): a
    mapping that cannot be changed, so that an agent editing an option it was handed cannot
    make an illegal answer pass. Equal to the plain dict with the same items."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("decision options are immutable; answer with a copy")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __reduce__(self):
        return (FrozenAnswer, (dict(self),))


class Plain:
    """Defaults of a plain action (no decision)."""

    asks: ClassVar[bool] = False
    static: ClassVar[bool] = False
    boosted: ClassVar[bool] = False
    source: ClassVar[str] = ""
    reads: ClassVar[frozenset] = _NOTHING
    writes: ClassVar[frozenset] = _NOTHING

    def possible(self, game, card: int, owner: int) -> bool:
        """True when running the action now can do something (``may`` asks only then)."""
        return True


class Choice:
    """Defaults of an action that asks its owner a decision named after the card."""

    asks: ClassVar[bool] = True
    static: ClassVar[bool] = False
    boosted: ClassVar[bool] = False
    source: ClassVar[str] = ""
    decision: ClassVar[str | None] = None
    chooses_player: ClassVar[bool] = False
    reads: ClassVar[frozenset] = _NOTHING
    writes: ClassVar[frozenset] = _NOTHING


def _amount_reads(amount) -> frozenset:
    return getattr(amount, "reads", _NOTHING)


# --------------------------------------------------------------------------- coins
#
# The coin actions are one rule, written once per backend: who pays (``payer``) whom
# (``payee``), each a role: BANK, OWNER, ROLLER, OTHERS (each other player in payment
# order), RICHEST (the other player holding the most coins, the first of them in payment
# order) or CHOSEN (another player the owner chooses). Here the rule is :func:`move_coins`;
# the compiled engine's (machikoro.compiled.kernels) and the look-ahead's
# (machikoro.engine.payouts) read the same roles.

BANK, OWNER, ROLLER, OTHERS, RICHEST, CHOSEN = ("bank", "owner", "roller", "others",
                                                "richest", "chosen")
"""The roles of a coin action's payer and payee."""


def move_coins(game, card: int, owner: int, copies: int, amount, payer: int | None,
               payee: int | None, boost: int = 0) -> None:
    """The transfer rule of every coin action, for one payer and one payee (seats; None
    is the bank): one copy's coins are ``amount`` read for the counterpart (the seat on the
    other side from the owner; the owner itself when that side is the bank), plus ``boost``
    (what the owner's boosting cards add when it receives); nothing moves unless that is
    more than 0; then ``copies`` times it is paid, a player paying only what it has, the
    bank in full (:meth:`~machikoro.engine.state_changes.StateChanges.transfer`)."""
    counterpart = payer if payee == owner else payee
    per = amount.value(game, card, owner, owner if counterpart is None else counterpart)
    per += boost
    if per <= 0:
        return
    if payer is None:
        game.gain(payee, per * copies, card)
    elif payee is None:
        game.pay_bank(payer, per * copies, card)
    else:
        game.transfer(payer, payee, per * copies, card)


class CoinAction(Plain):
    """A plain coin action: it names its ``payer`` and ``payee`` roles (a concept unit's
    role adds its own ``counterpart``), which the engines read."""


class Gain(CoinAction, Record):
    """``gain AMOUNT``: the bank pays the owner AMOUNT (plus boosts) per copy."""

    amount: object
    payer: ClassVar[str] = BANK
    payee: ClassVar[str] = OWNER
    boosted: ClassVar[bool] = True
    source: ClassVar[str] = "bank"
    writes: ClassVar[frozenset] = frozenset({"coins+"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount)

    def run(self, game, card: int, owner: int, copies: int) -> None:
        move_coins(game, card, owner, copies, self.amount, None, owner,
                   game.boost(card, owner))


class PayBank(CoinAction, Record):
    """``pay AMOUNT to the bank``: the owner pays what it can of AMOUNT per copy."""

    amount: object
    payer: ClassVar[str] = OWNER
    payee: ClassVar[str] = BANK
    writes: ClassVar[frozenset] = frozenset({"coins"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount) | {"coins"}

    def run(self, game, card: int, owner: int, copies: int) -> None:
        move_coins(game, card, owner, copies, self.amount, owner, None)


class PayEach(CoinAction, Record):
    """``pay AMOUNT to each other player``: the owner pays each other player, in payment
    order, what it can of AMOUNT per copy."""

    amount: object
    payer: ClassVar[str] = OWNER
    payee: ClassVar[str] = OTHERS
    writes: ClassVar[frozenset] = frozenset({"coins"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount) | {"coins"}

    def run(self, game, card: int, owner: int, copies: int) -> None:
        for payee in game.others(owner):
            move_coins(game, card, owner, copies, self.amount, owner, payee)


class PayRoller(CoinAction, Record):
    """``pay AMOUNT to the roller``: the owner pays the roller (never itself)."""

    amount: object
    payer: ClassVar[str] = OWNER
    payee: ClassVar[str] = ROLLER
    writes: ClassVar[frozenset] = frozenset({"coins"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount) | {"coins"}

    def run(self, game, card: int, owner: int, copies: int):
        roller = game.current
        if roller == owner:
            return False
        move_coins(game, card, owner, copies, self.amount, owner, roller)
        return None


class PayChosen(Choice, Record):
    """``pay AMOUNT to a chosen player``: the owner chooses another player and pays it."""

    amount: object
    optional: bool = False
    payer: ClassVar[str] = OWNER
    payee: ClassVar[str] = CHOSEN
    chooses_player: ClassVar[bool] = True
    writes: ClassVar[frozenset] = frozenset({"coins"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount) | {"coins"}

    def options(self, game, card: int, owner: int) -> tuple:
        return ((None,) if self.optional else ()) + tuple(game.others(owner))

    def resolve(self, game, card: int, owner: int, copies: int, answer):
        if answer is None:
            return False
        move_coins(game, card, owner, copies, self.amount, owner, answer)
        return None


class TakeFromRoller(CoinAction, Record):
    """``take AMOUNT from roller``: the roller pays the owner, only what the roller has."""

    amount: object
    payer: ClassVar[str] = ROLLER
    payee: ClassVar[str] = OWNER
    boosted: ClassVar[bool] = True
    source: ClassVar[str] = "roller"
    writes: ClassVar[frozenset] = frozenset({"coins+"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount)

    def run(self, game, card: int, owner: int, copies: int):
        roller = game.current
        if roller == owner:
            return False
        move_coins(game, card, owner, copies, self.amount, roller, owner,
                   game.boost(card, owner))
        return None


class TakeFromEach(CoinAction, Record):
    """``take AMOUNT from each other player [with Q coins]``: every other player (those
    holding Q coins, when given) pays the owner, each only what it has; asked in payment
    order starting after the owner."""

    amount: object
    holding: Quantity | None = None
    payer: ClassVar[str] = OTHERS
    payee: ClassVar[str] = OWNER
    boosted: ClassVar[bool] = True
    source: ClassVar[str] = "players"
    writes: ClassVar[frozenset] = frozenset({"coins+"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount) | ({"coins"} if self.holding else _NOTHING)

    def run(self, game, card: int, owner: int, copies: int) -> None:
        if copies > 1 and (self.holding is not None or "coins" in _amount_reads(self.amount)):
            # each copy acts on the coins the one before it left (half, then half of the
            # rest; a payer falling below the 'with Q coins' pays no more)
            one_by_one(game, copies, lambda: self.run(game, card, owner, 1))
            return
        boost = game.boost(card, owner)
        for payer in game.others(owner):
            if self.holding is None or self.holding(game.coins[payer]):
                move_coins(game, card, owner, copies, self.amount, payer, owner, boost)


def one_by_one(game, copies: int, run) -> None:
    """Run an action once per copy (``run()``), each copy on the coins the one before it
    left: the rule "each copy acts" for an amount or a filter that reads the payer's
    coins. An explained event cites one copy."""
    item = game.running
    if item is not None:
        game.running = (item[0], item[1], 1, item[3])
    for _ in range(copies):
        run()
    game.running = item


class TakeFromRichest(CoinAction, Record):
    """``take AMOUNT from the richest other player``: the other player holding the most
    coins pays (on a tie, the first of them in payment order after the owner)."""

    amount: object
    payer: ClassVar[str] = RICHEST
    payee: ClassVar[str] = OWNER
    boosted: ClassVar[bool] = True
    source: ClassVar[str] = "players"
    writes: ClassVar[frozenset] = frozenset({"coins+"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount) | {"coins"}

    @staticmethod
    def compiled(coins, order, players):
        """The compiled engine's form of the role (Numba compiles it where the engine is
        made): ``coins`` the game's coins per seat, ``order`` every seat in payment order
        from the owner; the seat, -1 for none."""
        found = -1
        for k in range(1, players):
            if found < 0 or coins[order[k]] > coins[found]:
                found = order[k]
        return found

    def run(self, game, card: int, owner: int, copies: int):
        others = game.others(owner)
        if not others:
            return False
        if copies > 1 and "coins" in _amount_reads(self.amount):  # (TakeFromEach.run)
            one_by_one(game, copies, lambda: self.run(game, card, owner, 1))
            return None
        coins = game.coins
        payer = max(others, key=lambda seat: coins[seat])  # max keeps the first on a tie
        move_coins(game, card, owner, copies, self.amount, payer, owner,
                   game.boost(card, owner))
        return None


class TakeFromChosen(Choice, Record):
    """``take AMOUNT from a chosen player``: the owner chooses another player (a decision
    named after the card), who pays what it can."""

    amount: object
    optional: bool = False
    payer: ClassVar[str] = CHOSEN
    payee: ClassVar[str] = OWNER
    boosted: ClassVar[bool] = True
    source: ClassVar[str] = "players"
    chooses_player: ClassVar[bool] = True
    writes: ClassVar[frozenset] = frozenset({"coins+"})

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return _amount_reads(self.amount)

    def options(self, game, card: int, owner: int) -> tuple:
        return ((None,) if self.optional else ()) + tuple(game.others(owner))

    def resolve(self, game, card: int, owner: int, copies: int, answer):
        if answer is None:
            return False
        move_coins(game, card, owner, copies, self.amount, answer, owner,
                   game.boost(card, owner))
        return None


class ShareCoins(Plain, Record):
    """``share all coins evenly``: every player's coins are pooled and shared out evenly,
    rounded up; the bank adds what is missing (Park)."""

    reads: ClassVar[frozenset] = frozenset({"coins"})
    writes: ClassVar[frozenset] = frozenset({"coins"})

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.share_coins(card)

# --------------------------------------------------------------------------- cards


_NO_LIMIT = 1 << 30  # a card's limit when it has none (rules.tables.NO_LIMIT)


def _fits(game, seat: int, card: int, gained: int = 1) -> bool:
    """True when ``seat`` may own ``gained`` more copies of ``card`` (its limit)."""
    return game.owned[seat][card] + gained <= game.rules.limit[card]


def _swap_fits(game, owner: int, give: int, other: int, take: int) -> bool:
    """True when swapping ``give`` for ``take`` leaves both players within the limits."""
    gained = 0 if give == take else 1
    return _fits(game, owner, take, gained) and _fits(game, other, give, gained)


class Swap(Choice, Record):
    """``[may] swap an establishment [except NAMES] with a chosen player``: the owner gives
    one of its establishments and takes one of another player's (never a landmark, never
    an excluded card, never one that would put either player over a card's limit). A
    decision named after the card; its options are ``None`` (with ``may``) and
    ``{"give": ID, "take": ID, "from": SEAT}``."""

    optional: bool
    swappable: tuple  # card indices that may change hands
    reads: ClassVar[frozenset] = frozenset({"towns"})
    writes: ClassVar[frozenset] = frozenset({"towns"})

    def options(self, game, card: int, owner: int) -> tuple:
        ids, limit = game.rules.ids, game.rules.limit
        own = [i for i in self.swappable if game.owned[owner][i]]
        out: list = [None] if self.optional else []
        for other in game.others(owner):
            theirs = [i for i in self.swappable if game.owned[other][i]]
            for give in own:
                for take in theirs:
                    if (limit[take] < _NO_LIMIT or limit[give] < _NO_LIMIT) and \
                            not _swap_fits(game, owner, give, other, take):
                        continue
                    out.append(FrozenAnswer(give=ids[give], take=ids[take], **{"from": other}))
        return tuple(out)

    def resolve(self, game, card: int, owner: int, copies: int, answer):
        if answer is None:
            return False
        index = game.rules.index
        game.swap(owner, index[answer["give"]], answer["from"], index[answer["take"]], card)
        return None


class Give(Choice, Record):
    """``[may] give an establishment [except NAMES] to a chosen player``: the owner gives
    one of its establishments to another player who may own one more of it (Moving
    Company). With ``previous`` (``... to the previous player``, Machi Koro 2's Moving
    Company) the receiver is the player seated before the owner, the one whose turn came
    just before. Options ``{"give": ID, "to": SEAT}`` (and ``None`` with ``may``)."""

    optional: bool
    giveable: tuple
    previous: bool = False
    reads: ClassVar[frozenset] = frozenset({"towns"})
    writes: ClassVar[frozenset] = frozenset({"towns"})

    def options(self, game, card: int, owner: int) -> tuple:
        ids = game.rules.ids
        out: list = [None] if self.optional else []
        receivers = ((owner - 1) % game.n,) if self.previous else game.others(owner)
        for give in self.giveable:
            if game.owned[owner][give]:
                out += [FrozenAnswer(give=ids[give], to=other) for other in receivers
                        if other != owner and _fits(game, other, give)]
        return tuple(out)

    def resolve(self, game, card: int, owner: int, copies: int, answer):
        if answer is None:
            return False
        game.give(owner, game.rules.index[answer["give"]], answer["to"], card)
        return None


class CardChoice(Choice):
    """A choice of one card among ``cards`` (card indices; only those the owner has, when
    ``own``), then an act on it (:meth:`act`). Options: card ids (and ``None`` with
    ``may``)."""

    own: ClassVar[bool] = True

    def options(self, game, card: int, owner: int) -> tuple:
        town, ids = game.owned[owner], game.rules.ids
        return ((None,) if self.optional else ()) + tuple(
            ids[i] for i in self.cards if not self.own or town[i])

    def resolve(self, game, card: int, owner: int, copies: int, answer):
        if answer is None:
            return False
        self.act(game, owner, game.rules.index[answer], card)
        return None


class Unbuild(CardChoice, Record):
    """``[may] unbuild a landmark``: the owner turns one of its built landmarks (those
    counted for victory) back to unbuilt (Demolition Company)."""

    optional: bool
    cards: tuple
    reads: ClassVar[frozenset] = frozenset({"towns"})
    writes: ClassVar[frozenset] = frozenset({"towns"})

    def act(self, game, owner: int, chosen: int, card: int) -> None:
        game.unbuild(owner, chosen, card)


class ChooseKind(CardChoice, Record):
    """``[may] choose an establishment [except NAMES]``: the owner names any kind of
    establishment of the rule set; the next steps say ``it`` (Renovation Company)."""

    optional: bool
    cards: tuple
    own: ClassVar[bool] = False

    def act(self, game, owner: int, chosen: int, card: int) -> None:
        game.bound = chosen


class Activate(CardChoice, Record):
    """``[may] activate one of your establishments [except NAMES]``: one kind the owner
    has activates now, all its copies, for its owner, whatever the roll (Exhibit Hall)."""

    optional: bool
    cards: tuple
    reads: ClassVar[frozenset] = frozenset({"towns"})
    writes: ClassVar[frozenset] = frozenset({"*"})

    def act(self, game, owner: int, chosen: int, card: int) -> None:
        game.activate(owner, chosen, card)


class ReturnCard(Plain, Record):
    """``return this card to the market``: the owner's activated copies of this card go
    back to the market, from the town where each is now (Exhibit Hall)."""

    writes: ClassVar[frozenset] = frozenset({"towns", "market"})

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.return_activated(owner, card, copies)

# --------------------------------------------------------------------------- markers


class Mark(Plain, Record):
    """``mark this card NAME`` (the activated copies, in the town where each is now: a
    Winery given away after it activated closes in its new town) or ``mark every copy of it
    in every town NAME`` (the kind chosen earlier in the clause, every copy there is now):
    put marker NAME, declared in the rules file (e.g. ``closed``), on those copies.
    ``marker`` is the marker's index."""

    marker: int
    chosen_kind: bool
    writes: ClassVar[frozenset] = frozenset({"markers"})

    def run(self, game, card: int, owner: int, copies: int):
        if not self.chosen_kind:  # the activated copies, wherever they are now
            game.mark_activated(self.marker, owner, card, copies)
            return None
        if game.bound is None:
            return False
        for seat in range(game.n):
            game.mark(self.marker, seat, game.bound, game.owned[seat][game.bound], card)
        return None


class PutCoins(Plain, Record):
    """``put N coin(s) on this card``: the owner moves N coins per copy from its own coins
    onto the card (a marker that holds coins; Tech Startup); it does not happen when the
    owner has fewer."""

    n: int
    marker: int
    reads: ClassVar[frozenset] = frozenset({"coins"})
    writes: ClassVar[frozenset] = frozenset({"coins", "markers"})

    def possible(self, game, card: int, owner: int) -> bool:
        return game.coins[owner] >= self.n

    def run(self, game, card: int, owner: int, copies: int):
        if game.coins[owner] < self.n * copies:
            return False
        game.store_coins(self.marker, owner, card, self.n * copies)
        return None

# --------------------------------------------------------------------------- the turn


class ExtraTurn(Plain, Record):
    """``extra turn``: the owner takes another turn after this one."""

    def run(self, game, card: int, owner: int, copies: int):
        if owner != game.current:
            return False
        game.grant_extra_turn(owner, card)
        return None


class Reroll(Choice, Record):
    """``may reroll``: once per turn, the roller may roll again (decision ``reroll``); only
    the new result counts. Options ``False``/``True`` (same number of dice), or, with the
    rules option ``reroll_same_dice: false``, ``False`` or the number of dice to reroll."""

    decision: ClassVar[str | None] = "reroll"
    writes: ClassVar[frozenset] = frozenset({"roll"})

    def options(self, game, card: int, owner: int) -> tuple:
        if game.rules.options["reroll_same_dice"]:
            return (False, True)
        return (False,) + game.dice_counts(owner)

    def available(self, game, card: int) -> bool:
        return card not in game.rerolls_used

    def resolve(self, game, card: int, owner: int, copies: int, answer):
        if answer is False:
            return False
        if answer is True:
            game.reroll(card)
        else:
            game.reroll(card, answer)
        return None


class AddToRoll(Plain, Record):
    """``add N to the roll``: the roll total grows by N, for everyone (with ``may``, the
    roller chooses: the Harbor)."""

    n: int
    writes: ClassVar[frozenset] = frozenset({"roll"})

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.add_to_roll(self.n, card)


class Optional(Choice, Record):
    """``may ACTION`` for an action that asks nothing itself: a yes/no decision named after
    the card, asked with the single answer ``False`` when the action cannot happen now."""

    action: object

    @property
    def source(self) -> str:  # type: ignore[override]
        return self.action.source

    @property
    def reads(self) -> frozenset:  # type: ignore[override]
        return self.action.reads

    @property
    def writes(self) -> frozenset:  # type: ignore[override]
        return self.action.writes

    def options(self, game, card: int, owner: int) -> tuple:
        return (False, True) if self.action.possible(game, card, owner) else (False,)

    def resolve(self, game, card: int, owner: int, copies: int, answer):
        if answer is not True:
            return False
        return self.action.run(game, card, owner, copies)


def optional(action):
    """``may ACTION``: a choice that may also be declined (``None`` among its options), or
    a yes/no decision around a plain action. A reroll is always optional already."""
    if isinstance(action, Reroll):
        return action
    if isinstance(action, Choice) and hasattr(action, "optional"):
        return replace(action, optional=True)
    return Optional(action)


# --------------------------------------------------------------------------- static powers


class DiceChoice(Plain, Record):
    """``roll N or M dice`` (static): the owner chooses how many dice to roll (``dice``)."""

    counts: tuple
    static: ClassVar[bool] = True


class Boost(Plain, Record):
    """``NAMES cards pay N more`` (static): each of the owner's matching cards pays N more
    coins per copy whenever it pays."""

    cards: tuple
    n: int
    static: ClassVar[bool] = True


class CostChange(Plain, Record):
    """``NAMES cost N less`` / ``landmarks cost N more`` (static): while the card is built,
    each of ``cards`` costs its owner ``n`` coins less (``n`` negative: more) to build; a
    discount never takes a cost below 0 (Machi Koro 2's Loan Office and Observatory; with
    the card's ``scope: everyone``, for every player)."""

    cards: frozenset
    n: int
    static: ClassVar[bool] = True


STATIC = (DiceChoice, Boost, CostChange)
