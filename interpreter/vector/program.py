"""A rule set compiled for the batched engine: plans of kernels, built once per rule set
and player count from the same :class:`~machikoro.rules.ruleset.RuleSet` the scalar engine
plays.

The scalar engine resolves a roll's income by walking a queue of items ``(card, owner,
copies, clause)`` made from the rule set's activation tables; the hooks of a trigger
(``after roll``, ``at end of turn``...) likewise. Here each such walk is a *plan*: a fixed
tuple of :class:`Item` s in the scalar engine's order, whose owner is named relative to
the roller (``offset`` seats along the payment order; a hook's owner is the roller), so a
plan serves every roller. A game walks its plan item by item; every clause of an item is
a chain of compiled steps (:mod:`machikoro.vector.kernels`) run while the step before
happened, and an item whose clause asks a decision runs once per copy, pausing at the
decision.

:func:`compile_rules` refuses, with :class:`~machikoro.errors.VectorUnsupported` naming
the concept, what the batched engine cannot play yet (the lab then plays the scalar
engine): an effect outside :data:`~machikoro.vector.kernels.KERNELS`, an activation
inside an activated card, more than one card offering a choice of dice with different
counts for one seat... Nothing is refused silently and nothing is played approximately.
"""

from __future__ import annotations

from typing import NamedTuple
from weakref import WeakKeyDictionary

import numpy as np

from ..errors import VectorUnsupported
from ..language import actions as act
from ..language.clauses import TRIGGERS
from ..language.concepts import first_gap
from ..rules.ruleset import RuleSet
from ..rules.tables import followed_kinds
from . import kernels

HOOK_PLANS = {trigger: k for k, trigger in enumerate(TRIGGERS)}
"""Plan ids of the hooks of each trigger; an income plan's id is ``len(TRIGGERS) +
total``."""



def refuse_rules(rules: RuleSet) -> None:
    """Raise :class:`~machikoro.errors.VectorUnsupported` naming the first rules-file
    concept of ``rules`` the batched engine does not compile (:func:`unsupported_rules`)."""
    concept = unsupported_rules(rules)
    if concept is not None:
        raise VectorUnsupported(concept)


def unsupported_rules(rules: RuleSet) -> str | None:
    """The first rules-file concept of ``rules`` the batched engine does not compile, or
    None: a query of the registry (:func:`~machikoro.language.concepts.first_gap`)."""
    concept = first_gap(rules, "batched")
    return None if concept is None else concept.name


def dynamic_concepts(rules: RuleSet) -> str | None:
    """The first concept of ``rules`` that the batched policies (greedy's arrays,
    strategies) do not value, or None: a query of the registry (the concepts grown for
    Machi Koro 2: tiered costs, a shared landmark pool, cost changes, ``build_if``,
    ``scope: everyone``, the ``after income`` and ``when built`` triggers, build-only
    rounds, a landmark that wins at once, the coins received this turn)."""
    concept = first_gap(rules, "policies")
    return None if concept is None else concept.name


class Step(NamedTuple):
    """One step of a clause's chain: its kernel (a :class:`~machikoro.vector.kernels.
    Plain` or :class:`~machikoro.vector.kernels.Choice`) and, for a choice, its decision
    kind (an index into :attr:`Program.choices`; -1 for a plain step)."""

    kernel: object
    kind: int


class Item(NamedTuple):
    """One item of a plan: ``card``'s ``clause`` (the scalar compiled clause, for messages
    and conversion), run for the owner ``offset`` seats along the payment order from the
    roller (0: the roller); ``tests`` (condition kernels of the clause), ``steps`` (its
    chain), ``asks`` (a step asks: the item runs once per copy), ``clause_index`` (the
    clause's place in the card's activation or in the trigger's hooks) and ``block``
    (the order block it belongs to, or -1)."""

    offset: int
    card: int
    clause: object
    tests: tuple
    steps: tuple
    asks: bool
    block: int


class Block(NamedTuple):
    """Items ``start``..``stop - 1`` of an income plan: one owner's cards of one colour
    group whose order the owner may choose (:mod:`machikoro.engine.ordering`);
    ``candidates`` are the ``(card, mode)`` pairs that may need ordering, ``kind`` the
    decision kind of its ``order`` choice."""

    start: int
    stop: int
    offset: int
    candidates: tuple
    kind: int


