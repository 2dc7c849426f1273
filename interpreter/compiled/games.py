"""N games of one rule set in the compiled engine: :class:`CompiledGames`.

The games live in plain arrays (:class:`~machikoro.compiled.kernels.State`); each game is
played by the per-game compiled code of :mod:`machikoro.compiled.kernels`, by itself, to
its end (:meth:`CompiledGames.play_random`). Seeds are the batched engine's: a game's
seed gives its rolls, the seats' seeds the random agents' answers, drawn as
:class:`~machikoro.vector.policies.RandomPolicy` draws them, so the same seeds give the
same games as :class:`~machikoro.vector.engine.VectorGames` (a test plays both).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from ..errors import MachikoroError
from ..rules.ruleset import RuleSet
from . import tables as tb

_TABLES: WeakKeyDictionary = WeakKeyDictionary()


def tables_for(rules: RuleSet, players: int) -> tb.Tables:
    """:func:`~machikoro.compiled.tables.encode` of ``rules`` at ``players`` seats, made
    once and kept while ``rules`` lives."""
    held = _TABLES.setdefault(rules, {})
    found = held.get(players)
    if found is None:
        found = held[players] = tb.encode(rules, players)
    return found


def _seeds(values, what: str) -> list:
    values = list(values)
    for s in values:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
            raise MachikoroError(f"{what} must be whole numbers >= 0, not {s!r:.60}")
    return values


class CompiledGames:
    """N games of ``rules`` at ``players`` seats: ``seeds`` one whole number >= 0 per game
    (its rolls), ``max_turns`` the turn cap (None: none), as
    :class:`~machikoro.vector.engine.VectorGames` takes them; ``tables``, the rule set's
    encoded tables (default: :func:`~machikoro.compiled.tables.encode`'s). Raises
    :class:`~machikoro.errors.CompiledUnsupported` naming what the compiled engine does
    not play, :class:`~machikoro.errors.MachikoroError` for bad arguments.

    After :meth:`play_random`: ``winner`` (N,) the winning seat (-1: nobody, the turn cap),
    ``turns`` (N,) turns played, ``coins`` (N, P) and ``towns`` (N, P, cards) at the end.
    """

    def __init__(self, rules: RuleSet, players: int, seeds, max_turns: int | None = 1000,
                 tables: tb.Tables | None = None):
        from . import kernels as k

        if not rules.min_players <= players <= rules.max_players:
            raise MachikoroError(f"{rules.name} is played by {rules.min_players}-"
                                 f"{rules.max_players} players, not {players}")
        seeds = _seeds(seeds, "seeds")
        self.rules, self.players, self.n = rules, players, len(seeds)
        if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(
                max_turns, (int, np.integer)) or max_turns < 1):
            raise MachikoroError(f"max_turns must be a whole number >= 1 or None, not "
                                 f"{max_turns!r:.60}")
        self.tables = t = tables_for(rules, players) if tables is None else tables
        n, p, c = len(seeds), players, t.cards
        ints = np.empty((n, k.INTS), dtype=np.int64)
        k.start(ints, max_turns)
        arrays = {
            "ints": ints,
            "coins": np.tile(t.coins, (n, 1)),
            "towns": np.tile(t.town, (n, p, 1)),
            "supply": np.tile(t.supply, (n, 1)),
            "dice": np.zeros((n, max(t.max_dice, 2)), dtype=np.int64),
            "rerolled": np.zeros((n, c), dtype=np.int64),
            "built": np.zeros((n, c), dtype=np.int64),
            "queue": np.zeros((n, t.queue_size, 4), dtype=np.int64),
            "dice_keys": k.stream_keys(seeds),
            "dice_counters": np.zeros(n, dtype=np.uint64),
            "agent_keys": np.zeros(n * p, dtype=np.uint64),
            "agent_counters": np.zeros(n * p, dtype=np.uint64)}
        self.arrays = arrays
        self.state = k.State(**arrays)
        self._games = np.arange(n, dtype=np.int64)
        k.run(t, self.state, self._games, self._games, False)  # each to its first decision

    def play_random(self, agent_seeds) -> CompiledGames:
        """Play every game to its end with random agents: ``agent_seeds`` an ``(N, P)``
        array-like of whole numbers, one per seat of each game (the lab's agent seeds).
        Returns ``self``."""
        from . import kernels as k

        seeds = np.asarray(agent_seeds, dtype=object)
        if seeds.shape != (self.n, self.players):
            raise MachikoroError(f"agent_seeds must be one seed per seat of each game: an "
                                 f"({self.n}, {self.players}) array, not {seeds.shape}")
        arrays = self.arrays
        arrays["agent_keys"][:] = k.stream_keys(_seeds(seeds.reshape(-1).tolist(),
                                                       "agent seeds"))
        arrays["agent_counters"][:] = 0
        k.run(self.tables, self.state, self._games, self._games, True)
        return self

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
