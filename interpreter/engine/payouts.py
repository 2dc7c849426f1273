"""Payout tables: what a roll pays, as programs compiled once per rule set.

:mod:`machikoro.engine.expectations` answers "what does this roll pay each player?" by
copying the game and running its income step. That is the reference, and slow: an agent
asks it dozens of times per turn. The tables here let :mod:`machikoro.engine.lookahead`
give the same numbers without copying the game:

- each card's activation clauses as a small *payout program* (:class:`Step` chains): who
  pays whom (the bank, the roller, each other player, the richest other player, a chosen
  player), how much per copy (``N``, ``N per NAMES``, all or half of the payer's coins, the
  coins on the card, a side roll's mean), the card's boosts, its conditions, its ``then``
  steps; and whether that payout depends on its owner's town alone (*static*: the bank
  pays amounts read from that town, under conditions on that town);
- per roll total, the cards it activates in resolution order (the rule set's own table),
  and those whose payout is not static.

A program runs over a list of coins, not over a game (:func:`run_chain`): the payer's cap
(no one pays more than it has) is applied as each payment is made, in the income step's
order, so a payment sees the coins earlier ones left, exactly as the engine pays them.
Conditions are tested against a :class:`View` of the state (the hypothetical roll, the
coins of the moment). A decision in a program is answered as the look-ahead of
:mod:`~machikoro.engine.expectations` answers it: a player to take from or to pay is the
richest other one; a choice of cards or of a town change is not simulated (the clause does
nothing); ``may`` is taken (it can always happen for these actions).

What a program cannot express (an action or amount outside that list, a ``then`` step
after an action that changes the towns or the turn) leaves its card without a program
(None): a roll that activates such a card, or the value of such a card, falls back to the
engine's own income step.
"""

from __future__ import annotations

from typing import NamedTuple
from weakref import WeakKeyDictionary

from ..language import actions as act
from ..language import amounts, conditions
from ..rules.ruleset import RuleSet
from ..rules.tables import ACTIVATED_BY
from .chance import total_distribution
from .game import Game
from .phases import boost_of

# What a step does with coins (the actions of machikoro.language.actions it stands for).
BANK, FROM_ROLLER, FROM_EACH, FROM_RICHEST, FROM_CHOSEN = range(5)
TO_BANK, TO_EACH, TO_ROLLER, TO_CHOSEN, SHARE, TO_ROLE, SKIP, NOTHING = range(5, 13)
# (TO_ROLE: the owner pays the seat a concept unit's role stands for, Step.role)

_ROLES = {(act.BANK, act.OWNER): BANK, (act.ROLLER, act.OWNER): FROM_ROLLER,
          (act.OTHERS, act.OWNER): FROM_EACH, (act.RICHEST, act.OWNER): FROM_RICHEST,
          (act.CHOSEN, act.OWNER): FROM_CHOSEN, (act.OWNER, act.BANK): TO_BANK,
          (act.OWNER, act.OTHERS): TO_EACH, (act.OWNER, act.ROLLER): TO_ROLLER,
          (act.OWNER, act.CHOSEN): TO_CHOSEN}
"""The step of a coin action by its roles (payer, payee: the actions' own declaration)."""


def _op(action_class: type) -> int | None:
    """The step a compiled action class stands for: a coin action's by its roles, the
    sharing of coins, or None."""
    if action_class is act.ShareCoins:
        return SHARE
    if getattr(action_class, "payer", None) == act.OWNER and \
            hasattr(action_class, "counterpart"):
        return TO_ROLE  # a concept unit's role (machikoro.language.units)
    return _ROLES.get((getattr(action_class, "payer", None),
                       getattr(action_class, "payee", None)))
_BOOSTED = frozenset((BANK, FROM_ROLLER, FROM_EACH, FROM_RICHEST, FROM_CHOSEN))
# choices of cards or town changes: the look-ahead never simulates them (expectations)
_NOT_SIMULATED = (act.Swap, act.Give, act.Unbuild, act.ChooseKind, act.Activate)

# Amounts that depend on the moment: (kind, parameter). A fixed amount is a plain int.
PER_CARD, ALL_COINS, HALF_COINS, CARD_COINS, SIDE_ROLL = range(5)


