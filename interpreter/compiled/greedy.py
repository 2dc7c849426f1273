"""Greedy's decisions in compiled code: every decision of
:class:`~machikoro.agents.greedy.GreedyAgent`, made for the games of a
:class:`~machikoro.compiled.games.CompiledGames` without leaving compiled code, from the
compiled look-ahead (:mod:`.lookahead`: the reference look-ahead's numbers, to the last
bit), so that the decisions are the scalar agent's. What greedy itself knows of the rule
set (the share of a card's activations that pay, the cards that ask a town choice, its
horizon) comes in a :class:`Greedy` record made by the agents' layer
(:class:`machikoro.agents.compiled_policies.CompiledGreedy`).

The order of every comparison is the scalar agent's (the first of the best in the
options' order, or the lowest place), and each sum is made in its order, with Python's
compensation where this Python's ``sum`` uses it (``Greedy.neumaier``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from . import kernels as k
from . import tables as tb
from .kernels import (
    BUILD_DECISION,
    C_MARKER,
    C_N,
    C_OP,
    C_OPTIONAL,
    C_PAYEE,
    C_PAYER,
    C_REST,
    C_SCOPE,
    C_YES_NO,
    COUNT,
    CUR,
    DICE_COUNT,
    DICE_DECISION,
    ITEM,
    NDICE,
    NONE,
    PENDING,
    PLAYER,
    QINS,
    QLEN,
    QPOS,
    SEEN,
    TOTAL,
)
from .lookahead import (
    BASE,
    CHOICE,
    FIRST,
    PAYS,
    activates,
    activation_pays,
    add,
    card_value,
    chance_of,
    closed_card_value,
    copy_game,
    expected_roll_income,
    faces_for,
    outcome_income,
    preferred_dice,
    preferred_pattern,
    richest_option,
    roll_income,
    sum_end,
)


class Greedy(NamedTuple):
    """What greedy knows besides the rules: ``shares`` (cards,) the share of a card's
    activations that pay, ``choosing`` (cards,) bool: its activation asks a town choice,
    ``horizon`` (rounds), ``max_rounds`` (the most rounds to win it counts), ``close``
    (coins: a score must pass it), ``neumaier`` (this Python's ``sum`` compensates)."""

    shares: np.ndarray
    choosing: np.ndarray
    horizon: float
    max_rounds: float
    close: float
    neumaier: bool


# ---------------------------------------------------------------------------- choices


@njit(cache=True, inline="always")
def _plain(t, lt, a, ga, w, seat, card, pattern, known):
    """The look-ahead's :func:`~.lookahead.card_value` of ``card`` to ``seat``, kept in
    ``known[card]`` (NaN until made) for the decision's position and ``pattern``: a build
    reads a card's value up to three times."""
    if np.isnan(known[card]):
        if lt.closed_card[card] and not a.ints[ga, SEEN]:  # (read here: no call)
            known[card] = closed_card_value(t, lt, a, ga, seat, card, pattern)
        else:
            known[card] = card_value(t, lt, a, ga, w, seat, card, pattern)
    return known[card]


@njit(cache=True, inline="always")
def _worths(t, lt, gr, a, ga, w, seat, pattern, horizon, known):
    """What one more copy of each kind is worth to ``seat`` (coins): a landmark's or a
    choosing card's cost, else ``horizon`` rounds of its value
    (:meth:`~machikoro.agents.greedy.GreedyAgent._values`' ``worth``)."""
    worth = np.empty(t.cards, dtype=np.float64)
    for kind in range(t.cards):
        if t.landmark[kind] or gr.choosing[kind]:
            worth[kind] = float(t.cost[kind])
        else:
            worth[kind] = horizon * (_plain(t, lt, a, ga, w, seat, kind, pattern, known)
                                     * gr.shares[kind])
    return worth


@njit(cache=True, inline="always")
def _best_swap(t, lt, w, z, clause, owner, worth):
    """Make the swap gaining ``owner`` the most worth, the first on a tie; False (none
    made) when there is none, or when it may swap and none gains
    (:func:`machikoro.agents.choice_values._best_swap`)."""
    kinds = lt.swappable[clause]
    gives = np.empty(kinds.shape[0], dtype=np.int64)  # places, by (worth, place)
    n = 0
    for place in range(kinds.shape[0]):
        if kinds[place] < 0:
            break
        if w.towns[z, owner, kinds[place]] <= 0:
            continue
        at = n
        while at > 0 and worth[kinds[gives[at - 1]]] > worth[kinds[place]]:
            gives[at] = gives[at - 1]
            at -= 1
        gives[at] = place
        n += 1
    found, best = False, 0.0
    pick_give = pick_take = pick_other = k.NOBODY  # (int64: not compiled for a literal)
    for j in range(1, t.players):
        other = t.order[owner, j]
        for place in range(kinds.shape[0]):
            take = kinds[place]
            if take < 0:
                break
            if w.towns[z, other, take] <= 0:
                continue
            for m in range(n):
                give = kinds[gives[m]]
                if give == take or (w.towns[z, owner, take] < t.limit[take]
                                    and w.towns[z, other, give] < t.limit[give]):
                    gain = worth[take] - worth[give]
                    if not found or gain > best:
                        found, best = True, gain
                        pick_give, pick_take, pick_other = give, take, other
                    break
    if not found or (best <= 0 and t.clauses[clause, C_OPTIONAL]):
        return False
    k._move_copy(t, w, z, owner, pick_give, pick_other)
    k._move_copy(t, w, z, pick_other, pick_take, owner)
    return True


@njit(cache=True, inline="always")
def _card_option(t, a, ga, clause, owner, j):
    """The card of option ``j`` (counted without the "no") of a card choice."""
    scope, count = t.clauses[clause, C_SCOPE], 0
    for c in range(t.cards):
        if not t.clause_cards[clause, c] or (scope != tb.CHOOSE_KIND and
                                             a.towns[ga, owner, c] <= 0):
            continue
        if count == j:
            return c
        count += 1
    return -1


@njit(cache=True)
def _card_pick(t, lt, a, ga, w, clause, owner, count, optional):
    """Greedy's card of a card choice, as an option index (-1: None): a landmark to
    unbuild, the cheapest; a kind to activate, the one paying ``owner`` most now (None
    when it may decline and none pays; what each pays run on a copy, row
    :data:`~.lookahead.PAYS`); any other kind, the one the other players own most of,
    less ``owner``'s copies; the first of the best."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    scope = t.clauses[clause, C_SCOPE]
    best, best_j = 0.0, -1
    for j in range(count - optional):
        c = _card_option(t, a, ga, clause, owner, j)
        if scope == tb.UNBUILD:
            score = -float(t.cost[c])
        elif scope == tb.ACTIVATE:
            score = float(activation_pays(t, lt, a, ga, w, PAYS, owner, c))
        else:
            more = 0
            for p in range(t.players):
                if p != owner:
                    more += a.towns[ga, p, c]
            score = float(more - a.towns[ga, owner, c])
        if best_j < 0 or score > best:
            best, best_j = score, j
    if scope == tb.ACTIVATE and not (best > 0 or not optional):
        return -1
    return best_j + optional


@njit(cache=True)
def _applied(t, lt, a, ga, w, clause, owner, j, op):
    """Option ``j`` (counted without the "no") of a swap or a gift applied to a copy
    (row :data:`~.lookahead.PAYS`): ``(kind given, kind taken or -1, receiver)``."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    copy_game(t, lt, a, ga, w, PAYS)
    if op == tb.SWAP:
        k._swaps(t, w, PAYS, clause, owner, j)
    else:
        k._gives(t, w, PAYS, clause, owner, j)
    give, take, to = -1, -1, -1
    for c in range(t.cards):
        change = w.towns[PAYS, owner, c] - a.towns[ga, owner, c]
        if change < 0:
            give = c
            for p in range(t.players):
                if w.towns[PAYS, p, c] > a.towns[ga, p, c]:
                    to = p
        elif change > 0:
            take = c
    return give, take, to


@njit(cache=True, inline="always")
def _landmarks(t, a, ga, seat):
    count = 0
    for c in range(t.cards):
        if t.landmark[c] and a.towns[ga, seat, c] > 0:
            count += 1
    return count


@njit(cache=True, inline="always")
def _simulated_choice(t, lt, w, z, clause, card, owner, count, worth):
    """A choice made while valuing a card that asks one (:func:`machikoro.agents.
    choice_values._choose`): an option index, -1 to skip the clause."""
    op, optional = t.clauses[clause, C_OP], t.clauses[clause, C_OPTIONAL]
    if count - optional <= 0:
        return -1
    if t.clauses[clause, C_YES_NO]:
        return 1 if count >= 2 else -1
    if op == tb.REROLL:
        return -1
    if op == tb.GIVE:
        best_j, best = -1, 0.0
        for j in range(count - optional):
            give, _, _ = _applied(t, lt, w, z, w, clause, owner, j, op)
            if best_j < 0 or worth[give] < best:
                best_j, best = j, worth[give]
        return best_j + optional
    if op == tb.CARD_CHOICE:
        return _card_pick(t, lt, w, z, w, clause, owner, count, optional)
    return richest_option(w, z, t, owner, optional)


@njit(cache=True)
def choice_walk(t, lt, w, z, worth):
    """Walk row ``z``'s queue to its end as :func:`machikoro.agents.choice_values._run`
    does: choices made as greedy makes them (:func:`_simulated_choice`, a swap by
    :func:`_best_swap`)."""
    t, lt, w = k._borrowed(t), k._borrowed(lt), k._borrowed(w)
    while w.ints[z, QPOS] < w.ints[z, QLEN]:
        i = w.ints[z, QPOS]
        w.ints[z, QPOS] = i + 1
        card, owner, clause = w.queue[z, i, 0], w.queue[z, i, 1], w.queue[z, i, 3]
        if card < 0:
            continue
        if t.clauses[clause, k.C_COND_COUNT] and not k._holds(
                t, w, z, t.clauses[clause, k.C_COND_START], t.clauses[clause, k.C_COND_COUNT],
                owner):
            continue
        rest = t.clauses[clause, C_REST]
        if t.clauses[clause, C_OP] == tb.SWAP:
            if not _best_swap(t, lt, w, z, clause, owner, worth):
                continue
            w.ints[z, QINS] = i + 1
            if rest >= 0:
                k._insert(w, z, card, owner, w.queue[z, i, 2], rest, 0)
            continue
        answer = -1
        if t.clauses[clause, k.C_ASKS]:
            count = k._options(t, w, z, clause, card, owner)
            if count == 0:
                continue
            answer = _simulated_choice(t, lt, w, z, clause, card, owner, count, worth)
            if answer < 0:
                continue
        w.ints[z, QINS] = i + 1
        copies = w.queue[z, i, 2]
        if k._act(t, w, z, clause, card, owner, copies, answer) and rest >= 0:
            k._insert(w, z, card, owner, copies, rest, 0)


@njit(cache=True)
def _roll_gain(t, lt, a, ga, w, seat, card, copies, roller, total, faces, ndice, worth,
               horizon):
    """What ``copies`` copies of ``card`` bring ``seat`` when ``roller`` rolls ``total``:
    coins, and the worth of the cards gained less those lost, a closed copy costing a
    round of its worth (:func:`machikoro.agents.choice_values._roll_gain`)."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    z = CHOICE
    copy_game(t, lt, a, ga, w, z)
    w.towns[z, seat, card] = copies
    w.ints[z, CUR] = roller
    w.ints[z, TOTAL] = total
    for d in range(ndice):
        w.dice[z, d] = faces[d]
    w.ints[z, NDICE] = ndice
    w.ints[z, k.BOUND] = -1
    town = w.towns[z, seat].copy()
    closed = np.empty((t.blocking.shape[0], t.cards), dtype=np.int64)
    for m in range(t.blocking.shape[0]):
        closed[m] = w.marks[z, t.blocking[m], seat]
    n = 0
    for _ in range(copies):
        for c in range(t.card_clauses.shape[1]):
            if t.card_clauses[card, c] < 0:
                break
            w.queue[z, n, 0] = card
            w.queue[z, n, 1] = seat
            w.queue[z, n, 2] = 1
            w.queue[z, n, 3] = t.card_clauses[card, c]
            w.queue[z, n, 4] = 0
            n += 1
    w.ints[z, QLEN] = n
    choice_walk(t, lt, w, z, worth)
    gained = float(w.coins[z, seat] - a.coins[ga, seat])
    for kind in range(t.cards):
        change = w.towns[z, seat, kind] - town[kind]
        if change:
            gained += change * worth[kind]
    for m in range(t.blocking.shape[0]):
        for kind in range(t.cards):
            change = w.marks[z, t.blocking[m], seat, kind] - closed[m, kind]
            if change:
                gained -= change * worth[kind] / horizon
    return gained


@njit(cache=True)
def choice_value(t, lt, a, ga, w, seat, card, pattern, worth, horizon):
    """Expected coins per round that one more copy of ``card`` (its activation asks a
    town choice) brings ``seat``: over every roll that activates it, what the copies with
    it bring less what they bring without it (:func:`machikoro.agents.choice_values.
    card_value`)."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    value = 0.0
    if lt.totals[card, 0] < 0:
        return value
    faces = np.empty(t.max_dice + 1, dtype=np.int64)
    for roller in range(t.players):
        if not activates(lt, card, roller, seat):
            continue
        ndice = pattern[roller]
        for j in range(lt.totals.shape[1]):
            total = lt.totals[card, j]
            if total < 0:
                break
            p = chance_of(lt, ndice, total)
            if p == 0.0:
                continue
            faces_for(total, ndice, t.faces, faces)
            copies = a.towns[ga, seat, card]
            gained = _roll_gain(t, lt, a, ga, w, seat, card, copies + 1, roller, total,
                                faces, ndice, worth, horizon)
            if copies:
                gained -= _roll_gain(t, lt, a, ga, w, seat, card, copies, roller, total,
                                     faces, ndice, worth, horizon)
            value += p * gained
    return value


# ---------------------------------------------------------------------------- the build


@njit(cache=True)
def _values(t, lt, gr, a, ga, w, seat, cards, m, pattern, horizon, out, known):
    """Greedy's full values of ``cards[:m]`` (coins per round) into ``out``: the
    look-ahead's times the share that pays, a card that asks a town choice valued by
    :func:`choice_value` (:meth:`~machikoro.agents.greedy.GreedyAgent._values`)."""
    t, lt = k._borrowed(t), k._borrowed(lt)
    gr, a, w = k._borrowed(gr), k._borrowed(a), k._borrowed(w)
    choosing = False
    for i in range(m):  # (a choosing card's look-ahead value would be replaced: not made)
        if gr.choosing[cards[i]]:
            choosing = True
        else:
            out[i] = _plain(t, lt, a, ga, w, seat, cards[i], pattern, known) \
                * gr.shares[cards[i]]
    if not choosing:
        return
    worth = _worths(t, lt, gr, a, ga, w, seat, pattern, horizon, known)
    for i in range(m):
        if gr.choosing[cards[i]]:
            out[i] = choice_value(t, lt, a, ga, w, seat, cards[i], pattern, worth, horizon)


@njit(cache=True, inline="always")
def _cost_now(t, a, ga, seat, card):
    """What ``card`` costs ``seat`` now (the rule set's cost where costs never change)."""
    if not t.dynamic:
        return t.cost[card]
    tier, force = k._costs_for(t, a, ga, seat)
    return k._cost(t, card, tier, force)


@njit(cache=True, inline="always")
def rounds_to_win(t, lt, gr, a, ga, w, seat, pattern, known):
    """The rounds ``seat`` needs to build its missing victory landmarks (the cheapest it
    needs) at its income per round, its coins counted; ``max_rounds`` at most
    (:func:`machikoro.agents.greedy.rounds_to_win`)."""
    built = 0
    for v in t.victory:
        if a.towns[ga, seat, v] > 0:
            built += 1
    needed = max(lt.needed - built, 0)
    missing = np.empty(t.victory.shape[0], dtype=np.int64)
    n = 0
    for v in t.victory:
        if a.towns[ga, seat, v] <= 0 and (not lt.market_landmark[v] or a.supply[ga, v] > 0):
            missing[n] = _cost_now(t, a, ga, seat, v)
            n += 1
    missing = np.sort(missing[:n])
    coins = -a.coins[ga, seat]
    for i in range(min(needed, n)):
        coins += missing[i]
    if coins <= 0:
        return 0.0
    income, c = 0.0, 0.0
    for card in range(t.cards):
        copies = a.towns[ga, seat, card]
        if lt.establishment[card] and copies:
            value = _plain(t, lt, a, ga, w, seat, card, pattern, known) * gr.shares[card]
            income, c = add(income, c, copies * value, gr.neumaier)
    income = sum_end(income, c)
    return gr.max_rounds if income * gr.max_rounds <= coins else coins / income


@njit(cache=True, inline="always")
def _paid_value(t, lt, gr, a, ga, w, seat, card):
    """The look-ahead's value of a card that pays to build (a negative cost), with what its
    building pays already in ``seat``'s hands (:func:`machikoro.agents.greedy.
    _paid_value`): valued on a copy (row :data:`~.lookahead.BASE`), the dice preferred
    there."""
    copy_game(t, lt, a, ga, w, BASE)
    w.coins[BASE, seat] -= t.cost[card]
    pattern = preferred_pattern(t, lt, w, BASE, w, gr.neumaier)
    return card_value(t, lt, w, BASE, w, seat, card, pattern)


@njit(cache=True, inline="always")
def _other_dice(t, lt, gr, a, ga, w, seat, cards, m, pattern, rounds, places, scores):
    """The cards of ``cards[:m]`` that ``seat``'s own roll activates, scored as if it
    rolled another number of dice it may choose, where they pay on totals its preferred
    dice cannot make: into ``places`` and ``scores``; returns how many
    (:meth:`machikoro.agents.greedy.GreedyAgent._with_other_dice`)."""
    offers = k._dice_offers(t, a, ga, seat)
    choices = k._nth_count(t, offers, -1)
    if choices < 2:
        return 0
    preferred = pattern[seat]
    reach_top = preferred * t.faces
    found, now, known = 0, 0.0, False
    own = np.empty(m, dtype=np.int64)
    values = np.empty(m, dtype=np.float64)
    other = pattern.copy()
    for j in range(choices):
        count = k._nth_count(t, offers, j)
        if count == preferred:
            continue
        n = FIRST  # (an int64, not the literal 0: see FIRST)
        for i in range(m):
            card = cards[i]
            if not lt.own_roll[card]:
                continue
            for c in range(lt.totals.shape[1]):
                total = lt.totals[card, c]
                if total < 0:
                    break
                if count <= total <= count * t.faces and not preferred <= total <= reach_top:
                    own[n] = i
                    n += 1
                    break
        if n == 0:
            continue
        if not known:
            now, known = expected_roll_income(t, lt, a, ga, w, seat, preferred, gr.neumaier), True
        switch = expected_roll_income(t, lt, a, ga, w, seat, count, gr.neumaier) - now
        other[seat] = count
        chosen = np.empty(n, dtype=np.int64)
        for i in range(n):
            chosen[i] = cards[own[i]]
        _values(t, lt, gr, a, ga, w, seat, chosen, n, other, rounds, values,
                np.full(t.cards, np.nan))
        for i in range(n):
            places[found] = own[i]
            scores[found] = (values[i] + switch) * rounds - t.cost[chosen[i]]
            found += 1
    return found


@njit(cache=True, inline="always")
def _over_the_game(t, lt, gr, a, ga, w, seat, cards, costs, m, best, pattern, known):
    """The place in ``cards[:m]`` of the card to build when the horizon alone finds none
    worth it, or one that pays to build (``best``; -1: none): each card's full value
    weighed over the rounds ``seat`` still needs to win, less its cost, and the cards of
    other dice; -1 to save (:meth:`machikoro.agents.greedy.GreedyAgent._over_the_game`)."""
    rounds = max(gr.horizon, rounds_to_win(t, lt, gr, a, ga, w, seat, pattern, known))
    if rounds <= gr.horizon and best < 0:
        return -1
    values = np.empty(m, dtype=np.float64)
    _values(t, lt, gr, a, ga, w, seat, cards, m, pattern, rounds, values, known)
    for i in range(m):
        if costs[i] < 0:
            values[i] = _paid_value(t, lt, gr, a, ga, w, seat, cards[i])
    top, place = -np.inf, -1
    for i in range(m):
        score = values[i] * rounds - costs[i]
        if score > top or (score == top and i < place):
            top, place = score, i
    places = np.empty(m * t.dice_counts.shape[0] + 1, dtype=np.int64)
    scores = np.empty(m * t.dice_counts.shape[0] + 1, dtype=np.float64)
    for i in range(_other_dice(t, lt, gr, a, ga, w, seat, cards, m, pattern, rounds, places,
                               scores)):
        if scores[i] > top or (scores[i] == top and places[i] < place):
            top, place = scores[i], places[i]
    return place if top > gr.close else -1


@njit(cache=True, inline="always")
def _build(t, lt, gr, s, g, w, seat, count):
    """Greedy's build (an option index; 0: none): a victory landmark it can build, one
    that wins at once first, then the dearest; else the establishment whose value over
    the horizon less its cost is highest and positive, or the full valuation
    (:meth:`machikoro.agents.greedy.GreedyAgent._build`)."""
    finish, once_best, cost_best = -1, False, 0
    for j in range(count - 1):
        card = s.menu[g, 0, j]
        if not lt.victory[card]:
            continue
        once = False
        for v in t.at_once:
            once = once or v == card
        cost = s.menu[g, 1, j]
        if finish < 0 or (once and not once_best) or (once == once_best and cost > cost_best):
            finish, once_best, cost_best = j, once, cost
    if finish >= 0:
        return 1 + finish
    cards = np.empty(count, dtype=np.int64)
    costs = np.empty(count, dtype=np.int64)
    places = np.empty(count, dtype=np.int64)
    m = FIRST  # (an int64, not the literal 0: see FIRST)
    for j in range(count - 1):
        card = s.menu[g, 0, j]
        if not t.landmark[card] and not lt.victory[card]:
            cards[m], costs[m], places[m] = card, s.menu[g, 1, j], j
            m += 1
    pattern = preferred_pattern(t, lt, s, g, w, gr.neumaier)
    known = np.full(t.cards, np.nan)  # (the look-ahead's card values, made when read)
    best, top = -1, 0.0
    for i in range(m):
        value = _plain(t, lt, s, g, w, seat, cards[i], pattern, known) * gr.shares[cards[i]]
        score = value * gr.horizon - costs[i]
        if score > top:
            best, top = i, score
    if best < 0 or costs[best] < 0:
        best = _over_the_game(t, lt, gr, s, g, w, seat, cards, costs, m, best, pattern,
                              known)
    return 0 if best < 0 else 1 + places[best]


# ---------------------------------------------------------------------------- decisions


@njit(cache=True, inline="always")
def _reroll(t, lt, gr, s, g, w, seat, count):
    """Reroll when this roll pays ``seat`` less than a fresh roll is expected to; the
    same number of dice where it chooses (:meth:`~machikoro.agents.greedy.GreedyAgent.
    _reroll`)."""
    ndice = s.ints[g, DICE_COUNT]
    now = roll_income(t, lt, s, g, w, seat, s.ints[g, TOTAL], ndice)
    if expected_roll_income(t, lt, s, g, w, seat, ndice, gr.neumaier) <= now:
        return 0
    if t.reroll_same:
        return 1
    offers = k._dice_offers(t, s, g, seat)
    for j in range(count - 1):
        if k._nth_count(t, offers, j) == ndice:
            return 1 + j
    return count - 1


@njit(cache=True, inline="always")
def _put_coins(t, lt, gr, s, g, w, seat, clause):
    """Put the coins on the card when they bring more than themselves over the horizon
    (:meth:`~machikoro.agents.greedy.GreedyAgent._put_coins`)."""
    i = s.ints[g, ITEM]
    card, copies = s.queue[g, i, 0], s.queue[g, i, 2]
    coins = t.clauses[clause, C_N] * copies
    pattern = preferred_pattern(t, lt, s, g, w, gr.neumaier)
    now = card_value(t, lt, s, g, w, seat, card, pattern)
    copy_game(t, lt, s, g, w, BASE)
    w.coins[BASE, seat] -= coins
    w.marks[BASE, t.clauses[clause, C_MARKER], seat, card] += coins
    after = card_value(t, lt, w, BASE, w, seat, card, pattern)
    return 1 if (after - now) * gr.horizon > coins else 0


@njit(cache=True, inline="always")
def _player(t, s, g, clause, seat, count):
    """Take from the richest other player (the lowest seat on a tie); pay the weakest
    (fewest landmarks, then fewest coins, then the lowest seat)."""
    optional = t.clauses[clause, C_OPTIONAL]
    pay = t.clauses[clause, C_PAYER] == k.OWNER and t.clauses[clause, C_PAYEE] == k.CHOSEN
    best_j, best = -1, (0, 0, 0)
    for j in range(count - optional):
        p = t.order[seat, 1 + j]
        key = (_landmarks(t, s, g, p), s.coins[g, p], p) if pay else \
            (-s.coins[g, p], p, 0)
        if best_j < 0 or key < best:
            best_j, best = j, key
    return best_j + optional


@njit(cache=True, inline="always")
def _move(t, lt, gr, s, g, w, clause, seat, count):
    """A swap: the one gaining the most (the taken card's value less the given one's;
    none when it may and none gains); a gift: the least valuable card, to the weakest
    player (:meth:`~machikoro.agents.greedy.GreedyAgent._move`)."""
    op, optional = t.clauses[clause, C_OP], t.clauses[clause, C_OPTIONAL]
    pattern = preferred_pattern(t, lt, s, g, w, gr.neumaier)
    value = np.full(t.cards, np.nan)
    best_j, best_gain, best_key = -1, 0.0, (0.0, 0, 0)
    for j in range(count - optional):
        give, take, to = _applied(t, lt, s, g, w, clause, seat, j, op)
        for c in (give, take):
            if c >= 0 and np.isnan(value[c]):
                value[c] = card_value(t, lt, s, g, w, seat, c, pattern)
        if op == tb.SWAP:
            gain = value[take] - value[give] if give >= 0 else 0.0
            if best_j < 0 or gain > best_gain:
                best_j, best_gain = j, gain
        else:
            key = (value[give], _landmarks(t, s, g, to), s.coins[g, to])
            if best_j < 0 or key < best_key:
                best_j, best_key = j, key
    if op == tb.SWAP and not (best_gain > 0 or not optional):
        return 0
    return best_j + optional


@njit(cache=True, inline="always")
def answer(t, lt, gr, s, g, w):
    """Greedy's option index for game ``g``'s pending decision (see the module text)."""
    count, seat = s.ints[g, COUNT], s.ints[g, PLAYER]
    kind = s.ints[g, PENDING]
    if count <= 1:
        return 0
    if kind == BUILD_DECISION:
        return _build(t, lt, gr, s, g, w, seat, count)
    if kind == DICE_DECISION:
        preferred = preferred_dice(t, lt, s, g, w, seat, gr.neumaier)
        offers = k._dice_offers(t, s, g, seat)
        for j in range(count):
            if k._nth_count(t, offers, j) == preferred:
                return j
        return 0
    i = s.ints[g, ITEM]
    card, clause = s.queue[g, i, 0], s.queue[g, i, 3]
    if card < 0:
        return 0  # an order: the market's
    op = t.clauses[clause, C_OP]
    if op == tb.REROLL:
        return _reroll(t, lt, gr, s, g, w, seat, count)
    if t.clauses[clause, C_YES_NO]:
        if op == tb.PUT_COINS:
            return _put_coins(t, lt, gr, s, g, w, seat, clause)
        if op == tb.ADD_TO_ROLL:
            ndice, total = s.ints[g, NDICE], s.ints[g, TOTAL]
            now = outcome_income(t, lt, s, g, w, seat, s.dice[g], ndice, total, seat)
            more = outcome_income(t, lt, s, g, w, seat, s.dice[g], ndice,
                                  total + t.clauses[clause, C_N], seat)
            return 1 if more > now else 0
        return 1
    if op == tb.SWAP or op == tb.GIVE:
        return _move(t, lt, gr, s, g, w, clause, seat, count)
    if op == tb.CARD_CHOICE:
        found = _card_pick(t, lt, s, g, w, clause, seat, count, t.clauses[clause, C_OPTIONAL])
        return max(found, 0)
    return _player(t, s, g, clause, seat, count)


@njit(cache=True)
def answers(t, lt, gr, s, w, games, out):
    """Greedy's option index for each game of ``games`` (an index array) that waits at a
    decision, into ``out`` (one per game of ``s``); the records' arrays are borrowed for
    the call (:func:`~machikoro.compiled.kernels._borrowed`)."""
    t, lt, gr = k._borrowed(t), k._borrowed(lt), k._borrowed(gr)
    s, w = k._borrowed(s), k._borrowed(w)
    for g in games:
        out[g] = answer(t, lt, gr, s, g, w) if s.ints[g, PENDING] != NONE else 0
