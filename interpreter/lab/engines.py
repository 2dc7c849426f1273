"""Which engine plays a run's games: the scalar engine (:mod:`machikoro.engine`), one game
at a time, or the batched engine (:mod:`machikoro.vector`), a batch of games at once as
arrays. ``--engine scalar|vector|auto`` of simulate, compare and tournament
(docs/vector.md).

- :func:`choose_engine` resolves ``auto`` (vector when the rule sets and every agent
  compile for the batched engine, else scalar, with the reason) and refuses ``vector``
  where they do not (:class:`~machikoro.errors.VectorUnsupported`, naming the concept).
- :func:`vector_policy` is the one place where an agent name becomes a batched policy
  (:data:`VECTOR_POLICIES`); an agent without one is refused by name.
- :func:`run_piece` plays games ``start..stop-1`` of a :class:`~machikoro.lab.runs.
  RunSpec` with the engine its ``engine`` names: :func:`~machikoro.lab.runs.run_chunk` or
  :func:`run_batch`. The executors call it, so workers and Ray play either engine alike.

Seeds: a batched game's seed and its seats' seeds are those
:func:`~machikoro.lab.runs.game_seeds` gives the scalar game of the same index, and its
dice come from a stream of its own seeded by its game seed, so a game is the same whatever
the batch size and the worker split. They are not the scalar engine's games of the same
seed: the batched engine draws its dice and its random agents' answers from another
generator (:mod:`machikoro.vector.rng`).

The batched engine is imported when a run asks for it (start-up: a scalar run never loads
it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..agents.restricted import split_name
from ..errors import MachikoroError, VectorUnsupported
from ..records import Record
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from .compiled_batch import compiled_ready, compiled_refusal, play_compiled, prepare
from .runs import Interrupted, RunSpec, game_seeds, run_chunk
from .seats import all_agents, lineup
from .summary import GameArrays, Summary

ENGINES = ("scalar", "vector", "auto")
"""The ``--engine`` choices."""

DEFAULT_ENGINE = "scalar"
"""``--engine`` when not given: the scalar engine, so that a command and its ``--seed`` give
the games they gave before the batched engine existed (the README's outputs), and so that
what a command plays does not change when the batched engine learns a new rule or agent
(which would change what ``auto`` picks)."""

BATCH = 20_000
"""Games per batch of the vector engine by default (``--batch``): measured on this machine,
random agents, base set at 2 players, the batched engine plays about 0.2 M turns per CPU
second at 1,000 games a batch, 0.56 M at 5,000, 0.7 M at 10,000, 1.0 M at 20,000 and 1.16 M
at 40,000; a ``simulate`` of one batch of 20,000 games peaked at 0.4 GB with Harbor and
Millionaire's Row at 4 players (docs/vector.md)."""

MAX_BATCH = 100_000
"""The largest ``--batch``: a batch keeps a few KB of state per game and its builds until it
ends; one of 100,000 games of Harbor and Millionaire's Row at 4 players peaked at 1.9 GB."""


def _random(rules: RuleSet, players: int, seat_seeds: np.ndarray):
    from ..vector.policies import RandomPolicy

    return RandomPolicy(seat_seeds)


def _greedy(rules: RuleSet, players: int, seat_seeds: np.ndarray):
    from ..agents.batched import greedy_policy

    return greedy_policy(rules, players, seat_seeds)


def _expert(rules: RuleSet, players: int, seat_seeds: np.ndarray):
    from ..agents.batched import expert_policy

    return expert_policy(rules, players, seat_seeds)


def _strategy(name: str, rules: RuleSet, players: int, seat_seeds: np.ndarray):
    """The batched policy of the strategy agent ``name`` (a bundled strategy or a file),
    or None when ``name`` is no strategy; raises VectorUnsupported for one that does not
    compile to arrays."""
    from ..agents.batched import strategy_policy
    from ..agents.registry import strategy_of

    if name in ("random", "greedy") or name.split(":")[0] == "mcts":
        return None
    strategy = strategy_of(name, rules)
    return None if strategy is None else strategy_policy(strategy, players, seat_seeds)


VECTOR_POLICIES: dict[str, Callable] = {
    "random": _random,
    "greedy": _greedy,
    "expert": _expert,
}
"""Batched policies by agent name: ``make(rules, players, seat_seeds) -> policy`` (a
policy of :mod:`machikoro.vector.policies`: ``policy(batch) -> option per game``;
``seat_seeds`` an ``(N, P)`` int64 array, each seat's agent seed as
:func:`~machikoro.lab.runs.game_seeds` gives it). A maker may raise
:class:`~machikoro.errors.VectorUnsupported` for a rule set it cannot play. An agent given
a batched policy later is one more line here. Strategy files (bundled or by path) get
theirs from :func:`_strategy` (:class:`~machikoro.agents.batched.StrategyPolicy`); ``mcts``
has none (its rollouts are batched elsewhere)."""


def _restrictable(base: str):
    def make(rules: RuleSet, players: int, seat_seeds: np.ndarray, forbidden: tuple):
        from ..agents.batched import ExpertPolicy, GreedyPolicy

        policy = GreedyPolicy if base == "greedy" else ExpertPolicy
        return policy(rules, players, seat_seeds, forbidden=forbidden)
    return make


RESTRICTABLE: dict[str, Callable] = {"greedy": _restrictable("greedy"),
                                     "expert": _restrictable("expert")}
"""The batched policies that take ``forbidden`` cards, for ``NAME!CARD`` (restricted play,
:mod:`machikoro.agents.restricted`): ``make(rules, players, seat_seeds, forbidden)``."""


def vector_policy(name: str, rules: RuleSet, players: int, seat_seeds) -> Callable:
    """The batched policy of agent ``name`` for games of ``rules`` at ``players`` seats,
    each seat of each game seeded by ``seat_seeds`` (``(N, P)`` whole numbers: the seats'
    agent seeds): :data:`VECTOR_POLICIES`, ``NAME!CARD`` of :data:`RESTRICTABLE`, else a
    strategy's. Raises :class:`~machikoro.errors.VectorUnsupported` naming the agent when
    it has no batched policy (or its maker refuses the rule set), and
    :class:`~machikoro.errors.MachikoroError` for a forbidden card that is no
    establishment."""
    base, cards = split_name(name)
    if cards and base in RESTRICTABLE:  # NAME!CARD: the policy, never building those
        try:
            return RESTRICTABLE[base](rules, players, np.asarray(seat_seeds, dtype=np.int64),
                                      forbidden=cards)
        except ValueError as exc:
            raise MachikoroError(f"'{name}': {exc}") from None
    make = VECTOR_POLICIES.get(name)
    if make is None:
        policy = _strategy(name, rules, players, np.asarray(seat_seeds, dtype=np.int64))
        if policy is not None:
            return policy
        shown = Path(name).stem if name.endswith((".yaml", ".yml")) else name
        raise VectorUnsupported(f"the agent '{shown}' (no batched policy)")
    return make(rules, players, np.asarray(seat_seeds, dtype=np.int64))


def vector_refusal(rules: RuleSet, players: int, slots: tuple) -> VectorUnsupported | None:
    """Why the batched engine cannot play ``rules`` at ``players`` seats with the agents
    of ``slots`` (agent names or pools), or None when it can: the NumPy engine's refusal
    (:func:`numpy_refusal`) unless the compiled engine plays them
    (:func:`~.compiled_batch.compiled_refusal`)."""
    refusal = numpy_refusal(rules, players, all_agents(slots))
    if refusal is not None and compiled_refusal(rules, players, all_agents(slots)) is None:
        return None
    return refusal


def numpy_refusal(rules: RuleSet, players: int, agents) -> VectorUnsupported | None:
    """Why the NumPy engine cannot play ``rules`` at ``players`` seats with ``agents``
    (agent names), or None when it can: the rule set's compilation
    (:func:`~machikoro.vector.program.compile_rules`, kept for the games) and each
    agent's batched policy, made for one game."""
    from ..vector.program import compile_rules

    try:
        compile_rules(rules, players)
        for name in agents:
            vector_policy(name, rules, players, np.zeros((1, players), dtype=np.int64))
    except VectorUnsupported as exc:
        return exc
    return None


def on_compiled(rules: RuleSet, players: int, agents) -> bool:
    """Whether the batches of ``rules`` at ``players`` seats with ``agents`` (agent names)
    play the compiled engine: where it can and the NumPy engine cannot; and, where both
    can, when the compiled code is compiled on this machine already (a run does not wait
    minutes for a first compile where the NumPy engine plays at once). It plays faster on
    every bundled case measured but one, greedy on the base set in batches of 20,000
    (docs/vector.md, "Two batched engines"). The games are the same on either."""
    if compiled_refusal(rules, players, agents) is not None:
        return False
    if numpy_refusal(rules, players, agents) is not None:
        return True
    return compiled_ready(agents)


class EngineChoice(Record):
    """The engine for a command's games: ``engine`` (``scalar`` or ``vector``), ``asked``
    (the ``--engine`` given: ``scalar``, ``vector`` or ``auto``) and ``refusal`` (when the
    batched engine was asked for and cannot play the games: why, naming the concept, and
    the rule set when there are several; else None)."""

    engine: str
    asked: str = DEFAULT_ENGINE
    refusal: str | None = None

    @property
    def refused(self) -> bool:
        """``--engine vector`` for games the batched engine cannot play (a usage error)."""
        return self.asked == "vector" and self.engine != "vector"

    @property
    def fallback(self) -> str | None:
        """With ``--engine auto`` and the scalar engine: why not the batched one."""
        return self.refusal if self.asked == "auto" else None


def choose_engine(asked: str, cases: list, slots: tuple) -> EngineChoice:
    """The engine for ``asked`` (``scalar``, ``vector``, ``auto``) and the games of
    ``cases``: ``(label, rules, players)`` each, label None when there is one rule set
    (else the refusal names it); ``slots`` the agents of the seats. ``vector`` and
    ``auto``: the batched engine when every case compiles for it (rule set and agents),
    else the scalar engine with the first refusal (:attr:`EngineChoice.refused` for
    ``vector``: the caller refuses it). Raises ValueError for an unknown engine."""
    if asked not in ENGINES:
        raise ValueError(f"unknown engine '{asked}' (expected {', '.join(ENGINES)})")
    if asked == "scalar":
        return EngineChoice("scalar", asked)
    for label, rules, players in cases:
        refusal = vector_refusal(rules, players, slots)
        if refusal is not None:
            reason = str(refusal) if label is None else f"rule set {label}: {refusal}"
            return EngineChoice("scalar", asked, reason)
    for _, rules, players in cases:
        prepare_batches(rules, players, slots)
    return EngineChoice("vector", asked)


def prepare_batches(rules: RuleSet, players: int, slots: tuple) -> None:
    """Where the compiled engine plays the batches of ``rules`` at ``players`` seats with
    the agents of ``slots``, compile or load its code in this process
    (:func:`~.compiled_batch.prepare`), before any worker is forked from it: the first
    compile is made once, not by every worker."""
    agents = all_agents(slots)
    if on_compiled(rules, players, agents):
        prepare(rules, players, agents)


def batch_size(batch: int | None, games: int, workers: int) -> int:
    """Games per batch: ``batch`` (``--batch``; None: :data:`BATCH`), but no more than an
    equal share of ``games`` per worker, so that every worker has a batch to play (the
    games are the same whatever the batch size)."""
    share = -(-games // max(workers, 1))
    return max(1, min(batch or BATCH, share))


def run_piece(spec: RunSpec, start: int, stop: int) -> tuple[Summary, list | None]:
    """Play games ``start..stop-1`` of ``spec`` with the engine ``spec.engine`` names:
    their :class:`~machikoro.lab.summary.Summary`, and their records when
    ``spec.records``. Top-level, so worker processes and Ray can run it."""
    if spec.engine == "vector":
        return run_batch(spec, start, stop)
    return run_chunk(spec, start, stop)


def play(batch, policy) -> None:
    """Play ``batch`` with ``policy`` until every game is over, each decision answered as
    it arises (:meth:`~machikoro.vector.engine.VectorGames.run`: the same games as
    stepping)."""
    batch.run(policy)


def run_batch(spec: RunSpec, start: int, stop: int) -> tuple[Summary, list | None]:
    """Play games ``start..stop-1`` of ``spec`` as one batch of the batched engine (the
    NumPy engine, or the compiled one where only it plays the run: :func:`on_compiled`;
    the same games either way): their
    :class:`~machikoro.lab.summary.Summary` (filled from the batch's arrays:
    :meth:`~machikoro.lab.summary.Summary.add_batch`) and, when ``spec.records``, one
    record per game with the fields of :func:`~machikoro.lab.runs.play_game`'s (``engine``
    ``vector``). Ctrl-C while the batch plays raises :class:`~machikoro.lab.runs.
    Interrupted` with no game: a batch counts whole or not at all (its games finished
    first are its shortest ones: keeping them would bias the statistics)."""
    rules = cached_ruleset(spec.variant)
    players = spec.players
    seeds = np.array(game_seeds(spec.seed, start, stop, players), dtype=np.int64)
    agents = all_agents(spec.agents)
    index = {name: k for k, name in enumerate(agents)}
    lineups = [lineup(spec.agents, spec.seats, spec.seed, i) for i in range(start, stop)]
    seated = np.array([[index[name] for name in row] for row in lineups], dtype=np.int64)
    summary = Summary(players, spec.agents)
    try:
        if on_compiled(rules, players, agents):
            from ..compiled.games import CompiledGames

            batch = CompiledGames(rules, players, seeds[:, 0], max_turns=spec.max_turns,
                                  keep_builds=True)
            play_compiled(batch, agents, seated, seeds[:, 1:])
            batch.builds = batch.take_builds()
        else:
            batch = _numpy_batch(rules, players, seeds, agents, seated, spec.max_turns)
    except KeyboardInterrupt:
        raise Interrupted(summary, [] if spec.records else None) from None
    games = batch_arrays(batch, seated, agents)
    summary.add_batch(games, rules.ids, rules.victory)
    records = None
    if spec.records:
        records = batch_records(games, rules.ids, start, seeds[:, 0], lineups, spec.builds)
    return summary, records


def _numpy_batch(rules: RuleSet, players: int, seeds: np.ndarray, agents: tuple,
                 seated: np.ndarray, max_turns: int | None):
    """A batch of the NumPy engine (:class:`~machikoro.vector.engine.VectorGames`,
    keeping its builds) played to its end with the agents' batched policies: the games of
    ``seeds`` (``(N, 1 + P)``: each game's seed, then its seats' agent seeds)."""
    from ..vector.engine import VectorGames
    from ..vector.policies import SeatPolicies

    policies = [vector_policy(name, rules, players, seeds[:, 1:]) for name in agents]
    policy = policies[0] if len(policies) == 1 else SeatPolicies(policies, seated)
    batch = VectorGames(rules, players, seeds[:, 0].tolist(), max_turns=max_turns,
                        keep_builds=True)
    play(batch, policy)
    return batch


def batch_arrays(batch, seated: np.ndarray, names: tuple) -> GameArrays:
    """A finished batch's games (a :class:`~machikoro.vector.engine.VectorGames` or a
    :class:`~machikoro.compiled.games.CompiledGames` that kept its builds) as :class:`~machikoro.lab.summary.GameArrays`: winner, turns and rounds as
    :func:`~machikoro.lab.runs.play_game` counts them (``turns`` the turns played, the
    winning one included; ``rounds`` the rounds begun, extra turns not counted, an extra
    turn granted by the last turn of a capped game never begun), and its builds in order,
    in small integer types (11 bytes a build instead of the batch's 32: a batch of 100,000
    games of Harbor and Millionaire's Row at 4 players makes some 23 million builds). The
    batch's own list of builds is let go."""
    players = batch.players
    winner = batch.winner.astype(np.int64)
    won = winner >= 0
    turns = (batch.turn if hasattr(batch, "turn") else batch.turns).astype(np.int64)
    extra = batch.extra_turns.astype(np.int64) - (~won & batch.extra_turn.astype(bool))
    rounds = np.maximum(1, -(-(turns - extra) // players))
    steps, batch.builds = batch.builds or [], None
    kinds = (_index_type(batch.n), _index_type(int(turns.max(initial=0)) + 1), np.int8,
             _index_type(len(batch.rules.ids)))
    parts = [np.concatenate([step[k] for step in steps]).astype(kind, copy=False)
             if steps else np.zeros(0, dtype=kind) for k, kind in enumerate(kinds)]
    return GameArrays(winner, turns, rounds, seated, tuple(names), *parts)


def _index_type(bound: int):
    """The smallest signed integer type that holds ``0..bound``."""
    for kind in (np.int16, np.int32):
        if bound <= np.iinfo(kind).max:
            return kind
    return np.int64


class BatchRecords:
    """The records of a batch's games, made one at a time as they are read (a batch's
    records as Python values would take far more memory than its arrays, and they travel
    from a worker as arrays): ``len()``, and iteration in game order, each a dict with the
    fields of :func:`~machikoro.lab.runs.play_game`'s records, ``engine`` ``vector``;
    ``builds`` as ``(turn, seat, card id)`` in build order, left out unless ``builds``.
    ``games`` is game ``start + k`` in row ``k``, ``seeds`` the game seeds, ``lineups``
    the agent names of each game's seats, ``ids`` the rule set's card ids."""

    def __init__(self, games: GameArrays, ids: tuple, start: int, seeds: np.ndarray,
                 lineups: list, builds: bool = True):
        self.games, self.ids, self.start = games, tuple(ids), start
        self.seeds, self.lineups, self.builds = np.asarray(seeds), list(lineups), builds

    def __len__(self) -> int:
        return len(self.games.winner)

    def __iter__(self):
        games, ids = self.games, self.ids
        winner, turns = games.winner.tolist(), games.turns.tolist()
        rounds, seeds = games.rounds.tolist(), self.seeds.tolist()
        if self.builds:
            order = np.argsort(games.build_game, kind="stable")  # per game, in build order
            ends = np.cumsum(np.bincount(games.build_game, minlength=len(self))).tolist()
            turn, seat = games.build_turn[order], games.build_seat[order]
            card = games.build_card[order]
        begin = 0
        for k in range(len(self)):
            record = {"game": self.start + k, "seed": seeds[k],
                      "agents": list(self.lineups[k]),
                      "winner": winner[k] if winner[k] >= 0 else None, "turns": turns[k],
                      "rounds": rounds[k], "capped": winner[k] < 0, "engine": "vector"}
            if self.builds:
                end = ends[k]
                record["builds"] = list(zip(turn[begin:end].tolist(),
                                            seat[begin:end].tolist(),
                                            [ids[c] for c in card[begin:end].tolist()]))
                begin = end
            yield record


def batch_records(games: GameArrays, ids: tuple, start: int, seeds: np.ndarray,
                  lineups: list, builds: bool = True) -> BatchRecords:
    """The records of a batch's games (:class:`BatchRecords`: made as they are read)."""
    return BatchRecords(games, ids, start, seeds, lineups, builds)
