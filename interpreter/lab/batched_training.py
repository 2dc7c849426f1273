"""Self-play and the strength check of ``machikoro train`` on the batched engine
(:mod:`machikoro.vector`): the same rounds as :mod:`.training`'s, many games at once.

A round's games are played in chunks of :data:`CHUNK` games, each chunk one batch: the
seats of game ``i`` are those :func:`~.training._lineup` gives it (the learning agent at
seat ``i mod players``, the others by :data:`~.training.KINDS`), as batched policies:
:class:`~machikoro.agents.batched.ExpertPolicy` (or greedy's, in the first round) for the
learning agent and the previous round's weights, greedy's, and the bundled strategies'
(:class:`~machikoro.agents.batched.StrategyPolicy`; one that does not compile for the
batched engine is left out). :class:`Exploring` answers a share of their builds at random,
as the scalar :class:`~.training.Exploring` does. After every build decision the position
just after the answer, seen by its builder, is recorded
(:func:`~machikoro.agents.batched.expert_policy.afterstates`: the features the scalar
afterstate would give); a game cut at :data:`~.training.MAX_TURNS` gives nothing.

The games are not the scalar engine's games of the same seeds (the batched engine rolls
its own dice, :mod:`machikoro.lab.engines`), and the exploration draws come from one
generator per chunk and seat kind: a run is reproducible from its seed, whatever the
number of workers. :func:`batched_refusal` says why a rule set is left to the scalar
engine (``train --engine auto``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..agents.batched.expert_policy import afterstates
from ..agents.features import features_of_town
from ..agents.value import ValueNet
from ..errors import MachikoroError, VectorUnsupported
from ..rules.ruleset import RuleSet
from ..vector.program import Program
from .runs import game_seed
from .statistics import wilson
from .training import KINDS, MAX_TURNS, played

CHUNK = 500
"""Games per batch of a round (a worker's unit, and the progress bar's step)."""


class Exploring:
    """A batched ``policy`` whose build decisions with several options are answered
    uniformly at random ``share`` of the time (draws from a generator seeded ``seed``)."""

    takes_only = True

    def __init__(self, policy, share: float, seed: int):
        self.policy, self.share = policy, share
        self.rng = np.random.default_rng(seed)

    def __call__(self, batch, only=None) -> np.ndarray:
        options = self.policy(batch, only)
        build = batch.decisions().get(Program.BUILD)
        if build is None or not self.share:
            return options
        rows = np.arange(len(build.games))
        if only is not None:
            rows = rows[only[build.games]]
        rows = rows[build.counts[rows] > 1]
        picked = rows[self.rng.random(len(rows)) < self.share]
        options[build.games[picked]] = (self.rng.random(len(picked))
                                        * build.counts[picked]).astype(np.int64)
        return options


class Recorder:
    """``policy`` (answering every game of a batch), recording after every build decision
    the position just after its answer, seen by its builder (``features``): per position
    ``games`` (the game's index in the batch), ``seats`` and ``rows`` (features)."""

    def __init__(self, policy, features):
        self.policy, self.features = policy, features
        self.games: list = []
        self.seats: list = []
        self.rows: list = []

    def __call__(self, batch) -> np.ndarray:
        options = self.policy(batch)
        build = batch.decisions().get(Program.BUILD)
        if build is not None and len(build.games):
            games = build.games
            seat = batch.pending_player[games]
            x, winner = afterstates(batch, games, build.slots_of(options[games]), seat,
                                    self.features)
            live = winner < 0
            self.games.append(batch.ids[games][live])
            self.seats.append(seat[live])
            self.rows.append(x[live])
        return options

    def positions(self, winner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(positions x features, labels, steps)`` as :func:`~.training.self_play`
        returns them, game by game in index order, given each game's ``winner`` (-1: cut
        at the turn limit, left out)."""
        size = self.features.size
        if not self.games:
            return np.zeros((0, size), np.float32), np.zeros(0, np.int8), np.zeros(0, np.int64)
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


def _policies(rules: RuleSet, players: int, value: ValueNet | None,
              previous: ValueNet | None, explore: float, seat_seeds: np.ndarray,
              seed: int) -> list:
    """The batched policies a chunk's seats are drawn from: the learner, greedy, the
    previous weights (each exploring), then each bundled strategy that plays ``rules``."""
    from ..agents.batched import ExpertPolicy, GreedyPolicy, strategy_policy
    from ..agents.registry import strategy_of
    from ..agents.strategy_files import bundled_strategies

    def learner(net):
        return GreedyPolicy(rules, players, seat_seeds) if net is None else \
            ExpertPolicy(rules, players, seat_seeds, value=net)

    policies = [Exploring(learner(value), explore, seed * 8 + 1),
                Exploring(GreedyPolicy(rules, players, seat_seeds), explore, seed * 8 + 2),
                Exploring(learner(previous or value), explore, seed * 8 + 3)]
    if value is not None:
        for name in bundled_strategies():
            try:
                policies.append(strategy_policy(strategy_of(name, rules), players,
                                                seat_seeds))
            except (MachikoroError, ValueError):  # (VectorUnsupported included)
                continue
    return policies


def _seating(lineup: tuple, strategies: int, players: int, indices: range,
             learning: bool) -> np.ndarray:
    """``(games, players)``: each seat's policy index (:func:`_policies`' order) in the
    games of ``indices``, as :func:`~.training._lineup` seats them for ``lineup``."""
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


def _play_chunk(job: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from ..vector.engine import VectorGames
    from ..vector.policies import SeatPolicies

    rules, players, value, previous, explore, seed, lineup, indices, town = job
    seat_seeds = np.array([[game_seed(seed, i, s) for s in range(players)]
                           for i in indices], dtype=np.int64)
    policies = _policies(rules, players, value, previous, explore, seat_seeds,
                         seed * 100_003 + indices[0])
    seats = _seating(lineup, len(policies) - 3, players, indices, value is not None)
    recorder = Recorder(SeatPolicies(policies, seats), features_of_town(rules, players, town))
    batch = VectorGames(rules, players, [game_seed(seed, i) for i in indices],
                        max_turns=MAX_TURNS)
    batch.run(recorder)
    return recorder.positions(batch.winner)


def self_play_batched(rules: RuleSet, players: int, games: int, value: ValueNet | None,
                      previous: ValueNet | None, explore: float, seed: int,
                      workers: int = 1, progress: Callable[[int], None] | None = None,
                      town: str = "icons", lineup: tuple = KINDS
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~.training.self_play` on the batched engine (the module text): the same
    arguments and the same arrays, from other games. Raises
    :class:`~machikoro.errors.VectorUnsupported` for a rule set the batched policies
    cannot play (:func:`batched_refusal`)."""
    jobs = [(rules, players, value, previous, explore, seed, lineup,
             range(start, min(games, start + CHUNK)), town)
            for start in range(0, games, CHUNK)]
    return played(_play_chunk, jobs, workers, progress)


