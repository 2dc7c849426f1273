"""The compiled engine's per-game code: one game's turn, written as the scalar engine
(:mod:`machikoro.engine.phases`) writes it, over the plain arrays of a
:class:`~machikoro.compiled.tables.Tables` and a :class:`State`, compiled by Numba.

A game runs by itself until its player must choose (:func:`advance`), then waits with its
decision's kind, player and number of options in ``State.ints``; :func:`answer` applies
option ``k`` (the position of the answer in the scalar engine's ``Decision.options``).
The turn, as the scalar engine's::

    start -> before roll hooks -> dice (decision) -> roll -> after roll hooks (reroll) ->
    income (the roll's plan) -> after income hooks -> before build hooks -> build
    (decision) -> at end of turn hooks -> next player (or an extra turn)

Hooks and the income step fill the game's queue (``State.queue``: card, owner, copies,
clause), which :func:`run_queue` walks in order; a clause that asks stops it until the
answer. A coin action is one transfer rule (:func:`move_coins`) for every pair of roles.

Randomness is the batched engine's counter-based generator (:mod:`machikoro.vector.rng`),
bit for bit: a game's rolls come from its own stream, a random agent's answers from its
seat's; a seed gives the same games here and there.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.experimental import structref
from numba.extending import intrinsic

from . import tables as tb

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_ONE = np.uint64(1)
_LOW32 = np.uint64(0xFFFFFFFF)
_UNIT = 2.0 ** -53

# State.ints columns
(CUR, TURN, PHASE, NDICE, TOTAL, DICE_COUNT, EXTRA, EXTRAS, BUILDS_LEFT, WINNER, QLEN,
 QPOS, PENDING, PLAYER, COUNT, ITEM, MAX_TURNS) = range(17)
INTS = 17

# phases (PHASE); the queue phases walk State.queue
(START, BEFORE_ROLL, DICE, AFTER_ROLL, INCOME, AFTER_INCOME, BEFORE_BUILD, BUILD, END,
 OVER) = range(10)
_HOOK_OF = (-1, 0, -1, 1, -1, 4, 2, -1, 3, -1)
"""Per phase, its trigger's index in TRIGGERS (before_roll, after_roll, before_build,
end_of_turn, after_income, when_built), -1: not a hook phase."""

# pending decision kinds (PENDING)
NONE, BUILD_DECISION, DICE_DECISION, CLAUSE_DECISION = -1, 0, 1, 2

# clause columns
(C_OP, C_PAYER, C_PAYEE, C_BOOSTED, C_AMOUNT, C_N, C_SCOPE, C_ASKS, C_OPTIONAL,
 C_COND_START, C_COND_COUNT, C_HOLDING_OP, C_HOLDING_N) = range(len(tb.CLAUSE_FIELDS))
BANK, OWNER, ROLLER, OTHERS, CHOSEN = 0, 1, 2, 3, 5


STATE_FIELDS = ("ints", "coins", "towns", "supply", "dice", "rerolled", "built", "queue",
                "dice_keys", "dice_counters", "agent_keys", "agent_counters")
"""The arrays of :class:`State`."""


class _Record(types.StructRef):
    """The Numba types of :class:`Tables` and :class:`State`: records passed by reference
    (a named tuple of this many arrays would be copied at every call)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


@structref.register
class _TablesType(_Record):
    pass


@structref.register
class _StateType(_Record):
    pass


class Tables(structref.StructRefProxy):
    """The compiled engine's view of :class:`machikoro.compiled.tables.Tables` (the same
    fields), made by :func:`tables_of`."""


class State(structref.StructRefProxy):
    """N games' state: ``ints`` (N, :data:`INTS`) the per-game numbers (current seat,
    turn, phase...), ``coins`` (N, P), ``towns`` (N, P, cards) copies owned, ``supply``
    (N, cards) the market's piles, ``dice`` (N, most dice) the faces, ``rerolled`` and
    ``built`` (N, cards) a card's reroll used and built this turn, ``queue`` (N, size, 4)
    the walk under way, the generator's ``keys`` and ``counters`` of each game's dice
    (N) and each seat's agent (N * P)."""


