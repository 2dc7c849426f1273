"""The tables the turn engine reads, precomputed once from the compiled cards.

Built by :func:`~machikoro.rules.build.build` into the :class:`~machikoro.rules.ruleset.RuleSet`:
what each roll total activates, in resolution order; the hooks of each trigger; the dice
choices; the boosts each card receives; the cards by cost (for the build options).
"""

from __future__ import annotations

from itertools import combinations

from ..language.actions import AddToRoll, Boost, CostChange, DiceChoice, Mark, ReturnCard
from ..language.amounts import CardCoins, SideRoll
from ..language.clauses import TRIGGERS
from ..language.units.received_coins import ReceivedCoins
from .ruleset import Card, Colour

ACTIVATED_BY = {"anyone": 0, "owner": 1, "others": 2}
"""A colour's ``activated_by`` as the small int the engine compares (0, 1, 2)."""

NO_LIMIT = 1 << 30
"""The per-player limit of a card without one."""


def by_roll(cards: list[Card], colours: dict[str, Colour]) -> dict[int, tuple]:
    """``{total: groups}``: for each roll total, the groups of ``(card index, activated_by,
    activation clauses)`` it activates, one group per colour ``order``, lowest first."""
    table: dict[int, tuple] = {}
    totals = sorted({n for c in cards for n in c.activation})
    orders = sorted({c.order for c in colours.values()})
    for total in totals:
        groups = []
        for order in orders:
            group = []
            for i, card in enumerate(cards):
                if total in card.activation and colours[card.colour].order == order:
                    activation = tuple(cl for cl in card.clauses
                                       if cl.trigger is None and not cl.static)
                    if activation:
                        group.append((i, ACTIVATED_BY[colours[card.colour].activated_by],
                                      activation))
            if group:
                groups.append(tuple(group))
        table[total] = tuple(groups)
    return table


def hooks(cards: list[Card]) -> dict[str, tuple]:
    """``{trigger: ((card index, clause), ...)}`` for every trigger of the language, in the
    order they run: by the cards' ``hook_order`` (lower first), then in card order."""
    order = sorted(range(len(cards)), key=lambda i: cards[i].hook_order)
    return {t: tuple((i, cl) for i in order for cl in cards[i].clauses
                     if cl.trigger == t) for t in TRIGGERS}


def dice_options(cards: list[Card]) -> tuple:
    """``((card index, dice counts), ...)``: the cards that offer a choice of dice."""
    return tuple((i, cl.action.counts) for i, c in enumerate(cards)
                 for cl in c.clauses if isinstance(cl.action, DiceChoice))


def boosts(cards: list[Card]) -> tuple:
    """Per card index, ``((source card index, coins more), ...)``: the boosts it receives;
    a source in force for every player (``scope: everyone``) is written ``~index``."""
    table: list[list] = [[] for _ in cards]
    for i, card in enumerate(cards):
        source = ~i if card.scope == "everyone" else i
        for cl in card.clauses:
            if isinstance(cl.action, Boost):
                for target in cl.action.cards:
                    table[target].append((source, cl.action.n))
    return tuple(tuple(b) for b in table)


def discounts(cards: list[Card]) -> tuple:
    """``((source card index, card indices, coins less), ...)``: every cost change that
    lasts while its card is built (``NAMES cost N less``)."""
    return tuple((i, cl.action.cards, cl.action.n) for i, c in enumerate(cards)
                 for cl in c.clauses if isinstance(cl.action, CostChange))


def reads_received(cards: list[Card]) -> bool:
    """True when some card's condition reads the coins a player received this turn."""
    def reads(test) -> bool:
        if isinstance(test, ReceivedCoins):
            return True
        inner = getattr(test, "tests", None) or (getattr(test, "inner", None),)
        return any(t is not None and reads(t) for t in inner)
    return any(reads(t) for c in cards for cl in c.clauses for t in cl.conditions) or \
        any(reads(t) for c in cards for t in c.build_if)


def by_cost(cards: list[Card]) -> tuple:
    """``((cost, index, id, limit, in the market), ...)`` sorted by cost (the build
    options stop at the first card too dear); a landmark is in the market when it has a
    supply (a shared pool)."""
    return tuple(sorted((c.cost, i, c.id, c.limit if c.limit is not None else NO_LIMIT,
                         not c.is_landmark or c.supply != 0) for i, c in enumerate(cards)))


