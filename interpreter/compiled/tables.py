"""A rule set as the compiled engine's tables: plain integer arrays, read by the per-game
code of :mod:`machikoro.compiled.kernels`.

The tables say what the scalar engine's compiled rule set says, in numbers:

- the cards: cost, limit, landmark or not, in the market or not, the build menu's order
  (``by_cost``), the victory landmarks, the boosts;
- the clauses: each activation or hook clause is a row (:data:`CLAUSE_FIELDS`): its
  action as an *op* (a coin action by its payer's and payee's roles, as the effect
  language's classes declare them: one transfer rule for all of them), its amount, its
  conditions (rows of the condition table), the cards it names;
- the plans: per roll total, the income step's items ``(offset, card, clause)`` in the
  scalar engine's order (colour groups in order; owners in payment order from the roller,
  ``offset`` seats along it; each owner's cards in group order); per trigger, its hooks
  ``(card, clause)``.

:func:`encode` refuses, with :class:`~machikoro.errors.CompiledUnsupported` naming the
concept, what the compiled engine does not play yet: the registry's ``compiled`` gaps
(:func:`~machikoro.language.concepts.first_gap`) for rules-file concepts, and any
compiled class outside :data:`ACTIONS`, :data:`AMOUNTS` and :data:`CONDITIONS`. Nothing
is played approximately.

This module needs NumPy only; the compiler (Numba) is imported by the kernels.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import CompiledUnsupported
from ..language import actions as act
from ..language import amounts as amt
from ..language import conditions as cond
from ..language.clauses import TRIGGERS
from ..language.concepts import concept_of, first_gap
from ..language.units import (
    built_nothing,
    doubles,
    has_card,
    has_coins,
    has_count,
    has_landmarks,
    market_has,
    per_round,
    poorest,
    received_coins,
    roll_is,
    rolled_dice,
    round_is,
)
from ..rules.ruleset import RuleSet

# roles of a coin action's payer and payee (the language's act.BANK...), as numbers
ROLES = {act.BANK: 0, act.OWNER: 1, act.ROLLER: 2, act.OTHERS: 3, act.RICHEST: 4,
         act.CHOSEN: 5, poorest.ROLE: 6}

# action ops
(COINS, SWAP, EXTRA_TURN, REROLL, STATIC, ADD_TO_ROLL, GIVE, SHARE, CARD_CHOICE, MARK,
 PUT_COINS, RETURN) = range(12)
ACTIONS = {act.Gain: COINS, act.PayBank: COINS, act.PayEach: COINS, act.PayRoller: COINS,
           act.TakeFromRoller: COINS, act.TakeFromEach: COINS, act.TakeFromChosen: COINS,
           act.PayChosen: COINS, act.Swap: SWAP, act.ExtraTurn: EXTRA_TURN,
           act.Reroll: REROLL, act.DiceChoice: STATIC, act.Boost: STATIC,
           act.AddToRoll: ADD_TO_ROLL, act.Give: GIVE, act.ShareCoins: SHARE,
           act.CostChange: STATIC, act.Unbuild: CARD_CHOICE, act.ChooseKind: CARD_CHOICE,
           act.Activate: CARD_CHOICE, act.Mark: MARK, act.PutCoins: PUT_COINS,
           act.ReturnCard: RETURN, poorest.PayPoorest: COINS, act.TakeFromRichest: COINS}
UNBUILD, CHOOSE_KIND, ACTIVATE = 0, 1, 2
"""A card choice's act (its ``scope``)."""
CARD_CHOICES = {act.Unbuild: UNBUILD, act.ChooseKind: CHOOSE_KIND, act.Activate: ACTIVATE}
"""The effect language's actions the compiled engine plays, by op."""

# amount kinds
FIXED, PER_CARD, HALF_COINS, ALL_COINS, SIDE_ROLL, PER_CHOSEN, CARD_COINS, PER_ROUND = range(8)
AMOUNTS = {amt.Fixed: FIXED, amt.PerCard: PER_CARD, amt.HalfCoins: HALF_COINS,
           amt.AllCoins: ALL_COINS, amt.SideRoll: SIDE_ROLL, amt.PerChosen: PER_CHOSEN,
           amt.CardCoins: CARD_COINS, per_round.PerRound: PER_ROUND}
"""The amounts the compiled engine plays, by kind (``n``: N, or a side roll's dice)."""
SCOPES = {"owner": 0, "every_town": 1, "payer": 2}

