"""The compiled engine's per-game code: one game's turn, written as the scalar engine
(:mod:`machikoro.engine.phases`) writes it, over the plain arrays of a
:class:`~machikoro.compiled.tables.Tables` and a :class:`State`, compiled by Numba.

:func:`run` is the one entry point: a game runs by itself (:func:`_play_on`) until its player
must choose, then waits with its decision's kind, player and number of options in
``State.ints``; the next step applies option ``k`` (the position of the answer in the
scalar engine's ``Decision.options``). The turn, as the scalar engine's::

    set-up (the market's decks) -> start -> before roll hooks -> dice (decision) -> roll
    -> after roll hooks (reroll) -> income (the roll's plan) -> after income hooks ->
    before build hooks -> build (decision) -> when built -> at end of turn hooks -> next
    player (or an extra turn)

Hooks, the income step, ``then`` steps and an activated card's clauses go through the
game's queue (``State.queue``: card, owner, copies, clause, extra), which :func:`_walk`
walks in order; a clause that asks stops it until the answer. A coin action is one
transfer rule (:func:`move_coins`) for every pair of roles.

Randomness is a counter-based generator (SplitMix64: :func:`mix`): a stream's key is
``mix(seed + GOLDEN)`` and its k-th draw ``mix(key + k * GOLDEN)``, so a game's rolls come
from its own stream and a random agent's answers from its seat's, and a seed gives the
same game whatever else the batch holds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..language.actions import TakeFromRichest
from ..language.units import poorest, round_is
from . import tables as tb
from .cache import use_folder
from .tables import (  # the phases (PHASE), as the tables number them
    AFTER_INCOME,
    AFTER_ROLL,
    BEFORE_BUILD,
    BEFORE_ROLL,
    BUILD,
    BUILD_AGAIN,
    DICE,
    END,
    INCOME,
    NEXT,
    OVER,
    SETUP,
    START,
    WHEN_BUILT,
)
from .tables import HOOK_OF as _HOOK_OF

CACHE = use_folder()
"""Where the compiled code is kept (None: Numba's own choice; :mod:`.cache`)."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_ONE = np.uint64(1)
_LOW32 = np.uint64(0xFFFFFFFF)
_UNIT = 2.0 ** -53

# State.ints columns
(CUR, TURN, PHASE, NDICE, TOTAL, DICE_COUNT, EXTRA, EXTRAS, BUILDS_LEFT, WINNER, QLEN,
 QPOS, PENDING, PLAYER, COUNT, ITEM, MAX_TURNS, ENTERING, ANSWER, BUILT_CARD, QINS, BOUND,
 SEEN, MOVING, NMOVES, NROLLS, NBUILDS, HOLD_TURN, HOLD_SEAT, HELD, DICE_SCRIPT) = range(31)
INTS = 31
# HOLD_TURN, HOLD_SEAT (HOLD_TURN 0: never): a game is held between two turns (HELD 1, its
# next turn not entered, no decision pending) at the end of seat HOLD_SEAT's (-1: any
# seat's) first turn that ends with its turn count at HOLD_TURN or more: a rollout cut
# short, its position then scored by a learned value (the advisor's cutoff; the scalar
# engine's stop_at_turn_end), or a rule case's turn. DICE_SCRIPT 1: the throws are read
# from State.rolls (row NROLLS on), not drawn; 2 + n: a throw of n dice found no row of n
MOVES = 256
"""The most moves of cards one income step logs (far more than any game makes)."""

# arguments that would be literal constants, as int64 values: Numba compiles a function
# called with a literal once more for that literal (the big ones twice)
NOBODY = np.int64(-1)  # (a move's destination: the market, or nowhere)
_COUNT = np.int64(-1)  # (a choice's k: count the options)
_ONE_COPY = np.int64(1)

# pending decision kinds (PENDING)
NONE, BUILD_DECISION, DICE_DECISION, CLAUSE_DECISION = -1, 0, 1, 2

# clause columns
(C_OP, C_PAYER, C_PAYEE, C_BOOSTED, C_AMOUNT, C_N, C_SCOPE, C_ASKS, C_OPTIONAL,
 C_COND_START, C_COND_COUNT, C_HOLDING_OP, C_HOLDING_N, C_YES_NO,
 C_ONE_BY_ONE, C_MARKER, C_REST) = range(len(tb.CLAUSE_FIELDS))
BANK, OWNER, ROLLER, OTHERS, RICHEST, CHOSEN, POOREST = 0, 1, 2, 3, 4, 5, 6

# the concept units' own compiled forms, beside their reference rules
_round = njit(cache=True)(round_is.compiled_round)
_poorest = njit(cache=True)(poorest.PayPoorest.compiled)
_richest = njit(cache=True)(TakeFromRichest.compiled)


class State(NamedTuple):
    """N games' state: ``ints`` (N, :data:`INTS`) the per-game numbers (current seat,
    turn, phase...), ``coins`` (N, P), ``towns`` (N, P, cards) copies owned, ``supply``
    (N, cards) the market's piles, ``dice`` (N, most dice) the faces, ``rerolled`` and
    ``built`` (N, cards) the turn (counted from 1) a card's reroll was last used and it was
    last built, ``queue`` (N, size, 4) the walk under way, ``decks`` (N, rows, most) each
    market row's deck, a ring holding cards ``deck_lo`` .. ``deck_hi - 1`` (N, rows), the
    top last, ``side`` and ``side_turn`` (N,
    cards) a card's last side roll and its turn, ``received`` (N, P) the coins each seat
    received this turn, ``marks`` (N, markers, P, cards) the markers on the copies (or the
    coins on them), ``seen`` (N, P, cards) the towns as they stood at the roll (while
    ``ints[SEEN]``), ``moves`` (N, :data:`MOVES`, 3) the income step's moves of cards
    (kind, from, to; -1 the market), the generator's ``keys`` and
    ``counters`` of each game's dice (N) and each seat's agent (N * P), and ``rolls`` (N,
    logged, 1 + most dice) the throws logged since ``ints[NROLLS]`` was last set to 0: per
    throw its number of dice and faces (the lock-step harness reads them; with one place
    per game, nothing is logged), ``menu`` (N, 2, cards) the build decision's options
    (cards, then their costs now), made when it is asked, and ``builds`` (N, logged, 3)
    the builds made since ``ints[NBUILDS]`` was last set to 0: per build its turn
    (counted from 1), seat and card (with one place per game, nothing is logged)."""

    ints: np.ndarray
    coins: np.ndarray
    towns: np.ndarray
    supply: np.ndarray
    dice: np.ndarray
    rerolled: np.ndarray
    built: np.ndarray
    queue: np.ndarray
    decks: np.ndarray
    deck_lo: np.ndarray
    deck_hi: np.ndarray
    side: np.ndarray
    side_turn: np.ndarray
    received: np.ndarray
    marks: np.ndarray
    seen: np.ndarray
    moves: np.ndarray
    dice_keys: np.ndarray
    dice_counters: np.ndarray
    agent_keys: np.ndarray
    agent_counters: np.ndarray
    rolls: np.ndarray
    menu: np.ndarray
    builds: np.ndarray


@intrinsic
def _borrowed(typingctx, record):
    """``record`` (a named tuple: :class:`State` or :class:`~machikoro.compiled.tables.
    Tables`) with arrays that hold no reference to their memory, made once by an entry
    point, whose caller keeps the arrays alive; each function compiled apart (the turn's
    code, :func:`_play_on`, above all) borrows its records again at its entry. The code
    inlined into it reads the records' arrays from registers: no reference is counted
    (measured: a record passed by reference is read again from memory after every write,
    three times slower; arrays counted at each call, ten times). A call still passes both
    records whole, about half a microsecond."""
    def codegen(context, builder, signature, args):
        value = args[0]
        for i, member in enumerate(record.types):
            if isinstance(member, types.Array):
                array = context.make_array(member)(context, builder,
                                                   value=builder.extract_value(value, i))
                array.meminfo = cgutils.get_null_value(array.meminfo.type)
                array.parent = cgutils.get_null_value(array.parent.type)
                value = builder.insert_value(value, array._getvalue(), i)
        return value
    return record(record), codegen


# ---------------------------------------------------------------------------- randomness


@njit(cache=True, inline="always")
def mix(z):
    """SplitMix64's finaliser (wrapping ``uint64`` arithmetic)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def stream_keys(seeds) -> np.ndarray:
    """The keys of the streams seeded by ``seeds`` (whole numbers >= 0, each reduced mod
    2**64): ``mix(seed + GOLDEN)``; a stream's k-th draw is ``mix(key + k * GOLDEN)``."""
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return _keys(seeds)
    return _keys(np.array([int(s) & 0xFFFFFFFFFFFFFFFF for s in seeds], dtype=np.uint64))


@njit(cache=True)
def _keys(seeds):
    keys = np.empty_like(seeds)
    for i in range(seeds.shape[0]):
        keys[i] = mix(seeds[i] + _GOLDEN)
    return keys


@njit(cache=True, inline="always")
def _bits(keys, counters, i):
    k = counters[i]
    counters[i] = k + _ONE
    return mix(keys[i] + k * _GOLDEN)


@njit(cache=True, inline="always")
def _below(keys, counters, i, count):
    """A random agent's answer: ``floor(u * count)``, ``u`` in [0, 1) the next 53 bits
    of stream ``i`` (its next draw)."""
    bits = _bits(keys, counters, i)
    return np.int64(np.float64(bits >> np.uint64(11)) * _UNIT * count)


@njit(cache=True)
def random_answers(keys, counters, counts):
    """One random answer per game (int64, shape of ``counts``) from its stream
    (``keys``, ``counters``: :func:`stream_keys` and its counters, advanced), for the
    games whose ``counts`` (options) are above 0; 0 for the others, whose streams are
    not drawn."""
    out = np.zeros(counts.shape[0], dtype=np.int64)
    for g in range(counts.shape[0]):
        if counts[g] > 0:
            out[g] = _below(keys, counters, g, counts[g])
    return out


@njit(cache=True, inline="always")
def _throw(t, s, g, count, keep):
    """Throw ``count`` dice in game ``g`` and return their total: two dice a draw (its
    low and high 32 bits). With ``keep``, the faces are the turn's roll (``State.dice``);
    else a side roll's. A throw is logged where ``State.rolls`` has room."""
    sides = np.uint64(t.faces)
    total = 0
    bits = _ONE
    logged = s.ints[g, NROLLS]
    script = s.ints[g, DICE_SCRIPT]
    if script:  # (scripted: CompiledGames.script_dice; ones once the script broke)
        if script == 1 and (logged >= s.rolls.shape[1] or s.rolls[g, logged, 0] != count):
            script = 2 + count
            s.ints[g, DICE_SCRIPT] = script
        s.ints[g, NROLLS] = logged + 1
        for d in range(count):
            face = s.rolls[g, logged, 1 + d] if script == 1 else 1
            total += face
            if keep:
                s.dice[g, d] = face
        return total
    log = s.rolls.shape[1] > 1 and logged < s.rolls.shape[1]
    if log:
        s.rolls[g, logged, 0] = count
        s.ints[g, NROLLS] = logged + 1
    for d in range(count):
        if d % 2 == 0:
            bits = _bits(s.dice_keys, s.dice_counters, g)
            face = np.int64(((bits & _LOW32) * sides) >> np.uint64(32)) + 1
        else:
            face = np.int64(((bits >> np.uint64(32)) * sides) >> np.uint64(32)) + 1
        total += face
        if keep:
            s.dice[g, d] = face
        if log:
            s.rolls[g, logged, 1 + d] = face
    return total


@njit(cache=True, inline="always")
def _roll(t, s, g, count):
    """Roll the turn's ``count`` dice in game ``g`` (:func:`_throw`)."""
    s.ints[g, TOTAL] = _throw(t, s, g, count, True)
    s.ints[g, NDICE] = count


@njit(cache=True, inline="always")
def _dice_offers(t, s, g, p):
    """The numbers of dice ``p`` may roll, as bits of ``dice_counts``: the choices its
    built cards offer, else the rule set's."""
    offers = 0
    for d in range(t.dice_cards.shape[0]):
        if s.towns[g, p, t.dice_cards[d]] > 0:
            offers |= t.dice_offers[d]
    return offers if offers else t.dice_default


@njit(cache=True, inline="always")
def _nth_count(t, offers, k):
    """The ``k``-th number of dice among ``offers`` (ascending); with ``k`` < 0, how many
    there are."""
    found = 0
    for j in range(t.dice_counts.shape[0]):
        if offers >> j & 1:
            if found == k:
                return t.dice_counts[j]
            found += 1
    return found


@njit(cache=True, inline="always")
def _doubles(s, g):
    n = s.ints[g, NDICE]
    if n < 2:
        return False
    for d in range(1, n):
        if s.dice[g, d] != s.dice[g, 0]:
            return False
    return True


# ---------------------------------------------------------------------------- reading


@njit(cache=True, inline="always")
def _quantity(op, n, value):
    if op == 0:
        return value == n
    if op == 1:
        return value >= n
    if op == 2:
        return value <= n
    if op == 3:
        return value < n
    return value > n


@njit(cache=True, inline="always")
def _town(s, g, seat, card):
    """Copies of ``card`` in ``seat``'s town as amounts and conditions read them: as they
    stood at the roll while the income step keeps them (``income.towns: at_roll``)."""
    return s.seen[g, seat, card] if s.ints[g, SEEN] else s.towns[g, seat, card]


@njit(cache=True, inline="always")
def _test(t, s, g, c, owner):
    """Condition row ``c`` holds for ``owner`` (one about a player, or the roll)."""
    op, qop, n = t.conditions[c, 0], t.conditions[c, 2], t.conditions[c, 3]
    if op == tb.DOUBLES:
        return _doubles(s, g)
    if op == tb.BUILT_NOTHING:
        for card in range(t.cards):
            if s.built[g, card] == s.ints[g, TURN] + 1:
                return False
        return True
    if op == tb.ROLL_IS:
        return _quantity(qop, n, s.ints[g, TOTAL])
    if op == tb.ROLLED_DICE:
        return _quantity(qop, n, s.ints[g, NDICE])
    if op == tb.ROUND_IS:
        return _quantity(qop, n, _round(s.ints[g, TURN], s.ints[g, EXTRAS], t.players))
    if op == tb.MARKET_HAS:
        count = 0
        for card in range(t.cards):
            if t.condition_cards[c, card]:
                count += s.supply[g, card]
        return _quantity(qop, n, count)
    seat = s.ints[g, CUR] if t.conditions[c, 1] else owner
    if op == tb.HAS_COINS:
        return _quantity(qop, n, s.coins[g, seat])
    if op == tb.RECEIVED:
        return _quantity(qop, n, s.received[g, seat])
    count = 0
    for card in range(t.cards):
        if t.condition_cards[c, card]:
            if op == tb.HAS_CARD or op == tb.HAS_LANDMARKS:
                count += _town(s, g, seat, card) > 0
            else:
                count += _town(s, g, seat, card)
    return count > 0 if op == tb.HAS_CARD else _quantity(qop, n, count)


@njit(cache=True, inline="always")
def _holds(t, s, g, first, count, owner):
    """The top-level conditions ``condition_list[first:first + count]`` (all of them) hold
    for ``owner``: each a run of rows in postfix order, read with a stack of bits (the
    tables' :data:`~machikoro.compiled.tables.CONDITIONS`)."""
    for i in range(first, first + count):
        stack = 0
        for c in range(t.condition_list[i, 0], t.condition_list[i, 1]):
            op = t.conditions[c, 0]
            if t.conditions[c, 4]:  # a row another reads (other players')
                continue
            if op == tb.ALL_OF or op == tb.ANY_OF or op == tb.NOT:
                parts = t.conditions[c, 3]
                true = 0
                for _ in range(parts):
                    true += stack & 1
                    stack >>= 1
                value = (true == parts if op == tb.ALL_OF else
                         true > 0 if op == tb.ANY_OF else true == 0)
            else:
                others = op == tb.OTHER_PLAYERS  # a player's test, per other
                row = t.conditions[c, 3] if others else c
                found = 0
                for j in range(t.players - 1 if others else 1):
                    found += _test(t, s, g, row, t.order[owner, 1 + j] if others else owner)
                mode = t.conditions[c, 2] if others else 1
                value = (found > 0 if mode == 0 else
                         (found == t.players - 1 if others else found > 0) if mode == 1
                         else found == 0)
            stack = (stack << 1) | (1 if value else 0)
        if not stack & 1:
            return False
    return True


@njit(cache=True, inline="always")
def _amount(t, s, g, clause, card, owner, payer):
    """One copy's coins of the clause's amount, read for ``payer``."""
    n = t.clauses[clause, C_N]
    kind = t.clauses[clause, C_AMOUNT]
    if kind == tb.FIXED:
        return n
    if kind == tb.PER_ROUND:
        return n * _round(s.ints[g, TURN], s.ints[g, EXTRAS], t.players)
    if kind == tb.HALF_COINS:
        return s.coins[g, payer] // 2
    if kind == tb.ALL_COINS:
        return s.coins[g, payer]
    if kind == tb.SIDE_ROLL:  # rolled the first time a copy needs it this turn
        if s.side_turn[g, card] != s.ints[g, TURN] + 1:
            s.side_turn[g, card] = s.ints[g, TURN] + 1
            s.side[g, card] = _throw(t, s, g, n, False)
        return s.side[g, card]
    if kind == tb.CARD_COINS:  # where the activated copy is now
        m = t.clauses[clause, C_MARKER]
        if not s.ints[g, MOVING]:
            return s.marks[g, m, owner, card]
        where = _activated_copies(t, s, g, owner, card, _ONE_COPY)
        for seat in range(t.players):
            if where[seat] > 0:
                return s.marks[g, m, seat, card]
        return 0
    scope = t.clauses[clause, C_SCOPE]
    count = 0
    for c in range(t.cards):
        if t.clause_cards[clause, c] or (kind == tb.PER_CHOSEN and c == s.ints[g, BOUND]):
            if scope == 1:
                for seat in range(t.players):
                    count += _town(s, g, seat, c)
            else:
                count += _town(s, g, payer if scope == 2 else owner, c)
    return n * count


@njit(cache=True, inline="always")
def _boost(t, s, g, card, owner):
    more = 0
    for k in range(t.boost_source.shape[1]):
        source = t.boost_source[card, k]
        if source >= 0:
            if _town(s, g, owner, source) > 0:
                more += t.boost_more[card, k]
        elif source > -(1 << 39):
            for seat in range(t.players):
                if _town(s, g, seat, ~source) > 0:
                    more += t.boost_more[card, k]
                    break
    return more


# ---------------------------------------------------------------------------- changing


@njit(cache=True, inline="always")
def move_coins(t, s, g, clause, card, owner, copies, payer, payee, boost):
    """The transfer rule of every coin action (:func:`machikoro.language.actions.
    move_coins`): ``payer`` pays ``payee`` (seats; -1 the bank) one copy's amount, read
    for the seat on the other side from the owner, plus ``boost``, times ``copies``;
    nothing moves unless a copy's coins are more than 0; a player pays what it has."""
    counterpart = payer if payee == owner else payee
    per = _amount(t, s, g, clause, card, owner,
                  owner if counterpart < 0 else counterpart) + boost
    if per <= 0:
        return
    owed = per * copies
    if payer < 0:
        s.coins[g, payee] += owed
        s.received[g, payee] += owed
        return
    paid = min(s.coins[g, payer], owed)
    s.coins[g, payer] -= paid
    if payee >= 0:
        s.coins[g, payee] += paid
        s.received[g, payee] += paid


@njit(cache=True, inline="always")
def _seat(role, owner, roller, chosen, other):
    """The seat a role stands for (-1: the bank)."""
    if role == OWNER:
        return owner
    if role == ROLLER:
        return roller
    if role == CHOSEN or role == POOREST or role == RICHEST:
        return chosen
    if role == OTHERS:
        return other
    return -1


@njit(cache=True, inline="always")
def _coins(t, s, g, clause, card, owner, copies, chosen):
    """A coin action, by its payer's and payee's roles (``chosen``: the seat a CHOSEN
    role answered); each other player in payment order for OTHERS."""
    payer_role, payee_role = t.clauses[clause, C_PAYER], t.clauses[clause, C_PAYEE]
    roller = s.ints[g, CUR]
    if payer_role == POOREST or payee_role == POOREST:
        chosen = _poorest(s.coins[g], t.order[owner], t.players)
        if chosen < 0:
            return False
    if (payer_role == ROLLER or payee_role == ROLLER) and roller == owner:
        return False  # the roller never pays itself
    if payer_role == RICHEST and t.players < 2:
        return False
    boost = _boost(t, s, g, card, owner) if t.clauses[clause, C_BOOSTED] else 0
    each = payer_role == OTHERS or payee_role == OTHERS
    holding, least = t.clauses[clause, C_HOLDING_OP], t.clauses[clause, C_HOLDING_N]
    times, per_time = 1, copies
    if (each or payer_role == RICHEST) and copies > 1 and t.clauses[clause, C_ONE_BY_ONE]:
        times, per_time = copies, 1  # each copy acts on the coins the one before left
    for _ in range(times):
        if payer_role == RICHEST:
            chosen = _richest(s.coins[g], t.order[owner], t.players)
        for j in range(t.players - 1 if each else 1):
            other = t.order[owner, 1 + j]
            payer = _seat(payer_role, owner, roller, chosen, other)
            if payer_role == OTHERS and holding >= 0 and \
                    not _quantity(holding, least, s.coins[g, payer]):
                continue
            move_coins(t, s, g, clause, card, owner, per_time, payer,
                       _seat(payee_role, owner, roller, chosen, other), boost)
    return True


# ---------------------------------------------------------------------------- cards moving


@njit(cache=True)
def _towns_changing(t, s, g, kind, seat, other):
    """A copy of ``kind`` is about to leave ``seat``'s town for ``other``'s (-1: the
    market, or nowhere): in the income step, the first change keeps the towns as they
    stood at the roll (on a total whose income reads them) and the moves are logged
    (:meth:`machikoro.engine.state_changes.StateChanges.towns_changing`)."""
    t, s = _borrowed(t), _borrowed(s)
    if s.ints[g, PHASE] != INCOME:
        return
    if not s.ints[g, MOVING]:
        total = s.ints[g, TOTAL]
        keep = total < t.towns_kept.shape[0] and t.towns_kept[total]
        if not keep and not t.follows_copies:
            return
        s.ints[g, MOVING] = 1
        s.ints[g, NMOVES] = 0
        if keep:
            s.seen[g] = s.towns[g]
            s.ints[g, SEEN] = 1
    n = s.ints[g, NMOVES]
    if n >= s.moves.shape[1]:
        raise RuntimeError("the compiled engine's log of an income step's moves is full")
    s.moves[g, n, 0] = kind
    s.moves[g, n, 1] = seat
    s.moves[g, n, 2] = other
    s.ints[g, NMOVES] = n + 1


@njit(cache=True)
def _activated_copies(t, s, g, owner, kind, copies):
    """Where ``copies`` copies of ``owner``'s ``kind`` that activated in this income step
    are now: copies per seat (:meth:`machikoro.engine.state_changes.StateChanges.
    activated_copies`: the moves followed from the roll, an open copy leaving before an
    activated one)."""
    t, s = _borrowed(t), _borrowed(s)
    tracked = np.zeros(t.players, dtype=np.int64)
    moved = False
    for i in range(s.ints[g, NMOVES] if s.ints[g, MOVING] else 0):
        moved = moved or s.moves[g, i, 0] == kind
    if not moved:
        tracked[owner] = copies
        return tracked
    count = np.empty(t.players, dtype=np.int64)
    for seat in range(t.players):
        count[seat] = s.towns[g, seat, kind]
    for i in range(s.ints[g, NMOVES]):  # back to the copies each town held at the roll
        if s.moves[g, i, 0] == kind:
            count[s.moves[g, i, 1]] += 1
            if s.moves[g, i, 2] >= 0:
                count[s.moves[g, i, 2]] -= 1
    tracked[owner] = min(copies, max(count[owner], 0))
    later = copies - tracked[owner]  # activated after they arrived (an Exhibit Hall)
    for i in range(s.ints[g, NMOVES]):
        if s.moves[g, i, 0] != kind:
            continue
        seat, other = s.moves[g, i, 1], s.moves[g, i, 2]
        if count[seat] <= tracked[seat]:  # only activated copies left there: one goes
            tracked[seat] -= 1
            if other >= 0:
                tracked[other] += 1
        count[seat] -= 1
        if other >= 0:
            count[other] += 1
    tracked[owner] += later
    return tracked


@njit(cache=True)
def _move_copy(t, s, g, seat, kind, other):
    """One copy of ``kind`` goes from ``seat``'s town to ``other``'s with its state: an
    unmarked copy when there is one (a closed card stays closed with its new owner), and
    its share of the coins on the kind."""
    t, s = _borrowed(t), _borrowed(s)
    _towns_changing(t, s, g, kind, seat, other)
    for m in t.blocking:
        if s.marks[g, m, seat, kind] >= s.towns[g, seat, kind]:
            s.marks[g, m, seat, kind] -= 1
            s.marks[g, m, other, kind] += 1
    for m in t.coin_markers:
        held = s.towns[g, seat, kind]
        share = s.marks[g, m, seat, kind] // held if held > 0 else 0
        s.marks[g, m, seat, kind] -= share
        s.marks[g, m, other, kind] += share
    s.towns[g, seat, kind] -= 1
    s.towns[g, other, kind] += 1


@njit(cache=True)
def _mark(t, s, g, m, seat, kind, copies):
    """Marker ``m`` on ``copies`` more of ``seat``'s ``kind`` (at most all its copies)."""
    t, s = _borrowed(t), _borrowed(s)
    s.marks[g, m, seat, kind] = min(s.towns[g, seat, kind], s.marks[g, m, seat, kind] + copies)


@njit(cache=True)
def _reopen(t, s, g, seat, kind, copies):
    """The copies of ``seat``'s ``kind`` that activate now: the closed ones lose their
    marker instead and give nothing."""
    t, s = _borrowed(t), _borrowed(s)
    for m in t.blocking:
        closed = s.marks[g, m, seat, kind]
        if closed:
            s.marks[g, m, seat, kind] = 0
            copies -= closed
    return max(copies, 0)


@njit(cache=True)
def _return_to_market(t, s, g, seat, kind, copies):
    """``copies`` of ``seat``'s ``kind`` go back to the market: onto its face-up pile, or
    under its row's deck when the kind is not face up; their markers go, and the coins on
    them to the bank (:meth:`machikoro.engine.market.MarketState.return_to_market`)."""
    t, s = _borrowed(t), _borrowed(s)
    before = s.towns[g, seat, kind]
    copies = min(copies, before)
    if copies <= 0:
        return
    for _ in range(copies):
        _towns_changing(t, s, g, kind, seat, NOBODY)
    s.towns[g, seat, kind] -= copies
    left = s.towns[g, seat, kind]
    for m in t.blocking:
        s.marks[g, m, seat, kind] = min(s.marks[g, m, seat, kind], left)
    for m in t.coin_markers:
        coins = s.marks[g, m, seat, kind]
        if coins and before > left:
            s.marks[g, m, seat, kind] = coins - coins // before * (before - left) if left \
                else 0
    r = t.deck_row[kind]
    if r < 0 or s.supply[g, kind] > 0:
        s.supply[g, kind] += copies
    else:
        size = max(t.row_size[r], 1)
        for _ in range(copies):
            s.deck_lo[g, r] -= 1
            s.decks[g, r, s.deck_lo[g, r] % size] = kind
    if t.upkeep:
        _market_changed(t, s, g)


@njit(cache=True, inline="always")
def _insert(s, g, card, owner, copies, clause, extra):
    """Queue an item to run next, after those inserted before it by the same step (an
    activated card's clauses, then the ``then`` steps)."""
    at, n = s.ints[g, QINS], s.ints[g, QLEN]
    if n >= s.queue.shape[1]:
        raise RuntimeError("the compiled engine's queue is full")
    for i in range(n, at, -1):
        for k in range(5):
            s.queue[g, i, k] = s.queue[g, i - 1, k]
    s.queue[g, at, 0] = card
    s.queue[g, at, 1] = owner
    s.queue[g, at, 2] = copies
    s.queue[g, at, 3] = clause
    s.queue[g, at, 4] = extra
    s.ints[g, QINS] = at + 1
    s.ints[g, QLEN] = n + 1


@njit(cache=True, inline="always")
def _card_at(t, s, g, clause, owner, k):
    """The cards a choice of one card offers ``owner`` (the owner's, or any for ``choose
    an establishment``), in index order: with ``k`` < 0 ``(their number, -1)``, else
    ``(k, the k-th card)``."""
    count = 0
    for c in range(t.cards):
        if not t.clause_cards[clause, c] or (t.clauses[clause, C_SCOPE] != tb.CHOOSE_KIND
                                             and s.towns[g, owner, c] <= 0):
            continue
        if count == k:
            return count, c
        count += 1
    return count, -1


@njit(cache=True)
def _card_choice(t, s, g, clause, card, owner, k):
    """A choice of one card (:func:`_card_at`): with ``k`` < 0 the number of cards, else
    act on the ``k``-th: unbuild it, name it (``it`` of the next steps), or activate it
    (its clauses run next, for its owner)."""
    t, s = _borrowed(t), _borrowed(s)
    count, c = _card_at(t, s, g, clause, owner, k)
    if c < 0:
        return count
    act = t.clauses[clause, C_SCOPE]
    if act == tb.UNBUILD:
        _towns_changing(t, s, g, c, owner, NOBODY)
        s.towns[g, owner, c] = 0
    elif act == tb.CHOOSE_KIND:
        s.ints[g, BOUND] = c
    else:
        copies = s.towns[g, owner, c]
        if t.blocking.shape[0]:
            copies = _reopen(t, s, g, owner, c, copies)
        for j in range(t.card_clauses.shape[1] if copies else 0):
            row = t.card_clauses[c, j]
            if row < 0:
                break
            for _ in range(copies if t.clauses[row, C_ASKS] else 1):
                _insert(s, g, c, owner, 1 if t.clauses[row, C_ASKS] else copies, row, 0)
    return count


@njit(cache=True)
def _mark_activated(t, s, g, m, owner, card, copies):
    """Marker ``m`` on the copies of ``owner``'s ``card`` that activated, wherever each is
    now (one back in the market is not marked)."""
    t, s = _borrowed(t), _borrowed(s)
    if not s.ints[g, MOVING]:
        _mark(t, s, g, m, owner, card, copies)
        return
    where = _activated_copies(t, s, g, owner, card, copies)
    for seat in range(t.players):
        if where[seat] > 0:
            _mark(t, s, g, m, seat, card, where[seat])


@njit(cache=True)
def _return_activated(t, s, g, owner, card, copies):
    """The activated copies of ``owner``'s ``card`` go back to the market, from the town
    where each is now."""
    t, s = _borrowed(t), _borrowed(s)
    if not s.ints[g, MOVING]:
        _return_to_market(t, s, g, owner, card, copies)
        return
    where = _activated_copies(t, s, g, owner, card, copies)
    for seat in range(t.players):
        if where[seat] > 0:
            _return_to_market(t, s, g, seat, card, where[seat])


@njit(cache=True, inline="always")
def _swap_fits(t, s, g, owner, give, other, take):
    gained = 0 if give == take else 1
    return (s.towns[g, owner, take] + gained <= t.limit[take]
            and s.towns[g, other, give] + gained <= t.limit[give])


@njit(cache=True, inline="always")
def _owned_of(t, s, g, clause, seat, out):
    """The kinds the clause names that ``seat`` owns, in index order, into ``out``;
    returns how many, negative when one of them has a limit (an unlimited kind's limit
    is 2**30 or more)."""
    n, limited = 0, False
    for c in range(t.cards):
        if t.clause_cards[clause, c] and s.towns[g, seat, c] > 0:
            out[n] = c
            n += 1
            limited = limited or t.limit[c] < (1 << 30)
    return -n if limited else n


@njit(cache=True)
def _swap_at(t, s, g, clause, owner, k):
    """The swaps of ``owner`` in the scalar engine's order (per other player in payment
    order, per card given, per card taken, within the limits): with ``k`` < 0 ``(their
    number, -1, -1, -1)``, else ``(k, give, other, take)`` of the ``k``-th. Where no
    kind of a pair of towns has a limit, every pair is a swap, counted (and the k-th
    found) without walking them."""
    t, s = _borrowed(t), _borrowed(s)
    gives = np.empty(t.cards, dtype=np.int64)
    takes = np.empty(t.cards, dtype=np.int64)
    n_give = _owned_of(t, s, g, clause, owner, gives)
    count = 0
    for j in range(1 if n_give else t.players, t.players):
        other = t.order[owner, j]
        n_take = _owned_of(t, s, g, clause, other, takes)
        if n_give > 0 and n_take >= 0:  # no limit to check
            pairs = n_give * n_take
            if 0 <= k - count < pairs:
                return k, gives[(k - count) // n_take], other, takes[(k - count) % n_take]
            count += pairs
            continue
        for a in range(abs(n_give)):
            give = gives[a]
            for b in range(abs(n_take)):
                take = takes[b]
                if (t.limit[take] < (1 << 30) or t.limit[give] < (1 << 30)) and \
                        not _swap_fits(t, s, g, owner, give, other, take):
                    continue
                if count == k:
                    return count, give, other, take
                count += 1
    return count, -1, -1, -1


@njit(cache=True)
def _swaps(t, s, g, clause, owner, k):
    """The swaps of ``owner`` (:func:`_swap_at`): with ``k`` < 0 their number, else make
    the ``k``-th."""
    t, s = _borrowed(t), _borrowed(s)
    count, give, other, take = _swap_at(t, s, g, clause, owner, k)
    if give >= 0:
        _move_copy(t, s, g, owner, give, other)
        _move_copy(t, s, g, other, take, owner)
    return count


@njit(cache=True)
def _give_at(t, s, g, clause, owner, k):
    """The gifts of ``owner`` in the scalar engine's order (per card given, per receiver:
    the previous player, or each other player in payment order, who may own one more):
    with ``k`` < 0 ``(their number, -1, -1)``, else ``(k, give, other)`` of the
    ``k``-th."""
    t, s = _borrowed(t), _borrowed(s)
    count = 0
    previous = t.clauses[clause, C_SCOPE] == 1
    for give in range(t.cards):
        if not t.clause_cards[clause, give] or s.towns[g, owner, give] <= 0:
            continue
        for j in range(1 if previous else t.players - 1):
            other = (owner - 1) % t.players if previous else t.order[owner, 1 + j]
            if other == owner or s.towns[g, other, give] + 1 > t.limit[give]:
                continue
            if count == k:
                return count, give, other
            count += 1
    return count, -1, -1


@njit(cache=True)
def _gives(t, s, g, clause, owner, k):
    """The gifts of ``owner`` (:func:`_give_at`): with ``k`` < 0 their number, else make
    the ``k``-th."""
    t, s = _borrowed(t), _borrowed(s)
    count, give, other = _give_at(t, s, g, clause, owner, k)
    if give >= 0:
        _move_copy(t, s, g, owner, give, other)
    return count


@njit(cache=True, inline="always")
def _options(t, s, g, clause, card, owner):
    """How many options the clause's decision offers ``owner`` now (0: it is not
    asked): ``may`` adds "no" first."""
    op = t.clauses[clause, C_OP]
    if op == tb.REROLL:  # no, yes (or the numbers of dice the owner may roll)
        if s.rerolled[g, card] == s.ints[g, TURN] + 1:
            return 0
        return 2 if t.reroll_same else 1 + _nth_count(t, _dice_offers(t, s, g, owner), -1)
    if t.clauses[clause, C_YES_NO]:  # "yes" only when the action can happen now
        return 1 if op == tb.PUT_COINS and s.coins[g, owner] < t.clauses[clause, C_N] \
            else 2
    optional = t.clauses[clause, C_OPTIONAL]
    if op == tb.SWAP:
        return _swaps(t, s, g, clause, owner, _COUNT) + optional
    if op == tb.GIVE:
        return _gives(t, s, g, clause, owner, _COUNT) + optional
    if op == tb.CARD_CHOICE:
        return _card_choice(t, s, g, clause, card, owner, _COUNT) + optional
    return t.players - 1 + optional  # a chosen player


@njit(cache=True, inline="always")
def _act(t, s, g, clause, card, owner, copies, answer):
    """Run the clause's action (``answer``: the option chosen when it asks, else -1);
    False when it did not happen (its ``then`` steps do not run)."""
    op = t.clauses[clause, C_OP]
    if op == tb.REROLL:
        if answer >= 1:  # roll again; the after roll hooks run again on the new roll
            if not t.reroll_same:
                s.ints[g, DICE_COUNT] = _nth_count(t, _dice_offers(t, s, g, owner),
                                                   answer - 1)
            s.rerolled[g, card] = s.ints[g, TURN] + 1
            _roll(t, s, g, s.ints[g, DICE_COUNT])
            _go(t, s, g, AFTER_ROLL)
        return answer >= 1
    if answer >= 0 and t.clauses[clause, C_OPTIONAL]:
        if answer == 0:
            return False  # declined
        answer = -1 if t.clauses[clause, C_YES_NO] else answer - 1
    if op == tb.COINS:
        return _coins(t, s, g, clause, card, owner, copies,
                      t.order[owner, 1 + answer] if answer >= 0 else -1)
    if op == tb.SWAP:
        _swaps(t, s, g, clause, owner, answer)
    elif op == tb.EXTRA_TURN:
        if owner != s.ints[g, CUR]:
            return False
        s.ints[g, EXTRA] = 1
    elif op == tb.ADD_TO_ROLL:
        s.ints[g, TOTAL] += t.clauses[clause, C_N]
    elif op == tb.GIVE:
        _gives(t, s, g, clause, owner, answer)
    elif op == tb.CARD_CHOICE:
        _card_choice(t, s, g, clause, card, owner, answer)
    elif op == tb.MARK:
        m = t.clauses[clause, C_MARKER]
        if not t.clauses[clause, C_SCOPE]:  # this card: the activated copies
            _mark_activated(t, s, g, m, owner, card, copies)
        elif s.ints[g, BOUND] < 0:
            return False
        else:  # every copy of the kind chosen, in every town
            for seat in range(t.players):
                _mark(t, s, g, m, seat, s.ints[g, BOUND], s.towns[g, seat, s.ints[g, BOUND]])
    elif op == tb.PUT_COINS:
        coins = t.clauses[clause, C_N] * copies
        if s.coins[g, owner] < coins:
            return False
        s.coins[g, owner] -= coins
        s.marks[g, t.clauses[clause, C_MARKER], owner, card] += coins
    elif op == tb.RETURN:
        _return_activated(t, s, g, owner, card, copies)
    elif op == tb.SHARE:  # pooled and shared out evenly, rounded up; the bank adds the rest
        total = 0
        for p in range(t.players):
            total += s.coins[g, p]
        each = -(-total // t.players)
        for p in range(t.players):
            s.received[g, p] += max(0, each - s.coins[g, p])
            s.coins[g, p] = each
    return True


@njit(cache=True, inline="always")
def _factorial(n):
    out = 1
    for k in range(2, n + 1):
        out *= k
    return out


@njit(cache=True, inline="always")
def _nth_order(t, s, g, i, k, out):
    """The kinds (card indices) the ``order`` decision of queue item ``i`` orders (its
    block's candidates named by the item's bits) into ``out``: in index order, or with
    ``k`` >= 0 in its ``k``-th order (as :func:`itertools.permutations` lists them: the
    index's digits in factorial base pick each next kind). Returns how many."""
    block, bits = s.queue[g, i, 3], s.queue[g, i, 4]
    kinds = np.empty(t.block_cards.shape[1], dtype=np.int64)
    left = 0
    for j in range(t.block_cards.shape[1]):
        if bits >> j & 1:
            kinds[left] = t.block_cards[block, j]
            left += 1
    for position in range(left):
        if k < 0:
            out[position] = kinds[position]
            continue
        f = _factorial(left - 1 - position)
        pick = k // f
        k %= f
        out[position] = kinds[pick]
        for j in range(pick, left - 1 - position):
            kinds[j] = kinds[j + 1]
    return left


@njit(cache=True)
def _order(t, s, g, i, k):
    """The ``order`` decision of queue item ``i`` (its clause: its block; its extra: the
    kinds to order, as bits of the block's candidates): with ``k`` < 0 its number of
    options (the orders of the kinds, as :func:`itertools.permutations` lists them), else
    sort the items after it (its copies) by the ``k``-th order, stably
    (:class:`machikoro.engine.ordering.Reorder`)."""
    t, s = _borrowed(t), _borrowed(s)
    kinds = np.empty(t.block_cards.shape[1], dtype=np.int64)
    left = _nth_order(t, s, g, i, k, kinds)
    if k < 0:
        return _factorial(left)
    rank = np.full(t.cards, -1, dtype=np.int64)
    for position in range(left):
        rank[kinds[position]] = position
    start, stop = i + 1, i + 1 + s.queue[g, i, 2]
    item = np.empty(5, dtype=np.int64)
    for a in range(start + 1, stop):  # a stable insertion sort by rank
        item[:] = s.queue[g, a]
        b = a
        while b > start and rank[s.queue[g, b - 1, 0]] > rank[item[0]]:
            s.queue[g, b] = s.queue[g, b - 1]
            b -= 1
        s.queue[g, b] = item
    return 0


# ---------------------------------------------------------------------------- the turn


@njit(cache=True, inline="always")
def _go(t, s, g, phase):
    """Go to ``phase``: its entry (a queue filled, a decision asked...) is made next; a
    hook phase no card of the rule set has is passed over (``Tables.landing``)."""
    s.ints[g, PHASE] = t.landing[phase]
    s.ints[g, ENTERING] = 1
    s.ints[g, QLEN] = 0


@njit(cache=True, inline="always")
def _push(t, s, g, n, card, owner, copies, clause):
    """Queue an item at ``n``: a clause that asks once per copy; returns the new end."""
    for _ in range(copies if t.clauses[clause, C_ASKS] else 1):
        s.queue[g, n, 0] = card
        s.queue[g, n, 1] = owner
        s.queue[g, n, 2] = 1 if t.clauses[clause, C_ASKS] else copies
        s.queue[g, n, 3] = clause
        s.queue[g, n, 4] = 0
        n += 1
    return n


@njit(cache=True)
def _to_order(t, s, g, block, owner):
    """The kinds of an order block that ``owner`` orders now (bits of its candidates):
    those it has whose order can change the result with another it has; 0 when fewer
    than two (:meth:`machikoro.engine.phases.TurnPhases._ask_order`)."""
    t, s = _borrowed(t), _borrowed(s)
    width = t.block_cards.shape[1]
    bits, count = 0, 0
    for j in range(width):
        c = t.block_cards[block, j]
        if c < 0 or s.towns[g, owner, c] <= 0:
            continue
        for k in range(width):
            o = t.block_cards[block, k]
            if k != j and o >= 0 and s.towns[g, owner, o] > 0 and t.conflicts[c, o]:
                bits |= 1 << j
                count += 1
                break
    return bits if count >= 2 else 0


@njit(cache=True, inline="always")
def _fill(t, s, g, phase):
    """Fill the queue of a hook phase (the current player's hooks of its trigger; a card
    built this turn only when the rules say it works on its build turn) or of the income
    (the roll's plan, for the owners, copies as they stand at the roll)."""
    p = s.ints[g, CUR]
    n = 0
    if phase == INCOME:
        total = s.ints[g, TOTAL]
        if total < t.plan_start.shape[0] and t.plan_start[total] >= 0:
            copies, mark = 0, -1
            for i in range(t.plan_start[total], t.plan_stop[total]):
                owner, card = t.order[p, t.items[i, 0]], t.items[i, 1]
                block = t.items[i, 4]
                if block >= 0 and i == t.blocks[block, 0]:
                    bits = _to_order(t, s, g, block, owner)
                    if bits:  # the owner orders its cards of this group first
                        s.queue[g, n, 0] = -1
                        s.queue[g, n, 1] = owner
                        s.queue[g, n, 3] = block
                        s.queue[g, n, 4] = bits
                        mark = n
                        n += 1
                if t.items[i, 3]:  # a card's first clause: its copies, closed ones reopen
                    copies = s.towns[g, owner, card]
                    if copies > 0 and t.blocking.shape[0]:
                        copies = _reopen(t, s, g, owner, card, copies)
                if copies > 0:
                    n = _push(t, s, g, n, card, owner, copies, t.items[i, 2])
                if mark >= 0 and i == t.blocks[block, 1] - 1:
                    s.queue[g, mark, 2] = n - mark - 1
                    mark = -1
    else:
        trigger = _HOOK_OF[phase]
        for h in range(t.hook_start[trigger], t.hook_stop[trigger]):
            card = t.hooks[h, 0]
            if phase == WHEN_BUILT:  # the card just built, one copy
                if card == s.ints[g, BUILT_CARD]:
                    n = _push(t, s, g, n, card, p, 1, t.hooks[h, 1])
                continue
            copies = s.towns[g, p, card]
            if copies <= 0 and t.shared[card] and _anyone_has(t, s, g, card):
                copies = 1  # in force for every player: one copy of the current player's
            if copies > 0 and (t.active_on_build_turn or
                               s.built[g, card] != s.ints[g, TURN] + 1):
                n = _push(t, s, g, n, card, p, copies, t.hooks[h, 1])
    s.ints[g, QLEN] = n
    s.ints[g, QPOS] = 0


@njit(cache=True, inline="always")
def _anyone_has(t, s, g, card):
    for p in range(t.players):
        if s.towns[g, p, card] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _costs_for(t, s, g, p):
    """What decides the costs to ``p`` now (:meth:`machikoro.engine.phases.TurnPhases.
    cost_to`): the tier of the victory landmarks ``p`` has built, and the cost changes
    in force for ``p`` (its own cards', or anyone's card in force for every player), as
    bits of ``discounts``."""
    built = 0
    for v in t.victory:
        if s.towns[g, p, v] > 0:
            built += 1
    force = 0
    for d in range(t.discounts.shape[0]):
        source = t.discounts[d, 0]
        if s.towns[g, p, source] > 0 or (t.discounts[d, 2] and _anyone_has(t, s, g, source)):
            force |= 1 << d
    return min(built, t.tiers.shape[1] - 1), force


@njit(cache=True, inline="always")
def _cost(t, card, tier, force):
    """What ``card`` costs at ``tier`` with the cost changes ``force`` in force
    (:func:`_costs_for`); a change never takes a cost below 0."""
    cost = t.tiers[card, tier]
    less, d = 0, 0
    while force:
        if force & 1 and t.discount_cards[d, card]:
            less += t.discounts[d, 1]
        force >>= 1
        d += 1
    return max(cost - less, min(cost, 0)) if less > 0 else cost - less


@njit(cache=True, inline="always")
def _dynamic_menu(t, s, g):
    """:func:`_build_menu` where costs and the menu depend on the builder and the game:
    the cards it may build now (the conditions on building them hold) and afford, by
    their cost now, then their index."""
    p = s.ints[g, CUR]
    coins = s.coins[g, p]
    found, costs = s.menu[g, 0], s.menu[g, 1]
    tier, force = _costs_for(t, s, g, p)
    count = 0
    for card in range(t.cards):
        if s.towns[g, p, card] >= t.limit[card] or (
                s.supply[g, card] <= 0 and t.in_market[card]):
            continue
        if t.build_if[card, 1] and not _holds(t, s, g, t.build_if[card, 0],
                                              t.build_if[card, 1], p):
            continue
        cost = _cost(t, card, tier, force)
        if cost > coins:
            continue
        at = count  # insertion by (cost, index): cards come in index order
        while at > 0 and costs[at - 1] > cost:
            found[at] = found[at - 1]
            costs[at] = costs[at - 1]
            at -= 1
        found[at] = card
        costs[at] = cost
        count += 1
    return count


@njit(cache=True, inline="always")
def _build_menu(t, s, g):
    """Make the current player's build menu (cards under their limit, with a pile left or
    without a pile, affordable, by cost) in ``State.menu``: option ``k`` >= 1 is card
    ``menu[g, 0, k - 1]`` at cost ``menu[g, 1, k - 1]``. Returns its size."""
    if t.dynamic:
        return _dynamic_menu(t, s, g)
    p = s.ints[g, CUR]
    count = 0
    for m in range(t.afford[min(s.coins[g, p], t.afford.shape[0] - 1)]):
        card = t.by_cost[m]
        if s.towns[g, p, card] < t.limit[card] and (s.supply[g, card] > 0
                                                    or not t.in_market[card]):
            s.menu[g, 0, count] = card
            s.menu[g, 1, count] = t.cost[card]
            count += 1
    return count


@njit(cache=True, inline="always")
def _ask(s, g, kind, player, count):
    s.ints[g, PENDING] = kind
    s.ints[g, PLAYER] = player
    s.ints[g, COUNT] = count


@njit(cache=True, inline="always")
def _has_won(t, s, g, p):
    for v in t.at_once:
        if s.towns[g, p, v] > 0:
            return True
    built = 0
    for v in t.victory:
        if s.towns[g, p, v] > 0:
            built += 1
    return built >= t.victory_count


@njit(cache=True, inline="always")
def _buildable(t, s, g, card):
    """Some player may still own one more ``card`` (its limit)."""
    for p in range(t.players):
        if s.towns[g, p, card] < t.limit[card]:
            return True
    return False


@njit(cache=True)
def _market_changed(t, s, g):
    """After a card left or joined the market: retire what nobody may build (when the
    rules say so), then reveal from each row's deck until it shows its kinds
    (:meth:`machikoro.engine.market.MarketState.market_changed`)."""
    t, s = _borrowed(t), _borrowed(s)
    for r in range(t.row_kinds.shape[0]):
        shown = 0
        for c in range(t.cards):
            if t.row_cards[r, c] and s.supply[g, c] > 0:
                if t.retire and not _buildable(t, s, g, c):
                    s.supply[g, c] = 0
                else:
                    shown += 1
        size = max(t.row_size[r], 1)
        while shown < t.row_kinds[r] and s.deck_hi[g, r] > s.deck_lo[g, r]:
            s.deck_hi[g, r] -= 1
            card = s.decks[g, r, s.deck_hi[g, r] % size]
            if t.retire and not _buildable(t, s, g, card):
                continue  # nobody may build it: it leaves the game
            if s.supply[g, card] == 0:
                shown += 1
            s.supply[g, card] += 1


@njit(cache=True)
def _setup_market(t, s, g):
    """Shuffle each market row's deck with the game's stream (a random key per card,
    sorted: a card's place is the rank of its key), take its cards off the market, and
    reveal."""
    t, s = _borrowed(t), _borrowed(s)
    for r in range(t.row_kinds.shape[0]):
        size = t.row_size[r]
        keys = np.empty(size, dtype=np.uint64)
        for j in range(size):
            keys[j] = _bits(s.dice_keys, s.dice_counters, g)
        order = np.argsort(keys)
        for j in range(size):
            s.decks[g, r, j] = t.row_deck[r, order[j]]
        s.deck_lo[g, r] = 0
        s.deck_hi[g, r] = size
        for c in range(t.cards):
            if t.row_cards[r, c]:
                s.supply[g, c] = 0
    _market_changed(t, s, g)


@njit(cache=True, inline="always")
def _answer(t, s, g, k):
    """Apply option ``k`` of the pending decision: the dice (then the roll), a build (or
    none), or a clause's (walked again with its answer)."""
    kind = s.ints[g, PENDING]
    s.ints[g, PENDING] = NONE
    p = s.ints[g, CUR]
    if kind == DICE_DECISION:
        count = _nth_count(t, _dice_offers(t, s, g, p), k)
        s.ints[g, DICE_COUNT] = count
        _roll(t, s, g, count)
        _go(t, s, g, AFTER_ROLL)
    elif kind == CLAUSE_DECISION:
        s.ints[g, ANSWER] = k
        s.ints[g, QPOS] = s.ints[g, ITEM]
    elif k == 0:  # build nothing
        _go(t, s, g, END)
    else:
        card = s.menu[g, 0, k - 1]  # (the menu made when the decision was asked)
        s.coins[g, p] -= s.menu[g, 1, k - 1]
        s.towns[g, p, card] += 1
        if t.in_market[card]:
            s.supply[g, card] -= 1
            if t.upkeep:
                _market_changed(t, s, g)
        s.built[g, card] = s.ints[g, TURN] + 1
        s.ints[g, BUILDS_LEFT] -= 1
        if s.builds.shape[1] > 1:  # (run() and the caller keep a place free)
            logged = s.ints[g, NBUILDS]
            s.builds[g, logged, 0] = s.ints[g, TURN] + 1
            s.builds[g, logged, 1] = p
            s.builds[g, logged, 2] = card
            s.ints[g, NBUILDS] = logged + 1
        if t.landmark[card] and _has_won(t, s, g, p):
            s.ints[g, WINNER] = p
            s.ints[g, TURN] += 1  # the winning turn ends here, and counts as played
            s.ints[g, PHASE] = OVER
        elif t.hook_stop[5] > t.hook_start[5]:  # its 'when built' clauses, then on
            s.ints[g, BUILT_CARD] = card
            _go(t, s, g, WHEN_BUILT)
        else:
            _go(t, s, g, BUILD_AGAIN)  # another build if the rules allow one, else the end


@njit(cache=True, inline="always")
def _enter(t, s, g, phase):
    """The entry of ``phase``: the turn's start, the dice, the build decision, or a
    queue filled. True when the game goes on to walk the queue."""
    s.ints[g, ENTERING] = 0
    p = s.ints[g, CUR]
    if phase == SETUP:
        _setup_market(t, s, g)
        _go(t, s, g, START)
        return False
    if phase == START:  # (a card's reroll used and its build are stamped with the turn)
        s.ints[g, EXTRA] = 0
        s.ints[g, BOUND] = -1
        for seat in range(t.players):
            s.received[g, seat] = 0
        if s.ints[g, TURN] - s.ints[g, EXTRAS] < t.build_only_rounds * t.players:
            s.ints[g, NDICE] = 0  # an opening round's turn: no roll, no income
            s.ints[g, TOTAL] = 0
            _go(t, s, g, BEFORE_BUILD)
            return False
        _go(t, s, g, BEFORE_ROLL)
        return False
    if phase == DICE:
        offers = _dice_offers(t, s, g, p)
        if offers & (offers - 1):  # two counts or more: the roller chooses
            _ask(s, g, DICE_DECISION, p, _nth_count(t, offers, -1))
            return False
        count = _nth_count(t, offers, 0)
        s.ints[g, DICE_COUNT] = count
        _roll(t, s, g, count)
        _go(t, s, g, AFTER_ROLL)
        return False
    if phase == BUILD or phase == BUILD_AGAIN:
        if phase == BUILD:
            s.ints[g, BUILDS_LEFT] = t.builds_per_turn
        if s.ints[g, BUILDS_LEFT] > 0:
            _ask(s, g, BUILD_DECISION, p, 1 + _build_menu(t, s, g))
        else:
            _go(t, s, g, END)
        return False
    if phase == AFTER_INCOME:  # the income step is over: the towns are read as they are
        s.ints[g, SEEN] = 0
        s.ints[g, MOVING] = 0
    _fill(t, s, g, phase)
    return True


@njit(cache=True, inline="always")
def _walk(t, s, g):
    """Walk the queue from its position, until it ends, a decision is asked, or an
    action moves the game to another phase (a reroll). An item that happened inserts its
    ``then`` steps to run next."""
    while s.ints[g, QPOS] < s.ints[g, QLEN] and not s.ints[g, ENTERING]:
        i = s.ints[g, QPOS]
        s.ints[g, QPOS] = i + 1
        card, owner, clause = s.queue[g, i, 0], s.queue[g, i, 1], s.queue[g, i, 3]
        answer = s.ints[g, ANSWER]
        s.ints[g, ANSWER] = -1
        if card < 0:  # an order decision
            if answer < 0:
                s.ints[g, ITEM] = i
                _ask(s, g, CLAUSE_DECISION, owner, _order(t, s, g, i, _COUNT))
                return
            _order(t, s, g, i, answer)
            continue
        if answer < 0:
            if t.clauses[clause, C_COND_COUNT] and not _holds(
                    t, s, g, t.clauses[clause, C_COND_START], t.clauses[clause, C_COND_COUNT],
                    owner):
                continue
            if t.clauses[clause, C_ASKS]:
                count = _options(t, s, g, clause, card, owner)
                if count > 0:
                    s.ints[g, ITEM] = i
                    _ask(s, g, CLAUSE_DECISION, owner, count)
                    return
                continue
        s.ints[g, QINS] = i + 1
        copies = s.queue[g, i, 2]
        if _act(t, s, g, clause, card, owner, copies, answer) and \
                t.clauses[clause, C_REST] >= 0:
            _insert(s, g, card, owner, copies, t.clauses[clause, C_REST], 0)


@njit(cache=True)
def _play_on(t, s, g, k, mode):
    """Game ``g``'s part of :func:`run`: apply option ``k`` of its pending decision (none
    pending: ``k`` is not read), then play on until a decision is pending or the game is
    over (with :data:`TO_ROLL`, or the turn's dice are next: a look-ahead copy that draws
    no dice, the expert's afterstate); with :data:`RANDOM`, on to its end, each decision
    answered from the deciding seat's stream; with :data:`UNTIL` + a seat, each other
    seat's decision answered so, until that seat's decision waits (``k`` >= 0 answers the
    one waiting at the call; < 0 leaves it waiting). A game whose log of builds is full stops
    before its next step; a game held (``HELD``, see ``HOLD_TURN``) makes none. The one
    function the turn's code is compiled into (a function
    of its own, not inlined into :func:`run`: Numba inlines by copying the callee's code,
    which took a minute of the first compile for this function)."""
    t, s = _borrowed(t), _borrowed(s)
    logs = s.builds.shape[1]
    random, at_roll = mode == RANDOM or mode >= UNTIL, mode == TO_ROLL
    seat = mode - UNTIL if mode >= UNTIL else NOBODY  # (the seat whose decision stops)
    while True:
        if (logs > 1 and s.ints[g, NBUILDS] >= logs) or s.ints[g, HELD]:
            return
        if random:
            if s.ints[g, PHASE] == OVER:
                return
            if s.ints[g, PENDING] != NONE:
                if s.ints[g, PLAYER] == seat:
                    if k < 0:
                        return
                else:
                    k = _below(s.agent_keys, s.agent_counters,
                               g * t.players + s.ints[g, PLAYER], s.ints[g, COUNT])
        if s.ints[g, PENDING] != NONE:
            _answer(t, s, g, k)
            k = NOBODY  # (the answer given is used)
        while s.ints[g, PENDING] == NONE and s.ints[g, PHASE] != OVER:
            phase = s.ints[g, PHASE]
            if at_roll and phase == DICE and s.ints[g, ENTERING]:
                return
            if s.ints[g, ENTERING] and not _enter(t, s, g, phase):
                continue
            _walk(t, s, g)
            if s.ints[g, PENDING] != NONE or s.ints[g, ENTERING]:
                continue
            if phase != END:  # the queue is done: the next phase
                _go(t, s, g, NEXT[phase])
                continue
            s.ints[g, TURN] += 1  # the turn ends
            ended = s.ints[g, CUR]
            if s.ints[g, EXTRA]:
                s.ints[g, EXTRAS] += 1
            else:
                s.ints[g, CUR] = (ended + 1) % t.players
            if 0 < s.ints[g, MAX_TURNS] <= s.ints[g, TURN]:
                s.ints[g, PHASE] = OVER
            else:
                _go(t, s, g, START)
                if 0 < s.ints[g, HOLD_TURN] <= s.ints[g, TURN] and \
                        (ended == s.ints[g, HOLD_SEAT] or s.ints[g, HOLD_SEAT] < 0):
                    s.ints[g, HELD] = 1  # (held between two turns: see HOLD_TURN)
                    return
        if not random:
            return


def start(ints: np.ndarray, max_turns: int | None) -> None:
    """Set new games' numbers (``ints``, a :class:`State`'s) to the start of the first
    player's first turn, before its entry: :func:`run` plays them on from there."""
    ints[:] = 0
    ints[:, WINNER] = -1
    ints[:, PENDING] = NONE
    ints[:, ANSWER] = -1
    ints[:, ENTERING] = 1
    ints[:, PHASE] = SETUP
    ints[:, MAX_TURNS] = 0 if max_turns is None else max_turns


STEP, RANDOM, TO_ROLL, UNTIL = 0, 1, 2, 3
""":func:`run`'s modes: a step of each game, each game to its end with random agents, a
step that stops before the next throw of the turn's dice (a look-ahead copy); ``UNTIL +
seat``: random agents in the other seats until ``seat``'s decision waits (a learner's)."""


@njit(cache=True)
def run(t, s, games, answers, mode):
    """The compiled engine's one entry point. For each game of ``games`` (an index
    array): with ``mode`` :data:`RANDOM`, play it to its end with random agents (each
    decision's option ``floor(u * count)``, ``u`` from the deciding seat's stream); else
    apply ``answers[g]`` to its pending decision (none pending: nothing) and play on to
    its next decision or its end (:data:`TO_ROLL`: or to the turn's dice, not thrown;
    :data:`UNTIL` + a seat: or on to that seat's next decision, random agents answering
    the others', ``answers[g]`` < 0 answering nothing). A
    game whose log of builds is full stops before its next step (its caller reads the log
    and runs it again): a step makes one build at most."""
    t, s = _borrowed(t), _borrowed(s)
    for g in games:
        _play_on(t, s, g, answers[g], mode)
