"""The state of a batch of games as arrays, and the state changes effects make on it.

A :class:`Batch` holds N games of one rule set and one player count, every field an array
whose first axis is the game: ``coins`` ``(N, P)``, ``owned`` ``(N, P, C)`` (copies per
card; a landmark 0/1), ``supply`` ``(N, C)`` (face-up market copies), ``marks`` (per marker of
the rules file, ``(N, P, C)`` copies closed, or ``(N, P, K)`` coins stored on the ``K`` cards
that can hold them: :meth:`Batch.full_marks`), ``current`` ``(N,)``
(the seat to play), ``turn`` (turns played), the roll (``dice`` ``(N, D)``, ``ndice``,
``total``, ``doubles``), the turn's state (``rerolled`` per card, ``built`` and ``nbuilt``,
``extra_turn``, ``builds_left``), ``winner`` (-1: none) and ``phase``. The scalar
engine's state of one game, field for field (:meth:`~machikoro.vector.engine.VectorGames.
to_game` turns one back into a :class:`~machikoro.engine.game.Game`).

The methods here are what the kernels call to change the state (a payment, a card moving
between towns or back to the market, an activation, a reroll, a side roll); each acts on
the games ``g`` (an index array, each game once) and mirrors the scalar method of
:mod:`machikoro.engine.state_changes` of the same name.
"""

from __future__ import annotations

import numpy as np

from .rng import Streams

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)

COINS = np.int32
"""The coins' dtype: a game's coins stay far below 2**31."""