class Step(NamedTuple):
    """One step of a payout program: ``op`` (what it does, above) with ``amount`` (an int,
    or ``(kind, ...)`` for an amount read at the moment), ``boosted`` (the card's boosts
    add to it), ``holding`` (``take ... from each other player with Q coins``: the test on
    a payer's coins, or None), ``conditions`` (tested first against the state),
    ``optional`` (``may``: taken when it can happen), ``asks`` (the clause asks a decision
    at some step: each copy runs on its own, as the engine queues it) and ``rest`` (the
    step after ``then``, or None)."""

    op: int
    amount: object
    boosted: bool
    holding: object
    conditions: tuple
    optional: bool
    asks: bool
    rest: object
    role: object = None  # TO_ROLE: (game or view, owner) -> the seat paid, or None


class _Unsupported(Exception):
    """A clause no payout program expresses: its card falls back to the engine."""


def _amount(amount) -> object:
    """An amount as a program holds it: an int when fixed, else ``(kind, ...)``."""
    kind = type(amount)
    if kind is amounts.Fixed:
        return amount.n
    if kind is amounts.PerCard:
        return (PER_CARD, amount.n, amount.cards, amount.scope)
    if kind is amounts.AllCoins:
        return (ALL_COINS,)
    if kind is amounts.HalfCoins:
        return (HALF_COINS,)
    if kind is amounts.CardCoins:
        return (CARD_COINS, amount.marker)
    if kind is amounts.SideRoll:
        return (SIDE_ROLL, amount.dice)
    raise _Unsupported(kind.__name__)  # (a concept unit's amount: not looked ahead yet)


def _looked_ahead(test) -> bool:
    """False when ``test``, or a test inside it, reads what the look-ahead keeps no table
    by (a concept unit's ``looked_ahead = False``, as the round)."""
    if not getattr(type(test), "looked_ahead", True):
        return False
    inner = getattr(test, "tests", None) or (
        (test.inner,) if getattr(test, "inner", None) is not None else ())
    return all(_looked_ahead(t) for t in inner)


def _step(clause, asks: bool, blocking: tuple) -> Step:
    """The program step of ``clause`` (and of its ``then`` steps)."""
    if not all(_looked_ahead(t) for t in clause.conditions):
        raise _Unsupported("a condition the look-ahead keeps no table by")
    action = clause.action
    if isinstance(action, _NOT_SIMULATED):  # the look-ahead skips it and its then steps:
        return Step(SKIP, 0, False, None, clause.conditions, False, asks, None)  # (unread)
    rest = None if clause.rest is None else _step(clause.rest, asks, blocking)
    optional = type(action) is act.Optional
    if optional:
        action = action.action
        if _op(type(action)) is None:
            raise _Unsupported("may " + type(action).__name__)
    if (type(action) is act.Mark and action.marker in blocking) or type(action) is \
            act.ExtraTurn:  # no coins move; only as a last step (what follows may care)
        if rest is not None:
            raise _Unsupported(type(action).__name__ + " then ...")
        return Step(NOTHING, 0, False, None, clause.conditions, False, asks, None)
    op = _op(type(action))
    if op is None:
        raise _Unsupported(type(action).__name__)
    amount = 0 if op == SHARE else _amount(action.amount)
    return Step(op, amount, op in _BOOSTED, getattr(action, "holding", None),
                clause.conditions, optional, asks, rest,
                getattr(action, "counterpart", None) if op == TO_ROLE else None)


def program(clauses: tuple, blocking: tuple = ()) -> tuple | None:
    """The payout program of a card's activation ``clauses`` (one :class:`Step` chain per
    clause), or None when one of them is beyond what a program expresses."""
    try:
        return tuple(_step(clause, clause.asks, blocking) for clause in clauses)
    except _Unsupported:
        return None


_TOWNS = frozenset({"towns"})


def _town_test(test) -> bool:
    """True for a test about one player's town (``owner|roller has ...``: a
    :class:`~machikoro.language.conditions.Subject` that reads the towns alone)."""
    return isinstance(test, conditions.Subject) and test.reads == _TOWNS


def _own_town_only(test) -> bool:
    """True for a condition that reads nothing but its owner's town (so a payout under it
    is the same wherever that town is the same)."""
    kind = type(test)
    if _town_test(test):
        return not test.roller
    if kind in (conditions.AllOf, conditions.AnyOf):
        return all(_own_town_only(t) for t in test.tests)
    if kind is conditions.Not:
        return _own_town_only(test.inner)
    return False


_ROLL = frozenset({"roll"})  # what a test of the roll alone reads (doubles, roll is...)


