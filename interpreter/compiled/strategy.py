"""A strategy file's decisions in compiled code: the build lists, dice rules, reroll
conditions and phases of :class:`~machikoro.agents.strategy.StrategyAgent`, answered for
the games of a :class:`~machikoro.compiled.games.CompiledGames` without leaving compiled
code. The strategy comes as a :class:`Plan` of integer arrays made by the agents' layer
(:mod:`machikoro.agents.compiled_strategy`), which also refuses what a plan cannot say.

What the strategy leaves to greedy (a phase without dice rules or reroll condition, a
build ``otherwise: greedy``, any other decision) is answered :data:`GREEDY` here, and by
the compiled greedy after (:class:`~machikoro.agents.compiled_policies.CompiledGreedy`):
greedy's code is not compiled a second time into this module.

A condition is a run of *atoms*, all of which must hold (the strategy language's ``and``):

- ``(LANGUAGE, i, 0)``: the effect language's test, top-level run ``i`` of the tables'
  ``condition_list`` (the rule set's tables with the strategy's conditions appended);
- ``(DONE, first, stop)``: ``build list done``: each ``(card, cap)`` of
  ``Plan.cards[first:stop]`` is at its cap or the card's limit, or (an establishment)
  sold out;
- ``(ROLL_PAYS, op, n)``: ``roll pays Q coins``: the current roll's income for the seat
  (the whole income step, run on a copy) compared with ``n`` by quantity ``op``;
- ``(NEVER, 0, 0)``: ``false`` (``reroll: false``).

The strategy reads the towns as they are now, not as they stood at the roll (the scalar
agent's ``_TownsNow``): the income step's view is set aside while a condition is read.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from . import kernels as k
from .greedy import _cost_now
from .kernels import (
    BUILD_DECISION,
    C_OP,
    COUNT,
    CUR,
    DICE_COUNT,
    DICE_DECISION,
    ITEM,
    NDICE,
    NONE,
    PENDING,
    PLAYER,
    SEEN,
    TOTAL,
)
from .lookahead import outcome_income
from .tables import REROLL

GREEDY = -1
"""The answer that leaves a decision to greedy."""

LANGUAGE, DONE, ROLL_PAYS, NEVER = 0, 1, 2, 3
"""The kinds of a condition's atoms (see the module text)."""

COST, COPIES = 0, 1
"""What a build ranking's key reads of a card: its cost to the seat now, its copies."""

(P_UNTIL, P_NEXT, P_GREEDY, P_ENTRIES, P_ENTRIES_STOP, P_DICE, P_DICE_STOP,
 P_REROLL) = range(8)
"""The columns of :attr:`Plan.phases`."""

E_SAVE, E_WHEN, E_CARDS, E_CARDS_STOP, E_KEYS, E_KEYS_STOP = range(6)
"""The columns of :attr:`Plan.entries`."""


class Plan(NamedTuple):
    """A strategy as arrays (int64; -1 where a row names nothing):

    - ``phases`` ``(F, 8)``: its ``until`` condition (-1: the phase lasts), ``next``
      phase, 1 where ``otherwise`` is greedy (0: save), its build entries'
      ``[first, stop)``, its dice rules' ``[first, stop)`` (first -1: greedy chooses the
      dice), its reroll condition (-1: greedy chooses);
    - ``entries`` ``(E, 6)``: ``save``, the ``when`` condition, its cards' and its
      ranking keys' ``[first, stop)``;
    - ``cards`` ``(C, 2)``: ``(card, cap)`` rows of the entries and of ``build list
      done``;
    - ``keys`` ``(K, 2)``: ``(negated, COST|COPIES)``, compared in order;
    - ``dice`` ``(D, 2)``: ``(number of dice, when condition)``;
    - ``conditions`` ``(M, 2)``: each condition's atoms ``[first, stop)``;
    - ``atoms`` ``(A, 3)``: see the module text."""

    phases: np.ndarray
    entries: np.ndarray
    cards: np.ndarray
    keys: np.ndarray
    dice: np.ndarray
    conditions: np.ndarray
    atoms: np.ndarray


