"""What the learned value sees of a position, in compiled code: the numbers of
:class:`machikoro.agents.features.Features` (each seat's coins, town, landmarks, expected
incomes, the coins it still needs and the rounds those take; the market, the next mover,
an extra turn, the turn), computed from a game of a :class:`~.kernels.State` by the
compiled look-ahead (:mod:`.lookahead`), which gives the reference look-ahead's numbers
to the last bit, in the order the reference sums them: the same float32 row.

What the features are made of besides the tables (which cards are seen one by one or by
icon, the numbers of dice, the market's piles...) comes in a :class:`Seen`, made where
the agent lives (:func:`machikoro.agents.compiled_policies.seen_for`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from . import kernels as k
from .lookahead import (
    FIRST,
    add,
    card_value,
    closed_card_value,
    expected_roll_income,
    sum_end,
)

COINS = 20.0
TURNS = 50.0
_TO_ROLL = np.int64(k.TO_ROLL)  # (an int64, not a literal: run is compiled once)


class Seen(NamedTuple):
    """What :class:`~machikoro.agents.features.Features` reads of a rule set, as arrays:
    ``cards`` (the establishments, in order), ``copies`` (each seen one by one), ``icon``
    (cards,) each card's column among the icons (-1: none), ``icons`` their number,
    ``landmarks`` (in order), ``dice`` (the numbers of dice a seat may roll, ascending),
    ``piles`` (float32, per establishment: the market's count is read over it),
    ``available`` (the market is read as 1 where it offers a card), ``shares`` (cards,)
    the share of a card's activations that pay, ``max_rounds``, ``neumaier`` (this
    Python's ``sum`` compensates) and ``size`` (the features' count)."""

    cards: np.ndarray
    copies: bool
    icon: np.ndarray
    icons: int
    landmarks: np.ndarray
    dice: np.ndarray
    piles: np.ndarray
    available: bool
    shares: np.ndarray
    max_rounds: float
    neumaier: bool
    size: int


@njit(cache=True, inline="always")
def route_coins(t, lt, a, ga, seat, found, costs):
    """What ``seat``'s cheapest way to win costs it (coins, its own not counted): the
    victory landmarks it still needs, the cheapest first, each at the tier it would be
    built at, or one landmark that wins at once (:func:`machikoro.agents.victory.
    victory_route`'s second number). ``found`` and ``costs`` are scratch (int64, one
    place per victory landmark)."""
    tier, force = k._costs_for(t, a, ga, seat)
    built = 0
    for v in t.victory:
        if a.towns[ga, seat, v] > 0:
            built += 1
    needed = max(0, lt.needed - built)
    n = 0
    for v in t.victory:  # the open ones, by their cost now (a stable insertion)
        if a.towns[ga, seat, v] <= 0 and (not lt.market_landmark[v] or a.supply[ga, v] > 0):
            cost = k._cost(t, v, tier, force) if t.dynamic else t.cost[v]
            at = n
            while at > 0 and costs[at - 1] > cost:
                found[at], costs[at] = found[at - 1], costs[at - 1]
                at -= 1
            found[at], costs[at] = v, cost
            n += 1
    last = t.tiers.shape[1] - 1
    coins = 0
    for j in range(min(needed, n)):
        v = found[j]
        coins += costs[j] if j == 0 else \
            costs[j] - t.tiers[v, min(built, last)] + t.tiers[v, min(built + j, last)]
    for v in t.at_once:
        if a.towns[ga, seat, v] <= 0 and (not lt.market_landmark[v] or a.supply[ga, v] > 0):
            cost = k._cost(t, v, tier, force) if t.dynamic else t.cost[v]
            coins = min(coins, cost)
    return coins


@njit(cache=True, inline="always")
def _preferred(t, sn, a, ga, seat, incomes):
    """``seat``'s :func:`~.lookahead.preferred_dice` from its expected own incomes per
    number of dice (``incomes``, in ``sn.dice``'s order, which holds every number a seat
    may be offered): of its choices (ascending), the first with the highest, as the
    reference's ``max`` over :func:`~machikoro.engine.expectations.expected_roll_income`
    picks it."""
    offers = k._dice_offers(t, a, ga, seat)
    if not offers & (offers - 1):
        return k._nth_count(t, offers, 0)
    best, most = 0, -np.inf
    for j in range(k._nth_count(t, offers, -1)):
        count = k._nth_count(t, offers, j)
        value = -np.inf
        for i in range(sn.dice.shape[0]):
            if sn.dice[i] == count:
                value = incomes[i]
        if value > most:
            best, most = count, value
    return best


@njit(cache=True, inline="always")
def _seat_block(t, lt, sn, a, ga, w, s, pattern, incomes, row, at, found, costs):
    """Seat ``s``'s numbers into ``row`` from ``at``; returns where they end.
    ``incomes`` holds its expected own income per number of dice (``sn.dice``)."""
    coins = a.coins[ga, s]
    row[at] = coins / COINS
    at += 1
    if sn.copies:
        for c in sn.cards:
            row[at] = a.towns[ga, s, c] / 2.0
            at += 1
    for i in range(sn.icons):
        count = 0
        for c in sn.cards:
            if sn.icon[c] == i:
                count += a.towns[ga, s, c]
        row[at] = count / 4.0
        at += 1
    for c in sn.landmarks:
        row[at] = 1.0 if a.towns[ga, s, c] > 0 else 0.0
        at += 1
    preferred = pattern[s]
    own = np.nan
    for i in range(sn.dice.shape[0]):
        x = incomes[i]
        if sn.dice[i] == preferred:
            own = x
        row[at] = x / COINS * 4
        at += 1
    income, c = 0.0, 0.0
    for card in sn.cards:
        copies = a.towns[ga, s, card]
        if copies:
            if lt.closed_card[card] and not a.ints[ga, k.SEEN]:  # (read here: no call)
                value = closed_card_value(t, lt, a, ga, s, card, pattern)
            else:
                value = card_value(t, lt, a, ga, w, s, card, pattern)
            value *= sn.shares[card]
            income, c = add(income, c, copies * value, sn.neumaier)
    income = sum_end(income, c)
    needed = float(route_coins(t, lt, a, ga, s, found, costs) - coins)
    if needed > 0 and income <= 0:
        rounds = sn.max_rounds
    elif needed > 0:
        rounds = min(sn.max_rounds, max(0.0, needed) / income)
    else:
        rounds = 0.0
    row[at] = own / COINS * 4
    row[at + 1] = income / COINS * 4
    row[at + 2] = needed / COINS / 4
    row[at + 3] = rounds / sn.max_rounds
    return at + 4


@njit(cache=True)
def features(t, lt, sn, a, ga, w, seat, row):
    """The features of game ``ga`` of ``a`` seen from ``seat`` into ``row`` (float32,
    ``sn.size``): :meth:`machikoro.agents.features.Features.of`'s numbers. ``w`` is a
    scratch state for the look-ahead's copies. Each seat's expected own income per number
    of dice is computed once: its preferred dice (every seat's, which the cards' values
    read) are taken from them, not computed again; a closed card's value is read here,
    and each seat's numbers are inlined: a call passes the records whole, about half a
    microsecond."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    n, m, v = t.players, sn.dice.shape[0], t.victory.shape[0]
    incomes = np.empty((n, m))
    ints = np.empty(n + 2 * v, dtype=np.int64)
    pattern, found, costs = ints[:n], ints[n:n + v], ints[n + v:]
    for p in range(n):
        for i in range(m):
            incomes[p, i] = expected_roll_income(t, lt, a, ga, w, p, sn.dice[i], sn.neumaier)
        pattern[p] = _preferred(t, sn, a, ga, p, incomes[p])
    at = FIRST  # (an int64, not the literal 0: see FIRST)
    for j in range(n):
        p = (seat + j) % n
        at = _seat_block(t, lt, sn, a, ga, w, p, pattern, incomes[p], row, at, found, costs)
    for i in range(sn.cards.shape[0]):
        supply = np.float32(a.supply[ga, sn.cards[i]])
        if sn.available:
            row[at + i] = 1.0 if supply > 0 else 0.0
        else:
            row[at + i] = supply / sn.piles[i]
    at += sn.cards.shape[0]
    mover = a.ints[ga, k.CUR] if a.ints[ga, k.WINNER] < 0 else seat
    for j in range(n):
        row[at + j] = 0.0
    row[at + (mover - seat) % n] = 1.0
    row[at + n] = 1.0 if a.ints[ga, k.EXTRA] else 0.0
    row[at + n + 1] = a.ints[ga, k.TURN] / TURNS