def _roll_and_roller_only(test) -> bool:
    """True for a condition of a roll raise (``after roll`` on the roller's own card)
    that reads nothing but the roll and the roller's town: the same wherever the faces
    and that town are the same, whatever anyone's coins."""
    kind = type(test)
    if getattr(kind, "reads", None) == _ROLL or _town_test(test):
        return True
    if kind in (conditions.AllOf, conditions.AnyOf):
        return all(_roll_and_roller_only(t) for t in test.tests)
    if kind is conditions.Not:
        return _roll_and_roller_only(test.inner)
    return False


def _static(step: Step | None) -> bool:
    """True when a step chain only ever has the bank pay its owner amounts read from the
    owner's own town (or a side roll's mean), under conditions on that town: its payout
    depends on the owner's town alone, not on the roll, the roller or anyone's coins."""
    while step is not None:
        if step.op not in (BANK, NOTHING, SKIP) or not all(
                _own_town_only(t) for t in step.conditions):
            return False
        amount = step.amount
        if type(amount) is not int and not (amount[0] == SIDE_ROLL or (
                amount[0] == PER_CARD and amount[3] == "owner")):
            return False
        step = step.rest
    return True


_SIMPLE = frozenset((BANK, FROM_ROLLER, FROM_EACH))


def _simple(steps: tuple | None) -> int:
    """The op of a program of one step, asking nothing, that the bank, the roller or each
    other player pays with an amount per copy read from the owner's town alone (under
    conditions on that town); else -1."""
    if steps is None or len(steps) != 1:
        return -1
    step = steps[0]
    amount = step.amount
    if step.op not in _SIMPLE or step.asks or step.rest is not None or \
            step.holding is not None or not all(_own_town_only(t) for t in step.conditions):
        return -1
    if type(amount) is not int and not (amount[0] == PER_CARD and amount[3] == "owner"):
        return -1
    return step.op


_TAKING = frozenset((FROM_ROLLER, FROM_EACH, FROM_RICHEST, FROM_CHOSEN))


def _taking(steps: tuple | None) -> int:
    """The op of a program of one step in which the owner takes coins from other players
    (the roller, each other player, the richest or a chosen one) with an amount per copy
    read from its own town alone, under conditions on that town: one more copy takes at
    most that amount (and its boosts) from each payer per activation; else -1."""
    if steps is None or len(steps) != 1:
        return -1
    step = steps[0]
    amount = step.amount
    if step.op not in _TAKING or step.rest is not None or \
            not all(_own_town_only(t) for t in step.conditions):
        return -1
    if type(amount) is not int and not (amount[0] == PER_CARD and amount[3] == "owner"):
        return -1
    return step.op


def _plain(step: Step) -> tuple:
    """``(n, cards)`` of a simple step without conditions: one copy pays ``n``, or ``n``
    per copy of ``cards`` in its owner's town (``cards`` None for a fixed amount), plus
    its boosts."""
    amount = step.amount
    return (amount, None) if type(amount) is int else (amount[1], amount[2])


def _counted(amount) -> tuple:
    """The cards an amount counts in its owner's town (none for a fixed amount)."""
    return () if type(amount) is int else amount[2] if amount[0] == PER_CARD else ()


def _roller_pays(groups: tuple, simple: tuple) -> frozenset:
    """The cards of the leading colour groups of a roll total that hold nothing but simple
    ``take N from roller`` cards: they resolve before anything else, and only the roller
    pays in them."""
    cards: set = set()
    for group in groups:
        if any(simple[card] != FROM_ROLLER for card, _, _ in group):
            break
        cards.update(card for card, _, _ in group)
    return frozenset(cards)


def _conditions(step: Step | None):
    """The conditions of a step chain, every step's."""
    while step is not None:
        yield from step.conditions
        step = step.rest


def _sides(group: tuple, programs: tuple, simple: tuple) -> tuple:
    """A colour group of :attr:`RuleSet.by_roll` as ``(the roller's cards, the other
    owners' cards)``: whose roll activates each (anyone's, the owner's, the others')."""
    own_roll = tuple((card, programs[card], simple[card]) for card, mode, _ in group if mode != 2)
    theirs = tuple((card, programs[card], simple[card]) for card, mode, _ in group
                   if mode != 1)
    return (own_roll, theirs)


