"""The effect language over arrays: one vectorised twin per condition, amount and action.

Each compiled object of :mod:`machikoro.language` (a condition, an amount, an action of a
clause) is turned once, when a rule set is compiled for the batched engine, into a
*kernel*: the same rule applied to many games at once. A kernel takes the batch ``b`` (a
:class:`~machikoro.vector.batch.Batch`), ``g`` (the indices of the games it acts on, a NumPy
integer array, each game once) and, per game, the seat it reads for (``owner``, an array
like ``g``):

- a condition: ``test(b, g, owner) -> bool array``;
- an amount: ``value(b, g, card, owner, payer) -> int64 array`` (``card`` a card index);
- a plain action: ``run(b, g, card, owner, copies) -> bool array`` (which games it happened
  in: a ``then`` step after it runs only there);
- a choice: ``slots`` (the answers it may ever offer, in the scalar engine's order of
  ``Decision.options``), ``mask(b, g, card, owner) -> (len(g), len(slots)) bool array``
  (which slots are options now) and ``resolve(b, g, card, owner, copies, slot) -> bool
  array``.

The kernels mirror the scalar actions of :mod:`machikoro.language.actions` (who pays, caps,
boosts, payment order, limits) line for line. The conditions, game values, amounts and
plain actions hold their kernels themselves, beside their reference rules (``kernel``:
:mod:`machikoro.language.conditions`, :mod:`machikoro.language.values`,
:mod:`machikoro.language.amounts`, :mod:`machikoro.language.actions` and the concept
units); here they are only asked for them (:func:`condition`, :func:`value`,
:func:`amount`, :func:`plain_action`), and the choices' kernels are made (:func:`action`).
A construct without one is a concept the batched engine cannot play yet: compiling a rule
set that uses it raises :class:`~machikoro.errors.VectorUnsupported` naming it.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from ..errors import VectorUnsupported
from ..language import actions as act
from ..language import conditions, values
from ..rules.tables import NO_LIMIT

# --------------------------------------------------------------------------- quantities

# --------------------------------------------------------------------------- conditions


class Test:
    """A compiled condition: ``test(b, g, owner) -> bool array``."""

    __slots__ = ("test",)

    def __init__(self, test):
        self.test = test


def condition(c, rules) -> Test:
    """The kernel of one compiled condition: its own (``kernel``: every condition of the
    effect language holds its batched form beside its reference rule,
    :mod:`machikoro.language.conditions` and the concept units). Raises
    :class:`~machikoro.errors.VectorUnsupported` for one without (a strategy's words)."""
    return Test(conditions.kernel_of(c, rules))


# --------------------------------------------------------------------------- values


def value(v, rules, item: bool = False):
    """The kernel of a game value of a comparison: ``(b, g, owner) -> int64 array``, the
    value's own (:func:`machikoro.language.values.kernel_of`). ``item``: inside
    ``most|fewest ... of other players``, whose statistic reads the player it is asked for,
    passed as ``owner``."""
    return values.kernel_of(v, rules, item)


# --------------------------------------------------------------------------- amounts


def amount(a, rules):
    """The kernel of an amount: ``(b, g, card, owner, payer) -> int64 array`` (coins for
    one copy), or an int for a fixed amount: the amount's own
    (:func:`machikoro.language.actions.amount_kernel`). Raises
    :class:`~machikoro.errors.VectorUnsupported` for one without."""
    return act.amount_kernel(a, rules)


# --------------------------------------------------------------------------- plain actions


class Plain:
    """A compiled plain action: ``run(b, g, card, owner, copies) -> happened``."""

    asks = False

    def __init__(self, run, possible=None):
        self.run = run
        self.possible = possible  # (b, g, card, owner) -> bool array, for ``may``


_ALL = None  # a kernel's "happened in every game" (no array made)


# (the plain actions' kernels are their own: ``kernel(rules, card)`` beside their
# reference rule in machikoro.language.actions; :func:`plain_action` asks for them)


class Choice:
    """A compiled choice: ``slots`` (every answer it may offer, in the scalar option
    order), ``mask`` and ``resolve`` (see the module text), and ``shape`` (what a slot
    is: ``yes_no``, ``reroll``, ``player``, ``card``, ``give``, ``swap``, ``order``), for
    policies that read the options."""

    asks = True

    def __init__(self, shape: str, slots: tuple, mask, resolve, decision: str | None,
                 available=None):
        self.shape, self.slots, self.mask, self.resolve = shape, slots, mask, resolve
        self.decision = decision  # the scalar decision's name (None: the card's id)
        self.available = available  # (b, g, card) -> bool array, or None


def _yes_no(shape, possible, run, decision=None, available=None):
    """A yes/no choice (``False`` first): ``True`` only where ``possible``."""
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
            happened[yes] = True if done is _ALL else done
        return happened
    return Choice(shape, (False, True), mask, resolve, decision, available)


def _optional(a, rules, card):
    inner = plain_action(a.action, rules, card)
    return _yes_no("yes_no", inner.possible, inner.run)


def _reroll(a, rules, card, counts):
    """``may reroll``: options ``False``/``True``, or ``False`` and dice counts."""
    def available(b, g, card_):
        return ~b.rerolled[g, card]

    if rules.options["reroll_same_dice"]:
        def run(b, g, card_, owner, copies):
            b.reroll(g, card, None)
            return _ALL
        return _yes_no("yes_no", None, run, "reroll", available)
    slots = (False,) + tuple(counts)

    def mask(b, g, card_, owner):
        out = np.zeros((len(g), len(slots)), dtype=bool)
        out[:, 0] = True
        out[:, 1:] = b.dice_choices(g, owner)
        return out

    def resolve(b, g, card_, owner, copies, slot):
        yes = slot > 0
        if yes.any():
            b.reroll(g[yes], card, np.asarray(counts, dtype=np.int64)[slot[yes] - 1])
        return yes
    return Choice("reroll", slots, mask, resolve, "reroll", available)


def _optional_head(optional: bool) -> tuple:
    return (None,) if optional else ()


def _chosen_player(a, rules, card, players, pays: bool):
    """``take|pay AMOUNT from|to a chosen player``: slots None (with ``may``) and the other
    players in payment order (as offsets: slot ``head + k`` is ``others[owner, k]``)."""
    head = _optional_head(a.optional)
    slots = head + tuple(range(1, players))
    per_copy = amount(a.amount, rules)
    boost = None if pays else act.boost_kernel(rules, card)

    def mask(b, g, card_, owner):
        return np.ones((len(g), len(slots)), dtype=bool)

    def resolve(b, g, card_, owner, copies, slot):
        happened = slot >= len(head)
        h = happened.nonzero()[0]
        if len(h):
            o = owner[h]
            other = b.others[o, slot[h] - len(head)]
            more = None if boost is None else boost(b, g[h], o)
            act.move_coins_over(b, g[h], card, o, copies[h], per_copy, o if pays else other,
                                other if pays else o, not pays, more)
        return happened
    return Choice("player", slots, mask, resolve, None)


def _fits(b, g, seat, cards, gained=1):
    """``(G, len(cards))``: may ``seat`` own ``gained`` more copies of each card."""
    return b.town(g, seat)[:, cards] + gained <= b.limit[cards]


def _give(a, rules, card, players):
    """``give an establishment to a chosen player``: slots None (with ``may``), then per
    card given (in ``giveable`` order) per other player (payment order)."""
    head = _optional_head(a.optional)
    cards = np.array(a.giveable, dtype=np.int64)
    if a.previous:
        return _give_previous(a, rules, card, players, head, cards)
    others = players - 1
    slots = head + tuple((int(c), k) for c in cards for k in range(1, players))

    def mask(b, g, card_, owner):
        out = np.zeros((len(g), len(slots)), dtype=bool)
        out[:, :len(head)] = True
        if not len(cards) or not others:
            return out
        own = b.town(g, owner)[:, cards] > 0  # (G, K)
        fit = np.stack([_fits(b, g, b.others[owner, k], cards) for k in range(others)],
                       axis=2)  # (G, K, P-1)
        out[:, len(head):] = (own[:, :, None] & fit).reshape(len(g), -1)
        return out

    def resolve(b, g, card_, owner, copies, slot):
        happened = slot >= len(head)
        h = happened.nonzero()[0]
        if len(h):
            give, k = np.divmod(slot[h] - len(head), others)
            b.move_copy(g[h], owner[h], cards[give], b.others[owner[h], k])
        return happened
    return Choice("give", slots, mask, resolve, None)


def _give_previous(a, rules, card, players, head, cards):
    """``give an establishment to the previous player``: slots None (with ``may``), then
    per card given (``giveable`` order) to the seat before the owner, the other player
    ``k`` places along the payment order (1 counterclockwise, else the last)."""
    k = 1 if rules.payment_order == "counterclockwise" else players - 1
    slots = head + tuple((int(c), k) for c in cards)

    def mask(b, g, card_, owner):
        out = np.zeros((len(g), len(slots)), dtype=bool)
        out[:, :len(head)] = True
        if len(cards) and players > 1:
            out[:, len(head):] = (b.town(g, owner)[:, cards] > 0) & _fits(
                b, g, b.others[owner, k - 1], cards)
        return out

    def resolve(b, g, card_, owner, copies, slot):
        happened = slot >= len(head)
        h = happened.nonzero()[0]
        if len(h):
            give = cards[slot[h] - len(head)]
            b.move_copy(g[h], owner[h], give, b.others[owner[h], k - 1])
        return happened
    return Choice("give", slots, mask, resolve, None)


def _swap(a, rules, card, players):
    """``swap an establishment with a chosen player``: slots None (with ``may``), then per
    other player (payment order), per card given, per card taken (``swappable`` order)."""
    head = _optional_head(a.optional)
    cards = np.array(a.swappable, dtype=np.int64)
    width = len(cards)
    others = players - 1
    slots = head + tuple((k, int(give), int(take)) for k in range(1, players)
                         for give in cards for take in cards)
    limited = bool(len(cards)) and bool((np.asarray(rules.limit)[cards] < NO_LIMIT).any())

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
            take_fits = np.where(same, _fits(b, g, owner, cards, 0)[:, None, :],
                                 _fits(b, g, owner, cards)[:, None, :])
            for k in range(others):
                other = b.others[owner, k]
                give_fits = np.where(same, _fits(b, g, other, cards, 0)[:, :, None],
                                     _fits(b, g, other, cards)[:, :, None])
                body[:, k] &= take_fits & give_fits
        return out

    def resolve(b, g, card_, owner, copies, slot):
        happened = slot >= len(head)
        h = happened.nonzero()[0]
        if len(h):
            k, rest = np.divmod(slot[h] - len(head), width * width)
            give, take = np.divmod(rest, width)
            o = owner[h]
            other = b.others[o, k]
            b.move_copy(g[h], o, cards[give], other)
            b.move_copy(g[h], other, cards[take], o)
        return happened
    return Choice("swap", slots, mask, resolve, None)


def _card_choice(a, rules, card, act_on):
    """``unbuild a landmark``, ``choose an establishment``, ``activate one of your
    establishments``: slots None (with ``may``) and ``cards`` in order (those the owner
    has, unless any kind may be named)."""
    head = _optional_head(a.optional)
    cards = np.array(a.cards, dtype=np.int64)
    slots = head + tuple(int(c) for c in cards)
    own = a.own

    def mask(b, g, card_, owner):
        out = np.ones((len(g), len(slots)), dtype=bool)
        if own and len(cards):
            out[:, len(head):] = b.town(g, owner)[:, cards] > 0
        return out

    def resolve(b, g, card_, owner, copies, slot):
        happened = slot >= len(head)
        h = happened.nonzero()[0]
        if len(h):
            act_on(b, g[h], owner[h], cards[slot[h] - len(head)], card)
        return happened
    return Choice("card", slots, mask, resolve, None)


def _unbuild(b, g, owner, chosen, card):
    b.towns_changing(g, chosen, owner, np.full(len(g), -1))
    b.owned_flat[(g * b.players + owner) * b.cards + chosen] = 0
    b.menu_card(g, owner, chosen)


def _choose_kind(b, g, owner, chosen, card):
    b.bound[g] = chosen


def _activate(b, g, owner, chosen, card):
    b.activate(g, owner, chosen)


def order_choice(kinds: tuple) -> Choice:
    """The ``order`` decision over ``kinds`` (card indices, the group's candidates in
    order): slots are the permutations of each subset of two or more of them, subset by
    subset, each in :func:`itertools.permutations` order, so that the options of one game
    (the permutations of its own involved cards) are consecutive slots in the scalar
    option order. ``mask`` and ``resolve`` are made by the engine, which knows each game's
    involved cards."""
    slots = []
    for size in range(2, len(kinds) + 1):
        for subset in _subsets(kinds, size):
            slots.extend(permutations(subset))
    return Choice("order", tuple(slots), None, None, "order")


def _subsets(kinds: tuple, size: int):
    from itertools import combinations
    return combinations(kinds, size)


# --------------------------------------------------------------------------- compiling


def plain_action(a, rules, card: int) -> Plain:
    """The kernel of one plain (asking nothing) action of ``card``: the action's own
    (``kernel(rules, card) -> (run, possible)``, beside its reference rule in
    :mod:`machikoro.language.actions` and the concept units). Raises
    :class:`~machikoro.errors.VectorUnsupported` for one without."""
    make = getattr(a, "kernel", None)
    if make is None:
        raise VectorUnsupported(f"the action '{type(a).__name__}'")
    return Plain(*make(rules, card))


def action(a, rules, card: int, players: int, dice_counts: tuple):
    """The kernel of one action of ``card`` (a :class:`Plain` or a :class:`Choice`) for
    games of ``players`` seats; ``dice_counts`` are the rule set's dice counts (a reroll
    of a chosen count)."""
    kind = type(a)
    if kind is act.Optional:
        return _optional(a, rules, card)
    if kind is act.Reroll:
        return _reroll(a, rules, card, dice_counts)
    if kind is act.TakeFromChosen:
        return _chosen_player(a, rules, card, players, pays=False)
    if kind is act.PayChosen:
        return _chosen_player(a, rules, card, players, pays=True)
    if kind is act.Give:
        return _give(a, rules, card, players)
    if kind is act.Swap:
        return _swap(a, rules, card, players)
    if kind is act.Unbuild:
        return _card_choice(a, rules, card, _unbuild)
    if kind is act.ChooseKind:
        return _card_choice(a, rules, card, _choose_kind)
    if kind is act.Activate:
        return _card_choice(a, rules, card, _activate)
    return plain_action(a, rules, card)
