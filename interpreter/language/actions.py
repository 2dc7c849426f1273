"""Actions of the effect language: what a clause does to the game.

Two kinds of action:

- a plain action has ``run(game, card, owner, copies)``; it returns False when it did not
  happen (a ``then`` step after it is skipped), anything else when it did; beside it,
  ``kernel(rules, card) -> (run, possible)``, its batched engine's form over arrays of
  games (``run(b, g, card, owner, copies) -> happened``: a bool per game, None for all;
  ``possible`` or None), the coin actions' through one transfer rule per backend
  (:func:`move_coins`, :func:`move_coins_over`);
- a choice asks its owner a decision: ``decision`` (its name, or None for the card's id),
  ``options(game, card, owner)`` (the legal answers; none means the action cannot happen
  and is skipped) and ``resolve(game, card, owner, copies, answer)``, which returns False
  when the answer did nothing (declined); beside them, ``kernel(rules, card, players,
  dice_counts)``, their batched form (a :class:`ChoiceKernel`).

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


class ChoiceKernel:
    """A choice's batched form (its ``kernel(rules, card, players, dice_counts)``):
    ``slots`` (every answer it may offer in games of ``players`` seats, in the scalar order
    of ``Decision.options``), ``mask(b, g, card, owner) -> (len(g), len(slots)) bool array``
    (which slots are options now), ``resolve(b, g, card, owner, copies, slot) -> bool
    array`` (which games it happened in), ``shape`` (what a slot is: ``yes_no``,
    ``reroll``, ``player``, ``card``, ``give``, ``swap``, ``order``, for policies that read
    the options), ``decision`` (the scalar decision's name; None: the card's id) and
    ``available`` (``(b, g, card) -> bool array``, or None: always)."""

    asks = True

    def __init__(self, shape: str, slots: tuple, mask, resolve, decision: str | None,
                 available=None):
        self.shape, self.slots, self.mask, self.resolve = shape, slots, mask, resolve
        self.decision = decision
        self.available = available


def yes_no_kernel(possible, run, decision: str | None = None,
                  available=None) -> ChoiceKernel:
    """The batched form of a yes/no choice (slots ``False``, ``True``) that runs the plain
    kernel ``run`` on yes; ``True`` is offered only where ``possible`` (None: always)."""
    import numpy as np

    def mask(b, g, card, owner):
        out = np.ones((len(g), 2), dtype=bool)
        if possible is not None:
            out[:, 1] = possible(b, g, card, owner)
        return out

    def resolve(b, g, card, owner, copies, slot):
        yes = slot == 1
        happened = np.zeros(len(g), dtype=bool)
        if yes.any():
            done = run(b, g[yes], card, owner[yes], copies[yes])
            happened[yes] = True if done is None else done
        return happened
    return ChoiceKernel("yes_no", (False, True), mask, resolve, decision, available)


def plain_kernel(action, rules, card: int) -> tuple:
    """``(run, possible)``: a plain action's own batched form (its ``kernel(rules,
    card)``). Raises :class:`~machikoro.errors.VectorUnsupported` naming an action
    without one."""
    make = getattr(action, "kernel", None)
    if make is None:
        from ..errors import VectorUnsupported
        raise VectorUnsupported(f"the action '{type(action).__name__}'")
    return make(rules, card)


def _head(optional: bool) -> tuple:
    """The slots before a choice's answers: ``None`` (declined) with ``may``."""
    return (None,) if optional else ()


def _answered(head: tuple, act_on):
    """A ``resolve`` for a choice whose first ``len(head)`` slots decline: ``act_on(b,
    g, owner, copies, k)`` runs in the games that answered, ``k`` the answer's index
    after the head."""
    def resolve(b, g, card, owner, copies, slot):
        happened = slot >= len(head)
        h = happened.nonzero()[0]
        if len(h):
            act_on(b, g[h], owner[h], copies[h], slot[h] - len(head))
        return happened
    return resolve


def _amount_reads(amount) -> frozenset:
    return getattr(amount, "reads", _NOTHING)


