"""The game: the state of the table and the turn engine, as a state machine.

A :class:`Game` runs by itself until a player must choose, then stops at a
:class:`~machikoro.engine.decision.Decision` listing the legal answers; :meth:`Game.answer`
goes on. The turn's phases are in :mod:`machikoro.engine.phases`, what effects do to the
state in :mod:`machikoro.engine.state_changes`.

All randomness comes from one ``random.Random`` seeded at creation (a seed is drawn and
kept in ``seed`` when none is given), so a seed and the list of answers (``history``) replay
a game exactly. A roll is a chance step (:mod:`machikoro.engine.chance`): with
``explicit_chance`` the game stops at it instead of sampling, and look-ahead lists its
outcomes and applies one. State is a few small lists: :meth:`clone` is cheap. Events
(dicts) are recorded only when asked (``record=True``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..errors import GameOver, IllegalChoice, MachikoroError, NothingPending
from ..rules.ruleset import RuleSet
from .chance import MAX_SEED_DIGITS, ChanceStep
from .decision import Decision, same_answer
from .dispatch import dispatch_for
from .market import MarketState, Unshuffled, settle_decks
from .options import ILLEGAL, SwapOptions
from .phases import OVER, PHASE_NAMES, ROLL, START, STEPS, STEPS_IN_TURN, TurnPhases
from .state_changes import StateChanges

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

_ILLEGAL = object()  # no option matches an answer


def _whole(value: Any) -> bool:
    """True for a whole number (``int``, NumPy integers: any type with ``__index__``, the
    protocol of integers), never for a bool (NumPy's bool has no ``__index__``)."""
    kind = type(value)
    return kind is int or (kind is not bool and hasattr(kind, "__index__"))




def _shown(value: Any) -> str:
    """``value`` for an error message: its repr cut to 60 characters, and a whole number
    too long to write as text by its size alone."""
    if _whole(value) and abs(int(value)).bit_length() > 3 * MAX_SEED_DIGITS:
        try:
            return f"a number of {len(str(abs(int(value)))):,} digits"
        except ValueError:  # past Python's int-string limit: count by bits
            return f"a number of about {round(abs(int(value)).bit_length() * 0.30103):,} " \
                   "digits"
    return f"{value!r:.60}"


def _seat_names(rules: RuleSet, players: Any) -> list[str]:
    """The seats' names from ``players`` (a count or a list/tuple of distinct non-empty
    names), checked against the rule set's range before anything is allocated."""
    low, high = rules.min_players, rules.max_players
    if _whole(players):
        count = int(players)
    elif isinstance(players, (list, tuple)):
        count = len(players)
    else:
        raise MachikoroError(f"players must be a number of players or a list of names, not "
                             f"{type(players).__name__} {players!r:.60}")
    if not low <= count <= high:
        raise MachikoroError(f"{rules.name} is for {low}-{high} players, not {_shown(count)}")
    if _whole(players):
        return [f"P{i + 1}" for i in range(count)]
    if not all(type(p) is str and p.strip() for p in players):
        raise MachikoroError("player names must be non-empty strings")
    if len(set(players)) != count:
        raise MachikoroError("player names must differ")
    return list(players)


def _checked_options(seed: Any, max_turns: Any) -> tuple[int, int | None]:
    """The seed (drawn from the system's entropy when None) and the turn cap, checked as
    the command line checks them: whole numbers, the seed >= 0 and of at most
    :data:`MAX_SEED_DIGITS` digits, the cap >= 1."""
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    elif not _whole(seed) or not 0 <= seed < 10 ** MAX_SEED_DIGITS:
        raise MachikoroError(f"seed must be a whole number >= 0 of at most "
                             f"{MAX_SEED_DIGITS} digits, not {_shown(seed)}")
    if max_turns is not None and (not _whole(max_turns) or max_turns < 1):
        raise MachikoroError(f"max_turns must be a whole number >= 1 or None, not "
                             f"{_shown(max_turns)}")
    return int(seed), None if max_turns is None else int(max_turns)


class Game(TurnPhases, StateChanges, MarketState):
    """One game: the state of the table and the turn engine.

    ``players`` is a count or a list of names (seats in turn order, clockwise); ``seed``
    (a whole number >= 0) seeds the game's one random generator, and when None a seed is
    drawn and kept in ``seed``, so every game can be replayed; ``max_turns`` (a whole
    number >= 1, or None) ends the game with no winner after that many turns (each
    player's turn, extra turns included, counts one); ``record`` keeps a list of events in
    ``events``; ``dice`` replaces the generator for rolls: a callable ``(count) -> tuple of
    faces`` (scripted positions); ``explicit_chance`` makes every roll a chance step the
    game stops at (:meth:`chance_step`, :meth:`chance_outcomes`, :meth:`apply_chance`)
    instead of sampling it; ``explain`` (with ``record``) gives the events a card's clause
    or a build makes their ``cause``: the clause's file, line, column and text and the
    amounts that went into it (:mod:`machikoro.engine.explanations`).

    ``on_roll`` (None, or set it to a callable ``(game, faces)``) observes the dice: the
    engine calls it with each roll and reroll of the turn's dice as soon as they are drawn,
    before any card reads them (coins and towns as they stood before the roll); it must
    not change the game. A clone's is None.

    Raises :class:`~machikoro.errors.MachikoroError` (a ValueError) for a player count
    outside the rule set's range (checked before anything is allocated), players that are
    neither a count nor a list of distinct names, a seed that is not a whole number >= 0
    of at most :data:`MAX_SEED_DIGITS` digits, or a ``max_turns`` that is not a whole
    number >= 1 (bools, fractions and NaN refused).
    Public state (read it, don't change it during play): ``coins`` (coins per seat),
    ``owned`` (per seat, copies per card index, landmarks 0/1), ``supply`` (face-up market
    copies per card index), ``decks`` (per market row, the cards still in its deck, or
    None), ``marks`` (per marker of the rules file, per seat, per card index: the copies
    closed, or the coins stored), ``current`` (seat whose turn it is), ``turn`` (turns
    played, the winning turn included; ``extra_turns`` of them were extra turns), ``dice``
    (faces of the current roll), ``total`` (the roll total), ``winner`` (seat or None),
    ``over``, ``history`` (every answer given, in order) and ``builds`` (every build, in
    order: ``(turn, seat, card id)``, turns numbered from 1; a pass is not a build).
    ``towns_seen`` is what the effects' amounts and conditions read: ``owned`` itself,
    except in an income step that changed a town under the rule ``income.towns: at_roll``,
    where it is a copy of the towns as they stood at the roll; ``income_moves`` the
    moves of cards in such a step, or None
    (:meth:`~machikoro.engine.state_changes.StateChanges.towns_changing`).
    """

    __slots__ = (
        "_dispatch",
        "_menus",
        "_order",
        "_others",
        "_plans",
        "_roll",
        "bound",
        "builds",
        "builds_left",
        "built_this_turn",
        "chance_history",
        "chance_pending",
        "coins",
        "current",
        "decks",
        "dice",
        "dice_count",
        "events",
        "explain",
        "explicit_chance",
        "extra_turn",
        "extra_turns",
        "history",
        "income_moves",
        "marks",
        "max_turns",
        "n",
        "names",
        "on_roll",
        "owned",
        "pending",
        "pending_item",
        "phase",
        "qins",
        "qpos",
        "queue",
        "received",
        "rerolls_used",
        "rng",
        "rules",
        "running",
        "seed",
        "side_rolls",
        "supply",
        "total",
        "towns_seen",
        "turn",
        "winner",
    )

    def __init__(self, rules: RuleSet, players: int | list[str] = 2, seed: int | None = None,
                 *, max_turns: int | None = None, record: bool = False,
                 dice: Callable[[int], tuple] | None = None, explicit_chance: bool = False,
                 explain: bool = False):
        if not isinstance(rules, RuleSet):
            raise MachikoroError(f"rules must be a RuleSet (load_ruleset()), not "
                                 f"{type(rules).__name__}")
        names = _seat_names(rules, players)
        seed, max_turns = _checked_options(seed, max_turns)
        if dice is not None and (not callable(dice) or explicit_chance):
            raise MachikoroError("dice must be a callable (count) -> faces, or None, and "
                                 "not given with explicit_chance")
        n = len(names)
        self.rules = rules
        self._dispatch = dispatch_for(rules)
        self.names = names
        self.n = n
        self.coins = rules.starting_coins(n)
        self.owned = [list(rules.start_town) for _ in range(n)]
        self.towns_seen = self.owned  # the towns effects read (StateChanges.towns_changing)
        self.income_moves: list | None = None
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
        # per seat, the coins received this turn: counted only in a rule set that reads them
        self.received: list | None = [0] * n if rules.tracks_received else None
        self.builds_left = 0
        self.extra_turn = False
        self.extra_turns = 0
        self.winner: int | None = None
        self.queue: list | tuple = []
        self.qpos = 0
        self.pending: Decision | None = None
        self.pending_item = None
        self.events: list | None = [] if record else None
        self.explain = bool(explain and record)
        self.running: tuple | None = None  # the queue item being run, when explaining
        self.on_roll = None  # an observer of the rolls (see the class text)
        self.history: list = []
        self.builds: list = []
        self.seed = seed
        self.rng = random.Random(seed)
        self.max_turns = max_turns
        self._roll = dice
        self.explicit_chance = bool(explicit_chance)
        self.chance_pending: tuple | None = None
        self.chance_history: list = []
        self._order, self._others = self._dispatch.seat_orders(n)
        self._plans = self._dispatch.income_plans(n)
        self.decks: list = [None] * len(rules.market_rows)
        self._menus: list = [None] * n  # per seat, its build menu (phases._menu)
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
        """The market: ``{id: copies left}`` for every establishment and every landmark
        with a supply (face-up copies)."""
        rules = self.rules
        return {rules.ids[i]: self.supply[i]
                for i in rules.establishments + rules.market_landmarks}

    def others(self, seat: int) -> tuple[int, ...]:
        """The other seats, in payment order starting next to ``seat``."""
        return self._others[seat]

    _SHARED = ("rules", "names", "n", "current", "turn", "phase", "dice", "total",
               "dice_count", "builds_left", "extra_turn", "extra_turns", "winner", "qpos",
               "pending", "pending_item", "max_turns", "_order", "_others", "chance_pending",
               "bound", "qins", "_dispatch", "_plans", "explain", "running")
    """Slots a clone shares with its original: immutable values (ints, tuples, frozen
    objects). Every other slot is copied or made anew by :meth:`clone` (a test checks
    that the two lists cover ``__slots__``)."""

    def clone(self, light: bool = False, seed: int | None = None,
              explicit_chance: bool | None = None) -> Game:
        """An independent copy of this game whose future dice are not this game's.

        The copy's generator is seeded with ``seed`` (a whole number >= 0) when given, else
        from the system's entropy: playing on in a copy never reveals the rolls this game
        will make (scripted ``dice`` included), nor the order of its market's decks (a
        copy's decks are shuffled again), and never changes them. ``light=True`` makes
        a cheaper copy for look-ahead (no events, no history or builds, ``chance_history`` None);
        without a ``seed`` a light copy rolls no dice at all: it stops at every roll as a
        chance step (explicit chance), so look-ahead enumerates or samples the outcomes
        itself.
        ``explicit_chance`` sets the copy's mode (default: this game's, or explicit for a
        light copy without a seed). The copy's ``seed`` is the seed given (None when drawn
        from entropy). Raises :class:`~machikoro.errors.MachikoroError` for a bad seed, or
        for a light copy asked to sample without a seed.
        """
        if seed is None and light:  # the look-ahead copy: no generator, every roll a step
            if explicit_chance is False:
                raise MachikoroError("a light clone that samples its dice needs a seed")
            rng, explicit = None, True
        else:
            if seed is not None and (not _whole(seed) or seed < 0):
                raise MachikoroError(f"seed must be a whole number >= 0, not {seed!r:.60}")
            rng = random.Random(seed)  # None: the system's entropy
            explicit = self.explicit_chance if explicit_chance is None else explicit_chance
        new = Game.__new__(Game)
        # _roll None: scripted dice are this game's
        (new.rules, new.names, new.n, new.current, new.turn, new.phase, new.dice,
         new.total, new.dice_count, new.builds_left, new.extra_turn, new.extra_turns,
         new.winner, new.qpos, new.pending, new.pending_item, new.max_turns,
         new._order, new._others, new.chance_pending, new.rng, new.explicit_chance,
         new.seed, new._roll, new.bound, new.qins, new._dispatch, new._plans) = (
            self.rules, self.names, self.n, self.current, self.turn, self.phase, self.dice,
            self.total, self.dice_count, self.builds_left, self.extra_turn,
            self.extra_turns, self.winner, self.qpos, self.pending, self.pending_item,
            self.max_turns, self._order, self._others, self.chance_pending, rng, explicit,
            seed, None, self.bound, self.qins, self._dispatch, self._plans)
        new.running = self.running
        new.on_roll = None  # (an observer watches one game)
        new.explain = self.explain and not light
        new.coins = list(self.coins)
        new.owned = [list(t) for t in self.owned]
        # in an income step that changed a town: the towns as they stood at the roll
        new.towns_seen = new.owned if self.towns_seen is self.owned else \
            [list(t) for t in self.towns_seen]
        new.income_moves = None if self.income_moves is None else list(self.income_moves)
        new.supply = list(self.supply)
        new.marks = [[list(row) for row in table] for table in self.marks]
        if any(type(deck) is Unshuffled for deck in self.decks):
            settle_decks(self.decks)  # (as if shuffled when this copy was made)
        if rng is None and any(self.decks):  # a look-ahead copy: shuffled when first drawn
            new.decks = [None if deck is None else Unshuffled(deck) for deck in self.decks]
        else:
            new.decks = [None if deck is None else list(deck) for deck in self.decks]
            if any(new.decks):  # the decks' order is this game's future: a copy's is its own
                shuffle = (rng or random.Random(0)).shuffle
                for deck in new.decks:
                    if deck:
                        shuffle(deck)
        new.side_rolls = None if self.side_rolls is None else dict(self.side_rolls)
        new._menus = [None] * self.n  # made again on demand, from the copy's own state
        new.rerolls_used = list(self.rerolls_used)
        new.built_this_turn = list(self.built_this_turn)
        new.received = None if self.received is None else list(self.received)
        new.queue = list(self.queue)
        if light:
            new.events = new.chance_history = None
            new.history = []
            new.builds = []
            return new
        new.events = None if self.events is None else list(self.events)
        new.history = list(self.history)
        new.builds = list(self.builds)
        new.chance_history = list(self.chance_history)
        return new

    def snapshot(self) -> Game:
        """An exact copy of this game, its generator and decks included: played on with the
        same answers it makes the same rolls, events and positions as this game would.

        Unlike :meth:`clone` the copy knows this game's future dice, so it is for resuming
        a known game (a replay's checkpoints), never for an agent's look-ahead. Its records
        start empty: ``events`` (an empty list when this game records, else None),
        ``history``, ``builds`` and ``chance_history``; a scripted ``dice`` callable and
        ``on_roll`` are not kept. A few kilobytes, whatever the game's length.
        """
        import copy  # only replays take snapshots

        records = (self.events, self.history, self.builds, self.chance_history,
                   self._roll, self.on_roll)
        self.events = None if records[0] is None else []
        self.history, self.builds, self.chance_history = [], [], []
        self._roll = self.on_roll = None
        try:  # the rule set and its compiled tables are immutable: shared, not copied
            return copy.deepcopy(self, {id(self.rules): self.rules,
                                        id(self._dispatch): self._dispatch,
                                        id(self._plans): self._plans})
        finally:
            (self.events, self.history, self.builds, self.chance_history, self._roll,
             self.on_roll) = records

    # ------------------------------------------------------------------ driving

    def decision(self, stop_at_turn_end: bool = False) -> Decision | None:
        """Run the game until a player must choose; return that :class:`Decision`, or None
        when the game is over (or, with explicit chance, when a chance step waits: see
        :meth:`chance_step`). Calling it again without answering returns the same one.

        With ``stop_at_turn_end``, also return None, without starting the next turn (and
        rolling its dice), as soon as the current turn is complete (``turn`` has grown).
        """
        turn = self.turn
        steps = STEPS_IN_TURN if stop_at_turn_end else STEPS
        while self.pending is None:
            phase = self.phase
            if phase == OVER or self.chance_pending is not None:
                return None
            if stop_at_turn_end and phase == START and self.turn != turn:
                return None
            steps[phase](self)
        return self.pending

    def answer(self, value: Any, player: int | None = None) -> None:
        """Answer the pending decision (the one :meth:`decision` returned) with one of its
        ``options``; ``player``, when given, must be the seat the decision belongs to.

        Raises :class:`~machikoro.errors.IllegalChoice` for a value not among the options
        or an answer for another seat, :class:`~machikoro.errors.NothingPending` when no
        decision is waiting (the game is never played forward to find one), and
        :class:`~machikoro.errors.GameOver` when the game has ended; the state is unchanged
        in every case.
        """
        decision = self.pending
        if decision is None:
            if self.phase == OVER:
                raise GameOver("the game is over; no decision is waiting")
            why = ("a chance step is waiting (apply_chance)" if self.chance_pending is not None
                   else "call decision() first")
            raise NothingPending(f"no decision is waiting: {why}")
        name, seat, options, card = decision  # (a tuple's unpacking: its fastest read)
        if player is not None and player is not seat and (
                not _whole(player) or player != seat):
            raise IllegalChoice(decision, value, f"the decision is seat {seat}'s "
                                f"({self.names[seat]}), not seat {player!r}'s")
        kind = type(value)
        if kind is str or value is None:
            legal = value in options  # exact for None and str
        elif kind is int or kind is bool:  # exact: 1 is not True
            legal = False
            for option in options:
                if type(option) is kind and option == value:
                    legal = True
                    break
        elif type(options) is SwapOptions:  # looked up, not compared one by one
            matched = options.match(value)
            legal = matched is not ILLEGAL
            value = matched if legal else value
        else:
            # the option itself stands for the answer: an immutable value, not the caller's
            matched = next((option for option in options if option is value),
                           _ILLEGAL)  # an agent handing back an option: no comparing
            if matched is _ILLEGAL:
                matched = next((option for option in options
                                if same_answer(option, value)), _ILLEGAL)
            legal = matched is not _ILLEGAL
            value = matched if legal else value
        if not legal:
            raise IllegalChoice(decision, value, self._why_illegal(decision, value))
        self.pending = None
        self.history.append(value)
        if name == "build" and card is None:
            self._build(value)
        elif name == "dice" and card is None:
            self.dice_count = value
            self.phase = ROLL
            if self.events is not None:
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
        if self.explain:  # the clause the events cite (engine.explanations)
            self.running = (card, owner, copies, clause)
        happened = clause.action.resolve(self, card, owner, copies, value)
        if clause.rest is not None and happened is not False:
            self.enqueue([(card, owner, copies, clause.rest)])

    # ------------------------------------------------------------------ chance

    def chance_step(self) -> ChanceStep | None:
        """Run the game like :meth:`decision`; return the :class:`~machikoro.engine.chance.
        ChanceStep` it stopped at (explicit chance only), or None when it stopped at a
        decision or the end."""
        self.decision()
        pending = self.chance_pending
        return None if pending is None else pending[0]

    def chance_outcomes(self) -> tuple:
        """The waiting chance step's outcomes: ``((faces ascending), Fraction)`` pairs whose
        probabilities sum to 1. Raises :class:`~machikoro.errors.NothingPending` when the
        game stops at no chance step (normal play samples every roll itself)."""
        step = self.chance_step()
        if step is None:
            raise NothingPending("no chance step is waiting (Game(..., explicit_chance=True) "
                                 "stops at every roll)")
        return step.outcomes()

    def apply_chance(self, outcome: tuple) -> None:
        """Apply one outcome (the faces, in any order) of the waiting chance step, as if
        the dice had shown it; the game goes on with it (``chance_history`` keeps it).
        Raises :class:`~machikoro.errors.NothingPending` when no chance step waits and
        :class:`~machikoro.errors.MachikoroError` for an impossible outcome (state
        unchanged in both cases)."""
        if self.chance_pending is None:
            raise NothingPending("no chance step is waiting: call chance_step() first")
        step, then = self.chance_pending
        faces = step.check(outcome)
        self.chance_pending = None
        if self.chance_history is not None:  # a light copy keeps none
            self.chance_history.append(faces)
        then(self, step, faces)

    def roll_for(self, step: ChanceStep, then: Callable) -> None:
        """Throw the dice of ``step``, then call ``then(game, step, faces)`` with them: at
        once from the game's generator in normal play, or, with explicit chance, when
        :meth:`apply_chance` is given the outcome. ``then`` must be a plain function (not
        bound to a game), so a clone taken while the step waits resumes on itself. Any
        rule that rolls dice goes through here (the turn's roll, a reroll, a side roll)."""
        if self.explicit_chance:
            self.chance_pending = (step, then)
        else:
            then(self, step, self._throw(step.dice, step.faces))

    def _why_illegal(self, decision: Decision, value: Any) -> str:
        if decision.name == "build" and decision.card is None and isinstance(value, str):
            rules, p = self.rules, decision.player
            i = rules.index.get(value)
            if i is None:
                return f"no card '{value}' in this rule set"
            if rules.cards[i].is_landmark and self.owned[p][i]:
                return f"{value} is already built"
            cost = self.cost_to(p, i)
            if cost > self.coins[p]:
                return f"{value} costs {cost} coins; the player has {self.coins[p]}"
            if (not rules.cards[i].is_landmark or i in rules.market_landmarks) and \
                    self.supply[i] <= 0:
                return f"{value} is sold out"
            if self.owned[p][i] >= rules.limit[i]:
                return f"a player may own at most {rules.limit[i]} {value}"
            if not all(test.test(self, p) for test in rules.build_if[i]):
                return f"{value} may be built only when {rules.cards[i].build_if_text}"
        return "not among the options " + repr(list(decision.options))[:200]


def copy_settings(game: Game, n: int, seeds, max_turns) -> tuple:
    """``(seeds, max_turns)`` of ``n`` copies of ``game``'s position in the compiled engine
    (:func:`machikoro.compiled.convert.from_game`): ``seeds`` as given, else ``n`` drawn from the system's entropy;
    ``max_turns`` as given, -1 for the game's own. Raises :class:`~machikoro.errors.
    MachikoroError` for something other than a ``Game``, or a game waiting at a chance
    step (explicit chance: apply it first)."""
    if not isinstance(game, Game):
        raise MachikoroError(f"from_game needs a Game, not {type(game).__name__}")
    if game.chance_pending is not None:
        raise MachikoroError("the game waits at a chance step: apply_chance() first")
    if seeds is None:
        entropy = random.SystemRandom()
        seeds = [entropy.randrange(1 << 63) for _ in range(n)]
    return seeds, game.max_turns if max_turns == -1 else max_turns