@njit(cache=True, inline="always")
def _available(t, s, g, seat, card, cap):
    """``seat`` could build ``card`` but for its coins, under ``cap``."""
    copies = s.towns[g, seat, card]
    return copies < cap and copies < t.limit[card] and (
        s.supply[g, card] > 0 or t.landmark[card])


@njit(cache=True, inline="always")
def _holds(t, lt, s, g, w, plan, c, seat):
    """Condition ``c`` of ``plan`` holds for ``seat`` (-1: no condition, True)."""
    if c < 0:
        return True
    for a in range(plan.conditions[c, 0], plan.conditions[c, 1]):
        kind = plan.atoms[a, 0]
        if kind == DONE:
            for r in range(plan.atoms[a, 1], plan.atoms[a, 2]):
                if _available(t, s, g, seat, plan.cards[r, 0], plan.cards[r, 1]):
                    return False
        elif kind == NEVER or not _read(t, lt, s, g, w, plan, a, seat):
            return False
    return True


@njit(cache=True)
def _read(t, lt, s, g, w, plan, a, seat):
    """Atom ``a`` (an effect-language test or ``roll pays``) holds for ``seat``, the
    towns read as they are now. Compiled apart, once: inlined at each condition, the
    effect language's tests took minutes to compile."""
    t, lt, s, w = k._borrowed(t), k._borrowed(lt), k._borrowed(s), k._borrowed(w)
    seen = s.ints[g, SEEN]
    s.ints[g, SEEN] = 0
    x, y = plan.atoms[a, 1], plan.atoms[a, 2]
    if plan.atoms[a, 0] == LANGUAGE:
        found = k._holds(t, s, g, x, 1, seat)
    else:
        found = k._quantity(x, y, outcome_income(t, lt, s, g, w, s.ints[g, CUR], s.dice[g],
                                                 s.ints[g, NDICE], s.ints[g, TOTAL], seat))
    s.ints[g, SEEN] = seen
    return found


@njit(cache=True, inline="always")
def _phase(t, lt, s, g, w, plan, phase, seat):
    """``seat``'s phase after its ``until`` conditions (at most once through every
    phase), kept in ``phase``."""
    p = phase[g, seat]
    for _ in range(plan.phases.shape[0]):
        until = plan.phases[p, P_UNTIL]
        if until < 0 or not _holds(t, lt, s, g, w, plan, until, seat):
            break
        p = plan.phases[p, P_NEXT]
    phase[g, seat] = p
    return p


@njit(cache=True, inline="always")
def _key(t, s, g, seat, plan, row, card):
    value = float(_cost_now(t, s, g, seat, card)) if plan.keys[row, 1] == COST else \
        float(s.towns[g, seat, card])
    return -value if plan.keys[row, 0] else value


@njit(cache=True, inline="always")
def _better(t, s, g, seat, plan, e, card, than):
    """``card`` ranks above ``than`` by entry ``e``'s keys (compared in order)."""
    for row in range(plan.entries[e, E_KEYS], plan.entries[e, E_KEYS_STOP]):
        a = b = 0.0
        for which in range(2):  # (one place that reads a key: each is compiled inline)
            value = _key(t, s, g, seat, plan, row, card if which == 0 else than)
            if which == 0:
                a = value
            else:
                b = value
        if a != b:
            return a > b
    return False


@njit(cache=True, inline="always")
def _menu_option(s, g, count, card):
    """The build option of ``card`` (0: not offered)."""
    for j in range(count - 1):
        if s.menu[g, 0, j] == card:
            return 1 + j
    return 0