def market_landmarks(cards: list[Card]) -> tuple:
    """The indices of the landmarks with a supply: built from the market, a shared pool."""
    return tuple(i for i, c in enumerate(cards) if c.is_landmark and c.supply != 0)


def cost_tiers(cards: list[Card]) -> tuple:
    """Per card, its tiered costs (a tuple) or None; empty when no card has tiers."""
    tiers = tuple(c.cost_tiers for c in cards)
    return tiers if any(t is not None for t in tiers) else ()


def activation(cards: list[Card]) -> tuple:
    """Per card, the clauses that run when it activates (no trigger, not static)."""
    return tuple(tuple(cl for cl in c.clauses if cl.trigger is None and not cl.static)
                 for c in cards)


def side_roll_cards(cards: list[Card]) -> dict[int, int]:
    """``{card index: dice}``: the cards whose effect makes a side roll (``the total of a
    side roll of N dice``) and how many dice it rolls."""
    out = {}
    for i, c in enumerate(cards):
        for cl in c.clauses:
            for action in cl.steps:
                amount = getattr(getattr(action, "action", action), "amount", None)
                if isinstance(amount, SideRoll):
                    out[i] = amount.dice
    return out


_EVERYTHING = frozenset({"*"})


_TOWNS = frozenset({"towns"})


def _action_reads(action, towns_at_roll: bool) -> frozenset:
    """What an action reads when it runs in the income step: with ``towns_at_roll`` its
    amount reads the towns as they stood at the roll, which no card of the roll changes, so
    only what the action itself reads counts (a choice of cards reads the towns now: an
    action with an amount reads towns only through it)."""
    reads = action.reads
    if towns_at_roll and getattr(getattr(action, "action", action), "amount", None) is not None:
        return reads - _TOWNS
    return reads


def _effects(card: Card, towns_at_roll: bool = False) -> tuple[frozenset, frozenset]:
    """What a card's activation reads and writes (its conditions, amounts and actions);
    with ``towns_at_roll`` (rules ``income.towns: at_roll``) the towns its conditions and
    amounts read are those of the roll, which nothing of the roll changes: not a read."""
    reads: set = set()
    writes: set = set()
    for clause in card.clauses:
        if clause.trigger is not None or clause.static:
            continue
        for condition in clause.conditions:
            read = getattr(condition, "reads", _EVERYTHING)
            reads |= read - _TOWNS if towns_at_roll else read
        for action in clause.steps:
            reads |= _action_reads(action, towns_at_roll)
            writes |= action.writes
    return frozenset(reads), frozenset(writes)


def _interfere(a: tuple, b: tuple) -> bool:
    """True when two cards' activations may give another result in the other order. Coins
    that only flow to the owner (``coins+``) commute with each other: taking what a payer
    can, twice, leaves the same as taking the sum at once."""
    (ra, wa), (rb, wb) = a, b
    if "*" in wa or "*" in wb or "*" in ra or "*" in rb:
        return True

    def widened(writes: frozenset) -> frozenset:
        return writes | {"coins"} if "coins+" in writes else writes

    if widened(wa) & rb or widened(wb) & ra:
        return True
    return bool((wa & wb) - {"coins+"})


def conflicts(cards: list[Card], colours: dict[str, Colour],
              towns_at_roll: bool = False) -> frozenset:
    """The pairs ``frozenset({i, j})`` of cards of colours whose owner orders them
    (``owner_orders``) whose order can change the result; with ``towns_at_roll`` (the
    income sees the towns as they stood at the roll) a card that moves cards and one that
    counts them commute."""
    orderable = [i for i, c in enumerate(cards)
                 if c.colour in colours and colours[c.colour].owner_orders]
    effects = {i: _effects(cards[i], towns_at_roll) for i in orderable}
    return frozenset(frozenset((i, j)) for i, j in combinations(orderable, 2)
                     if _interfere(effects[i], effects[j]))