# --------------------------------------------------------------------------- coins
#
# The coin actions are one rule, written once per backend: who pays (``payer``) whom
# (``payee``), each a role: BANK, OWNER, ROLLER, OTHERS (each other player in payment
# order), RICHEST (the other player holding the most coins, the first of them in payment
# order) or CHOSEN (another player the owner chooses). Here the rule is :func:`move_coins`;
# the batched engine's (machikoro.vector.kernels), the look-ahead's
# (machikoro.engine.payouts) and the batched valuation's read the same roles.

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


def move_coins_over(b, g, card: int, owner, copies, per_copy, payer, payee,
                    receives: bool, more=None, only=None, counted: bool = True) -> None:
    """:func:`move_coins` over arrays, the batched engine's transfer rule: in the games
    ``g`` of batch ``b``, ``payer`` pays ``payee`` (seat arrays, or None for the bank)
    ``per_copy`` (an amount's kernel, or an int) read for the counterpart (the owner's
    other side; the owner where that is the bank), plus ``more`` (the boosts, when the
    owner ``receives``), ``copies`` times when that is more than 0, in the games where
    ``only`` holds; a player pays what it has, the bank in full (``counted``: as coins
    received this turn)."""
    import numpy as np

    counterpart = payer if receives else payee
    per = per_copy if type(per_copy) is int else \
        per_copy(b, g, card, owner, owner if counterpart is None else counterpart)
    if more is not None:
        per = per + more
    if type(per) is int:
        owed = per * copies if per > 0 else 0
    else:
        owed = np.where(per > 0, per * copies, 0)
    if only is not None:
        owed = np.where(only, owed, 0)
    if payer is None:
        if counted:
            b.gain(g, payee, owed)
        else:
            b.add_coins(g, payee, owed)
    elif payee is None:
        b.add_coins(g, payer, -np.minimum(owed, b.seat_coins(g, payer)))
    else:
        b.transfer(g, payer, payee, owed)


def amount_kernel(amount, rules):
    """The batched form of ``amount``: its own ``kernel(rules)`` (an amount kernel, or an
    int for a fixed amount). Raises :class:`~machikoro.errors.VectorUnsupported` for an
    amount without one."""
    make = getattr(amount, "kernel", None)
    if make is None:
        from ..errors import VectorUnsupported

        raise VectorUnsupported(f"the amount '{type(amount).__name__}'")
    return make(rules)


def boost_kernel(rules, card: int):
    """``(b, g, owner) -> coins more per copy`` from the owner's boosting cards of
    ``card`` (``rules.boosts``: :meth:`~machikoro.engine.game.Game.boost` over arrays), or
    None when nothing boosts it."""
    boosts = rules.boosts[card]
    if not boosts:
        return None
    import numpy as np

    def boost(b, g, owner):
        more = np.zeros(len(g), dtype=np.int64)
        for source, n in boosts:
            if source >= 0:
                more += (b.seen_copies(g, owner, source) > 0) * n
            else:  # in force for every player: anyone's town (as the effects see it)
                more += (b.seen_towns(g)[:, :, ~source] > 0).any(axis=1) * n
        return more
    return boost


def one_by_one_over(run):
    """:func:`one_by_one` over arrays: ``run(b, g, card, owner, copies)`` once per copy,
    each copy on the coins the one before it left."""
    import numpy as np

    def each(b, g, card_, owner, copies):
        copies = np.broadcast_to(copies, g.shape)
        for k in range(int(copies.max(initial=0))):
            at = copies > k
            if at.any():
                run(b, g[at], card_, owner[at], np.ones(int(at.sum()), dtype=np.int64))
        # (returns None: it happened in every game)
    return each


class CoinAction(Plain):
    """Defaults of a plain coin action: its batched kernel from its roles
    (:func:`coins_kernel`), ``payer`` and ``payee`` (or a concept unit's
    ``counterparts``)."""

    def kernel(self, rules, card: int) -> tuple:
        """``(run, None)``: the batched engine's form (:func:`coins_kernel`)."""
        return coins_kernel(self, rules, card), None


