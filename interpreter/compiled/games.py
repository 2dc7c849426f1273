"""N games of one rule set in the compiled engine: :class:`CompiledGames`.

The games live in plain arrays (:class:`~machikoro.compiled.kernels.State`); each game is
played by the per-game compiled code of :mod:`machikoro.compiled.kernels`, by itself, to
its end (:meth:`CompiledGames.play_random`). A game's seed gives its rolls (its own
stream of the kernels' counter-based generator), the seats' seeds the random agents'
answers (a uniform option index from the seat's stream), so the same seeds give the same
games, whatever else the batch holds.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from ..errors import MachikoroError
from ..rules.ruleset import RuleSet
from . import tables as tb
from .cache import FirstCompile

_TABLES: WeakKeyDictionary = WeakKeyDictionary()
ROLLS_LOGGED = 64
"""The most throws of the dice a game logs between two reads of the log (one step plays
a game to its next decision: a turn or less, a few throws)."""
BUILDS_LOGGED = 64
"""The most builds a game logs between two reads of the log (``keep_builds``): a game
whose log is full waits until it is read (:meth:`CompiledGames.play_random` and
:meth:`CompiledGames.step` read it), 384 bytes a game."""


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIXES = tuple(np.uint64(m) for m in (0xBF58476D1CE4E5B9, 0x94D049BB133111EB))
_SHIFTS = tuple(np.uint64(s) for s in (30, 27, 31))


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser over a ``uint64`` array (:func:`.kernels.mix`'s, in
    NumPy)."""
    z = (z ^ (z >> _SHIFTS[0])) * _MIXES[0]
    z = (z ^ (z >> _SHIFTS[1])) * _MIXES[1]
    return z ^ (z >> _SHIFTS[2])


def tables_for(rules: RuleSet, players: int) -> tb.Tables:
    """:func:`~machikoro.compiled.tables.encode` of ``rules`` at ``players`` seats, made
    once and kept while ``rules`` lives."""
    held = _TABLES.setdefault(rules, {})
    found = held.get(players)
    if found is None:
        found = held[players] = tb.encode(rules, players)
    return found


class FirstCalled:
    """``dispatcher`` (a Numba function) called as :func:`entry_point` calls it: its first
    call compiles it or loads it from the cache (said on standard error when it compiles:
    :class:`~.cache.FirstCompile`, ``what`` for about ``minutes``); the later calls go to
    the code found for the first call's types, without the dispatcher's type resolution.
    Every call must pass arguments of those types."""

    def __init__(self, dispatcher, what: str, minutes: str):
        self.dispatcher, self.what, self.minutes = dispatcher, what, minutes
        self._entry = None

    def __call__(self, *args) -> None:
        if self._entry is None:
            from .kernels import CACHE

            with FirstCompile(self.dispatcher, CACHE, self.what, self.minutes):
                self.dispatcher(*args)
            self._entry = entry_point(self.dispatcher, args)
        else:
            self._entry(*args)


_ENTRIES: dict = {}  # (dispatcher, the kinds of its arguments) -> its entry point
_SCALARS = (bool, float, np.bool_, np.number, type(None))


def entry_point(dispatcher, args: tuple):
    """The code ``dispatcher`` (a Numba function) compiled for the types of ``args``,
    called without the dispatcher's type resolution (which hashes the types of both
    records at every call: about 12 microseconds and more, against 4), or the dispatcher
    itself where this Numba keeps its code otherwise. ``args`` must have been passed to
    the dispatcher once (compiled or loaded).

    Found once per process for arguments of the same kinds (:func:`_kind`): Numba's types
    of the records cost about 4 ms to make, and every agent of a scalar game that rates
    its builds in compiled code asks for its entry point (a new agent a game in the lab
    and the benches)."""
    try:
        key = (dispatcher, tuple(_kind(a) for a in args))
    except TypeError:  # (a value of no kind known here: found each time)
        key = None
    found = _ENTRIES.get(key)
    if found is None:
        try:
            types = tuple(dispatcher.typeof_pyval(a) for a in args)
            found = dispatcher.overloads[types].entry_point
        except (AttributeError, KeyError):
            return dispatcher
        if key is not None:
            _ENTRIES[key] = found
    return found


