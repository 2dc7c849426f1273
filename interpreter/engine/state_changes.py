"""What effects do to the state of a game: income, payments, swaps, extra turns, rerolls.

:class:`StateChanges` is a part of :class:`~machikoro.engine.game.Game`: the compiled
actions of the effect language (:mod:`machikoro.language.actions`) call these methods, and
each records its event when the game keeps events.
"""

from __future__ import annotations

from .chance import ChanceStep
from .phases import side_roll_item


class StateChanges:
    """The changes effects make, as methods of :class:`~machikoro.engine.game.Game`."""

    __slots__ = ()

    def boost(self, card: int, owner: int) -> int:
        """Extra coins per copy that ``owner``'s built cards add to ``card``'s payouts."""
        boosts = self.rules.boosts[card]
        if not boosts:
            return 0
        town = self.owned[owner]
        return sum(n for source, n in boosts if town[source])

    def gain(self, seat: int, coins: int, card: int) -> None:
        """The bank pays ``seat`` ``coins`` because of ``card``."""
        self.coins[seat] += coins
        if self.events is not None:
            self._log({"type": "income", "player": seat, "coins": coins,
                       "card": self.rules.ids[card], "from": "bank"})

    def pay_bank(self, seat: int, owed: int, card: int) -> None:
        """``seat`` pays the bank what it can of ``owed`` coins."""
        paid = min(owed, self.coins[seat])
        self.coins[seat] -= paid
        if self.events is not None:
            self._log({"type": "payment", "from": seat, "to": None, "coins": paid, "owed": owed,
                       "card": self.rules.ids[card]})

    def transfer(self, payer: int, payee: int, owed: int, card: int) -> None:
        """``payer`` pays ``payee`` ``owed`` coins, or all it has; the rest is waived."""
        have = self.coins[payer]
        paid = min(owed, have)
        self.coins[payer] = have - paid
        self.coins[payee] += paid
        if self.events is not None:
            self._log({"type": "payment", "from": payer, "to": payee, "coins": paid,
                       "owed": owed, "card": self.rules.ids[card]})

    def swap(self, seat: int, give: int, other: int, take: int, card: int) -> None:
        """``seat`` gives one ``give`` to ``other`` and takes one ``take`` from it."""
        self._move_copy(seat, give, other)
        self._move_copy(other, take, seat)
        ids = self.rules.ids
        if self.events is not None:
            self._log({"type": "swap", "player": seat, "other": other, "give": ids[give],
                       "take": ids[take], "card": ids[card]})

    def grant_extra_turn(self, seat: int, card: int) -> None:
        """``seat`` (the current player) takes another turn after this one."""
        if seat == self.current and not self.extra_turn:
            self.extra_turn = True
            if self.events is not None:
                self._log({"type": "extra_turn", "player": seat, "card": self.rules.ids[card]})

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
        if self.events is not None:
            self._log({"type": "reroll", "player": self.current, "old": list(old),
                       "dice": list(self.dice), "total": self.total, "card": step.card})
        self._queue_hooks("after_roll")

    def add_to_roll(self, n: int, card: int) -> None:
        """Raise the roll total by ``n``; the new total is the roll for everyone."""
        self.total += n
        if self.events is not None:
            self._log({"type": "add_to_roll", "player": self.current, "added": n,
                       "total": self.total, "card": self.rules.ids[card]})

    # ------------------------------------------------------------------ cards moving

    def _move_copy(self, seat: int, kind: int, other: int) -> None:
        """One copy of ``kind`` goes from ``seat``'s town to ``other``'s: an unmarked copy
        when there is one, else a marked one, which keeps its marker (a closed card stays
        closed with its new owner)."""
        owned = self.owned
        for marker in self.rules.blocking_markers:
            table = self.marks[marker]
            if table[seat][kind] >= owned[seat][kind]:  # every copy marked: one moves
                table[seat][kind] -= 1
                table[other][kind] += 1
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
            self._log({"type": "give", "player": seat, "other": other, "give": ids[give],
                       "card": ids[card]})

    def unbuild(self, seat: int, landmark: int, card: int) -> None:
        """``seat``'s built ``landmark`` goes back to unbuilt (Demolition Company)."""
        self.owned[seat][landmark] = 0
        self._menus[seat] = None
        ids = self.rules.ids
        if self.events is not None:
            self._log({"type": "unbuild", "player": seat, "landmark": ids[landmark],
                       "card": ids[card]})

    def activate(self, seat: int, kind: int, card: int) -> None:
        """Every copy of ``seat``'s ``kind`` activates now, for ``seat``, whatever the roll:
        its activation clauses run next (a closed copy reopens instead; Exhibit Hall)."""
        copies = self.owned[seat][kind]
        ids = self.rules.ids
        if self.events is not None:
            self._log({"type": "activate", "player": seat, "activated": ids[kind],
                       "card": ids[card]})
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
            self._log({"type": "mark", "player": seat, "marker": self.rules.markers[marker][0],
                       "target": ids[kind], "copies": marked, "card": ids[card]})

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

    def _unmark_moved(self, seat: int, kind: int) -> None:
        """Copies that left ``seat``'s town for the market leave their markers: the closed
        copies are at most the copies left (the unmarked ones leave first)."""
        for marker in self.rules.blocking_markers:
            row = self.marks[marker][seat]
            row[kind] = min(row[kind], self.owned[seat][kind])

    def store_coins(self, marker: int, seat: int, kind: int, coins: int) -> None:
        """``seat`` moves ``coins`` of its own onto its ``kind`` (Tech Startup)."""
        self.coins[seat] -= coins
        self.marks[marker][seat][kind] += coins
        if self.events is not None:
            self._log({"type": "store", "player": seat, "coins": coins,
                       "card": self.rules.ids[kind], "on_card": self.marks[marker][seat][kind]})

    # ------------------------------------------------------------------ coins

    def share_coins(self, card: int) -> None:
        """Every player's coins are pooled and shared out evenly, rounded up; the bank adds
        what is missing (Park)."""
        total = sum(self.coins)
        each = -(-total // self.n)
        before = list(self.coins)
        self.coins[:] = [each] * self.n
        if self.events is not None:
            self._log({"type": "share", "player": self.current, "coins": each, "before": before,
                       "card": self.rules.ids[card]})

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
