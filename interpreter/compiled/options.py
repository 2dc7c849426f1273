"""The options of the compiled engine's waiting decisions as values: what option ``k`` of a
game's pending decision is (a card, a seat, a number of dice, yes or no, a gift, a swap,
an order), for the callers that show or encode the options rather than pick one by its
index (the Gymnasium vector environment's action table: :mod:`machikoro.adapters.
vector_env`).

:func:`option_values` writes, for each waiting game, one row of :data:`WIDTH` whole numbers
per option (the games' rows one after the other), in the scalar engine's order of
``Decision.options``: a tag (:data:`TAGS`) and up to three numbers. The options are found
by the engine's own functions (the build menu, the dice offers, the finders the engine
acts through: :func:`~machikoro.compiled.kernels._give_at` and the others), so an
option's value and its effect cannot disagree; swaps alone are listed in one walk in
their finder's order (:func:`_swap_values`: the finder walks to its ``k``-th swap at
every call). The lock-step harness compares every option's value with the scalar
engine's. :func:`decode` turns a row into the scalar engine's value.

The vector environment's steps are made here too, for every env in one call each: each
option as a path of the learner's action ids (:func:`action_ids`), what each legal next
action does (:func:`targets`: it completes an option, or goes on along longer paths) and
the observation (:func:`observe`, the layout of
:class:`machikoro.adapters.encoding.ActionTable`). The opponents' random answers are the
engine's own (:meth:`machikoro.compiled.games.CompiledGames.play_until`).
"""

from __future__ import annotations

import itertools

import numpy as np
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


@njit(cache=True)
def _swap_values(t, s, g, clause, owner, out, j):
    """Every swap of ``owner`` (:func:`~machikoro.compiled.kernels._swap_at`'s, in its
    order: per other player in payment order, per card given, per card taken, within the
    limits) from row ``j`` of ``out``, in one walk: the finder walks to its ``k``-th
    swap at every call, which for each of a hundred swaps costs more than the rest of
    a decision's options."""
    t, s = k._borrowed(t), k._borrowed(s)
    gives = np.empty(t.cards, dtype=np.int64)
    takes = np.empty(t.cards, dtype=np.int64)
    n_give = k._owned_of(t, s, g, clause, owner, gives)
    n = 0
    for other_at in range(1 if n_give else t.players, t.players):
        other = t.order[owner, other_at]
        n_take = k._owned_of(t, s, g, clause, other, takes)
        unlimited = n_give > 0 and n_take >= 0
        for a in range(abs(n_give)):
            give = gives[a]
            for b in range(abs(n_take)):
                take = takes[b]
                if not unlimited and (t.limit[take] < (1 << 30) or
                                      t.limit[give] < (1 << 30)) and \
                        not k._swap_fits(t, s, g, owner, give, other, take):
                    continue
                _put(out, j, n, SWAP, give, other, take)
                n += 1


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
    if op == tb.SWAP:
        _swap_values(t, s, g, clause, owner, out, j + first)
        return
    for n in range(first, count):
        m = n - first
        if op == tb.GIVE:
            _, give, other = k._give_at(t, s, g, clause, owner, m)
            _put(out, j, n, GIVE, give, other, -1)
        elif op == tb.CARD_CHOICE:
            _, c = k._card_at(t, s, g, clause, owner, m)
            _put(out, j, n, CARD, c, -1, -1)
        else:  # a chosen player, in payment order
            _put(out, j, n, SEAT, t.order[owner, 1 + m], -1, -1)


@njit(cache=True, inline="always")
def _values_of(t, s, g, out, at):
    """Game ``g``'s options (it waits at a decision) in rows ``at`` on of ``out``."""
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
        _values_of(t, s, games[j], out, starts[j])


def decode(row, ids: tuple, kinds_of_order=None):
    """The scalar engine's value of one option row of :func:`option_values` (``row``: its
    :data:`WIDTH` numbers, an array or a list of ints): None, a bool, a number of dice, a
    card id (``ids``: the rule set's card ids), a seat, a ``{give, to}`` or ``{give, take,
    from}`` answer, or an order (a tuple of card ids: ``kinds_of_order(item)`` gives the
    kinds the order decision of that queue item orders, in index order). Raises
    ValueError for an unknown tag."""
    tag, a, b, c = row.tolist() if isinstance(row, np.ndarray) else row
    if tag == NONE:
        return None
    if tag == BOOL:
        return bool(a)
    if tag in (COUNT, SEAT):
        return a
    if tag == CARD:
        return ids[a]
    if tag == GIVE or tag == SWAP:
        from ..language.actions import FrozenAnswer

        return FrozenAnswer(give=ids[a], to=b) if tag == GIVE else \
            FrozenAnswer(give=ids[a], take=ids[c], **{"from": b})
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