def coins_kernel(a, rules, card: int):
    """The batched engine's form of the coin action ``a`` of ``card``:
    ``run(b, g, card, owner, copies) -> happened`` (a bool per game, None: in every game),
    from its roles: the bank, the owner, the roller, each other player (those holding
    ``holding`` coins, when given) or the richest one, or a concept unit's
    ``counterparts`` (the chosen player's is the batched engine's choice kernel); the
    transfer is :func:`move_coins_over`."""
    import numpy as np

    per_copy, payer, payee = amount_kernel(a.amount, rules), a.payer, a.payee
    boost = boost_kernel(rules, card) if a.boosted else None
    holding = getattr(a, "holding", None)
    counted = rules.tracks_received  # (the coins received this turn: counted then only)
    role = getattr(a, "counterparts", None)

    def run(b, g, card_, owner, copies):
        more = None if boost is None else boost(b, g, owner)
        if role is not None:  # a concept unit's role (machikoro.language.units)
            other = role(b, g, owner)
            happened = other >= 0
            other = np.where(happened, other, owner)  # (none: a seat that moves nothing)
            taking = payee == OWNER
            move_coins_over(b, g, card, owner, copies, per_copy, other if taking else owner,
                            owner if taking else other, taking, more, happened)
            return happened
        if BANK in (payer, payee):
            bank = payer == BANK
            move_coins_over(b, g, card, owner, copies, per_copy, None if bank else owner,
                            owner if bank else None, bank, more, counted=counted)
            return None
        if ROLLER in (payer, payee):
            roller = b.current[g]
            happened = roller != owner
            taking = payer == ROLLER
            move_coins_over(b, g, card, owner, copies, per_copy,
                            roller if taking else owner, owner if taking else roller,
                            taking, more, happened)
            return happened
        if OTHERS in (payer, payee):
            taking = payer == OTHERS
            for k in range(b.players - 1):
                other = b.others[owner, k]
                only = None if holding is None else holding(b.seat_coins(g, other))
                move_coins_over(b, g, card, owner, copies, per_copy,
                                other if taking else owner, owner if taking else other,
                                taking, more, only)
            return None
        if b.players == 1:  # the richest other player: none
            return np.zeros(len(g), dtype=bool)
        others = b.others[owner]  # (G, P-1), payment order: argmax keeps the first
        richest = others[np.arange(len(g)), np.argmax(b.coins[g[:, None], others], axis=1)]
        move_coins_over(b, g, card, owner, copies, per_copy, richest, owner, True, more)
        return None
    reads_coins = "coins" in _amount_reads(a.amount) or holding is not None
    return one_by_one_over(run) if reads_coins and payer in (OTHERS, RICHEST) else run


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

    def kernel(self, rules, card: int, players: int, dice_counts: tuple) -> ChoiceKernel:
        """The batched form of :meth:`options` and :meth:`resolve`."""
        return chosen_player_kernel(self, rules, card, players, pays=True)


def chosen_player_kernel(a, rules, card: int, players: int, pays: bool) -> ChoiceKernel:
    """The batched form of ``take|pay AMOUNT from|to a chosen player``: slots None (with
    ``may``) and the other players in payment order, as offsets (slot ``head + k`` is
    ``b.others[owner, k]``); the coins move by :func:`move_coins_over`."""
    import numpy as np

    head = _head(a.optional)
    slots = head + tuple(range(1, players))
    per_copy = amount_kernel(a.amount, rules)
    boost = None if pays else boost_kernel(rules, card)

    def mask(b, g, card_, owner):
        return np.ones((len(g), len(slots)), dtype=bool)

    def pay(b, g, owner, copies, k):
        other = b.others[owner, k]
        more = None if boost is None else boost(b, g, owner)
        move_coins_over(b, g, card, owner, copies, per_copy, owner if pays else other,
                        other if pays else owner, not pays, more)
    return ChoiceKernel("player", slots, mask, _answered(head, pay), None)


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

    def kernel(self, rules, card: int, players: int, dice_counts: tuple) -> ChoiceKernel:
        """The batched form of :meth:`options` and :meth:`resolve`."""
        return chosen_player_kernel(self, rules, card, players, pays=False)


