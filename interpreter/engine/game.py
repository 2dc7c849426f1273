"""The game: the state of the table and the turn engine, as a state machine.

A :class:`Game` runs by itself until a player must choose, then stops at a
:class:`~machikoro.engine.decision.Decision` listing the legal answers; :meth:`Game.answer`
goes on. The turn's phases are in :mod:`machikoro.engine.phases`, what effects do to the
state in :mod:`machikoro.engine.state_changes`.

All randomness comes from one ``random.Random`` seeded at creation, so a seed and the list
of answers (``history``) replay a game exactly. State is a few small lists: :meth:`clone`
is cheap. Events (dicts) are recorded only when asked (``record=True``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..errors import GameOver, IllegalChoice, MachikoroError
from ..rules.ruleset import RuleSet
from .decision import Decision, same_answer
from .market import MarketState
from .phases import BUILD, OVER, PHASE_NAMES, ROLL, START, TurnPhases
from .state_changes import StateChanges

_ILLEGAL = object()  # no option matches an answer


class Game(TurnPhases, StateChanges, MarketState):
    """One game: the state of the table and the turn engine.

    ``players`` is a count or a list of names (seats in turn order, clockwise); ``seed``
    seeds the game's one random generator; ``max_turns`` ends the game with no winner
    after that many turns (each player's turn, extra turns included, counts one);
    ``record`` keeps a list of events in ``events``; ``dice`` replaces the generator for
    rolls: a callable ``(count) -> tuple of faces`` (scripted positions).

    Raises :class:`~machikoro.errors.MachikoroError` (a ValueError) for a player count
    outside the rule set's range, repeated names, or ``max_turns`` below 1.
    Public state (read it, don't change it during play): ``coins`` (coins per seat),
    ``owned`` (per seat, copies per card index, landmarks 0/1), ``supply`` (face-up market
    copies per card index), ``decks`` (per market row, the cards still in its deck, or
    None), ``marks`` (per marker of the rules file, per seat, per card index: the copies
    closed, or the coins stored), ``current`` (seat whose turn it is), ``turn`` (turns
    played, the winning turn included; ``extra_turns`` of them were extra turns), ``dice``
    (faces of the current roll), ``total`` (the roll total), ``winner`` (seat or None),
    ``over``.
    """

    __slots__ = (
        "_order",
        "_others",
        "_roll",
        "bound",
        "builds_left",
        "built_this_turn",
        "coins",
        "current",
        "decks",
        "dice",
        "dice_count",
        "events",
        "extra_turn",
        "extra_turns",
        "history",
        "marks",
        "max_turns",
        "n",
        "names",
        "owned",
        "pending",
        "pending_item",
        "phase",
        "qins",
        "qpos",
        "queue",
        "rerolls_used",
        "rng",
        "rules",
        "seed",
        "side_rolls",
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
        self.coins = rules.starting_coins(n)
        self.owned = [list(rules.start_town) for _ in range(n)]
        self.marks = [[[0] * len(rules.ids) for _ in range(n)] for _ in rules.markers]
        self.side_rolls = {} if rules.side_roll_cards else None
        self.bound = None
        self.qins = 0
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
        self.queue: list | tuple = []
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
        self.decks: list = [None] * len(rules.market_rows)
        if rules.market_upkeep:
            self._setup_market(rules.supply_for(n))
        else:
            self.supply = rules.supply_for(n)

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """True once somebody has won or the turn limit was reached."""
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """The current step of the turn: start, roll, after_roll, income, before_build,
        build, end or over."""
        return PHASE_NAMES[self.phase]

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
         new.seed, new._roll, new._order, new._others, new.bound, new.qins) = (
            self.rules, self.names, self.n, self.current, self.turn, self.phase, self.dice,
            self.total, self.dice_count, self.builds_left, self.extra_turn,
            self.extra_turns, self.winner, self.qpos, self.pending, self.pending_item,
            self.rng, self.max_turns, self.seed, self._roll, self._order, self._others,
            self.bound, self.qins)
        new.coins = list(self.coins)
        new.owned = [list(t) for t in self.owned]
        new.supply = list(self.supply)
        new.marks = [[list(row) for row in table] for table in self.marks]
        new.decks = [None if deck is None else list(deck) for deck in self.decks]
        new.side_rolls = None if self.side_rolls is None else dict(self.side_rolls)
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
        kind = type(value)
        if value is None or kind is str:
            legal = value in decision.options  # exact for None and str
        elif kind is int or kind is bool:  # exact: 1 is not True
            legal = False
            for option in decision.options:
                if type(option) is kind and option == value:
                    legal = True
                    break
        else:
            # the option itself stands for the answer: an immutable value, not the caller's
            matched = next((option for option in decision.options if option is value),
                           _ILLEGAL)  # an agent handing back an option: no comparing
            if matched is _ILLEGAL:
                matched = next((option for option in decision.options
                                if same_answer(option, value)), _ILLEGAL)
            legal = matched is not _ILLEGAL
            value = matched if legal else value
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
            self._resolve(name, value)

    def _resolve(self, name: str, value: Any) -> None:
        """Carry out the pending item's decision with ``value``; its ``then`` steps run
        next when it happened."""
        card, owner, copies, clause = self.pending_item
        self.pending_item = None
        if self.events is not None:
            self._log({"type": "choice", "player": owner,
                       "card": self.rules.ids[card] if card >= 0 else None,
                       "decision": name, "answer": value,
                       "target": value if clause.action.chooses_player else None})
        self.qins = self.qpos
        happened = clause.action.resolve(self, card, owner, copies, value)
        if clause.rest is not None and happened is not False:
            self.enqueue([(card, owner, copies, clause.rest)])

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
