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
   activate together and their order can change the result, the ``order`` decision; the
   income is that of the towns as they stood at the roll (rules ``income.towns``): a card
   that moves during the step changes nothing the roll's other cards see
   (:mod:`machikoro.engine.state_changes`);
4. ``before build`` hooks; the ``build`` decision (one card or none); a player who has
   built every victory landmark wins at once;
5. ``at end of turn`` hooks (an extra turn on doubles); the next player, or the same one
   for an extra turn.

:class:`TurnPhases` is a part of :class:`~machikoro.engine.game.Game` (its state lives
there); each phase runs until a decision is pending or hands over to the next one.
"""

from __future__ import annotations

from bisect import bisect_right

from ..language.actions import Swap
from ..language.clauses import Clause
from .chance import ChanceStep
from .decision import Decision
from .dispatch import GAIN
from .explanations import build_cause
from .options import SwapOptions
from .ordering import order_clause

(START, ROLL, AFTER_ROLL, INCOME, BEFORE_BUILD, BUILD, END, OVER, BEFORE_ROLL, AFTER_INCOME,
 WHEN_BUILT) = range(11)
PHASE_NAMES = ("start", "roll", "after_roll", "income", "before_build", "build", "end", "over",
               "before_roll", "after_income", "when_built")
_NO_ITEMS: tuple = ()  # an empty queue (a tuple: nothing is ever inserted into it)
_made = tuple.__new__  # Decision(*fields) without the Python call of namedtuple's __new__


def boost_of(boosts: tuple, town: list, towns: list) -> int:
    """Coins more per copy that the owner's built cards (``town``) add to a card's payouts
    (``boosts``: :attr:`~machikoro.rules.ruleset.RuleSet.boosts` of the card), and the
    cards in force for every player that anyone has built (a source ``~index``; ``towns``
    every seat's town)."""
    more = 0
    for source, n in boosts:
        if source >= 0:
            if town[source]:
                more += n
        elif any(t[~source] for t in towns):
            more += n
    return more


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
        """Start the current player's turn: reset the turn's state, then run the ``before
        roll`` hooks and the dice (:meth:`_choose_dice`); in a quiet game (no events, no
        scripted dice, no explicit chance) of a :attr:`Dispatch.quick` rule set, make the
        ``dice`` decision pending or roll at once (:meth:`_quick_roll`)."""
        p = self.current
        if self.rerolls_used:
            self.rerolls_used.clear()
        if self.built_this_turn:
            self.built_this_turn.clear()
        self.extra_turn = False
        self.bound = None
        if self.received is not None:  # (only in a rule set that reads them)
            self.received = [0] * self.n
        tables = self._dispatch
        rounds = self.rules.build_only_rounds
        if rounds and self.turn - self.extra_turns < rounds * self.n:
            self._build_only_turn()
            return
        if tables.quick and self.events is None and self._roll is None \
                and not self.explicit_chance:  # the common case, in one step
            # (the same test as _roll_dice's, written out in both: a method for it cost 1.3%
            # of a random agent's game, callgrind; the fields are read at each turn because
            # look-ahead and tests change them after a game is made)
            # _choose_dice and _roll_dice's first case, written out: two calls less a turn
            # (about 3% of a random agent's turn, callgrind); change them together
            if tables.dice_asks >= 0 and self.owned[p][tables.dice_asks]:
                self.pending = tables.dice_decisions[p]
                return
            self.dice_count = self.rules.dice_count
            self._quick_roll()
            return
        if self.events is not None:
            self._log({"type": "turn", "turn": self.turn + 1, "player": p,
                       "coins": self.coins[p]})
        if tables.hook_cards["before_roll"]:  # (a rule set without: no call)
            self._queue_hooks("before_roll")
            self.phase = BEFORE_ROLL
            if self.queue:
                self._run_queue()
                return
        self._choose_dice()

    def _build_only_turn(self) -> None:
        """A turn of the rules' opening rounds (``turn.build_only_rounds``): no dice, no
        roll, no income; the ``before build`` hooks and the build step as usual."""
        self.dice = ()
        self.total = 0
        if self.events is not None:
            self._log({"type": "turn", "turn": self.turn + 1, "player": self.current,
                       "coins": self.coins[self.current]})
        self._before_build()

    def _choose_dice(self) -> None:
        """The ``dice`` decision when the roller's cards offer a choice, else the roll."""
        tables = self._dispatch
        if tables.dice_asks >= 0:  # one card offers a choice: a decision made once per seat
            if self.owned[self.current][tables.dice_asks]:
                self.pending = tables.dice_decisions[self.current]
                return
            self.dice_count = self.rules.dice_count
        elif self.rules.dice_options:
            counts = self.dice_counts(self.current)
            if len(counts) > 1:
                self.pending = tables.decision("dice", self.current, counts)
                return
            self.dice_count = counts[0]
        else:
            self.dice_count = self.rules.dice_count
        self._roll_dice()

    def dice_counts(self, seat: int) -> tuple:
        """The numbers of dice ``seat`` may roll: the choices its built cards offer, or the
        rule set's default count when none does."""
        town = self.owned[seat]
        tables = self._dispatch
        if tables.dice_card >= 0:  # one card offers the choice
            return tables.dice_choice if town[tables.dice_card] else (self.rules.dice_count,)
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
        if count == 2:  # no generator for the common case; the same draws in order
            return (int(rnd() * faces) + 1, int(rnd() * faces) + 1)
        return tuple([int(rnd() * faces) + 1 for _ in range(count)])

    def _roll_dice(self) -> None:
        if self._dispatch.quick and self.events is None and self._roll is None \
                and not self.explicit_chance:  # _start_turn's test: change them together
            self._quick_roll()
            return
        if self.explicit_chance:  # a chance step: wait for apply_chance
            self.phase = ROLL
            self.roll_for(ChanceStep(self.dice_count, self.rules.dice_faces, "roll",
                                     self.current), TurnPhases._rolled)
            return
        if self._roll is None and self.dice_count == 1:  # sampled at once
            self._rolled(None, (int(self.rng.random() * self.rules.dice_faces) + 1,))
        else:
            self._rolled(None, self._throw(self.dice_count))

    def _rolled(self, step: ChanceStep | None, faces: tuple) -> None:
        """The turn's roll showed ``faces``: log it, run the ``after roll`` hooks."""
        self.dice = faces
        self.total = sum(faces)
        if self.on_roll is not None:
            self.on_roll(self, faces)
        if self.side_rolls:
            self.side_rolls = {}  # a new roll: the side rolls of this income are to come
        if self.events is not None:
            self._log({"type": "roll", "player": self.current, "dice": list(self.dice),
                       "total": self.total})
        self._after_roll()

    def _quick_roll(self) -> None:
        """The roll and what follows it up to the build step, in one step, as
        :meth:`_roll_dice`, :meth:`_rolled` and :meth:`_income` would run them: the same
        draws, state changes and decisions, with fewer calls. Only for the common case
        (:attr:`Dispatch.quick`: no ``before roll`` hooks, at most one card offering a
        choice of dice; a game that records no events, has no scripted dice and samples its
        own rolls, side rolls included); a test plays the same games with events recorded,
        which takes the phases one by one."""
        rnd = self.rng.random
        faces = self.rules.dice_faces
        count = self.dice_count
        if count == 1:
            total = int(rnd() * faces) + 1
            self.dice = (total,)
        elif count == 2:  # the same draws in order as _throw
            first = int(rnd() * faces) + 1
            total = int(rnd() * faces) + 1
            self.dice = (first, total)
            total += first
        else:
            self.dice = self._throw(count)
            total = sum(self.dice)
        self.total = total
        if self.on_roll is not None:
            self.on_roll(self, self.dice)
        if self.side_rolls:
            self.side_rolls = {}  # a new roll: the side rolls of this income are to come
        town = self.owned[self.current]
        hooks = self._dispatch.hook_cards
        shared = self.rules.shared
        for card in hooks["after_roll"]:
            if town[card] or (shared and card in shared and self.anyone_has(card)):
                self._after_roll()  # the roller has an ``after roll`` hook: one by one
                return
        self._queue_income()  # (phase INCOME from here)
        if self.queue:
            self._run_queue()
        elif hooks["after_income"]:
            self._after_income()
        elif hooks["before_build"]:
            self._before_build()
        else:  # _before_build's test written out: no such hook, one call less a turn
            self._start_build()

    def _after_roll(self) -> None:
        """The ``after roll`` hooks, then the income step."""
        self._queue_hooks("after_roll")
        self.phase = AFTER_ROLL
        if self.queue:
            self._run_queue()
        else:
            self._income()

    def _income(self) -> None:
        """The income step (after the ``after roll`` hooks): :meth:`_queue_income`."""
        if self.explicit_chance and self.side_rolls is not None and self._side_roll_step():
            return  # a side roll waits for its outcome
        self._queue_income()  # (phase INCOME from here)
        if self.queue:
            self._run_queue()
        else:
            self._after_income()

    def _after_income(self) -> None:
        """The ``after income`` hooks (the income step is over), then ``before build``."""
        if self.income_moves is not None:
            self._income_done()
        if self._dispatch.hook_cards["after_income"]:
            self._queue_hooks("after_income")
            self.phase = AFTER_INCOME
            if self.queue:
                self._run_queue()
                return
        self._before_build()

    def _before_build(self) -> None:
        """The ``before build`` hooks, then the build step."""
        if self.income_moves is not None:  # (the income step ends here or in _start_build)
            self._income_done()
        if self._dispatch.hook_cards["before_build"]:
            self._queue_hooks("before_build")
            self.phase = BEFORE_BUILD
            if self.queue:
                self._run_queue()
                return
        self._start_build()

    def _income_done(self) -> None:
        """The income step that moved a card is over: what happens next reads the towns
        as they are (``towns_seen`` is ``owned`` again) and follows no copy."""
        self.income_moves = None
        self.towns_seen = self.owned

    def _start_build(self) -> None:
        """The ``build`` decision, or the end of the turn when the rules allow no build."""
        if self.income_moves is not None:  # the income step is over
            self._income_done()
        self.builds_left = self.rules.builds_per_turn
        if self.builds_left > 0:
            self.phase = BUILD
            self.pending = self._build_decision(self.current)
        else:
            self._end_of_turn()

    def _end_of_turn(self) -> None:
        """The ``at end of turn`` hooks, then the end of the turn."""
        self._queue_hooks("end_of_turn")
        self.phase = END
        if self.queue:
            self._run_queue()
        else:
            self._end_turn()

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
        """Queue the current player's ``trigger`` hooks; a list is made only when the player
        owns a card with such a hook (else the queue is the empty tuple)."""
        self.qpos = 0
        town = self.owned[self.current]
        shared = self.rules.shared
        for card in self._dispatch.hook_cards[trigger]:
            # the player owns a card with such a hook, or anyone one in force for everyone
            if town[card] or (shared and card in shared and self.anyone_has(card)):
                self.queue = self._owned_hooks(trigger)
                return
        self.queue = _NO_ITEMS

    def anyone_has(self, card: int) -> bool:
        """True when some player has ``card`` built (a card in force for every player,
        ``scope: everyone``, works for all of them then)."""
        for town in self.owned:
            if town[card]:
                return True
        return False

    def _owned_hooks(self, trigger: str) -> list | tuple:
        """The queue items of the current player's ``trigger`` hooks: one per copy for a
        hook that asks, one for all copies otherwise; a card built this turn is left out
        unless the rules file's option ``landmark_active_on_build_turn`` says otherwise. A
        card in force for every player (``scope: everyone``) that another player has built
        runs as one copy of the current player's."""
        queue: list | tuple = _NO_ITEMS
        p = self.current
        town = self.owned[p]
        built = self.built_this_turn
        shared = self.rules.shared
        for card, clause in self.rules.hooks[trigger]:
            copies = town[card]
            if not copies and shared and card in shared and self.anyone_has(card):
                copies = 1
            if not copies or (built and card in built and
                              not self.rules.options["landmark_active_on_build_turn"]):
                continue
            if queue is _NO_ITEMS:
                queue = []
            if clause.asks:
                queue.extend([(card, p, 1, clause)] * copies)
            else:
                queue.append((card, p, copies, clause))
        return queue

    def _queue_income(self, run_now: bool = True) -> None:
        """Resolve this roll's income in order; from the first clause that asks a decision
        on, queue the rest for :meth:`_run_queue` (it resumes after the answer). With
        ``run_now=False`` nothing runs: every item is queued (look-ahead reads the queue).
        The income plan of the roll (:meth:`Dispatch.income_plans`) gives the order; a roll
        where an owner may order some cards walks the groups (:meth:`_queue_income_groups`).
        The cards the roll activates, and their copies, are those of the towns as they stood
        at the roll: every item is made here, before any queued decision is answered.
        """
        self.phase = INCOME  # (a card moved from here on changes nothing the roll sees)
        plan = self._plans[self.current].get(self.total, ())
        if plan is None or not run_now:
            self._queue_income_groups(run_now)
            return
        queue: list = []
        blocking = self.rules.blocking_markers
        quiet = self.events is None and self.received is None
        coins, owned = self.coins, self.owned
        for owner, card, clauses, plain, bank in plan:
            copies = owned[owner][card]
            if not copies:
                continue
            if blocking:
                copies = self._reopen(owner, card, copies)
                if not copies:
                    continue
            if plain is None or queue:
                self._activate(queue, card, owner, copies, clauses, True)
            elif bank and quiet:
                coins[owner] += bank * copies  # the bank pays N
            else:
                self._pay_plain(plain, card, owner, copies)
        self.queue = queue
        self.qpos = 0

    def _queue_income_groups(self, run_now: bool) -> None:
        """:meth:`_queue_income` group by group, with the ``order`` decision of an owner
        whose activated cards of a group may be resolved in the order the owner chooses."""
        queue: list = []
        groups = self._dispatch.by_roll.get(self.total)
        if groups:
            roller = self.current
            order = self._order[roller]
            blocking = self.rules.blocking_markers
            quiet = self.events is None and self.received is None
            coins = self.coins
            for own_roll, theirs, involved in groups:
                # a group of cards only their owner's roll activates: the roller alone
                for owner in (order if theirs or involved else (roller,)):
                    rolled = owner == roller
                    mark = -1
                    if involved and self._ask_order(queue, involved, owner, rolled):
                        mark = len(queue) - 1
                        run_now = False  # the owner orders these cards: all of them wait
                    town = self.owned[owner]
                    for card, clauses, plain, bank in (own_roll if rolled else theirs):
                        copies = town[card]
                        if not copies:
                            continue
                        if blocking:
                            copies = self._reopen(owner, card, copies)
                            if not copies:
                                continue
                        if plain is None or queue or not run_now:
                            self._activate(queue, card, owner, copies, clauses, run_now)
                        elif bank and quiet:
                            coins[owner] += bank * copies  # the bank pays N
                        else:
                            self._pay_plain(plain, card, owner, copies)
                    if mark >= 0:  # the order decision reorders the items queued after it
                        queue[mark] = (-1, owner, len(queue) - mark - 1, queue[mark][3])
        self.queue = queue
        self.qpos = 0

    def _activate(self, queue: list, card: int, owner: int, copies: int, clauses: tuple,
                  run_now: bool) -> None:
        """Activate ``copies`` copies of ``owner``'s ``card`` in the income step: each of
        its clauses runs now, in order, while nothing waits in ``queue`` (and ``run_now``);
        a clause that asks a decision is queued once per copy, and every clause after it
        (this card's or the next cards') waits in ``queue`` too."""
        for clause in clauses:
            if clause.asks:
                queue.extend([(card, owner, 1, clause)] * copies)
            elif queue or not run_now:  # after a decision: all wait
                queue.append((card, owner, copies, clause))
            elif not clause.conditions or clause.holds(self, owner):
                # nothing pending before it: resolve now, in order
                if self.explain:  # the clause the events cite (engine.explanations)
                    self.running = (card, owner, copies, clause)
                happened = clause.action.run(self, card, owner, copies)
                if clause.rest is not None and happened is not False:
                    self._run_rest(card, owner, copies, clause.rest)

    def _pay_plain(self, plain: tuple, card: int, owner: int, copies: int) -> None:
        """Pay a plain payout (:func:`~machikoro.engine.dispatch.plain_payout`) as its
        clause's action would: ``gain N`` (the bank pays N plus boosts per copy) or ``take
        N from roller`` (the roller pays what it can, never to itself)."""
        kind, per = plain
        if self.explain:  # the card's one clause (dispatch.plain_payout)
            self.running = (card, owner, copies, self.rules.activation[card][0])
        boosts = self.rules.boosts[card]
        if boosts:  # (boost_of written out: a call less per boosted payout)
            town = self.towns_seen[owner]
            for source, more in boosts:
                if source >= 0:
                    if town[source]:
                        per += more
                elif any(t[~source] for t in self.towns_seen):
                    per += more
        if per <= 0:
            return
        if kind == GAIN:
            if self.events is None and self.received is None:
                self.coins[owner] += per * copies  # gain()'s change, one call less
            else:
                self.gain(owner, per * copies, card)
        elif owner != self.current:
            self.transfer(self.current, owner, per * copies, card)

    def _run_rest(self, card: int, owner: int, copies: int, rest) -> None:
        """Run the ``then`` steps of a clause that asks nothing, while each happens."""
        while rest is not None:
            if self.explain:
                self.running = (card, owner, copies, rest)
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
        """Run the current phase's queue from ``qpos`` until a decision is pending, an
        action replaced the queue (a reroll) or awaits dice; when it is done, go on to the
        next phase."""
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
            if self.explain:  # the clause the events cite (engine.explanations)
                self.running = item
            happened = action.run(self, card, owner, copies)
            if clause.rest is not None and happened is not False:
                self.qins = self.qpos
                self.enqueue([(card, owner, copies, clause.rest)])
            if queue is not self.queue or self.chance_pending is not None:
                return  # the action replaced the queue (a reroll) or awaits dice
        _AFTER[self.phase](self)  # this phase's queue is done: the next step

    def _ask(self, item: tuple) -> bool:
        """Make the decision of a queue item pending; False when it cannot be asked (a
        reroll already used, or no legal answer: the action cannot happen)."""
        card, owner, _, clause = item
        action = clause.action
        available = getattr(action, "available", None)
        if available is not None and not available(self, card):
            return False
        if type(action) is Swap:  # a few hundred answers: made when read (SwapOptions)
            options = SwapOptions(self, action, owner)
        else:
            options = action.options(self, card, owner)
        if not options:
            return False
        card_id = self.rules.ids[card] if card >= 0 else None
        self.pending = _made(Decision, (action.decision or card_id, owner, options, card_id))
        self.pending_item = item
        return True

    def enqueue(self, items: list) -> None:
        """Insert queue items to run next, after any inserted before them by the same
        step (a card activated by another, the ``then`` steps of a clause)."""
        self.queue[self.qins:self.qins] = items
        self.qins += len(items)

    def _ask_build(self) -> None:
        """Make the current player's ``build`` decision pending (phase BUILD)."""
        self.pending = self._build_decision(self.current)

    def build_options(self, seat: int | None = None) -> tuple:
        """What ``seat`` (default: the current player) could build now: None and the ids of
        every affordable establishment with copies left in the market and under its
        per-player limit, and every affordable unbuilt landmark, cheapest first."""
        return self._build_decision(self.current if seat is None else seat).options

    def _build_decision(self, seat: int) -> Decision:
        """``seat``'s ``build`` decision now, from its build menu (see :meth:`_menu`)."""
        menu = self._menus[seat]
        if menu is None or self.rules.dynamic_costs:  # (costs that change: made each time)
            menu = self._menus[seat] = self._menu(seat)
        costs, ids, decisions = menu
        k = bisect_right(costs, self.coins[seat])  # the affordable ones are a prefix
        decision = decisions[k]
        if decision is None:
            decision = decisions[k] = _made(Decision, ("build", seat, (None,) + ids[:k], None))
        return decision

    def _menu(self, seat: int) -> tuple:
        """``seat``'s build menu: the costs and ids of the cards it may build at some price
        (copies left in the market, under its limit; a landmark not built), by cost, and a
        list for the decision of every affordable prefix (made when first asked). The
        engine keeps the menus (``_menus``) up to date: a build takes a card off the menus
        when it sells out or reaches the builder's limit (:meth:`_off_menu`); a card moving
        between towns or back to the market, or the market's rows changing, drops them."""
        town, supply = self.owned[seat], self.supply
        costs: list = []
        ids: list = []
        # (cost, index, id, limit, in the market) sorted by cost; a landmark without a
        # supply has no market pile, only its limit of one
        for cost, i, card_id, limit, market in self.rules.by_cost:
            if town[i] < limit and (supply[i] > 0 or not market):
                costs.append(cost)
                ids.append(card_id)
        if self.rules.dynamic_costs:  # this seat's costs now, and what it may build now
            index, build_if = self.rules.index, self.rules.build_if
            now = self.costs_to(seat)
            menu = sorted((now[index[card_id]], index[card_id], card_id)
                          for card_id in ids if all(test.test(self, seat)
                                                    for test in build_if[index[card_id]]))
            costs = [cost for cost, _, _ in menu]
            ids = [card_id for _, _, card_id in menu]
        return (tuple(costs), tuple(ids), [None] * (len(ids) + 1))

    def landmarks_built(self, seat: int) -> int:
        """How many landmarks counted for victory ``seat`` has built (a tiered cost's
        tier)."""
        town = self.owned[seat]
        return sum(1 for v in self.rules.victory if town[v])

    def cost_to(self, seat: int, card: int) -> int:
        """What ``card`` costs ``seat`` now (coins): its cost, or its tier for the
        landmarks ``seat`` has built (:meth:`~machikoro.rules.ruleset.RuleSet.cost_for`),
        less the cost changes in force for ``seat`` (``NAMES cost N less`` on its own
        cards, or on anyone's card in force for every player); a discount never takes a
        cost below 0."""
        rules = self.rules
        if not rules.cost_tiers or rules.cost_tiers[card] is None:
            cost = rules.cost[card]
        else:
            cost = rules.cost_for(card, self.landmarks_built(seat))
        if not rules.discounts:
            return cost
        return _changed(cost, sum(n for _, n in self.cost_changes(seat, card)))

    def costs_to(self, seat: int) -> list[int]:
        """``[cost_to(seat, card) for card in range(len(rules.ids))]`` (coins per card
        index), the tier and the cost changes in force read once for all cards."""
        rules = self.rules
        tiers = rules.cost_tiers
        if tiers:
            built = self.landmarks_built(seat)
            costs = [cost if tier is None else rules.cost_for(card, built)
                     for card, (cost, tier) in enumerate(zip(rules.cost, tiers))]
        else:
            costs = list(rules.cost)
        if rules.discounts:
            less = [0] * len(costs)
            for source, cards, n in rules.discounts:
                if self._change_in_force(seat, source):
                    for card in cards:
                        less[card] += n
            for card, by in enumerate(less):
                if by:
                    costs[card] = _changed(costs[card], by)
        return costs

    def cost_changes(self, seat: int, card: int) -> list[tuple[int, int]]:
        """``[(source card, coins less), ...]``: the cost changes in force for ``seat`` on
        ``card`` (``NAMES cost N less`` of a card it has built, or of a card in force for
        every player that anyone has built)."""
        return [(source, n) for source, cards, n in self.rules.discounts
                if card in cards and self._change_in_force(seat, source)]

    def _change_in_force(self, seat: int, source: int) -> bool:
        """True when the cost change of card ``source`` holds for ``seat``: it has built
        one, or the card is in force for every player and anyone has built one."""
        return bool(self.owned[seat][source]) or (source in self.rules.shared and
                                                   self.anyone_has(source))

    def _off_menu(self, card_id: str, seats) -> None:
        """``card_id`` may no longer be built by ``seats`` (sold out, or at its limit): take
        it off their build menus."""
        menus = self._menus
        for seat in seats:
            menu = menus[seat]
            if menu is not None and card_id in menu[1]:
                costs, ids, _ = menu
                k = ids.index(card_id)
                menus[seat] = (costs[:k] + costs[k + 1:], ids[:k] + ids[k + 1:],
                               [None] * len(ids))

    def _build(self, card_id: str | None) -> None:
        p = self.current
        if card_id is None:
            if self.events is not None:
                self._log({"type": "pass", "player": p})
            self.builds_left = 0
        else:
            i, cost, limit, landmark, market = self._dispatch.builds[card_id]
            if self.rules.dynamic_costs:
                cost = self.cost_to(p, i)
                if landmark:  # the builder's tiers move on
                    self._menus[p] = None
            self.coins[p] -= cost
            town = self.owned[p]
            town[i] += 1
            if town[i] >= limit:
                self._off_menu(card_id, (p,))
            if market:
                supply = self.supply
                supply[i] -= 1
                if supply[i] <= 0:
                    self._off_menu(card_id, range(self.n))
                if self.rules.market_upkeep:
                    self.market_changed()
            self.built_this_turn.append(i)
            self.builds.append((self.turn + 1, p, card_id))
            self.builds_left -= 1
            if self.events is not None:
                event = {"type": "build", "player": p, "card": card_id, "cost": cost}
                if self.explain:
                    cause = build_cause(self, i, cost)
                    if cause is not None:
                        event["cause"] = cause
                self._log(event)
            if landmark and self.has_won(p):
                self.winner = p
                self.phase = OVER
                self.turn += 1  # the winning turn ends here, and counts as played
                self._log({"type": "win", "player": p, "turn": self.turn})
                return
            if self.rules.hooks["when_built"] and self._when_built(i):
                return
        self._after_build()

    def _when_built(self, card: int) -> bool:
        """Queue the ``when built`` clauses of the card just built, for its builder (one
        copy); True when there are some (phase WHEN_BUILT: the queue runs, then
        :meth:`_after_build`)."""
        items = [(card, self.current, 1, clause)
                 for source, clause in self.rules.hooks["when_built"] if source == card]
        if not items:
            return False
        self.queue = items
        self.qpos = 0
        self.phase = WHEN_BUILT
        return True

    def _after_build(self) -> None:
        """After a build (and its ``when built`` clauses): another build when the rules
        allow one, else the ``at end of turn`` hooks and the end of the turn."""
        p = self.current
        if self.builds_left > 0:
            self.phase = BUILD
            return
        # the hooks run, and the turn ends, at the next decision()
        self.phase = END
        # _queue_hooks' test written out: the common turn, no such hook, makes no call
        # (about 2% of a random agent's turn, callgrind); change them together
        town, shared = self.owned[p], self.rules.shared
        for card in self._dispatch.hook_cards["end_of_turn"]:
            if town[card] or (shared and card in shared and self.anyone_has(card)):
                self._queue_hooks("end_of_turn")  # the player has such a hook
                return
        self.queue = _NO_ITEMS
        self.qpos = 0

    def has_won(self, seat: int) -> bool:
        """True when ``seat`` has built the victory landmarks (all of them, or the rule
        set's ``victory.count`` of them), or a landmark of ``victory.at_once``."""
        rules, town = self.rules, self.owned[seat]
        for v in rules.wins_at_once:
            if town[v]:
                return True
        if rules.victory_count == len(rules.victory):
            for v in rules.victory:
                if not town[v]:
                    return False
            return True
        return sum(1 for v in rules.victory if town[v]) >= rules.victory_count

    def _close_turn(self) -> None:
        """Phase END, for play that goes on into the next turn: run the ``at end of turn``
        hooks (:meth:`_run_queue`); when there are none, end the turn and start the next."""
        if self.queue:
            self._run_queue()
            return
        self._end_turn()
        if self.phase == START:
            self._start_turn()

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


_NEXT = {AFTER_ROLL: TurnPhases._income, INCOME: TurnPhases._after_income,
         AFTER_INCOME: TurnPhases._before_build, BEFORE_BUILD: TurnPhases._start_build,
         BEFORE_ROLL: TurnPhases._choose_dice, WHEN_BUILT: TurnPhases._after_build}
_AFTER = tuple(_NEXT.get(phase, TurnPhases._end_turn) for phase in range(len(PHASE_NAMES)))
"""By phase, what follows it when its queue is done (:meth:`TurnPhases._run_queue`): the end
of the turn after the ``at end of turn`` hooks."""

STEPS_IN_TURN = tuple({START: TurnPhases._start_turn, ROLL: TurnPhases._roll_dice,
                       BUILD: TurnPhases._ask_build}.get(phase, TurnPhases._run_queue)
                      for phase in range(len(PHASE_NAMES)))
"""By phase (OVER aside), the step that runs the game on from it (:meth:`Game.decision`)."""
STEPS = STEPS_IN_TURN[:END] + (TurnPhases._close_turn,) + STEPS_IN_TURN[END + 1:]
""":data:`STEPS_IN_TURN`, except that a turn's end starts the next turn in the same step."""


def _changed(cost: int, less: int) -> int:
    """``cost`` (coins) after cost changes summing to ``less`` coins off (negative: on):
    a discount never takes a cost below 0 (nor a cost below 0 lower)."""
    return max(cost - less, min(cost, 0)) if less > 0 else cost - less
