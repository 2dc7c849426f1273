"""The look-ahead in compiled code: what greedy (and the features of the learned value) ask
of a position, answered as :mod:`machikoro.engine.expectations` answers them, through the
compiled engine's own income step and clauses run on scratch copies of a game.

A question is about game ``ga`` of a :class:`~machikoro.compiled.kernels.State` ``a``; the
copies are rows of a second State ``w`` of :data:`ROWS` games (:func:`scratch`), each row
with one use (:data:`OUT` for an income step simulated, :data:`VIEW` for the position a
raise of the roll is read in, :data:`BASE` for a position changed before it is valued,
:data:`CHOICE` and :data:`PAYS` for the simulations of a card that asks a town choice).
Nothing is kept between questions: each is answered on the position itself, as the
reference look-ahead (:class:`~machikoro.engine.expectations.ReferenceLookahead`) answers
it, summed in the same order, so the numbers are the same to the last bit.

What needs no simulation is read in closed form (:func:`closed_clauses`): a roll whose
activated clauses are all the bank's or the roller's payments of amounts read from the
towns (most rolls of every rule set) is summed from those amounts in the income plan's
order, the roller paying what it has left (:func:`closed_incomes`), and a card whose
clauses are all such is valued from one reading of each clause per roller
(:func:`card_value`). The same numbers as the simulation (the suite compares both with the
reference), several times faster: a simulated roll copies the game, fills the queue and
walks it through functions compiled apart.

As in the reference: a copy rolls no dice (a side roll shows its mean,
:attr:`Look.side_mean`), and while simulating, a choice of player is the richest other
player, a yes/no is yes, and a choice of cards (a swap, a gift, a kind, an order) is not
made (the clause and its ``then`` steps are skipped); a reroll is never made (no income
clause rerolls).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..errors import CompiledUnsupported
from ..rules.ruleset import RuleSet
from . import kernels as k
from . import tables as tb
from .kernels import (
    ANSWER,
    C_ASKS,
    C_COND_COUNT,
    C_COND_START,
    C_OP,
    C_OPTIONAL,
    C_REST,
    C_YES_NO,
    CUR,
    MOVING,
    NDICE,
    NONE,
    PENDING,
    PHASE,
    QINS,
    QLEN,
    QPOS,
    SEEN,
    TOTAL,
    TURN,
)

ROWS = 5
"""The rows of the scratch State (:func:`scratch`)."""
OUT, VIEW, BASE, CHOICE, PAYS = (np.int64(row) for row in range(ROWS))
"""The scratch rows (int64 values, not literals: Numba would compile a function once more
for each literal row passed to it): an income step simulated (and a card's activation); the position a
raise of the roll is read in; a position changed before it is valued (coins put on a card,
a card's cost paid); a card that asks a town choice simulated; what a kind to activate
pays, and an option of a decision applied."""

ANYONE, OWNER_ONLY, OTHERS_ONLY = 0, 1, 2
"""Whose roll activates a card (``Look.mode``), as the colours say."""


class Look(NamedTuple):
    """What the compiled look-ahead reads of a rule set besides the engine's
    :class:`~machikoro.compiled.tables.Tables`: ``prob`` (most dice + 1, highest total +
    1) the chance of each total on each number of dice (0.0 where it cannot be rolled:
    :func:`~machikoro.engine.chance.total_distribution`'s floats); ``totals`` (cards,
    most) each card's activation totals in the data's order (-1 pads); ``mode`` (cards,)
    whose roll activates it (:data:`ANYONE` ...); ``raises`` (raises, 3) the cards that
    add to the roll (card, its clause's row, coins added) in the rule set's order;
    ``side_mean`` (cards,) a side roll's mean total (the mean face times its dice);
    ``swappable`` (clauses, most) a swap clause's cards in its own order (-1 pads);
    ``static`` (cards,) bool: what one more copy brings when it activates is the same on
    every roll (the bank pays; no condition reads the roll or the roller; nothing asked):
    valued with one simulation (:func:`static_cards`); ``faces_free``: a roll's income
    depends on its total alone where the roller has no card that raises it (no condition
    of an activation reads the faces or the number of dice: :func:`_faces_free`), so the
    totals two numbers of dice share have one income;
    ``victory``, ``market_landmark``, ``establishment`` and ``own_roll`` (cards,) bool:
    a victory landmark, one from the shared pool, an establishment, one its owner's roll
    may activate; ``needed`` the victory landmarks a player needs; ``closed`` (clauses,)
    how a clause's coins are read without simulating it (:data:`BANK_PAYS`,
    :data:`ROLLER_PAYS`; :data:`NOT_CLOSED`: simulated, :func:`closed_clauses`) and
    ``closed_card`` (cards,) bool: every clause of its activation is closed."""

    prob: np.ndarray
    totals: np.ndarray
    mode: np.ndarray
    raises: np.ndarray
    side_mean: np.ndarray
    swappable: np.ndarray
    static: np.ndarray
    faces_free: bool
    victory: np.ndarray
    market_landmark: np.ndarray
    establishment: np.ndarray
    own_roll: np.ndarray
    needed: int
    closed: np.ndarray
    closed_card: np.ndarray


def encode_look(rules: RuleSet, t: tb.Tables) -> Look:
    """The :class:`Look` of ``rules`` (``t``: its encoded tables). Raises
    :class:`~machikoro.errors.CompiledUnsupported` for a side roll whose mean is not a
    whole number of coins (the reference counts it as a fraction)."""
    from ..engine.chance import total_distribution
    from ..rules.tables import ACTIVATED_BY

    cards, faces = len(rules.cards), rules.dice_faces
    counts = t.dice_counts.tolist()
    prob = np.zeros((max(counts) + 1, max(counts) * faces + 1), dtype=np.float64)
    for count in counts:
        for total, p in total_distribution(count, faces):
            prob[count, total] = p
    width = max((len(c.activation) for c in rules.cards), default=0) or 1
    totals = np.full((cards, width), -1, dtype=np.int64)
    for card, info in enumerate(rules.cards):
        totals[card, :len(info.activation)] = info.activation
    colours = rules.colours
    mode = np.array([ACTIVATED_BY[colours[c.colour].activated_by] if c.colour in colours
                     else ANYONE for c in rules.cards], dtype=np.int64)
    side_mean = np.zeros(cards, dtype=np.int64)
    for card, dice in rules.side_roll_cards.items():
        if dice * (faces + 1) % 2:
            raise CompiledUnsupported(f"the look-ahead of a side roll of {dice} dice (its "
                                      f"mean, {dice * (faces + 1) / 2}, is not whole)")
        side_mean[card] = dice * (faces + 1) // 2
    return Look(
        prob=prob, totals=totals, mode=mode, raises=_raises(rules, t),
        side_mean=side_mean, swappable=_swappable(rules, t), static=static_cards(t),
        faces_free=_faces_free(t),
        victory=_flags(cards, rules.victory),
        market_landmark=_flags(cards, rules.market_landmarks),
        establishment=_flags(cards, rules.establishments),
        own_roll=np.array([c.colour in colours and colours[c.colour].activated_by != "others"
                           for c in rules.cards], dtype=bool),
        needed=rules.victory_count or len(rules.victory),
        closed=(closed := closed_clauses(t)),
        closed_card=np.array([bool(rows[rows >= 0].size) and bool(closed[rows[rows >= 0]].all())
                              for rows in t.card_clauses], dtype=bool).reshape(-1))


STATIC_TESTS = (tb.HAS_CARD, tb.HAS_COUNT, tb.HAS_COINS, tb.HAS_LANDMARKS, tb.ROUND_IS,
                tb.MARKET_HAS, tb.OTHER_PLAYERS, tb.ALL_OF, tb.ANY_OF, tb.NOT)
"""The conditions that read neither the roll nor the roller (about the owner, its
town, the other players, the round or the market)."""
STATIC_AMOUNTS = (tb.FIXED, tb.PER_CARD, tb.PER_ROUND, tb.SIDE_ROLL)


def _faces_free(t: tb.Tables) -> bool:
    """No condition of a card's activation clauses (or of the clauses they chain to)
    reads the faces or the number of dice: a roll's income step, which runs those alone
    (a card activated by another runs its own), depends on the total alone. A hook's
    condition (a turn again on doubles) is not part of it."""
    rows = [int(r) for r in t.card_clauses.reshape(-1) if r >= 0]
    seen = set(rows)
    tests: set = set()
    while rows:
        row = rows.pop()
        clause = t.clauses[row]
        first, count = clause[k.C_COND_START], clause[k.C_COND_COUNT]
        for i in range(first, first + count):
            for c in range(*t.condition_list[i]):
                tests.add(c)
                if t.conditions[c, 0] == tb.OTHER_PLAYERS:
                    tests.add(int(t.conditions[c, 3]))
        rest = int(clause[k.C_REST])
        if rest >= 0 and rest not in seen:
            seen.add(rest)
            rows.append(rest)
    return not any(t.conditions[c, 0] in (tb.DOUBLES, tb.ROLLED_DICE) for c in tests)


def static_cards(t: tb.Tables) -> np.ndarray:
    """Per card, True when every clause of its activation (``then`` steps included) is a
    gain from the bank of an amount that reads neither the roll nor the coins (a side roll
    counts its mean), asks nothing, and whose conditions read neither the roll nor the
    roller (:data:`STATIC_TESTS`): what one more copy brings is then the same whoever
    rolls whatever total."""
    out = np.zeros(t.cards, dtype=bool)
    for card in range(t.cards):
        rows = [int(r) for r in t.card_clauses[card] if r >= 0]
        out[card] = bool(rows)
        while rows and out[card]:
            row = rows.pop()
            clause = t.clauses[row]
            first, count = clause[k.C_COND_START], clause[k.C_COND_COUNT]
            tests = [t.conditions[c] for i in range(first, first + count)
                     for c in range(*t.condition_list[i])]
            out[card] = (clause[k.C_OP] == tb.COINS and clause[k.C_PAYER] == k.BANK
                         and clause[k.C_PAYEE] == k.OWNER and not clause[k.C_ASKS]
                         and clause[k.C_AMOUNT] in STATIC_AMOUNTS
                         and all(test[0] in STATIC_TESTS and not test[1] for test in tests))
            if clause[k.C_REST] >= 0:
                rows.append(int(clause[k.C_REST]))
    return out


NOT_CLOSED, BANK_PAYS, ROLLER_PAYS = 0, 1, 2
"""How a clause's coins are read in closed form (``Look.closed``): not (it is simulated);
the bank pays its owner; the roller pays its owner what it can."""
UNREAD = np.iinfo(np.int64).min
"""A roll's income :func:`closed_incomes` does not read (it is simulated)."""
FIRST = np.int64(0)
"""The first total, as an int64 value: a literal ``0`` argument would make Numba compile
the function called once more for it (about ten seconds of the first compile)."""
CLOSED_TESTS = (tb.HAS_CARD, tb.HAS_COUNT, tb.HAS_LANDMARKS, tb.ROUND_IS, tb.MARKET_HAS,
                tb.BUILT_NOTHING, tb.OTHER_PLAYERS, tb.ALL_OF, tb.ANY_OF, tb.NOT)
"""The conditions a closed clause may have: about its owner's or the other players' towns,
the round, the market or this turn's builds; none reads the roll, the roller or coins,
which an income step changes or a look-ahead varies."""
CLOSED_AMOUNTS = (tb.FIXED, tb.PER_CARD, tb.PER_ROUND)


def closed_clauses(t: tb.Tables) -> np.ndarray:
    """Per clause row, how its coins are read without simulating it: :data:`BANK_PAYS`
    or :data:`ROLLER_PAYS` for a coin action of the bank or the roller to the owner of an
    amount of :data:`CLOSED_AMOUNTS`, that asks nothing, has no ``then`` steps, and whose
    conditions are all of :data:`CLOSED_TESTS`, none about the roller; else
    :data:`NOT_CLOSED`. Such a clause moves, for each activation, one copy's amount
    (with its boost) times the copies when the conditions hold, read from the position
    alone (the roller paying what it has left): :func:`closed_incomes`."""
    out = np.zeros(max(len(t.clauses), 1), dtype=np.int64)
    for row, clause in enumerate(t.clauses):
        payer = clause[k.C_PAYER]
        if clause[k.C_OP] != tb.COINS or clause[k.C_ASKS] or clause[k.C_OPTIONAL] or \
                clause[k.C_REST] >= 0 or clause[k.C_AMOUNT] not in CLOSED_AMOUNTS or \
                clause[k.C_PAYEE] != k.OWNER or payer not in (k.BANK, k.ROLLER):
            continue
        first, count = clause[k.C_COND_START], clause[k.C_COND_COUNT]
        tests = [int(c) for i in range(first, first + count)
                 for c in range(*t.condition_list[i])]
        tests += [int(t.conditions[c, 3]) for c in tests
                  if t.conditions[c, 0] == tb.OTHER_PLAYERS]
        if all(t.conditions[c, 0] in CLOSED_TESTS and not t.conditions[c, 1] for c in tests):
            out[row] = BANK_PAYS if payer == k.BANK else ROLLER_PAYS
    return out


def _flags(cards: int, chosen) -> np.ndarray:
    out = np.zeros(cards, dtype=bool)
    out[list(chosen)] = True
    return out


def _hook_rows(rules: RuleSet, t: tb.Tables) -> dict:
    """``{(card, id(clause)): row}`` of the hooks' clauses."""
    rows = {}
    h = 0
    for trigger in tb.TRIGGERS:
        for card, clause in rules.hooks[trigger]:
            rows[card, id(clause)] = int(t.hooks[h, 1])
            h += 1
    return rows


def _raises(rules: RuleSet, t: tb.Tables) -> np.ndarray:
    """(card, clause row, coins added) of each of ``rules.roll_raises``."""
    rows = _hook_rows(rules, t)
    return np.array([(card, rows[card, id(clause)], n) for card, clause, n in
                     rules.roll_raises], dtype=np.int64).reshape(-1, 3)


def _swappable(rules: RuleSet, t: tb.Tables) -> np.ndarray:
    """Per clause row, a swap's cards in the order of its action's ``swappable``."""
    from ..language.actions import Optional, Swap

    found: dict = {}
    for card, clauses in enumerate(rules.activation):
        for first in clauses:
            clause, j = first, 0
            while clause is not None:
                action = clause.action
                if isinstance(action, Optional):
                    action = action.action
                if isinstance(action, Swap):
                    row = int(t.card_clauses[card, list(clauses).index(first)])
                    for _ in range(j):
                        row = int(t.clauses[row, k.C_REST])
                    found[row] = tuple(action.swappable)
                clause, j = clause.rest, j + 1
    width = max((len(c) for c in found.values()), default=0) or 1
    out = np.full((max(len(t.clauses), 1), width), -1, dtype=np.int64)
    for row, cards in found.items():
        out[row, :len(cards)] = cards
    return out


def scratch(games, rows: int = ROWS):
    """A :class:`~machikoro.compiled.kernels.State` of ``rows`` games shaped as
    ``games``' (a :class:`~machikoro.compiled.games.CompiledGames`), for the copies
    (which log no builds)."""
    shapes = {name: array.shape[1:] for name, array in games.arrays.items()}
    shapes["builds"] = (1,) + shapes["builds"][1:]
    return k.State(**{name: np.zeros((rows,) + shapes[name], dtype=array.dtype)
                      for name, array in games.arrays.items()})


# ---------------------------------------------------------------------------- copies


@njit(cache=True, inline="always")
def copy_game(t, lt, a, ga, w, z):
    """Game ``ga`` of ``a`` copied into row ``z`` of ``w``, made a look-ahead copy: no
    decision pending, an empty queue, the towns read as they are (not as they stood at a
    roll, no move logged: it is not the income step), a side roll showing its mean."""
    w.ints[z] = a.ints[ga]
    w.coins[z] = a.coins[ga]
    w.towns[z] = a.towns[ga]
    w.supply[z] = a.supply[ga]
    w.dice[z] = a.dice[ga]
    w.rerolled[z] = a.rerolled[ga]
    w.built[z] = a.built[ga]
    w.decks[z] = a.decks[ga]
    w.deck_lo[z] = a.deck_lo[ga]
    w.deck_hi[z] = a.deck_hi[ga]
    w.received[z] = a.received[ga]
    w.marks[z] = a.marks[ga]
    w.ints[z, PENDING] = NONE
    w.ints[z, PHASE] = k.END
    w.ints[z, SEEN] = 0
    w.ints[z, MOVING] = 0
    w.ints[z, QLEN] = 0
    w.ints[z, QPOS] = 0
    w.ints[z, QINS] = 0
    w.ints[z, ANSWER] = -1
    turn = w.ints[z, TURN] + 1
    for card in range(t.cards):
        w.side_turn[z, card] = turn
        w.side[z, card] = lt.side_mean[card]


@njit(cache=True)
def faces_for(total, count, faces, out):
    """One way ``count`` dice of ``faces`` faces show ``total``, highest faces first, into
    ``out`` (:func:`machikoro.engine.chance.faces_for`)."""
    for d in range(count - 1):
        face = min(faces, total - (count - 1 - d))
        out[d] = face
        total -= face
    out[count - 1] = total


@njit(cache=True, inline="always")
def richest_option(w, z, t, owner, optional):
    """A choice of another player while simulating: the richest, the first of them in
    the options' order (payment order from ``owner``), as an option index."""
    best, most = 0, -1
    for j in range(t.players - 1):
        coins = w.coins[z, t.order[owner, 1 + j]]
        if coins > most:
            best, most = j, coins
    return best + optional


@njit(cache=True, inline="always")
def _run_item(t, w, z, i, card, owner, clause, answer):
    """Run queue item ``i``'s action with ``answer`` (-1: it asks nothing); its ``then``
    steps run next when it happened."""
    w.ints[z, QINS] = i + 1
    copies = w.queue[z, i, 2]
    if k._act(t, w, z, clause, card, owner, copies, answer) and t.clauses[clause, C_REST] >= 0:
        k._insert(w, z, card, owner, copies, t.clauses[clause, C_REST], 0)


@njit(cache=True)
def auto_walk(t, w, z):
    """Walk row ``z``'s queue to its end as the look-ahead does
    (:func:`machikoro.engine.expectations._run`): a clause whose conditions fail is
    skipped; one that asks is answered by the default answer (the richest other player;
    yes), or skipped with its ``then`` steps (a choice of cards or of a town change, an
    order)."""
    t, w = k._borrowed(t), k._borrowed(w)
    while w.ints[z, QPOS] < w.ints[z, QLEN]:
        i = w.ints[z, QPOS]
        w.ints[z, QPOS] = i + 1
        card, owner, clause = w.queue[z, i, 0], w.queue[z, i, 1], w.queue[z, i, 3]
        if card < 0:
            continue
        if t.clauses[clause, C_COND_COUNT] and not k._holds(
                t, w, z, t.clauses[clause, C_COND_START], t.clauses[clause, C_COND_COUNT],
                owner):
            continue
        answer = -1
        if t.clauses[clause, C_ASKS]:
            count = k._options(t, w, z, clause, card, owner)
            op = t.clauses[clause, C_OP]
            if count == 0 or op == tb.SWAP or op == tb.GIVE or op == tb.CARD_CHOICE or \
                    op == tb.REROLL:
                continue
            if t.clauses[clause, C_YES_NO]:
                if count < 2:
                    continue  # only "no"
                answer = 1
            else:
                answer = richest_option(w, z, t, owner, t.clauses[clause, C_OPTIONAL])
        _run_item(t, w, z, i, card, owner, clause, answer)


@njit(cache=True, inline="always")
def _queue(w, z, n, card, owner, copies, clause):
    w.queue[z, n, 0] = card
    w.queue[z, n, 1] = owner
    w.queue[z, n, 2] = copies
    w.queue[z, n, 3] = clause
    w.queue[z, n, 4] = 0
    return n + 1


# ---------------------------------------------------------------------------- rolls


@njit(cache=True, inline="always")
def _anything_activates(t, a, ga, roller, total):
    """Some seat owns a card of the income plan of ``total`` rolled by ``roller``."""
    if total >= t.plan_start.shape[0] or t.plan_start[total] < 0:
        return False
    for i in range(t.plan_start[total], t.plan_stop[total]):
        if a.towns[ga, t.order[roller, t.items[i, 0]], t.items[i, 1]] > 0:
            return True
    return False


@njit(cache=True)
def _closed_per(t, s, g, clause, card, owner, payer):
    """One copy's coins of a closed clause of ``owner``'s ``card`` (0 when its conditions
    fail or its amount is not more than 0), its amount read for ``payer``
    (:func:`machikoro.compiled.kernels.move_coins`). Reads towns as they are (row ``g``
    must not be in an income step that keeps them as they stood at the roll)."""
    t, s = k._borrowed(t), k._borrowed(s)
    if t.clauses[clause, C_COND_COUNT] and not k._holds(
            t, s, g, t.clauses[clause, C_COND_START], t.clauses[clause, C_COND_COUNT], owner):
        return 0
    per = k._amount(t, s, g, clause, card, owner, payer)
    if t.clauses[clause, k.C_BOOSTED]:
        per += k._boost(t, s, g, card, owner)
    return max(per, 0)


@njit(cache=True, inline="always")
def _read_per(t, s, g, clause, card, owner, payer):
    """:func:`_closed_per`, read here for a fixed amount without conditions (most closed
    clauses: their boost alone is read), else by that function (compiled apart)."""
    if t.clauses[clause, C_COND_COUNT] == 0 and t.clauses[clause, k.C_AMOUNT] == tb.FIXED:
        per = t.clauses[clause, k.C_N]
        if t.clauses[clause, k.C_BOOSTED]:
            per += k._boost(t, s, g, card, owner)
        return max(per, 0)
    return _closed_per(t, s, g, clause, card, owner, payer)


@njit(cache=True)
def closed_incomes(t, lt, a, ga, roller, seat, first, last, out):
    """What ``seat`` gains (negative: pays) if ``roller`` rolls each total of
    ``first..last`` now, read without simulating the income step where every card the
    roll activates is closed (:func:`closed_clauses`), in the income plan's order (the bank
    pays, the roller pays what it has left), into ``out[total]``; :data:`UNREAD` where a
    card is not closed, and for every total where game ``ga`` keeps its towns as they
    stood at a roll (the income step's own view)."""
    t, lt, a = k._borrowed(t), k._borrowed(lt), k._borrowed(a)
    for total in range(first, last + 1):
        out[total] = UNREAD if a.ints[ga, SEEN] else _closed_outcome(t, lt, a, ga, roller,
                                                                     total, seat)


@njit(cache=True, inline="always")
def _closed_outcome(t, lt, a, ga, roller, total, seat):
    """One total of :func:`closed_incomes`."""
    if total >= t.plan_start.shape[0] or t.plan_start[total] < 0:
        return 0
    left, gain, copies = a.coins[ga, roller], 0, 0
    for i in range(t.plan_start[total], t.plan_stop[total]):
        owner, card, clause = t.order[roller, t.items[i, 0]], t.items[i, 1], t.items[i, 2]
        if t.items[i, 3]:  # a card's first clause: its copies, less the closed ones
            copies = a.towns[ga, owner, card]
            if copies > 0:
                for m in t.blocking:
                    copies -= a.marks[ga, m, owner, card]
        if copies <= 0:
            continue
        kind = lt.closed[clause]
        if kind == NOT_CLOSED:
            return UNREAD
        if kind == BANK_PAYS:
            paid = _read_per(t, a, ga, clause, card, owner, owner) * copies
            if owner == roller:
                left += paid
        elif owner != roller:  # (the roller never pays itself)
            paid = min(left, _read_per(t, a, ga, clause, card, owner, roller) * copies)
            left -= paid
            if roller == seat:
                gain -= paid
        else:
            continue
        if owner == seat:
            gain += paid
    return gain


@njit(cache=True)
def outcome_income(t, lt, a, ga, w, roller, faces, ndice, total, seat):
    """What ``seat`` gains (negative: pays) if ``roller`` rolls the faces ``faces[:ndice]``
    now, the roll's total being ``total``: the whole income step run on a copy
    (:func:`machikoro.engine.expectations.outcome_income`)."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    read = np.empty(total + 1, dtype=np.int64)
    closed_incomes(t, lt, a, ga, roller, seat, total, total, read)
    if read[total] != UNREAD:
        return read[total]
    return _simulated(t, lt, a, ga, w, roller, faces, ndice, total, seat)


@njit(cache=True, inline="always")
def _income(t, lt, a, ga, w, roller, faces, ndice, total, seat):
    """:func:`outcome_income` with its closed reading inlined (no call, nothing
    allocated: where a roll's totals are read one by one, as a raised roll's are, both
    cost more than the reading)."""
    if not a.ints[ga, SEEN]:
        read = _closed_outcome(t, lt, a, ga, roller, total, seat)
        if read != UNREAD:
            return read
    return _simulated(t, lt, a, ga, w, roller, faces, ndice, total, seat)


@njit(cache=True)
def _simulated(t, lt, a, ga, w, roller, faces, ndice, total, seat):
    """:func:`outcome_income` by the income step run on a copy."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    if not _anything_activates(t, a, ga, roller, total):
        return 0  # (the income step would walk an empty queue)
    copy_game(t, lt, a, ga, w, OUT)
    w.ints[OUT, CUR] = roller
    for d in range(ndice):
        w.dice[OUT, d] = faces[d]
    w.ints[OUT, NDICE] = ndice
    w.ints[OUT, TOTAL] = total
    k._fill(t, w, OUT, k.INCOME)
    auto_walk(t, w, OUT)
    return w.coins[OUT, seat] - a.coins[ga, seat]


@njit(cache=True, inline="always")
def _view(t, lt, a, ga, w, roller):
    """Row :data:`VIEW` made the position ``roller``'s additions to its roll are read in
    (nothing built this turn); :func:`raised_income` sets its dice and total."""
    copy_game(t, lt, a, ga, w, VIEW)
    w.ints[VIEW, CUR] = roller
    w.built[VIEW] = 0


@njit(cache=True, inline="always")
def raised_income(t, lt, a, ga, w, roller, faces, ndice):
    """What ``roller`` gains if it rolls ``faces[:ndice]`` now, its additions to the roll
    each taken when its conditions hold and, when it asks, when it pays the roller more
    (:func:`machikoro.engine.expectations.effective_total`, then its
    :func:`~machikoro.engine.expectations.outcome_income`). Row :data:`VIEW` must hold
    :func:`_view` of ``roller`` in this position (made once for all the totals of a roll:
    only its dice and total change between them); an income compared for the total the
    roll ends at is not simulated again. Inlined: a call passing the records costs more
    than a closed roll's reading (measured: four times slower a total)."""
    total = FIRST  # (an int64, not the literal 0: see FIRST)
    for d in range(ndice):
        total += faces[d]
        w.dice[VIEW, d] = faces[d]
    w.ints[VIEW, NDICE] = ndice
    known_total, known = k.NOBODY, FIRST  # (the total whose income is known: none yet)
    for r in range(lt.raises.shape[0]):
        card, clause, n = lt.raises[r, 0], lt.raises[r, 1], lt.raises[r, 2]
        if a.towns[ga, roller, card] <= 0:
            continue
        w.ints[VIEW, TOTAL] = total
        if t.clauses[clause, C_COND_COUNT] and not k._holds(
                t, w, VIEW, t.clauses[clause, C_COND_START], t.clauses[clause, C_COND_COUNT],
                roller):
            continue
        if not t.clauses[clause, C_ASKS]:
            total += n
            continue
        more = _income(t, lt, a, ga, w, roller, faces, ndice, total + n, roller)
        now = _income(t, lt, a, ga, w, roller, faces, ndice, total, roller)
        if more > now:
            total += n
        known_total, known = total, max(more, now)
    if known_total == total:
        return known
    return _income(t, lt, a, ga, w, roller, faces, ndice, total, roller)


@njit(cache=True, inline="always")
def _raising(lt, a, ga, roller):
    """``roller`` has a card that may raise its roll (:attr:`Look.raises`)."""
    for r in range(lt.raises.shape[0]):
        if a.towns[ga, roller, lt.raises[r, 0]] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def roll_income(t, lt, a, ga, w, roller, total, ndice):
    """What ``roller`` gains rolling ``total`` on ``ndice`` dice now (one way the dice
    show it, its additions to the roll applied: :func:`machikoro.engine.expectations.
    roll_income`)."""
    faces = np.empty(max(ndice, 1), dtype=np.int64)
    faces_for(total, ndice, t.faces, faces)
    if not _raising(lt, a, ga, roller):
        return outcome_income(t, lt, a, ga, w, roller, faces, ndice, total, roller)
    out = np.empty(total + 1, dtype=np.int64)
    _raised_incomes(t, lt, a, ga, w, roller, ndice, total, total, out)
    return out[total]


@njit(cache=True, inline="always")
def add(total, c, x, neumaier):
    """One term of Python's ``sum`` of floats: ``(total, compensation)`` after ``x``
    (``neumaier``: this Python's ``sum`` compensates, as 3.12 and later do)."""
    t = total + x
    if neumaier:
        if abs(total) >= abs(x):
            c += (total - t) + x
        else:
            c += (x - t) + total
    return t, c


@njit(cache=True, inline="always")
def sum_end(total, c):
    """The end of Python's ``sum`` of floats (:func:`add`): the compensation added."""
    return total + c if c != 0.0 and np.isfinite(c) else total



@njit(cache=True)
def expected_roll_income(t, lt, a, ga, w, seat, ndice, neumaier):
    """Expected coins ``seat`` gains from its own roll of ``ndice`` dice now, summed over
    the totals in order as Python's ``sum`` sums them (``neumaier``: with its
    compensation; :func:`machikoro.engine.expectations.expected_roll_income`)."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    if _raising(lt, a, ga, seat):  # (its roll's total may change: simulated)
        return _raised_expected(t, lt, a, ga, w, seat, ndice, neumaier)
    read = np.empty(ndice * t.faces + 1, dtype=np.int64)
    closed_incomes(t, lt, a, ga, seat, seat, ndice, ndice * t.faces, read)
    value, c = 0.0, 0.0
    for total in range(ndice, ndice * t.faces + 1):
        income = read[total] if read[total] != UNREAD else roll_income(
            t, lt, a, ga, w, seat, total, ndice)
        value, c = add(value, c, lt.prob[ndice, total] * income, neumaier)
    return sum_end(value, c)


@njit(cache=True)
def _raised_incomes(t, lt, a, ga, w, roller, ndice, first, last, out):
    """:func:`raised_income` of each total ``first..last`` of ``roller``'s roll of
    ``ndice`` dice (one way the dice show it), into ``out[total]``, read in one view of
    the position: the one function that holds a raised roll's code (the rolls of a roller
    without a raise do not carry it; one copy of it compiles faster)."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    _view(t, lt, a, ga, w, roller)  # (one copy: every total's additions read in it)
    faces = np.empty(max(ndice, 1), dtype=np.int64)
    for total in range(first, last + 1):
        faces_for(total, ndice, t.faces, faces)
        out[total] = raised_income(t, lt, a, ga, w, roller, faces, ndice)


@njit(cache=True, inline="always")
def _raised_expected(t, lt, a, ga, w, seat, ndice, neumaier):
    """:func:`expected_roll_income` of a roller that may raise its roll: every total
    simulated (:func:`_raised_incomes`), summed in the same order."""
    read = np.empty(ndice * t.faces + 1, dtype=np.int64)
    _raised_incomes(t, lt, a, ga, w, seat, ndice, ndice, ndice * t.faces, read)
    value, c = 0.0, 0.0
    for total in range(ndice, ndice * t.faces + 1):
        value, c = add(value, c, lt.prob[ndice, total] * read[total], neumaier)
    return sum_end(value, c)


@njit(cache=True)
def preferred_dice(t, lt, a, ga, w, seat, neumaier):
    """The number of dice ``seat`` is assumed to roll: of its choices (ascending), the
    first with the highest expected own income (:func:`machikoro.engine.expectations.
    preferred_dice`), each summed as :func:`expected_roll_income` sums it. Where a roll's
    income depends on its total alone (``Look.faces_free``, the seat raising nothing),
    each total is read once for every number of dice (in place, the totals not closed
    simulated on the first number of dice reaching them). One loop for all three cases,
    no call of :func:`expected_roll_income`: measured, a call of it here, even one not
    taken, made the function twice as slow (Millionaire's Row: 5.6 against 2.7
    microseconds), the compiler inlining it."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    offers = k._dice_offers(t, a, ga, seat)
    if not offers & (offers - 1):
        return k._nth_count(t, offers, 0)
    raising = _raising(lt, a, ga, seat)  # (its roll's total may change: simulated)
    shared = lt.faces_free and not raising
    best, most = 0, -np.inf
    read = np.empty(lt.prob.shape[1], dtype=np.int64)  # per total: its income (or UNREAD)
    for j in range(k._nth_count(t, offers, -1)):
        count = k._nth_count(t, offers, j)
        last = count * t.faces
        if raising:
            _raised_incomes(t, lt, a, ga, w, seat, count, count, last, read)
        elif j == 0 or not shared:
            first, stop = (FIRST, read.shape[0]) if shared else (count, last + 1)
            for total in range(first, stop):
                read[total] = UNREAD if a.ints[ga, SEEN] else _closed_outcome(
                    t, lt, a, ga, seat, total, seat)
        value, c = 0.0, 0.0
        for total in range(count, last + 1):
            if read[total] == UNREAD:
                faces = np.empty(count, dtype=np.int64)
                faces_for(total, count, t.faces, faces)
                read[total] = outcome_income(t, lt, a, ga, w, seat, faces, count, total,
                                             seat)
            value, c = add(value, c, lt.prob[count, total] * read[total], neumaier)
        value = sum_end(value, c)
        if value > most:
            best, most = count, value
    return best


@njit(cache=True)
def preferred_pattern(t, lt, a, ga, w, neumaier):
    """Every seat's :func:`preferred_dice`, in seat order."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    out = np.empty(t.players, dtype=np.int64)
    for seat in range(t.players):
        out[seat] = preferred_dice(t, lt, a, ga, w, seat, neumaier)
    return out


# ---------------------------------------------------------------------------- one card


@njit(cache=True, inline="always")
def activates(lt, card, roller, seat):
    """``roller``'s roll may activate ``seat``'s ``card`` (its colour's rule)."""
    mode = lt.mode[card]
    return not ((mode == OWNER_ONLY and roller != seat) or (mode == OTHERS_ONLY and
                                                            roller == seat))


@njit(cache=True, inline="always")
def chance_of(lt, ndice, total):
    """The chance of ``total`` on ``ndice`` dice (0.0 where they cannot show it)."""
    if total < 0 or total >= lt.prob.shape[1]:
        return 0.0
    return lt.prob[ndice, total]


@njit(cache=True, inline="always")
def closed_card_value(t, lt, a, ga, seat, card, pattern):
    """:func:`card_value` of a card whose clauses are all closed (``lt.closed_card``), in
    a position whose towns are read as they are (``a.ints[ga, SEEN]`` 0): what its clauses
    bring ``seat`` read once per roller with one more copy in ``seat``'s town (the bank
    pays; the roller pays what it has left), summed over the rolls in the same order.
    The copy is added to game ``ga`` itself for the reading and taken away after it: a
    closed clause reads nothing else a look-ahead copy would change."""
    a.towns[ga, seat, card] += 1
    value = 0.0
    for roller in range(t.players):
        if not activates(lt, card, roller, seat):
            continue
        left, gained = a.coins[ga, roller], 0
        for c in range(t.card_clauses.shape[1]):
            clause = t.card_clauses[card, c]
            if clause < 0:
                break
            if lt.closed[clause] == BANK_PAYS:
                gained += _read_per(t, a, ga, clause, card, seat, seat)
            elif roller != seat:
                paid = min(left, _read_per(t, a, ga, clause, card, seat, roller))
                left -= paid
                gained += paid
        ndice = pattern[roller]
        for j in range(lt.totals.shape[1]):
            total = lt.totals[card, j]
            if total < 0:
                break
            p = chance_of(lt, ndice, total)
            if p != 0.0:
                value += p * gained
    a.towns[ga, seat, card] -= 1
    return value


@njit(cache=True)
def card_value(t, lt, a, ga, w, seat, card, pattern):
    """Expected coins per round that one more copy of the establishment ``card`` brings
    ``seat``, every seat rolling ``pattern[seat]`` dice: its clauses run for each roll
    that activates it, on a copy with the copy added
    (:func:`machikoro.engine.expectations.card_value`)."""
    t, lt, a, w = k._borrowed(t), k._borrowed(lt), k._borrowed(a), k._borrowed(w)
    value = 0.0
    if lt.totals[card, 0] < 0:
        return value
    if lt.closed_card[card] and not a.ints[ga, SEEN]:
        return closed_card_value(t, lt, a, ga, seat, card, pattern)
    faces = np.empty(t.max_dice + 1, dtype=np.int64)
    gained, known = 0, False
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
            if known:  # a static card: what it brings is the same on every roll
                value += p * gained
                continue
            copy_game(t, lt, a, ga, w, OUT)
            w.towns[OUT, seat, card] += 1
            w.ints[OUT, CUR] = roller
            w.ints[OUT, TOTAL] = total
            faces_for(total, ndice, t.faces, faces)
            for d in range(ndice):
                w.dice[OUT, d] = faces[d]
            w.ints[OUT, NDICE] = ndice
            n = 0
            for c in range(t.card_clauses.shape[1]):
                if t.card_clauses[card, c] < 0:
                    break
                n = _queue(w, OUT, n, card, seat, 1, t.card_clauses[card, c])
            w.ints[OUT, QLEN] = n
            auto_walk(t, w, OUT)
            gained = w.coins[OUT, seat] - a.coins[ga, seat]
            known = lt.static[card]
            value += p * gained
    return value


@njit(cache=True, inline="always")
def activation_pays(t, lt, a, ga, w, z, owner, card):
    """What ``owner``'s copies of ``card`` pay it now, its activation's clauses run on a
    copy (row ``z``) with every copy it owns (as greedy values a kind to activate)."""
    copy_game(t, lt, a, ga, w, z)
    copies = a.towns[ga, owner, card]
    n = 0
    for c in range(t.card_clauses.shape[1]):
        if t.card_clauses[card, c] < 0:
            break
        n = _queue(w, z, n, card, owner, copies, t.card_clauses[card, c])
    w.ints[z, QLEN] = n
    auto_walk(t, w, z)
    return w.coins[z, owner] - a.coins[ga, owner]
