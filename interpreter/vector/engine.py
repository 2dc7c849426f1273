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

import numpy as np

from ..errors import IllegalActions, MachikoroError
from ..language.clauses import TRIGGERS
from ..rules.ruleset import RuleSet
from .batch import COINS, COPIES, Batch, Deck
from .kernels import _ALL
from .program import HOOK_PLANS, Program, compile_rules

(START, BEFORE_ROLL, DICE, ROLL, AFTER_ROLL, INCOME, BEFORE_BUILD, BUILD, END,
 OVER) = range(10)
PHASE_NAMES = ("start", "before_roll", "dice", "roll", "after_roll", "income",
               "before_build", "build", "end", "over")
_LAP = (END, START, BEFORE_ROLL, DICE, ROLL, AFTER_ROLL, INCOME, BEFORE_BUILD, BUILD)
"""The phases of one lap of :meth:`VectorGames._advance`, in order."""
_HOOK_PHASE = {BEFORE_ROLL: "before_roll", AFTER_ROLL: "after_roll",
               BEFORE_BUILD: "before_build", END: "end_of_turn"}
_CHAIN_END = 1 << 20  # a chain's step index once it ended (did not happen)
_EMPTY = np.zeros(0, dtype=np.int64)

MAX_GAMES = 20_000_000
"""The most games one batch may hold (about 100 bytes to a few KB each)."""


def _cat(parts: list) -> np.ndarray:
    parts = [p for p in parts if len(p)]
    if not parts:
        return _EMPTY
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