def order_groups(table: dict[int, tuple], cards: list[Card], colours: dict[str, Colour],
                 pairs: frozenset) -> dict[int, tuple]:
    """``{total: per group, the (card, activated_by) pairs that may need the order
    decision}``, only for the totals where some group has two cards that conflict."""
    out = {}
    for total, groups in table.items():
        per_group = []
        for group in groups:
            members = [(card, mode) for card, mode, _ in group]
            involved = tuple((card, mode) for card, mode in members
                             if any(frozenset((card, other)) in pairs for other, _ in members))
            per_group.append(involved)
        if any(per_group):
            out[total] = tuple(per_group)
    return out


def _chain(clause):
    """A clause and the clauses of its ``then`` steps, in order."""
    while clause is not None:
        yield clause
        clause = clause.rest


def _activation_steps(card: Card):
    """``(clause, action)`` for every step of a card's activation (``may X`` as X)."""
    for clause in card.clauses:
        if clause.trigger is None and not clause.static:
            for step in _chain(clause):
                yield step, getattr(step.action, "action", step.action)


def _moves_cards(card: Card) -> bool:
    """True when a card's activation may change a town (give, swap, return to the market,
    unbuild, or anything: an activated card)."""
    return any(action.writes & {"towns", "*"} for _, action in _activation_steps(card))


def _counts_cards(card: Card, boosted: bool) -> bool:
    """True when what a card's activation pays may depend on the towns: its conditions or
    amounts read them, it gets a boost (from a card that may be unbuilt), or it activates
    another card (which may)."""
    if boosted:
        return True
    for clause, action in _activation_steps(card):
        reads = set(getattr(getattr(action, "amount", None), "reads", ()))
        for condition in clause.conditions:
            reads |= getattr(condition, "reads", _EVERYTHING)
        if reads & {"towns", "*"} or "*" in action.writes:
            return True
    return False


def towns_kept(cards: list[Card], colours: dict[str, Colour], boosts: tuple,
               towns_at_roll: bool) -> frozenset:
    """The roll totals whose income step must keep the towns as they stood at the roll
    when a card moves (rules ``income.towns: at_roll``): those where a card that may change
    a town activates together with a card, resolving with it or after it (the same colour
    order or a later one), whose payout may depend on the towns. On the other totals (and
    the base set's every total: its Business Center swaps last, after every card that
    counts) nothing of the roll reads the towns after a change: no copy is made."""
    if not towns_at_roll:
        return frozenset()
    counting = [_counts_cards(card, bool(boosts[i])) for i, card in enumerate(cards)]
    if not any(counting):
        return frozenset()
    moving = [_moves_cards(card) for card in cards]
    everything = [any("*" in action.writes for _, action in _activation_steps(card))
                  for card in cards]
    kept = set()
    for total in sorted({n for c in cards for n in c.activation}):
        here = [(colours[c.colour].order, i) for i, c in enumerate(cards)
                if total in c.activation and c.colour in colours]
        movers = [order for order, i in here if moving[i]]
        if any(everything[i] for _, i in here) or (movers and any(
                counting[i] and order >= min(movers) for order, i in here)):
            kept.add(total)
    return frozenset(kept)


def follows_copies(cards: list[Card]) -> bool:
    """True when some activation acts on the activated copies themselves after a step
    that may have moved them (``mark this card NAME``, ``return this card to the market``,
    ``the coins on this card``): the income step then logs its moves."""
    return bool(followed_kinds(cards))


def followed_kinds(cards: list[Card]) -> tuple[int, ...]:
    """The indexes of the cards (in ``cards``) whose activation acts on its activated
    copies themselves (:func:`follows_copies`): only their moves need logging."""
    out = []
    for i, card in enumerate(cards):
        for _, action in _activation_steps(card):
            if (type(action) is Mark and not action.chosen_kind) or \
                    type(action) is ReturnCard or \
                    type(getattr(action, "amount", None)) is CardCoins:
                out.append(i)
                break
    return tuple(out)


def roll_raises(cards: list[Card]) -> tuple:
    """``((card index, clause, coins added), ...)``: the ``after roll`` clauses that add to
    the roll (the Harbor's +2), for look-ahead that counts roll modifiers."""
    out = []
    for i, c in enumerate(cards):
        for cl in c.clauses:
            inner = getattr(cl.action, "action", cl.action)
            if cl.trigger == "after_roll" and isinstance(inner, AddToRoll):
                out.append((i, cl, inner.n))
    return tuple(out)
