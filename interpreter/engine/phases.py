"""The turn's phases, in the order the rules give them (rules.ja.txt, 'ダイスを振ったら' and
'建設は1枚'):

1. before the roll: the ``dice`` decision when a built card offers a choice of dice;
2. roll; ``after roll`` hooks (``reroll``, adding to the roll);
3. income: the activated cards in colour order (lower ``order`` first: red, then blue and
   green, then purple), owners in payment order from the roller (counterclockwise: the
   previous player first), each payment in full before the next, never more than the payer
   has; the roller's own cards resolve before the other owners' of the same order;
4. ``before build`` hooks; the ``build`` decision (one card or none); a player who has
   built every victory landmark wins at once;
5. ``at end of turn`` hooks (an extra turn on doubles); the next player, or the same one
   for an extra turn.

:class:`TurnPhases` is a part of :class:`~machikoro.engine.game.Game` (its state lives
there); each phase runs until a decision is pending or hands over to the next one.
"""

from __future__ import annotations

from .chance import ChanceStep
from .decision import Decision

START, ROLL, AFTER_ROLL, INCOME, BEFORE_BUILD, BUILD, END, OVER = range(8)
PHASE_NAMES = ("start", "roll", "after_roll", "income", "before_build", "build", "end", "over")
_NO_ITEMS: list = []