class PayoutTables:
    """A rule set's payout programs and what the look-ahead needs beside them: per card
    index its program (None: the engine must run it) and whether its payout depends on its
    owner's town alone (``static``), and for a one-step program whose amount per copy
    depends on that town alone the step's ``op`` (``simple``, else -1: the amount per copy
    is then read from a table of the town, :meth:`~machikoro.engine.lookahead.Lookahead.
    per_copy`); per roll total, per colour group in resolution order, the cards it
    activates for the roller and for the other owners (``walks``: ``(card, program,
    simple)`` in the rule set's own order); the cards whose payout is not static, with how they are
    activated and on which totals (``dynamic_cards``); per roll total, the cards of the
    colour groups that resolve first and hold only simple ``take N from roller`` cards
    (``roller_pays``: while only those and static payouts activate, the roller's income
    is its town's static payout less what it can pay of their sum); ``raised``, the
    most the roll raises (``rules.roll_raises``) add to a total when each reads only the
    roll and the roller's town (a raised total's income is then its town's alone where no
    total it may come to is run or capped), else None; ``reads_roll``, False
    when no condition of a program may read the roll (so a roll's faces matter only
    through its total); per card the op of a one-step program taking an amount per copy
    read from its owner's town from other players, else -1 (``taking``: an upper bound of
    what one more copy takes, :meth:`~machikoro.engine.lookahead.Lookahead.value_bound`);
    ``(card, activation, the bank pays it)`` of the static cards that pay on their
    owner's roll (``own_static``, in card order); the cards with an activation that are
    static or taking ones (``profiled``: what a town's profile reads, :meth:`~machikoro.engine.lookahead.
    Lookahead._profile`); ``everyone``, the cards in force for every player that boost a
    card's payouts (a town's per-copy payouts read whether anyone has built each); and
    ``memo``, payouts already computed, by the town they depend on (shared by every game
    of the rule set; cleared when it grows large)."""

    __slots__ = ("_card_chances", "_chances", "_index", "_rolls", "conditional", "distribution",
                 "dynamic_cards", "everyone", "faces", "memo", "modes", "own_static", "pays_cards",
                 "plain", "profiled", "programs", "raised", "reads_roll", "roller_pays", "rules",
                 "self_neutral", "simple", "static", "taking", "walks")

    MEMO_SIZE = 9_000
    """Entries in ``memo`` before it is cleared: a 5,000-game 4-player greedy ``simulate``
    peaks at about 133 MB resident with it (140 MB at 10,000, where the entries shared by
    towns of the same payouts and profile hold more each; 128 MB at 8,000)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.programs = tuple(program(clauses, rules.blocking_markers)
                              for clauses in rules.activation)
        self.modes = tuple(ACTIVATED_BY[rules.colours[c.colour].activated_by]
                           if c.colour in rules.colours else 0 for c in rules.cards)
        self.static = tuple(steps is not None and all(_static(s) for s in steps)
                            for steps in self.programs)
        self.simple = tuple(_simple(steps) for steps in self.programs)
        self.taking = tuple(_taking(steps) for steps in self.programs)
        # one step whose amount per copy its owner's town alone decides: simple or taking
        per_copy = tuple(max(op, taking) for op, taking in zip(self.simple, self.taking))
        self.plain = tuple((card, *_plain(self.programs[card][0]))
                           for card, op in enumerate(per_copy)
                           if op >= 0 and not self.programs[card][0].conditions)
        self.conditional = tuple(card for card, op in enumerate(per_copy)
                                 if op >= 0 and self.programs[card][0].conditions)
        self.self_neutral = tuple(
            op >= 0 and not self.programs[card][0].conditions
            and card not in _counted(self.programs[card][0].amount)
            and all(source != card for source, _ in rules.boosts[card])
            for card, op in enumerate(per_copy))
        self.reads_roll = any(not _own_town_only(test) for steps in self.programs if steps
                              for step in steps for test in _conditions(step))
        self.raised = sum([n for _, _, n in rules.roll_raises]) if all(
            _roll_and_roller_only(t) for _, clause, _ in rules.roll_raises
            for t in clause.conditions) else None
        self.walks = {total: tuple(_sides(group, self.programs, self.simple)
                                   for group in groups)
                      for total, groups in rules.by_roll.items()}
        self.dynamic_cards = tuple((card, mode, rules.cards[card].activation)
                                   for card, mode in enumerate(self.modes)
                                   if rules.activation[card] and not self.static[card])
        self.roller_pays = {total: _roller_pays(groups, self.simple)
                            for total, groups in rules.by_roll.items()}
        self.pays_cards = tuple(sorted(set().union(*self.roller_pays.values())))
        self.own_static = tuple((card, info.activation, self.simple[card] == BANK)
                                for card, info in enumerate(rules.cards)
                                if self.static[card] and self.modes[card] != 2
                                and info.activation)
        self.profiled = tuple(card for card, clauses in enumerate(rules.activation)
                              if clauses and (self.static[card] or self.taking[card] >= 0))
        self.everyone = tuple(sorted({~source for boosts in rules.boosts
                                      for source, _ in boosts if source < 0}))
        self.faces = rules.dice_faces
        self.distribution: dict = {}
        self._chances: dict = {}
        self._card_chances: dict = {}
        self._rolls: dict = {}
        self._index: dict = {}
        self.memo: dict = {}

    def probabilities(self, dice: int) -> tuple:
        """``((total, probability), ...)`` for ``dice`` dice (:func:`total_distribution`)."""
        found = self.distribution.get(dice)
        if found is None:
            found = self.distribution[dice] = total_distribution(dice, self.faces)
        return found

    def totals_index(self, dice: int) -> tuple:
        """``({total: (index, probability)}, frozenset of totals)`` of ``dice`` dice, the
        index in :meth:`probabilities`' order (one pair per number of dice, shared)."""
        found = self._index.get(dice)
        if found is None:
            outcomes = self.probabilities(dice)
            found = self._index[dice] = ({t: (i, p) for i, (t, p) in enumerate(outcomes)},
                                         frozenset(t for t, _ in outcomes))
        return found

    def chances(self, dice: int) -> dict:
        """``{total: probability}`` for ``dice`` dice."""
        found = self._chances.get(dice)
        if found is None:
            found = self._chances[dice] = dict(self.probabilities(dice))
        return found

    def card_chances(self, card: int, dice: int) -> tuple:
        """``((total, probability), ...)`` of the totals that activate ``card`` on
        ``dice`` dice, in the card's order, those that cannot happen left out."""
        key = (card, dice)
        found = self._card_chances.get(key)
        if found is None:
            chances = self.chances(dice)
            found = self._card_chances[key] = tuple(
                (total, chances[total]) for total in self.rules.cards[card].activation
                if chances.get(total, 0.0))
        return found

    def rolls(self, card: int, seat: int, dice: tuple) -> tuple:
        """``((roller, total, dice, probability), ...)``: the rolls that activate ``seat``'s
        ``card``, each seat rolling the number of dice ``dice[roller]``, in the order of
        :func:`~machikoro.engine.expectations.card_value` (rollers, then the card's totals),
        those that cannot happen left out."""
        key = (card, seat, dice)
        found = self._rolls.get(key)
        if found is None:
            mode = self.modes[card]
            found = self._rolls[key] = tuple(
                (roller, total, k, p) for roller, k in enumerate(dice)
                if not ((mode == 1 and roller != seat) or (mode == 2 and roller == seat))
                for total, p in self.card_chances(card, k))
        return found

    def remember(self, key, value):
        """Keep ``value`` in ``memo`` under ``key``; return it."""
        if len(self.memo) >= self.MEMO_SIZE:
            self.memo.clear()
        self.memo[key] = value
        return value


