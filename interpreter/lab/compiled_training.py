"""Self-play and the strength check of ``machikoro train`` on the compiled engine
(:mod:`machikoro.compiled`): the rounds of :mod:`.training`, many games at once, played by
the compiled agents (``train --engine vector``, and ``--engine auto`` where
:func:`code_compiled` and :func:`compiled_refusal` allow).

A round's games are played in chunks of :data:`CHUNK` games, each chunk one
:class:`~machikoro.compiled.games.CompiledGames`, seated as the scalar rounds seat their
agents (:func:`_seating`, :func:`~.training._lineup`): the learning agent
(:class:`~machikoro.agents.compiled_policies.CompiledExpert` with the round's weights, or
greedy in the first round), greedy, the previous round's weights, and the bundled
strategies the compiled engine plays (:class:`~machikoro.agents.compiled_strategy.
CompiledStrategy`). :class:`Exploring` answers a share of their builds at random. After
every build decision the position just after the answer, seen by its builder, is recorded
(:class:`Afterstates`: the expert's afterstate, :func:`machikoro.compiled.expert.
afterstates`, the features the scalar afterstate gives, to the last bit). A game cut at
:data:`~.training.MAX_TURNS` gives nothing.

The games are the compiled engine's: for a seed, the same on every machine and whatever
the number of workers, but not the scalar engine's games of that seed (the compiled
engine rolls its own dice), and the exploration draws come from one generator per chunk
and seat kind. Without exploration a round records the positions, labels and steps the
scalar round records when its games roll the same dice (the suite checks it).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..agents.features import features_of_town
from ..agents.value import ValueNet
from ..errors import MachikoroError
from ..rules.ruleset import RuleSet
from .runs import game_seed
from .statistics import wilson
from .training import KINDS, MAX_TURNS, played

CHUNK = 500
"""Games per batch of a round (a worker's unit, and the progress bar's step)."""


class Exploring:
    """A compiled ``policy`` (``policy(only) -> options``) whose build decisions with
    several options are answered uniformly at random ``share`` of the time (draws from a
    generator seeded ``seed``, the games in index order)."""

    def __init__(self, policy, games, share: float, seed: int):
        self.policy, self.games, self.share = policy, games, share
        self.rng = np.random.default_rng(seed)

    def __call__(self, only=None) -> np.ndarray:
        options = self.policy(only)
        if not self.share:
            return options
        games = self.games
        counts = games.option_counts
        build = (games.pending == games.DECISIONS.index("build")) & (counts > 1)
        if only is not None:
            build &= only
        rows = np.flatnonzero(build)
        picked = rows[self.rng.random(len(rows)) < self.share]
        options[picked] = (self.rng.random(len(picked)) * counts[picked]).astype(np.int64)
        return options


class Afterstates:
    """The features of the position just after an answer to a build decision, seen by its
    builder (``features``: a :class:`~machikoro.agents.features.Features`), in compiled
    code: each game's build menu is cut, for the reading, to the answer alone (the engine
    plays it on a copy: :func:`machikoro.compiled.expert.afterstates`; its first call
    compiles it, said on standard error, where it is not compiled yet)."""

    def __init__(self, games, features):
        from ..agents.compiled_policies import look_for, seen_for
        from ..compiled.expert import afterstates
        from ..compiled.games import FirstCalled
        from ..compiled.lookahead import scratch

        self.games, self.features = games, features
        self.look, self.seen = look_for(games), seen_for(features)
        self.after, self.scratch = scratch(games, 1), scratch(games)
        self._orders: dict = {}  # (the decks' look-ahead orders made so far)
        self._afterstates = FirstCalled(afterstates, "the expert for the compiled engine",
                                        "two")

    def __call__(self, built: np.ndarray, answers: np.ndarray) -> tuple:
        """``(rows, won)`` of the games ``built`` (waiting at a build) answered
        ``answers`` (their option indices): float32 rows, and where the answer ends the
        game, 1 the builder won (0 another seat; -1 the game goes on)."""
        from ..agents.compiled_policies import deck_orders
        from ..compiled.kernels import COUNT

        games = self.games
        ints, menu = games.arrays["ints"], games.arrays["menu"]
        counts, saved = ints[built, COUNT].copy(), menu[built].copy()
        chosen = answers > 0
        menu[built[chosen], :, 0] = saved[chosen, :, answers[chosen] - 1]
        ints[built, COUNT] = np.where(chosen, 2, 1)  # (nothing, then the answer)
        try:
            total = int(ints[built, COUNT].sum())
            rows = np.zeros((total, self.seen.size), dtype=np.float32)
            won = np.empty(total, dtype=np.int64)
            self._afterstates(games.tables, self.look, self.seen, games.state, built,
                              self.after, self.scratch,
                              deck_orders(games, built, self._orders), rows, won)
        finally:
            menu[built] = saved
            ints[built, COUNT] = counts
        last = np.cumsum(np.where(chosen, 2, 1)) - 1  # (each game's answer: its last row)
        return rows[last], won[last]


class Recorder:
    """The positions of a chunk's games, recorded as they are played: per build decision
    answered, the game's index in the chunk, its builder's seat and the features of the
    position just after the answer, seen by that builder (a float32 row of ``size``)."""

    def __init__(self, size: int):
        self.size = size
        self.games: list = []
        self.seats: list = []
        self.rows: list = []

    def record(self, games: np.ndarray, seats: np.ndarray, rows: np.ndarray) -> None:
        """Add the positions of one step: ``games`` and ``seats`` (int arrays), ``rows``
        (``len(games) x size``)."""
        self.games.append(games)
        self.seats.append(seats)
        self.rows.append(rows)

    def positions(self, winner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(positions x features, labels, steps)`` as :func:`~.training.self_play`
        returns them, game by game in index order, given each game's ``winner`` (-1: cut
        at the turn limit, left out)."""
        if not self.games:
            return np.zeros((0, self.size), np.float32), np.zeros(0, np.int8), \
                np.zeros(0, np.int64)
        games, seats = np.concatenate(self.games), np.concatenate(self.seats)
        rows = np.concatenate(self.rows)
        order = np.argsort(games, kind="stable")  # game by game, in the order played
        games, seats, rows = games[order], seats[order], rows[order]
        kept = winner[games] >= 0
        games, seats, rows = games[kept], seats[kept], rows[kept]
        labels = (seats == winner[games]).astype(np.int8)
        steps = np.zeros(len(games), dtype=np.int64)
        by_builder = np.argsort(games * 8 + seats, kind="stable")  # (at most 5 seats)
        same = (games[by_builder][1:] == games[by_builder][:-1]) & \
            (seats[by_builder][1:] == seats[by_builder][:-1])
        steps[by_builder[:-1][same]] = by_builder[1:][same] - by_builder[:-1][same]
        return rows, labels, steps