# condition ops
(DOUBLES, HAS_CARD, HAS_COUNT, HAS_COINS, HAS_LANDMARKS, BUILT_NOTHING, ROLL_IS,
 ROLLED_DICE, RECEIVED, OTHER_PLAYERS, ROUND_IS, MARKET_HAS, ALL_OF, ANY_OF, NOT) = range(15)
CONDITIONS = {doubles.Doubles: DOUBLES, has_card.HasCard: HAS_CARD,
              has_count.HasCount: HAS_COUNT, has_coins.HasCoins: HAS_COINS,
              has_landmarks.HasLandmarks: HAS_LANDMARKS,
              built_nothing.BuiltNothing: BUILT_NOTHING, roll_is.RollIs: ROLL_IS,
              rolled_dice.RolledDice: ROLLED_DICE, received_coins.ReceivedCoins: RECEIVED,
              cond.OtherPlayers: OTHER_PLAYERS, round_is.RoundIs: ROUND_IS,
              market_has.MarketHas: MARKET_HAS, cond.AllOf: ALL_OF, cond.AnyOf: ANY_OF,
              cond.Not: NOT}
"""The conditions the compiled engine plays. A top-level condition is a run of rows in
postfix order: ``A and B`` is A's rows, B's rows, then an ``ALL_OF`` row of ``n`` = 2 (as
``any``, ``not``); an ``other players`` row reads the row ``n``, an inner one (its
``inner`` column 1, skipped by the run)."""
MODES = {"any": 0, "every": 1, "none": 2}
"""``any|every|no other player has ...``: the test about a player (a condition row of its
own, ``n``) read for each other player."""
QUANTITY = {"==": 0, ">=": 1, "<=": 2, "<": 3, ">": 4}

CLAUSE_FIELDS = ("op", "payer", "payee", "boosted", "amount", "n", "scope", "asks",
                 "optional", "cond_start", "cond_count", "holding_op", "holding_n",
                 "yes_no", "one_by_one", "marker", "rest")
"""The columns of :attr:`Tables.clauses` (one row per clause)."""
CONDITION_FIELDS = ("op", "roller", "quantity_op", "n", "inner")
"""The columns of :attr:`Tables.conditions`; the cards each names are
:attr:`Tables.condition_cards`."""

NO_TOTAL = -1


class Tables(NamedTuple):
    """The compiled engine's tables of one rule set at ``players`` seats (see the module
    text). Every array is ``int64`` unless said; ``cards`` rows are card indices."""

    players: int
    cards: int
    faces: int
    dice_count: int          # the rule set's number of dice
    dice_counts: np.ndarray  # every number of dice a player may roll, ascending
    dice_default: int        # the rule set's, as a bit of dice_counts
    dice_cards: np.ndarray   # the cards offering a choice of dice
    dice_offers: np.ndarray  # per such card, its counts as bits of dice_counts
    reroll_same: bool        # a reroll rolls the same number of dice (else a choice)
    max_dice: int
    builds_per_turn: int
    active_on_build_turn: bool
    cost: np.ndarray
    limit: np.ndarray
    landmark: np.ndarray     # bool
    in_market: np.ndarray    # bool: built from a market pile
    by_cost: np.ndarray      # the build menu's order
    afford: np.ndarray       # per coins held (the last: that or more), the cards of by_cost
                             # costing no more
    victory: np.ndarray
    victory_count: int
    at_once: np.ndarray
    boost_source: np.ndarray  # (cards, boosts): source card, ~card for anyone's, -1 none
    boost_more: np.ndarray
    order: np.ndarray        # (players, players): seats in payment order from each
    coins: np.ndarray        # starting coins per seat
    town: np.ndarray         # starting town
    supply: np.ndarray       # the market's piles at the start
    clauses: np.ndarray      # (clauses, CLAUSE_FIELDS)
    clause_cards: np.ndarray  # (clauses, cards) bool: an amount's or a swap's cards
    conditions: np.ndarray   # (conditions, CONDITION_FIELDS)
    condition_cards: np.ndarray  # (conditions, cards) bool
    condition_list: np.ndarray   # (top-level conditions, 2): each one's run of rows
    plan_start: np.ndarray   # per roll total: first item (income), NO_TOTAL: none
    plan_stop: np.ndarray
    items: np.ndarray        # (items, 5): offset, card, clause, first of its card, block
    hook_start: np.ndarray   # per trigger (TRIGGERS order)
    hook_stop: np.ndarray
    hooks: np.ndarray        # (hooks, 2): card, clause
    landing: np.ndarray      # per phase, the phase a game going to it enters (LANDING)
    queue_size: int          # the most items a queue may hold
    row_kinds: np.ndarray    # per market row with a deck: the kinds it shows
    row_cards: np.ndarray    # (rows, cards) bool: the row's cards
    row_size: np.ndarray     # the cards of its deck in the box
    row_deck: np.ndarray     # (rows, most): the deck before its shuffle
    deck_row: np.ndarray     # per card, the row with a deck it belongs to, or -1
    retire: bool             # market.retire_unbuildable
    upkeep: bool             # the market changes after a build from it
    dynamic: bool            # costs or the build menu depend on the builder and the game
    tiers: np.ndarray        # (cards, most): a card's cost by landmarks built
    discounts: np.ndarray    # (changes, 3): source card, coins less, for every player
    discount_cards: np.ndarray  # (changes, cards) bool: the cards it changes
    build_if: np.ndarray     # (cards, 2): first row and count of its conditions
    shared: np.ndarray       # (cards,) bool: in force for every player (scope: everyone)
    build_only_rounds: int
    blocks: np.ndarray       # (blocks, 2): an order block's first and last + 1 item
    block_cards: np.ndarray  # (blocks, most): its candidates, in order (-1 pads)
    card_clauses: np.ndarray  # (cards, most): a card's activation clause rows (-1 pads)
    conflicts: np.ndarray    # (cards, cards) bool: their order can change the result
    blocking: np.ndarray     # the markers that block the next activation
    coin_markers: np.ndarray  # the markers that hold coins
    markers: int             # the rule set's markers (at least 1, for the arrays)
    towns_kept: np.ndarray   # per roll total: its income reads the towns at the roll
    follows_copies: bool     # the income step logs its moves of cards