# ---------------------------------------------------------------------- the learner's steps
# The Gymnasium vector environment (machikoro.adapters.vector_env) shows a learner each
# option as a path of action ids of its action table, one action a step.


def action_ids(none: int, boolean, number, card):
    """The action ids of option values, packed for :func:`targets` as one int64 array:
    ``none`` (no build, a ``may`` declined), ``boolean`` (no, yes), ``number`` (per whole
    number from 0: a seat or a number of dice) and ``card`` (per card index); -1 where
    the action table has none. Returns ``(ids, numbers)``, ``numbers`` the length of
    ``number``."""
    ids = np.array([none, *boolean, *number, *card], dtype=np.int64)
    return ids, len(number)


@njit(cache=True, inline="always")
def _number(ids, numbers, v):
    return ids[3 + min(max(v, 0), numbers - 1)]


@njit(cache=True, inline="always")
def _card(ids, numbers, v):
    return ids[3 + numbers + max(v, 0)]


@njit(cache=True, inline="always")
def _paths(t, s, g, ids, numbers, rows, paths, lengths):
    """Game ``g``'s options (it waits at a decision) as action paths: rows ``0 .. count
    - 1`` of ``paths`` (read up to each one's length) and ``lengths``; returns the
    count. An atom is one action; a gift ``{give, to}`` and a swap ``{from, give,
    take}`` their values in sorted key order; an order its cards, in the order
    :func:`ordered` gives (read by the engine's own
    :func:`~machikoro.compiled.kernels._nth_order`)."""
    count = s.ints[g, k.COUNT]
    _values_of(t, s, g, rows, 0)  # (every option's row written whole)
    for r in range(count):
        tag, a, b, c = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
        lengths[r] = 1
        if tag == NONE:
            paths[r, 0] = ids[0]
        elif tag == BOOL:
            paths[r, 0] = ids[1 + min(max(a, 0), 1)]
        elif tag == COUNT or tag == SEAT:
            paths[r, 0] = _number(ids, numbers, a)
        elif tag == CARD:
            paths[r, 0] = _card(ids, numbers, a)
        elif tag == GIVE:
            paths[r, 0] = _card(ids, numbers, a)
            paths[r, 1] = _number(ids, numbers, b)
            lengths[r] = 2
        elif tag == SWAP:
            paths[r, 0] = _number(ids, numbers, b)
            paths[r, 1] = _card(ids, numbers, a)
            paths[r, 2] = _card(ids, numbers, c)
            lengths[r] = 3
        else:  # an order: its kinds in its order, as the engine reads the index
            kinds = np.empty(t.block_cards.shape[1], dtype=np.int64)
            left = k._nth_order(t, s, g, b, a, kinds)
            for position in range(left):
                paths[r, position] = _card(ids, numbers, kinds[position])
            lengths[r] = left
    return count


@njit(cache=True, inline="always")
def _leads(paths, lengths, r, prefix, g, length):
    """Whether option ``r``'s path starts with game ``g``'s prefix of ``length``."""
    if lengths[r] < length:
        return False
    for j in range(length):
        if paths[r, j] != prefix[g, j]:
            return False
    return True


def scratch(t, games) -> tuple:
    """Arrays for :func:`targets`: an option's rows, paths and lengths,
    for the most options any decision of ``games`` can have now (``(rows, paths,
    lengths)``); paths as wide as :func:`path_width`."""
    most = max(1, int(games.option_counts.max(initial=0)))
    return (np.empty((most, WIDTH), dtype=np.int64),
            np.empty((most, path_width(t)), dtype=np.int64), np.empty(most, dtype=np.int64))


def path_width(t) -> int:
    """The longest action path an option of tables ``t`` can have: a swap's 3, or an
    order of a block's every kind."""
    return max(3, int(t.block_cards.shape[1]))


GOES_ON = -2
"""In :func:`targets`: the action continues longer paths (it joins the prefix)."""


@njit(cache=True)
def targets(t, s, ids, numbers, done, prefix, plen, target, rows, paths, lengths):
    """Each game's legal next actions and what each does, in ``target`` (``(N,
    actions)`` int32, written whole): -1 an action that is not legal; an option's index
    where the action completes that option (the first of equal paths); :data:`GOES_ON`
    where longer paths go on (the action joins the prefix). The legal actions continue
    the path of an option of the game's waiting decision past its ``prefix`` (its first
    ``plen[g]`` actions); ``done`` picks the option the prefix itself is, where longer
    ones go on. A game waiting at nothing has none. ``rows``, ``paths`` and ``lengths``
    are room for one decision's options (:func:`scratch`)."""
    t, s = k._borrowed(t), k._borrowed(s)
    target[:, :] = -1
    for g in range(target.shape[0]):
        if s.ints[g, k.PENDING] == k.NONE:
            continue
        count = _paths(t, s, g, ids, numbers, rows, paths, lengths)
        length = plen[g]
        ended, more = -1, False
        for r in range(count):
            if not _leads(paths, lengths, r, prefix, g, length):
                continue
            if lengths[r] > length:
                more = True
                action = paths[r, length]
                if lengths[r] > length + 1:
                    target[g, action] = GOES_ON
                elif target[g, action] == -1:
                    target[g, action] = r
            elif lengths[r] == length and ended < 0:
                ended = r
        if ended >= 0 and more:
            target[g, done] = ended