structref.define_proxy(Tables, _TablesType, list(tb.Tables._fields))
structref.define_proxy(State, _StateType, list(STATE_FIELDS))


@intrinsic
def _borrowed(typingctx, fields):
    """``fields`` (a tuple) with its arrays holding no reference to their memory: the
    records' arrays are read at every step of a game, and counting references to them
    there was most of the time. The caller keeps the arrays alive while the record is in
    use (:class:`~machikoro.compiled.games.CompiledGames` holds them)."""
    def codegen(context, builder, signature, args):
        value = args[0]
        for i, member in enumerate(fields.types):
            if isinstance(member, types.Array):
                array = context.make_array(member)(context, builder,
                                                   value=builder.extract_value(value, i))
                array.meminfo = cgutils.get_null_value(array.meminfo.type)
                array.parent = cgutils.get_null_value(array.parent.type)
                value = builder.insert_value(value, array._getvalue(), i)
        return value
    return fields(fields), codegen


@njit(cache=True)
def _tables(fields):
    return Tables(*_borrowed(fields))


@njit(cache=True)
def _state(fields):
    return State(*_borrowed(fields))


def tables_of(tables: tb.Tables) -> Tables:
    """The compiled engine's :class:`Tables` of encoded ``tables`` (whose arrays the
    caller keeps)."""
    return _tables(tuple(tables))


def state_of(arrays: dict) -> State:
    """The compiled engine's :class:`State` of ``arrays`` (:data:`STATE_FIELDS`, which the
    caller keeps)."""
    return _state(tuple(arrays[name] for name in STATE_FIELDS))


# ---------------------------------------------------------------------------- randomness


@njit(cache=True, inline="always")
def mix(z):
    """SplitMix64's finaliser (wrapping ``uint64`` arithmetic)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def stream_keys(seeds) -> np.ndarray:
    """The keys of the streams seeded by ``seeds`` (whole numbers >= 0, each reduced mod
    2**64): ``mix(seed + GOLDEN)``, as :class:`machikoro.vector.rng.Streams` makes them."""
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
def _roll(t, s, g, count):
    """Roll ``count`` dice in game ``g``: two dice a draw (its low and high 32 bits)."""
    sides = np.uint64(t.faces)
    total = 0
    for d in range(0, count, 2):
        bits = _bits(s.dice_keys, s.dice_counters, g)
        face = np.int64(((bits & _LOW32) * sides) >> np.uint64(32)) + 1
        s.dice[g, d] = face
        total += face
        if d + 1 < count:
            face = np.int64(((bits >> np.uint64(32)) * sides) >> np.uint64(32)) + 1
            s.dice[g, d + 1] = face
            total += face
    s.ints[g, NDICE] = count
    s.ints[g, TOTAL] = total


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
def _holds(t, s, g, clause, owner):
    """The clause's conditions (all of them) hold for ``owner``."""
    first = t.clauses[clause, C_COND_START]
    for c in range(first, first + t.clauses[clause, C_COND_COUNT]):
        op, roller, qop, n = (t.conditions[c, 0], t.conditions[c, 1], t.conditions[c, 2],
                              t.conditions[c, 3])
        if op == tb.DOUBLES:
            ok = _doubles(s, g)
        elif op == tb.BUILT_NOTHING:
            ok = True
            for card in range(t.cards):
                if s.built[g, card]:
                    ok = False
        elif op == tb.ROLL_IS:
            ok = _quantity(qop, n, s.ints[g, TOTAL])
        elif op == tb.ROLLED_DICE:
            ok = _quantity(qop, n, s.ints[g, NDICE])
        else:
            seat = s.ints[g, CUR] if roller else owner
            if op == tb.HAS_COINS:
                ok = _quantity(qop, n, s.coins[g, seat])
            else:
                count = 0
                for card in range(t.cards):
                    if t.condition_cards[c, card]:
                        if op == tb.HAS_CARD or op == tb.HAS_LANDMARKS:
                            count += s.towns[g, seat, card] > 0
                        else:
                            count += s.towns[g, seat, card]
                ok = count > 0 if op == tb.HAS_CARD else _quantity(qop, n, count)
        if not ok:
            return False
    return True


