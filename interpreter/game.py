"""The turn engine: a game of a :class:`~machikoro.ruleset.RuleSet` as a state machine.

A :class:`Game` runs by itself until a player must choose, then stops at a
:class:`Decision` listing the legal answers; :meth:`Game.answer` goes on. The turn follows
the rules (rules.ja.txt, 'ダイスを振ったら' and '建設は1枚'):

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

All randomness comes from one ``random.Random`` seeded at creation, so a seed and the list
of answers (``history``) replay a game exactly. State is a few small lists: :meth:`clone`
is cheap. Events (dicts) are recorded only when asked (``record=True``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from .errors import GameOver, IllegalChoice, MachikoroError
from .ruleset import RuleSet

START, ROLL, AFTER_ROLL, INCOME, BEFORE_BUILD, BUILD, END, OVER = range(8)
_NO_ITEMS: list = []
_PHASE_NAMES = ("start", "roll", "after_roll", "income", "before_build", "build", "end", "over")


class Decision(NamedTuple):
    """A choice the game waits for.

    ``name``: ``dice``, ``reroll``, ``build``, or the id of the card asking (e.g. a card
    whose effect takes from a chosen player); ``player``: the seat (0-based) who answers;
    ``options``: the legal answers (ints for dice counts and player seats, booleans, card
    ids, None for "nothing", or mappings for swaps); ``card``: the id of the card asking,
    or None.
    """

    name: str
    player: int
    options: tuple
    card: str | None = None


def _same(option: Any, value: Any) -> bool:
    if option is None or value is None:
        return option is value
    return type(option) is type(value) and option == value


class Game:
    """One game: the state of the table and the turn engine.

    ``players`` is a count or a list of names (seats in turn order, clockwise); ``seed``
    seeds the game's one random generator; ``max_turns`` ends the game with no winner
    after that many turns (each player's turn, extra turns included, counts one);
    ``record`` keeps a list of events in ``events``; ``dice`` replaces the generator for
    rolls: a callable ``(count) -> tuple of faces`` (scripted positions).

    Raises :class:`~machikoro.errors.MachikoroError` (a ValueError) for a player count outside the rule set's range, repeated
    names, or ``max_turns`` below 1.
    Public state (read it, don't change it during play): ``coins`` (coins per seat),
    ``owned`` (per seat, copies per card index, landmarks 0/1), ``supply`` (market pile per
    card index), ``current`` (seat whose turn it is), ``turn`` (turns played, the winning
    turn included; ``extra_turns`` of them were extra turns), ``dice``
    (faces of the current roll), ``total`` (the roll total), ``winner`` (seat or None),
    ``over``.
    """

    __slots__ = (
        "_order",
        "_others",
        "_roll",
        "builds_left",
        "built_this_turn",
        "coins",
        "current",
        "dice",
        "dice_count",
        "events",
        "extra_turn",
        "extra_turns",
        "history",
        "max_turns",
        "n",
        "names",
        "owned",
        "pending",
        "pending_item",
        "phase",
        "qpos",
        "queue",
        "rerolls_used",
        "rng",
        "rules",
        "seed",
        "supply",
        "total",
        "turn",
        "winner",
    )

    def __init__(self, rules: RuleSet, players: int | list[str] = 2, seed: int | None = None,
                 *, max_turns: int | None = None, record: bool = False,
                 dice: Callable[[int], tuple] | None = None):
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) \
            else [str(p) for p in players]
        n = len(names)
        if not rules.min_players <= n <= rules.max_players:
            raise MachikoroError(f"{rules.name} is for {rules.min_players}-{rules.max_players} "
                             f"players, not {n}")
        if len(set(names)) != n:
            raise MachikoroError("player names must differ")
        if max_turns is not None and max_turns < 1:
            raise MachikoroError(f"max_turns must be at least 1, not {max_turns}")
        self.rules = rules
        self.names = names
        self.n = n
        self.coins = [rules.start_coins] * n
        self.owned = [list(rules.start_town) for _ in range(n)]
        self.supply = list(rules.supply)
        self.current = 0
        self.turn = 0
        self.phase = START
        self.dice: tuple = ()
        self.total = 0
        self.dice_count = rules.dice_count
        self.rerolls_used: list = []
        self.built_this_turn: list = []
        self.builds_left = 0
        self.extra_turn = False
        self.extra_turns = 0
        self.winner: int | None = None
        self.queue: list = []
        self.qpos = 0
        self.pending: Decision | None = None
        self.pending_item = None
        self.events: list | None = [] if record else None
        self.history: list = []
        self.seed = seed
        self.rng = random.Random(seed)
        self.max_turns = max_turns
        self._roll = dice
        step = -1 if rules.payment_order == "counterclockwise" else 1
        self._order = tuple(tuple((r + step * k) % n for k in range(n)) for r in range(n))
        self._others = tuple(order[1:] for order in self._order)

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """True once somebody has won or the turn limit was reached."""
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """The current step of the turn: start, roll, after_roll, income, before_build,
        build, end or over."""
        return _PHASE_NAMES[self.phase]

    def town(self, seat: int) -> dict[str, int]:
        """A seat's establishments as ``{id: copies}`` (copies > 0 only)."""
        ids, town = self.rules.ids, self.owned[seat]
        return {ids[i]: town[i] for i in self.rules.establishments if town[i]}

    def built_landmarks(self, seat: int) -> list[str]:
        """A seat's built landmarks, as ids in rule-set order."""
        ids, town = self.rules.ids, self.owned[seat]
        return [ids[i] for i in self.rules.landmarks if town[i]]

    def market(self) -> dict[str, int]:
        """The market: ``{id: copies left}`` for every establishment."""
        return {self.rules.ids[i]: self.supply[i] for i in self.rules.establishments}

    def others(self, seat: int) -> tuple[int, ...]:
        """The other seats, in payment order starting next to ``seat``."""
        return self._others[seat]

    def clone(self, light: bool = False) -> Game:
        """An independent copy of this game (the random generator's state included).

        ``light=True`` makes a cheaper copy for look-ahead: no events, no history, and the
        random generator shared with this game (so rolls in the copy change this game's).
        """
        new = Game.__new__(Game)
        (new.rules, new.names, new.n, new.current, new.turn, new.phase, new.dice,
         new.total, new.dice_count, new.builds_left, new.extra_turn, new.extra_turns,
         new.winner, new.qpos, new.pending, new.pending_item, new.rng, new.max_turns,
         new.seed, new._roll, new._order, new._others) = (
            self.rules, self.names, self.n, self.current, self.turn, self.phase, self.dice,
            self.total, self.dice_count, self.builds_left, self.extra_turn,
            self.extra_turns, self.winner, self.qpos, self.pending, self.pending_item,
            self.rng, self.max_turns, self.seed, self._roll, self._order, self._others)
        new.coins = list(self.coins)
        new.owned = [list(t) for t in self.owned]
        new.supply = list(self.supply)
        new.rerolls_used = list(self.rerolls_used)
        new.built_this_turn = list(self.built_this_turn)
        new.queue = list(self.queue)
        if light:
            new.events = None
            new.history = []
            return new
        new.events = None if self.events is None else list(self.events)
        new.history = list(self.history)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new

    # ------------------------------------------------------------------ driving

    def decision(self, stop_at_turn_end: bool = False) -> Decision | None:
        """Run the game until a player must choose; return that :class:`Decision`, or None
        when the game is over. Calling it again without answering returns the same one.

        With ``stop_at_turn_end``, also return None, without starting the next turn (and
        rolling its dice), as soon as the current turn is complete (``turn`` has grown).
        """
        turn = self.turn
        while self.pending is None:
            phase = self.phase
            if phase == OVER:
                return None
            if phase == START:
                if stop_at_turn_end and self.turn != turn:
                    return None
                self._start_turn()
            elif phase == ROLL:
                self._roll_dice()
            elif phase == BUILD:
                self._ask_build()
            else:
                self._run_queue()
        return self.pending

    def answer(self, value: Any) -> None:
        """Answer the pending decision with one of its ``options``.

        Raises :class:`~machikoro.errors.IllegalChoice` (state unchanged) for any other
        value, :class:`~machikoro.errors.GameOver` when the game has ended.
        """
        decision = self.pending if self.pending is not None else self.decision()
        if decision is None:
            raise GameOver("the game is over; no decision is waiting")
        if value is None or type(value) is str:
            legal = value in decision.options  # exact for None and str
        else:
            legal = any(_same(option, value) for option in decision.options)
        if not legal:
            raise IllegalChoice(decision, value, self._why_illegal(decision, value))
        self.pending = None
        self.history.append(value)
        name = decision.name
        if name == "build" and decision.card is None:
            self._build(value)
        elif name == "dice" and decision.card is None:
            self.dice_count = value
            self.phase = ROLL
            self._log({"type": "dice", "player": self.current, "count": value})
        else:
            card, owner, copies, clause = self.pending_item
            self.pending_item = None
            if self.events is not None:
                self._log({"type": "choice", "player": owner, "card": self.rules.ids[card],
                           "decision": name, "answer": value,
                           "target": value if getattr(clause.action, "chooses_player", False)
                           else None})
            clause.action.resolve(self, card, owner, copies, value)

    def _why_illegal(self, decision: Decision, value: Any) -> str:
        if decision.name == "build" and decision.card is None and isinstance(value, str):
            rules, p = self.rules, decision.player
            i = rules.index.get(value)
            if i is None:
                return f"no card '{value}' in this rule set"
            if rules.cards[i].is_landmark and self.owned[p][i]:
                return f"{value} is already built"
            if rules.cost[i] > self.coins[p]:
                return f"{value} costs {rules.cost[i]} coins; the player has {self.coins[p]}"
            if not rules.cards[i].is_landmark and self.supply[i] <= 0:
                return f"{value} is sold out"
            if self.owned[p][i] >= rules.limit[i]:
                return f"a player may own at most {rules.limit[i]} {value}"
        return "not among the options " + repr(list(decision.options))[:200]

    # ------------------------------------------------------------------ steps

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

    def _throw(self, count: int) -> tuple:
        if self._roll is not None:
            return tuple(self._roll(count))
        rnd, faces = self.rng.random, self.rules.dice_faces
        if count == 1:
            return (int(rnd() * faces) + 1,)
        return tuple(int(rnd() * faces) + 1 for _ in range(count))

    def _roll_dice(self) -> None:
        self.dice = self._throw(self.dice_count)
        self.total = sum(self.dice)
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
                if queue is not self.queue:  # the action replaced the queue (a reroll)
                    return
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

    # ------------------------------------------------------------------ used by effects

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
        old = self.dice
        self.dice = self._throw(self.dice_count)
        self.total = sum(self.dice)
        self._log({"type": "reroll", "player": self.current, "old": list(old),
                   "dice": list(self.dice), "total": self.total,
                   "card": self.rules.ids[card]})
        self._queue_hooks("after_roll")

    def add_to_roll(self, n: int, card: int) -> None:
        """Raise the roll total by ``n``; the new total is the roll for everyone."""
        self.total += n
        self._log({"type": "add_to_roll", "player": self.current, "added": n,
                   "total": self.total, "card": self.rules.ids[card]})