class _Cursor:
    """Where games stand in a plan walk: ``pos`` (item, or slot of an order block),
    ``copy`` (copies done of an item that runs once per copy) and ``step`` (the next step
    of the clause's chain), with the copies and owner of each item."""

    __slots__ = ("copies_of", "copy", "owner_of", "pos", "step")

    def __init__(self, n: int, copies_of, owner_of):
        self.pos = np.zeros(n, dtype=np.int64)
        self.copy = np.zeros(n, dtype=np.int64)
        self.step = np.zeros(n, dtype=np.int64)
        self.copies_of, self.owner_of = copies_of, owner_of


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
        self.ins_card = np.full(n, -1, dtype=np.int64)
        self.ins_owner = np.zeros(n, dtype=np.int64)
        self.ins_copies = np.zeros(n, dtype=np.int64)
        self.main = _Cursor(n, self._plan_copies, self._plan_owner)
        self.inserted = _Cursor(n, self._ins_copies_of, self._ins_owner_of)
        # the insertion cursor's arrays, under the names batch.activate sets
        self.ins_pos, self.ins_copy, self.ins_step = (self.inserted.pos, self.inserted.copy,
                                                      self.inserted.step)
        self.pending = np.full(n, -1, dtype=np.int64)
        self.pending_player = np.full(n, -1, dtype=np.int64)
        self.pending_card = np.full(n, -1, dtype=np.int64)
        self._waiting: dict = {}  # kind -> ([games], [masks]) registered this step
        self._masks: dict = {}    # kind -> (games, mask): the decisions now waiting
        self.builds: list | None = [] if keep_builds else None
        self._entries = {pid: self._plan_entries(pid, plan)
                         for pid, plan in program.plans.items()}
        self._blocks = program.blocks
        self._block_of = {pid: {j: b for b in blocks for j in range(b.start, b.stop)}
                          for pid, blocks in program.blocks.items()}
        self._has_blocks = any(self._blocks.values())
        if rules.market_upkeep:
            self._setup_market()
        if start:
            self.begin()

    def begin(self) -> None:
        """Start every game: play on to its first decision (done by the constructor
        unless ``start=False``, which lets a caller set the batch up first)."""
        self._advance({START: np.arange(self.n)}, {})

    # ------------------------------------------------------------------ set-up

    def _plan_entries(self, pid: int, plan: tuple) -> tuple:
        """``(offsets, cards, entry of each item)``: a plan's distinct (owner offset,
        card) pairs, whose copies are counted (and reopened) once at the plan's start."""
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
            deck = self.decks[r] = Deck(self.n, len(cards))
            if len(cards):
                keys = self.dice_stream.permutation_keys(everyone, len(cards))
                deck.cards[:, :len(cards)] = cards[np.argsort(keys, axis=1)].astype(COPIES)
                deck.hi[:] = len(cards)
            self.supply[:, list(row.cards)] = 0
        self.market_changed(everyone)

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> np.ndarray:
        """True for each game that has ended (a winner, or the turn cap)."""
        return self.phase == OVER

    def decisions(self) -> dict:
        """The waiting decisions: ``{kind: (games, mask)}``, ``games`` the indices of the
        games waiting at a decision of that kind and ``mask`` a ``(len(games),
        len(program.choices[kind].slots))`` bool array (build: ``1 + cards`` slots, pass
        first then the cards in build-menu order; dice: ``program.dice_counts``): its
        ``True`` slots, in order, are the game's options (option index k: the k-th)."""
        return self._masks

    def option_counts(self) -> np.ndarray:
        """How many options each game's waiting decision has (0: none waiting)."""
        counts = np.zeros(self.n, dtype=np.int64)
        for games, mask in self._masks.values():
            counts[games] = mask.sum(axis=1)
        return counts

    def slot_of(self, kind: int, games: np.ndarray, options: np.ndarray,
                mask: np.ndarray | None = None) -> np.ndarray:
        """The slot of each game's option index ``options`` (the k-th ``True`` of its
        mask row)."""
        if mask is None:
            waiting, all_masks = self._masks[kind]
            where = np.searchsorted(waiting, games)
            mask = all_masks[where]
        ranks = np.cumsum(mask, axis=1)
        return np.argmax(ranks > options[:, None], axis=1)

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
        options = options.astype(np.int64)
        decoded = {}
        bad_games, bad_kinds, bad_values = [], [], []
        for kind, (games, mask) in self._masks.items():
            chosen = options[games]
            counts = mask.sum(axis=1)
            bad = (chosen < 0) | (chosen >= counts)
            if bad.any():
                bad_games.extend(games[bad].tolist())
                bad_kinds.extend([self.decision_name(kind, g) for g in games[bad]])
                bad_values.extend(chosen[bad].tolist())
            else:
                decoded[kind] = (games, self.slot_of(kind, games, chosen, mask))
        if bad_games:
            order = np.argsort(bad_games, kind="stable")
            raise IllegalActions([bad_games[i] for i in order], [bad_kinds[i] for i in order],
                                 [bad_values[i] for i in order],
                                 "an option index must be 0 to the number of options - 1")
        self._answer_slots(decoded)

    def step_slots(self, slots: dict) -> None:
        """Answer with slots, not option indices: ``{kind: slot per waiting game}`` (as
        many as ``decisions()[kind]`` has games). Raises :class:`~machikoro.errors.
        IllegalActions` for a slot that is not an option (nothing applied)."""
        decoded = {}
        bad_games, bad_kinds, bad_values = [], [], []
        for kind, (games, mask) in self._masks.items():
            if kind not in slots:
                raise MachikoroError(f"no answers for decision kind {kind} "
                                     f"({len(games)} games wait at it)")
            chosen = np.asarray(slots[kind], dtype=np.int64)
            if chosen.shape != games.shape:
                raise MachikoroError(f"decision kind {kind}: {len(games)} answers needed, "
                                     f"not {chosen.shape}")
            inside = (chosen >= 0) & (chosen < mask.shape[1])
            legal = inside.copy()
            legal[inside] = mask[inside.nonzero()[0], chosen[inside]]
            if not legal.all():
                bad_games.extend(games[~legal].tolist())
                bad_kinds.extend([self.decision_name(kind, g) for g in games[~legal]])
                bad_values.extend(chosen[~legal].tolist())
            decoded[kind] = (games, chosen)
        if bad_games:
            raise IllegalActions(bad_games, bad_kinds, bad_values, "a slot that is no option")
        self._answer_slots(decoded)

    def _answer_slots(self, decoded: dict) -> None:
        """Apply every waiting game's answer (a slot), then run the games on."""
        self._masks = {}
        self._waiting = {}
        fresh: dict = {}
        resume: dict = {}
        for kind, (games, slot) in decoded.items():
            self.pending[games] = -1
            if kind == Program.BUILD:
                self._apply_build(games, slot, fresh)
            elif kind == Program.DICE:
                self.dice_count[games] = np.asarray(self.program.dice_counts)[slot]
                fresh.setdefault(ROLL, []).append(games)
            else:
                self._apply_choice(kind, games, slot, fresh, resume)
        self._advance({k: _cat(v) for k, v in fresh.items()},
                      {k: _cat(v) for k, v in resume.items()})

    # ------------------------------------------------------------------ the lap

    def _advance(self, fresh: dict, resume: dict) -> None:
        """Run games on until each waits at a decision or is over: ``fresh[phase]`` are
        games entering ``phase``, ``resume[phase]`` games taking up a plan walk there."""
        handlers = {END: self._end, START: self._start, BEFORE_ROLL: self._hooks,
                    DICE: self._dice, ROLL: self._roll, AFTER_ROLL: self._hooks,
                    INCOME: self._income, BEFORE_BUILD: self._hooks, BUILD: self._build}
        while fresh or resume:
            for phase in _LAP:
                new, old = fresh.pop(phase, _EMPTY), resume.pop(phase, _EMPTY)
                if not len(new) and not len(old):
                    continue
                for nxt, games in handlers[phase](phase, new, old).items():
                    if len(games):
                        fresh[nxt] = _cat([fresh.get(nxt, _EMPTY), games])
        self._masks = {kind: self._gathered(parts) for kind, parts in self._waiting.items()}
        self._waiting = {}

    @staticmethod
    def _gathered(parts: tuple) -> tuple:
        games, masks = parts
        games = np.concatenate(games)
        masks = np.concatenate(masks)
        order = np.argsort(games, kind="stable")
        return games[order], masks[order]

    def _wait(self, kind: int, games: np.ndarray, player: np.ndarray, mask: np.ndarray,
              card: np.ndarray | int = -1) -> None:
        """Games ``games`` now wait at a decision of ``kind`` for ``player``."""
        if not len(games):
            return
        self.pending[games] = kind
        self.pending_player[games] = player
        self.pending_card[games] = card
        parts = self._waiting.setdefault(kind, ([], []))
        parts[0].append(games)
        parts[1].append(mask)

    def _start(self, phase, games, _resumed) -> dict:
        """A turn starts: reset the turn's state; the ``before roll`` hooks, then the
        dice."""
        self.rerolled[games] = False
        self.built[games] = -1
        self.nbuilt[games] = 0
        self.extra_turn[games] = False
        self.bound[games] = -1
        self.phase[games] = START
        if self.program.plans[HOOK_PLANS["before_roll"]]:
            return {BEFORE_ROLL: games}
        return {DICE: games}

    def _dice(self, phase, games, _resumed) -> dict:
        """The ``dice`` decision where the roller's cards offer a choice, else the
        count."""
        self.phase[games] = DICE
        if not self.program.dice_cards:
            self.dice_count[games] = self.rules.dice_count
            return {ROLL: games}
        seat = self.current[games]
        choices = self.dice_choices(games, seat)
        many = choices.sum(axis=1) > 1
        self._wait(Program.DICE, games[many], seat[many], choices[many])
        rest = games[~many]
        counts = np.asarray(self.program.dice_counts)
        self.dice_count[rest] = counts[np.argmax(choices[~many], axis=1)]
        return {ROLL: rest}

    def _roll(self, phase, games, _resumed) -> dict:
        """The turn's roll; then the ``after roll`` hooks."""
        self.set_roll(games, self.dice_count[games])
        self.side[games] = -1
        return {AFTER_ROLL: games}

    def _hooks(self, phase, fresh, resumed) -> dict:
        """A hook step (``before roll``, ``after roll``, ``before build``, ``at end of
        turn``): walk its plan for the current player; then the next phase."""
        pid = HOOK_PLANS[_HOOK_PHASE[phase]]
        if phase == AFTER_ROLL and len(resumed):  # a reroll starts the hooks again
            again = self.restart[resumed]
            if again.any():
                self.restart[resumed] = False
                fresh, resumed = _cat([fresh, resumed[again]]), resumed[~again]
        self.phase[fresh] = phase
        done = self._walk(pid, fresh, resumed)
        if phase == END:
            return self._end_turn(done)
        return {{BEFORE_ROLL: DICE, AFTER_ROLL: INCOME, BEFORE_BUILD: BUILD}[phase]: done}

    def _end(self, phase, fresh, resumed) -> dict:
        return self._hooks(phase, fresh, resumed)

    def _end_turn(self, games) -> dict:
        """The turn ends: the next player, or the same one for an extra turn; the turn
        cap."""
        self.turn[games] += 1
        extra = self.extra_turn[games]
        self.extra_turns[games[extra]] += 1
        moving = games[~extra]
        self.current[moving] = (self.current[moving] + 1) % self.players
        if self.max_turns is not None:
            capped = self.turn[games] >= self.max_turns
            self.phase[games[capped]] = OVER
            games = games[~capped]
        return {START: games}

    def _income(self, phase, fresh, resumed) -> dict:
        """The income step: each game walks the plan of its roll total."""
        self.phase[fresh] = INCOME
        done = []
        totals = self.total[fresh]
        plans = self.program.plans
        if len(fresh):
            order = np.argsort(totals, kind="stable")
            values, starts = np.unique(totals[order], return_index=True)
            bounds = list(starts) + [len(order)]
            for k, total in enumerate(values.tolist()):
                games = fresh[order[bounds[k]:bounds[k + 1]]]
                pid = self.program.income_plan(total)
                if pid not in plans or not plans[pid]:
                    done.append(games)
                    continue
                done.append(self._walk(pid, games, _EMPTY))
        if len(resumed):
            pids = self.plan[resumed]
            for pid in np.unique(pids).tolist():
                done.append(self._walk(pid, _EMPTY, resumed[pids == pid]))
        return {BEFORE_BUILD: _cat(done)}

    def _build(self, phase, games, _resumed) -> dict:
        """The ``build`` decision, or the end of the turn when the rules allow no build."""
        self.phase[games] = BUILD
        self.builds_left[games] = self.rules.builds_per_turn
        if self.rules.builds_per_turn <= 0:
            return {END: games}
        self._wait(Program.BUILD, games, self.current[games], self.build_mask(games))
        return {}

    def build_mask(self, games) -> np.ndarray:
        """``(len(games), 1 + cards)``: pass, then each card in build-menu order (cost,
        then market order) that the current player may build now: affordable, under its
        limit, with a copy in the market (a landmark: not built)."""
        p = self.program
        seat = self.current[games]
        cards = p.by_cost
        town = self.owned[games, seat][:, cards]
        ok = (town < p.limit[cards]) & ((self.supply[games][:, cards] > 0) | p.landmark[cards])
        ok &= p.cost[cards] <= self.coins[games, seat][:, None]
        return np.concatenate([np.ones((len(games), 1), dtype=bool), ok], axis=1)

    def _apply_build(self, games, slot, fresh: dict) -> None:
        """Build each game's answer (slot 0: nothing): pay, take the card (from the
        market), and win at once on the last victory landmark (:meth:`TurnPhases._build`)."""
        p = self.program
        passing = slot == 0
        self.builds_left[games[passing]] = 0
        g = games[~passing]
        card = p.by_cost[slot[~passing] - 1]
        seat = self.current[g]
        self.coins[g, seat] -= p.cost[card].astype(COINS)
        self.owned[g, seat, card] += 1
        market = ~p.landmark[card]
        self.supply[g[market], card[market]] -= 1
        if self.rules.market_upkeep and market.any():
            self.market_changed(g[market])
        slot_built = np.minimum(self.nbuilt[g], self.built.shape[1] - 1)
        self.built[g, slot_built] = card
        self.nbuilt[g] += 1
        if self.builds is not None and len(g):
            self.builds.append((g.copy(), self.turn[g] + 1, seat.copy(), card.copy()))
        self.builds_left[g] -= 1
        won = p.landmark[card] & self.has_won(g, seat)
        w = g[won]
        self.winner[w] = seat[won]
        self.phase[w] = OVER
        self.turn[w] += 1
        going = games[(self.builds_left[games] <= 0) & (self.phase[games] != OVER)]
        again = games[(self.builds_left[games] > 0) & (self.phase[games] != OVER)]
        fresh.setdefault(END, []).append(going)
        fresh.setdefault(BUILD, []).append(again)

    def has_won(self, games, seat) -> np.ndarray:
        """True where ``seat`` has built the victory landmarks (all of them, or the rule
        set's ``victory.count``)."""
        victory = self.program.victory
        built = (self.owned[games, seat][:, victory] > 0).sum(axis=1)
        return built >= self.rules.victory_count

    # ------------------------------------------------------------------ plans

    def _plan_copies(self, g, j: int, pid: int) -> np.ndarray:
        return self.act_copies[g, self._entries[pid][2][j]]

    def _plan_owner(self, g, item) -> np.ndarray:
        if item.offset == 0:
            return self.current[g]
        return self.program.order[self.current[g], item.offset]

    def _ins_copies_of(self, g, j: int, pid: int) -> np.ndarray:
        return self.ins_copies[g]

    def _ins_owner_of(self, g, item) -> np.ndarray:
        return self.ins_owner[g]

    def _start_plan(self, pid: int, games) -> None:
        """Games start walking plan ``pid``: count each entry's copies now (as the scalar
        engine does when it queues the items), reopening closed copies of an activation;
        a hook of a card built this turn is left out unless the rules say otherwise."""
        self.plan[games] = pid
        self.main.pos[games] = 0
        self.main.copy[games] = 0
        self.main.step[games] = 0
        self.order_state[games] = 0
        offsets, cards, _ = self._entries[pid]
        if not len(cards):
            return
        roller = self.current[games]
        owners = self.program.order[roller[:, None], offsets[None, :]]
        rows = games[:, None]
        copies = self.owned[rows, owners, cards[None, :]].astype(np.int64)
        if pid < len(TRIGGERS):
            if not self.program.landmark_active_on_build_turn:
                built = (self.built[games][:, :, None] == cards[None, None, :]).any(axis=1)
                copies[built] = 0
        else:
            for marker in self.rules.blocking_markers:
                table = self.marks[marker]
                closed = table[rows, owners, cards[None, :]]
                shut = (closed > 0) & (copies > 0)
                if shut.any():
                    r, e = shut.nonzero()
                    table[games[r], owners[r, e], cards[e]] = 0
                    copies = np.maximum(copies - np.where(shut, closed, 0), 0)
        self.act_copies[games, :len(cards)] = copies

    def _walk(self, pid: int, fresh, resumed) -> np.ndarray:
        """Walk plan ``pid``: ``fresh`` games from its start, ``resumed`` ones from where
        they waited; returns the games that walked to its end (the others wait at a
        decision)."""
        if len(fresh):
            self._start_plan(pid, fresh)
        items = self.program.plans[pid]
        block_of = self._block_of[pid]
        running = fresh
        rpos = self.main.pos[resumed] if len(resumed) else _EMPTY
        for j in range(len(items)):
            if len(resumed):
                joining = resumed[rpos == j]
                if len(joining):
                    running = _cat([running, joining])
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
                for u in np.unique(which).tolist():
                    parts.append(self._item(items[u], j, pid, these[which == u], self.main,
                                            copies_item=u))
                running = _cat(parts)
            if j == block.stop - 1:
                self.order_state[running] = 0
        return running

    def _item(self, item, j: int, pid: int, games, cur: _Cursor, copies_item: int = -1):
        """Run ``item`` (at place ``j`` of plan ``pid``) for ``games``; returns those that
        are done with it (the others wait at a decision). ``copies_item``: the item whose
        copies count, when an order block runs another item at place ``j``."""
        copies_at = j if copies_item < 0 else copies_item
        if not item.asks:
            copies = cur.copies_of(games, copies_at, pid)
            live = copies > 0
            g, c = games[live], copies[live]
            if len(g):
                owner = cur.owner_of(g, item)
                self._chain(item, g, owner, c, 0)
            return games
        if cur is self.main:
            active = self.ins_card[games] >= 0
            if active.any():  # an activated card's clauses come first
                done = self._insertions(games[active])
                games = _cat([games[~active], done])
        return self._per_copy(item, j, pid, games, cur, copies_at)

    def _chain(self, item, g, owner, copies, first: int) -> None:
        """Run the plain steps of ``item``'s chain from ``first`` (with its conditions
        when from the start) while each happens."""
        if first == 0:
            for test in item.tests:
                ok = test.test(self, g, owner)
                g, owner, copies = g[ok], owner[ok], copies[ok]
        for step in item.steps[first:]:
            if not len(g):
                return
            happened = step.kernel.run(self, g, item.card, owner, copies)
            if happened is not _ALL:
                g, owner, copies = g[happened], owner[happened], copies[happened]

    def _per_copy(self, item, j: int, pid: int, games, cur: _Cursor, copies_at: int):
        """Run an item that asks, once per copy, each copy's chain until a decision
        (the game waits) or its end; returns the games done with every copy."""
        done = []
        steps = item.steps
        while len(games):
            copies = cur.copies_of(games, copies_at, pid)
            st, cp = cur.step[games], cur.copy[games]
            finished = (st == 0) & (cp >= copies)
            if finished.any():
                out = games[finished]
                cur.copy[out] = 0  # the next item starts at its first copy
                done.append(out)
            g, st = games[~finished], st[~finished]
            if not len(g):
                break
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
                    self._wait(step.kind, g[asked], owner[asked], mask[can], item.card)
            # a chain at its end (or ended): the next copy
            ended = ~waiting
            cur.copy[g[ended]] = cur.copy[g[ended]] + 1
            cur.step[g[ended]] = 0
            w = g[waiting]
            cur.step[w] = st[waiting]
            cur.pos[w] = j
            games = g[ended]
        return _cat(done)

    def _insertions(self, games) -> np.ndarray:
        """Games whose answer activated one of their cards: walk that card's activation
        (its own small plan) first; returns the games done with it."""
        done = []
        cards = self.ins_card[games]
        for card in np.unique(cards).tolist():
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
            self._wait(block.kind, asking, owner[asks], mask)
        return games[~np.isin(games, asking)]

    def _apply_choice(self, kind: int, games, slot, fresh: dict, resume: dict) -> None:
        """Carry out each game's answer to a clause's choice (or an order), then the walk
        goes on from there."""
        choice = self.program.choices[kind]
        phase = self.phase[games]
        if choice.shape == "order":
            self._apply_order(kind, games, slot)
        else:
            inside = self.ins_card[games] >= 0
            for cur, part in ((self.inserted, inside), (self.main, ~inside)):
                g = games[part]
                if not len(g):
                    continue
                self._resolve(choice, cur, g, slot[part])
        for ph in np.unique(phase).tolist():
            resume.setdefault(ph, []).append(games[phase == ph])

    def _resolve(self, choice, cur: _Cursor, g, slot) -> None:
        """One choice's answers for games at cursor ``cur``: the action, then the rest of
        the chain (or, if it did not happen, the next copy)."""
        card = self.pending_card[g]
        owner = self.pending_player[g]
        copies = np.ones(len(g), dtype=np.int64)
        for c in np.unique(card).tolist():
            these = card == c
            happened = choice.resolve(self, g[these], c, owner[these], copies[these], slot[these])
            h = np.asarray(happened, dtype=bool)
            st = cur.step[g[these]]
            items = self._item_at(cur, g[these])
            lengths = np.array([len(it.steps) for it in items], dtype=np.int64)
            nxt = np.where(h, st + 1, _CHAIN_END)
            ended = nxt >= lengths
            gm = g[these]
            cur.step[gm] = np.where(ended, 0, nxt)
            cur.copy[gm[ended]] += 1  # the walk goes on from the cursor

    def _item_at(self, cur: _Cursor, g) -> list:
        """The item each game's cursor stands at."""
        if cur is self.inserted:
            return [self.program.card_plans[c][p] for c, p in
                    zip(self.ins_card[g].tolist(), cur.pos[g].tolist())]
        plans = self.program.plans
        return [plans[pid][int(self.exec_order[game, pos]) if state == 2 else pos]
                for game, pid, pos, state in zip(g.tolist(), self.plan[g].tolist(),
                                                 cur.pos[g].tolist(),
                                                 self.order_state[g].tolist())]

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
        games, masks = self._masks[kind]
        row = masks[int(np.searchsorted(games, game))]
        return tuple(self.slot_value(kind, game, s) for s in row.nonzero()[0].tolist())

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
