"""Exact expected income in a game's position, from the payout tables (:mod:`.payouts`).

A :class:`Lookahead` answers, for the position a game is in, the questions of
:mod:`machikoro.engine.expectations` (what a roll pays its roller, the expected income of a
roll of N dice, the number of dice a player prefers, what one more copy of a card is
worth) with the same numbers, but without copying the game:

- a roll total that activates only *static* payouts (the bank paying amounts read from the
  owner's own town) pays the roller what its town says: one table per town, made once and
  shared by every position and game of the rule set where that town appears;
- a roll total where, besides those, only the other owners' ``take N from roller`` cards of
  the first colour groups activate pays the roller its town's payout less what it can pay
  of their sum: the payer's cap applied afterwards;
- any other roll total is run as the income step over a list of coins (the payout
  programs, in the engine's order, each payer paying what it has);
- a roll that activates a card no program expresses, and the value of such a card, are
  computed by the engine's own income step (:mod:`.expectations`).

:func:`lookahead_for` keeps one :class:`Lookahead` per game and brings it up to date at
each call: what a town decides is made again only when that town changed, an expected
income only when what it depends on changed (the roller's town, the other towns' cards
that take from it, the roller's coins up to what they could take), so one roll's result
serves the dice decision and the build decision and every seat that asks. Sums over the
dice outcomes are made in the order :mod:`.expectations` makes them: the numbers are equal
to the last bit. A seat's preferred number of dice is kept on its town by what the other
towns ask of its roll, and decided from shorter sums (the town's static sum less what the
roller could be asked) whenever no two counts come within ``_CLOSE`` coins of each other,
so it is always the choice the exact sums make.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from contextlib import contextmanager
from operator import eq

from . import expectations
from .chance import faces_for
from .game import Game
from .payouts import (
    BANK,
    FROM_EACH,
    FROM_ROLLER,
    PayoutTables,
    View,
    amount_value,
    boost_of,
    run_chain,
    tables_for,
)


def everyone_built(game: Game, cards: tuple) -> tuple:
    """For each of ``cards`` (card indices), whether anyone has built it (a card in force
    for every player: its boost counts in every town)."""
    return tuple([any(town[card] for town in game.owned) for card in cards])


class _Town:
    """What one seat's town alone decides (made again when the town changes): ``key`` (the
    town and its closed copies, for the rule set's ``memo``), ``counts`` (the numbers of
    dice it may roll; ``only``, the one number when there is no choice, else None),
    ``snapshot`` and ``closed`` (the town and its closed copies as lists, to compare with
    the game's), ``row`` (per card, what one copy of a simple card pays), ``static``
    (``{total: coins}`` its static payouts bring it on its own roll), ``raises`` (it has a
    card that may raise its roll: ``rules.roll_raises``) and ``signature`` (its
    copies of the non-static cards and the amounts of its ``take N from roller`` cards:
    what other seats' expectations read of it). What depends on less than the whole town
    is kept where every town that shares it finds it: ``payouts`` (its :class:`_Payouts`,
    by its counts and static payouts) and ``values`` (by its :meth:`Lookahead._profile`,
    made when first asked)."""

    __slots__ = ("closed", "counts", "dice", "key", "only", "payouts", "raised", "raises",
                 "row", "signature", "snapshot", "static", "terms", "values")

    def __init__(self, look: Lookahead, seat: int, key: tuple):
        game, tables = look.game, look.tables
        town = game.owned[seat]
        closed = [game.marks[m][seat] for m in game.rules.blocking_markers]
        self.snapshot = list(town)  # (a list: compared with the game's towns)
        self.closed = [list(row) for row in closed] if closed else ()
        self.values: dict | None = None  # (seat, dice of every seat) -> Lookahead._kept_values
        self.key = key
        self.counts = game.dice_counts(seat)
        # its one number of dice (None: it has a choice), whatever the other towns show
        self.only = self.counts[0] if len(self.counts) == 1 else None
        # (tuples of numbers: the garbage collector stops scanning them, the memo keeps
        # thousands of towns)
        self.row = tuple(look.per_copy(seat))
        self.static = look.own_static(seat, self.row)
        self.raised: dict = {}  # dice -> its kept terms: Lookahead._raised_expected
        # a card of the rules' roll raises is built here: its roll's total may change (a
        # town without one rolls the totals the dice show, as in a rule set without them)
        self.raises = any(town[card] for card, _, _ in game.rules.roll_raises)
        payouts = self.payouts = _Payouts.of(look, self.counts, self.static, self.raises)
        self.terms = payouts.terms  # per number of dice: Lookahead._terms
        self.dice = payouts.dice  # what others ask of its roll -> Lookahead._dice_entry
        dynamic = [card for card, _, _ in tables.dynamic_cards]
        self.signature = (tuple(town[c] for c in dynamic),
                          tuple(row[c] for row in closed for c in dynamic),
                          tuple(self.row[c] for c in tables.pays_cards))

    @staticmethod
    def of(look: Lookahead, seat: int) -> _Town:
        """``seat``'s town now: one :class:`_Town` per town (and closed copies) of the rule
        set, in its ``memo``, so what a town decides is shared by every seat and game
        where that town appears (it depends on the town alone)."""
        game = look.game
        key = tuple(game.owned[seat])
        blocking = game.rules.blocking_markers
        if blocking:
            key += tuple(x for m in blocking for x in game.marks[m][seat])
        if look.tables.everyone:  # its payouts read the boosts anyone's cards give
            key += ("everyone",) + everyone_built(game, look.tables.everyone)
        found = look.tables.memo.get(("town", key))
        if found is None:
            found = look.tables.remember(("town", key), _Town(look, seat, key))
        return found

    def matches(self, game: Game, seat: int) -> bool:
        """True when ``seat``'s town (and closed copies) is still the one seen."""
        if game.owned[seat] != self.snapshot:
            return False
        closed = self.closed
        return not closed or all(game.marks[m][seat] == row for m, row in
                                 zip(game.rules.blocking_markers, closed))


class _Payouts:
    """What a town's numbers of dice and static payouts decide, shared by every town with
    the same (one per ``(counts, static)`` in the rule set's ``memo``): the terms of its
    expected income per number of dice (``terms``, :meth:`Lookahead._terms`) and its kept
    choices of dice by what the other towns ask of its roll (``dice``,
    :meth:`Lookahead._dice_entry`); neither reads anything else of the town."""

    __slots__ = ("dice", "terms")

    def __init__(self):
        self.terms: dict = {}
        self.dice: dict = {}

    @staticmethod
    def of(look: Lookahead, counts: tuple, static: dict, raises: bool) -> _Payouts:
        """The :class:`_Payouts` of a town that may roll ``counts`` dice, whose static
        payouts are ``static`` (``{total: coins}``) and that may raise its roll
        (``raises``: then no choice of dice is kept, :meth:`Lookahead._dice_entry`)."""
        key = ("payouts", counts, frozenset(static.items()), raises)
        found = look.tables.memo.get(key)
        if found is None:
            found = look.tables.remember(key, _Payouts())
        return found


class _Shared:
    """What every town decides together (one per tuple of the towns' ``signature``, in
    the rule set's ``memo``, shared by every game that shows it): per seat the totals of its roll to run (``walk``) and those where only
    others' ``take N from roller`` cards join the static payouts (``capped``); per total,
    what each seat's such cards ask of a roller (``owes``), per seat what they ask of
    its roll (``capped_owes``), and per seat and town payouts what is kept of its choice
    of dice (``prefs``), each made when first asked."""

    __slots__ = ("capped", "capped_owes", "expected", "owes", "prefs", "walk")

    def __init__(self, look: Lookahead):
        game, tables = look.game, look.tables
        n = game.n
        walk: list = [set() for _ in range(n)]
        capped: list = [set() for _ in range(n)]
        owned = game.owned
        for card, mode, activation in tables.dynamic_cards:
            owners = [seat for seat in range(n) if owned[seat][card]]
            if not owners:
                continue
            for seat in range(n):  # whose roll activates one of these copies
                if mode == 0 or (mode == 1 and seat in owners) or (
                        mode == 2 and (len(owners) > 1 or owners[0] != seat)):
                    for total in activation:
                        (capped if card in tables.roller_pays[total] else walk)[seat].add(total)
        # (the same sets and tuples of them recur in many: one object each, so that
        # fewer objects live long for the garbage collector to scan)
        self.walk = _interned(tuple(_interned(frozenset(w)) for w in walk))
        self.capped = _interned(tuple(_interned(frozenset(c - w))
                                      for c, w in zip(capped, walk)))
        self.owes: dict = {}
        self.capped_owes: list = [None] * n  # per seat: Lookahead._capped_owes
        # what a seat's expectations come to with these towns around it, by its coins up
        # to what it could be asked (``cap``), where no total is run on the position:
        self.expected: dict = {}  # (seat, dice, its _Payouts) -> (cap, {min(coins, cap): value})
        self.prefs: list = [{} for _ in range(n)]  # per seat: {its _Payouts: _kept_dice}


class Lookahead:
    """Exact expectations in ``game``'s position (see the module docstring); it never
    changes the game. Get it with :func:`lookahead_for`, which brings it up to date."""

    __slots__ = ("_blocking", "_everyone", "_now", "_prefs", "_seen", "_shared", "_towns",
                 "game", "tables")

    def __init__(self, game: Game):
        self.game = game
        self.tables: PayoutTables = tables_for(game.rules)
        self._blocking = game.rules.blocking_markers
        self._towns: list = [None] * game.n
        self._shared: _Shared | None = None
        # this position's only: incomes by (roller, dice, total) and other tuple keys,
        # dice chosen by seat, the dice of every seat under "all" and "pattern"
        self._now: dict = {}
        self._seen: list = [None] * game.n  # the towns as last read (game.owned's shape)
        # per seat, while its town and what the towns show each other are the same: its
        # number of dice when it has no choice or its coins do not change it, else its
        # kept preferences (_dice_entry), False when the position decides, None: not read
        self._prefs: list = [None] * game.n
        self._everyone: tuple | None = None  # everyone_built as last read

    def moved_to(self, game: Game) -> Lookahead:
        """This look-ahead brought to ``game``'s position: another game of the same rule
        set and player count (a learned agent's afterstates, one light copy per option).
        What the towns the two games share decide is kept; the rest is read again, as
        :meth:`refresh` does. Returns itself."""
        self.game = game
        return self.refresh()

    def refresh(self) -> Lookahead:
        """Bring the look-ahead to the game's position now: towns that changed are read
        again; what this position alone decides is forgotten. Returns itself."""
        self._now.clear()
        owned = self.game.owned
        seen = self._seen
        if owned == seen and not self._blocking:
            return self  # every town as seen (the common case: one comparison, in C)
        if self._blocking:
            same = [a == b and town.matches(self.game, seat) for seat, (a, b, town)
                    in enumerate(zip(owned, seen, self._towns))]
        else:
            same = list(map(eq, owned, seen))  # the seats whose town changed, found in C
        if self.tables.everyone:  # a boost in force for every player came or went: every
            built = everyone_built(self.game, self.tables.everyone)  # town pays otherwise
            if built != self._everyone:
                self._everyone = built
                same = [False] * len(same)
        towns, prefs = self._towns, self._prefs
        changed = False
        seat = -1
        for _ in range(same.count(False)):
            seat = same.index(False, seat + 1)
            town = towns[seat]
            before = None if town is None else town.signature
            town = towns[seat] = _Town.of(self, seat)
            seen[seat] = town.snapshot
            prefs[seat] = town.only
            changed = changed or town.signature != before
        if changed:  # a seat without a choice of dice keeps its one number
            self._shared = None
            self._prefs = [town.only for town in towns]
        return self

    def _common(self) -> _Shared:
        shared = self._shared
        if shared is None:
            key = ("shared", tuple([town.signature for town in self._towns]))
            shared = self.tables.memo.get(key)  # what the towns decide together, by
            if shared is None:  # what each shows the others: shared by every game
                shared = self.tables.remember(key, _Shared(self))
            self._shared = shared
        return shared

    # ------------------------------------------------------------------ one roll

    def outcome_income(self, roller: int, dice: tuple, total: int | None = None) -> list:
        """Coins each seat gains (negative: pays) if ``roller`` rolls the faces ``dice``
        now (:func:`~machikoro.engine.expectations.outcome_income`; ``total`` default: the
        faces' sum raised by the roller's additions to the roll)."""
        if total is None:
            total = self.effective_total(roller, dice)
        # the faces matter only to a condition that may read them (if doubles...)
        key = (roller, tuple(dice) if self.tables.reads_roll else None, total)
        found = self._now.get(key)
        if found is None:
            found = self._walk(roller, tuple(dice), total)
            if found is None:  # a card beyond the tables: the engine's own income step
                found = expectations.outcome_income(self.game, roller, dice, total)
            self._now[key] = found
        return found

    def own_income(self, roller: int, dice: tuple, total: int | None = None):
        """``outcome_income(roller, dice, total)[roller]``: what the roll pays the roller,
        from the tables when the roll activates only static payouts and others'
        ``take N from roller`` cards."""
        if total is None:
            total = self.effective_total(roller, dice)
        shared = self._common()
        if total in shared.walk[roller]:
            return self.outcome_income(roller, dice, total)[roller]
        static = self._towns[roller].static.get(total, 0)
        if total in shared.capped[roller]:  # the roller pays what it can of their sum
            return static - min(self._roller_owes(roller, total), self.game.coins[roller])
        return static

    def roll_income(self, roller: int, total: int, dice: int = 1):
        """What ``roller`` gains if it rolls ``total`` on ``dice`` dice now (one way the
        dice show it, :func:`~machikoro.engine.chance.faces_for`), as
        ``expectations.roll_income(...)[roller]``."""
        return self.own_income(roller, faces_for(total, dice, self.tables.faces))

    def expected_roll_income(self, seat: int, dice: int) -> float:
        """Expected coins ``seat`` gains from its own roll of ``dice`` dice, now."""
        if self._towns[seat].raises:  # a total may change: each roll on its own
            key = ("raised", seat, dice)
            found = self._now.get(key)
            if found is None:
                found = self._now[key] = self._raised_expected(seat, dice)
            return found
        town, shared = self._towns[seat], self._common()
        kept = shared.expected.get((seat, dice, town.payouts))
        if kept is not None:
            cap = kept[0]
            found = kept[1].get(None if cap is None else min(self.game.coins[seat], cap))
            if found is not None:
                return found
        terms, where, support, _ = self._terms(town, dice)
        walk, capped = shared.walk[seat] & support, shared.capped[seat] & support
        if walk:  # this position's coins decide: not kept beyond it
            key = ("expected", seat, dice)
            found = self._now.get(key)
            if found is None:
                found = self._now[key] = self._patched(seat, dice, terms, where, walk,
                                                           capped)
            return found
        # else the value depends on the roller's coins only up to what it could be asked
        if kept is None:
            cap = max([self._roller_owes(seat, t) for t in capped]) if capped else None
            kept = shared.expected[seat, dice, town.payouts] = (cap, {})
        cap = kept[0]
        value = self._patched(seat, dice, terms, where, walk, capped)
        kept[1][None if cap is None else min(self.game.coins[seat], cap)] = value
        return value

    def _raised_expected(self, seat: int, dice: int) -> float:
        """:meth:`expected_roll_income` where cards may raise the roll: each outcome's own
        income at its raised total (:meth:`effective_total`), summed in the order of the
        outcomes. Where the raises read the roll and the roller's town alone
        (``tables.raised``), the term of an outcome from which no total run on the
        position or capped by the roller's coins can be reached is its town's alone: kept
        on the :class:`_Town` (``raised``, by number of dice); only the others
        (:meth:`_raised_live`) are made in each position."""
        outcomes = self.tables.probabilities(dice)
        if self.tables.raised is None:
            return sum([p * self.roll_income(seat, t, dice) for t, p in outcomes])
        shared, town = self._common(), self._towns[seat]
        live = shared.expected.get(("raised", seat, dice))
        if live is None:
            live = shared.expected["raised", seat, dice] = self._raised_live(seat, dice,
                                                                             shared)
        kept = town.raised.get(dice)
        if kept is None:
            kept = town.raised[dice] = [None] * len(outcomes)
        terms = list(kept)
        for i, t, p in live:
            terms[i] = p * self.roll_income(seat, t, dice)
        if None in terms:  # (first asked in a position where they were not live)
            for i, (t, p) in enumerate(outcomes):
                if terms[i] is None:
                    terms[i] = kept[i] = p * self.roll_income(seat, t, dice)
        return sum(terms)

    def _raised_live(self, seat: int, dice: int, shared: _Shared) -> tuple:
        """``((index, total, probability), ...)``: the outcomes of ``seat``'s roll of
        ``dice`` dice from which the raises may reach a total the towns around it
        (``shared``) run on the position or cap by the roller's coins."""
        hit = shared.walk[seat] | shared.capped[seat]
        reach = self.tables.raised
        return tuple((i, t, p) for i, (t, p) in enumerate(self.tables.probabilities(dice))
                     if any(r in hit for r in range(t, t + reach + 1)))

    def _terms(self, town: _Town, dice: int) -> tuple:
        """The terms of :meth:`expected_roll_income` for a town's static payouts (one per
        total, in the order of the outcomes), where each total is (``{total: (index,
        probability)}``), the totals, and the terms' sum."""
        found = town.terms.get(dice)  # shared by the towns of the same static payouts
        if found is None:
            outcomes = self.tables.probabilities(dice)
            terms = tuple([p * town.static.get(t, 0) for t, p in outcomes])
            where, support = self.tables.totals_index(dice)
            found = town.terms[dice] = (terms, where, support, sum(terms))
        return found

    def _patched(self, seat: int, dice: int, terms: list, where: dict, walk, capped) -> float:
        """The sum of ``terms`` with the terms of the ``walk`` and ``capped`` totals made
        from this position; summed in order, as :mod:`.expectations` sums them."""
        if not walk and not capped:
            return sum(terms)
        terms = list(terms)
        static = self._towns[seat].static
        for t in capped:
            i, p = where[t]
            terms[i] = p * (static.get(t, 0) - min(self._roller_owes(seat, t),
                                                   self.game.coins[seat]))
        for t in walk:
            i, p = where[t]
            terms[i] = p * self.outcome_income(seat, faces_for(t, dice, self.tables.faces),
                                               t)[seat]
        return sum(terms)

    def preferred_dice(self, seat: int) -> int:
        """The number of dice ``seat`` is assumed to roll: of its choices, the one with the
        higher expected own income (the rule set's count when it has no choice). Kept
        beyond this position, with the same towns around it, while the expectations it
        compared are (its coins the same up to what it could be asked: :meth:`_dice_entry`);
        ``_prefs`` holds what is kept for each seat while its town and what the towns show
        each other stay the same (:meth:`_kept_dice`)."""
        entry = self._prefs[seat]
        if type(entry) is int:  # no choice of dice, or the same whatever the coins
            return entry
        if entry is None:
            entry = self._prefs[seat] = self._kept_dice(seat)
            if type(entry) is int:
                return entry
        if entry is not False:
            cap = entry[0]
            found = entry[1].get(None if cap is None else min(self.game.coins[seat], cap))
            if found is not None:
                return found
        found = self._now.get(seat)
        if found is None:
            if entry is not False:
                found = self._quick_dice(seat, entry)
            if found is None:
                found = self._compare_dice(seat)
            self._now[seat] = found
            if entry is not False and entry[0] is None:  # the same whatever its coins
                self._prefs[seat] = found
        return found

    def _kept_dice(self, seat: int):
        """What is kept of ``seat``'s choice of dice with the towns now, on the shared
        payouts (:class:`_Shared`, by seat and its town's :class:`_Payouts`: they hold
        all it reads): its number of dice when it has no choice or its
        :meth:`_dice_entry` says the same whatever its coins, else that entry, else
        False (the position's coins decide)."""
        town = self._towns[seat]
        if town.only is not None:
            return town.only
        shared = self._shared or self._common()
        prefs = shared.prefs[seat]
        found = prefs.get(town.payouts)
        if found is None:
            found = self._dice_entry(seat, town, shared)
            if found is None:
                found = False
            elif found[0] is None and None in found[1]:
                found = found[1][None]
            prefs[town.payouts] = found
        return found

    def preferred_pattern(self) -> tuple:
        """``tuple(preferred_dice(seat) for seat in range(n))``: the dice every seat is
        assumed to roll now."""
        found = self._now.get("all")
        if found is None:
            found = self._now["all"] = tuple([
                entry if type(entry) is int else self.preferred_dice(seat)
                for seat, entry in enumerate(self._prefs)])
        return found

    def _dice_entry(self, seat: int, town: _Town, shared: _Shared) -> tuple | None:
        """``(cap, {min(coins, cap): dice}, plan)``: ``seat``'s kept choices of dice with
        the towns now (on its :class:`_Town`, by what the other towns ask of its roll:
        shared by every position and game where they ask the same), by its coins
        up to ``cap``, what it could be asked (None: nothing); ``plan``, per number of dice
        ``k``, ``(k, its town's static sum, ((probability, owed), ...))`` for the totals
        where others' ``take N from roller`` cards ask ``owed`` of it. None when a total
        of its roll must be run on the position or a card of its town may raise the
        roll: then the coins of the position decide, and nothing is kept (``town``: its
        :class:`_Town`, ``shared``: :meth:`_common`)."""
        walk = shared.walk[seat]
        owes = shared.capped_owes[seat]
        key = (walk, owes if owes is not None else self._capped_owes(seat))
        entry = town.dice.get(key, False)
        if entry is not False:
            return entry
        key = _interned(key)
        cap = None
        plan: list | None = []
        for k in town.counts:
            _, where, support, whole = self._terms(town, k)
            if town.raises or (walk and not walk.isdisjoint(support)):
                plan = None
                break
            owed = tuple([(where[t][1], owes) for t, owes in key[1] if t in support])
            for _, owes in owed:
                cap = owes if cap is None or owes > cap else cap
            plan.append((k, whole, owed))
        if plan is None:
            entry = None
        else:
            entry = (cap, {}, tuple(plan))
            always = _dominant(plan)
            if always is not None:  # the same whatever the coins: kept under None
                entry = (None, {None: always}, entry[2])
        town.dice[key] = entry
        return entry

    def _capped_owes(self, seat: int) -> tuple:
        """``((total, owed), ...)``, by total: what others' ``take N from roller`` cards ask
        of ``seat`` on each total of its roll where only they join the static payouts
        (kept on the shared payouts)."""
        shared = self._common()
        found = shared.capped_owes[seat]
        if found is None:
            found = shared.capped_owes[seat] = tuple(
                (t, self._roller_owes(seat, t)) for t in sorted(shared.capped[seat]))
        return found

    def _quick_dice(self, seat: int, entry: tuple) -> int | None:
        """:meth:`_compare_dice` from ``entry``'s plan (:meth:`_dice_entry`): each count's
        expectation is its town's static sum less what the roller pays of others' ``take N
        from roller`` cards (equal to the exact sum but for rounding); the first of the
        best, kept in ``entry``. None when two counts come within ``_CLOSE`` coins of each
        other: then only the exact sums decide."""
        cap, known, plan = entry
        coins = self.game.coins[seat]
        found = best = None
        for k, value, owed in plan:
            for p, owes in owed:
                value -= p * min(owes, coins)
            if best is not None and abs(value - best) <= _CLOSE:
                return None
            if best is None or value > best:
                found, best = k, value
        known[None if cap is None else min(coins, cap)] = found
        return found

    def _compare_dice(self, seat: int) -> int:
        """:meth:`preferred_dice` computed from the exact sums: the first of the best, as
        max() picks it; kept in the seat's :meth:`_dice_entry` when there is one."""
        counts = self._towns[seat].counts
        found = counts[0]
        best = self.expected_roll_income(seat, found)
        for k in counts[1:]:
            value = self.expected_roll_income(seat, k)
            if value > best:
                found, best = k, value
        entry = self._prefs[seat]  # set by preferred_dice
        if entry:
            cap = entry[0]
            entry[1][None if cap is None else min(self.game.coins[seat], cap)] = found
        return found

    def effective_total(self, roller: int, dice: tuple) -> int:
        """The roll total after ``roller``'s additions to the roll, each taken when its
        conditions hold and, if optional, when it pays the roller more
        (:func:`~machikoro.engine.expectations.effective_total`)."""
        total = sum(dice)
        raises = self.game.rules.roll_raises
        if not raises:
            return total
        town = self.game.owned[roller]
        if not any(town[card] for card, _, _ in raises):
            return total  # (no card of the roller's raises it: no view to make)
        view = View(self.game, roller, tuple(dice), total, list(self.game.coins), [])
        for card, clause, n in raises:
            if not town[card] or not clause.holds(view, roller):
                continue
            if not clause.action.asks or self.own_income(roller, dice, total + n) > \
                    self.own_income(roller, dice, total):
                total += n
                view.total = total
        return total

    # ------------------------------------------------------------------ one card

    def card_value(self, seat: int, card: int, dice_of: dict | None = None) -> float:
        """Expected coins per round that one more copy of the establishment ``card`` brings
        ``seat`` (:func:`~machikoro.engine.expectations.card_value`); ``dice_of`` maps seat
        -> dice rolled (default: each seat's :meth:`preferred_dice`)."""
        pattern = self._pattern(dice_of)
        return self._value(seat, card, pattern, dice_of, self._kept_values(seat, pattern))

    def card_values(self, seat: int, cards: list, dice_of: dict | None = None) -> list:
        """``[card_value(seat, card, dice_of) for card in cards]`` (floats, coins per
        round), the dice of every seat read once."""
        pattern = self._pattern(dice_of)
        kept = self._kept_values(seat, pattern)
        return [self._value(seat, card, pattern, dice_of, kept) for card in cards]

    def kept_values(self, seat: int) -> dict:
        """The dict kept on ``seat``'s town for the dice every seat prefers now
        (:meth:`preferred_pattern`): it holds the static cards' values by card index
        (:meth:`card_value`), and a caller may keep in it, under a tuple key of its own,
        what depends on those dice and on the town only through its :meth:`_profile`
        (the static cards' values and :meth:`value_bound`: an agent's pick among static
        cards). Towns of the same profile share it."""
        return self._kept_values(seat, self.preferred_pattern())

    def is_static(self, card: int) -> bool:
        """True when :meth:`card_value` of ``card`` depends on its owner's town and the
        dice every seat rolls alone (kept in :meth:`kept_values`), not on the coins."""
        return self.tables.static[card] or not self.game.rules.cards[card].activation

    def value_bound(self, seat: int, card: int) -> float | None:
        """An upper bound of :meth:`card_value` (coins per round, every seat rolling its
        preferred dice) that holds whatever the coins: for a card of one ``take N from
        ...`` step (``tables.taking``: the roller, each other player, the richest or a
        chosen one), each activation taking its whole amount from every payer; None for
        any other card."""
        taking = self.tables.taking[card]
        if taking < 0:
            return None
        per = self._plus_one(seat, card)
        if per <= 0:
            return 0.0
        chance = sum([roll[3] for roll in self.tables.rolls(card, seat,
                                                              self.preferred_pattern())])
        return per * chance * (self.game.n - 1 if taking == FROM_EACH else 1)

    def _kept_values(self, seat: int, pattern: tuple) -> dict:
        """``{card: value}``: the static cards' values for ``seat``, the seats rolling
        ``pattern`` dice, kept with its town's :meth:`_profile` (they depend on it alone)."""
        town = self._towns[seat]
        values = town.values
        if values is None:
            values = town.values = self._profile(seat)
        kept = values.get((seat, pattern))
        if kept is None:
            kept = values[seat, pattern] = {}
        return kept

    def _profile(self, seat: int) -> dict:
        """The dict that towns of the same *profile* as ``seat``'s share (in the rule set's
        ``memo``): per card of ``tables.profiled``, what one more copy of it brings per
        activation (:meth:`_static_gain` for a static card, :meth:`_plus_one` for a simple
        ``take N`` one). A static card's value and :meth:`value_bound` read nothing else
        of the town, so what depends on them is kept once for all those towns."""
        tables = self.tables
        static, neutral, row = tables.static, tables.self_neutral, self._towns[seat].row
        gains = []
        for card in tables.profiled:
            if neutral[card]:  # _plus_one without the call; static: the bank pays it
                gains.append(max(0, row[card]) if static[card] else row[card])
            else:
                gains.append(self._static_gain(seat, card) if static[card]
                             else self._plus_one(seat, card))
        key = ("profile", tuple(gains))
        found = tables.memo.get(key)
        if found is None:
            found = tables.remember(key, {})
        return found

    def _value(self, seat: int, card: int, pattern: tuple, dice_of: dict | None,
               kept: dict) -> float:
        """:meth:`card_value`, the seats rolling ``pattern`` dice (``dice_of`` as a dict,
        for the engine's own look-ahead; ``kept``: :meth:`_kept_values`)."""
        game, tables = self.game, self.tables
        if not game.rules.cards[card].activation:
            return 0.0
        if tables.static[card]:  # the same whoever rolls: kept while the town is
            value = kept.get(card)
            if value is None:
                value = kept[card] = self._static_value(seat, card, pattern)
            return value
        if tables.programs[card] is None:  # beyond the tables: the engine's own look-ahead
            return expectations.card_value(game, seat, card, dice_of or {
                s: self.preferred_dice(s) for s in range(game.n)})
        # (roller, total, dice, probability) of every roll that activates it, in order
        rolls = tables.rolls(card, seat, pattern)
        simple = tables.simple[card]
        value = 0.0
        if simple == FROM_ROLLER or simple == FROM_EACH:
            per = self._plus_one(seat, card)
            if per <= 0:  # every term p * 0
                return value
            coins = game.coins
            if simple == FROM_ROLLER:  # the roller pays what it has
                for roller, _, _, p in rolls:
                    value += p * (min(per, coins[roller]) if roller != seat else 0)
            else:  # each other player pays what it has (the same on every roll)
                gained = sum([min(per, coins[o]) for o in game.others(seat)])
                for roll in rolls:
                    value += roll[3] * gained
        else:
            for roller, total, dice, p in rolls:
                value += p * self._copy_gain(seat, card, roller, total, dice)
        return value

    def _static_value(self, seat: int, card: int, pattern: tuple) -> float:
        """:meth:`card_value` of a static card, the seats rolling ``pattern`` dice."""
        gained = self._static_gain(seat, card)
        value = 0.0
        for roll in self.tables.rolls(card, seat, pattern):
            value += roll[3] * gained
        return value

    def _pattern(self, dice_of: dict | None) -> tuple:
        """The dice of every seat: from ``dice_of``, else each seat's preferred."""
        n = self.game.n
        if not dice_of:
            return self.preferred_pattern()
        found = self._now.get("pattern")
        if found is None or found[0] is not dice_of:
            found = self._now["pattern"] = (dice_of, tuple([dice_of[s] for s in range(n)]))
        return found[1]

    def _with_copy(self, seat: int, card: int) -> list:
        """The towns, ``seat``'s with one more ``card``."""
        owned = list(self.game.owned)
        owned[seat] = list(owned[seat])
        owned[seat][card] += 1
        return owned

    def _plus_one(self, seat: int, card: int):
        """What one copy of the simple or taking card ``card`` (``tables.simple``,
        ``tables.taking``) pays per activation (amount and boosts, 0 when its conditions
        fail) in ``seat``'s town with one more of it."""
        if self.tables.self_neutral[card]:  # one more copy changes nothing of that
            return self._towns[seat].row[card]
        key = ("plus one", card, self._towns[seat].key)
        found = self.tables.memo.get(key)
        if found is None:
            found = self.tables.remember(key, self._per_copy(
                seat, card, self._with_copy(seat, card)))
        return found

    def _copy_gain(self, seat: int, card: int, roller: int, total: int, dice: int):
        """What one more copy of ``card`` alone brings ``seat`` when ``roller`` rolls
        ``total`` on ``dice`` dice now (its clauses run once, on the coins of now)."""
        game = self.game
        view = View(game, roller, faces_for(total, dice, self.tables.faces), total,
                    list(game.coins), game.built_this_turn, self._with_copy(seat, card))
        for step in self.tables.programs[card]:
            run_chain(step, view, card, seat, 1)
        return view.coins[seat] - game.coins[seat]

    def _static_gain(self, seat: int, card: int):
        """:meth:`_copy_gain` of a static card: the same whoever rolls, whatever the total
        (it depends on ``seat``'s town alone)."""
        if self.tables.simple[card] == BANK:  # the bank pays the copy its amount
            per = self._plus_one(seat, card)
            return max(0, per)
        key = ("copy", card, self._towns[seat].key)
        found = self.tables.memo.get(key)
        if found is None:
            found = self.tables.remember(key, self._copy_gain(seat, card, seat, 0, 1))
        return found

    # ------------------------------------------------------------------ tables

    def _per_copy(self, seat: int, card: int, owned: list):
        """What one copy of the simple card ``card`` of ``seat`` pays when it activates
        (its amount and boosts, or 0 when its conditions fail), the towns being ``owned``."""
        game = self.game
        view = View(game, seat, (), 0, list(game.coins), game.built_this_turn, owned)
        step = self.tables.programs[card][0]
        if not all(test.test(view, seat) for test in step.conditions):
            return 0
        amount = step.amount if type(step.amount) is int else \
            amount_value(step.amount, view, card, seat, seat)
        return amount + boost_of(game.rules.boosts[card], owned[seat], owned)

    def per_copy(self, seat: int) -> list:
        """Per card index, what one copy of a simple or taking card (``tables.simple``,
        ``tables.taking``) of ``seat`` pays when it activates, from ``seat``'s town now
        (0 for other cards)."""
        game = self.game
        town, boosts = game.owned[seat], game.rules.boosts
        row = [0] * len(town)
        for card, n, counted in self.tables.plain:  # no conditions: amount and boosts
            per = n if counted is None else n * sum([town[i] for i in counted])
            if boosts[card]:
                per += boost_of(boosts[card], town, game.owned)
            row[card] = per
        for card in self.tables.conditional:
            row[card] = self._per_copy(seat, card, game.owned)
        return row

    def own_static(self, seat: int, row: list) -> dict:
        """``{total: coins}``: what the static payouts of ``seat``'s cards pay it on its own
        roll of each total, from its town now (``row``: its :meth:`per_copy`)."""
        game, tables = self.game, self.tables
        town = game.owned[seat]
        blocking = self._blocking
        view = None
        paid: dict = {}
        for card, activation, bank in tables.own_static:
            copies = town[card]
            if not copies:
                continue
            for m in blocking:  # closed copies give nothing
                copies -= game.marks[m][seat][card]
            if copies <= 0:
                continue
            if bank:  # the bank pays each copy its amount
                gained = row[card] * copies if row[card] > 0 else 0
            else:
                if view is None:
                    view = View(game, seat, (), 0, [0] * game.n, game.built_this_turn)
                view.coins = [0] * game.n
                _run(tables.programs[card], view, card, seat, copies)
                gained = view.coins[seat]
            if gained:
                for total in activation:
                    paid[total] = paid.get(total, 0) + gained
        return paid

    def _roller_owes(self, roller: int, total: int) -> int:
        """What the other owners' cards of ``tables.roller_pays[total]`` ask of
        ``roller`` (before its cap), from their towns."""
        shared = self._common()
        owes = shared.owes.get(total)
        if owes is None:
            game = self.game
            owes = [0] * game.n
            for card in self.tables.roller_pays[total]:
                if self.tables.modes[card] == 1:  # only on its owner's roll: takes nothing
                    continue
                for seat, town in enumerate(game.owned):
                    copies = town[card]
                    for m in game.rules.blocking_markers:
                        copies -= game.marks[m][seat][card]
                    per = self._towns[seat].row[card] if copies > 0 else 0
                    if per > 0:
                        owes[seat] += per * copies
            owes = shared.owes[total] = tuple(owes)
        return sum(owes) - owes[roller]  # a card of the roller's takes nothing from it

    def _walk(self, roller: int, dice: tuple, total: int) -> list | None:
        """The income step of ``roller``'s roll of ``total`` (faces ``dice``) run over a
        list of coins, in the engine's order (colour groups, owners in payment order from
        the roller, cards); None when an activated card has no payout program."""
        game = self.game
        before = game.coins
        groups = self.tables.walks.get(total)
        if not groups:
            return [0] * game.n
        coins = list(before)
        view = None
        blocking = game.rules.blocking_markers
        for own_cards, other_cards in groups:
            for owner in game._order[roller]:  # the roller, then in payment order
                cards = own_cards if owner == roller else other_cards
                town = game.owned[owner]
                for card, steps, simple in cards:
                    copies = town[card]
                    if not copies:
                        continue
                    if blocking:  # closed copies give nothing (they reopen instead)
                        copies = max(copies - sum(game.marks[m][owner][card]
                                                  for m in blocking), 0)
                        if not copies:
                            continue
                    if simple < 0:
                        if steps is None:
                            return None
                        if view is None:
                            view = View(game, roller, dice, total, coins, game.built_this_turn)
                        _run(steps, view, card, owner, copies)
                        continue
                    per = self._towns[owner].row[card]
                    if per <= 0:
                        continue
                    if simple == BANK:
                        coins[owner] += per * copies
                    elif simple == FROM_ROLLER:
                        if owner != roller:
                            _take(coins, roller, owner, per * copies)
                    else:
                        for payer in game.others(owner):
                            _take(coins, payer, owner, per * copies)
        return [after - was for after, was in zip(coins, before)]


_INTERNED: dict = {}
_MAX_INTERNED = 50_000  # values kept by _interned (then forgotten and kept anew)


def _interned(value):
    """The one kept object equal to ``value`` (a frozenset or a tuple of them or of
    numbers: immutable, so shared safely), ``value`` itself the first time."""
    found = _INTERNED.get(value)
    if found is None:
        if len(_INTERNED) >= _MAX_INTERNED:
            _INTERNED.clear()
        found = _INTERNED[value] = value
    return found


def _dominant(plan: list) -> int | None:
    """The number of dice of a :meth:`Lookahead._dice_entry` plan whose expectation beats
    every other's by more than ``_CLOSE`` whatever the roller's coins (its lowest, paying
    every ``owed`` in full, against the others' highest, paying nothing), else None."""
    lowest = [whole - sum([p * owes for p, owes in owed]) for _, whole, owed in plan]
    for i, (k, _, _) in enumerate(plan):
        if all(lowest[i] > whole + _CLOSE for j, (_, whole, _) in enumerate(plan) if j != i):
            return k
    return None


def _run(steps: tuple, view: View, card: int, owner: int, copies: int) -> None:
    """Run a card's program for ``owner``'s ``copies`` of it, as the engine queues it: a
    clause that asks a decision once per copy, any other once for every copy."""
    for step in steps:
        if step.asks:
            for _ in range(copies):
                run_chain(step, view, card, owner, 1)
        else:
            run_chain(step, view, card, owner, copies)


def _take(coins: list, payer: int, payee: int, owed) -> None:
    """``payer`` pays ``payee`` ``owed`` coins, or all it has."""
    have = coins[payer]
    paid = min(owed, have)
    coins[payer] = have - paid
    coins[payee] += paid


_CLOSE = 1e-6
"""Coins within which two expectations summed in different orders might compare either
way (far above their rounding, about 1e-13 coins): closer calls are summed exactly."""

_LOOKS: OrderedDict = OrderedDict()
_KEEP = 16  # games whose look-ahead is kept (the most recently asked)
_LAST: list = [None]  # the look-ahead asked last


_REFERENCE = [os.environ.get("MACHIKORO_LOOKAHEAD") == "reference"]


@contextmanager
def reference_lookahead():
    """Within it, :func:`lookahead_for` gives the reference
    (:class:`~machikoro.engine.expectations.ReferenceLookahead`: the engine's own income
    step, nothing kept) instead of the fast tables: the same answers, slower."""
    before = _REFERENCE[0]
    _REFERENCE[0] = True
    try:
        yield
    finally:
        _REFERENCE[0] = before


def lookahead_for(game: Game) -> Lookahead:
    """The :class:`Lookahead` of ``game``, brought up to its position now. One is kept per
    game, for the :data:`_KEEP` games most recently asked about (a game is known by its
    identity: a copy of a game gets its own). The one seam of greedy's look-ahead: inside
    :func:`reference_lookahead`, or with ``$MACHIKORO_LOOKAHEAD=reference``, it is the
    reference :class:`~machikoro.engine.expectations.ReferenceLookahead` instead."""
    if _REFERENCE[0]:
        return expectations.ReferenceLookahead(game)
    look = _LAST[0]  # the game asked last is asked again, most often
    if look is not None and look.game is game:
        return look.refresh()
    look = _LOOKS.get(id(game))
    if look is None or look.game is not game:
        look = _LOOKS[id(game)] = Lookahead(game)
        if len(_LOOKS) > _KEEP:
            _LOOKS.popitem(last=False)
    else:
        _LOOKS.move_to_end(id(game))
    _LAST[0] = look
    return look.refresh()