_TABLES: WeakKeyDictionary = WeakKeyDictionary()


def tables_for(rules: RuleSet) -> PayoutTables:
    """The :class:`PayoutTables` of ``rules``, compiled on first use and kept while
    ``rules`` lives."""
    found = _TABLES.get(rules)
    if found is None:
        found = _TABLES[rules] = PayoutTables(rules)
    return found


class View:
    """What a condition reads during a simulated roll: the game, seen with a hypothetical
    roll (``current``: the roller, ``dice``, ``total``), the coins of the moment and
    possibly changed towns (``owned``). Anything else is read from the game itself."""

    __slots__ = ("built_this_turn", "coins", "current", "dice", "game", "owned", "total",
                 "towns_seen")

    def __init__(self, game: Game, roller: int, dice: tuple, total: int, coins: list,
                 built: list, owned: list | None = None):
        self.game = game
        self.owned = game.owned if owned is None else owned
        self.towns_seen = self.owned  # what the conditions read: a roll to come, from now
        self.coins, self.built_this_turn = coins, built
        self.current, self.dice, self.total = roller, dice, total

    def __getattr__(self, name: str):
        return getattr(self.game, name)

    def others(self, seat: int) -> tuple:
        """The other seats, in payment order starting next to ``seat``."""
        return self.game.others(seat)


