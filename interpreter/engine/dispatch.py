"""The turn engine's own tables, built once per rule set from its compiled tables.

:func:`dispatch_for` gives the :class:`Dispatch` of a :class:`~machikoro.rules.ruleset.
RuleSet` (built the first time a game of it starts, then shared by every game of it):

- ``by_roll[total]``: :attr:`RuleSet.by_roll`, each colour group split into the cards the
  roll activates for the roller and those it activates for the other owners, with the
  group's cards whose owner may order them (:attr:`RuleSet.order_groups`, else ()); each card
  with its *plain payout*: ``(kind, n)`` when the card's whole activation is one clause
  without conditions, ``then`` steps or decisions that only moves a fixed number of coins
  (:data:`GAIN`: ``gain N``; :data:`TAKE_FROM_ROLLER`: ``take N from roller``), else None,
  and N again when it is ``gain N`` without boosts (else 0). The income step pays a plain payout directly (the same
  coins, boosts and events as the clause's own action would give) instead of calling the
  action.
- ``builds``: per card id, ``(index, cost, limit, landmark)``: what a build of it changes.
- ``hook_cards[trigger]``: the cards with a hook of that trigger (:attr:`RuleSet.hooks`).
- ``dice_card``/``dice_choice``: when a single card offers a choice of dice, that card and
  its sorted counts; ``dice_asks``, that card when it offers two counts or more (else -1),
  and ``dice_decisions``, per seat the ``dice`` decision it asks (nothing made per turn).
- ``income_plans(n)``: per roller of ``n`` seats and roll total, the income step as one flat
  tuple of activations in order (None where an owner may order cards).
- ``quick``: True when a turn may run from its start (or its roll) to its build step in
  one step (:meth:`TurnPhases._quick_roll`): no ``before roll`` hooks, and no choice of
  dice other than one card's (``dice_asks``).
"""

from __future__ import annotations

from itertools import repeat
from weakref import WeakKeyDictionary

from ..language.actions import Gain, TakeFromRoller
from ..language.amounts import Fixed
from ..rules.ruleset import RuleSet
from .decision import Decision

GAIN, TAKE_FROM_ROLLER = 0, 1
"""Kinds of plain payouts: the bank pays the owner; the roller pays the owner."""

_PLAIN_KINDS = {Gain: GAIN, TakeFromRoller: TAKE_FROM_ROLLER}


def plain_payout(clauses: tuple) -> tuple[int, int] | None:
    """``(kind, coins per copy before boosts)`` when ``clauses`` (a card's activation) is one
    clause ``gain N`` or ``take N from roller`` with a fixed N, no condition, no ``then``
    and no decision; else None. (A fixed amount is 1 or more: the effect language
    refuses less.)"""
    if len(clauses) != 1:
        return None
    clause = clauses[0]
    action = clause.action
    kind = _PLAIN_KINDS.get(type(action))
    if kind is None or clause.conditions or clause.rest is not None or clause.asks \
            or type(action.amount) is not Fixed:
        return None
    return (kind, action.amount.n)


def _sides(group: tuple, boosts: tuple) -> tuple:
    """A colour group of :attr:`RuleSet.by_roll` as ``(the roller's cards, the other
    owners' cards)`` (whose roll activates each: anyone's, the owner's, the others'), each
    ``(card, clauses, plain payout, bank)``, ``bank`` being N for a plain ``gain N`` without
    boosts (the income step adds N per copy at once), else 0."""
    def entry(card: int, clauses: tuple) -> tuple:
        plain = plain_payout(clauses)
        bank = plain[1] if plain is not None and plain[0] == GAIN and not boosts[card] else 0
        return (card, clauses, plain, bank)

    return (tuple(entry(card, clauses) for card, mode, clauses in group if mode != 2),
            tuple(entry(card, clauses) for card, mode, clauses in group if mode != 1))


