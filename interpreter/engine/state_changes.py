"""What effects do to the state of a game: income, payments, swaps, extra turns, rerolls.

:class:`StateChanges` is a part of :class:`~machikoro.engine.game.Game`: the compiled
actions of the effect language (:mod:`machikoro.language.actions`) call these methods, and
each records its event when the game keeps events.

One roll's income is that of the towns as they stood at the roll (the rules file's
``income.towns: at_roll``, the default): the first change to a town during the income step
(:meth:`StateChanges.towns_changing`: a card given, swapped or returned to the market, a
landmark unbuilt) keeps a copy of the towns before it in ``towns_seen``, which the effects'
amounts and conditions read (``owned`` itself at any other time), so what a card of the
roll sees never depends on which card resolved first. A card that moves keeps its state:
closed copies stay closed, and the coins on a card go with it (:meth:`_move_copy`); the
copies an activation closes are closed where they are now (:meth:`activated_copies`).
"""

from __future__ import annotations

from .chance import ChanceStep
from .explanations import clause_cause, coins_cause
from .phases import INCOME, boost_of, side_roll_item


class StateChanges:
    """The changes effects make, as methods of :class:`~machikoro.engine.game.Game`."""

    __slots__ = ()

    def boost(self, card: int, owner: int) -> int:
        """Extra coins per copy that ``owner``'s built cards, and the cards in force for
        every player that anyone has built, add to ``card``'s payouts."""
        boosts = self.rules.boosts[card]
        if not boosts:
            return 0
        return boost_of(boosts, self.towns_seen[owner], self.towns_seen)

    def gain(self, seat: int, coins: int, card: int) -> None:
        """The bank pays ``seat`` ``coins`` because of ``card``."""
        if self.events is not None:  # (before the coins move: the cause reads the amounts)
            self._log_caused({"type": "income", "player": seat, "coins": coins,
                              "card": self.rules.ids[card], "from": "bank"}, card, seat, seat)
        self.coins[seat] += coins
        if self.received is not None and coins > 0:
            self.received[seat] += coins

    def pay_bank(self, seat: int, owed: int, card: int) -> None:
        """``seat`` pays the bank what it can of ``owed`` coins."""
        have = self.coins[seat]
        paid = min(owed, have)
        if self.events is not None:
            self._log_caused({"type": "payment", "from": seat, "to": None, "coins": paid,
                              "owed": owed, "card": self.rules.ids[card]}, card, seat, seat,
                             have)
        self.coins[seat] = have - paid

    def transfer(self, payer: int, payee: int, owed: int, card: int) -> None:
        """``payer`` pays ``payee`` ``owed`` coins, or all it has; the rest is waived."""
        have = self.coins[payer]
        paid = min(owed, have)
        if self.events is not None:
            self._log_caused({"type": "payment", "from": payer, "to": payee, "coins": paid,
                              "owed": owed, "card": self.rules.ids[card]}, card, payer, payee,
                             have)
        self.coins[payer] = have - paid
        self.coins[payee] += paid
        if self.received is not None and paid > 0:
            self.received[payee] += paid

    def _log_caused(self, event: dict, card: int, payer: int = -1, payee: int = -1,
                    had: int | None = None) -> None:
        """Log ``event``, made by ``card``'s running clause; when the game explains, with
        its ``cause`` (:mod:`machikoro.engine.explanations`): the clause's span, and for
        coins going from ``payer`` to ``payee`` (the same seat for the bank's income or a
        payment to the bank) the amounts, ``had`` being the payer's coins before."""
        if self.explain:
            if payer < 0:
                cause = clause_cause(self, card)
            else:  # the amount is read as the player other than the owner makes it
                other = payee if self.running is not None and payer == self.running[1] \
                    else payer
                cause = coins_cause(self, card, other, had)
            if cause is not None:
                event["cause"] = cause
        self._log(event)

    def swap(self, seat: int, give: int, other: int, take: int, card: int) -> None:
        """``seat`` gives one ``give`` to ``other`` and takes one ``take`` from it."""
        self._move_copy(seat, give, other)
        self._move_copy(other, take, seat)
        ids = self.rules.ids
        if self.events is not None:
            self._log_caused({"type": "swap", "player": seat, "other": other, "give": ids[give],
                              "take": ids[take], "card": ids[card]}, card)

    def grant_extra_turn(self, seat: int, card: int) -> None:
        """``seat`` (the current player) takes another turn after this one."""
        if seat == self.current and not self.extra_turn:
            self.extra_turn = True
            if self.events is not None:
                self._log_caused({"type": "extra_turn", "player": seat,
                                  "card": self.rules.ids[card]}, card)

    def reroll(self, card: int, count: int | None = None) -> None:
        """Roll again (the same number of dice, or ``count``); the new roll replaces the old
        one, and the ``after roll`` hooks run again on it (this card's reroll is used up)."""
        self.rerolls_used.append(card)
        if count is not None:
            self.dice_count = count
        self.roll_for(ChanceStep(self.dice_count, self.rules.dice_faces, "reroll",
                                 self.current, self.rules.ids[card]), StateChanges._rerolled)

    def _rerolled(self, step: ChanceStep, faces: tuple) -> None:
        old = self.dice
        self.dice = faces
        self.total = sum(faces)
        if self.on_roll is not None:
            self.on_roll(self, faces)
        if self.events is not None:
            self._log_caused({"type": "reroll", "player": self.current, "old": list(old),
                              "dice": list(self.dice), "total": self.total, "card": step.card},
                             self.rules.index[step.card])
        self._queue_hooks("after_roll")

    def add_to_roll(self, n: int, card: int) -> None:
        """Raise the roll total by ``n``; the new total is the roll for everyone."""
        self.total += n
        if self.events is not None:
            self._log_caused({"type": "add_to_roll", "player": self.current, "added": n,
                              "total": self.total, "card": self.rules.ids[card]}, card)

    # ------------------------------------------------------------------ cards moving

    def towns_changing(self, kind: int, seat: int, other: int) -> None:
        """A copy of ``kind`` is about to leave ``seat``'s town for ``other``'s (-1: the
        market, or nowhere for a landmark unbuilt). In the income step the first change
        keeps the towns as they stood at the roll in ``towns_seen`` when the rules say
        ``income.towns: at_roll`` (a copy made only then, and only on a roll total where a
        card resolving after the change may count the towns: :attr:`RuleSet.towns_kept`),
        and the moves are logged in ``income_moves`` (:meth:`activated_copies` follows
        them). Both are dropped when the income step ends
        (:meth:`~machikoro.engine.phases.TurnPhases._income_done`)."""
        if self.phase != INCOME:
            return
        moves = self.income_moves
        if moves is None:
            rules = self.rules
            keep = self.total in rules.towns_kept
            if not keep and not rules.follows_copies:
                return  # nothing of this roll reads what the move changes
            moves = self.income_moves = []
            if keep:
                self.towns_seen = [list(town) for town in self.owned]
        moves.append((kind, seat, other))

    def activated_copies(self, owner: int, kind: int, copies: int) -> list[tuple[int, int]]:
        """Where ``copies`` copies of ``owner``'s ``kind`` that activated in this income
        step are now, as ``[(seat, copies)]`` (copies back in the market are not listed).
        Without a move of ``kind`` in the step: all in ``owner``'s town. Else the step's
        moves are followed from the roll: when a copy leaves a town holding activated
        copies and others, one of the others leaves (as an open copy leaves before a closed
        one); only when every copy there is an activated one does an activated one go.
        Copies activated after they arrived in ``owner``'s town during the step (by an
        Exhibit Hall) are taken to be there still."""
        moves = self.income_moves
        if moves is None:
            return [(owner, copies)]
        moved = [(seat, other) for card, seat, other in moves if card == kind]
        if not moved:
            return [(owner, copies)]
        count = [town[kind] for town in self.owned]
        for seat, other in moved:  # back to the copies each town held at the roll
            count[seat] += 1
            if other >= 0:
                count[other] -= 1
        tracked = [0] * self.n
        tracked[owner] = min(copies, max(count[owner], 0))
        later = copies - tracked[owner]  # activated after they arrived (an Exhibit Hall)
        for seat, other in moved:
            if count[seat] <= tracked[seat]:  # only activated copies left there: one goes
                tracked[seat] -= 1
                if other >= 0:
                    tracked[other] += 1
            count[seat] -= 1
            if other >= 0:
                count[other] += 1
        tracked[owner] += later
        return [(seat, n) for seat, n in enumerate(tracked) if n > 0]

    def _move_copy(self, seat: int, kind: int, other: int) -> None:
        """One copy of ``kind`` goes from ``seat``'s town to ``other``'s, with its state:
        an unmarked copy when there is one, else a marked one, which keeps its marker (a
        closed card stays closed with its new owner); the coins stored on the kind are
        shared by its copies, and the copy takes its share (all of them when it is the
        only copy; rounded down)."""
        self.towns_changing(kind, seat, other)
        owned = self.owned
        for marker in self.rules.blocking_markers:
            table = self.marks[marker]
            if table[seat][kind] >= owned[seat][kind]:  # every copy marked: one moves
                table[seat][kind] -= 1
                table[other][kind] += 1
        for marker in self.rules.coin_markers:
            table = self.marks[marker]
            share = table[seat][kind] // owned[seat][kind] if owned[seat][kind] > 0 else 0
            if share:
                table[seat][kind] -= share
                table[other][kind] += share
        owned[seat][kind] -= 1
        owned[other][kind] += 1
        # only ``kind``'s place on the two menus can change: under the limit again for
        # ``seat`` (its menu is made anew), at the limit now for ``other``
        limit = self.rules.limit[kind]
        if owned[seat][kind] == limit - 1:
            self._menus[seat] = None
        if owned[other][kind] >= limit:
            self._off_menu(self.rules.ids[kind], (other,))

    def give(self, seat: int, give: int, other: int, card: int) -> None:
        """``seat`` gives one ``give`` to ``other`` (Moving Company)."""
        self._move_copy(seat, give, other)
        ids = self.rules.ids
        if self.events is not None:
            self._log_caused({"type": "give", "player": seat, "other": other, "give": ids[give],
                              "card": ids[card]}, card)

    def unbuild(self, seat: int, landmark: int, card: int) -> None:
        """``seat``'s built ``landmark`` goes back to unbuilt (Demolition Company); the
        other cards of the same roll still see it built (:meth:`towns_changing`)."""
        self.towns_changing(landmark, seat, -1)
        self.owned[seat][landmark] = 0
        self._menus[seat] = None
        ids = self.rules.ids
        if self.events is not None:
            self._log_caused({"type": "unbuild", "player": seat, "landmark": ids[landmark],
                              "card": ids[card]}, card)

    def activate(self, seat: int, kind: int, card: int) -> None:
        """Every copy of ``seat``'s ``kind`` activates now, for ``seat``, whatever the roll:
        its activation clauses run next (a closed copy reopens instead; Exhibit Hall)."""
        copies = self.owned[seat][kind]
        ids = self.rules.ids
        if self.events is not None:
            self._log_caused({"type": "activate", "player": seat, "activated": ids[kind],
                              "card": ids[card]}, card)
        if self.rules.blocking_markers:
            copies = self._reopen(seat, kind, copies)
        if not copies:
            return
        items = []
        if self.explicit_chance and kind in self.rules.side_roll_cards \
                and kind not in self.side_rolls:
            items.append(side_roll_item(kind, seat))
        for clause in self.rules.activation[kind]:
            if clause.asks:
                items.extend([(kind, seat, 1, clause)] * copies)
            else:
                items.append((kind, seat, copies, clause))
        self.enqueue(items)

    # ------------------------------------------------------------------ markers

    def mark(self, marker: int, seat: int, kind: int, copies: int, card: int) -> None:
        """Put marker ``marker`` on ``copies`` of ``seat``'s ``kind`` (at most all its
        copies): a closed copy gives nothing the next time it would activate."""
        table = self.marks[marker][seat]
        marked = min(self.owned[seat][kind], table[kind] + copies)
        if marked == table[kind]:
            return
        table[kind] = marked
        ids = self.rules.ids
        if self.events is not None:
            self._log_caused({"type": "mark", "player": seat,
                              "marker": self.rules.markers[marker][0], "target": ids[kind],
                              "copies": marked, "card": ids[card]}, card)

    def mark_activated(self, marker: int, owner: int, card: int, copies: int) -> None:
        """Put marker ``marker`` on the ``copies`` copies of ``owner``'s ``card`` that
        activated (``mark this card closed``), wherever they are now: a copy given away or
        swapped in this income step after it activated is closed in its new town; one back
        in the market is not (:meth:`activated_copies`)."""
        if self.income_moves is None:
            self.mark(marker, owner, card, copies, card)
            return
        for seat, n in self.activated_copies(owner, card, copies):
            self.mark(marker, seat, card, n, card)

    def _reopen(self, seat: int, kind: int, copies: int) -> int:
        """The copies of ``seat``'s ``kind`` that activate now: the marked (closed) ones
        lose their marker instead and give nothing."""
        for marker in self.rules.blocking_markers:
            table = self.marks[marker][seat]
            closed = table[kind]
            if closed:
                table[kind] = 0
                copies -= closed
                if self.events is not None:
                    self._log({"type": "reopen", "player": seat, "card": self.rules.ids[kind],
                               "copies": closed, "marker": self.rules.markers[marker][0]})
        return max(copies, 0)

    def _unmark_moved(self, seat: int, kind: int, before: int) -> None:
        """Copies that left ``seat``'s town for the market (``before``: the copies it held)
        leave their markers: the closed copies are at most the copies left (the unmarked
        ones leave first), and the coins stored on the copies that left go to the bank
        (each copy holds an even share of the kind's coins, rounded down)."""
        left = self.owned[seat][kind]
        for marker in self.rules.blocking_markers:
            row = self.marks[marker][seat]
            row[kind] = min(row[kind], left)
        for marker in self.rules.coin_markers:
            row = self.marks[marker][seat]
            if row[kind] and before > left:
                row[kind] = row[kind] - row[kind] // before * (before - left) if left else 0

    def store_coins(self, marker: int, seat: int, kind: int, coins: int) -> None:
        """``seat`` moves ``coins`` of its own onto its ``kind`` (Tech Startup)."""
        self.coins[seat] -= coins
        self.marks[marker][seat][kind] += coins
        if self.events is not None:
            self._log_caused({"type": "store", "player": seat, "coins": coins,
                              "card": self.rules.ids[kind],
                              "on_card": self.marks[marker][seat][kind]}, kind)

    # ------------------------------------------------------------------ coins

    def share_coins(self, card: int) -> None:
        """Every player's coins are pooled and shared out evenly, rounded up; the bank adds
        what is missing (Park)."""
        total = sum(self.coins)
        each = -(-total // self.n)
        before = list(self.coins)
        self.coins[:] = [each] * self.n
        if self.received is not None:
            for seat, had in enumerate(before):
                self.received[seat] += max(0, each - had)
        if self.events is not None:
            self._log_caused({"type": "share", "player": self.current, "coins": each,
                              "before": before, "card": self.rules.ids[card]}, card)

    def side_roll(self, card: int, dice: int) -> int:
        """The total of the side roll of ``card`` in this income step: rolled the first
        time a copy needs it (with explicit chance, a chance step before the income step),
        the same for every other copy; it activates nothing."""
        rolled = self.side_rolls.get(card)
        if rolled is None:
            faces = self._throw(dice)
            rolled = self.side_rolls[card] = sum(faces)
            if self.events is not None:
                self._log({"type": "side_roll", "player": self.current, "dice": list(faces),
                           "total": rolled, "card": self.rules.ids[card]})
        return rolled
