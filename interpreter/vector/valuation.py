"""Greedy's quick look-ahead values for many games at once, as arrays.

The scalar look-ahead (:mod:`machikoro.engine.lookahead`, over the payout programs of
:mod:`machikoro.engine.payouts`) answers, for one game's position: what a roll total pays
its roller, the expected income of a roll of N dice, the number of dice a seat prefers, and
what one more copy of a card is worth. :class:`Valuation` answers the same questions for a
set of games of a batch, each game in its own position, with the same numbers to the last
bit: the same payout programs run over arrays of coins (one row per game), the dice
outcomes and each card's rolls walked in the order the scalar look-ahead walks them, and its
sums made as Python's ``sum`` makes them (:func:`py_sum`).

What a program cannot say (a card without a payout program, a condition this module does
not read) makes :class:`Unsupported` at compile time, per card (:attr:`Valuation.card_ok`):
a caller asks the scalar engine for the games where such a card matters.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from ..engine import payouts as po
from ..engine.chance import faces_for
from ..language.conditions import Quantity


class Unsupported(Exception):
    """A program or condition the arrays do not say (the message names it)."""


def _compensated() -> bool:
    """True when Python's ``sum`` of floats is compensated (Neumaier, Python >= 3.12)."""
    return sum([1e100, 1.0, -1e100]) == 1.0


_NEUMAIER = _compensated()


def py_sum(terms: list) -> np.ndarray:
    """``sum(terms)`` of float arrays (one value per game each), element by element exactly
    as Python's built-in ``sum`` adds a list of floats: left to right, with Neumaier's
    compensation where this Python's ``sum`` uses it."""
    if not terms:
        return np.zeros(0)
    total = np.zeros_like(terms[0], dtype=np.float64)
    if not _NEUMAIER:
        for x in terms:
            total = total + x
        return total
    c = np.zeros_like(total)
    for x in terms:
        t = total + x
        c = c + np.where(np.abs(total) >= np.abs(x), (total - t) + x, (x - t) + total)
        total = t
    return np.where((c != 0) & np.isfinite(c), total + c, total)


def distinct(values: np.ndarray) -> list:
    """The distinct values of an array of whole numbers >= 0, in increasing order (a
    count per value: far cheaper than sorting or hashing a long array)."""
    if len(values) == 0:
        return []
    if values.min() < 0:
        return np.unique(values).tolist()
    return np.flatnonzero(np.bincount(values)).tolist()


class View:
    """What a condition or a payout program reads, for ``m`` games: ``towns`` (``(m, P,
    C)`` copies; the towns a condition counts), ``coins`` (``(m, P)`` floats: the coins of
    the moment, changed in place by programs), ``roller`` and ``total`` (``(m,)``),
    ``faces`` (one tuple of faces for all the games, or None), ``built_nothing`` (``(m,)``
    bools), ``supply`` (``(m, C)``) and ``marks`` (per marker ``(m, P, C)``)."""

    __slots__ = ("built_nothing", "coins", "faces", "marks", "roller", "rows", "supply",
                 "total", "towns")

    def __init__(self, towns, coins, roller, total, faces, built_nothing, supply, marks):
        self.towns, self.coins, self.roller, self.total = towns, coins, roller, total
        self.faces, self.built_nothing, self.supply, self.marks = (faces, built_nothing,
                                                                   supply, marks)
        self.rows = np.arange(len(coins))


def check_test(test) -> None:
    """Raise :class:`Unsupported` unless :func:`holds` reads ``test``: it and every part of
    it (``parts``: the tests an ``and``, ``or``, ``not`` or ``other players`` joins) have
    the batched valuation's form, ``holds``."""
    if not hasattr(test, "holds"):
        raise Unsupported(f"the condition {type(test).__name__}")
    for part in getattr(test, "parts", ()):
        check_test(part)