@njit(cache=True, inline="always")
def _amount(t, s, g, clause, owner, payer):
    """One copy's coins of the clause's amount, read for ``payer``."""
    n = t.clauses[clause, C_N]
    if t.clauses[clause, C_AMOUNT] == tb.FIXED:
        return n
    scope = t.clauses[clause, C_SCOPE]
    count = 0
    for card in range(t.cards):
        if t.clause_cards[clause, card]:
            if scope == 1:
                for seat in range(t.players):
                    count += s.towns[g, seat, card]
            else:
                count += s.towns[g, payer if scope == 2 else owner, card]
    return n * count


@njit(cache=True, inline="always")
def _boost(t, s, g, card, owner):
    more = 0
    for k in range(t.boost_source.shape[1]):
        source = t.boost_source[card, k]
        if source >= 0:
            if s.towns[g, owner, source] > 0:
                more += t.boost_more[card, k]
        elif source > -(1 << 39):
            for seat in range(t.players):
                if s.towns[g, seat, ~source] > 0:
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
    per = _amount(t, s, g, clause, owner, owner if counterpart < 0 else counterpart) + boost
    if per <= 0:
        return
    owed = per * copies
    if payer < 0:
        s.coins[g, payee] += owed
        return
    have = s.coins[g, payer]
    paid = min(have, owed)
    s.coins[g, payer] = have - paid
    if payee >= 0:
        s.coins[g, payee] += paid


@njit(cache=True, inline="always")
def _coin_action(t, s, g, clause, card, owner, copies, chosen):
    """A coin action by its roles (``chosen``: the seat a CHOSEN role answered). False
    when it did not happen."""
    payer_role, payee_role = t.clauses[clause, C_PAYER], t.clauses[clause, C_PAYEE]
    boost = _boost(t, s, g, card, owner) if t.clauses[clause, C_BOOSTED] else 0
    roller = s.ints[g, CUR]
    if payer_role == OTHERS or payee_role == OTHERS:
        hop, hn = t.clauses[clause, C_HOLDING_OP], t.clauses[clause, C_HOLDING_N]
        for k in range(1, t.players):
            other = t.order[owner, k]
            if payer_role == OTHERS:
                if hop < 0 or _quantity(hop, hn, s.coins[g, other]):
                    move_coins(t, s, g, clause, card, owner, copies, other, owner, boost)
            else:
                move_coins(t, s, g, clause, card, owner, copies, owner, other, boost)
        return True
    payer = _seat(payer_role, owner, roller, chosen)
    payee = _seat(payee_role, owner, roller, chosen)
    if (payer_role == ROLLER or payee_role == ROLLER) and roller == owner:
        return False
    move_coins(t, s, g, clause, card, owner, copies, payer, payee, boost)
    return True


@njit(cache=True, inline="always")
def _seat(role, owner, roller, chosen):
    if role == OWNER:
        return owner
    if role == ROLLER:
        return roller
    if role == CHOSEN:
        return chosen
    return -1


@njit(cache=True, inline="always")
def _run(t, s, g, clause, card, owner, copies):
    """Run a plain clause's action; False when it did not happen."""
    op = t.clauses[clause, C_OP]
    if op == tb.COINS:
        return _coin_action(t, s, g, clause, card, owner, copies, -1)
    if op == tb.EXTRA_TURN:
        if owner != s.ints[g, CUR]:
            return False
        s.ints[g, EXTRA] = 1
        return True
    return True


