"""Playing many games: seeds, batches, workers, executors and streaming statistics.

Every game's seed derives from the run's seed and the game's index through NumPy's
``SeedSequence`` (:func:`game_seed`), so a game is the same whichever worker plays it and
however the games are split: results do not depend on ``workers`` or the executor.
Games are played in chunks; each chunk returns a :class:`Summary` (constant size: counts
and histograms, never a list of games) and, only when asked, the per-game records, so
memory does not grow with the number of games.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .agents import agent_factory
from .game import Game
from .ruleset import RuleSet, load_ruleset


def game_seed(seed: int, index: int, seat: int = -1) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (``seat >= 0``: that seat's
    agent's seed), from ``numpy.random.SeedSequence(seed, spawn_key=(index, seat + 1))``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(index, seat + 1))
    return int(sequence.generate_state(1, dtype=np.uint64)[0] >> 1)


@dataclass(frozen=True)
class RunSpec:
    """What to play: ``variant`` (None for the base set, else a path as text), ``players``,
    ``agents`` (one agent name per seat), ``seed``, ``max_turns`` (the turn cap), and
    ``records`` (also return one record per game)."""

    variant: str | None
    players: int
    agents: tuple
    seed: int
    max_turns: int = 1000
    records: bool = False


_rules_cache: dict = {}


def _rules(variant: str | None) -> RuleSet:
    if variant not in _rules_cache:
        _rules_cache[variant] = load_ruleset(variant)
    return _rules_cache[variant]


def play_game(rules: RuleSet, spec: RunSpec, index: int, factories: list) -> dict:
    """Play game ``index`` of ``spec``; return its record: ``game``, ``seed``, ``winner``
    (seat or None), ``turns``, ``rounds`` (rounds begun, extra turns not counted),
    ``capped`` (the turn cap ended it) and ``builds`` (``[turn, seat, card id]`` per
    build, turns numbered from 1)."""
    seed = game_seed(spec.seed, index)
    game = Game(rules, spec.players, seed=seed, max_turns=spec.max_turns)
    agents = [make(game_seed(spec.seed, index, seat)).choose
              for seat, make in enumerate(factories)]
    builds: list = []
    decision = game.decision
    answer = game.answer
    while True:
        d = decision()
        if d is None:
            break
        choice = agents[d.player](game, d)
        if choice is not None and d.name == "build" and d.card is None:
            builds.append([game.turn + 1, d.player, choice])
        answer(choice)
    normal = game.turn - game.extra_turns
    return {"game": index, "seed": seed, "winner": game.winner, "turns": game.turn,
            "rounds": max(1, math.ceil(normal / spec.players)),
            "capped": game.winner is None, "builds": builds}


class Summary:
    """Statistics of a set of games, built by :meth:`add` and combined with :meth:`merge`;
    constant size whatever the number of games.

    ``wins[seat]``; ``turns`` and ``rounds`` are histograms (Counter: length -> games);
    per card id: ``built`` (copies built), ``builders`` (player-games that built it at
    least once), ``first_turn_sum`` (sum of the turn of the first copy), ``builder_wins``;
    ``landmark_rank[id][k]``: player-games that completed it as their (k+1)-th landmark.
    """

    def __init__(self, players: int, agents: tuple):
        self.players = players
        self.agents = tuple(agents)
        self.games = 0
        self.capped = 0
        self.wins = [0] * players
        self.turns: Counter = Counter()
        self.rounds: Counter = Counter()
        self.built: Counter = Counter()
        self.builders: Counter = Counter()
        self.first_turn_sum: Counter = Counter()
        self.builder_wins: Counter = Counter()
        self.landmark_rank: dict = {}

    def add(self, record: dict, landmarks: frozenset) -> None:
        """Count one game record (see :func:`play_game`); ``landmarks`` are landmark ids."""
        self.games += 1
        winner = record["winner"]
        if winner is None:
            self.capped += 1
        else:
            self.wins[winner] += 1
        self.turns[record["turns"]] += 1
        self.rounds[record["rounds"]] += 1
        first: dict = {}
        order: dict = {}
        for turn, seat, card in record["builds"]:
            self.built[card] += 1
            if (seat, card) not in first:
                first[seat, card] = turn
            if card in landmarks:
                order.setdefault(seat, []).append(card)
        for (seat, card), turn in first.items():
            self.builders[card] += 1
            self.first_turn_sum[card] += turn
            if seat == winner:
                self.builder_wins[card] += 1
        for seat, cards in order.items():
            for rank, card in enumerate(cards):
                self.landmark_rank.setdefault(card, Counter())[rank] += 1

    def merge(self, other: Summary) -> None:
        """Add another summary of games of the same run."""
        self.games += other.games
        self.capped += other.capped
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        for name in ("turns", "rounds", "built", "builders", "first_turn_sum",
                     "builder_wins"):
            getattr(self, name).update(getattr(other, name))
        for card, ranks in other.landmark_rank.items():
            self.landmark_rank.setdefault(card, Counter()).update(ranks)


def run_chunk(spec: RunSpec, start: int, stop: int) -> tuple[Summary, list | None]:
    """Play games ``start``..``stop - 1`` of ``spec``: their :class:`Summary`, and their
    records when ``spec.records``. Top-level, so worker processes and Ray can run it."""
    rules = _rules(spec.variant)
    factories = [agent_factory(name, rules) for name in spec.agents]
    landmarks = frozenset(rules.ids[i] for i in rules.landmarks)
    summary = Summary(spec.players, spec.agents)
    records = [] if spec.records else None
    for index in range(start, stop):
        record = play_game(rules, spec, index, factories)
        summary.add(record, landmarks)
        if records is not None:
            records.append(record)
    return summary, records


def chunks(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """``[(a, b), ...]`` covering ``start``..``stop`` in pieces of ``size`` games."""
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def _ignore_interrupts() -> None:
    # workers leave Ctrl-C to the main process, which stops them and reports
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _star(job: tuple) -> tuple:
    return run_chunk(*job)


@dataclass
class Executor:
    """Runs chunks of games: ``kind`` is ``local`` (``workers`` processes; 1 = in this
    process) or ``ray`` (a Ray cluster at ``RAY_ADDRESS``, or a local Ray started here).
    Use it as a context manager; :meth:`map` yields results in chunk order."""

    kind: str = "local"
    workers: int = 1
    _pool: Any = field(default=None, repr=False)

    def __enter__(self) -> Executor:  # noqa: PYI034 - a plain class, no subclasses
        if self.kind == "ray":
            try:
                import ray
            except ImportError:
                raise RuntimeError("the ray executor needs Ray: "
                                   "pip install 'machikoro[cluster]'") from None
            if not ray.is_initialized():
                ray.init(ignore_reinit_error=True, log_to_driver=False,
                         include_dashboard=False, logging_level="ERROR",
                         configure_logging=True)
            self._pool = ray.remote(_star)
        elif self.workers > 1:
            import multiprocessing

            context = multiprocessing.get_context("fork" if hasattr(__import__("os"), "fork")
                                                  else "spawn")
            self._pool = context.Pool(self.workers, initializer=_ignore_interrupts)
        return self

    def abort(self) -> None:
        """Stop the workers now (after Ctrl-C); unfinished chunks are dropped."""
        if self.kind == "local" and self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        elif self.kind == "ray":
            self._pool = None

    def __exit__(self, *exc) -> None:
        if self.kind == "local" and self._pool is not None:
            if exc[0] is not None:
                self._pool.terminate()
            else:
                self._pool.close()
            self._pool.join()
        self._pool = None

    def map(self, spec: RunSpec, pieces: Iterable[tuple[int, int]]) -> Iterator[tuple]:
        jobs = [(spec, a, b) for a, b in pieces]
        if self.kind == "ray":
            import ray

            remote = self._pool
            futures = [remote.remote(job) for job in jobs]
            for future in futures:
                yield ray.get(future)
        elif self._pool is not None:
            yield from self._pool.imap(_star, jobs)
        else:
            for job in jobs:
                yield _star(job)


def wilson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (scipy's ``binomtest``); (0, 1) for no
    trials."""
    if trials <= 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest

    ci = binomtest(successes, trials).proportion_ci(confidence_level=level, method="wilson")
    return (float(ci.low), float(ci.high))


def histogram_stats(hist: Counter) -> dict:
    """Mean, median, 10th and 90th percentile of a histogram (value -> count)."""
    if not hist:
        return {"mean": None, "median": None, "p10": None, "p90": None}
    values = np.repeat(np.fromiter(hist.keys(), dtype=np.int64, count=len(hist)),
                       np.fromiter(hist.values(), dtype=np.int64, count=len(hist)))
    p10, median, p90 = np.percentile(values, [10, 50, 90])
    return {"mean": float(values.mean()), "median": float(median), "p10": float(p10),
            "p90": float(p90)}