def refusal(rules: RuleSet) -> str | None:
    """What the compiled engine does not play in ``rules`` (a concept's name, with where
    it is), or None when it plays all of it."""
    try:
        encode(rules, rules.min_players)
    except CompiledUnsupported as error:
        return str(error.concept)
    return None


# the turn's phases (the kernels' PHASE); the queue phases walk the game's queue
(START, BEFORE_ROLL, DICE, AFTER_ROLL, INCOME, AFTER_INCOME, BEFORE_BUILD, BUILD, END,
 OVER, SETUP, WHEN_BUILT, BUILD_AGAIN) = range(13)
HOOK_OF = (-1, 0, -1, 1, -1, 4, 2, -1, 3, -1, -1, 5, -1)
"""Per phase, its trigger's index in TRIGGERS (before_roll, after_roll, before_build,
end_of_turn, after_income, when_built), -1: not a hook phase."""
NEXT = (BEFORE_ROLL, DICE, AFTER_ROLL, INCOME, AFTER_INCOME, BEFORE_BUILD, BUILD, END,
        START, OVER, START, BUILD_AGAIN, END)
"""The phase after each queue phase's walk."""


def landing(hook_start: np.ndarray, hook_stop: np.ndarray, keeps_towns: bool) -> np.ndarray:
    """Per phase, the phase a game going to it enters: itself, or for a hook phase whose
    trigger no card of the rule set has (before roll, after roll, before build, after
    income: the last only when the towns as they stood at the roll are not kept, since
    its entry lets them go), the first phase after it that is not skipped so. A skipped
    phase would fill an empty queue and walk nothing."""
    skipped = {BEFORE_ROLL, AFTER_ROLL, BEFORE_BUILD} | (set() if keeps_towns
                                                         else {AFTER_INCOME})
    out = np.arange(len(NEXT), dtype=np.int64)
    for phase in range(len(NEXT)):
        found = phase
        while found in skipped and hook_start[HOOK_OF[found]] == hook_stop[HOOK_OF[found]]:
            found = NEXT[found]
        out[phase] = found
    return out


def _afford(rules: RuleSet) -> np.ndarray:
    """Per number of coins 0 .. the highest cost, how many cards of the build menu's order
    (``rules.by_cost``, by cost) cost no more than that (the menu's length before its
    other checks, where costs do not change)."""
    costs = [cost for cost, _, _, _, _ in rules.by_cost]
    top = max(max(costs, default=0), 0)
    return np.array([sum(1 for cost in costs if cost <= coins) for coins in range(top + 1)],
                    dtype=np.int64)