def _seating(lineup: tuple, strategies: int, players: int, indices: range,
             learning: bool) -> np.ndarray:
    """``(games, players)``: each seat's policy index (:func:`_policies`' order) in the
    games of ``indices``, as :func:`~.training._lineup` seats the scalar agents for
    ``lineup`` (``strategies``: how many bundled strategies play; ``learning``: a round
    after the first, else greedy at every seat)."""
    kinds = len(lineup)
    seats = np.zeros((len(indices), players), dtype=np.int64)
    if not learning:  # the first round: greedy, exploring, at every seat
        return seats
    for row, index in enumerate(indices):
        kind = lineup[index % kinds]
        for s in range(players):
            if s == index % players or kind == "self":
                continue
            if kind == "greedy":
                seats[row, s] = 1
            elif kind == "strategy" and strategies:
                seats[row, s] = 3 + (index // kinds + s) % strategies
            else:
                seats[row, s] = 2
    return seats


def _policies(games, value: ValueNet | None, previous: ValueNet | None, explore: float,
              seed: int) -> list:
    """The compiled policies a chunk's seats are drawn from (:func:`_seating` says which
    plays where): the learner, greedy, the previous weights (each exploring), then each
    bundled strategy the compiled engine plays (after the first round)."""
    from ..agents.compiled_policies import CompiledExpert, CompiledGreedy
    from ..agents.compiled_strategy import CompiledStrategy
    from ..agents.registry import strategy_of
    from ..agents.strategy_files import bundled_strategies

    def learner(net):
        return CompiledGreedy(games) if net is None else CompiledExpert(games, value=net)

    policies = [Exploring(learner(value), games, explore, seed * 8 + 1),
                Exploring(CompiledGreedy(games), games, explore, seed * 8 + 2),
                Exploring(learner(previous or value), games, explore, seed * 8 + 3)]
    if value is not None:
        for name in bundled_strategies():
            try:
                policies.append(CompiledStrategy(games, strategy_of(name, games.rules)))
            except (MachikoroError, ValueError):  # (CompiledUnsupported included)
                continue
    return policies


def _play_chunk(job: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One chunk of a round (a job of :func:`self_play_compiled`, its games' indices
    second to last): its positions, labels and steps."""
    from ..compiled.games import CompiledGames

    rules, players, value, previous, explore, seed, lineup, indices, town = job
    games = CompiledGames(rules, players, [game_seed(seed, i) for i in indices],
                          max_turns=MAX_TURNS)
    policies = _policies(games, value, previous, explore, seed * 100_003 + indices[0])
    seats = _seating(lineup, len(policies) - 3, players, indices, value is not None)
    features = features_of_town(rules, players, town)
    recorder, after = Recorder(features.size), Afterstates(games, features)
    rows = np.arange(games.n)
    build = games.DECISIONS.index("build")
    while (games.pending != -1).any():
        who = seats[rows, games.pending_player]
        answers = np.zeros(games.n, dtype=np.int64)
        for k, policy in enumerate(policies):
            ours = (who == k) & (games.pending != -1)
            if ours.any():
                answers = np.where(ours, policy(ours), answers)
        built = np.flatnonzero(games.pending == build)
        if len(built):
            x, won = after(built, answers[built])
            live = won < 0
            recorder.record(built[live], games.pending_player[built][live], x[live])
        games.step(answers)
    return recorder.positions(games.winner)


def self_play_compiled(rules: RuleSet, players: int, games: int, value: ValueNet | None,
                       previous: ValueNet | None, explore: float, seed: int,
                       workers: int = 1, progress: Callable[[int], None] | None = None,
                       town: str = "icons", lineup: tuple = KINDS
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~.training.self_play` on the compiled engine (the module text): the same
    arguments and the same arrays, from other games. Where the code the round plays is
    not compiled yet (:func:`code_compiled`) and ``workers`` share the chunks, the first
    chunk is played in this process first: the code is compiled once (minutes, said on
    standard error), and the workers load it from the cache instead of each compiling it
    at the same time. Raises :class:`~machikoro.errors.CompiledUnsupported` for a rule set
    the compiled engine cannot play (:func:`compiled_refusal` says why beforehand)."""
    jobs = [(rules, players, value, previous, explore, seed, lineup,
             range(start, min(games, start + CHUNK)), town)
            for start in range(0, games, CHUNK)]
    if workers > 1 and len(jobs) > 1 and not code_compiled(strategies=value is not None):
        first = played(_play_chunk, jobs[:1], 1, progress)
        rest = played(_play_chunk, jobs[1:], workers, progress)
        return tuple(np.concatenate(pair) for pair in zip(first, rest))
    return played(_play_chunk, jobs, workers, progress)


def strength_compiled(rules: RuleSet, players: int, value: ValueNet, games: int,
                      seed: int, against: str = "greedy") -> dict:
    """:func:`~.training.strength` on the compiled engine: ``expert`` (these weights)
    against ``players - 1`` copies of ``against`` (an agent the compiled engine plays),
    seats rotated, in one batch; ``{against, games, wins, rate, low, high, engine}``."""
    from ..agents.compiled_policies import CompiledExpert
    from ..compiled.games import CompiledGames
    from .compiled_batch import compiled_policy

    batch = CompiledGames(rules, players, [game_seed(seed, i) for i in range(games)],
                          max_turns=1000)
    batch.seed_agents(np.array([[game_seed(seed, i, s) for s in range(players)]
                                for i in range(games)], dtype=np.int64))
    learner = np.arange(games) % players
    policies = [CompiledExpert(batch, value=value), compiled_policy(against, batch)]
    rows = np.arange(games)
    while (batch.pending != -1).any():
        learning = (learner == batch.pending_player[rows]) & (batch.pending != -1)
        theirs = ~learning & (batch.pending != -1)
        answers = np.zeros(games, dtype=np.int64)
        for policy, ours in zip(policies, (learning, theirs)):
            if ours.any():
                answers = np.where(ours, policy(ours), answers)
        batch.step(answers)
    wins = int((batch.winner == learner).sum())
    low, high = wilson(wins, games)
    return {"against": against, "games": games, "wins": wins, "rate": wins / games,
            "low": low, "high": high, "engine": "vector"}


def compiled_refusal(rules: RuleSet, players: int) -> str | None:
    """Why ``train`` cannot play ``rules`` at ``players`` seats on the compiled engine (its
    tables and greedy's look-ahead, or Numba missing: one line naming the concept,
    :func:`~.compiled_batch.compiled_refusal`), or None. Compiles nothing. A bundled
    strategy it cannot play is left out of the rounds, not refused (:func:`_policies`)."""
    from .compiled_batch import compiled_refusal as refusal

    return refusal(rules, players, ("greedy",))


def code_compiled(strategies: bool = True) -> bool:
    """Whether the compiled code ``train``'s rounds and check play is compiled on this
    machine already (loaded in this process or kept in the compiled engine's cache,
    :func:`~machikoro.compiled.cache.compiled_yet`): the engine, greedy, the expert's
    afterstates and, with ``strategies``, the bundled strategies'. ``train --engine auto``
    plays the compiled engine only then: its first compile takes minutes, more than the
    whole scalar ``train`` of a house rule (docs/agents.md)."""
    from ..compiled import expert, greedy, kernels
    from ..compiled.cache import compiled_yet

    needed = [kernels.run, greedy.answers, expert.afterstates]
    if strategies:
        from ..compiled import strategy

        needed.append(strategy.answers)
    return all(compiled_yet(dispatcher) for dispatcher in needed)