class Batch:
    """N games' state (see the module text) for the :class:`~machikoro.vector.program.
    Program` ``program``; ``dice_stream`` gives each game's rolls and deck shuffles."""

    def __init__(self, program, n: int, seeds):
        rules = program.rules
        self.program = program
        self.rules = rules
        self.n, self.players, self.cards = n, program.players, program.cards
        p, c = self.players, self.cards
        self.others = program.others
        self.limit = program.limit
        self.dice_stream = Streams(seeds)
        self.coins = np.array([rules.starting_coins(p)] * n, dtype=COINS).reshape(n, p)
        copies = program.copies_type  # (int8 where every copy of a card fits)
        self.owned = np.zeros((n, p, c), dtype=copies)
        self.owned[:] = np.array(rules.start_town, dtype=copies)
        # flat views for one-index gathers (several times faster than indexing by game,
        # seat and card arrays): the arrays are only ever changed in place
        self.coins_flat = self.coins.reshape(-1)
        self.owned_flat = self.owned.reshape(-1)
        self.towns_flat = self.owned.reshape(n * p, c)
        self.supply = np.zeros((n, c), dtype=copies)
        self.supply[:] = np.array(rules.supply_for(p), dtype=copies)
        # per marker, its table (N, P, columns) and each card's column (-1: none): a
        # marker that holds coins has a column only for the cards that can hold them
        self.marks, self.mark_cols = [], []
        for m, (_, behaviour) in enumerate(rules.markers):
            cols = np.arange(c, dtype=np.int64)
            if behaviour == "holds_coins":
                holders = list(program.coin_cards[m])
                cols = np.full(c, -1, dtype=np.int64)
                cols[holders] = np.arange(len(holders))
                self.marks.append(np.zeros((n, p, max(len(holders), 1)), dtype=COINS))
            else:
                self.marks.append(np.zeros((n, p, c), dtype=copies))
            self.mark_cols.append(cols)
        self.current = np.zeros(n, dtype=np.int64)
        self.turn = np.zeros(n, dtype=np.int64)
        self.extra_turns = np.zeros(n, dtype=np.int64)
        self.dice = np.zeros((n, program.max_dice), dtype=np.int64)
        self.ndice = np.zeros(n, dtype=np.int64)
        self.total = np.zeros(n, dtype=np.int64)
        self.doubles = np.zeros(n, dtype=bool)
        self.dice_count = np.full(n, rules.dice_count, dtype=np.int64)
        self.rerolled = np.zeros((n, c), dtype=bool)
        self.built = np.full((n, max(rules.builds_per_turn, 1)), -1, dtype=np.int64)
        self.nbuilt = np.zeros(n, dtype=np.int64)
        self.builds_left = np.zeros(n, dtype=np.int64)
        self.extra_turn = np.zeros(n, dtype=bool)
        self.winner = np.full(n, -1, dtype=np.int64)
        # per seat, the coins received this turn (only in a rule set that reads them)
        self.received = np.zeros((n, p), dtype=COINS) if rules.tracks_received else None
        self.bound = np.full(n, -1, dtype=np.int64)
        self.side = np.full((n, max(len(program.side_cards), 1)), -1, dtype=np.int64)
        self.phase = np.zeros(n, dtype=np.int64)
        # decks of the market rows that have one: cards in a ring of ``cap`` places,
        # ``lo``..``hi - 1`` (the top at hi - 1)
        self.decks: list = [None] * len(rules.market_rows)
        # per seat, its build menu as bits (program.menu_pos): the cards it may build at
        # some price (under its limit, a copy in the market; a landmark not built), kept
        # up to date by every change of the towns and the market
        self.menu = np.zeros((n, p), dtype=np.uint64) if program.menu_bits else None
        self.dice_log: list | None = None  # (games, faces) per throw, when kept
        self.scripted = None  # (games, counts) -> faces: dice given, not drawn (rule cases)
        # the roll's towns (rules income.towns: at_roll): a copy per game whose income step
        # changed a town on a total where a later card may count them, and the moves
        self.in_income = False  # the engine runs an income step (walk or answer) now
        self.seen = np.zeros((n, p, c), dtype=copies) if program.towns_kept.size else None
        self.seen_on = np.zeros(n, dtype=bool)
        self.n_seen = 0
        self.moves: dict = {}

    # ------------------------------------------------------------------ reading

    def seat_coins(self, g, seat) -> np.ndarray:
        """Each game's ``seat``'s coins (one seat per game, or one for all)."""
        return self.coins_flat.take(g * self.players + seat)

    def copies(self, g, seat, card) -> np.ndarray:
        """Copies of ``card`` in each game's town of ``seat`` (a seat and a card per game,
        or one for all)."""
        return self.owned_flat.take((g * self.players + seat) * self.cards + card)

    def town(self, g, seat) -> np.ndarray:
        """Each game's town of ``seat``: ``(len(g), cards)`` copies."""
        return self.towns_flat.take(g * self.players + seat, axis=0)

    def full_marks(self, marker: int, g=None) -> np.ndarray:
        """``marker``'s table of each game ``g`` (None: every game) over every card:
        ``(len(g), P, C)`` (0 for a card that cannot hold the marker)."""
        table, cols = self.marks[marker], self.mark_cols[marker]
        rows = table if g is None else table[g]
        if table.shape[2] == self.cards:
            return rows
        out = np.zeros(rows.shape[:2] + (self.cards,), dtype=table.dtype)
        has = cols >= 0
        out[:, :, has] = rows[:, :, cols[has]]
        return out

    def set_marks(self, marker: int, values) -> None:
        """Every game's ``marker`` table from ``values`` (``(P, C)`` or ``(N, P, C)``
        over every card); raises ValueError for a card that cannot hold the marker."""
        values = np.asarray(values)
        cols, table = self.mark_cols[marker], self.marks[marker]
        if table.shape[2] == self.cards:
            table[:] = values
            return
        has = cols >= 0
        if values[..., ~has].any():
            raise ValueError(f"coins of marker {marker} on a card that cannot hold them")
        table[..., cols[has]] = values[..., has]

    # ------------------------------------------------------------------ coins

    def add_coins(self, g, seat, amount) -> None:
        """``seat`` gains ``amount`` coins in each game (a seat per game, or one)."""
        cell = g * self.players + seat
        self.coins_flat[cell] = self.coins_flat.take(cell) + amount

    def gain(self, g, seat, amount) -> None:
        """The bank pays ``seat`` ``amount`` coins in each game, counted as received
        (:meth:`StateChanges.gain`)."""
        self.add_coins(g, seat, amount)
        if self.received is not None:
            self.received[g, seat] += np.maximum(amount, 0)

    def transfer(self, g, payer, payee, owed) -> None:
        """``payer`` pays ``payee`` ``owed`` coins in each game, or all it has; the rest
        is waived (:meth:`StateChanges.transfer`)."""
        p, flat = self.players, self.coins_flat
        cell = g * p + payer
        have = flat.take(cell)
        paid = np.minimum(owed, have)
        flat[cell] = have - paid
        cell = g * p + payee
        flat[cell] = flat.take(cell) + paid
        if self.received is not None:
            self.received[g, payee] += paid

    # ------------------------------------------------------------------ cards moving

    def move_copy(self, g, seat, kind, other) -> None:
        """One copy of ``kind`` goes from ``seat``'s town to ``other``'s in each game: an
        unmarked copy when there is one, else a marked one, which keeps its marker
        (:meth:`StateChanges._move_copy`)."""
        self.towns_changing(g, kind, seat, other)
        owned = self.owned
        for marker in self.rules.blocking_markers:
            table = self.marks[marker]
            moves = table[g, seat, kind] >= owned[g, seat, kind]
            if moves.any():
                m = g[moves]
                table[m, seat[moves], kind[moves]] -= 1
                table[m, other[moves], kind[moves]] += 1
        for marker in self.rules.coin_markers:  # the copy takes its share of the coins
            table, col = self.marks[marker], self.mark_cols[marker].take(kind)
            on = np.broadcast_to(col >= 0, g.shape)
            if not on.any():
                continue
            h, s, o, k = (np.broadcast_to(x, g.shape)[on] for x in (g, seat, other, kind))
            col = np.broadcast_to(col, g.shape)[on]
            held = owned[h, s, k].astype(np.int64)
            share = np.where(held > 0, table[h, s, col] // np.maximum(held, 1), 0)
            if share.any():
                table[h, s, col] -= share
                table[h, o, col] += share
        flat, c, p = self.owned_flat, self.cards, self.players
        cell = (g * p + seat) * c + kind
        flat[cell] = flat.take(cell) - 1
        cell = (g * p + other) * c + kind
        flat[cell] = flat.take(cell) + 1
        self.menu_card(g, seat, kind)
        self.menu_card(g, other, kind)

    def return_to_market(self, g, seat, kind: int, copies) -> None:
        """``copies`` of ``seat``'s ``kind`` go back to the market in each game: onto its
        face-up pile, or, in a row with a deck where the kind is not face up, under that
        deck (:meth:`MarketState.return_to_market`)."""
        before = self.owned[g, seat, kind].astype(np.int64)
        copies = np.minimum(copies, before)
        some = copies > 0
        g, seat, copies, before = g[some], seat[some], copies[some], before[some]
        if not len(g):
            return
        for k in range(1, int(copies.max()) + 1):
            going = copies >= k
            self.towns_changing(g[going], kind, seat[going], np.full(int(going.sum()), -1))
        self.owned[g, seat, kind] -= copies.astype(self.owned.dtype)
        left = before - copies
        for marker in self.rules.blocking_markers:
            table = self.marks[marker]
            table[g, seat, kind] = np.minimum(table[g, seat, kind], left)
        for marker in self.rules.coin_markers:  # the coins on the copies that left: to the bank
            table, col = self.marks[marker], int(self.mark_cols[marker][kind])
            if col >= 0:
                held = table[g, seat, col].astype(np.int64)
                table[g, seat, col] = np.where(left > 0, held - held // before * copies, 0)
        r = self.rules.row_of[kind]
        deck = self.decks[r] if r >= 0 else None
        if deck is None:
            self.supply[g, kind] += copies.astype(self.supply.dtype)
        else:
            up = self.supply[g, kind] > 0
            self.supply[g[up], kind] += copies[up].astype(self.supply.dtype)
            down, k = g[~up], copies[~up]
            for _ in range(int(k.max(initial=0))):  # one copy at a time, under the deck
                deck.put_under(down, kind)
                k = k - 1
                down = down[k > 0]
                k = k[k > 0]
        self.menu_pile(g, np.broadcast_to(kind, g.shape))
        if self.rules.market_upkeep:
            self.market_changed(g)

    # ------------------------------------------------------------------ the roll's towns

    def towns_changing(self, g, kind, seat, other) -> None:
        """A copy of ``kind`` is about to leave ``seat``'s town for ``other``'s (-1: the
        market, or nowhere for a landmark unbuilt) in each game. In the income step, under
        the rule ``income.towns: at_roll``, a game on a roll total where a later card may
        count the towns keeps a copy of them as they stood before the first change
        (``seen``, which the effects read: :meth:`seen_copies`), and, when some activation
        acts on its activated copies, logs the move (``moves``:
        :meth:`activated_copies`) (:meth:`StateChanges.towns_changing`)."""
        if not self.in_income or not len(g):
            return
        rules = self.rules
        if self.seen is not None:
            total = self.total.take(g)
            keep = total == self.program.towns_kept[0]
            for kept in self.program.towns_kept[1:]:
                keep |= total == kept
            new = g[keep & ~self.seen_on.take(g)]
            if len(new):
                self.seen[new] = self.owned[new]
                self.seen_on[new] = True
                self.n_seen += len(new)
        if rules.follows_copies:  # the moves of the copies some activation follows
            logged = self.program.followed.take(np.broadcast_to(kind, g.shape))
            if not logged.any():
                return
            kinds, seats, others = (np.broadcast_to(x, g.shape)[logged].tolist()
                                    for x in (kind, seat, other))
            for game, k, a, b in zip(g[logged].tolist(), kinds, seats, others):
                self.moves.setdefault(game, []).append((k, a, b))

    def income_done(self, g) -> None:
        """The income step of games ``g`` is over: what follows reads the towns as they
        are and follows no copy (:meth:`TurnPhases._income_done`)."""
        if self.n_seen:
            on = g[self.seen_on.take(g)]
            if len(on):
                self.seen_on[on] = False
                self.n_seen -= len(on)
        if self.moves:
            logged = np.fromiter(self.moves, dtype=np.int64, count=len(self.moves))
            for game in logged[np.isin(logged, g)].tolist():
                del self.moves[game]

    def seen_copies(self, g, seat, card) -> np.ndarray:
        """Copies of ``card`` in each game's town of ``seat`` as the effects see it: the
        town as it stood at the roll in a game whose income step changed a town."""
        out = self.copies(g, seat, card)
        if self.n_seen:
            on = self.seen_on.take(g)
            if on.any():
                cell = ((g * self.players + seat) * self.cards + card)
                out[on] = self.seen.reshape(-1).take(np.broadcast_to(cell, g.shape)[on])
        return out

    def seen_town(self, g, seat) -> np.ndarray:
        """Each game's town of ``seat`` as the effects see it (:meth:`seen_copies`)."""
        out = self.town(g, seat)
        if self.n_seen:
            on = self.seen_on.take(g)
            if on.any():
                rows = (g * self.players + seat)
                out[on] = self.seen.reshape(-1, self.cards).take(
                    np.broadcast_to(rows, g.shape)[on], axis=0)
        return out

    def seen_count(self, g, seat, cards: tuple) -> np.ndarray:
        """Copies of ``cards`` (card indices) in each game's town of ``seat`` as the effects
        see it (:meth:`seen_town`), int64: what ``has Q NAMES`` and ``N per NAME`` count."""
        if self.n_seen:
            return self.seen_town(g, seat)[:, list(cards)].sum(axis=1, dtype=np.int64)
        if len(cards) <= 4:  # a take per card beats the town's row
            cell = (g * self.players + seat) * self.cards
            out = self.owned_flat.take(cell + cards[0]).astype(np.int64)
            for card in cards[1:]:
                out += self.owned_flat.take(cell + card)
            return out
        return self.town(g, seat)[:, list(cards)].sum(axis=1, dtype=np.int64)

    def seen_built(self, g, seat, cards: tuple) -> np.ndarray:
        """How many of ``cards`` each game's ``seat`` has at least one of, as the effects
        see its town (int64): what ``has NAME`` and ``has Q landmarks`` count."""
        if self.n_seen:
            return (self.seen_town(g, seat)[:, list(cards)] > 0).sum(axis=1, dtype=np.int64)
        if len(cards) <= 4:
            cell = (g * self.players + seat) * self.cards
            out = (self.owned_flat.take(cell + cards[0]) > 0).astype(np.int64)
            for card in cards[1:]:
                out += self.owned_flat.take(cell + card) > 0
            return out
        return (self.town(g, seat)[:, list(cards)] > 0).sum(axis=1, dtype=np.int64)

    def seen_towns(self, g) -> np.ndarray:
        """Each game's every town as the effects see them: ``(len(g), P, C)``."""
        out = self.owned[g]
        if self.n_seen:
            on = self.seen_on.take(g)
            if on.any():
                out[on] = self.seen[g[on]]
        return out

    def activated_copies(self, game: int, owner: int, kind: int, copies: int) -> list:
        """Where ``copies`` copies of ``owner``'s ``kind`` that activated in game
        ``game``'s income step are now, as ``[(seat, copies)]`` (the scalar engine's
        :meth:`StateChanges.activated_copies`, one game at a time: a rare case)."""
        moved = [(a, b) for k, a, b in self.moves.get(game, ()) if k == kind]
        if not moved:
            return [(owner, copies)]
        count = [int(self.owned[game, s, kind]) for s in range(self.players)]
        for a, b in moved:  # back to the copies each town held at the roll
            count[a] += 1
            if b >= 0:
                count[b] -= 1
        tracked = [0] * self.players
        tracked[owner] = min(copies, max(count[owner], 0))
        later = copies - tracked[owner]
        for a, b in moved:
            if count[a] <= tracked[a]:
                tracked[a] -= 1
                if b >= 0:
                    tracked[b] += 1
            count[a] -= 1
            if b >= 0:
                count[b] += 1
        tracked[owner] += later
        return [(s, n) for s, n in enumerate(tracked) if n > 0]

    def followed(self, g, kind: int) -> np.ndarray:
        """Which games ``g`` moved a copy of ``kind`` in this income step (their activated
        copies must be followed: :meth:`activated_copies`)."""
        moves = self.moves
        if not moves:
            return np.zeros(len(g), dtype=bool)
        if len(g) <= len(moves):  # the shorter of the two lists is read
            return np.array([any(k == kind for k, _, _ in moves.get(game, ()))
                             for game in g.tolist()], dtype=bool)
        moved = [game for game, log in moves.items() if any(k == kind for k, _, _ in log)]
        return np.isin(g, moved)

    def activate(self, g, owner, kind) -> None:
        """Every copy of ``owner``'s ``kind`` activates now, for ``owner``, whatever the
        roll: its activation clauses run next (a closed copy reopens instead; Exhibit
        Hall); the engine runs them (:meth:`StateChanges.activate`)."""
        copies = self.copies(g, owner, kind).astype(np.int64)
        copies = self.reopen(g, owner, kind, copies)
        self.ins_card[g] = np.where(copies > 0, kind, -1)
        self.ins_owner[g] = owner
        self.ins_copies[g] = copies
        self.ins_pos[g] = 0
        self.ins_copy[g] = 0
        self.ins_step[g] = 0

    def reopen(self, g, seat, kind, copies, cell=None):
        """The copies of each game's ``seat``'s ``kind`` that activate now: the closed
        ones lose their marker instead and give nothing (:meth:`StateChanges._reopen`).
        ``cell``: the flat index of each game's ``seat``'s ``kind``, when known."""
        markers = self.rules.blocking_markers
        if not markers:
            return copies
        if cell is None:
            cell = np.broadcast_to((g * self.players + seat) * self.cards + kind, g.shape)
        for marker in markers:
            table = self.marks[marker].reshape(-1)
            closed = table.take(cell)
            shut = np.flatnonzero(closed)
            if len(shut):
                table[cell.take(shut)] = 0
                copies = copies - closed
        return np.maximum(copies, 0)

    # ------------------------------------------------------------------ dice

    def throw(self, g, count) -> np.ndarray:
        """Roll ``count`` dice (one count per game, or one for all) in each game: the
        faces, a ``(len(g), max count)`` array padded with 0. Two dice come from one
        64-bit draw of the game's stream (its low and high 32 bits)."""
        counts = np.broadcast_to(np.asarray(count, dtype=np.int64), g.shape)
        width = int(counts.max(initial=0))
        if self.scripted is not None:  # a rule case's rolls: (games, counts) -> faces
            faces = np.asarray(self.scripted(g, counts), dtype=np.int64).reshape(len(g), -1)
            if self.dice_log is not None:
                self.dice_log.append((g.copy(), faces.copy(), counts.copy()))
            return faces
        faces = np.zeros((len(g), max(width, 1)), dtype=np.int64)
        stream, sides = self.dice_stream, np.uint64(self.rules.dice_faces)
        for d in range(0, width, 2):
            rolling = counts > d
            every = rolling.all()
            bits = stream.bits(g if every else g[rolling])
            low = (((bits & _LOW32) * sides) >> _S32).astype(np.int64) + 1
            if every:
                faces[:, d] = low
            else:
                faces[rolling, d] = low
            if d + 1 < width:
                high = (((bits >> _S32) * sides) >> _S32).astype(np.int64) + 1
                second = counts[rolling] > d + 1
                rows = np.flatnonzero(rolling)[second]
                faces[rows, d + 1] = high[second]
        if self.dice_log is not None:
            self.dice_log.append((g.copy(), faces.copy(), counts.copy()))
        return faces

    def set_roll(self, g, count) -> None:
        """The turn's roll (or a reroll) of ``count`` dice in each game."""
        counts = np.broadcast_to(np.asarray(count, dtype=np.int64), g.shape)
        if self.dice.shape[1] == 2 and self.scripted is None and len(g) \
                and counts.min() >= 1:  # one or two dice: one draw each game
            every = g is getattr(self, "every", None)
            bits = self.dice_stream.bits(g, every)
            sides = np.uint64(self.rules.dice_faces)
            first = (((bits & _LOW32) * sides) >> _S32).astype(np.int64) + 1
            two = counts == 2
            second = np.where(two, (((bits >> _S32) * sides) >> _S32).astype(np.int64) + 1,
                              0)
            if every:  # every slot rolls: whole-array writes
                self.dice[:, 0] = first
                self.dice[:, 1] = second
                self.ndice[:] = counts
                np.add(first, second, out=self.total)
                np.logical_and(two, first == second, out=self.doubles)
            else:
                self.dice[g, 0] = first
                self.dice[g, 1] = second
                self.ndice[g] = counts
                self.total[g] = first + second
                self.doubles[g] = two & (first == second)
            if self.dice_log is not None:
                self.dice_log.append((g.copy(), np.stack([first, second], axis=1),
                                      counts.copy()))
            return
        faces = self.throw(g, count)
        width = faces.shape[1]
        if width == self.dice.shape[1]:
            self.dice[g] = faces
        else:
            self.dice[g] = 0
            self.dice[g, :width] = faces
        self.ndice[g] = counts
        self.total[g] = faces.sum(axis=1)
        if width == 2:
            self.doubles[g] = (counts == 2) & (faces[:, 0] == faces[:, 1])
        else:
            used = np.arange(width) < counts[:, None]
            self.doubles[g] = (counts > 1) & ((faces == faces[:, :1]) | ~used).all(axis=1)

    def reroll(self, g, card: int, count) -> None:
        """Roll again (the same number of dice, or ``count``); the new roll replaces the
        old one and the ``after roll`` hooks run again on it; this card's reroll is used
        up (:meth:`StateChanges.reroll`)."""
        self.rerolled[g, card] = True
        if count is not None:
            self.dice_count[g] = count
        self.set_roll(g, self.dice_count[g])
        self.restart[g] = True

    def side_roll(self, g, card: int, dice: int) -> np.ndarray:
        """The total of ``card``'s side roll in this income step in each game: rolled the
        first time a copy needs it, the same for every other copy
        (:meth:`StateChanges.side_roll`)."""
        k = self.program.side_index[card]
        rolled = self.side[g, k]
        fresh = rolled < 0
        if fresh.any():
            new = g[fresh]
            self.side[new, k] = self.throw(new, dice).sum(axis=1)
            rolled = self.side[g, k]
        return rolled.astype(np.int64)

    def dice_choices(self, g, seat) -> np.ndarray:
        """``(len(g), len(program.dice_counts))``: the dice counts each game's ``seat``
        may roll (the choices its built cards offer, or the rule set's count)."""
        program = self.program
        out = np.zeros((len(g), len(program.dice_counts)), dtype=bool)
        for card, offers in zip(program.dice_cards, program.dice_offers):
            out |= (self.copies(g, seat, card) > 0)[:, None] & offers
        none = ~out.any(axis=1)
        out[none, program.default_dice] = True
        return out

    # ------------------------------------------------------------------ build menus

    def costs_now(self, g, seat) -> np.ndarray:
        """``(len(g), cards)``: what each card costs each game's ``seat`` now
        (:meth:`Game.cost_to`): its tier for the victory landmarks ``seat`` has built,
        less the cost changes in force for it (its own cards', or anyone's card in force
        for every player); a discount never takes a cost below 0."""
        p = self.program
        town = self.town(g, seat)
        if p.tiered:
            built = (town[:, p.victory] > 0).sum(axis=1)
            tier = np.minimum(built, p.tiers.shape[1] - 1)
            cost = p.tiers[:, tier].T.copy()
        else:
            cost = np.broadcast_to(p.cost, (len(g), self.cards)).copy()
        if not p.discounts:
            return cost
        less = np.zeros_like(cost)
        for source, cards, n, shared in p.discounts:
            on = town[:, source] > 0
            if shared:
                on = on | (self.owned[g, :, source] > 0).any(axis=1)
            less += np.outer(on, cards) * n
        return np.where(less > 0, np.maximum(cost - less, np.minimum(cost, 0)), cost - less)

    def refresh_menus(self, g) -> None:
        """Make every seat's build menu anew in games ``g`` (after a change of the towns
        or the market that the incremental updates do not follow)."""
        if self.menu is None or not len(g):
            return
        p = self.program
        cards = p.by_cost
        up = (self.supply[g][:, cards] > 0) | p.pileless[cards]
        weights = np.uint64(1) << np.arange(len(cards), dtype=np.uint64)
        for seat in range(self.players):
            ok = up & (self.owned[g, seat][:, cards] < p.limit[cards])
            self.menu[g, seat] = (ok * weights).sum(axis=1, dtype=np.uint64)

    def menu_card(self, g, seat, card) -> None:
        """Bring ``card``'s bit of ``seat``'s menu up to date in each game (one card per
        game), after its town or the card's market pile changed."""
        if self.menu is None or not len(g):
            return
        p = self.program
        ok = (self.copies(g, seat, card) < p.limit[card]) & (
            (self.supply.reshape(-1).take(g * self.cards + card) > 0) | p.pileless[card])
        weight = p.menu_weight[card]
        flat = self.menu.reshape(-1)
        cell = g * self.players + seat
        menu = flat.take(cell)
        flat[cell] = np.where(ok, menu | weight, menu & ~weight)

    def menu_pile(self, g, card) -> None:
        """``card``'s bit of every seat's menu in each game, after its pile changed."""
        seats = np.arange(self.players)
        for seat in seats:
            self.menu_card(g, np.full(len(g), seat), card)

    # ------------------------------------------------------------------ the market

    def buildable(self, g, card) -> np.ndarray:
        """True in the games where some player may still own one more ``card`` (one card
        for all games, or one per game)."""
        card = np.broadcast_to(np.asarray(card, dtype=np.int64), g.shape)
        return (self.owned[g[:, None], np.arange(self.players), card[:, None]]
                < self.limit[card][:, None]).any(axis=1)

    def market_changed(self, g) -> None:
        """After a card left or joined the market: retire what nobody may build (when the
        rules say so), then refill every row with a deck (:meth:`MarketState.
        market_changed`)."""
        rules = self.rules
        for r, row in enumerate(rules.market_rows):
            deck = self.decks[r]
            if deck is None:
                continue
            if rules.retire_unbuildable:
                for card in row.cards:
                    up = g[self.supply[g, card] > 0]
                    if len(up):
                        gone = up[~self.buildable(up, card)]
                        self.supply[gone, card] = 0
                        self.menu_pile(gone, np.full(len(gone), card))
            self.refill(g, r)

    def refill(self, g, r: int) -> None:
        """Reveal cards from row ``r``'s deck until it shows its number of kinds (a card
        nobody may build leaves the game instead, with ``retire_unbuildable``)."""
        row, deck = self.rules.market_rows[r], self.decks[r]
        retire = self.rules.retire_unbuildable
        cards = list(row.cards)
        shown = (self.supply[g][:, cards] > 0).sum(axis=1)
        todo = (shown < row.kinds) & (deck.size(g) > 0)
        g, shown = g[todo], shown[todo]
        while len(g):
            card = deck.pop(g)
            keep = self.buildable(g, card) if retire else np.ones(len(g), dtype=bool)
            kept, kc = g[keep], card[keep]
            new = self.supply[kept, kc] == 0
            shown[keep] += new
            self.supply[kept, kc] += 1
            self.menu_pile(kept[new], kc[new])
            todo = (shown < row.kinds) & (deck.size(g) > 0)
            g, shown = g[todo], shown[todo]


class Deck:
    """One market row's decks, one per game: a ring of ``cap`` places (the row's cards in
    the box) holding each game's cards ``lo``..``hi - 1`` (the top at ``hi - 1``)."""

    def __init__(self, n: int, cap: int, card_type=np.int16):
        self.cap = max(cap, 1)
        self.cards = np.zeros((n, self.cap), dtype=card_type)
        self.lo = np.zeros(n, dtype=np.int64)
        self.hi = np.zeros(n, dtype=np.int64)

    def size(self, g) -> np.ndarray:
        """Cards left in each game's deck."""
        return self.hi[g] - self.lo[g]

    def pop(self, g) -> np.ndarray:
        """Take the top card of each game's deck (each must have one)."""
        self.hi[g] -= 1
        return self.cards[g, self.hi[g] % self.cap].astype(np.int64)

    def put_under(self, g, card) -> None:
        """Put ``card`` under each game's deck."""
        self.lo[g] -= 1
        self.cards[g, self.lo[g] % self.cap] = card

    def of(self, game: int) -> list:
        """Game ``game``'s deck as the scalar engine keeps it (the top last)."""
        lo, hi = int(self.lo[game]), int(self.hi[game])
        return [int(self.cards[game, k % self.cap]) for k in range(lo, hi)]

    def take(self, games: np.ndarray) -> Deck:
        """A copy of the decks of ``games`` (an index array; a game may repeat), in that
        order, each game's cards at places ``0..size - 1``."""
        new = Deck.__new__(Deck)
        new.cap = self.cap
        lo = self.lo[games]
        places = (lo[:, None] + np.arange(self.cap)) % self.cap
        new.cards = self.cards[games[:, None], places]
        new.lo = np.zeros(len(games), dtype=np.int64)
        new.hi = self.hi[games] - lo
        return new

    def set(self, game: int, cards: list) -> None:
        """Make game ``game``'s deck ``cards`` (the top last)."""
        if len(cards) > self.cap:
            raise ValueError("a deck larger than its row's cards")
        self.lo[game], self.hi[game] = 0, len(cards)
        self.cards[game, :len(cards)] = cards
