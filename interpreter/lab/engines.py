"""Which engine plays a run's games: the scalar engine (:mod:`machikoro.engine`), one game
at a time, or the batched engine, a batch of games at once: the compiled engine
(:mod:`machikoro.compiled`: per-game code in the scalar engine's shape, compiled with
Numba; issue 35, one batched engine). ``--engine scalar|vector|auto`` of simulate,
compare, tournament and balance (docs/vector.md).

- :func:`choose_engine` resolves the option. ``vector`` is the compiled engine; where it
  cannot play the run (:func:`vector_refusal`: an agent with no compiled policy such as
  ``mcts``, a rule-set concept it cannot encode, Numba not installed) the command refuses
  with that one-line reason. ``auto`` is the compiled engine wherever it can play the
  run, compiling its code the first time on this machine (minutes; the compile says so
  on standard error), so that the games a command gives never depend on whether a cache
  exists; else the scalar engine, with the reason.
- :func:`run_piece` plays games ``start..stop-1`` of a :class:`~machikoro.lab.runs.
  RunSpec` with the engine its ``engine`` names: :func:`~machikoro.lab.runs.run_chunk` or
  :func:`run_batch`. The executors call it, so workers and Ray play either engine alike.

Seeds: a batched game's seed and its seats' seeds are those
:func:`~machikoro.lab.runs.game_seeds` gives the scalar game of the same index, and its
dice come from a stream of its own seeded by its game seed, so a game is the same whatever
the batch size and the worker split. They are not the scalar engine's games of the same
seed: the batched engine draws its dice and its random agents' answers from another
generator (counter-based streams, :func:`machikoro.compiled.kernels.stream_keys`).

The compiled engine is imported when a run asks for it (start-up: a scalar run never
loads Numba).
"""

from __future__ import annotations

import numpy as np

from ..records import Record
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from .compiled_batch import compiled_refusal, play_compiled, prepare
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
"""Games per batch of the batched engine by default (``--batch``). The compiled engine
plays each game in a loop of its own, so the batch size matters little for its speed:
random seats play whole games inside the compiled code, and other agents' batches are
stepped from Python once per decision of the batch, a cost shared by its games, so only
small batches of such agents pay for it. Measured once on the shared 2-core machine, CPU
of the whole ``simulate`` command, base set at 2 players: random, 20,000 games, 1.9 s in
batches of 1,000 and 2.6 s in one of 20,000; greedy, 2,000 games, 2.6 s in batches of 200
and 1.8 s in one of 2,000. A batch is also the unit that workers share (:func:`batch_size`
gives each worker a share) and that Ctrl-C drops whole; its state is about 4 KB a game
(the base set at 2 players) to 19 KB (Harbor and Millionaire's Row at 4 players, its log
of builds included): 0.1-0.4 GB for a batch of 20,000."""

MAX_BATCH = 100_000
"""The largest ``--batch``: a batch keeps its state and every build until it ends; one of
100,000 games of Harbor and Millionaire's Row at 4 players holds some 1.9 GB of state and
23 million builds."""