def run_chain(step: Step | None, view: View, card: int, owner: int, copies: int) -> None:
    """Run one clause's program for ``owner``'s ``copies`` of ``card`` on ``view.coins``
    (changed in place): each step while its conditions hold and the step before it
    happened."""
    while step is not None:
        for condition in step.conditions:
            if not condition.test(view, owner):
                return
        op = step.op
        if op >= SKIP or _pay(step, op, view, card, owner, copies) is False:
            return
        step = step.rest


def _pay(step: Step, op: int, view: View, card: int, owner: int, copies: int):
    """What one step's action does to ``view.coins`` (the actions' own rules: a payer pays
    what it has; a chosen player is the richest other one, the first of them in payment
    order); False when it did not happen."""
    coins, owned, game = view.coins, view.owned, view.game
    amount = step.amount
    fixed = type(amount) is int
    if copies > 1 and op == FROM_EACH and (step.holding is not None or (
            not fixed and amount[0] in (ALL_COINS, HALF_COINS))):
        for _ in range(copies):  # each copy on the coins left (TakeFromEach.run)
            _pay(step, op, view, card, owner, 1)
        return None
    boost = boost_of(game.rules.boosts[card], owned[owner], owned) if step.boosted else 0
    if op == BANK:
        per = (amount if fixed else amount_value(amount, view, card, owner, owner)) + boost
        if per > 0:
            coins[owner] += per * copies
        return None
    if op == SHARE:
        each = -(-sum(coins) // len(coins))
        coins[:] = [each] * len(coins)
        return None
    if op == TO_ROLE:  # a concept unit's role: its own reference rule, on the view
        other = step.role(view, owner)
        if other is None:
            return False
        value = amount if fixed else amount_value(amount, view, card, owner, other)
        _transfer(coins, owner, other, value * copies, value)
        return None
    others = game.others(owner)
    if op == FROM_EACH or op == TO_EACH:
        holding = step.holding
        for other in others:
            if holding is not None and not holding(coins[other]):
                continue
            value = amount if fixed else amount_value(amount, view, card, owner, other)
            if op == FROM_EACH:
                _transfer(coins, other, owner, (value + boost) * copies, value + boost)
            else:
                _transfer(coins, owner, other, value * copies, value)
        return None
    if op == FROM_ROLLER or op == TO_ROLLER:
        other = view.current
        if other == owner:
            return False
    elif op == TO_BANK:
        other = owner
    elif not others:
        return False
    else:
        other = max(others, key=coins.__getitem__)
    value = amount if fixed else amount_value(amount, view, card, owner, other)
    if op == TO_BANK:
        owed = value * copies
        if owed > 0:
            coins[owner] -= min(owed, coins[owner])
    elif op == TO_ROLLER or op == TO_CHOSEN:
        _transfer(coins, owner, other, value * copies, value)
    else:
        _transfer(coins, other, owner, (value + boost) * copies, value + boost)
    return None


def amount_value(amount: tuple, view: View, card: int, owner: int, payer: int):
    """An amount read at the moment (:func:`_amount`), for one copy."""
    kind = amount[0]
    if kind == PER_CARD:
        _, n, cards, scope = amount
        if scope == "every_town":
            return n * sum(town[i] for town in view.owned for i in cards)
        town = view.owned[payer if scope == "payer" else owner]
        return n * sum(town[i] for i in cards)
    if kind == ALL_COINS:
        return view.coins[payer]
    if kind == HALF_COINS:
        return view.coins[payer] // 2
    if kind == CARD_COINS:
        return view.game.marks[amount[1]][owner][card]
    mean = (view.game.rules.dice_faces + 1) / 2  # a side roll counts its mean total
    return sum((mean,) * amount[1])


def _transfer(coins: list, payer: int, payee: int, owed, per) -> None:
    """``payer`` pays ``payee`` ``owed`` coins, or all it has, when ``per`` (the amount for
    one copy) is more than nothing (:meth:`~machikoro.engine.state_changes.StateChanges.
    transfer`)."""
    if per > 0:
        have = coins[payer]
        paid = min(owed, have)
        coins[payer] = have - paid
        coins[payee] += paid