class TurnPhases:
    """The steps of a turn, as methods of :class:`~machikoro.engine.game.Game`."""

    __slots__ = ()

    def _log(self, event: dict) -> None:
        if self.events is not None:
            self.events.append(event)

    def _start_turn(self) -> None:
        p = self.current
        self.rerolls_used = []
        self.built_this_turn = []
        self.extra_turn = False
        if self.events is not None:
            self._log({"type": "turn", "turn": self.turn + 1, "player": p,
                       "coins": self.coins[p]})
        counts = self.dice_counts(p) if self.rules.dice_options else (self.rules.dice_count,)
        if len(counts) > 1:
            self.pending = Decision("dice", p, counts)
            return
        self.dice_count = counts[0]
        self._roll_dice()

    def dice_counts(self, seat: int) -> tuple:
        """The numbers of dice ``seat`` may roll: the choices its built cards offer, or the
        rule set's default count when none does."""
        town = self.owned[seat]
        counts: set = set()
        for card, options in self.rules.dice_options:
            if town[card]:
                counts.update(options)
        return tuple(sorted(counts)) if counts else (self.rules.dice_count,)

    def _throw(self, count: int, faces: int | None = None) -> tuple:
        if self._roll is not None:
            return tuple(self._roll(count))
        rnd = self.rng.random
        if faces is None:
            faces = self.rules.dice_faces
        if count == 1:
            return (int(rnd() * faces) + 1,)
        return tuple(int(rnd() * faces) + 1 for _ in range(count))

    def _roll_dice(self) -> None:
        if self.explicit_chance:  # a chance step: wait for apply_chance
            self.phase = ROLL
            self.roll_for(ChanceStep(self.dice_count, self.rules.dice_faces, "roll",
                                     self.current), TurnPhases._rolled)
            return
        self._rolled(None, self._throw(self.dice_count))  # sampled at once

    def _rolled(self, step: ChanceStep | None, faces: tuple) -> None:
        """The turn's roll showed ``faces``: log it, run the ``after roll`` hooks."""
        self.dice = faces
        self.total = sum(faces)
        if self.events is not None:
            self._log({"type": "roll", "player": self.current, "dice": list(self.dice),
                       "total": self.total})
        self._queue_hooks("after_roll")
        self.phase = AFTER_ROLL
        self._run_queue()

    def _queue_hooks(self, trigger: str) -> None:
        self.qpos = 0
        hooks = self.rules.hooks[trigger]
        if not hooks:
            self.queue = _NO_ITEMS
            return
        p = self.current
        town = self.owned[p]
        queue = []
        skip_new = not self.rules.options["landmark_active_on_build_turn"]
        for card, clause in self.rules.hooks[trigger]:
            copies = town[card]
            if copies and not (skip_new and card in self.built_this_turn):
                if clause.asks:
                    queue.extend([(card, p, 1, clause)] * copies)
                else:
                    queue.append((card, p, copies, clause))
        self.queue = queue
        self.qpos = 0

    def _queue_income(self, run_now: bool = True) -> None:
        """Resolve this roll's income in order; from the first clause that asks a decision
        on, queue the rest for :meth:`_run_queue` (it resumes after the answer). With
        ``run_now=False`` nothing runs: every item is queued (look-ahead reads the queue)."""
        queue: list = []
        groups = self.rules.by_roll.get(self.total)
        if groups:
            roller = self.current
            owned = self.owned
            order = self._order[roller]
            for group in groups:
                for owner in order:
                    town = owned[owner]
                    rolled = owner == roller
                    for card, mode, clauses in group:
                        copies = town[card]
                        if not copies or (mode == 1 and not rolled) or (mode == 2 and rolled):
                            continue
                        for clause in clauses:
                            if clause.asks:
                                queue.extend([(card, owner, 1, clause)] * copies)
                            elif queue or not run_now:  # after a decision: all wait
                                queue.append((card, owner, copies, clause))
                            elif not clause.conditions or clause.holds(self, owner):
                                # nothing pending before it: resolve now, in order
                                clause.action.run(self, card, owner, copies)
        self.queue = queue
        self.qpos = 0

    def _run_queue(self) -> None:
        while True:
            queue = self.queue
            while self.qpos < len(queue):
                item = queue[self.qpos]
                self.qpos += 1
                card, owner, copies, clause = item
                if clause.conditions and not clause.holds(self, owner):
                    continue
                action = clause.action
                if clause.asks:
                    available = getattr(action, "available", None)
                    if available is not None and not available(self, card):
                        continue
                    card_id = self.rules.ids[card]
                    self.pending = Decision(action.decision or card_id, owner,
                                            action.options(self, card, owner), card_id)
                    self.pending_item = item
                    return
                action.run(self, card, owner, copies)
                if queue is not self.queue or self.chance_pending is not None:
                    return  # the action replaced the queue (a reroll) or awaits dice
            phase = self.phase
            if phase == AFTER_ROLL:
                self._queue_income()
                self.phase = INCOME
            elif phase == INCOME:
                self._queue_hooks("before_build")
                self.phase = BEFORE_BUILD
            elif phase == BEFORE_BUILD:
                self.builds_left = self.rules.builds_per_turn
                if self.builds_left > 0:
                    self.phase = BUILD
                    self._ask_build()
                    return
                self._queue_hooks("end_of_turn")
                self.phase = END
            else:
                self._end_turn()
                return

    def build_options(self, seat: int | None = None) -> tuple:
        """What ``seat`` (default: the current player) could build now: None and the ids of
        every affordable establishment with copies left in the market and under its
        per-player limit, and every affordable unbuilt landmark."""
        p = self.current if seat is None else seat
        rules = self.rules
        coins, town, supply = self.coins[p], self.owned[p], self.supply
        options: list = [None]
        # (cost, index, id, limit, in the market) sorted by cost: stop at the first card
        # too dear; a landmark has no market pile, only its limit of one
        for cost, i, card_id, limit, market in rules.by_cost:
            if cost > coins:
                break
            if town[i] < limit and (supply[i] > 0 or not market):
                options.append(card_id)
        return tuple(options)

    def _ask_build(self) -> None:
        self.pending = Decision("build", self.current, self.build_options())

    def _build(self, card_id: str | None) -> None:
        p = self.current
        if card_id is None:
            self._log({"type": "pass", "player": p})
            self.builds_left = 0
        else:
            rules = self.rules
            i = rules.index[card_id]
            self.coins[p] -= rules.cost[i]
            self.owned[p][i] += 1
            if not rules.cards[i].is_landmark:
                self.supply[i] -= 1
            self.built_this_turn.append(i)
            self.builds_left -= 1
            self._log({"type": "build", "player": p, "card": card_id, "cost": rules.cost[i]})
            town = self.owned[p]
            for v in rules.victory:
                if not town[v]:
                    break
            else:
                self.winner = p
                self.phase = OVER
                self.turn += 1  # the winning turn ends here, and counts as played
                self._log({"type": "win", "player": p, "turn": self.turn})
                return
        if self.builds_left <= 0:
            self._queue_hooks("end_of_turn")
            self.phase = END

    def _end_turn(self) -> None:
        self.turn += 1
        if self.extra_turn:
            self.extra_turns += 1
        else:
            self.current = (self.current + 1) % self.n
        self.phase = START
        if self.max_turns is not None and self.turn >= self.max_turns:
            self.phase = OVER
            self._log({"type": "turn_limit", "turns": self.turn})