# ---------------------------------------------------------------------------- afterstates


@njit(cache=True, inline="always")
def _copy(t, a, ga, w, z, orders, o):
    """Game ``ga`` of ``a`` copied whole into row ``z`` of ``w`` (its log counts at 0),
    each market deck in the order a scalar look-ahead copy shuffles it to:
    ``orders[o, j]`` (entry ``i``: the place in the deck as it was of the card now at
    ``i``; -1 pads; :func:`machikoro.engine.market.look_ahead_orders`)."""
    w.ints[z] = a.ints[ga]
    w.coins[z] = a.coins[ga]
    w.towns[z] = a.towns[ga]
    w.supply[z] = a.supply[ga]
    w.dice[z] = a.dice[ga]
    w.rerolled[z] = a.rerolled[ga]
    w.built[z] = a.built[ga]
    w.queue[z] = a.queue[ga]
    w.deck_lo[z] = a.deck_lo[ga]
    w.deck_hi[z] = a.deck_hi[ga]
    w.side[z] = a.side[ga]
    w.side_turn[z] = a.side_turn[ga]
    w.received[z] = a.received[ga]
    w.marks[z] = a.marks[ga]
    w.seen[z] = a.seen[ga]
    w.moves[z] = a.moves[ga]
    w.menu[z] = a.menu[ga]
    w.ints[z, k.NBUILDS] = 0
    w.ints[z, k.NROLLS] = 0
    for j in range(t.row_kinds.shape[0]):
        size = max(t.row_size[j], 1)
        lo = a.deck_lo[ga, j]
        for i in range(a.deck_hi[ga, j] - lo):
            w.decks[z, j, (lo + i) % size] = a.decks[ga, j, (lo + orders[o, j, i]) % size]