MAX_COST_CHANGES = 62
"""The most cost changes a rule set may have (the kernels hold those in force as the bits
of one integer)."""


def _refuse_rules(rules: RuleSet) -> None:
    gap = first_gap(rules, "compiled")
    if gap is not None:
        raise CompiledUnsupported(gap.name)
    if len(rules.discounts) > MAX_COST_CHANGES:
        raise CompiledUnsupported(f"more than {MAX_COST_CHANGES} cost changes "
                                  f"({len(rules.discounts)})")
    _refuse_nested(rules)


def _activates(clauses) -> list:
    """The ``activate`` actions among the steps of ``clauses``."""
    return [a for clause in clauses for a in clause.steps if type(a) is act.Activate]


def _refuse_nested(rules: RuleSet) -> None:
    """Refuse a card that may activate a card that activates cards itself: the queue of
    one income step would have no bound (the scalar engine plays it)."""
    hooked = [(card, [clause]) for pairs in rules.hooks.values() for card, clause in pairs]
    for card, clauses in list(enumerate(rules.activation)) + hooked:
        for action in _activates(clauses):
            for target in action.cards:
                if _activates(rules.activation[target]):
                    raise CompiledUnsupported(
                        f"an activation inside an activated card ({rules.ids[card]} may "
                        f"activate {rules.ids[target]})")