class Program:
    """The batched engine's tables of one rule set for ``players`` seats.

    ``plans[id]``: a tuple of :class:`Item` (hooks: ids :data:`HOOK_PLANS`; the income of
    roll total ``t``: id ``len(TRIGGERS) + t``); ``blocks[id]``: the plan's order blocks;
    ``choices``: every decision kind's :class:`~machikoro.vector.kernels.Choice` (0 build,
    1 dice, then the clauses' choices and the order decisions), ``actions`` the
    effect-language action each came from (None: build, dice, order); ``card_plans[card]``: the
    items of ``card``'s activation for its owner (an Exhibit Hall's activation of a card);
    ``order[roller]`` every seat in payment order from the roller; ``others[seat]`` the
    other seats in payment order; card tables as arrays (``cost``, ``limit``, ``landmark``,
    ``by_cost``: card indices in the build menu's order). Raises
    :class:`~machikoro.errors.VectorUnsupported` for a concept it cannot compile.
    """

    BUILD, DICE = 0, 1

    def __init__(self, rules: RuleSet, players: int):
        if not rules.min_players <= players <= rules.max_players:
            raise VectorUnsupported(f"{players} players ({rules.name} is for "
                                    f"{rules.min_players}-{rules.max_players})")
        refuse_rules(rules)
        self.rules, self.players = rules, players
        cards = len(rules.cards)
        self.cards = cards
        step = -1 if rules.payment_order == "counterclockwise" else 1
        self.order = np.array([[(r + step * k) % players for k in range(players)]
                               for r in range(players)], dtype=np.int64)
        self.others = self.order[:, 1:].copy()
        self.cost = np.array(rules.cost, dtype=np.int64)
        self.limit = np.array(rules.limit, dtype=np.int64)
        self.landmark = np.array([c.is_landmark for c in rules.cards], dtype=bool)
        self.by_cost = np.array([i for _, i, _, _, _ in rules.by_cost], dtype=np.int64)
        self.victory = np.array(rules.victory, dtype=np.int64)
        self._costs(rules)
        # the build menu as bits (cards in by_cost order: bit m is card by_cost[m]); an
        # amount of coins affords the cards of a prefix of it (costs ascending)
        self.menu_bits = cards <= 63 and not self.dynamic
        self.menu_pos = np.zeros(cards, dtype=np.int64)
        self.menu_pos[self.by_cost] = np.arange(cards)
        self.menu_weight = (np.uint64(1) << self.menu_pos.astype(np.uint64)) \
            if self.menu_bits else None
        sorted_costs = self.cost[self.by_cost]
        self.max_cost = int(max(sorted_costs.max(initial=0), 0))
        afford = np.searchsorted(sorted_costs, np.arange(self.max_cost + 1), side="right")
        self.afford = ((np.uint64(1) << afford.astype(np.uint64)) - np.uint64(1)) \
            if self.menu_bits else None
        counts = {rules.dice_count}
        for _, options in rules.dice_options:
            counts.update(options)
        self.dice_counts = tuple(sorted(counts))
        self.max_dice = max(self.dice_counts)
        self.dice_cards = tuple(card for card, _ in rules.dice_options)
        # per dice card, which of dice_counts it offers
        self.dice_offers = np.array([[k in options for k in self.dice_counts]
                                     for _, options in rules.dice_options],
                                    dtype=bool).reshape(len(rules.dice_options),
                                                        len(self.dice_counts))
        self.default_dice = self.dice_counts.index(rules.dice_count)
        self.side_cards = tuple(sorted(rules.side_roll_cards))
        self.side_index = np.full(cards, -1, dtype=np.int64)
        for k, card in enumerate(self.side_cards):
            self.side_index[card] = k
        self.reroll_cards = tuple(sorted({card for card, clause in rules.hooks["after_roll"]
                                          for a in clause.steps
                                          if type(a) is act.Reroll}))
        self.choices: list = [None, None]  # build and dice: the engine's own
        self.actions: list = [None, None]  # the effect-language action of each choice
        self._kinds: dict = {}
        self.plans: dict = {}
        self.blocks: dict = {}
        self.landmark_active_on_build_turn = rules.options["landmark_active_on_build_turn"]
        for trigger, k in HOOK_PLANS.items():
            self.plans[k] = tuple(self._item(0, card, clause, n, -1)
                                  for n, (card, clause) in enumerate(rules.hooks[trigger]))
            self.blocks[k] = ()
        for total, groups in rules.by_roll.items():
            self._income_plan(total, groups)
        self.max_items = max((len(p) for p in self.plans.values()), default=0)
        self.card_plans = tuple(self._card_plan(card) for card in range(cards))
        self.max_steps = max((len(item.steps) for plan in self.plans.values()
                              for item in plan), default=1)
        self.blocking = tuple(rules.blocking_markers)
        self.towns_kept = np.array(sorted(rules.towns_kept), dtype=np.int64)
        # the cards whose activation acts on its activated copies: the income step logs
        # the moves of their copies only (rules.tables.followed_kinds)
        self.followed = np.zeros(cards, dtype=bool)
        self.followed[list(followed_kinds(rules.cards))] = True
        self.chooses_kind = any(type(a) is act.ChooseKind for c in rules.cards
                                for clause in c.clauses for a in clause.steps)
        self.markers = len(rules.markers)
        self._storage(rules, players)
        self._check_activations()

    def _costs(self, rules: RuleSet) -> None:
        """The tables of building and of the rules grown for Machi Koro 2: ``at_once``
        (the landmarks that win at once), ``pileless`` (a card built without a market
        pile), ``shared`` (in force for every player), ``when_built`` (a card with such
        clauses), ``build_only_rounds``; what a card costs its builder now
        (:meth:`Game.cost_to`): ``dynamic`` (costs or the build menu depend on the builder and the game),
        ``tiers`` (``(cards, T)``: a card's cost by landmarks built, its last tier
        repeated; an untiered card's cost in every column), ``discounts`` (``(source,
        bool per card, coins less, the source in force for every player)``) and
        ``build_if`` (``(card, condition kernels)`` of the cards with conditions on
        building them)."""
        cards = self.cards
        self.at_once = np.array(rules.wins_at_once, dtype=np.int64)
        # a card built without a market pile: a landmark without a supply (one in a
        # shared pool is built from the market, as an establishment is)
        self.pileless = np.ones(cards, dtype=bool)
        for _, i, _, _, in_market in rules.by_cost:
            self.pileless[i] = not in_market
        self.shared = np.zeros(cards, dtype=bool)
        self.shared[sorted(rules.shared)] = True
        self.when_built = np.zeros(cards, dtype=bool)
        self.when_built[[card for card, _ in rules.hooks.get("when_built", ())]] = True
        self.build_only_rounds = rules.build_only_rounds
        self.dynamic = bool(rules.dynamic_costs)
        tiers = rules.cost_tiers or (None,) * cards
        width = max((len(t) for t in tiers if t), default=1)
        self.tiers = np.array([list(t) + [t[-1]] * (width - len(t)) if t else [cost] * width
                               for t, cost in zip(tiers, rules.cost)],
                              dtype=np.int64).reshape(cards, width)
        self.tiered = any(t is not None for t in tiers)
        discounts = []
        for source, targets, n in rules.discounts:
            on = np.zeros(cards, dtype=bool)
            on[list(targets)] = True
            discounts.append((source, on, n, source in rules.shared))
        self.discounts = tuple(discounts)
        build_if = []
        for card, conditions in enumerate(rules.build_if):
            if not conditions:
                continue
            try:
                build_if.append((card, tuple(kernels.condition(c, rules)
                                             for c in conditions)))
            except VectorUnsupported as error:
                raise VectorUnsupported(f"{error.concept}, in the build_if of "
                                        f"{rules.ids[card]}") from None
        self.build_if = tuple(build_if)

    def _storage(self, rules: RuleSet, players: int) -> None:
        """What the batch's arrays need to hold: ``coin_cards`` (per marker that holds coins,
        the cards that can hold them: its table has a column for these alone),
        ``copies_type`` (the dtype of copies in towns, the market and closed copies: the
        smallest that holds every copy of a card in a game, the box's and the starting
        towns') and ``card_type`` (of a card index)."""
        cards = self.cards
        self.coin_cards = {m: tuple(sorted({card for card, c in enumerate(rules.cards)
                                            for clause in c.clauses
                                            for a in clause.steps
                                            if _puts_coins(a, m)}))
                           for m in rules.coin_markers}
        most = max((s + t * players for s, t in zip(rules.supply_for(players),
                                                    rules.start_town)), default=0)
        self.copies_type = np.int8 if most <= np.iinfo(np.int8).max else np.int16
        self.card_type = np.int8 if cards <= np.iinfo(np.int8).max else np.int16

    # ------------------------------------------------------------------ building

    def _step(self, action, card: int) -> Step:
        kernel = kernels.action(action, self.rules, card, self.players, self.dice_counts)
        if not kernel.asks:
            return Step(kernel, -1)
        key = (card, id(action))
        kind = self._kinds.get(key)
        if kind is None:
            kind = self._kinds[key] = len(self.choices)
            self.choices.append(kernel)
            self.actions.append(action)
        return Step(kernel, kind)

    def _item(self, offset: int, card: int, clause, index: int, block: int) -> Item:
        try:
            tests = tuple(kernels.condition(c, self.rules) for c in clause.conditions)
            steps = tuple(self._step(a, card) for a in clause.steps)
        except VectorUnsupported as error:
            raise VectorUnsupported(f"{error.concept}, in the effect of "
                                    f"{self.rules.ids[card]} ('{clause.text}')") from None
        return Item(offset, card, clause, tests, steps, clause.asks, block)

    def _income_plan(self, total: int, groups: tuple) -> None:
        """The income plan of roll ``total``: the colour groups in order; in each, the
        owners in payment order from the roller (the roller alone for a group only its
        owner's roll activates); each owner's cards in group order (the scalar engine's
        :meth:`~machikoro.engine.dispatch.Dispatch.income_plans`)."""
        rules = self.rules
        order_groups = rules.order_groups.get(total, ((),) * len(groups))
        items: list = []
        blocks: list = []
        for group, involved in zip(groups, order_groups):
            theirs = any(mode != 1 for _, mode, _ in group)
            for offset in (range(self.players) if theirs or involved else (0,)):
                rolled = offset == 0
                start = len(items)
                for card, mode, clauses in group:
                    if (mode == 1 and not rolled) or (mode == 2 and rolled):
                        continue
                    for n, clause in enumerate(clauses):
                        items.append(self._item(offset, card, clause, n,
                                                len(blocks) if involved else -1))
                if involved:
                    candidates = tuple((card, mode) for card, mode in involved
                                       if not ((mode == 1 and not rolled) or
                                               (mode == 2 and rolled)))
                    kind = len(self.choices)
                    self.choices.append(kernels.order_choice(tuple(c for c, _ in candidates)))
                    self.actions.append(None)
                    blocks.append(Block(start, len(items), offset, candidates, kind))
        plan = len(TRIGGERS) + total
        self.plans[plan] = tuple(items)
        self.blocks[plan] = tuple(blocks)

    def _card_plan(self, card: int) -> tuple:
        """The items of ``card``'s activation clauses for its owner (offset 0), for an
        activation by another card; None when it cannot be compiled (then no card may
        activate it: :meth:`_check_activations`)."""
        try:
            return tuple(self._item(0, card, clause, n, -1)
                         for n, clause in enumerate(self.rules.activation[card]))
        except VectorUnsupported:
            return None

    def _check_activations(self) -> None:
        """Refuse an activation of a card that activates cards itself (nested activation)
        or that cannot be compiled."""
        for plan in list(self.plans.values()) + [p for p in self.card_plans if p]:
            for item in plan:
                for a in item.clause.steps:
                    if type(a) is not act.Activate:
                        continue
                    for target in a.cards:
                        inner = self.card_plans[target]
                        if inner is None:
                            raise VectorUnsupported(
                                f"activating {self.rules.ids[target]}, whose effect the "
                                f"batched engine cannot play")
                        if any(type(s) is act.Activate for i in inner
                               for s in i.clause.steps):
                            raise VectorUnsupported(
                                f"an activation inside an activated card "
                                f"({self.rules.ids[item.card]} may activate "
                                f"{self.rules.ids[target]})")

    # ------------------------------------------------------------------ reading

    def income_plan(self, total: int) -> int:
        """The plan id of roll ``total``'s income."""
        return len(TRIGGERS) + total


def _puts_coins(a, marker: int) -> bool:
    """Whether action ``a`` (or the action a ``may`` wraps) puts coins of ``marker`` on
    its card."""
    if type(a) is act.Optional:
        a = a.action
    return type(a) is act.PutCoins and a.marker == marker


_PROGRAMS: WeakKeyDictionary = WeakKeyDictionary()


def compile_rules(rules: RuleSet, players: int) -> Program:
    """The :class:`Program` of ``rules`` for ``players`` seats, compiled on first use and
    kept while ``rules`` lives. Raises :class:`~machikoro.errors.VectorUnsupported`
    naming what the batched engine cannot play."""
    held = _PROGRAMS.get(rules)
    if held is None:
        held = _PROGRAMS[rules] = {}
    found = held.get(players)
    if found is None:
        found = held[players] = Program(rules, players)
    return found
