"""The batched engine: N games of one rule set played at once, as arrays.

:class:`VectorGames` holds a :class:`~machikoro.vector.batch.Batch` and plays it turn by
turn, exactly as the scalar engine (:mod:`machikoro.engine.phases`) plays one game: every
game runs on by itself until its player must choose, then waits at a decision with its
legal options. :meth:`VectorGames.step` takes one answer per waiting game (an *option
index*: the position of the answer in the scalar engine's ``Decision.options`` of that
game), applies them all, and runs every game on to its next decision or its end. The
turn, one lap of :meth:`_advance`::

    end of turn hooks -> next player -> start (before roll hooks) -> dice decision ->
    roll -> after roll hooks (reroll, +2...) -> income (the roll's plan) ->
    before build hooks -> build decision

Each hook step and each roll's income is a *plan* walk (:meth:`_walk`) over the items of
:mod:`machikoro.vector.program`; a game that reaches a decision inside a walk waits there
and takes up the walk after its answer. Games move through the lap in groups (index
arrays): each phase handles all the games that reach it, whatever the phase they started
the step in.

Randomness: each game's rolls and deck shuffles come from its own stream
(:mod:`machikoro.vector.rng`) seeded by the game's seed, so a game is the same whatever
the batch around it. The engine names no card: everything comes from the program.
"""

from __future__ import annotations

import copy
from weakref import WeakKeyDictionary

import numpy as np

from ..engine.market import look_ahead_orders
from ..errors import IllegalActions, MachikoroError
from ..language.clauses import TRIGGERS
from ..rules.ruleset import RuleSet
from .batch import Batch, Deck
from .decisions import joined
from .kernels import _ALL
from .program import HOOK_PLANS, Program, compile_rules
from .rng import mix

(START, BEFORE_ROLL, DICE, ROLL, AFTER_ROLL, INCOME, BEFORE_BUILD, BUILD, END,
 OVER, AFTER_INCOME, WHEN_BUILT) = range(12)
PHASE_NAMES = ("start", "before_roll", "dice", "roll", "after_roll", "income",
               "before_build", "build", "end", "over", "after_income", "when_built")
_LAP = (END, START, BEFORE_ROLL, DICE, ROLL, AFTER_ROLL, INCOME, AFTER_INCOME, BEFORE_BUILD,
        BUILD, WHEN_BUILT)
"""The phases of one lap of :meth:`VectorGames._advance`, in order."""
_HOOK_PHASE = {BEFORE_ROLL: "before_roll", AFTER_ROLL: "after_roll",
               BEFORE_BUILD: "before_build", END: "end_of_turn",
               AFTER_INCOME: "after_income", WHEN_BUILT: "when_built"}
_HOOK_NEXT = {BEFORE_ROLL: DICE, AFTER_ROLL: INCOME, AFTER_INCOME: BEFORE_BUILD,
              BEFORE_BUILD: BUILD, WHEN_BUILT: END}
"""The phase after a hook step's (``at end of turn``: the turn's end)."""
_WHEN_BUILT_PLAN = HOOK_PLANS["when_built"]
_CHAIN_END = 1 << 20  # a chain's step index once it ended (did not happen)
_EMPTY = np.zeros(0, dtype=np.int64)
_FORK_SALT = np.uint64(0xD1B54A32D192ED03)  # a fork's streams: keys apart from its parent's

MAX_GAMES = 20_000_000
"""The most games one batch may hold (about 100 bytes to a few KB each)."""


def _take(array: np.ndarray, games: np.ndarray, every: np.ndarray) -> np.ndarray:
    """``array``'s values of ``games`` (the array itself, read only, when ``games`` is
    every slot: ``every``)."""
    return array if games is every else array.take(games, axis=0)


def _put(array: np.ndarray, games: np.ndarray, every: np.ndarray, values) -> None:
    """``array[games] = values``, as one whole-array write when ``games`` is every
    slot."""
    if games is every:
        array[...] = values
    else:
        array[games] = values


def _distinct(values: np.ndarray) -> list:
    """The distinct values of a small-valued int array, as ints (one when all agree: the
    common case, without a sort)."""
    if not len(values):
        return []
    first = int(values[0])
    if (values == first).all():
        return [first]
    return np.unique(values).tolist()


def _cat(parts: list) -> np.ndarray:
    parts = [p for p in parts if len(p)]
    if not parts:
        return _EMPTY
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _plan_entries(pid: int, plan: tuple) -> tuple:
    """``(offsets, cards, entry of each item)``: a plan's distinct (owner offset, card)
    pairs, whose copies are counted (and reopened) once at the plan's start."""
    seen: dict = {}
    entry_of = []
    for item in plan:
        key = (item.offset, item.card)
        if key not in seen or pid < len(TRIGGERS):  # a hook: one entry per item
            seen[key if pid >= len(TRIGGERS) else (key, len(entry_of))] = len(seen)
        entry_of.append(len(seen) - 1 if pid < len(TRIGGERS) else seen[key])
    keys = [k if pid >= len(TRIGGERS) else k[0] for k in seen]
    offsets = np.array([k[0] for k in keys], dtype=np.int64)
    cards = np.array([k[1] for k in keys], dtype=np.int64)
    return offsets, cards, np.array(entry_of, dtype=np.int64)


_TABLES: WeakKeyDictionary = WeakKeyDictionary()


def _walk_tables(program: Program) -> tuple:
    """The engine's tables of one program, made once: per plan its entries
    (:func:`_plan_entries`), the chain lengths of its items, each entry's first item,
    per item ``(entry, first of its entry, its copies kept in act_copies: the entry has
    several items, or one that asks)``; the one card offering a choice of dice (card, the
    counts without it and with it) or None; the cards of each trigger's hooks; per plan
    the order block of each place."""
    found = _TABLES.get(program)
    if found is not None:
        return found
    entries = {pid: _plan_entries(pid, plan) for pid, plan in program.plans.items()}
    plan_steps = {pid: np.array([len(i.steps) for i in plan] or [0], dtype=np.int64)
                  for pid, plan in program.plans.items()}
    card_steps = [np.array([len(i.steps) for i in plan or ()] or [0], dtype=np.int64)
                  for plan in program.card_plans]
    entry_first, item_info = {}, {}
    for pid, plan in program.plans.items():
        entry_of = entries[pid][2].tolist()
        firsts: dict = {}
        for j, e in enumerate(entry_of):
            firsts.setdefault(e, j)
        entry_first[pid] = [firsts[e] for e in range(len(firsts))]
        item_info[pid] = [(e, firsts[e] == j, entry_of.count(e) > 1 or any(
            plan[i].asks for i, f in enumerate(entry_of) if f == e))
            for j, e in enumerate(entry_of)]
    dice_rows = None
    if len(program.dice_cards) == 1:
        without = np.zeros(len(program.dice_counts), dtype=bool)
        without[program.default_dice] = True
        dice_rows = (program.dice_cards[0], (without, program.dice_offers[0]))
    hook_cards = {pid: np.array(sorted({i.card for i in program.plans[pid]}), dtype=np.int64)
                  for pid in HOOK_PLANS.values()}
    block_of = {pid: {j: b for b in blocks for j in range(b.start, b.stop)}
                for pid, blocks in program.blocks.items()}
    found = _TABLES[program] = (entries, plan_steps, card_steps, entry_first, item_info,
                                dice_rows, hook_cards, block_of)
    return found



class _Cursor:
    """Where games stand in a plan walk: ``pos`` (item, or slot of an order block),
    ``copy`` (copies done of an item that runs once per copy) and ``step`` (the next step
    of the clause's chain), with the owner of each item (``owner_of``)."""

    __slots__ = ("copy", "owner_of", "pos", "step")

    def __init__(self, n: int, owner_of):
        self.pos = np.zeros(n, dtype=np.int64)
        self.copy = np.zeros(n, dtype=np.int64)
        self.step = np.zeros(n, dtype=np.int64)
        self.owner_of = owner_of


