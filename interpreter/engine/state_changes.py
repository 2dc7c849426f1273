"""What effects do to the state of a game: income, payments, swaps, extra turns, rerolls.

:class:`StateChanges` is a part of :class:`~machikoro.engine.game.Game`: the compiled
actions of the effect language (:mod:`machikoro.language.actions`) call these methods, and
each records its event when the game keeps events.
"""

from __future__ import annotations

from .chance import ChanceStep


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
        self.owned[seat][give] -= 1
        self.owned[other][give] += 1
        self.owned[other][take] -= 1
        self.owned[seat][take] += 1
        ids = self.rules.ids
        self._log({"type": "swap", "player": seat, "other": other, "give": ids[give],
                   "take": ids[take], "card": ids[card]})

    def grant_extra_turn(self, seat: int, card: int) -> None:
        """``seat`` (the current player) takes another turn after this one."""
        if seat == self.current and not self.extra_turn:
            self.extra_turn = True
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
        self._log({"type": "reroll", "player": self.current, "old": list(old),
                   "dice": list(self.dice), "total": self.total, "card": step.card})
        self._queue_hooks("after_roll")

    def add_to_roll(self, n: int, card: int) -> None:
        """Raise the roll total by ``n``; the new total is the roll for everyone."""
        self.total += n
        self._log({"type": "add_to_roll", "player": self.current, "added": n,
                   "total": self.total, "card": self.rules.ids[card]})