@njit(cache=True, inline="always")
def _seen_after(t, lt, sn, a, ga, after, w, orders, o, seat, first, answer, row):
    """Game ``ga`` copied into row 0 of ``after`` (:func:`_copy`), ``answer[0]`` applied
    to its pending decision (none: not read) and played on to its next roll or decision,
    no dice drawn; then the features seen from ``seat`` into ``row``: 1 where the copy
    ended with ``seat`` the winner, 0 with another, -1 where it goes on (a row of zeros
    where it ended)."""
    _copy(t, a, ga, after, 0, orders, o)
    after.ints[0, k.HELD] = 0  # (a game held between two turns: its next turn entered)
    after.ints[0, k.HOLD_TURN] = 0
    k.run(t, after, first, answer, _TO_ROLL)  # (the engine's code, not a copy)
    winner = after.ints[0, k.WINNER]
    if winner >= 0:
        row[:] = 0.0
        return 1 if winner == seat else 0
    features(t, lt, sn, after, first[0], w, seat, row)  # (first[0], an int64: a literal
    return -1  # 0 would compile it again)


@njit(cache=True)
def afterstates(t, lt, sn, a, games, after, w, orders, rows, won):
    """Every option of the build decision each game of ``games`` waits at, played on a
    copy of its game in row 0 of ``after`` (:func:`_copy`) to its next roll or decision,
    no dice drawn (the expert's afterstate: :func:`machikoro.agents.expert.afterstate`):
    per option, in order, the features seen from the builder into the next row of
    ``rows`` (float32, (options, ``sn.size``)), or, where the option ends the game with a
    winner, ``won`` (int64, per row: 1 the builder won, 0 another seat; -1 the game goes
    on) and a row of zeros. ``w`` is the look-ahead's scratch state. A game held between
    two turns (``HOLD_TURN`` in :mod:`.kernels`), its ``COUNT`` set to 1 and its
    ``PLAYER`` to a seat, gives the position as :class:`machikoro.agents.expert.
    PositionValue` sees it from that seat: its next turn entered on the copy, to the
    roll (no decision waits: no answer is read)."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    r = 0
    first = np.zeros(1, dtype=np.int64)  # (the copy's row)
    answer = np.zeros(1, dtype=np.int64)
    for o in range(games.shape[0]):
        ga = games[o]
        seat = a.ints[ga, k.PLAYER]
        for option in range(a.ints[ga, k.COUNT]):
            answer[0] = option
            won[r] = _seen_after(t, lt, sn, a, ga, after, w, orders, o, seat, first, answer,
                                 rows[r])
            r += 1