def _kind(value):
    """What Numba's type of ``value`` depends on, cheaper to make than that type: for an
    array its class (a subclass is typed apart), dtype, dimensions, layout, alignment and
    whether it is written to; for a tuple (a record) its class and its items' kinds; for
    an int whether it fits int64; for a float, a bool, a NumPy scalar or None its class.
    Two values of the same kind have the same Numba type (a kind may be finer). Raises
    TypeError for any other value (a list: its type depends on its items)."""
    if isinstance(value, np.ndarray):
        flags = value.flags
        return (type(value), value.dtype, value.ndim, flags.c_contiguous,
                flags.f_contiguous, flags.aligned, flags.writeable)
    if isinstance(value, tuple):
        return (type(value), tuple(_kind(v) for v in value))
    if type(value) is int:
        return (int, -2**63 <= value < 2**63)
    if isinstance(value, _SCALARS):
        return type(value)
    raise TypeError(f"no kind for {type(value).__name__}")


def _seeds(values, what: str) -> np.ndarray:
    """``values`` (whole numbers >= 0: an integer array, a range or any sequence) as a
    ``uint64`` array, each reduced mod 2**64; raises MachikoroError naming ``what`` for
    any other value. An integer array is checked and converted as a whole."""
    found = values if isinstance(values, np.ndarray) else None
    if found is None and isinstance(values, range) and values.start >= 0 and \
            values.stop < 2**62:
        found = np.arange(values.start, values.stop, values.step, dtype=np.int64)
    if found is not None and found.dtype.kind in "iu" and found.ndim == 1:
        if found.dtype.kind == "i" and found.size and found.min() < 0:
            bad = int(found[found < 0][0])
            raise MachikoroError(f"{what} must be whole numbers >= 0, not {bad!r:.60}")
        return found.astype(np.uint64)
    values = list(values)
    for s in values:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or s < 0:
            raise MachikoroError(f"{what} must be whole numbers >= 0, not {s!r:.60}")
    return np.array([int(s) & 0xFFFFFFFFFFFFFFFF for s in values], dtype=np.uint64)


class _Start:
    """What every new batch of one rule set's games begins from, made once per encoded
    tables and turn cap and logs (:meth:`of`): ``arrays``, one game's arrays at the start
    of the first player's first turn (its dice and agents' streams unkeyed), ``dealt``
    (market row -> its deck's index) and ``run``, the compiled engine's entry point for
    these arrays' types (None until the first batch has found it). A batch of one game
    costs a copy of each array instead of making it again (about 30 microseconds less:
    issue 35's targets are at one game too)."""

    __slots__ = ("arrays", "dealt", "run", "tables")
    KEPT = 16
    """The most starts kept per rule set (a caller that encodes its own tables for each
    batch makes a new one each time)."""

    def __init__(self, rules: RuleSet, t: tb.Tables, players: int, max_turns: int | None,
                 log_rolls: bool, keep_builds: bool):
        from . import kernels as k

        self.tables, self.run = t, None
        self.dealt = {r: j for j, r in enumerate(
            r for r, row in enumerate(rules.market_rows) if row.kinds is not None)}
        p, c, decks = players, t.cards, max(len(t.row_kinds), 1)
        ints = np.empty((1, k.INTS), dtype=np.int64)
        k.start(ints, max_turns)
        zeros = {  # name: one game's shape (what only some rule sets use is allocated at
            # its full size only there)
            "dice": (max(t.max_dice, 2),), "rerolled": (c,), "built": (c,),
            "queue": (t.queue_size, 5), "decks": (decks, t.row_deck.shape[1]),
            "deck_lo": (decks,), "deck_hi": (decks,), "side": (c,), "side_turn": (c,),
            "received": (p,),
            "marks": (t.markers, p, c) if t.blocking.size or t.coin_markers.size
            else (1, 1, 1),
            "seen": (p, c) if t.towns_kept.any() else (1, 1),
            "moves": (k.MOVES if t.follows_copies else 1, 3)}
        self.arrays = {
            "ints": ints, "coins": t.coins[None].copy(), "towns": np.tile(t.town, (1, p, 1)),
            "supply": t.supply[None].copy(),
            **{name: np.zeros((1, *shape), dtype=np.int64) for name, shape in zeros.items()},
            "dice_keys": np.zeros(1, dtype=np.uint64),
            "dice_counters": np.zeros(1, dtype=np.uint64),
            "agent_keys": np.zeros((1, p), dtype=np.uint64),  # (a row per game: flattened)
            "agent_counters": np.zeros((1, p), dtype=np.uint64),
            "rolls": np.zeros((1, ROLLS_LOGGED if log_rolls else 1, 1 + max(t.max_dice, 2)),
                              dtype=np.int64),
            "menu": np.zeros((1, 2, c), dtype=np.int64),
            "builds": np.zeros((1, BUILDS_LOGGED if keep_builds else 1, 3),
                               dtype=np.int16)}

    @classmethod
    def of(cls, rules: RuleSet, t: tb.Tables, players: int, max_turns: int | None,
           log_rolls: bool, keep_builds: bool) -> _Start:
        """The start of batches of ``rules`` encoded as ``t``, made at its first batch and
        kept while ``rules`` lives."""
        held = _TABLES.setdefault(rules, {})
        key = ("start", id(t), players, max_turns, log_rolls, keep_builds)
        found = held.get(key)
        if found is None or found.tables is not t:
            starts = [name for name in held if isinstance(name, tuple) and name[0] == "start"]
            for name in starts[:max(0, len(starts) - cls.KEPT + 1)]:
                del held[name]
            found = held[key] = cls(rules, t, players, max_turns, log_rolls, keep_builds)
        return found

    def arrays_for(self, seeds: np.ndarray) -> dict:
        """The arrays of new games of ``seeds`` (uint64), before their first step: each
        array with the game (or its seats) as first axis (:class:`~.kernels.State`)."""
        from .kernels import stream_keys

        n = len(seeds)
        out = {name: a.copy() if n == 1 else np.repeat(a, n, axis=0)
               for name, a in self.arrays.items()}
        out["agent_keys"] = out["agent_keys"].reshape(-1)
        out["agent_counters"] = out["agent_counters"].reshape(-1)
        out["dice_keys"] = stream_keys(seeds)
        return out