def holds(test, view: View, owner: np.ndarray, others: np.ndarray) -> np.ndarray:
    """``test.test(game, owner)`` for every game of ``view`` (``owner``: a seat per game;
    ``others``: the program's ``(P, P - 1)`` other seats in payment order): the test's
    own ``holds`` (:func:`check_test` says it has one)."""
    return test.holds(view, owner, others)


def _check_amount(amount) -> None:
    if type(amount) is int:
        return
    if amount[0] not in (po.PER_CARD, po.ALL_COINS, po.HALF_COINS, po.CARD_COINS,
                         po.SIDE_ROLL):
        raise Unsupported(f"the amount kind {amount[0]}")


def check_program(steps) -> None:
    """Raise :class:`Unsupported` unless :func:`run_chain` runs every step of ``steps``."""
    if steps is None:
        raise Unsupported("a card without a payout program")
    for step in steps:
        while step is not None:
            for test in step.conditions:
                check_test(test)
            if step.op == po.TO_ROLE:
                raise Unsupported("a concept unit's role")
            if step.op < po.SKIP:
                _check_amount(step.amount)
            if step.holding is not None and type(step.holding) is not Quantity:
                raise Unsupported("a holding test that is not a quantity")
            step = step.rest


class Valuation:
    """Greedy's quick look-ahead over arrays, for the games of a
    :class:`~machikoro.vector.engine.VectorGames` batch (see the module text). Made once
    per batch program (:func:`valuation_for`)."""

    def __init__(self, program):
        rules = program.rules
        self.program, self.rules = program, rules
        self.tables = po.tables_for(rules)
        self.players = program.players
        self.others = np.asarray(program.others, dtype=np.int64).reshape(self.players, -1)
        self.order = np.asarray(program.order, dtype=np.int64)
        self.faces = rules.dice_faces
        counts = list(program.dice_counts)
        self.dice_counts = counts
        top = max(counts) * self.faces + sum(n for _, _, n in rules.roll_raises) + 1
        self.top = top
        # prob[k, t]: the chance of total t on k dice (0: it cannot happen)
        self.prob = np.zeros((max(counts) + 1, top + 1))
        for k in counts:
            for t, p in self.tables.probabilities(k):
                self.prob[k, t] = p
        self.card_ok = []
        for card, steps in enumerate(self.tables.programs):
            try:
                if rules.activation[card]:
                    check_program(steps)
                    for tests in self._row_tests(card):
                        check_test(tests)
                self.card_ok.append(True)
            except Unsupported:
                self.card_ok.append(False)
        self.card_ok = np.array(self.card_ok, dtype=bool)
        self.raises_ok = True
        for _, clause, _ in rules.roll_raises:
            try:
                for test in clause.conditions:
                    check_test(test)
            except Unsupported:
                self.raises_ok = False
        self.per_copy_cards = [c for c, op in enumerate(
            max(a, b) for a, b in zip(self.tables.simple, self.tables.taking)) if op >= 0]

    def _row_tests(self, card: int) -> tuple:
        steps = self.tables.programs[card]
        return steps[0].conditions if steps else ()

    # ------------------------------------------------------------------ programs

    def _boost(self, card: int, towns, rows, owner) -> np.ndarray:
        more = np.zeros(len(rows))
        for source, n in self.rules.boosts[card]:
            more = more + np.where(towns[rows, owner, source] > 0, n, 0)
        return more

    def _amount(self, amount, view: View, card: int, owner, payer) -> np.ndarray:
        rows = view.rows
        if type(amount) is int:
            return np.full(len(rows), float(amount))
        kind = amount[0]
        if kind == po.PER_CARD:
            _, n, cards, scope = amount
            cards = list(cards)
            if scope == "every_town":
                return n * view.towns[:, :, cards].sum(axis=(1, 2)).astype(np.float64)
            who = payer if scope == "payer" else owner
            return n * view.towns[rows, who][:, cards].sum(axis=1).astype(np.float64)
        if kind == po.ALL_COINS:
            return view.coins[rows, payer].copy()
        if kind == po.HALF_COINS:
            return np.floor_divide(view.coins[rows, payer], 2)
        if kind == po.CARD_COINS:
            return view.marks[amount[1]][rows, owner, card].astype(np.float64)
        mean = (self.faces + 1) / 2
        return np.full(len(rows), float(sum((mean,) * amount[1])))

    @staticmethod
    def _transfer(coins, rows, payer, payee, owed, per, live) -> None:
        go = live & (per > 0)
        paid = np.where(go, np.minimum(owed, coins[rows, payer]), 0.0)
        coins[rows, payer] -= paid
        coins[rows, payee] += paid

    def _pay(self, step, view: View, card: int, owner, copies, live) -> np.ndarray:
        """:func:`machikoro.engine.payouts._pay` for the ``live`` games; returns where the
        step happened."""
        op, coins, rows = step.op, view.coins, view.rows
        boost = self._boost(card, view.towns, rows, owner) if step.boosted else 0.0
        amount = step.amount
        happened = np.ones(len(rows), dtype=bool)
        if op == po.BANK:
            per = self._amount(amount, view, card, owner, owner) + boost
            coins[rows, owner] += np.where(live & (per > 0), per * copies, 0.0)
            return happened
        if op == po.SHARE:
            each = -np.floor_divide(-coins.sum(axis=1), coins.shape[1])
            coins[live] = each[live, None]
            return happened
        if op in (po.FROM_EACH, po.TO_EACH):
            for k in range(self.others.shape[1]):
                other = self.others[owner, k]
                ok = live.copy()
                if step.holding is not None:
                    ok &= step.holding(coins[rows, other])
                value = self._amount(amount, view, card, owner, other)
                if op == po.FROM_EACH:
                    self._transfer(coins, rows, other, owner, (value + boost) * copies,
                                   value + boost, ok)
                else:
                    self._transfer(coins, rows, owner, other, value * copies, value, ok)
            return happened
        if op in (po.FROM_ROLLER, po.TO_ROLLER):
            other = view.roller
            happened = other != owner
        elif op == po.TO_BANK:
            other = owner
        elif self.others.shape[1] == 0:
            return np.zeros(len(rows), dtype=bool)
        else:  # the richest other player, the first of them in payment order
            theirs = coins[rows[:, None], self.others[owner]]
            other = self.others[owner, np.argmax(theirs, axis=1)]
        live = live & happened
        value = self._amount(amount, view, card, owner, other)
        if op == po.TO_BANK:
            owed = value * copies
            go = live & (owed > 0)
            coins[rows, owner] -= np.where(go, np.minimum(owed, coins[rows, owner]), 0.0)
        elif op in (po.TO_ROLLER, po.TO_CHOSEN):
            self._transfer(coins, rows, owner, other, value * copies, value, live)
        else:
            self._transfer(coins, rows, other, owner, (value + boost) * copies,
                           value + boost, live)
        return happened

    def run_chain(self, step, view: View, card: int, owner, copies, live) -> None:
        """:func:`machikoro.engine.payouts.run_chain` for the ``live`` games of ``view``
        (``owner``, ``copies``: per game)."""
        live = live.copy()
        while step is not None and live.any():
            for test in step.conditions:
                live &= holds(test, view, owner, self.others)
            if step.op >= po.SKIP:
                return
            live &= self._pay(step, view, card, owner, copies, live)
            step = step.rest

    # ------------------------------------------------------------------ towns

    def effective(self, owned, marks) -> np.ndarray:
        """Copies that act (closed copies of a blocking marker taken off), ``(m, P, C)``."""
        blocking = self.rules.blocking_markers
        if not blocking:
            return owned
        closed = sum(marks[m] for m in blocking)
        return np.maximum(owned - closed, 0)

    def per_copy(self, view: View, seat, card: int) -> np.ndarray:
        """What one copy of the simple or taking ``card`` of ``seat`` pays when it
        activates (:meth:`Lookahead._per_copy`), the towns being ``view.towns``."""
        rows = view.rows
        step = self.tables.programs[card][0]
        ok = np.ones(len(rows), dtype=bool)
        for test in step.conditions:
            ok &= holds(test, view, seat, self.others)
        amount = self._amount(step.amount, view, card, seat, seat)
        return np.where(ok, amount + self._boost(card, view.towns, rows, seat), 0.0)

    def rows_of(self, view: View) -> np.ndarray:
        """Per seat and card, what one copy pays when it activates (``(m, P, C)``; 0 for
        cards that are neither simple nor taking): :meth:`Lookahead.per_copy`."""
        m = len(view.rows)
        out = np.zeros((m, self.players, len(self.rules.ids)))
        for seat in range(self.players):
            who = np.full(m, seat)
            for card in self.per_copy_cards:
                out[:, seat, card] = self.per_copy(view, who, card)
        return out

    # ------------------------------------------------------------------ one roll

    def walk(self, view: View, row, eff, total: int) -> np.ndarray:
        """The coins after the income step of each game's roller rolling ``total``
        (:meth:`Lookahead._walk`), from ``view.coins`` (not changed)."""
        groups = self.tables.walks.get(total)
        coins = view.coins.copy()
        if not groups:
            return coins
        inner = View(view.towns, coins, view.roller, view.total, view.faces,
                     view.built_nothing, view.supply, view.marks)
        rows = view.rows
        for own_cards, other_cards in groups:
            for offset in range(self.players):
                owner = self.order[view.roller, offset]
                for card, steps, simple in (own_cards if offset == 0 else other_cards):
                    copies = eff[rows, owner, card].astype(np.float64)
                    live = copies > 0
                    if not live.any():
                        continue
                    if simple < 0:
                        for step in steps:
                            if step.asks:
                                for c in range(int(copies.max())):
                                    self.run_chain(step, inner, card, owner, 1.0,
                                                   live & (copies > c))
                            else:
                                self.run_chain(step, inner, card, owner, copies, live)
                        continue
                    per = row[rows, owner, card]
                    live &= per > 0
                    owed = per * copies
                    if simple == po.BANK:
                        coins[rows, owner] += np.where(live, owed, 0.0)
                    elif simple == po.FROM_ROLLER:
                        self._transfer(coins, rows, view.roller, owner, owed, per,
                                       live & (owner != view.roller))
                    else:
                        for k in range(self.others.shape[1]):
                            self._transfer(coins, rows, self.others[owner, k], owner, owed,
                                           per, live)
        return coins