def vector_refusal(rules: RuleSet, players: int, slots: tuple) -> str | None:
    """Why the batched engine (the compiled one) cannot play ``rules`` at ``players``
    seats with the agents of ``slots`` (agent names or pools), as one line naming the
    agent, the rule-set concept or the missing compiler; None when it can
    (:func:`~.compiled_batch.compiled_refusal`). Compiles nothing."""
    return compiled_refusal(rules, players, all_agents(slots))


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
    ``auto``: the batched engine when it plays every case (:func:`vector_refusal` is
    None), its code then compiled or loaded in this process (:func:`prepare_batches`: a
    first compile takes minutes, once per machine); else the scalar engine with the first
    refusal (:attr:`EngineChoice.refused` for ``vector``: the caller refuses it). Raises
    ValueError for an unknown engine."""
    if asked not in ENGINES:
        raise ValueError(f"unknown engine '{asked}' (expected {', '.join(ENGINES)})")
    if asked == "scalar":
        return EngineChoice("scalar", asked)
    for label, rules, players in cases:
        refusal = vector_refusal(rules, players, slots)
        if refusal is not None:
            reason = refusal if label is None else f"rule set {label}: {refusal}"
            return EngineChoice("scalar", asked, reason)
    for _, rules, players in cases:
        prepare_batches(rules, players, slots)
    return EngineChoice("vector", asked)


def prepare_batches(rules: RuleSet, players: int, slots: tuple) -> None:
    """Compile or load the compiled code that the batches of ``rules`` at ``players`` seats
    with the agents of ``slots`` play, in this process (:func:`~.compiled_batch.prepare`),
    before any worker is forked from it: the first compile on a machine (minutes, said on
    standard error) is made once, not by every worker. ``slots`` must be playable there
    (:func:`vector_refusal` None)."""
    prepare(rules, players, all_agents(slots))


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


def run_batch(spec: RunSpec, start: int, stop: int) -> tuple[Summary, list | None]:
    """Play games ``start..stop-1`` of ``spec`` as one batch of the compiled engine
    (:class:`~machikoro.compiled.games.CompiledGames`, played to its end by
    :func:`~.compiled_batch.play_compiled`): their
    :class:`~machikoro.lab.summary.Summary` (filled from the batch's arrays:
    :meth:`~machikoro.lab.summary.Summary.add_batch`) and, when ``spec.records``, one
    record per game with the fields of :func:`~machikoro.lab.runs.play_game`'s (``engine``
    ``vector``). Ctrl-C while the batch plays raises :class:`~machikoro.lab.runs.
    Interrupted` with no game: a batch counts whole or not at all (its games finished
    first are its shortest ones: keeping them would bias the statistics). Raises
    :class:`~machikoro.errors.CompiledUnsupported` for a run the compiled engine cannot
    play (:func:`vector_refusal` says so before any game)."""
    from ..compiled.games import CompiledGames

    rules = cached_ruleset(spec.variant)
    players = spec.players
    seeds = np.array(game_seeds(spec.seed, start, stop, players), dtype=np.int64)
    agents = all_agents(spec.agents)
    index = {name: k for k, name in enumerate(agents)}
    lineups = [lineup(spec.agents, spec.seats, spec.seed, i) for i in range(start, stop)]
    seated = np.array([[index[name] for name in row] for row in lineups], dtype=np.int64)
    summary = Summary(players, spec.agents)
    try:
        batch = CompiledGames(rules, players, seeds[:, 0], max_turns=spec.max_turns,
                              keep_builds=True)
        play_compiled(batch, agents, seated, seeds[:, 1:])
    except KeyboardInterrupt:
        raise Interrupted(summary, [] if spec.records else None) from None
    games = batch_arrays(batch, seated, agents)
    summary.add_batch(games, rules.ids, rules.victory)
    records = None
    if spec.records:
        records = batch_records(games, rules.ids, start, seeds[:, 0], lineups, spec.builds)
    return summary, records


def batch_arrays(batch, seated: np.ndarray, names: tuple) -> GameArrays:
    """A finished batch's games (a :class:`~machikoro.compiled.games.CompiledGames` made
    with ``keep_builds``) as :class:`~machikoro.lab.summary.GameArrays`: winner, turns and
    rounds as :func:`~machikoro.lab.runs.play_game` counts them (``turns`` the turns
    played, the winning one included; ``rounds`` the rounds begun, extra turns not
    counted, an extra turn granted by the last turn of a capped game never begun), and its
    builds in order, in small integer types (11 bytes a build instead of the batch's 32: a
    batch of 100,000 games of Harbor and Millionaire's Row at 4 players makes some 23
    million builds). The batch's own list of builds is let go."""
    players = batch.players
    winner = batch.winner.astype(np.int64)
    won = winner >= 0
    turns = batch.turns.astype(np.int64)
    extra = batch.extra_turns.astype(np.int64) - (~won & batch.extra_turn.astype(bool))
    rounds = np.maximum(1, -(-(turns - extra) // players))
    steps = batch.take_builds()
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