PARTS = ("coins", "towns", "market", "turn_of", "decision_of", "phase", "dice",
         "built_this_turn", "rerolls_used", "extra_turn", "decision", "chosen", "marks")
"""The parts of an observation, in the order :func:`observe` reads their offsets."""
(_COINS, _TOWNS, _MARKET, _TURN_OF, _DECISION_OF, _PHASE, _DICE, _BUILT, _REROLLS, _EXTRA,
 _DECISION, _CHOSEN, _MARKS) = range(len(PARTS))


@njit(cache=True, inline="always")
def _decision_id(t, s, g, names, card_names):
    """The action table's id of game ``g``'s waiting decision's name (-1: unlisted):
    ``names`` the ids of ``build``, ``dice``, ``order`` and ``reroll``,
    ``card_names`` a card's (its clause's decision)."""
    kind = s.ints[g, k.PENDING]
    if kind == k.DICE_DECISION:
        return names[1]
    if kind == k.BUILD_DECISION:
        return names[0]
    item = s.ints[g, k.ITEM]
    card = s.queue[g, item, 0]
    if card < 0:
        return names[2]
    if t.clauses[s.queue[g, item, 3], k.C_OP] == tb.REROLL:
        return names[3]
    return card_names[card]


@njit(cache=True)
def observe(t, s, learner, at, slots, actions, phase_of, names, card_names, markers,
            builds_per_turn, prefix, plen, obs):
    """Every game's observation from seat ``learner`` into ``obs`` (``(N, size)``
    float32, zeros): the layout of :class:`machikoro.adapters.encoding.ActionTable`
    (``at``: each part's offset, in :data:`PARTS` order), seats from the learner's on.
    ``slots`` prefix steps are shown (``actions`` wide each), ``phase_of`` maps a
    compiled phase to the scalar one, ``markers`` the marker tables shown and
    ``builds_per_turn`` the rule set's (a card built twice in a turn counts 2)."""
    t, s = k._borrowed(t), k._borrowed(s)
    p, cards = t.players, s.towns.shape[2]
    for g in range(obs.shape[0]):
        row = obs[g]
        for q in range(p):
            seat = (learner + q) % p
            row[at[_COINS] + q] = s.coins[g, seat]
            for c in range(cards):
                row[at[_TOWNS] + q * cards + c] = s.towns[g, seat, c]
            for m in range(markers):
                for c in range(cards):
                    row[at[_MARKS] + (m * p + q) * cards + c] = s.marks[g, m, seat, c]
        for c in range(cards):
            row[at[_MARKET] + c] = s.supply[g, c]
        row[at[_TURN_OF] + (s.ints[g, k.CUR] - learner) % p] = 1
        if s.ints[g, k.PENDING] != k.NONE:
            row[at[_DECISION_OF] + (s.ints[g, k.PLAYER] - learner) % p] = 1
            named = _decision_id(t, s, g, names, card_names)
            if named >= 0:
                row[at[_DECISION] + named] = 1
        row[at[_PHASE] + phase_of[s.ints[g, k.PHASE]]] = 1
        ndice = s.ints[g, k.NDICE]
        row[at[_DICE]] = s.ints[g, k.TOTAL]
        row[at[_DICE] + 1] = ndice
        doubles = ndice > 1
        for d in range(1, ndice):
            doubles = doubles and s.dice[g, d] == s.dice[g, 0]
        row[at[_DICE] + 2] = doubles
        # the turn's stamp (its count from 1); a game over has counted its last turn
        this_turn = s.ints[g, k.TURN] + (s.ints[g, k.PHASE] != k.OVER)
        built = 0
        for c in range(cards):
            if s.built[g, c] == this_turn:
                built += 1
                row[at[_BUILT] + c] = 1
            if s.rerolled[g, c] == this_turn:
                row[at[_REROLLS] + c] = 1
        if built == 1 and builds_per_turn - s.ints[g, k.BUILDS_LEFT] == 2:
            for c in range(cards):  # one card built twice: its one stamp, 2 builds
                if s.built[g, c] == this_turn:
                    row[at[_BUILT] + c] = 2
        row[at[_EXTRA]] = s.ints[g, k.EXTRA]
        for j in range(min(plen[g], slots)):
            row[at[_CHOSEN] + j * actions + prefix[g, j]] = 1