# ---------------------------------------------------------------------------- choices


@njit(cache=True, inline="always")
def _swap_fits(t, s, g, owner, give, other, take):
    gained = 0 if give == take else 1
    return (s.towns[g, owner, take] + gained <= t.limit[take]
            and s.towns[g, other, give] + gained <= t.limit[give])


@njit(cache=True)
def _swap_option(t, s, g, clause, owner, k, apply):
    """The swaps of ``owner`` in the scalar engine's order (None first with ``may``; per
    other player in payment order, per card given, per card taken): their number, or
    with ``apply`` make the ``k``-th (0: the first after None)."""
    count = 0
    for j in range(1, t.players):
        other = t.order[owner, j]
        for give in range(t.cards):
            if not t.clause_cards[clause, give] or s.towns[g, owner, give] <= 0:
                continue
            for take in range(t.cards):
                if not t.clause_cards[clause, take] or s.towns[g, other, take] <= 0:
                    continue
                if (t.limit[take] < (1 << 30) or t.limit[give] < (1 << 30)) and \
                        not _swap_fits(t, s, g, owner, give, other, take):
                    continue
                if apply and count == k:
                    s.towns[g, owner, give] -= 1
                    s.towns[g, other, give] += 1
                    s.towns[g, other, take] -= 1
                    s.towns[g, owner, take] += 1
                    return count
                count += 1
    return count


@njit(cache=True)
def _options(t, s, g, clause, card, owner):
    """How many options the clause's decision offers ``owner`` now (0: it cannot be
    asked)."""
    op = t.clauses[clause, C_OP]
    optional = t.clauses[clause, C_OPTIONAL]
    if op == tb.REROLL:
        return 0 if s.rerolled[g, card] else 2
    if op == tb.SWAP:
        count = _swap_option(t, s, g, clause, owner, 0, False)
        return count + optional if count else optional
    return t.players - 1 + optional  # a chosen player


@njit(cache=True)
def _resolve(t, s, g, clause, card, owner, k):
    """Apply option ``k`` of the clause's decision."""
    op = t.clauses[clause, C_OP]
    optional = t.clauses[clause, C_OPTIONAL]
    if op == tb.REROLL:
        if k == 1:
            s.rerolled[g, card] = True
            _roll(t, s, g, s.ints[g, DICE_COUNT])
            _queue_hooks(t, s, g, 1)
        return
    if optional:
        if k == 0:
            return
        k -= 1
    if op == tb.SWAP:
        _swap_option(t, s, g, clause, owner, k, True)
        return
    _coin_action(t, s, g, clause, card, owner, 1, t.order[owner, 1 + k])


# ---------------------------------------------------------------------------- the turn


@njit(cache=True, inline="always")
def _queue_hooks(t, s, g, trigger):
    """Queue the current player's hooks of ``trigger``: one per copy for a hook that
    asks, one for all copies otherwise; a card built this turn only when the rules say
    it works on its build turn."""
    p = s.ints[g, CUR]
    n = 0
    for h in range(t.hook_start[trigger], t.hook_stop[trigger]):
        card, clause = t.hooks[h, 0], t.hooks[h, 1]
        copies = s.towns[g, p, card]
        if copies <= 0 or (s.built[g, card] and not t.active_on_build_turn):
            continue
        n = _push(t, s, g, n, card, p, copies, clause)
    s.ints[g, QLEN] = n
    s.ints[g, QPOS] = 0


@njit(cache=True, inline="always")
def _put(s, g, n, card, owner, copies, clause):
    s.queue[g, n, 0] = card
    s.queue[g, n, 1] = owner
    s.queue[g, n, 2] = copies
    s.queue[g, n, 3] = clause


@njit(cache=True, inline="always")
def _push(t, s, g, n, card, owner, copies, clause):
    if t.clauses[clause, C_ASKS]:
        for _ in range(copies):
            _put(s, g, n, card, owner, 1, clause)
            n += 1
    else:
        _put(s, g, n, card, owner, copies, clause)
        n += 1
    return n