class ShareCoins(Plain, Record):
    """``share all coins evenly``: every player's coins are pooled and shared out evenly,
    rounded up; the bank adds what is missing (Park)."""

    reads: ClassVar[frozenset] = frozenset({"coins"})
    writes: ClassVar[frozenset] = frozenset({"coins"})

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.share_coins(card)

    def kernel(self, rules, card: int) -> tuple:
        """``(run, None)``: the batched engine's form of :meth:`run`."""
        def run(b, g, card_, owner, copies):
            before = b.coins[g]
            each = -(-before.sum(axis=1) // b.players)
            b.coins[g] = each[:, None]
            if b.received is not None:
                gained = each[:, None] - before
                b.received[g] += gained.clip(min=0).astype(b.received.dtype)
        return run, None


# --------------------------------------------------------------------------- cards


_NO_LIMIT = 1 << 30  # a card's limit when it has none (rules.tables.NO_LIMIT)


def _fits(game, seat: int, card: int, gained: int = 1) -> bool:
    """True when ``seat`` may own ``gained`` more copies of ``card`` (its limit)."""
    return game.owned[seat][card] + gained <= game.rules.limit[card]


def _fits_over(b, g, seat, cards, gained: int = 1):
    """:func:`_fits` over arrays: ``(len(g), len(cards))``, may ``seat`` (per game) own
    ``gained`` more copies of each of ``cards`` (card indices)."""
    return b.town(g, seat)[:, cards] + gained <= b.limit[cards]


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

    def kernel(self, rules, card: int, players: int, dice_counts: tuple) -> ChoiceKernel:
        """The batched form of :meth:`options` and :meth:`resolve`: slots None (with
        ``may``), then per other player (payment order), per card given, per card taken
        (``swappable`` order)."""
        import numpy as np

        head = _head(self.optional)
        cards = np.array(self.swappable, dtype=np.int64)
        width, others = len(cards), players - 1
        slots = head + tuple((k, int(give), int(take)) for k in range(1, players)
                             for give in cards for take in cards)
        limited = bool(width) and bool((np.asarray(rules.limit)[cards] < _NO_LIMIT).any())

        def mask(b, g, card_, owner):
            out = np.empty((len(g), len(slots)), dtype=bool)
            out[:, :len(head)] = True
            if not width or not others:
                return out
            body = out[:, len(head):].reshape(len(g), others, width, width)  # a view
            rows = g[:, None] * b.players + b.others[owner]  # (G, others): their towns
            theirs = b.towns_flat[rows[:, :, None], cards] > 0  # (G, others, K)
            own = b.town(g, owner)[:, cards] > 0  # (G, K)
            np.logical_and(own[:, None, :, None], theirs[:, :, None, :], out=body)
            if limited:
                same = np.eye(width, dtype=bool)[None]
                take_fits = np.where(same, _fits_over(b, g, owner, cards, 0)[:, None, :],
                                     _fits_over(b, g, owner, cards)[:, None, :])
                for k in range(others):
                    other = b.others[owner, k]
                    give_fits = np.where(same, _fits_over(b, g, other, cards, 0)[:, :, None],
                                         _fits_over(b, g, other, cards)[:, :, None])
                    body[:, k] &= take_fits & give_fits
            return out

        def swap(b, g, owner, copies, answer):
            k, rest = np.divmod(answer, width * width)
            give, take = np.divmod(rest, width)
            other = b.others[owner, k]
            b.move_copy(g, owner, cards[give], other)
            b.move_copy(g, other, cards[take], owner)
        return ChoiceKernel("swap", slots, mask, _answered(head, swap), None)


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

    def kernel(self, rules, card: int, players: int, dice_counts: tuple) -> ChoiceKernel:
        """The batched form of :meth:`options` and :meth:`resolve`: slots None (with
        ``may``), then per card given (``giveable`` order) per receiver: each other player
        in payment order, or with ``previous`` only the seat before the owner (the other
        player ``k`` places along the payment order: 1 counterclockwise, else the last)."""
        import numpy as np

        head = _head(self.optional)
        cards = np.array(self.giveable, dtype=np.int64)
        if self.previous:
            offsets = (1 if rules.payment_order == "counterclockwise" else players - 1,)
        else:
            offsets = tuple(range(1, players))
        slots = head + tuple((int(c), k) for c in cards for k in offsets)
        receivers, sides = len(offsets), np.asarray(offsets, dtype=np.int64) - 1

        def mask(b, g, card_, owner):
            out = np.zeros((len(g), len(slots)), dtype=bool)
            out[:, :len(head)] = True
            if not len(cards) or players < 2:
                return out
            own = b.town(g, owner)[:, cards] > 0  # (G, K)
            fit = np.stack([_fits_over(b, g, b.others[owner, k - 1], cards) for k in offsets],
                           axis=2)  # (G, K, receivers)
            out[:, len(head):] = (own[:, :, None] & fit).reshape(len(g), -1)
            return out

        def give(b, g, owner, copies, answer):
            given, k = np.divmod(answer, receivers)
            b.move_copy(g, owner, cards[given], b.others[owner, sides[k]])
        return ChoiceKernel("give", slots, mask, _answered(head, give), None)


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

    def kernel(self, rules, card: int, players: int, dice_counts: tuple) -> ChoiceKernel:
        """The batched form of :meth:`options` and :meth:`resolve`: slots None (with
        ``may``) and ``cards`` in order; the act is :meth:`act_over`."""
        import numpy as np

        head = _head(self.optional)
        cards = np.array(self.cards, dtype=np.int64)
        own = self.own

        def mask(b, g, card_, owner):
            out = np.ones((len(g), len(head) + len(cards)), dtype=bool)
            if own and len(cards):
                out[:, len(head):] = b.town(g, owner)[:, cards] > 0
            return out

        def act(b, g, owner, copies, answer):
            self.act_over(b, g, owner, cards[answer], card)
        slots = head + tuple(int(c) for c in cards)
        return ChoiceKernel("card", slots, mask, _answered(head, act), None)


class Unbuild(CardChoice, Record):
    """``[may] unbuild a landmark``: the owner turns one of its built landmarks (those
    counted for victory) back to unbuilt (Demolition Company)."""

    optional: bool
    cards: tuple
    reads: ClassVar[frozenset] = frozenset({"towns"})
    writes: ClassVar[frozenset] = frozenset({"towns"})

    def act(self, game, owner: int, chosen: int, card: int) -> None:
        game.unbuild(owner, chosen, card)

    def act_over(self, b, g, owner, chosen, card: int) -> None:
        """:meth:`act` over arrays (``chosen``: a card index per game)."""
        import numpy as np

        b.towns_changing(g, chosen, owner, np.full(len(g), -1))
        b.owned_flat[(g * b.players + owner) * b.cards + chosen] = 0
        b.menu_card(g, owner, chosen)


class ChooseKind(CardChoice, Record):
    """``[may] choose an establishment [except NAMES]``: the owner names any kind of
    establishment of the rule set; the next steps say ``it`` (Renovation Company)."""

    optional: bool
    cards: tuple
    own: ClassVar[bool] = False

    def act(self, game, owner: int, chosen: int, card: int) -> None:
        game.bound = chosen

    def act_over(self, b, g, owner, chosen, card: int) -> None:
        """:meth:`act` over arrays (``chosen``: a card index per game)."""
        b.bound[g] = chosen


class Activate(CardChoice, Record):
    """``[may] activate one of your establishments [except NAMES]``: one kind the owner
    has activates now, all its copies, for its owner, whatever the roll (Exhibit Hall)."""

    optional: bool
    cards: tuple
    reads: ClassVar[frozenset] = frozenset({"towns"})
    writes: ClassVar[frozenset] = frozenset({"*"})

    def act(self, game, owner: int, chosen: int, card: int) -> None:
        game.activate(owner, chosen, card)

    def act_over(self, b, g, owner, chosen, card: int) -> None:
        """:meth:`act` over arrays (``chosen``: a card index per game)."""
        b.activate(g, owner, chosen)


class ReturnCard(Plain, Record):
    """``return this card to the market``: the owner's activated copies of this card go
    back to the market, from the town where each is now (Exhibit Hall)."""

    writes: ClassVar[frozenset] = frozenset({"towns", "market"})

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.return_activated(owner, card, copies)

    def kernel(self, rules, card: int) -> tuple:
        """``(run, None)``: the batched engine's form of :meth:`run`."""
        import numpy as np

        def run(b, g, card_, owner, copies):
            moved = b.followed(g, card)  # the activated copies, from where each is now
            b.return_to_market(g[~moved], owner[~moved], card, copies[~moved])
            for k in moved.nonzero()[0].tolist():
                game = int(g[k])
                for seat, n in b.activated_copies(game, int(owner[k]), card, int(copies[k])):
                    b.return_to_market(np.array([game]), np.array([seat]), card,
                                       np.array([n]))
        return run, None


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

    def kernel(self, rules, card: int) -> tuple:
        """``(run, None)``: the batched engine's form of :meth:`run`."""
        import numpy as np

        marker, chosen = self.marker, self.chosen_kind

        def run(b, g, card_, owner, copies):
            table = b.marks[marker]
            if not chosen:  # the activated copies, wherever they are now
                moved = b.followed(g, card)
                for k in moved.nonzero()[0].tolist():
                    game = int(g[k])
                    for seat, n in b.activated_copies(game, int(owner[k]), card,
                                                      int(copies[k])):
                        table[game, seat, card] = min(int(b.owned[game, seat, card]),
                                                      int(table[game, seat, card]) + n)
                g, owner, copies = g[~moved], owner[~moved], copies[~moved]
                table[g, owner, card] = np.minimum(b.owned[g, owner, card],
                                                   table[g, owner, card] + copies)
                return None
            kind = b.bound[g]
            happened = kind >= 0
            h, k = g[happened], kind[happened]
            if len(h):
                seats = np.arange(b.players)
                table[h[:, None], seats, k[:, None]] = b.owned[h[:, None], seats, k[:, None]]
            return happened
        return run, None


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

    def kernel(self, rules, card: int) -> tuple:
        """``(run, possible)``: the batched engine's forms of :meth:`run` and
        :meth:`possible`."""
        import numpy as np

        n, marker = self.n, self.marker

        def run(b, g, card_, owner, copies):
            need = n * copies
            happened = b.seat_coins(g, owner) >= need
            put = np.where(happened, need, 0)
            b.add_coins(g, owner, -put)
            b.marks[marker][g, owner, b.mark_cols[marker][card]] += put
            return happened

        def possible(b, g, card_, owner):
            return b.seat_coins(g, owner) >= n
        return run, possible


# --------------------------------------------------------------------------- the turn


class ExtraTurn(Plain, Record):
    """``extra turn``: the owner takes another turn after this one."""

    def run(self, game, card: int, owner: int, copies: int):
        if owner != game.current:
            return False
        game.grant_extra_turn(owner, card)
        return None

    def kernel(self, rules, card: int) -> tuple:
        """``(run, None)``: the batched engine's form of :meth:`run`."""
        def run(b, g, card_, owner, copies):
            happened = owner == b.current[g]
            b.extra_turn[g[happened]] = True
            return happened
        return run, None


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

    def kernel(self, rules, card: int, players: int, dice_counts: tuple) -> ChoiceKernel:
        """The batched form of :meth:`options`, :meth:`available` and :meth:`resolve`:
        slots ``False``/``True``, or ``False`` and ``dice_counts`` (the rule set's)."""
        import numpy as np

        def available(b, g, card_):
            return ~b.rerolled[g, card]

        if rules.options["reroll_same_dice"]:
            def run(b, g, card_, owner, copies):
                b.reroll(g, card, None)
            return yes_no_kernel(None, run, "reroll", available)
        counts = np.asarray(dice_counts, dtype=np.int64)
        slots = (False,) + tuple(dice_counts)

        def mask(b, g, card_, owner):
            out = np.zeros((len(g), len(slots)), dtype=bool)
            out[:, 0] = True
            out[:, 1:] = b.dice_choices(g, owner)
            return out

        def resolve(b, g, card_, owner, copies, slot):
            yes = slot > 0
            if yes.any():
                b.reroll(g[yes], card, counts[slot[yes] - 1])
            return yes
        return ChoiceKernel("reroll", slots, mask, resolve, "reroll", available)


class AddToRoll(Plain, Record):
    """``add N to the roll``: the roll total grows by N, for everyone (with ``may``, the
    roller chooses: the Harbor)."""

    n: int
    writes: ClassVar[frozenset] = frozenset({"roll"})

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.add_to_roll(self.n, card)

    def kernel(self, rules, card: int) -> tuple:
        """``(run, None)``: the batched engine's form of :meth:`run`."""
        n = self.n

        def run(b, g, card_, owner, copies):
            b.total[g] += n
        return run, None


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

    def kernel(self, rules, card: int, players: int, dice_counts: tuple) -> ChoiceKernel:
        """The batched form: a yes/no around the plain action's own kernel. Raises
        :class:`~machikoro.errors.VectorUnsupported` when that action has none."""
        run, possible = plain_kernel(self.action, rules, card)
        return yes_no_kernel(possible, run)


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
