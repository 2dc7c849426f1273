"""The games of a run: their seeds, playing one game, playing a chunk of games.

Every game's seed derives from the run's seed and the game's index through NumPy's
``SeedSequence`` (:func:`game_seed`; a chunk works its games' seeds out at once,
:func:`game_seeds`), so a game is the same whichever worker plays it and
however the games are split: results do not depend on the number of workers or the
executor. A chunk returns a :class:`~machikoro.lab.summary.Summary` (constant size) and,
only when asked, the per-game records.
"""

from __future__ import annotations

import math
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Self

import numpy as np

from ..agents.protocol import play
from ..agents.registry import agent_factory
from ..engine.game import Game
from ..records import Record
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from .seats import all_agents, lineup
from .seeding import spawned_words
from .summary import Summary


def game_seed(seed: int, index: int, seat: int = -1) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (``seat >= 0``: that seat's
    agent's seed), from ``numpy.random.SeedSequence(seed, spawn_key=(index, seat + 1))``:
    its first 64-bit word of state, shifted right by one (below 2**63)."""
    sequence = np.random.SeedSequence(seed, spawn_key=(index, seat + 1))
    low, high = sequence.generate_state(2).tolist()  # its first 64-bit word, as two
    return (low | high << 32) >> 1  # 32-bit words (faster than the uint64 array)


def game_seeds(seed: int, start: int, stop: int, players: int) -> list[list[int]]:
    """The seeds of games ``start``..``stop - 1`` of a run seeded ``seed``, for ``players``
    seats: per game ``[game seed, seat 0's agent seed, ...]``, the numbers
    :func:`game_seed` gives, computed for the whole range at once
    (:func:`~machikoro.lab.seeding.spawned_words`, 3-5 SeedSequences a game otherwise)."""
    width = players + 1
    # SeedSequence itself for a few seeds (the arrays take about 160 µs, as long as 18 of
    # its 9 µs ones) and for an index past 2**32 (a spawn key of two words)
    if (stop - start) * width < 20 or stop > 2**32:
        return [[game_seed(seed, i, s) for s in range(-1, players)]
                for i in range(start, stop)]
    keys = np.empty(((stop - start) * width, 2), dtype=np.int64)
    keys[:, 0] = np.arange(start, stop).repeat(width)
    keys[:, 1] = np.tile(np.arange(width), stop - start)  # 0: the game, s + 1: seat s
    words = spawned_words(seed, keys, 2).astype(np.uint64)
    seeds = (words[:, 0] | words[:, 1] << np.uint64(32)) >> np.uint64(1)
    return seeds.reshape(stop - start, width).tolist()


class RunSpec(Record):
    """What to play: ``variant`` (None for the base set, else a path as text), ``players``,
    ``agents`` (one slot per seat: an agent name or a pool, :mod:`.seats`), ``seed``,
    ``max_turns`` (the turn cap), ``records`` (also return one record per game),
    ``seats`` (how the slots are seated in each game: fixed, rotate, shuffle),
    ``engine`` (``scalar``, or ``vector``: the batched engine plays them,
    :mod:`machikoro.lab.engines`) and ``builds`` (the records keep their ``builds``; a
    comparison pairs games on their outcomes alone and leaves them out: for the batched
    engine, a game's builds as Python values cost as much as playing it)."""

    variant: str | None
    players: int
    agents: tuple
    seed: int
    max_turns: int = 1000
    records: bool = False
    seats: str = "fixed"
    engine: str = "scalar"
    builds: bool = True


def play_game(rules: RuleSet, spec: RunSpec, index: int, factories: dict,
              seeds: list[int] | None = None) -> dict:
    """Play game ``index`` of ``spec`` (``factories``: agent name -> ``seed -> agent``;
    ``seeds``: the game's seed and its seats' agent seeds when already known, as
    :func:`game_seeds` gives them, else worked out here); return its record: ``game``,
    ``seed``, ``agents`` (the agent name of each seat), ``winner`` (seat or None),
    ``turns``, ``rounds`` (rounds begun, extra turns not counted), ``capped`` (the turn cap
    ended it), ``engine`` (``scalar``; the batched engine's records have the same fields:
    :func:`machikoro.lab.engines.batch_records`) and ``builds`` (``(turn, seat, card id)``
    per build, turns numbered from 1: :attr:`Game.builds`)."""
    if seeds is None:
        seeds = [game_seed(spec.seed, index, seat) for seat in range(-1, spec.players)]
    seed = seeds[0]
    game = Game(rules, spec.players, seed=seed, max_turns=spec.max_turns)
    names = lineup(spec.agents, spec.seats, spec.seed, index)
    play(game, [factories[name](seeds[seat + 1]) for seat, name in enumerate(names)])
    return game_record(game, index, seed, names)


def game_record(game: Game, index: int, seed: int, names: tuple) -> dict:
    """The record of the finished ``game`` (game ``index`` of a run, seeded ``seed``, its
    seats played by the agents ``names``), as :func:`play_game` returns it."""
    # game.turn counts the turns played, the winning one included; an extra turn granted
    # by the last turn of a capped game was counted in extra_turns but never begun
    won = game.winner is not None
    turns = game.turn
    extra = game.extra_turns - (not won and game.extra_turn)
    return {"game": index, "seed": seed, "agents": list(names), "winner": game.winner,
            "turns": turns,
            "rounds": max(1, math.ceil((turns - extra) / game.n)),
            "capped": not won, "engine": "scalar", "builds": game.builds}


def run_chunk(spec: RunSpec, start: int, stop: int) -> tuple[Summary, list | None]:
    """Play games ``start``..``stop - 1`` of ``spec``: their :class:`Summary`, and their
    records when ``spec.records``. Top-level, so worker processes and Ray can run it."""
    rules = cached_ruleset(spec.variant)
    factories = {name: agent_factory(name, rules) for name in all_agents(spec.agents)}
    landmarks = frozenset(rules.ids[i] for i in rules.victory)  # the ones that count
    summary = Summary(spec.players, spec.agents)
    records = [] if spec.records else None
    try:
        with InterruptGate() as gate:  # one handler for the chunk, not one per game
            for index, seeds in zip(range(start, stop),
                                    game_seeds(spec.seed, start, stop, spec.players)):
                record = play_game(rules, spec, index, factories, seeds)
                gate.hold = True  # the bookkeeping of a finished game: all or nothing
                summary.add(record, landmarks)
                if records is not None:
                    if not spec.builds:
                        del record["builds"]
                    records.append(record)
                gate.release()
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


class InterruptGate:
    """Ctrl-C held back while ``hold`` is True, as :func:`deferred_interrupts` does for a
    block, but with one handler installed for a whole loop (a chunk of games), so holding
    it back costs two attribute writes per game. Use as a context manager: inside, set
    ``hold = True`` before the bookkeeping and call :meth:`release` after it (a Ctrl-C
    received meanwhile then raises :class:`KeyboardInterrupt`); outside ``hold``, Ctrl-C
    does what the handler before it did (raise, call it, or nothing when ignored). Only in
    the main thread; elsewhere it holds nothing back."""

    __slots__ = ("hold", "previous", "received")

    def __init__(self) -> None:
        self.hold = False
        self.received = False
        self.previous = None

    def __enter__(self) -> Self:
        try:
            self.previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: signals cannot be handled here
            self.previous = None
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handle(self, signum: int, frame) -> None:
        if self.hold:
            self.received = True
        else:
            self._pass_on(signum, frame)

    def _pass_on(self, signum: int, frame) -> None:
        previous = self.previous
        if previous is signal.default_int_handler:
            raise KeyboardInterrupt
        if callable(previous):
            previous(signum, frame)

    def release(self) -> None:
        """End a held stretch: a Ctrl-C received during it is acted on now."""
        self.hold = False
        if self.received:
            self.received = False
            self._pass_on(signal.SIGINT, None)


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