@njit(cache=True, inline="always")
def _queue_income(t, s, g):
    """Queue the roll's income: its plan's items for their owners, copies as they stand
    at the roll."""
    total = s.ints[g, TOTAL]
    n = 0
    if total < t.plan_start.shape[0] and t.plan_start[total] >= 0:
        roller = s.ints[g, CUR]
        for i in range(t.plan_start[total], t.plan_stop[total]):
            owner = t.order[roller, t.items[i, 0]]
            card, clause = t.items[i, 1], t.items[i, 2]
            copies = s.towns[g, owner, card]
            if copies > 0:
                n = _push(t, s, g, n, card, owner, copies, clause)
    s.ints[g, QLEN] = n
    s.ints[g, QPOS] = 0


@njit(cache=True)
def _run_queue(t, s, g):
    """Walk the queue from its position; True when a decision is now pending."""
    while s.ints[g, QPOS] < s.ints[g, QLEN]:
        i = s.ints[g, QPOS]
        s.ints[g, QPOS] = i + 1
        card, owner, copies, clause = (s.queue[g, i, 0], s.queue[g, i, 1],
                                       s.queue[g, i, 2], s.queue[g, i, 3])
        if t.clauses[clause, C_COND_COUNT] and not _holds(t, s, g, clause, owner):
            continue
        if t.clauses[clause, C_ASKS]:
            count = _options(t, s, g, clause, card, owner)
            if count <= 0:
                continue
            s.ints[g, PENDING] = CLAUSE_DECISION
            s.ints[g, PLAYER] = owner
            s.ints[g, COUNT] = count
            s.ints[g, ITEM] = i
            return True
        _run(t, s, g, clause, card, owner, copies)
    return False


@njit(cache=True, inline="always")
def _build_options(t, s, g, k):
    """The current player's build menu (cards under their limit, with a pile left or
    without a pile, affordable, by cost): its size, or the card of option ``k`` >= 1."""
    p = s.ints[g, CUR]
    coins = s.coins[g, p]
    count = 0
    for m in range(t.by_cost.shape[0]):
        card = t.by_cost[m]
        if t.cost[card] > coins:
            break
        if s.towns[g, p, card] < t.limit[card] and (s.supply[g, card] > 0
                                                    or not t.in_market[card]):
            count += 1
            if count == k:
                return card
    return count


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


@njit(cache=True)
def _enter(t, s, g, phase):
    """Go to ``phase``: fill its queue (a hook or income phase), make its decision
    pending, or play it (start of turn, end of turn)."""
    while True:
        s.ints[g, PHASE] = phase
        if phase == START:
            for c in range(t.cards):
                s.rerolled[g, c] = False
                s.built[g, c] = False
            s.ints[g, EXTRA] = 0
            phase = BEFORE_ROLL
            continue
        if phase == DICE:
            p = s.ints[g, CUR]
            if t.dice_card >= 0 and s.towns[g, p, t.dice_card] > 0 and \
                    t.dice_choice.shape[0] > 1:
                s.ints[g, PENDING] = DICE_DECISION
                s.ints[g, PLAYER] = p
                s.ints[g, COUNT] = t.dice_choice.shape[0]
                return
            count = t.dice_count
            if t.dice_card >= 0 and s.towns[g, p, t.dice_card] > 0:
                count = t.dice_choice[0]
            s.ints[g, DICE_COUNT] = count
            _roll(t, s, g, count)
            phase = AFTER_ROLL
            continue
        if phase == INCOME:
            _queue_income(t, s, g)
            return
        if phase == BUILD:
            s.ints[g, BUILDS_LEFT] = t.builds_per_turn
            if t.builds_per_turn <= 0:
                phase = END
                continue
            _ask_build(t, s, g)
            return
        if _HOOK_OF[phase] >= 0:
            _queue_hooks(t, s, g, _HOOK_OF[phase])
        return


