"""The turn's phases, in the order the rules give them (rules.ja.txt, 'ダイスを振ったら' and
'建設は1枚'):

1. before the roll: ``before roll`` hooks; the ``dice`` decision when a built card offers a
   choice of dice;
2. roll; ``after roll`` hooks (``reroll``, adding to the roll);
3. income: the activated cards in colour order (lower ``order`` first: red, then blue and
   green, then purple), owners in payment order from the roller (counterclockwise: the
   previous player first), each payment in full before the next, never more than the payer
   has; the roller's own cards resolve before the other owners' of the same order; a copy
   closed for renovation gives nothing and reopens instead; when cards of a colour whose
   owner chooses the order (the rules: 紫が複数種類あれば、自分の都合のよい順で処理できます)
   activate together and their order can change the result, the ``order`` decision;
4. ``before build`` hooks; the ``build`` decision (one card or none); a player who has
   built every victory landmark wins at once;
5. ``at end of turn`` hooks (an extra turn on doubles); the next player, or the same one
   for an extra turn.

:class:`TurnPhases` is a part of :class:`~machikoro.engine.game.Game` (its state lives
there); each phase runs until a decision is pending or hands over to the next one.
"""

from __future__ import annotations

from itertools import repeat

from ..language.clauses import Clause
from .chance import ChanceStep
from .decision import Decision
from .ordering import order_clause

START, ROLL, AFTER_ROLL, INCOME, BEFORE_BUILD, BUILD, END, OVER, BEFORE_ROLL = range(9)
PHASE_NAMES = ("start", "roll", "after_roll", "income", "before_build", "build", "end", "over",
               "before_roll")
_NO_ITEMS: tuple = ()  # an empty queue (a tuple: nothing is ever inserted into it)
_NO_ORDERING = repeat(())  # no group of this roll needs the order decision


class _RollSideNow:
    """A queue item's action that makes a card's side roll a chance step now (explicit
    chance only): for a card activated in the middle of the income step (by another card),
    whose side roll was not made before it."""

    asks = False
    static = False
    rest = None

    def __init__(self, card: int):
        self.card = card

    def run(self, game, card: int, owner: int, copies: int) -> None:
        rules = game.rules
        if self.card in game.side_rolls:
            return
        game.roll_for(ChanceStep(rules.side_roll_cards[self.card], rules.dice_faces,
                                 "side_roll", game.current, rules.ids[self.card]),
                      TurnPhases._side_rolled)