def _check_count(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise MachikoroError(f"a batch's number of games must be a whole number, not "
                             f"{n!r:.60}")
    if not 1 <= n <= MAX_GAMES:
        raise MachikoroError(f"a batch holds 1 to {MAX_GAMES:,} games, not {n:,}")
    return int(n)


class VectorGames(Batch):
    """N games of ``rules`` for ``players`` seats, played in lock-step.

    ``seeds``: one whole number >= 0 per game (its stream of rolls and shuffles: the
    lab gives :func:`~machikoro.lab.runs.game_seeds`' game seeds); ``max_turns`` ends a
    game with no winner after that many turns (None: no cap), as
    :class:`~machikoro.engine.game.Game` does. Raises :class:`~machikoro.errors.
    VectorUnsupported` for a rule set the batched engine cannot play and
    :class:`~machikoro.errors.MachikoroError` for bad arguments.

    After construction (and after every :meth:`step`) every game that is not over waits
    at a decision: ``pending`` (its kind, an index of ``program.choices``: 0 build, 1
    dice, ...; -1 none), ``pending_player`` (the seat that answers) and
    :meth:`decisions` (the waiting games of each kind with their legal-option masks).
    ``over`` says which games have ended, ``winner`` who won (-1: nobody).
    """

    def __init__(self, rules: RuleSet, players: int, seeds, max_turns: int | None = 1000,
                 keep_builds: bool = False, start: bool = True):
        if not isinstance(rules, RuleSet):
            raise MachikoroError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if hasattr(seeds, "__len__"):  # refused before a list of it is made
            _check_count(len(seeds))
        seeds = list(seeds)
        n = _check_count(len(seeds))
        for s in seeds:
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
                raise MachikoroError(f"seeds must be whole numbers >= 0, not {s!r:.60}")
        if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(
                max_turns, (int, np.integer)) or max_turns < 1):
            raise MachikoroError(f"max_turns must be a whole number >= 1 or None, not "
                                 f"{max_turns!r:.60}")
        program = compile_rules(rules, players)
        super().__init__(program, n, seeds)
        self.seeds = seeds
        self.max_turns = max_turns
        width = max(program.max_items, 1)
        self.act_copies = np.zeros((n, width), dtype=np.int64)
        self.plan = np.full(n, -1, dtype=np.int64)
        self.order_state = np.zeros(n, dtype=np.int64)  # 0 unchecked, 1 plan order, 2 own
        self.exec_order = np.zeros((n, width), dtype=np.int64)
        self.restart = np.zeros(n, dtype=bool)
        self.hold_turns = False  # True: a game stops when its turn ends (``held``)
        self.held = np.zeros(n, dtype=bool)
        self.cur_cell = np.arange(n, dtype=np.int64) * program.players  # current's row
        self.ins_card = np.full(n, -1, dtype=np.int64)
        self.ins_owner = np.zeros(n, dtype=np.int64)
        self.ins_copies = np.zeros(n, dtype=np.int64)
        self.main = _Cursor(n, self._plan_owner)
        self.inserted = _Cursor(n, self._ins_owner_of)
        self.recorded = np.zeros(n, dtype=bool)  # copies counted: it waited in this walk
        self._mixed = False  # the walk under way holds games that waited in it
        # the insertion cursor's arrays, under the names batch.activate sets
        self.ins_pos, self.ins_copy, self.ins_step = (self.inserted.pos, self.inserted.copy,
                                                      self.inserted.step)
        self._phase_now = START
        self._inline = None  # run(): the policy answering every decision as it arises
        self._compacting = False  # run(): games that ended are set aside (_compact)
        self._ended = 0  # games that ended since the last compaction
        self._archive = None  # the whole batch's arrays while compacted
        self.ids = np.arange(n, dtype=np.int64)  # each slot's game (compacted: not g)
        self.every = np.arange(n, dtype=np.int64)  # the slots, when a phase has them all
        self.pending = np.full(n, -1, dtype=np.int64)
        self.pending_player = np.full(n, -1, dtype=np.int64)
        self.pending_card = np.full(n, -1, dtype=np.int64)
        self._waiting: dict = {}  # kind -> ([games], [masks]) registered this step
        self._masks: dict = {}    # kind -> (games, mask): the decisions now waiting
        self._row = np.zeros(n, dtype=np.int64)  # a waiting game's row in its kind's mask
        self.builds: list | None = [] if keep_builds else None
        tables = _walk_tables(program)
        (self._entries, self._plan_steps, self._card_steps, self._entry_first,
         self._item_info, self._dice_rows, self._hook_cards, self._block_of) = tables
        self._blocks = program.blocks
        if rules.market_upkeep:
            self._setup_market()
        self.refresh_menus(np.arange(n))
        if start:
            self.begin()

    def begin(self) -> None:
        """Start every game: play on to its first decision (done by the constructor
        unless ``start=False``, which lets a caller set the batch up first)."""
        self._advance({START: np.arange(self.n)}, {})

    # ------------------------------------------------------------------ set-up

    def _setup_market(self) -> None:
        """Lay out the market: each row with a number of kinds shuffles its cards (the
        box's copies) into its deck and reveals (:meth:`MarketState._setup_market`)."""
        rules = self.rules
        piles = rules.supply_for(self.players)
        everyone = np.arange(self.n)
        for r, row in enumerate(rules.market_rows):
            if row.kinds is None:
                continue
            cards = np.array([i for i in row.cards for _ in range(piles[i])], dtype=np.int64)
            deck = self.decks[r] = Deck(self.n, len(cards), self.program.card_type)
            if len(cards):
                keys = self.dice_stream.permutation_keys(everyone, len(cards))
                deck.cards[:, :len(cards)] = cards[np.argsort(keys, axis=1)].astype(deck.cards.dtype)
                deck.hi[:] = len(cards)
            self.supply[:, list(row.cards)] = 0
        self.market_changed(everyone)

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> np.ndarray:
        """True for each game that has ended (a winner, or the turn cap)."""
        return self.phase == OVER

    def decisions(self) -> dict:
        """The waiting decisions: ``{kind: Waiting}`` (:class:`~machikoro.vector.
        decisions.Waiting`: ``games``, the indices of the games waiting at a decision of
        that kind, in no particular order; ``mask``, a ``(len(games),
        len(program.choices[kind].slots))`` bool array, build: ``1 + cards`` slots, pass
        first then the cards in build-menu order, dice: ``program.dice_counts``, whose
        ``True`` slots, in order, are the game's options, option index k the k-th;
        ``counts``, options per game). ``games, mask = waiting`` unpacks one."""
        return self._masks

    def option_counts(self) -> np.ndarray:
        """How many options each game's waiting decision has (0: none waiting)."""
        counts = np.zeros(self.n, dtype=np.int64)
        for waiting in self._masks.values():
            counts[waiting.games] = waiting.counts
        return counts

    def mask_of(self, kind: int, games: np.ndarray) -> np.ndarray:
        """The option masks of ``games`` (all waiting at a decision of ``kind``)."""
        return self._masks[kind].mask[self._row[games]]

    def slot_of(self, kind: int, games: np.ndarray, options: np.ndarray) -> np.ndarray:
        """The slot of each game's option index ``options`` (the k-th ``True`` of its
        mask row); ``games`` all wait at a decision of ``kind``."""
        return self._masks[kind].slots_of(options, self._row[games])

    # ------------------------------------------------------------------ stepping

    def step(self, options) -> None:
        """Answer every waiting decision with ``options[g]`` (an option index per game:
        entries of games that wait at no decision are ignored), then play every game on to
        its next decision or its end.

        Raises :class:`~machikoro.errors.IllegalActions` naming the games and decisions
        whose answer is not an option index (nothing is applied to any game), and
        :class:`~machikoro.errors.MachikoroError` for answers not given as one whole
        number per game."""
        options = np.asarray(options)
        if options.shape != (self.n,) or not (np.issubdtype(options.dtype, np.integer)):
            raise MachikoroError(f"step needs one whole-number option index per game: an "
                                 f"integer array of shape ({self.n},), not "
                                 f"{options.dtype} {options.shape}")
        self._answer_slots(self._decoded(options.astype(np.int64)))

    def _decoded(self, options: np.ndarray) -> dict:
        """The waiting games' answers as slots, ``{kind: (games, slots)}``; raises
        :class:`~machikoro.errors.IllegalActions` (nothing applied) for option indices
        that are none of their options."""
        decoded = {}
        bad_games, bad_kinds, bad_values = [], [], []
        for kind, waiting in self._masks.items():
            games = waiting.games
            chosen = _take(options, games, self.every)
            bad = (chosen < 0) | (chosen >= waiting.counts)
            if bad.any():
                bad_games.extend(games[bad].tolist())
                bad_kinds.extend([self.decision_name(kind, g) for g in games[bad]])
                bad_values.extend(chosen[bad].tolist())
            else:
                decoded[kind] = (games, waiting.slots_of(chosen))
        if bad_games:
            order = np.argsort(bad_games, kind="stable")
            raise IllegalActions([bad_games[i] for i in order], [bad_kinds[i] for i in order],
                                 [bad_values[i] for i in order],
                                 "an option index must be 0 to the number of options - 1")
        return decoded

    def step_slots(self, slots: dict) -> None:
        """Answer with slots, not option indices: ``{kind: slot per waiting game}`` (as
        many as ``decisions()[kind]`` has games). Raises :class:`~machikoro.errors.
        IllegalActions` for a slot that is not an option (nothing applied)."""
        decoded = {}
        bad_games, bad_kinds, bad_values = [], [], []
        for kind, waiting in self._masks.items():
            games = waiting.games
            if kind not in slots:
                raise MachikoroError(f"no answers for decision kind {kind} "
                                     f"({len(games)} games wait at it)")
            chosen = np.asarray(slots[kind], dtype=np.int64)
            if chosen.shape != games.shape:
                raise MachikoroError(f"decision kind {kind}: {len(games)} answers needed, "
                                     f"not {chosen.shape}")
            legal = waiting.legal(chosen)
            if not legal.all():
                bad_games.extend(games[~legal].tolist())
                bad_kinds.extend([self.decision_name(kind, g) for g in games[~legal]])
                bad_values.extend(chosen[~legal].tolist())
            decoded[kind] = (games, chosen)
        if bad_games:
            raise IllegalActions(bad_games, bad_kinds, bad_values, "a slot that is no option")
        self._answer_slots(decoded)

    def run(self, policy) -> None:
        """Play every game to its end, ``policy(batch) -> option indices`` answering each
        decision as it arises (within the same pass over the turn, not a :meth:`step`
        each: the same games as stepping with the same policy, faster). Raises as
        :meth:`step` does for an answer that is no option (the games that waited for it
        are left as they were).

        While it runs, the games that ended are set aside (:meth:`_compact`): the batch's
        arrays hold the games still playing, ``ids`` their indices in the batch (a policy
        keeping state per game reads ``batch.ids``); at the end every game is back in its
        place."""
        self._inline = policy
        self._compacting = True
        try:
            while self._masks:
                self.step(policy(self))
        finally:
            self._inline = None
            self._compacting = False
            self._uncompact()

    def _answer_slots(self, decoded: dict) -> None:
        """Apply every waiting game's answer (a slot), then run the games on."""
        self._masks = {}
        self._waiting = {}
        fresh, resume = self._route(decoded)
        self._advance({k: _cat(v) for k, v in fresh.items()},
                      {k: _cat(v) for k, v in resume.items()})

    def _route(self, decoded: dict) -> tuple[dict, dict]:
        """Carry out the answers (slots); ``(fresh, resume)``: lists of games per phase
        they go on from."""
        fresh: dict = {}
        resume: dict = {}
        for kind, (games, slot) in decoded.items():
            _put(self.pending, games, self.every, -1)
            if kind == Program.BUILD:
                self._apply_build(games, slot, fresh, resume)
            elif kind == Program.DICE:
                self.dice_count[games] = np.asarray(self.program.dice_counts)[slot]
                fresh.setdefault(ROLL, []).append(games)
            else:
                self._apply_choice(kind, games, slot, fresh, resume)
        return fresh, resume

    # ------------------------------------------------------------------ compaction

    _PER_GAME = ("coins", "owned", "supply", "current", "turn", "extra_turns", "dice",
                 "ndice", "total", "doubles", "dice_count", "rerolled", "built", "nbuilt",
                 "builds_left", "extra_turn", "winner", "bound", "side", "phase", "menu",
                 "received",
                 "seen", "seen_on", "held", "act_copies", "plan", "order_state",
                 "exec_order", "restart", "ins_card", "ins_owner", "ins_copies", "pending",
                 "pending_player", "pending_card", "_row", "cur_cell", "recorded", "ids")
    """The batch's own per-game arrays (first axis: the game), beside those of
    ``marks``, ``decks``, the dice streams and the cursors (:meth:`_arrays`)."""

    def _arrays(self):
        """``(holder, name)`` of every per-game array of the batch."""
        for name in self._PER_GAME:
            if getattr(self, name) is not None:
                yield self, name
        for k in range(len(self.marks)):
            yield self.marks, k
        for deck in self.decks:
            if deck is not None:
                yield from ((deck, "cards"), (deck, "lo"), (deck, "hi"))
        yield from ((self.dice_stream, "keys"), (self.dice_stream, "counters"))
        for cursor in (self.main, self.inserted):
            yield from ((cursor, "pos"), (cursor, "copy"), (cursor, "step"))

    @staticmethod
    def _get(holder, name):
        return holder[name] if isinstance(holder, list) else getattr(holder, name)

    @staticmethod
    def _set(holder, name, value) -> None:
        if isinstance(holder, list):
            holder[name] = value
        else:
            setattr(holder, name, value)

    def _compact(self, fresh: dict, resume: dict) -> tuple[dict, dict]:
        """Set the games that ended aside: each one's rows go to the whole batch's arrays
        (``_archive``, made at the first call), and the last live games of the arrays
        move into their places, so the live games fill the arrays' first slots (views of
        the same memory); ``ids`` says whose each slot is; ``fresh`` and ``resume`` are
        renumbered."""
        ended = np.flatnonzero(self.phase == OVER)
        n = self.n
        k = n - len(ended)
        if self._archive is None:  # the whole batch's arrays, copies kept as they are now
            self._archive = [(holder, name, self._get(holder, name).copy(),
                              self._get(holder, name)) for holder, name in self._arrays()]
        holes = ended[ended < k]  # ended slots among the first k: filled by live games
        movers = np.arange(k, n)
        movers = movers[self.phase[k:n] != OVER]
        ids = self.ids.copy()  # (``ids`` is one of the arrays moved below)
        for holder, name, whole, buffer in self._archive:
            array = self._get(holder, name)
            whole[ids[ended]] = array[ended]
            array[holes] = array[movers]
            self._set(holder, name, buffer[:k])
        renumber = np.arange(n, dtype=np.int64)
        renumber[movers] = holes
        renumber[ended] = -1
        self.moves = {int(renumber[g]): m for g, m in self.moves.items() if renumber[g] >= 0}
        self._resized(k)
        self._ended = 0
        return ({key: renumber.take(v) for key, v in fresh.items()},
                {key: renumber.take(v) for key, v in resume.items()})

    def _uncompact(self) -> None:
        """Every game back in its place in the whole batch's arrays."""
        if self._archive is None:
            return
        ids = self.ids
        moves = {int(ids[g]): m for g, m in self.moves.items()}
        for holder, name, whole, _ in self._archive:
            whole[ids] = self._get(holder, name)
            self._set(holder, name, whole)
        self._archive = None
        self.moves = moves
        self._resized(len(self.ids))
        self._ended = 0

    def _resized(self, n: int) -> None:
        """The batch holds ``n`` games now: its views and counts follow."""
        self.n = n
        self.coins_flat = self.coins.reshape(-1)
        self.owned_flat = self.owned.reshape(-1)
        self.towns_flat = self.owned.reshape(n * self.players, self.cards)
        self.n_seen = int(self.seen_on.sum())
        self.every = np.arange(n, dtype=np.int64)  # the slots, when a phase has them all
        self.cur_cell[:] = self.every * self.players + self.current  # (games moved)

    # ------------------------------------------------------------------ the lap

    def _advance(self, fresh: dict, resume: dict) -> None:
        """Run games on until each waits at a decision or is over: ``fresh[phase]`` are
        games entering ``phase``, ``resume[phase]`` games taking up a plan walk there."""
        handlers = {END: self._end, START: self._start, BEFORE_ROLL: self._hooks,
                    DICE: self._dice, ROLL: self._roll, AFTER_ROLL: self._hooks,
                    INCOME: self._income, AFTER_INCOME: self._hooks,
                    BEFORE_BUILD: self._hooks, BUILD: self._build,
                    WHEN_BUILT: self._hooks}
        while fresh or resume:
            if self._compacting and self._ended:
                fresh, resume = self._compact(fresh, resume)
            for phase in _LAP:
                new, old = fresh.pop(phase, _EMPTY), resume.pop(phase, _EMPTY)
                outputs: dict = {}
                while len(new) or len(old):
                    self._phase_now = phase  # the phase of the games that wait now
                    for nxt, games in handlers[phase](phase, new, old).items():
                        if len(games):
                            outputs.setdefault(nxt, []).append(games)
                    if self._inline is None or not self._waiting:
                        break
                    # answered at once; those that go on in this phase go on now, so that
                    # the phase's games leave it together (the next phases get them all)
                    self._gather_waiting()
                    more_fresh, more_resume = self._route(
                        self._decoded(np.asarray(self._inline(self), dtype=np.int64)))
                    self._masks = {}
                    for into, more in ((fresh, more_fresh), (resume, more_resume)):
                        for nxt, parts in more.items():
                            into[nxt] = _cat([into.get(nxt, _EMPTY)] + parts)
                    new, old = fresh.pop(phase, _EMPTY), resume.pop(phase, _EMPTY)
                for nxt, parts in outputs.items():
                    fresh[nxt] = _cat([fresh.get(nxt, _EMPTY)] + parts)
        self._gather_waiting()

    def _gather_waiting(self) -> None:
        """The decisions registered as games began to wait, made :class:`Waiting` s."""
        masks = {}
        for kind, parts in self._waiting.items():
            waiting = masks[kind] = joined(parts)
            self._row[waiting.games] = np.arange(len(waiting.games))
        self._masks = masks
        self._waiting = {}

    def _wait(self, kind: int, games: np.ndarray, player: np.ndarray, mask: np.ndarray | None,
              card: np.ndarray | int = -1, bits: np.ndarray | None = None,
              order: np.ndarray | None = None) -> None:
        """Games ``games`` now wait at a decision of ``kind`` for ``player``, with the
        options ``mask`` (or, for the build decision, ``bits``), in slot order or, given
        ``order``, in each game's order of slots (a build menu whose costs change)."""
        if not len(games):
            return
        every = self.every
        _put(self.pending, games, every, kind)
        _put(self.phase, games, every, self._phase_now)
        _put(self.pending_player, games, every, player)
        if kind > Program.DICE:
            self.pending_card[games] = card
        self._waiting.setdefault(kind, []).append(
            (games, mask, bits, self.cards + 1 if bits is not None else 0, order))

    def _all(self, games: np.ndarray) -> np.ndarray:
        """``games``, or :attr:`every` (the same games, in slot order) when it holds every
        slot: a phase that has every game of the batch then reads and writes whole arrays
        (:func:`_take`, :func:`_put`)."""
        return self.every if len(games) == self.n else games

    def _start(self, phase, games, _resumed) -> dict:
        """A turn starts: reset the turn's state; the ``before roll`` hooks, then the
        dice."""
        games, every = self._all(games), self.every
        for card in self.program.reroll_cards:
            if games is every:
                self.rerolled[:, card] = False
            else:
                self.rerolled[games, card] = False
        _put(self.nbuilt, games, every, 0)  # (built[:nbuilt] is this turn's)
        _put(self.extra_turn, games, every, False)
        if self.program.chooses_kind:
            _put(self.bound, games, every, -1)
        if self.received is not None:
            self.received[games] = 0
        rounds = self.program.build_only_rounds
        if rounds:  # the opening rounds: no dice, no roll, no income (_build_only_turn)
            opening = (_take(self.turn, games, every) - _take(self.extra_turns, games, every)
                       < rounds * self.players)
            if opening.any():
                first = games[opening]
                self.dice[first] = 0
                self.ndice[first] = 0
                self.total[first] = 0
                self.doubles[first] = False
                games = games[~opening]
                if self.program.plans[HOOK_PLANS["before_roll"]]:
                    return {BEFORE_BUILD: first, BEFORE_ROLL: games}
                return {BEFORE_BUILD: first, DICE: games}
        if self.program.plans[HOOK_PLANS["before_roll"]]:
            return {BEFORE_ROLL: games}
        return {DICE: games}

    def _dice(self, phase, games, _resumed) -> dict:
        """The ``dice`` decision where the roller's cards offer a choice, else the
        count."""
        games, every = self._all(games), self.every
        if not self.program.dice_cards:
            _put(self.dice_count, games, every, self.rules.dice_count)
            return {ROLL: games}
        seat = _take(self.current, games, every)
        if self._dice_rows is not None:  # one card offers the choice: its copies decide
            card, rows = self._dice_rows
            owns = self.owned_flat.take(_take(self.cur_cell, games, every) * self.cards
                                        + card) > 0
            counts = np.asarray(self.program.dice_counts)
            if rows[1].sum() > 1:  # its owners choose; the others roll the rule set's count
                asking = np.flatnonzero(owns)
                self._wait(Program.DICE, games.take(asking), seat.take(asking),
                           np.broadcast_to(rows[1], (len(asking), len(rows[1]))))
                rest = np.delete(games, asking)
                self.dice_count[rest] = counts[np.argmax(rows[0])]
                return {ROLL: rest}
            self.dice_count[games] = np.where(owns, counts[np.argmax(rows[1])],
                                              counts[np.argmax(rows[0])])
            return {ROLL: games}
        choices = self.dice_choices(games, seat)
        many = choices.sum(axis=1) > 1
        self._wait(Program.DICE, games[many], seat[many], choices[many])
        rest = games[~many]
        counts = np.asarray(self.program.dice_counts)
        self.dice_count[rest] = counts[np.argmax(choices[~many], axis=1)]
        return {ROLL: rest}

    def _roll(self, phase, games, _resumed) -> dict:
        """The turn's roll; then the ``after roll`` hooks."""
        games, every = self._all(games), self.every
        self.set_roll(games, _take(self.dice_count, games, every))
        if self.program.side_cards:
            _put(self.side, games, every, -1)
        return {AFTER_ROLL: games}

    def _hooks(self, phase, fresh, resumed) -> dict:
        """A hook step (``before roll``, ``after roll``, ``before build``, ``at end of
        turn``): walk its plan for the current player; then the next phase."""
        pid = HOOK_PLANS[_HOOK_PHASE[phase]]
        if phase in (AFTER_INCOME, BEFORE_BUILD) and (self.n_seen or self.moves):
            self.income_done(fresh)  # the income step is over
        if phase == AFTER_ROLL and len(resumed):  # a reroll starts the hooks again
            again = self.restart[resumed]
            if again.any():
                anew = resumed[again]
                self.restart[anew] = False
                self.main.copy[anew] = 0  # the walk starts over: its cursor at rest
                self.main.step[anew] = 0
                self.recorded[anew] = False
                fresh, resumed = _cat([fresh, anew]), resumed[~again]
        cards = self._hook_cards[pid]
        idle = _EMPTY
        if not len(cards):  # no card of the rule set has such a hook
            idle, fresh = fresh, _EMPTY
        elif len(fresh):  # only the games whose roller owns a card with such a hook walk
            fresh = self._all(fresh)
            owns = self._hook_owners(phase, fresh, cards)
            idle, fresh = fresh[~owns], fresh[owns]
        done = self._walk(pid, fresh, resumed) if len(fresh) or len(resumed) else _EMPTY
        if len(idle):
            done = _cat([idle, done])
        if phase == END:
            return self._end_turn(done)
        return {_HOOK_NEXT[phase]: done}

    def _hook_owners(self, phase: int, games, cards) -> np.ndarray:
        """Which ``games`` walk a hook step of ``cards``: the roller owns one of them, or
        anyone one in force for every player (:meth:`TurnPhases._queue_hooks`); for the
        ``when built`` step, the card just built is one of them."""
        if phase == WHEN_BUILT:
            last = self.built[games, np.maximum(self.nbuilt[games] - 1, 0)]
            return self.program.when_built[last]
        town = _take(self.cur_cell, games, self.every) * self.cards
        shared = self.program.shared
        owns = np.zeros(len(games), dtype=bool)
        for card in cards.tolist():
            if shared[card]:
                owns |= (self.owned[games, :, card] > 0).any(axis=1)
            else:
                owns |= self.owned_flat.take(town + card) > 0
        return owns

    def _end(self, phase, fresh, resumed) -> dict:
        return self._hooks(phase, fresh, resumed)

    def _end_turn(self, games) -> dict:
        """The turn ends: the next player, or the same one for an extra turn; the turn
        cap."""
        games, every = self._all(games), self.every
        if games is every:
            self.turn += 1
        else:
            self.turn[games] += 1
        extra = _take(self.extra_turn, games, every)
        if extra.any():
            self.extra_turns[games[extra]] += 1
            moving = games[~extra]
        else:
            moving = games
        seat = _take(self.current, moving, every) + 1
        seat[seat == self.players] = 0
        _put(self.current, moving, every, seat)
        _put(self.cur_cell, moving, every, moving * self.players + seat)
        if self.max_turns is not None:
            capped = np.flatnonzero(_take(self.turn, games, every) >= self.max_turns)
            if len(capped):
                self.phase[games.take(capped)] = OVER
                self._ended += len(capped)
                games = np.delete(games, capped)
        if self.hold_turns:  # stop between turns (go_on() starts the next ones)
            self.phase[games] = START
            self.held[games] = True
            return {}
        return {START: games}

    def go_on(self, games=None) -> None:
        """Start the next turn of the games held between turns (``hold_turns``): each
        plays on to its next decision; ``games`` (an index array) those of them to start
        (default: every held game; the others stay held)."""
        held = np.flatnonzero(self.held) if games is None else \
            np.asarray(games, dtype=np.int64)
        self.held[held] = False
        self._advance({START: held}, {})

    def fork(self, games) -> VectorGames:
        """A new batch holding a copy of each game of ``games`` (an index array of this
        batch's slots; a game may repeat), as it stands now, in that order: the
        afterstates of a look-ahead (:class:`~machikoro.agents.batched.ExpertPolicy`).

        The copies' futures are their own, as a look-ahead copy of a scalar game's
        (:meth:`~machikoro.engine.game.Game.clone`): their dice streams are keyed apart
        from this batch's and their market decks are shuffled again, so playing a copy on
        never reveals this batch's rolls or deck order. A copy keeps no records (builds,
        dice log, scripted dice) and waits at no decision: the caller answers the one its
        game waits at with :meth:`answer_slots`. ``hold_turns`` is set: a copy stops when
        its turn ends."""
        games = np.asarray(games, dtype=np.int64)
        new = copy.copy(self)
        for name in self._PER_GAME:
            value = getattr(self, name)
            if value is not None:
                setattr(new, name, value[games])
        new.marks = [table[games] for table in self.marks]
        new.dice_stream = self.dice_stream.take(games)
        new.dice_stream.keys = mix(new.dice_stream.keys ^ _FORK_SALT)
        new.decks = [None if deck is None else deck.take(games) for deck in self.decks]
        if any(deck is not None for deck in new.decks):
            new._look_ahead_decks()
        for name in ("main", "inserted"):
            old = getattr(self, name)
            cursor = _Cursor(0, new._plan_owner if name == "main" else new._ins_owner_of)
            cursor.pos, cursor.copy, cursor.step = old.pos[games], old.copy[games], \
                old.step[games]
            setattr(new, name, cursor)
        new.ins_pos, new.ins_copy, new.ins_step = (new.inserted.pos, new.inserted.copy,
                                                   new.inserted.step)
        new.moves = {i: list(self.moves[g]) for i, g in enumerate(games.tolist())
                     if g in self.moves} if self.moves else {}
        new.seeds = [self.seeds[int(g)] for g in self.ids[games].tolist()]
        new.ids = np.arange(len(games), dtype=np.int64)
        new.held = np.zeros(len(games), dtype=bool)
        new.hold_turns = True
        new.builds = new.dice_log = new.scripted = None
        new._inline, new._compacting, new._archive, new._ended = None, False, None, 0
        new._waiting, new._masks = {}, {}
        new._resized(len(games))
        return new

    def _look_ahead_decks(self) -> None:
        """Shuffle a fork's decks as a look-ahead copy of the scalar game shuffles its own
        (:func:`~machikoro.engine.market.look_ahead_orders`: the same orders for the same
        deck sizes), games with the same sizes together."""
        decks = [deck for deck in self.decks if deck is not None]
        sizes = np.stack([deck.hi - deck.lo for deck in decks], axis=1)
        kinds, which = np.unique(sizes, axis=0, return_inverse=True)
        for k, lengths in enumerate(kinds.tolist()):
            games = np.flatnonzero(which.reshape(-1) == k)
            for deck, order in zip(decks, look_ahead_orders(tuple(lengths))):
                if len(order) > 1:
                    deck.cards[games, :len(order)] = deck.cards[games][:, order]

    def answer_slots(self, kind: int, slots) -> None:
        """Answer a decision of ``kind`` in every game of a :meth:`fork` (each in its
        parent's place at such a decision) with ``slots`` (one legal slot per game,
        unchecked), then play every game on to its next decision, its end, or the end of
        its turn."""
        games = np.arange(self.n, dtype=np.int64)
        self._answer_slots({kind: (games, np.asarray(slots, dtype=np.int64))})

    def _income(self, phase, fresh, resumed) -> dict:
        """The income step: each game walks the plan of its roll total."""
        self.in_income = True
        try:
            return self._income_walks(fresh, resumed)
        finally:
            self.in_income = False

    def _income_walks(self, fresh, resumed) -> dict:
        done = []
        fresh = self._all(fresh)
        totals = _take(self.total, fresh, self.every)
        plans = self.program.plans
        if len(fresh):
            order = np.argsort(totals.astype(np.int16), kind="stable")  # a radix sort
            per_total = np.bincount(totals)
            ends = np.cumsum(per_total)
            for total in np.flatnonzero(per_total).tolist():
                games = fresh[order[ends[total] - per_total[total]:ends[total]]]
                pid = self.program.income_plan(total)
                if pid not in plans or not plans[pid]:
                    done.append(games)
                    continue
                done.append(self._walk(pid, games, _EMPTY))
        if len(resumed):
            pids = self.plan[resumed]
            for pid in _distinct(pids):
                done.append(self._walk(pid, _EMPTY, resumed[pids == pid]))
        after = AFTER_INCOME if plans[HOOK_PLANS["after_income"]] else BEFORE_BUILD
        return {after: _cat(done)}

    def _build(self, phase, fresh, again) -> dict:
        """The ``build`` decision (``fresh`` games enter the build step; ``again``: games
        that built and may build more), or the end of the turn when the rules allow no
        build."""
        fresh, every = self._all(fresh), self.every
        _put(self.builds_left, fresh, every, self.rules.builds_per_turn)
        if self.rules.builds_per_turn <= 0:
            return {END: fresh}
        games = self._all(_cat([fresh, again])) if len(again) else fresh
        seat = _take(self.current, games, every)
        if self.menu is None:
            if self.program.dynamic:
                mask, order = self.dynamic_menu(games)
                self._wait(Program.BUILD, games, seat, mask, order=order)
            else:
                self._wait(Program.BUILD, games, seat, self.build_mask(games))
            return {}
        cell = _take(self.cur_cell, games, every)
        coins = np.minimum(self.coins_flat.take(cell), self.program.max_cost)
        self._wait(Program.BUILD, games, seat, None,
                   bits=self.menu.reshape(-1).take(cell) & self.program.afford.take(coins))
        return {}

    def build_mask(self, games) -> np.ndarray:
        """``(len(games), 1 + cards)``: pass, then each card in build-menu order (cost,
        then market order) that the current player may build now: affordable, under its
        limit, with a copy in the market (a landmark: not built)."""
        p = self.program
        seat = self.current[games]
        cards = p.by_cost
        town = self.owned[games, seat][:, cards]
        ok = (town < p.limit[cards]) & ((self.supply[games][:, cards] > 0) | p.pileless[cards])
        ok &= p.cost[cards] <= self.coins[games, seat][:, None]
        return np.concatenate([np.ones((len(games), 1), dtype=bool), ok], axis=1)

    def dynamic_menu(self, games) -> tuple[np.ndarray, np.ndarray]:
        """The build decision where costs change (:meth:`TurnPhases._menu` with
        ``dynamic_costs``): ``(mask, order)``, the mask over the slots (pass, then the
        cards in ``by_cost`` order) of what the current player may build now (under its
        limit, a copy in the market or no pile, every ``build_if`` condition holding,
        affordable at its cost now) and, per game, the slots in the scalar option order:
        pass, then the cards by cost now, then by card index."""
        p = self.program
        seat = self.current[games]
        cards = p.by_cost
        town = self.owned[games, seat][:, cards]
        ok = (town < p.limit[cards]) & ((self.supply[games][:, cards] > 0) | p.pileless[cards])
        for card, tests in p.build_if:
            at = int(p.menu_pos[card])
            rows = ok[:, at].nonzero()[0]
            for test in tests:
                if len(rows):
                    rows = rows[test.test(self, games[rows], seat[rows])]
            ok[:, at] = False
            ok[rows, at] = True
        cost = self.costs_now(games, seat)[:, cards]
        ok &= cost <= self.coins[games, seat][:, None]
        key = np.where(ok, cost, np.iinfo(np.int64).max)
        order = np.lexsort((np.broadcast_to(cards, key.shape), key), axis=-1) + 1
        mask = np.concatenate([np.ones((len(games), 1), dtype=bool), ok], axis=1)
        order = np.concatenate([np.zeros((len(games), 1), dtype=np.int64), order], axis=1)
        return mask, order

    def _apply_build(self, games, slot, fresh: dict, resume: dict) -> None:
        """Build each game's answer (slot 0: nothing): pay, take the card (from the
        market), and win at once on the last victory landmark (:meth:`TurnPhases._build`)."""
        p = self.program
        building = np.flatnonzero(slot)  # (slot 0: nothing built)
        g = games.take(building)
        card = p.by_cost.take(slot.take(building) - 1)
        row = self.cur_cell.take(g)  # the builder's row: g * players + seat
        if p.dynamic:  # (its cost to the builder now, before the town changes)
            cost = self.costs_now(g, self.current.take(g))[np.arange(len(g)), card]
        else:
            cost = p.cost.take(card)
        self.coins_flat[row] = self.coins_flat.take(row) - cost
        cell = row * self.cards + card
        copies = self.owned_flat.take(cell) + 1
        self.owned_flat[cell] = copies
        market = ~p.pileless.take(card)
        pile = (g * self.cards + card)[market]
        supply = self.supply.reshape(-1)
        left = supply.take(pile) - 1
        supply[pile] = left
        if self.menu is not None:  # the card leaves the builder's menu at its limit
            weight = p.menu_weight.take(card)
            off = copies >= p.limit.take(card)
            self.menu.reshape(-1)[row[off]] = self.menu.reshape(-1).take(row[off]) & \
                ~weight[off]
            out = left <= 0
            if out.any():  # sold out: off every seat's menu
                self.menu_pile(g[market][out], card[market][out])
        if self.rules.market_upkeep and market.any():
            self.market_changed(g[market])
        seat = self.current.take(g)
        if self.builds is not None and len(g):
            self.builds.append((self.ids.take(g), self.turn.take(g) + 1, seat, card))
        if self.built.shape[1] == 1:  # one build a turn: the turn's build, and its end
            self.built[g, 0] = card
            self.nbuilt[g] = 1
            _put(self.builds_left, games, self.every, 0)
        else:
            self.built[g, np.minimum(self.nbuilt.take(g), self.built.shape[1] - 1)] = card
            self.nbuilt[g] += 1
            self.builds_left[np.delete(games, building)] = 0
            self.builds_left[g] -= 1
        landmarks = p.landmark.take(card)
        won = np.zeros(len(g), dtype=bool)
        if landmarks.any():
            won[landmarks] = self.has_won(g[landmarks], seat[landmarks])
        w = g[won]
        self.winner[w] = seat[won]
        self.phase[w] = OVER
        self.turn[w] += 1
        self._ended += len(w)
        on = games if not len(w) else games[self.winner.take(games) < 0]
        if p.when_built.any():  # a card with ``when built`` clauses just built: them first
            just = np.zeros(self.n, dtype=bool)
            just[g] = p.when_built.take(card)
            hooked = just.take(on)
            fresh.setdefault(WHEN_BUILT, []).append(on[hooked])
            on = on[~hooked]
        if self.built.shape[1] == 1:
            fresh.setdefault(END, []).append(on)
            return
        more = self.builds_left.take(on) > 0
        fresh.setdefault(END, []).append(on[~more])
        resume.setdefault(BUILD, []).append(on[more])

    def has_won(self, games, seat) -> np.ndarray:
        """True where ``seat`` has built the victory landmarks (all of them, or the rule
        set's ``victory.count``)."""
        victory = self.program.victory
        town = self.town(games, seat)
        built = (town[:, victory] > 0).sum(axis=1)
        won = built >= self.rules.victory_count
        if len(self.program.at_once):  # a landmark of victory.at_once
            won |= (town[:, self.program.at_once] > 0).any(axis=1)
        return won

    # ------------------------------------------------------------------ plans

    def _plan_owner(self, g, item) -> np.ndarray:
        if item.offset == 0:
            return self.current[g]
        return self.program.order[self.current[g], item.offset]

    def _ins_owner_of(self, g, item) -> np.ndarray:
        return self.ins_owner[g]

    def _entry_copies(self, pid: int, entry: int, games) -> np.ndarray:
        """The copies of one plan entry (an owner's card) in each game, counted as the
        scalar engine counts them when it queues the items: a hook's card built this turn
        is left out unless the rules say otherwise; an activation's closed copies reopen
        instead (their markers are removed now)."""
        offsets, cards, _ = self._entries[pid]
        card, offset = int(cards[entry]), int(offsets[entry])
        owner = self.current[games] if offset == 0 else \
            self.program.order[self.current[games], offset]
        copies = self.copies(games, owner, card).astype(np.int64)
        if pid < len(TRIGGERS):
            if pid == _WHEN_BUILT_PLAN:  # the card just built, one copy
                return self._just_built(games, card)
            if self.program.shared[card]:  # anyone's copy: one of the current player's
                copies = np.where((copies == 0) & (self.owned[games, :, card] > 0).any(
                    axis=1), 1, copies)
            if not self.program.landmark_active_on_build_turn and self.nbuilt[games].any():
                ours = self.built[games] == card
                ours &= np.arange(ours.shape[1]) < self.nbuilt[games][:, None]
                copies[ours.any(axis=1)] = 0
            return copies
        if self.program.blocking:
            copies = self.reopen(games, owner, card, copies)
        return copies

    def _owner_cells(self, games, offset: int):
        """``(owner, cell)``: the seat ``offset`` places after each game's current player,
        and the flat index of its town's first card (``owned_flat``), kept while the items
        of a walk run on the same ``games`` array."""
        kept = self._cells.get(offset)
        if kept is not None and kept[0] is games:
            return kept[1], kept[2]
        owner = self.current.take(games) if offset == 0 else \
            self.program.order[self.current.take(games), offset]
        base = (games * self.players + owner) * self.cards
        self._cells[offset] = (games, owner, base)
        return owner, base

    def _count_now(self, pid: int, card: int, games, owner, cell) -> np.ndarray:
        """:meth:`_entry_copies` with the owners known (the hot path of a walk); ``cell``:
        each game's flat index of ``owner``'s ``card`` in ``owned_flat``."""
        copies = self.owned_flat.take(cell)
        if pid < len(TRIGGERS):
            if pid == _WHEN_BUILT_PLAN:  # the card just built, one copy
                return self._just_built(games, card)
            if self.program.shared[card]:  # anyone's copy: one of the current player's
                copies = np.where((copies == 0) & (self.owned[games, :, card] > 0).any(
                    axis=1), 1, copies)
            if not self.program.landmark_active_on_build_turn and self.nbuilt[games].any():
                ours = self.built[games] == card
                ours &= np.arange(ours.shape[1]) < self.nbuilt[games][:, None]
                copies = np.where(ours.any(axis=1), 0, copies)
            return copies
        if self.program.blocking:
            copies = self.reopen(games, owner, card, copies.astype(np.int64), cell)
        return copies

    def _just_built(self, games, card: int) -> np.ndarray:
        """1 where ``card`` is the card each game's current player just built, else 0
        (the copies of a ``when built`` clause: :meth:`TurnPhases._when_built`)."""
        last = self.built[games, np.maximum(self.nbuilt[games] - 1, 0)]
        return ((self.nbuilt[games] > 0) & (last == card)).astype(np.int64)

    def _copies(self, pid: int, j: int, games) -> np.ndarray:
        """The copies item ``j`` of plan ``pid`` activates in each game: counted now for
        a game that has not waited in this walk yet (nothing could have changed its
        towns), else as recorded when it first waited (:meth:`_record`)."""
        entry, first, kept = self._item_info[pid][j]
        if not first:
            return self.act_copies[games, entry]
        recorded = self.recorded[games] if self._mixed else None
        if recorded is None or not recorded.any():
            copies = self._entry_copies(pid, entry, games)
            if kept:
                self.act_copies[games, entry] = copies
            return copies
        copies = self.act_copies[games, entry]
        live = ~recorded
        if live.any():
            fresh = self._entry_copies(pid, entry, games[live])
            copies[live] = fresh
            if kept:
                self.act_copies[games[live], entry] = fresh
        return copies

    def _record(self, pid: int, games, after: int) -> None:
        """Games that wait for the first time in their walk of plan ``pid``: count (and
        reopen) now the copies of every entry whose first item comes after ``after``, as
        the scalar engine counts a roll's items before any decision is answered."""
        games = games[~self.recorded[games]]
        if not len(games) or pid < 0:
            return
        self.plan[games] = pid
        for entry, first_item in enumerate(self._entry_first[pid]):
            if first_item > after:
                self.act_copies[games, entry] = self._entry_copies(pid, entry, games)
        self.recorded[games] = True

    def _walk(self, pid: int, fresh, resumed) -> np.ndarray:
        """Walk plan ``pid``: ``fresh`` games from its start, ``resumed`` ones from where
        they waited; returns the games that walked to its end (the others wait at a
        decision, with their cursor, ``plan`` and copies recorded)."""
        # a fresh game's cursor is at rest (copy and step 0, no order, nothing recorded:
        # every way out of an item, a block and a walk leaves it so)
        items = self.program.plans[pid]
        block_of = self._block_of[pid]
        running = fresh
        rpos = self.main.pos[resumed] if len(resumed) else _EMPTY
        self._mixed = False  # no game of `running` has waited in this walk yet
        self._cells = {}  # offset -> (games, owner, cell): _owner_cells
        for j in range(len(items)):
            if len(resumed):
                joining = resumed[rpos == j]
                if len(joining):
                    running = _cat([running, joining])
                    self._mixed = True
            if not len(running):
                continue
            block = block_of.get(j)
            if block is None:
                running = self._item(items[j], j, pid, running, self.main)
                continue
            if j == block.start:
                running = self._ask_order(pid, block, running)
            custom = self.order_state[running] == 2
            if not custom.any():
                running = self._item(items[j], j, pid, running, self.main)
            else:
                parts = [self._item(items[j], j, pid, running[~custom], self.main)]
                these = running[custom]
                which = self.exec_order[these, j]
                for u in _distinct(which):
                    parts.append(self._item(items[u], j, pid, these[which == u], self.main,
                                            copies_item=u))
                running = _cat(parts)
            if j == block.stop - 1:
                self.order_state[running] = 0
        if self._mixed:  # games that waited in this walk: their copies are done with
            self.recorded[running] = False
        return running

    def _item(self, item, j: int, pid: int, games, cur: _Cursor, copies_item: int = -1):
        """Run ``item`` (at place ``j`` of plan ``pid``) for ``games``; returns those that
        are done with it (the others wait at a decision). ``copies_item``: the item whose
        copies count, when an order block runs another item at place ``j``."""
        if cur is self.main and not item.asks and not self._mixed and copies_item < 0:
            _, first, kept = self._item_info[pid][j]
            if first and not kept:  # the common case: copies counted now, owner once
                owner, base = self._owner_cells(games, item.offset)
                copies = self._count_now(pid, item.card, games, owner, base + item.card)
                live = copies > 0
                if live.any():
                    self._chain(item, games[live], owner[live],
                                copies[live].astype(np.int64))
                return games
        if cur is self.main:
            copies = self._copies(pid, j if copies_item < 0 else copies_item, games)
        else:
            copies = self.ins_copies[games]
        if not item.asks:
            live = copies > 0
            g, c = games[live], copies[live]
            if len(g):
                self._chain(item, g, cur.owner_of(g, item), c)
            return games
        if cur is self.main:
            active = self.ins_card[games] >= 0
            if active.any():  # an activated card's clauses come first
                done = self._insertions(games[active])
                keep = ~active | np.isin(games, done)
                games, copies = games[keep], copies[keep]
        return self._per_copy(item, j, pid, games, cur, copies)

    def _chain(self, item, g, owner, copies) -> None:
        """Run a clause that asks nothing: its conditions, then each step while the one
        before happened."""
        for test in item.tests:
            ok = test.test(self, g, owner)
            g, owner, copies = g[ok], owner[ok], copies[ok]
        for step in item.steps:
            if not len(g):
                return
            happened = step.kernel.run(self, g, item.card, owner, copies)
            if happened is not _ALL:
                g, owner, copies = g[happened], owner[happened], copies[happened]

    def _per_copy(self, item, j: int, pid: int, games, cur: _Cursor, copies):
        """Run an item that asks, once per copy, each copy's chain until a decision
        (the game waits) or its end; returns the games done with every copy."""
        done = []
        steps = item.steps
        while len(games):
            st, cp = cur.step[games], cur.copy[games]
            finished = (st == 0) & (cp >= copies)
            if finished.any():
                out = games[finished]
                cur.copy[out] = 0  # the next item starts at its first copy
                done.append(out)
                keep = ~finished
                games, st, copies = games[keep], st[keep], copies[keep]
            if not len(games):
                break
            g = games
            owner = cur.owner_of(g, item)
            live = np.ones(len(g), dtype=bool)
            starting = st == 0
            if item.tests and starting.any():
                s_idx = starting.nonzero()[0]
                ok = np.ones(len(s_idx), dtype=bool)
                for test in item.tests:
                    ok &= test.test(self, g[s_idx], owner[s_idx])
                st[s_idx[~ok]] = _CHAIN_END
            waiting = np.zeros(len(g), dtype=bool)
            for s, step in enumerate(steps):
                at = live & (st == s)
                if not at.any():
                    continue
                idx = at.nonzero()[0]
                ga, oa = g[idx], owner[idx]
                if step.kind < 0:
                    happened = step.kernel.run(self, ga, item.card, oa,
                                               np.ones(len(ga), dtype=np.int64))
                    st[idx] = s + 1 if happened is _ALL else np.where(happened, s + 1,
                                                                       _CHAIN_END)
                    continue
                choice = step.kernel
                mask = choice.mask(self, ga, item.card, oa)
                can = mask.any(axis=1)
                if choice.available is not None:
                    can &= choice.available(self, ga, item.card)
                st[idx[~can]] = _CHAIN_END  # nothing to choose: the action cannot happen
                asked = idx[can]
                if len(asked):
                    waiting[asked] = True
                    live[asked] = False
                    st[asked] = s
                    if cur is self.main:
                        self._record(pid, g[asked], j)
                    self._wait(step.kind, g[asked], owner[asked], mask[can], item.card)
            ended = ~waiting
            cur.copy[g[ended]] += 1  # a chain at its end (or ended): the next copy
            cur.step[g[ended]] = 0
            w = g[waiting]
            cur.step[w] = st[waiting]
            cur.pos[w] = j
            games, copies = g[ended], copies[ended]
        return _cat(done)

    def _insertions(self, games) -> np.ndarray:
        """Games whose answer activated one of their cards: walk that card's activation
        (its own small plan) first; returns the games done with it."""
        done = []
        cards = self.ins_card[games]
        for card in _distinct(cards):
            these = games[cards == card]
            items = self.program.card_plans[card]
            pos = self.inserted.pos[these]
            running = _EMPTY
            for j, item in enumerate(items):
                joining = these[pos == j]
                running = _cat([running, joining])
                if len(running):
                    running = self._item(item, j, -1, running, self.inserted)
            self.ins_card[running] = -1
            done.append(running)
        return _cat(done)

    def _ask_order(self, pid: int, block, games) -> np.ndarray:
        """Games reaching an order block: the owner's ``order`` decision where two or more
        of its activated cards of the block may give another result in another order
        (:meth:`TurnPhases._ask_order`); returns the games going on without waiting."""
        fresh = games[self.order_state[games] == 0]
        if not len(fresh):
            return games
        cards = np.array([c for c, _ in block.candidates], dtype=np.int64)
        owner = self.program.order[self.current[fresh], block.offset]
        has = self.owned[fresh, owner][:, cards] > 0 if len(cards) else \
            np.zeros((len(fresh), 0), dtype=bool)
        conflicts = self.rules.conflicts
        pairs = np.array([[frozenset((int(a), int(b))) in conflicts and a != b
                           for b in cards] for a in cards], dtype=bool).reshape(
                               len(cards), len(cards))
        involved = has & ((has[:, None, :] & pairs[None]).any(axis=2))
        asks = involved.sum(axis=1) >= 2
        self.order_state[fresh[~asks]] = 1
        asking = fresh[asks]
        if len(asking):
            choice = self.program.choices[block.kind]
            mask = np.zeros((len(asking), len(choice.slots)), dtype=bool)
            these = involved[asks]
            position = {int(c): k for k, c in enumerate(cards)}
            for s, perm in enumerate(choice.slots):
                want = np.zeros(len(cards), dtype=bool)
                want[[position[c] for c in perm]] = True
                mask[:, s] = (these == want).all(axis=1)
            self.main.pos[asking] = block.start
            self._record(pid, asking, block.start - 1)
            self._wait(block.kind, asking, owner[asks], mask)
        return games[~np.isin(games, asking)]

    def _apply_choice(self, kind: int, games, slot, fresh: dict, resume: dict) -> None:
        """Carry out each game's answer to a clause's choice (or an order), then the walk
        goes on from there."""
        choice = self.program.choices[kind]
        phase = self.phase[games]
        self.in_income = bool((phase == INCOME).all())
        if self.in_income != bool((phase == INCOME).any()):  # (one kind, one place)
            raise AssertionError("a decision kind waited in and out of the income step")
        if choice.shape == "order":
            self._apply_order(kind, games, slot)
        else:
            inside = self.ins_card[games] >= 0
            for cur, part in ((self.inserted, inside), (self.main, ~inside)):
                g = games[part]
                if not len(g):
                    continue
                self._resolve(choice, cur, g, slot[part])
        self.in_income = False
        for ph in _distinct(phase):
            resume.setdefault(ph, []).append(games[phase == ph])

    def _resolve(self, choice, cur: _Cursor, g, slot) -> None:
        """One choice's answers for games at cursor ``cur``: the action, then the rest of
        the chain (or, if it did not happen, the next copy)."""
        card = int(self.pending_card[g[0]])  # a choice kind belongs to one card
        happened = np.asarray(choice.resolve(self, g, card, self.pending_player[g],
                                             np.ones(len(g), dtype=np.int64), slot),
                              dtype=bool)
        nxt = np.where(happened, cur.step[g] + 1, _CHAIN_END)
        ended = nxt >= self._chain_lengths(cur, g)
        cur.step[g] = np.where(ended, 0, nxt)  # the walk goes on from the cursor
        cur.copy[g[ended]] += 1

    def _chain_lengths(self, cur: _Cursor, g) -> np.ndarray:
        """How many steps the chain of the item each game's cursor stands at has."""
        out = np.zeros(len(g), dtype=np.int64)
        if cur is self.inserted:
            cards = self.ins_card[g]
            for c in _distinct(cards):
                these = cards == c
                out[these] = self._card_steps[c][cur.pos[g[these]]]
            return out
        pids = self.plan[g]
        for pid in _distinct(pids):
            these = pids == pid
            gp = g[these]
            at = cur.pos[gp]
            custom = self.order_state[gp] == 2
            at[custom] = self.exec_order[gp[custom], at[custom]]
            out[these] = self._plan_steps[pid][at]
        return out

    def _apply_order(self, kind: int, games, slot) -> None:
        """The order decision's answers: each game's block runs in the order chosen (the
        items of the cards ranked, stably, after the others)."""
        choice = self.program.choices[kind]
        for g, s in zip(games.tolist(), slot.tolist()):
            pid = int(self.plan[g])
            block = next(b for b in self._blocks[pid] if b.kind == kind)
            rank = {card: n for n, card in enumerate(choice.slots[s])}
            items = self.program.plans[pid]
            members = list(range(block.start, block.stop))
            members.sort(key=lambda i: rank.get(items[i].card, -1))
            self.exec_order[g, block.start:block.stop] = members
            self.order_state[g] = 2
            self.main.pos[g] = block.start

    # ------------------------------------------------------------------ one game

    def options_of(self, game: int) -> tuple:
        """Game ``game``'s waiting decision's options as the scalar engine lists them
        (``Decision.options``: None, bools, dice counts, seats, card ids, mappings, orders
        of ids), or () when it waits at none. For messages, tests and conversion: one game
        at a time."""
        kind = int(self.pending[game])
        if kind < 0:
            return ()
        slots = self._masks[kind].ordered(int(self._row[game]))
        return tuple(self.slot_value(kind, game, s) for s in slots)

    def slot_value(self, kind: int, game: int, slot: int):
        """The scalar engine's value of ``slot`` of a decision of ``kind`` in ``game``
        (the owner's seats read from the game's waiting decision)."""
        ids = self.rules.ids
        if kind == Program.BUILD:
            return None if slot == 0 else ids[int(self.program.by_cost[slot - 1])]
        if kind == Program.DICE:
            return self.program.dice_counts[slot]
        choice = self.program.choices[kind]
        value = choice.slots[slot]
        owner = int(self.pending_player[game])
        others = self.program.others[owner]
        shape = choice.shape
        if value is None or shape in ("yes_no", "reroll"):
            return value
        if shape == "player":
            return int(others[value - 1])
        if shape == "card":
            return ids[value]
        if shape == "order":
            return tuple(ids[c] for c in value)
        from ..language.actions import FrozenAnswer
        if shape == "give":
            card, k = value
            return FrozenAnswer(give=ids[card], to=int(others[k - 1]))
        k, give, take = value
        return FrozenAnswer(give=ids[give], take=ids[take], **{"from": int(others[k - 1])})

    # ------------------------------------------------------------------ names

    def decision_name(self, kind: int, game: int) -> str:
        """The scalar engine's name of a decision of ``kind`` (``build``, ``dice``,
        ``reroll``, ``order``, or the asking card's id)."""
        if kind == Program.BUILD:
            return "build"
        if kind == Program.DICE:
            return "dice"
        choice = self.program.choices[kind]
        if choice.decision is not None:
            return choice.decision
        return self.rules.ids[int(self.pending_card[game])]