@njit(cache=True, inline="always")
def _ask_build(t, s, g):
    s.ints[g, PENDING] = BUILD_DECISION
    s.ints[g, PLAYER] = s.ints[g, CUR]
    s.ints[g, COUNT] = 1 + _build_options(t, s, g, 0)


_NEXT = (BEFORE_ROLL, DICE, AFTER_ROLL, INCOME, AFTER_INCOME, BEFORE_BUILD, BUILD, END,
         START, OVER)
"""The phase after each queue phase's walk."""


@njit(cache=True)
def _end_turn(t, s, g):
    s.ints[g, TURN] += 1
    if s.ints[g, EXTRA]:
        s.ints[g, EXTRAS] += 1
    else:
        s.ints[g, CUR] = (s.ints[g, CUR] + 1) % t.players
    if s.ints[g, MAX_TURNS] > 0 and s.ints[g, TURN] >= s.ints[g, MAX_TURNS]:
        s.ints[g, PHASE] = OVER
    else:
        _enter(t, s, g, START)


@njit(cache=True)
def advance(t, s, g):
    """Play game ``g`` on until a decision is pending or the game is over."""
    while s.ints[g, PENDING] == NONE:
        phase = s.ints[g, PHASE]
        if phase == OVER:
            return
        if _run_queue(t, s, g):
            return
        if phase == END:
            _end_turn(t, s, g)
        else:
            _enter(t, s, g, _NEXT[phase])


@njit(cache=True)
def answer(t, s, g, k):
    """Apply option ``k`` of game ``g``'s pending decision (then :func:`advance`)."""
    kind = s.ints[g, PENDING]
    s.ints[g, PENDING] = NONE
    if kind == DICE_DECISION:
        count = t.dice_choice[k]
        s.ints[g, DICE_COUNT] = count
        _roll(t, s, g, count)
        _enter(t, s, g, AFTER_ROLL)
    elif kind == CLAUSE_DECISION:
        i = s.ints[g, ITEM]
        _resolve(t, s, g, s.queue[g, i, 3], s.queue[g, i, 0], s.queue[g, i, 1], k)
    elif kind == BUILD_DECISION:
        _build(t, s, g, k)


@njit(cache=True)
def _build(t, s, g, k):
    p = s.ints[g, CUR]
    if k == 0:
        s.ints[g, BUILDS_LEFT] = 0
    else:
        card = _build_options(t, s, g, k)
        s.coins[g, p] -= t.cost[card]
        s.towns[g, p, card] += 1
        if t.in_market[card]:
            s.supply[g, card] -= 1
        s.built[g, card] = True
        s.ints[g, BUILDS_LEFT] -= 1
        if t.landmark[card] and _has_won(t, s, g, p):
            s.ints[g, WINNER] = p
            s.ints[g, TURN] += 1
            s.ints[g, PHASE] = OVER
            return
    if s.ints[g, BUILDS_LEFT] > 0:
        s.ints[g, PHASE] = BUILD
        _ask_build(t, s, g)
    else:
        _enter(t, s, g, END)


@njit(cache=True)
def play_random(t, s, games):
    """Play games ``games`` (an index array) to their end with random agents: each
    decision's option ``floor(u * count)``, ``u`` from the deciding seat's stream."""
    players = t.players
    for g in games:
        advance(t, s, g)
        while s.ints[g, PHASE] != OVER:
            stream = g * players + s.ints[g, PLAYER]
            bits = _bits(s.agent_keys, s.agent_counters, stream)
            u = np.float64(bits >> np.uint64(11)) * _UNIT
            answer(t, s, g, np.int64(u * s.ints[g, COUNT]))
            advance(t, s, g)


@njit(cache=True)
def begin(t, s, games):
    """Start games ``games``: the first player's turn, played on to its first
    decision."""
    for g in games:
        _enter(t, s, g, START)
        advance(t, s, g)