class CompiledGames:
    """N games of ``rules`` at ``players`` seats: ``seeds`` one whole number >= 0 per game
    (its rolls), ``max_turns`` the turn cap (None: none); ``tables``, the rule set's
    encoded tables (default: :func:`~machikoro.compiled.tables.encode`'s). Raises
    :class:`~machikoro.errors.CompiledUnsupported` naming what the compiled engine does
    not play, :class:`~machikoro.errors.MachikoroError` for bad arguments. With
    ``log_rolls``, every throw of the dice is logged (:meth:`take_rolls`).

    After :meth:`play_random`: ``winner`` (N,) the winning seat (-1: nobody, the turn cap),
    ``turns`` (N,) turns played, ``coins`` (N, P), ``towns`` (N, P, cards) and ``supply``
    (N, cards) at the end. With ``keep_builds``, :attr:`builds` lists every build made
    (the lab's statistics).
    """

    def __init__(self, rules: RuleSet, players: int, seeds, max_turns: int | None = 1000,
                 tables: tb.Tables | None = None, log_rolls: bool = False,
                 keep_builds: bool = False, start: bool = True):
        from . import kernels as k

        if not rules.min_players <= players <= rules.max_players:
            raise MachikoroError(f"{rules.name} is played by {rules.min_players}-"
                                 f"{rules.max_players} players, not {players}")
        seeds = _seeds(seeds, "seeds")
        if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(
                max_turns, (int, np.integer)) or max_turns < 1):
            raise MachikoroError(f"max_turns must be a whole number >= 1 or None, not "
                                 f"{max_turns!r:.60}")
        self.rules, self.players, self.n = rules, players, len(seeds)
        self.seeds, self.max_turns = seeds, max_turns
        self.tables = t = tables_for(rules, players) if tables is None else tables
        self._start = begun = _Start.of(rules, t, players, max_turns, log_rolls, keep_builds)
        self._dealt = begun.dealt  # (market row -> its deck's index)
        self.builds: list | None = [] if keep_builds else None
        self.arrays = arrays = begun.arrays_for(seeds)
        self.state = k.State(**arrays)
        self._games = np.arange(self.n, dtype=np.int64)
        args = (t, self.state, self._games if start else self._games[:0], self._games,
                k.STEP)  # (without start: compiled or loaded on no game, the same types)
        if begun.run is None:
            with FirstCompile(k.run, k.CACHE):
                k.run(*args)  # each to its first decision
            begun.run = entry_point(k.run, args)
        else:
            begun.run(*args)
        self._run = begun.run

    def play_random(self, agent_seeds) -> CompiledGames:
        """Play every game to its end with random agents: ``agent_seeds`` an ``(N, P)``
        array-like of whole numbers, one per seat of each game (the lab's agent seeds:
        :meth:`seed_agents`). Returns ``self``."""
        from .kernels import RANDOM

        self.seed_agents(agent_seeds)
        todo = self._games
        while True:  # (a game whose log of builds is full stops until it is read)
            self._run(self.tables, self.state, todo, self._games, RANDOM)
            if self.builds is None:
                return self
            self._take_builds()
            todo = np.flatnonzero(~self.over)
            if not todo.size:
                return self

    def _take_builds(self) -> None:
        """Move the games' logged builds to :attr:`builds`: one entry ``(games, turns,
        seats, cards)`` of int arrays, each game's builds in the order made."""
        from .kernels import NBUILDS

        ints, log = self.arrays["ints"], self.arrays["builds"]
        counts = ints[:, NBUILDS]
        logged = np.flatnonzero(counts)
        if not logged.size:
            return
        many = counts[logged]
        rows = np.repeat(logged, many)
        places = np.arange(int(many.sum())) - np.repeat(np.cumsum(many) - many, many)
        found = log[rows, places].astype(np.int64)
        self.builds.append((rows, found[:, 0], found[:, 1], found[:, 2]))
        ints[logged, NBUILDS] = 0

    def random_answers(self, only=None) -> np.ndarray:
        """The random agent's answer to each waiting game's decision (``only``: a bool
        per game, the games to answer; default every waiting one), drawn from the
        deciding seat's stream as :meth:`play_random` draws it (the streams seeded by
        :meth:`seed_agents`): an ``(N,)`` int64 array, 0 where nothing was drawn."""
        counts = self.option_counts
        asked = counts > 0 if only is None else (counts > 0) & np.asarray(only, bool)
        games = np.flatnonzero(asked)
        out = np.zeros(self.n, dtype=np.int64)
        if games.size:
            streams = games * self.players + self.pending_player[games]
            keys, counters = self.arrays["agent_keys"], self.arrays["agent_counters"]
            drawn = counters[streams]
            counters[streams] = drawn + np.uint64(1)
            bits = _mix(keys[streams] + drawn * _GOLDEN)
            out[games] = ((bits >> np.uint64(11)).astype(np.float64) * 2.0 ** -53 *
                          counts[games]).astype(np.int64)
        return out

    def seed_agents(self, agent_seeds, games=None) -> None:
        """Seed each seat's random agent: ``agent_seeds`` an ``(N, P)`` array-like of
        whole numbers, one per seat of each game (the lab's agent seeds); with ``games``
        (an index array of ``K`` games), a ``(K, P)`` one for those games' seats only.
        Raises :class:`~machikoro.errors.MachikoroError` for another shape or a seed that
        is not a whole number >= 0."""
        from . import kernels as k

        try:
            seeds = np.asarray(agent_seeds)
        except ValueError:  # (rows of different lengths)
            seeds = np.asarray(agent_seeds, dtype=object)
        rows = self._games if games is None else np.asarray(games, dtype=np.int64)
        if seeds.shape != (len(rows), self.players):
            raise MachikoroError(f"agent_seeds must be one seed per seat of each game: an "
                                 f"({len(rows)}, {self.players}) array, not {seeds.shape}")
        keys = k.stream_keys(_seeds(seeds.reshape(-1), "agent seeds"))
        if games is None:  # (every game's seats, in order)
            self.arrays["agent_keys"][:] = keys
            self.arrays["agent_counters"][:] = 0
            return
        seats = (rows[:, None] * self.players + np.arange(self.players)).reshape(-1)
        self.arrays["agent_keys"][seats] = keys
        self.arrays["agent_counters"][seats] = 0

    DECISIONS = ("build", "dice", "clause")
    """The kinds of :attr:`pending`, in order: 0 the build, 1 the number of dice, 2 a
    card's clause that asks (a reroll, a chosen player, a swap)."""

    def step(self, options, only=None) -> CompiledGames:
        """Answer every waiting game's decision at once and play each on to its next
        decision or its end: ``options`` one option index per game (an int array of
        shape ``(N,)``: the position of the answer in the scalar engine's
        ``Decision.options``; entries of games that wait at nothing are not read). A
        policy written in Python is handed the whole batch this way. With ``only`` (a
        bool per game), only those games are answered and played on; the others keep
        waiting, untouched. Raises :class:`~machikoro.errors.MachikoroError`, changing
        nothing, for an array of another shape or an option outside ``0 ..
        option_counts - 1``. Returns ``self``."""
        from .kernels import NBUILDS, STEP

        options = np.asarray(options)
        if options.shape != (self.n,) or not np.issubdtype(options.dtype, np.integer):
            raise MachikoroError(f"options must be one whole number per game: an ({self.n},)"
                                 f" int array, not {options.dtype} {options.shape}")
        games = self._games if only is None else np.flatnonzero(only)
        counts = self.option_counts
        asked = counts > 0 if only is None else (counts > 0) & np.asarray(only, dtype=bool)
        bad = np.flatnonzero(asked & ((options < 0) | (options >= counts)))
        if bad.size:
            g = int(bad[0])
            raise MachikoroError(f"option {int(options[g])} is not one of game {g}'s "
                                 f"{int(counts[g])} options (and {bad.size - 1} more)")
        if self.builds is not None and (self.arrays["ints"][:, NBUILDS] >=
                                        BUILDS_LOGGED).any():
            self._take_builds()  # (a step makes one build at most)
        self._run(self.tables, self.state, games, options.astype(np.int64), STEP)
        return self

    def play_until(self, seat: int, options=None, only=None) -> CompiledGames:
        """Answer ``seat``'s waiting decisions and play every game on, each other seat's
        decisions answered by its random agent (drawn from the seat's stream as
        :meth:`play_random` draws it: :meth:`seed_agents`), until each game waits at a
        decision of ``seat`` or is over: a learner's step against random opponents, all
        in compiled code. ``options`` (an ``(N,)`` int array, default none) answers the
        games of ``only`` (a bool per game; default every game) that wait at ``seat``'s
        decision; the other games' entries are not read and their decisions of ``seat``
        keep waiting. Raises :class:`~machikoro.errors.MachikoroError`, changing nothing,
        for a seat outside ``0 .. players - 1``, an array of another shape or an option
        outside ``0 .. option_counts - 1``. Returns ``self``."""
        from .kernels import NBUILDS, UNTIL

        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or \
                not 0 <= seat < self.players:
            raise MachikoroError(f"seat must be 0-{self.players - 1}, not {seat!r:.40}")
        answers = np.full(self.n, -1, dtype=np.int64)
        if options is not None:
            options = np.asarray(options)
            if options.shape != (self.n,) or not np.issubdtype(options.dtype, np.integer):
                raise MachikoroError(f"options must be one whole number per game: an "
                                     f"({self.n},) int array, not {options.dtype} "
                                     f"{options.shape}")
            counts = self.option_counts
            asked = (counts > 0) & (self.pending_player == seat)
            if only is not None:
                asked &= np.asarray(only, dtype=bool)
            bad = np.flatnonzero(asked & ((options < 0) | (options >= counts)))
            if bad.size:
                g = int(bad[0])
                raise MachikoroError(f"option {int(options[g])} is not one of game {g}'s "
                                     f"{int(counts[g])} options (and {bad.size - 1} more)")
            answers[asked] = options[asked]
        while True:  # (a game whose log of builds is full stops until it is read)
            if self.builds is not None and (self.arrays["ints"][:, NBUILDS] >=
                                            BUILDS_LOGGED).any():
                self._take_builds()
            self._run(self.tables, self.state, self._games, answers, UNTIL + int(seat))
            if self.builds is None or not (self.arrays["ints"][:, NBUILDS] >=
                                           BUILDS_LOGGED).any():
                return self
            answers[:] = -1

    def restart(self, games, seeds) -> CompiledGames:
        """Start new games in place of ``games`` (an index array), one seed each
        (``seeds``: whole numbers >= 0): each becomes game ``k`` of
        ``CompiledGames(rules, players, seeds)`` with this batch's turn cap and logs,
        waiting at its first decision, its agents' streams unseeded (:meth:`seed_agents`
        seeds every game's; the caller seeds the restarted ones' rows). Their logged
        throws and builds are dropped. Returns ``self``."""
        games = np.asarray(games, dtype=np.int64)
        seeds = _seeds(seeds, "seeds")
        if len(seeds) != len(games):
            raise MachikoroError(f"restart: one seed per game, not {len(seeds)} for "
                                 f"{len(games)} games")
        if not len(games):
            return self
        from .kernels import STEP

        fresh = self._start.arrays_for(seeds)
        p = self.players
        seats = (games[:, None] * p + np.arange(p)).reshape(-1)
        for name, rows in fresh.items():
            if name in ("agent_keys", "agent_counters"):
                self.arrays[name][seats] = rows
            else:
                self.arrays[name][games] = rows
        self.seeds[games] = seeds
        # each to its first decision (answers are read by game index: one per game)
        self._run(self.tables, self.state, games, self._games, STEP)
        return self

    def take_builds(self) -> list:
        """:attr:`builds`, the log read first, emptied: a list of ``(games, turns, seats,
        cards)`` int arrays, each game's builds in the order made (``turns`` counted from
        1). Raises :class:`~machikoro.errors.MachikoroError` for games made without
        ``keep_builds``."""
        if self.builds is None:
            raise MachikoroError("these games were made without keep_builds")
        self._take_builds()
        found, self.builds = self.builds, []
        return found

    @property
    def over(self) -> np.ndarray:
        """True for each game that has ended (a winner, or the turn cap)."""
        from .kernels import OVER, PHASE

        return self.arrays["ints"][:, PHASE] == OVER

    def hold_at(self, turn: int, seat: int | None = None) -> CompiledGames:
        """Hold every game between two turns at the end of ``seat``'s first turn (None:
        anyone's) that ends with its turn count at ``turn`` or more (the next turn not
        entered; no decision pending; :attr:`held`): later steps leave it there until
        :meth:`release`. A rollout cut short, its position then scored by a learned value,
        as the scalar engine's ``decision(stop_at_turn_end=True)`` stops it
        (:func:`machikoro.lab.advise.advise`'s ``cutoff``); a rule case's turns, one by
        one. Raises :class:`~machikoro.errors.MachikoroError` for a turn below 1 or a seat
        not in the game. Returns ``self``."""
        from .kernels import HOLD_SEAT, HOLD_TURN

        for what, value, low, high in (("turn", turn, 1, None),
                                       ("seat", seat, 0, self.players - 1)):
            if what == "seat" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or \
                    value < low or (high is not None and value > high):
                raise MachikoroError(f"hold_at: {what} must be a whole number from {low}"
                                     f"{'' if high is None else f' to {high}'}, not "
                                     f"{value!r:.60}")
        ints = self.arrays["ints"]
        ints[:, HOLD_TURN], ints[:, HOLD_SEAT] = turn, -1 if seat is None else seat
        return self

    def release(self) -> CompiledGames:
        """Let every held game go on: the next step enters its next turn and plays it to
        its next decision (held again at the next turn's end that meets
        :meth:`hold_at`'s). Returns ``self``."""
        from .kernels import HELD

        self.arrays["ints"][:, HELD] = 0
        return self

    def script_dice(self, throws: list) -> CompiledGames:
        """Throw the dice ``throws`` gives from now on, in place of the games' streams:
        per game a list of throws in order, each the faces of one throw (the turn's rolls
        and side rolls alike), as :meth:`take_rolls` gives them (a rule case's dice). A
        throw of another number of dice than the next one listed, or past the list,
        throws ones and marks the game (:attr:`script_broken`). The games must be made
        with ``log_rolls`` (the list takes the log's place). Raises
        :class:`~machikoro.errors.MachikoroError` for another number of lists than games,
        more than :data:`ROLLS_LOGGED` throws a game, or faces that are not whole numbers
        from 1 to the dice's faces. Returns ``self``."""
        from .kernels import DICE_SCRIPT, NROLLS

        log = self.arrays["rolls"]
        if log.shape[1] == 1:
            raise MachikoroError("these games were made without log_rolls")
        if len(throws) != self.n:
            raise MachikoroError(f"script_dice: {len(throws)} lists of throws for "
                                 f"{self.n} games")
        faces_most, sides = log.shape[2] - 1, self.tables.faces
        log[:] = 0
        for g, listed in enumerate(throws):
            if len(listed) > log.shape[1]:
                raise MachikoroError(f"script_dice: game {g} lists {len(listed)} throws, "
                                     f"at most {log.shape[1]}")
            for i, faces in enumerate(listed):
                faces = list(faces)
                if not 1 <= len(faces) <= faces_most or any(
                        isinstance(f, bool) or not isinstance(f, (int, np.integer))
                        or not 1 <= f <= sides for f in faces):
                    raise MachikoroError(f"script_dice: game {g}'s throw {i + 1} must be "
                                         f"1 to {faces_most} faces from 1 to {sides}, not "
                                         f"{faces!r:.60}")
                log[g, i, 0] = len(faces)
                log[g, i, 1:1 + len(faces)] = faces
        ints = self.arrays["ints"]
        ints[:, NROLLS], ints[:, DICE_SCRIPT] = 0, 1
        return self

    @property
    def script_broken(self) -> np.ndarray:
        """Per game (:meth:`script_dice`), the number of dice of the first throw its list
        did not hold (-1: none so far)."""
        from .kernels import DICE_SCRIPT

        found = self.arrays["ints"][:, DICE_SCRIPT]
        return np.where(found >= 2, found - 2, -1)

    @property
    def held(self) -> np.ndarray:
        """True for each game held between two turns (:meth:`hold_at`)."""
        from .kernels import HELD

        return self.arrays["ints"][:, HELD] == 1

    @property
    def pending(self) -> np.ndarray:
        """Each game's waiting decision, an index of :data:`DECISIONS` (-1: none)."""
        from .kernels import PENDING

        return self.arrays["ints"][:, PENDING]

    @property
    def pending_player(self) -> np.ndarray:
        """The seat that answers each game's waiting decision (read where one waits)."""
        from .kernels import PLAYER

        return self.arrays["ints"][:, PLAYER]

    @property
    def option_counts(self) -> np.ndarray:
        """How many options each game's waiting decision has (0: none waits)."""
        from .kernels import COUNT, NONE

        return np.where(self.pending != NONE, self.arrays["ints"][:, COUNT], 0)

    @property
    def winner(self) -> np.ndarray:
        from .kernels import WINNER

        return self.arrays["ints"][:, WINNER]

    @property
    def turns(self) -> np.ndarray:
        from .kernels import TURN

        return self.arrays["ints"][:, TURN]

    @property
    def coins(self) -> np.ndarray:
        return self.arrays["coins"]

    @property
    def towns(self) -> np.ndarray:
        return self.arrays["towns"]

    @property
    def received(self) -> np.ndarray:
        """(N, P): the coins each seat has received this turn."""
        return self.arrays["received"]

    @property
    def supply(self) -> np.ndarray:
        """(N, cards): the copies of each card face up in the market."""
        return self.arrays["supply"]

    def take_rolls(self) -> list:
        """Per game, the throws of the dice since the last call (or the start), in order,
        each a tuple of its faces (the turn's rolls and side rolls alike), and empties the
        log (the games must be made with ``log_rolls``). Raises
        :class:`~machikoro.errors.MachikoroError` if a game's log overflowed
        (:data:`ROLLS_LOGGED` throws)."""
        from .kernels import NROLLS

        ints, log = self.arrays["ints"], self.arrays["rolls"]
        if log.shape[1] == 1:
            raise MachikoroError("these games were made without log_rolls")
        counts = ints[:, NROLLS].tolist()
        full = [g for g, count in enumerate(counts) if count >= log.shape[1]]
        if full:
            raise MachikoroError(f"game {full[0]} threw the dice {log.shape[1]} times or "
                                 f"more since its log was last read")
        ints[:, NROLLS] = 0
        return [[tuple(row[1:1 + row[0]]) for row in log[g, :count].tolist()]
                for g, count in enumerate(counts)]

    def decision_name(self, g: int) -> str | None:
        """The scalar engine's name of game ``g``'s waiting decision (``build``, ``dice``,
        ``reroll``, ``order``, or the asking card's id; None: none waits)."""
        from . import kernels as k

        kind = int(self.pending[g])
        if kind == k.NONE:
            return None
        if kind != k.CLAUSE_DECISION:
            return self.DECISIONS[kind]
        item = self.arrays["queue"][g, self.arrays["ints"][g, k.ITEM]]
        card, clause = int(item[0]), int(item[3])
        if card < 0:
            return "order"
        if self.tables.clauses[clause, k.C_OP] == tb.REROLL:
            return "reroll"
        return self.rules.ids[card]

    def option_rows(self, games) -> tuple:
        """The options of the decisions games ``games`` wait at (an index array; each
        must wait at one) as values: ``(rows, starts)``, ``rows`` an ``(options in all,
        :data:`~machikoro.compiled.options.WIDTH`)`` int64 array, per option its tag and
        numbers (:func:`~machikoro.compiled.options.option_values`), game ``games[j]``'s
        in rows ``starts[j]`` to ``starts[j + 1] - 1`` (``starts``: ``len(games) + 1``
        running sums of their option counts). Compiled the first time (seconds)."""
        from .options import WIDTH, option_values

        games = np.asarray(games, dtype=np.int64)
        starts = np.zeros(len(games) + 1, dtype=np.int64)
        np.cumsum(self.option_counts[games], out=starts[1:])
        out = np.empty((int(starts[-1]), WIDTH), dtype=np.int64)
        option_values(self.tables, self.state, games, starts, out)
        return out, starts

    def options_of(self, g: int) -> list:
        """The options of game ``g``'s waiting decision as the scalar engine's values, in
        its order (``Decision.options``: None, bools, numbers of dice, card ids, seats,
        ``{give, to}`` and ``{give, take, from}`` answers, orders); [] when none waits."""
        return self.options_of_games([g])[0]

    def options_of_games(self, games) -> list:
        """:meth:`options_of` for each game of ``games`` (a list of game indices), listed
        in one call of the compiled code: a list of lists, in the order of ``games``."""
        from .options import decode, order_kinds

        counts = self.option_counts
        waiting = [g for g in games if counts[g] > 0]
        rows, starts = self.option_rows(waiting)
        rows, starts = rows.tolist(), starts.tolist()
        listed = {}
        for j, g in enumerate(waiting):
            def kinds(item, g=g):
                return order_kinds(self.tables, self.state, g, item)

            listed[g] = [decode(row, self.rules.ids, kinds)
                         for row in rows[starts[j]:starts[j + 1]]]
        return [listed.get(g, []) for g in games]

    @property
    def current(self) -> np.ndarray:
        """(N,): the seat whose turn it is."""
        from .kernels import CUR

        return self.arrays["ints"][:, CUR]

    @property
    def extra_turns(self) -> np.ndarray:
        """(N,): the extra turns taken so far."""
        from .kernels import EXTRAS

        return self.arrays["ints"][:, EXTRAS]

    @property
    def extra_turn(self) -> np.ndarray:
        """(N,): 1 where the turn under way (or, in a game over, the last one) has won an
        extra turn."""
        from .kernels import EXTRA

        return self.arrays["ints"][:, EXTRA]

    def roll(self, g: int) -> tuple:
        """Game ``g``'s last roll of the turn: ``(total, faces)``."""
        from .kernels import NDICE, TOTAL

        ints = self.arrays["ints"]
        count = int(ints[g, NDICE])
        return int(ints[g, TOTAL]), tuple(self.arrays["dice"][g, :count].tolist())

    def markers(self, g: int) -> list:
        """Game ``g``'s markers as the scalar engine keeps them (``Game.marks``): per
        marker, per seat, per card, the copies it marks (or the coins on them)."""
        marks, kinds = self.arrays["marks"][g], len(self.rules.markers)
        if marks.shape != (self.tables.markers, self.players, self.tables.cards):
            return [[[0] * self.tables.cards for _ in range(self.players)]
                    for _ in range(kinds)]  # (no marker is ever set in these rules)
        return marks[:kinds].tolist()

    def deck(self, g: int, row: int) -> list | None:
        """Game ``g``'s deck of market row ``row`` (an index of ``rules.market_rows``), as
        the scalar engine keeps it (the top last); None for a row dealt from no deck."""
        j = self._dealt.get(row)
        if j is None:
            return None
        decks = self.arrays["decks"]
        size = max(int(self.tables.row_size[j]), 1)
        lo, hi = int(self.arrays["deck_lo"][g, j]), int(self.arrays["deck_hi"][g, j])
        return [int(decks[g, j, k % size]) for k in range(lo, hi)]