def batched_refusal(rules: RuleSet, players: int) -> VectorUnsupported | None:
    """Why ``train`` cannot play ``rules`` at ``players`` seats on the batched engine
    (the rule set's compilation, greedy's batched policy, the expert's afterstates), or
    None when it can."""
    from ..agents.batched import GreedyPolicy
    from ..agents.batched.expert_policy import before_roll_refusal
    from ..vector.program import compile_rules

    try:
        program = compile_rules(rules, players)
        GreedyPolicy(rules, players, np.zeros((1, players), dtype=np.int64))
        refusal = before_roll_refusal(program)
        if refusal is not None:
            raise refusal
    except VectorUnsupported as exc:
        return exc
    return None


def strength_batched(rules: RuleSet, players: int, value: ValueNet, games: int,
                     seed: int, against: str = "greedy") -> dict:
    """:func:`~.training.strength` on the batched engine: ``expert`` (these weights)
    against ``players - 1`` copies of ``against`` (an agent with a batched policy), seats
    rotated, in one batch; ``{against, games, wins, rate, low, high}``."""
    from ..agents.batched import ExpertPolicy
    from ..vector.engine import VectorGames
    from ..vector.policies import SeatPolicies
    from .engines import vector_policy

    seat_seeds = np.array([[game_seed(seed, i, s) for s in range(players)]
                           for i in range(games)], dtype=np.int64)
    learner = np.arange(games) % players
    seats = (np.arange(players)[None, :] != learner[:, None]).astype(np.int64)
    policy = SeatPolicies([ExpertPolicy(rules, players, seat_seeds, value=value),
                           vector_policy(against, rules, players, seat_seeds)], seats)
    batch = VectorGames(rules, players, [game_seed(seed, i) for i in range(games)],
                        max_turns=1000)
    batch.run(policy)
    wins = int((batch.winner == learner).sum())
    low, high = wilson(wins, games)
    return {"against": against, "games": games, "wins": wins, "rate": wins / games,
            "low": low, "high": high, "engine": "vector"}