@njit(cache=True, inline="always")
def _build(t, lt, s, g, w, plan, p, seat, count):
    """The phase's build list: the first entry with a card it can build (with ``save``:
    could but for coins) whose ``when`` holds builds its best card, or saves for it; else
    ``otherwise``."""
    for e in range(plan.phases[p, P_ENTRIES], plan.phases[p, P_ENTRIES_STOP]):
        best, best_option = -1, 0
        for r in range(plan.entries[e, E_CARDS], plan.entries[e, E_CARDS_STOP]):
            card = plan.cards[r, 0]
            if not _available(t, s, g, seat, card, plan.cards[r, 1]):
                continue
            option = _menu_option(s, g, count, card)
            if option == 0 and not plan.entries[e, E_SAVE]:
                continue
            if best < 0 or _better(t, s, g, seat, plan, e, card, best):
                best, best_option = card, option
        if best < 0 or not _holds(t, lt, s, g, w, plan, plan.entries[e, E_WHEN], seat):
            continue
        return best_option  # (0: saving for it)
    return GREEDY if plan.phases[p, P_GREEDY] and count > 1 else 0


@njit(cache=True, inline="always")
def _dice(t, lt, s, g, w, plan, p, seat, offers, first):
    """The first dice rule whose number of dice is offered and whose ``when`` holds, as
    the place of that number among ``offers`` (ascending) plus ``first``; else the fewest
    dice's."""
    for r in range(plan.phases[p, P_DICE], plan.phases[p, P_DICE_STOP]):
        j = _place(t, offers, plan.dice[r, 0])
        if j >= 0 and _holds(t, lt, s, g, w, plan, plan.dice[r, 1], seat):
            return first + j
    return first


@njit(cache=True, inline="always")
def _place(t, offers, ndice):
    """The place of ``ndice`` among the numbers of dice of ``offers``, or -1."""
    for j in range(k._nth_count(t, offers, -1)):
        if k._nth_count(t, offers, j) == ndice:
            return j
    return -1


@njit(cache=True, inline="always")
def answer(t, lt, s, g, w, plan, phase):
    """The strategy's option index for game ``g``'s pending decision, or :data:`GREEDY`;
    ``phase`` ``(N, P)`` holds each seat's phase. A reroll: when the phase's condition
    holds (0: keep the roll); with a number of dice to choose, the dice rules' number,
    else as many dice as now. (The dice rules are read at one place: each place is
    compiled apart.)"""
    count, seat, kind = s.ints[g, COUNT], s.ints[g, PLAYER], s.ints[g, PENDING]
    p = _phase(t, lt, s, g, w, plan, phase, seat)
    if kind == BUILD_DECISION:
        return _build(t, lt, s, g, w, plan, p, seat, count)
    first = 0  # (the dice decision's options are the numbers of dice)
    if kind != DICE_DECISION:
        card, clause = s.queue[g, s.ints[g, ITEM], 0], s.queue[g, s.ints[g, ITEM], 3]
        if card < 0 or t.clauses[clause, C_OP] != REROLL or plan.phases[p, P_REROLL] < 0:
            return GREEDY
        if not _holds(t, lt, s, g, w, plan, plan.phases[p, P_REROLL], seat):
            return 0
        if t.reroll_same:
            return 1
        if plan.phases[p, P_DICE] < 0:
            j = _place(t, k._dice_offers(t, s, g, seat), s.ints[g, DICE_COUNT])
            return 1 + j if j >= 0 else count - 1
        first = 1  # (a reroll's options: keep, then the numbers of dice)
    elif plan.phases[p, P_DICE] < 0:
        return GREEDY
    return _dice(t, lt, s, g, w, plan, p, seat, k._dice_offers(t, s, g, seat), first)


@njit(cache=True)
def answers(t, lt, s, w, plan, phase, games, out):
    """The strategy's option index (or :data:`GREEDY`) for each game of ``games`` (an
    index array) that waits at a decision, into ``out``; the records' arrays are
    borrowed for the call (:func:`~machikoro.compiled.kernels._borrowed`)."""
    t, lt, s = k._borrowed(t), k._borrowed(lt), k._borrowed(s)
    w, plan = k._borrowed(w), k._borrowed(plan)
    for g in games:
        out[g] = answer(t, lt, s, g, w, plan, phase) if s.ints[g, PENDING] != NONE else 0
