"""The options of the compiled engine's waiting decisions as values: what option ``k`` of a
game's pending decision is (a card, a seat, a number of dice, yes or no, a gift, a swap,
an order), for the callers that show or encode the options rather than pick one by its
index (the Gymnasium vector environment's action table: :mod:`machikoro.adapters.
vector_env`).

:func:`option_values` writes, for each waiting game, one row of :data:`WIDTH` whole numbers
per option (the games' rows one after the other), in the scalar engine's order of
``Decision.options``: a tag (:data:`TAGS`) and
up to three numbers. The options are found by the engine's own functions (the build menu,
the dice offers, :func:`~machikoro.compiled.kernels._swap_at` and the other finders the
engine acts through), so an option's value and its effect cannot disagree.
:func:`decode` turns a row into the scalar engine's value.
"""

from __future__ import annotations

import itertools

from numba import njit

from . import kernels as k
from . import tables as tb

WIDTH = 4
"""Numbers per option: its tag, then its values (unused ones -1)."""

TAGS = ("none", "bool", "count", "card", "seat", "give", "swap", "order")
"""The kinds of option values, by tag: ``none`` (no build, or a ``may`` choice declined),
``bool`` (``a`` 0 or 1: no or yes), ``count`` (``a`` dice), ``card`` (``a`` the card's
index), ``seat`` (``a``), ``give`` (``a`` the card given, ``b`` the seat it goes to),
``swap`` (``a`` the card given, ``b`` the other seat, ``c`` the card taken), ``order``
(``a`` the order's index among the permutations of the block's kinds, ``b`` the queue
item of the order decision)."""
NONE, BOOL, COUNT, CARD, SEAT, GIVE, SWAP, ORDER = range(len(TAGS))


@njit(cache=True, inline="always")
def _put(out, j, n, tag, a, b, c):
    out[j + n, 0] = tag
    out[j + n, 1] = a
    out[j + n, 2] = b
    out[j + n, 3] = c


@njit(cache=True, inline="always")
def _clause_values(t, s, g, out, j, count):
    """The values of the options of game ``g``'s pending clause decision (its queue item
    ``ints[ITEM]``), from row ``j`` of ``out``: as
    :func:`~machikoro.compiled.kernels._options` counts them."""
    i = s.ints[g, k.ITEM]
    card, owner, clause = s.queue[g, i, 0], s.queue[g, i, 1], s.queue[g, i, 3]
    if card < 0:  # an order decision: the orders of its kinds
        for n in range(count):
            _put(out, j, n, ORDER, n, i, -1)
        return
    op = t.clauses[clause, k.C_OP]
    if op == tb.REROLL:  # no, then yes (or the numbers of dice the owner may roll)
        _put(out, j, 0, BOOL, 0, -1, -1)
        offers = k._dice_offers(t, s, g, owner)
        for n in range(1, count):
            if t.reroll_same:
                _put(out, j, n, BOOL, 1, -1, -1)
            else:
                _put(out, j, n, COUNT, k._nth_count(t, offers, n - 1), -1, -1)
        return
    if t.clauses[clause, k.C_YES_NO]:
        for n in range(count):
            _put(out, j, n, BOOL, n, -1, -1)
        return
    first = 0
    if t.clauses[clause, k.C_OPTIONAL]:  # "no" first
        _put(out, j, 0, NONE, -1, -1, -1)
        first = 1
    for n in range(first, count):
        m = n - first
        if op == tb.SWAP:
            _, give, other, take = k._swap_at(t, s, g, clause, owner, m)
            _put(out, j, n, SWAP, give, other, take)
        elif op == tb.GIVE:
            _, give, other = k._give_at(t, s, g, clause, owner, m)
            _put(out, j, n, GIVE, give, other, -1)
        elif op == tb.CARD_CHOICE:
            _, c = k._card_at(t, s, g, clause, owner, m)
            _put(out, j, n, CARD, c, -1, -1)
        else:  # a chosen player, in payment order
            _put(out, j, n, SEAT, t.order[owner, 1 + m], -1, -1)


@njit(cache=True)
def option_values(t, s, games, starts, out):
    """For each game ``games[j]`` (an index array of games waiting at a decision), its
    pending decision's options in rows ``starts[j]`` to ``starts[j + 1] - 1`` of ``out``
    (``starts``: the running sum of the games' ``ints[COUNT]``, from 0; ``out``:
    ``(starts[-1], WIDTH)`` int64): per option its tag (:data:`TAGS`) and values (-1
    where unused), in the scalar engine's order."""
    t, s = k._borrowed(t), k._borrowed(s)
    out[:, :] = -1
    for j in range(games.shape[0]):
        g, at = games[j], starts[j]
        kind, count = s.ints[g, k.PENDING], s.ints[g, k.COUNT]
        if kind == k.BUILD_DECISION:  # nothing, then the menu made when it was asked
            _put(out, at, 0, NONE, -1, -1, -1)
            for n in range(1, count):
                _put(out, at, n, CARD, s.menu[g, 0, n - 1], -1, -1)
        elif kind == k.DICE_DECISION:
            offers = k._dice_offers(t, s, g, s.ints[g, k.CUR])
            for n in range(count):
                _put(out, at, n, COUNT, k._nth_count(t, offers, n), -1, -1)
        elif kind == k.CLAUSE_DECISION:
            _clause_values(t, s, g, out, at, count)


def decode(row, ids: tuple, kinds_of_order=None):
    """The scalar engine's value of one option row of :func:`option_values` (``row``: its
    :data:`WIDTH` numbers): None, a bool, a number of dice, a card id (``ids``: the rule
    set's card ids), a seat, a ``{give, to}`` or ``{give, take, from}`` answer, or an
    order (a tuple of card ids: ``kinds_of_order(item)`` gives the kinds the order
    decision of that queue item orders, in index order). Raises ValueError for an unknown
    tag."""
    from ..language.actions import FrozenAnswer

    tag, a, b, c = (int(v) for v in row)
    if tag == NONE:
        return None
    if tag == BOOL:
        return bool(a)
    if tag in (COUNT, SEAT):
        return a
    if tag == CARD:
        return ids[a]
    if tag == GIVE:
        return FrozenAnswer(give=ids[a], to=b)
    if tag == SWAP:
        return FrozenAnswer(give=ids[a], take=ids[c], **{"from": b})
    if tag == ORDER:
        return tuple(ids[x] for x in ordered(kinds_of_order(b), a))
    raise ValueError(f"unknown option tag {tag}")


def ordered(kinds: tuple, index: int) -> tuple:
    """The ``index``-th order of ``kinds``, as :func:`itertools.permutations` lists
    them (the order decision's options: :func:`~machikoro.compiled.kernels._order`)."""
    return next(itertools.islice(itertools.permutations(kinds), index, None))


def order_kinds(t, state, g: int, item: int) -> tuple:
    """The kinds (card indices, in index order) that the order decision of queue item
    ``item`` of game ``g`` orders: its block's candidates named by the item's bits."""
    block, bits = int(state.queue[g, item, 3]), int(state.queue[g, item, 4])
    cards = t.block_cards[block]
    return tuple(int(cards[j]) for j in range(len(cards)) if bits >> j & 1)