_VALUATIONS: WeakKeyDictionary = WeakKeyDictionary()


def valuation_for(program) -> Valuation:
    """The :class:`Valuation` of a batch program, made once."""
    found = _VALUATIONS.get(program)
    if found is None:
        found = _VALUATIONS[program] = Valuation(program)
    return found


def faces(total: int, dice: int, faces_per_die: int) -> tuple:
    """The faces the look-ahead gives a total on ``dice`` dice
    (:func:`~machikoro.engine.chance.faces_for`)."""
    return faces_for(total, dice, faces_per_die)


class Position:
    """The positions of games ``games`` of ``batch`` (each its own), with the quick
    look-ahead's questions answered for all of them at once: :meth:`own_income`,
    :meth:`expected`, :meth:`pattern` and :meth:`card_value`, equal to those of
    :class:`~machikoro.engine.lookahead.Lookahead` in each game."""

    def __init__(self, valuation: Valuation, batch, games: np.ndarray):
        self.v = valuation
        self.games = games
        self.owned = batch.owned[games].astype(np.int64)
        self.coins = batch.coins[games].astype(np.float64)
        self.marks = [batch.full_marks(k, games).astype(np.int64)
                      for k in range(len(batch.marks))]  # (over every card)
        self.supply = batch.supply[games].astype(np.int64)
        self.built_nothing = batch.nbuilt[games] == 0
        self.eff = valuation.effective(self.owned, self.marks)
        self.m = len(games)
        self.rows = np.arange(self.m)
        self.row = valuation.rows_of(self.view())
        self.choices = [batch.dice_choices(games, np.full(self.m, s))
                        for s in range(valuation.players)]
        self._incomes: dict = {}
        self._expected: dict = {}  # (seat, dice) -> expected own income, per game
        self._pattern = None

    def view(self, roller=None, total=0, faces=None, towns=None, coins=None,
             built_nothing=None) -> View:
        """A :class:`View` of the positions (coins copied)."""
        return View(self.owned if towns is None else towns,
                    (self.coins if coins is None else coins).copy(),
                    np.zeros(self.m, dtype=np.int64) if roller is None else roller,
                    np.full(self.m, total) if np.isscalar(total) else total, faces,
                    self.built_nothing if built_nothing is None else built_nothing,
                    self.supply, self.marks)

    def own_income(self, roller: np.ndarray, totals: np.ndarray, faces: tuple) -> np.ndarray:
        """What each game's ``roller`` gains if it rolls ``totals`` (per game) showing
        ``faces`` (:meth:`Lookahead.own_income` with the total given)."""
        out = np.zeros(self.m)
        for t in distinct(totals):
            at = totals == t
            key = (t, faces)
            found = self._incomes.get(key)
            if found is None or not np.array_equal(found[0], roller):
                view = self.view(roller, t, faces)
                after = self.v.walk(view, self.row, self.eff, t)
                found = (roller.copy(), after[self.rows, roller] - self.coins[self.rows, roller])
                self._incomes[key] = found
            out[at] = found[1][at]
        return out

    def raised(self, roller: np.ndarray, total: int, faces: tuple) -> np.ndarray:
        """The roll total after each game's roller's additions to a roll of ``total``
        showing ``faces`` (:meth:`Lookahead.effective_total`)."""
        totals = np.full(self.m, total)
        raises = self.v.rules.roll_raises
        if not raises:
            return totals
        coins = self.coins
        for card, clause, n in raises:
            view = View(self.owned, coins.copy(), roller, totals, faces,
                        np.ones(self.m, dtype=bool), self.supply, self.marks)
            ok = self.owned[self.rows, roller, card] > 0
            for test in clause.conditions:
                ok &= holds(test, view, roller, self.v.others)
            if clause.action.asks and ok.any():
                ok &= self.own_income(roller, totals + n, faces) > \
                    self.own_income(roller, totals, faces)
            totals = np.where(ok, totals + n, totals)
        return totals

    def expected(self, seat: np.ndarray | int, dice: int) -> np.ndarray:
        """Expected coins each game's ``seat`` (one per game, or one for all) gains from
        its own roll of ``dice`` dice (:meth:`Lookahead.expected_roll_income`); kept per
        seat and count where every game asks of one seat."""
        if np.isscalar(seat) or (self.m and seat.min() == seat.max()):
            one = int(seat) if np.isscalar(seat) else int(seat[0])
            found = self._expected.get((one, dice))
            if found is None:
                found = self._expected[one, dice] = self._expected_of(
                    np.full(self.m, one, dtype=np.int64), dice)
            return found
        return self._expected_of(seat, dice)

    def _expected_of(self, seat: np.ndarray, dice: int) -> np.ndarray:
        terms = []
        faces_of = self.v.faces
        for t, p in self.v.tables.probabilities(dice):
            faces = faces_for(t, dice, faces_of)
            totals = self.raised(seat, t, faces)
            terms.append(p * self.own_income(seat, totals, faces))
        return py_sum(terms)

    def preferred(self, seat: int) -> np.ndarray:
        """The number of dice ``seat`` prefers in each game: the first of its counts with
        the highest expected own income (:meth:`Lookahead.preferred_dice`)."""
        return self.best_dice(np.full(self.m, seat), self.choices[seat])

    def best_dice(self, seat: np.ndarray, allowed: np.ndarray) -> np.ndarray:
        """Of each game's ``allowed`` counts (a mask over ``program.dice_counts``), the
        first with the highest expected income of ``seat``."""
        counts = self.v.dice_counts
        found = np.full(self.m, -1)
        best = np.zeros(self.m)
        many = allowed.sum(axis=1) > 1
        for j, k in enumerate(counts):
            here = allowed[:, j]
            if not here.any():
                continue
            value = self.expected(seat, k) if (many & here).any() else np.zeros(self.m)
            better = here & ((found < 0) | (value > best))
            found = np.where(better, k, found)
            best = np.where(better, value, best)
        return found

    def pattern(self) -> np.ndarray:
        """``(m, P)``: the dice every seat prefers in each game."""
        if self._pattern is None:
            self._pattern = np.stack([self.preferred(s) for s in range(self.v.players)],
                                     axis=1)
        return self._pattern

    def _copy_gain(self, seat, card: int, towns, roller, total: int, dice: int):
        v = self.v
        view = self.view(roller, total, faces_for(total, dice, v.faces), towns=towns)
        for step in v.tables.programs[card]:
            v.run_chain(step, view, card, seat, 1.0, np.ones(self.m, dtype=bool))
        return view.coins[self.rows, seat] - self.coins[self.rows, seat]

    def card_value(self, seat: np.ndarray, card: int, share: float = 1.0) -> np.ndarray:
        """Expected coins per round one more copy of ``card`` brings each game's ``seat``,
        every seat rolling its preferred dice (:meth:`Lookahead.card_value`), times
        ``share`` (greedy's :func:`~machikoro.agents.greedy.paying_shares`, None: not
        multiplied)."""
        v, rows = self.v, self.rows
        tables = v.tables
        value = np.zeros(self.m)
        if not v.rules.cards[card].activation:
            return value
        towns = self.owned.copy()
        towns[rows, seat, card] += 1
        simple = tables.simple[card]
        if tables.static[card] or simple in (po.FROM_ROLLER, po.FROM_EACH):
            if simple >= 0:
                plus = self.row[rows, seat, card] if tables.self_neutral[card] else \
                    v.per_copy(self.view(seat, towns=towns), seat, card)
            if tables.static[card]:
                gain = np.maximum(0, plus) if simple == po.BANK else \
                    self._copy_gain(seat, card, towns, seat, 0, 1)
            elif simple == po.FROM_EACH:
                gain = np.zeros(self.m)
                for k in range(v.others.shape[1]):
                    gain = gain + np.minimum(plus, self.coins[rows, v.others[seat, k]])
            value = self._rolls(card, seat, lambda r, t, k: (
                np.minimum(plus, self.coins[rows, r]) if simple == po.FROM_ROLLER
                else gain))
            if simple in (po.FROM_ROLLER, po.FROM_EACH):
                value = np.where(plus <= 0, 0.0, value)
        else:
            value = self._rolls(card, seat, lambda r, t, k: self._copy_gain(
                seat, card, towns, np.full(self.m, r), t, k))
        if share != 1.0 or v.rules.blocking_markers:
            value = value * share
        return value

    def _rolls(self, card: int, seat: np.ndarray, gain) -> np.ndarray:
        """The sum over the rolls that activate ``seat``'s ``card`` (rollers in seat order,
        then the card's totals), each seat rolling its preferred dice, of the roll's
        chance times ``gain(roller, total, dice)`` (an array per game), added in that
        order (:meth:`Lookahead._value`)."""
        v = self.v
        mode = v.tables.modes[card]
        pattern = self.pattern()
        value = np.zeros(self.m)
        for r in range(v.players):
            allowed = np.ones(self.m, dtype=bool) if mode == 0 else (
                seat == r if mode == 1 else seat != r)
            if not allowed.any():
                continue
            k_of = pattern[:, r]
            for t in v.rules.cards[card].activation:
                if t > v.top:
                    continue
                p = v.prob[k_of, t]
                live = allowed & (p != 0)
                if not live.any():
                    continue
                term = np.zeros(self.m)
                for k in distinct(k_of[live]):
                    at = live & (k_of == k)
                    term = np.where(at, p * gain(r, t, k), term)
                value = value + term
        return value