class _Encoder:
    """Builds the clause and condition rows (see :func:`encode`)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.cards = len(rules.cards)
        self.clauses: list = []
        self.clause_cards: list = []
        self.conditions: list = []
        self.condition_cards: list = []
        self.condition_list: list = []
        self._index: dict = {}

    def _mask(self, cards) -> np.ndarray:
        mask = np.zeros(self.cards, dtype=bool)
        mask[list(cards)] = True
        return mask

    def _unsupported(self, obj, card: int, clause) -> CompiledUnsupported:
        concept = concept_of(type(obj))
        name = concept.name if concept is not None else type(obj).__name__
        where = f"the effect of {self.rules.ids[card]} ('{clause.text}')" if clause \
            else f"the build_if of {self.rules.ids[card]}"
        return CompiledUnsupported(f"{name}, in {where}")

    def condition(self, test, card: int, clause, inner: bool = False,
                  top: bool = True) -> int:
        """The rows of condition ``test`` (see :data:`CONDITIONS`); a top-level one's run
        ``[first, last + 1)`` is also listed in ``condition_list`` (a clause's conditions
        are a run of that list). Returns its last row."""
        op = CONDITIONS.get(type(test))
        if op is None or (inner and op in (OTHER_PLAYERS, ALL_OF, ANY_OF, NOT)):
            raise self._unsupported(test, card, clause)
        first = len(self.conditions)
        quantity = getattr(test, "quantity", None)
        row = [op, int(getattr(test, "roller", False)),
               QUANTITY[quantity.op] if quantity is not None else 0,
               quantity.n if quantity is not None else 0, int(inner)]
        if op == OTHER_PLAYERS:
            row[2], row[3] = MODES[test.mode], self.condition(test.inner, card, clause, True,
                                                              False)
        elif op in (ALL_OF, ANY_OF, NOT):
            parts = (test.inner,) if op == NOT else test.tests
            for part in parts:
                self.condition(part, card, clause, top=False)
            row[3] = len(parts)
        self.conditions.append(tuple(row))
        cards = getattr(test, "cards", None) or getattr(test, "landmarks", None) or ()
        self.condition_cards.append(self._mask(cards))
        if top:
            self.condition_list.append((first, len(self.conditions)))
        return len(self.conditions) - 1

    def clause(self, clause, card: int) -> int:
        """The row of ``clause`` (made once per clause object and card)."""
        key = (id(clause), card)
        found = self._index.get(key)
        if found is not None:
            return found
        rest = -1 if clause.rest is None else self.clause(clause.rest, card)
        action = clause.action
        yes_no = type(action) is act.Optional  # 'may' around a plain action: no or yes
        if yes_no:
            action = action.action
        op = ACTIONS.get(type(action))
        if op is None:
            raise self._unsupported(action, card, clause)
        starts = len(self.condition_list)
        for test in clause.conditions:
            self.condition(test, card, clause)
        payer = payee = boosted = kind = n = scope = marker = 0
        holding_op, holding_n = -1, 0
        cards: tuple = ()
        if op == COINS:
            payer, payee = ROLES[action.payer], ROLES[action.payee]
            boosted = int(action.boosted)
            amount = action.amount
            kind = AMOUNTS.get(type(amount))
            if kind is None:
                raise self._unsupported(amount, card, clause)
            n = amount.dice if kind == SIDE_ROLL else getattr(amount, "n", 0)
            scope = SCOPES.get(getattr(amount, "scope", "owner"), 0)
            cards = getattr(amount, "cards", ())
            marker = getattr(amount, "marker", 0)
            holding = getattr(action, "holding", None)
            if holding is not None:
                holding_op, holding_n = QUANTITY[holding.op], holding.n
        elif op == SWAP:
            cards = action.swappable
        elif op == GIVE:
            cards, scope = action.giveable, int(action.previous)
        elif op == ADD_TO_ROLL:
            n = action.n
        elif op == CARD_CHOICE:
            cards, scope = action.cards, CARD_CHOICES[type(action)]
        elif op == MARK:
            marker, scope = action.marker, int(action.chosen_kind)
        elif op == PUT_COINS:
            marker, n = action.marker, action.n
        optional = int(bool(getattr(action, "optional", False)))
        # each copy acts on the coins the one before left (actions.one_by_one)
        one_by_one = int(op == COINS and (holding_op >= 0 or kind in (HALF_COINS, ALL_COINS)))
        self.clauses.append((op, payer, payee, boosted, kind or 0, n, scope,
                             int(bool(action.asks) or yes_no), optional or int(yes_no), starts,
                             len(self.condition_list) - starts, holding_op, holding_n,
                             int(yes_no), one_by_one, marker, rest))
        self.clause_cards.append(self._mask(cards))
        index = self._index[key] = len(self.clauses) - 1
        return index


def _array(rows: list, width: int) -> np.ndarray:
    return np.array(rows, dtype=np.int64).reshape(len(rows), width)


def encode(rules: RuleSet, players: int) -> Tables:
    """The :class:`Tables` of ``rules`` at ``players`` seats. Raises
    :class:`~machikoro.errors.CompiledUnsupported` naming the first concept the compiled
    engine does not play."""
    _refuse_rules(rules)
    encoder = _Encoder(rules)
    cards = len(rules.cards)
    plans = _plans(rules, players, encoder)
    costs = _costs(rules, encoder)
    card_info = _cards(rules, encoder)
    boosts = rules.boosts
    width = max((len(b) for b in boosts), default=0) or 1
    boost_source = np.full((cards, width), -1 << 40, dtype=np.int64)
    boost_more = np.zeros((cards, width), dtype=np.int64)
    for card, found in enumerate(boosts):
        for k, (source, more) in enumerate(found):
            boost_source[card, k], boost_more[card, k] = source, more
    step = -1 if rules.payment_order == "counterclockwise" else 1
    counts = sorted({rules.dice_count} | {k for _, offers in rules.dice_options
                                           for k in offers})
    starting = rules.starting_coins(players)
    in_market = np.zeros(cards, dtype=bool)
    for _, i, _, _, market in rules.by_cost:
        in_market[i] = market
    return Tables(
        players=players, cards=cards, faces=rules.dice_faces, dice_count=rules.dice_count,
        dice_counts=np.array(counts, dtype=np.int64),
        dice_default=1 << counts.index(rules.dice_count),
        dice_cards=np.array([card for card, _ in rules.dice_options], dtype=np.int64),
        dice_offers=np.array([sum(1 << counts.index(k) for k in set(offers))
                              for _, offers in rules.dice_options], dtype=np.int64),
        reroll_same=bool(rules.options["reroll_same_dice"]), max_dice=max(counts),
        builds_per_turn=rules.builds_per_turn,
        active_on_build_turn=bool(rules.options["landmark_active_on_build_turn"]),
        cost=np.array(rules.cost, dtype=np.int64),
        limit=np.array(rules.limit, dtype=np.int64),
        landmark=np.array([c.is_landmark for c in rules.cards], dtype=bool),
        in_market=in_market,
        by_cost=np.array([i for _, i, _, _, _ in rules.by_cost], dtype=np.int64),
        afford=_afford(rules),
        victory=np.array(rules.victory, dtype=np.int64), victory_count=rules.victory_count,
        at_once=np.array(rules.wins_at_once, dtype=np.int64),
        boost_source=boost_source, boost_more=boost_more,
        order=np.array([[(r + step * k) % players for k in range(players)]
                        for r in range(players)], dtype=np.int64),
        coins=np.array(list(starting) if isinstance(starting, (list, tuple))
                       else [starting] * players, dtype=np.int64),
        town=np.array(rules.start_town, dtype=np.int64),
        supply=np.array(rules.supply_for(players), dtype=np.int64),
        clauses=_array(encoder.clauses, len(CLAUSE_FIELDS)),
        clause_cards=np.array(encoder.clause_cards, dtype=bool).reshape(-1, cards),
        conditions=_array(encoder.conditions, len(CONDITION_FIELDS)),
        condition_cards=np.array(encoder.condition_cards, dtype=bool).reshape(-1, cards),
        condition_list=np.array(encoder.condition_list, dtype=np.int64).reshape(-1, 2),
        **plans, **_market(rules, players, cards), **costs, **card_info)


def _plans(rules: RuleSet, players: int, encoder: _Encoder) -> dict:
    """The income plans and the hooks (:class:`Tables`' ``plan_start`` ... ``queue_size``):
    a plan's items ``(offset, card, clause, first clause of its card, order block)`` in
    the scalar engine's order (colour groups in order; owners in payment order from the
    roller, or the roller alone for a group only its roll activates; each owner's cards in
    group order); an order block (one owner's cards of a group whose owner may order them,
    :mod:`machikoro.engine.ordering`) with its candidates in order. The queue's size
    counts a clause that asks once per copy, and room for the items inserted as it runs
    (``then`` steps, an activated card's clauses)."""
    items: list = []
    blocks: list = []
    candidates: list = []
    plan_start = np.full(max(rules.by_roll, default=0) + 1, NO_TOTAL, dtype=np.int64)
    plan_stop = plan_start.copy()
    copies_most = max((s + t * players for s, t in zip(rules.supply_for(players),
                                                       rules.start_town)), default=1)
    inserted = 4 * copies_most * max((len(c) for c in rules.activation), default=1) + 16
    queue_size = 1
    for total, groups in rules.by_roll.items():
        plan_start[total] = len(items)
        size = 0
        for group, involved in zip(groups, rules.order_groups.get(total,
                                                                  ((),) * len(groups))):
            theirs = any(mode != 1 for _, mode, _ in group)
            for offset in (range(players) if theirs or involved else (0,)):
                rolled = offset == 0
                block = len(blocks) if involved else -1
                start = len(items)
                for card, mode, clauses in group:
                    if (mode == 1 and not rolled) or (mode == 2 and rolled):
                        continue
                    for n, clause in enumerate(clauses):
                        items.append((offset, card, encoder.clause(clause, card), int(n == 0),
                                      block))
                        size += min(copies_most, rules.limit[card]) if clause.asks else 1
                if involved:
                    blocks.append((start, len(items)))
                    candidates.append([card for card, mode in involved
                                       if not ((mode == 1 and not rolled) or
                                               (mode == 2 and rolled))])
                    size += 1
        plan_stop[total] = len(items)
        queue_size = max(queue_size, size)
    hooks: list = []
    hook_start = np.zeros(len(TRIGGERS), dtype=np.int64)
    hook_stop = np.zeros(len(TRIGGERS), dtype=np.int64)
    for t, trigger in enumerate(TRIGGERS):
        hook_start[t] = len(hooks)
        size = 0
        for card, clause in rules.hooks[trigger]:
            hooks.append((card, encoder.clause(clause, card)))
            size += min(copies_most, rules.limit[card]) if clause.asks else 1
        hook_stop[t] = len(hooks)
        queue_size = max(queue_size, size)
    width = max((len(c) for c in candidates), default=0) or 1
    block_cards = np.full((len(blocks), width), -1, dtype=np.int64)
    for b, found in enumerate(candidates):
        block_cards[b, :len(found)] = found
    keeps = bool(rules.follows_copies or rules.towns_kept)
    return {"plan_start": plan_start, "plan_stop": plan_stop, "items": _array(items, 5),
            "hook_start": hook_start, "hook_stop": hook_stop, "hooks": _array(hooks, 2),
            "landing": landing(hook_start, hook_stop, keeps),
            "queue_size": queue_size + inserted, "blocks": _array(blocks, 2),
            "block_cards": block_cards}


def _cards(rules: RuleSet, encoder: _Encoder) -> dict:
    """Per card, its activation's clause rows (:class:`Tables`' ``card_clauses``, for a
    card activated by another), the markers' kinds, the pairs of cards whose order can
    change the result, the roll totals whose income keeps the towns as they stood."""
    cards = len(rules.cards)
    width = max((len(c) for c in rules.activation), default=0) or 1
    card_clauses = np.full((cards, width), -1, dtype=np.int64)
    for card, clauses in enumerate(rules.activation):
        for k, clause in enumerate(clauses):
            card_clauses[card, k] = encoder.clause(clause, card)
    conflicts = np.zeros((cards, cards), dtype=bool)
    for pair in rules.conflicts:
        a, b = tuple(pair)
        conflicts[a, b] = conflicts[b, a] = True
    kept = np.zeros(max(rules.by_roll, default=0) + 1, dtype=bool)
    kept[[t for t in rules.towns_kept if t < len(kept)]] = True
    return {"card_clauses": card_clauses, "conflicts": conflicts,
            "blocking": np.array(rules.blocking_markers, dtype=np.int64),
            "coin_markers": np.array(rules.coin_markers, dtype=np.int64),
            "markers": max(len(rules.markers), 1), "towns_kept": kept,
            "follows_copies": bool(rules.follows_copies or rules.towns_kept)}


def _market(rules: RuleSet, players: int, cards: int) -> dict:
    """The market rows that have a deck (:class:`Tables`' ``row_kinds`` ... ``upkeep``):
    each row's cards, and its deck before the shuffle, every copy of the box in the row's
    order (:meth:`~machikoro.engine.market.MarketState._setup_market`)."""
    piles = rules.supply_for(players)
    rows = [row for row in rules.market_rows if row.kinds is not None]
    decks = [[i for i in row.cards for _ in range(piles[i])] for row in rows]
    width = max((len(deck) for deck in decks), default=0) or 1
    row_cards = np.zeros((len(rows), cards), dtype=bool)
    row_deck = np.zeros((len(rows), width), dtype=np.int64)
    for r, (row, deck) in enumerate(zip(rows, decks)):
        row_cards[r, list(row.cards)] = True
        row_deck[r, :len(deck)] = deck
    deck_row = np.full(cards, -1, dtype=np.int64)
    for r, row in enumerate(rows):
        deck_row[list(row.cards)] = r
    return {"row_kinds": np.array([row.kinds for row in rows], dtype=np.int64),
            "deck_row": deck_row,
            "row_cards": row_cards,
            "row_size": np.array([len(deck) for deck in decks], dtype=np.int64),
            "row_deck": row_deck, "retire": bool(rules.retire_unbuildable),
            "upkeep": bool(rules.market_upkeep)}


def _costs(rules: RuleSet, encoder: _Encoder) -> dict:
    """What a card costs a builder now (:class:`Tables`' ``dynamic`` ... ``shared``,
    :meth:`machikoro.engine.phases.TurnPhases.cost_to`): its tiers by landmarks built
    (the last repeated), the cost changes, the conditions on building it."""
    cards = len(rules.cards)
    found = rules.cost_tiers or (None,) * cards
    width = max((len(t) for t in found if t), default=1)
    tiers = np.array([list(t) + [t[-1]] * (width - len(t)) if t else [cost] * width
                      for t, cost in zip(found, rules.cost)], dtype=np.int64)
    discount_cards = np.zeros((len(rules.discounts), cards), dtype=bool)
    for k, (_, targets, _) in enumerate(rules.discounts):
        discount_cards[k, list(targets)] = True
    build_if = np.zeros((cards, 2), dtype=np.int64)
    for card, conditions in enumerate(rules.build_if):
        build_if[card, 0] = len(encoder.condition_list)
        for test in conditions:
            encoder.condition(test, card, None)
        build_if[card, 1] = len(encoder.condition_list) - build_if[card, 0]
    shared = np.zeros(cards, dtype=bool)
    shared[sorted(rules.shared)] = True
    return {"dynamic": bool(rules.dynamic_costs), "tiers": tiers.reshape(cards, width),
            "discounts": np.array([(source, n, source in rules.shared)
                                   for source, _, n in rules.discounts],
                                  dtype=np.int64).reshape(-1, 3),
            "discount_cards": discount_cards, "build_if": build_if, "shared": shared,
            "build_only_rounds": rules.build_only_rounds}