def side_roll_item(card: int, owner: int) -> tuple:
    """A queue item that makes ``card``'s side roll a chance step before its clauses run."""
    return (card, owner, 0, Clause(None, (), _RollSideNow(card), "side roll"))


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
        self.bound = None
        if self.events is not None:
            self._log({"type": "turn", "turn": self.turn + 1, "player": p,
                       "coins": self.coins[p]})
        if self.rules.hooks["before_roll"]:
            self._queue_hooks("before_roll")
            self.phase = BEFORE_ROLL
            self._run_queue()
            return
        self._choose_dice()

    def _choose_dice(self) -> None:
        """The ``dice`` decision when the roller's cards offer a choice, else the roll."""
        p = self.current
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
        if self.side_rolls:
            self.side_rolls = {}  # a new roll: the side rolls of this income are to come
        if self.events is not None:
            self._log({"type": "roll", "player": self.current, "dice": list(self.dice),
                       "total": self.total})
        self._queue_hooks("after_roll")
        self.phase = AFTER_ROLL
        self._run_queue()

    def _side_roll_step(self) -> bool:
        """With explicit chance, a side roll is a chance step made before the income step,
        for each card with a side roll that this roll activates for some owner: True when
        one now waits for its outcome (:meth:`_side_rolled` goes on)."""
        rules = self.rules
        roller = self.current
        for group in rules.by_roll.get(self.total, ()):
            for card, mode, clauses in group:
                if card not in rules.side_roll_cards or card in self.side_rolls:
                    continue
                if any(town[card] and not ((mode == 1 and seat != roller) or
                                           (mode == 2 and seat == roller))
                       for seat, town in enumerate(self.owned)):
                    dice = rules.side_roll_cards[card]
                    self.roll_for(ChanceStep(dice, rules.dice_faces, "side_roll", roller,
                                             rules.ids[card]), TurnPhases._side_rolled)
                    return True
        return False

    def _side_rolled(self, step: ChanceStep, faces: tuple) -> None:
        """A side roll's outcome came (explicit chance): keep it, go on with the turn."""
        card = self.rules.index[step.card]
        self.side_rolls[card] = sum(faces)
        self._log({"type": "side_roll", "player": self.current, "dice": list(faces),
                   "total": self.side_rolls[card], "card": step.card})
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
            rules = self.rules
            blocking = rules.blocking_markers
            ordering = rules.order_groups.get(self.total) if rules.order_groups else None
            for group, involved in zip(groups, ordering or _NO_ORDERING):
                for owner in self._order[roller]:
                    town = owned[owner]
                    rolled = owner == roller
                    mark = -1
                    if involved and self._ask_order(queue, involved, owner, rolled):
                        mark = len(queue) - 1
                        run_now = False  # the owner orders these cards: all of them wait
                    for card, mode, clauses in group:
                        copies = town[card]
                        if not copies or (mode == 1 and not rolled) or (mode == 2 and rolled):
                            continue
                        if blocking:
                            copies = self._reopen(owner, card, copies)
                            if not copies:
                                continue
                        for clause in clauses:
                            if clause.asks:
                                queue.extend([(card, owner, 1, clause)] * copies)
                            elif queue or not run_now:  # after a decision: all wait
                                queue.append((card, owner, copies, clause))
                            elif not clause.conditions or clause.holds(self, owner):
                                # nothing pending before it: resolve now, in order
                                happened = clause.action.run(self, card, owner, copies)
                                if clause.rest is not None and happened is not False:
                                    self._run_rest(card, owner, copies, clause.rest)
                    if mark >= 0:  # the order decision reorders the items queued after it
                        queue[mark] = (-1, owner, len(queue) - mark - 1, queue[mark][3])
        self.queue = queue
        self.qpos = 0

    def _run_rest(self, card: int, owner: int, copies: int, rest) -> None:
        """Run the ``then`` steps of a clause that asks nothing, while each happens."""
        while rest is not None:
            if rest.action.run(self, card, owner, copies) is False:
                return
            rest = rest.rest

    def _ask_order(self, queue: list, candidates: tuple, owner: int, rolled: bool) -> bool:
        """Queue the ``order`` decision when two or more of ``owner``'s activated cards
        among ``candidates`` (``(card, mode)`` pairs: the cards of this group whose colour
        lets the owner choose the order, and whose order can change the result with another
        of them, :attr:`RuleSet.conflicts`) are activated together; True when queued."""
        town = self.owned[owner]
        kinds = [card for card, mode in candidates if town[card]
                 and not ((mode == 1 and not rolled) or (mode == 2 and rolled))]
        conflicts = self.rules.conflicts
        involved = tuple(k for k in kinds if any(frozenset((k, o)) in conflicts
                                                 for o in kinds if o != k))
        if len(involved) < 2:
            return False
        queue.append((-1, owner, 0, order_clause(involved)))
        return True

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
                if action.asks:
                    if self._ask(item):
                        return
                    continue
                happened = action.run(self, card, owner, copies)
                if clause.rest is not None and happened is not False:
                    self.qins = self.qpos
                    self.enqueue([(card, owner, copies, clause.rest)])
                if queue is not self.queue or self.chance_pending is not None:
                    return  # the action replaced the queue (a reroll) or awaits dice
            # the queue of this phase is done: go on to the next phase
            phase = self.phase
            if phase == AFTER_ROLL:
                if self.explicit_chance and self.side_rolls is not None and \
                        self._side_roll_step():
                    return  # a side roll waits for its outcome
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
            elif phase == BEFORE_ROLL:
                self._choose_dice()
                return
            else:
                self._end_turn()
                return

    def _ask(self, item: tuple) -> bool:
        """Make the decision of a queue item pending; False when it cannot be asked (a
        reroll already used, or no legal answer: the action cannot happen)."""
        card, owner, _, clause = item
        action = clause.action
        available = getattr(action, "available", None)
        if available is not None and not available(self, card):
            return False
        options = action.options(self, card, owner)
        if not options:
            return False
        card_id = self.rules.ids[card] if card >= 0 else None
        self.pending = Decision(action.decision or card_id, owner, options, card_id)
        self.pending_item = item
        return True

    def enqueue(self, items: list) -> None:
        """Insert queue items to run next, after any inserted before them by the same
        step (a card activated by another, the ``then`` steps of a clause)."""
        self.queue[self.qins:self.qins] = items
        self.qins += len(items)

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
                if rules.market_upkeep:
                    self.market_changed()
            self.built_this_turn.append(i)
            self.builds_left -= 1
            self._log({"type": "build", "player": p, "card": card_id, "cost": rules.cost[i]})
            if rules.cards[i].is_landmark and self.has_won(p):
                self.winner = p
                self.phase = OVER
                self.turn += 1  # the winning turn ends here, and counts as played
                self._log({"type": "win", "player": p, "turn": self.turn})
                return
        if self.builds_left <= 0:
            self._queue_hooks("end_of_turn")
            self.phase = END

    def has_won(self, seat: int) -> bool:
        """True when ``seat`` has built the victory landmarks (all of them, or the rule
        set's ``victory.count`` of them)."""
        rules, town = self.rules, self.owned[seat]
        if rules.victory_count == len(rules.victory):
            for v in rules.victory:
                if not town[v]:
                    return False
            return True
        return sum(1 for v in rules.victory if town[v]) >= rules.victory_count

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
