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
import signal
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
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
    # game.turn counts the turns played, the winning one included; an extra turn granted
    # by the last turn of a capped game was counted in extra_turns but never begun
    won = game.winner is not None
    turns = game.turn
    extra = game.extra_turns - (not won and game.extra_turn)
    return {"game": index, "seed": seed, "winner": game.winner, "turns": turns,
            "rounds": max(1, math.ceil((turns - extra) / spec.players)),
            "capped": not won, "builds": builds}


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
    try:
        for index in range(start, stop):
            record = play_game(rules, spec, index, factories)
            with deferred_interrupts():
                summary.add(record, landmarks)
                if records is not None:
                    records.append(record)
    except KeyboardInterrupt:
        # only in the main process (workers ignore Ctrl-C): keep the games finished
        raise Interrupted(summary, records) from None
    return summary, records


class Interrupted(KeyboardInterrupt):
    """Ctrl-C inside :func:`run_chunk`: ``partial`` is ``(summary, records)`` of the
    chunk's games finished before it."""

    def __init__(self, summary: Summary, records: list | None):
        super().__init__()
        self.partial = (summary, records)


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Ctrl-C during the block waits for its end, then raises :class:`KeyboardInterrupt`:
    the bookkeeping of finished games (counts, records, lines written) is all or nothing.
    Only in the main thread (elsewhere a plain block); a process ignoring Ctrl-C still
    ignores it."""
    received: list = []
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: received.append(True))
    except ValueError:  # not the main thread: signals cannot be handled here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received and previous is signal.default_int_handler:
            raise KeyboardInterrupt
        if received and callable(previous):
            previous(signal.SIGINT, None)


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
    _futures: list = field(default_factory=list, repr=False)

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
            import ray

            for future in self._futures:
                ray.cancel(future, force=True)
            self._futures = []

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:
            self.abort()
        elif self.kind == "local" and self._pool is not None:
            self._pool.close()
            self._pool.join()
        self._pool = None

    def map(self, spec: RunSpec, pieces: Iterable[tuple[int, int]]) -> Iterator[tuple]:
        """Run ``spec``'s games in each ``(start, stop)`` piece; yields ``run_chunk``'s
        results in piece order."""
        return self.run((spec, a, b) for a, b in pieces)

    def run(self, jobs: Iterable[tuple]) -> Iterator[tuple]:
        """Run ``(spec, start, stop)`` jobs (specs may differ, as in a comparison); yields
        ``run_chunk``'s results in job order. Results finished ahead of an earlier job wait
        in memory, so jobs should be of a similar size (chunks); on Ray at most two jobs per
        CPU are in flight, so the object store does not fill with a long run's results."""
        if self.kind == "ray":
            yield from self._run_ray(jobs)
        elif self._pool is not None:
            yield from self._run_pool(jobs)
        else:
            for job in jobs:
                yield _star(job)

    def _run_pool(self, jobs: Iterable[tuple]) -> Iterator[tuple]:
        # a few jobs in flight, not all of them: the pool's task pipe never fills, so
        # stopping the pool (Ctrl-C) can never wait on a blocked task-feeding thread
        window = 2 * self.workers
        pending: deque = deque()
        for job in jobs:
            pending.append(self._pool.apply_async(_star, (job,)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()

    def _run_ray(self, jobs: Iterable[tuple]) -> Iterator[tuple]:
        import ray

        window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        self._futures = []
        for job in jobs:
            self._futures.append(self._pool.remote(job))
            if len(self._futures) >= window:
                yield ray.get(self._futures.pop(0))
        while self._futures:
            yield ray.get(self._futures.pop(0))


def wilson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (scipy's ``binomtest``); (0, 1) for no
    trials."""
    if trials <= 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest

    ci = binomtest(successes, trials).proportion_ci(confidence_level=level, method="wilson")
    return (float(ci.low), float(ci.high))


def histogram_stats(hist: Counter) -> dict:
    """Mean, median, 10th and 90th percentile of a histogram (value -> count), as
    ``numpy.percentile`` (linear interpolation) gives them for the expanded values, but
    computed on the histogram: memory stays the number of distinct values."""
    counts = {value: n for value, n in hist.items() if n > 0}
    if not counts:
        return {"mean": None, "median": None, "p10": None, "p90": None}
    values = np.array(sorted(counts), dtype=np.float64)
    weights = np.array([counts[v] for v in sorted(counts)], dtype=np.int64)
    ends = np.cumsum(weights)  # the sorted expansion holds values[j] at ends[j-1]..ends[j]-1
    total = int(ends[-1])

    def at(k: int) -> float:
        return float(values[np.searchsorted(ends, k, side="right")])

    def percentile(q: float) -> float:
        position = q / 100 * (total - 1)
        low = math.floor(position)
        a, b = at(low), at(min(low + 1, total - 1))
        return a + (b - a) * (position - low)

    return {"mean": float((values * weights).sum() / total), "median": percentile(50),
            "p10": percentile(10), "p90": percentile(90)}