class Dispatch:
    """The engine's tables of one rule set (see the module docstring)."""

    __slots__ = (
        "_decisions",
        "_orders",
        "_payment_order",
        "_plans",
        "builds",
        "by_roll",
        "dice_asks",
        "dice_card",
        "dice_choice",
        "dice_decisions",
        "hook_cards",
        "quick",
    )

    def __init__(self, rules: RuleSet):
        self.by_roll = {total: tuple(_sides(group, rules.boosts) + (involved,)
                                     for group, involved in zip(
                                         groups, rules.order_groups.get(total, repeat(()))))
                        for total, groups in rules.by_roll.items()}
        # (index, cost, limit, is a landmark, taken from the market)
        sold = set(rules.market_landmarks)
        self.builds = {card_id: (i, rules.cost[i], rules.limit[i], rules.cards[i].is_landmark,
                                 not rules.cards[i].is_landmark or i in sold)
                       for i, card_id in enumerate(rules.ids)}
        self.hook_cards = {trigger: tuple(card for card, _ in hooks)
                           for trigger, hooks in rules.hooks.items()}
        self._decisions: dict = {}
        self._orders: dict = {}
        self._plans: dict = {}
        self._payment_order = rules.payment_order
        self.dice_card = -1
        self.dice_choice: tuple = ()
        if len(rules.dice_options) == 1:
            card, counts = rules.dice_options[0]
            self.dice_card, self.dice_choice = card, tuple(sorted(set(counts)))
        self.dice_asks = self.dice_card if len(self.dice_choice) > 1 else -1
        self.dice_decisions = tuple(Decision("dice", seat, self.dice_choice)
                                    for seat in range(rules.max_players))
        self.quick = (not self.hook_cards["before_roll"]
                      and (self.dice_asks >= 0 or not rules.dice_options))


    def seat_orders(self, n: int) -> tuple:
        """``(order, others)`` for ``n`` seats: per seat, every seat in payment order
        starting with it (the rules file's ``payment_order``: counterclockwise, the
        previous player first, or clockwise), and the same without it."""
        found = self._orders.get(n)
        if found is None:
            step = -1 if self._payment_order == "counterclockwise" else 1
            order = tuple(tuple((r + step * k) % n for k in range(n)) for r in range(n))
            found = self._orders[n] = (order, tuple(seats[1:] for seats in order))
        return found

    def income_plans(self, n: int) -> tuple:
        """Per roller of ``n`` seats, ``{total: plan}``: the income step of that roll as one
        flat tuple of ``(owner, card, clauses, plain payout, bank)`` in the order the income
        step resolves them (colour groups in order; in each, the owners in payment order
        from the roller, :meth:`seat_orders`; each owner's cards in group order), or None for
        a total where an owner may have to order some cards (``by_roll``'s third part): the
        income step then walks the groups."""
        found = self._plans.get(n)
        if found is None:
            order = self.seat_orders(n)[0]
            found = self._plans[n] = tuple(
                {total: self._plan(groups, order[roller], roller)
                 for total, groups in self.by_roll.items()} for roller in range(n))
        return found

    @staticmethod
    def _plan(groups: tuple, order: tuple, roller: int) -> tuple | None:
        """One roller's flat income plan for one total's groups (see :meth:`income_plans`)."""
        plan: list = []
        for own_roll, theirs, involved in groups:
            if involved:
                return None
            for owner in (order if theirs else (roller,)):
                plan.extend((owner,) + entry
                            for entry in (own_roll if owner == roller else theirs))
        return tuple(plan)

    def decision(self, name: str, player: int, options: tuple) -> Decision:
        """The :class:`Decision` ``(name, player, options)`` (immutable: made once)."""
        key = (name, player, options)
        found = self._decisions.get(key)
        if found is None:
            found = self._decisions[key] = Decision(name, player, options)
        return found


_DISPATCH: WeakKeyDictionary = WeakKeyDictionary()


def dispatch_for(rules: RuleSet) -> Dispatch:
    """The :class:`Dispatch` of ``rules``, built on first use and kept while ``rules``
    lives."""
    found = _DISPATCH.get(rules)
    if found is None:
        found = _DISPATCH[rules] = Dispatch(rules)
    return found
