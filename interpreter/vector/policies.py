"""Policies for the batched engine: functions from a batch's waiting decisions to answers.

A policy is any callable ``policy(batch) -> options``: ``batch`` a
:class:`~machikoro.vector.engine.VectorGames` whose games wait at decisions
(:meth:`~machikoro.vector.engine.VectorGames.decisions`: per decision kind, the games and
their legal-option masks; the state arrays for everything else: everything in Machi Koro is
public), ``options`` one option index per game (an int array of shape ``(N,)``; entries of
games that wait at nothing are ignored). A policy acts for every seat: ``batch.
pending_player`` says whose decision each is, so a policy may play seats differently
(:class:`SeatPolicies`).

:class:`RandomPolicy` is the ``random`` agent of the scalar engine: uniform over the legal
answers, each seat of each game drawing from its own stream seeded as the lab seeds that
seat's agent.
"""

from __future__ import annotations

import numpy as np

from ..errors import MachikoroError
from .rng import Streams


class RandomPolicy:
    """Uniform over each waiting decision's options: option ``floor(u * count)``, ``u``
    from the stream of the deciding seat of that game (``seeds``: an ``(N, P)`` array-like
    of whole numbers, one per seat of each game, as :func:`~machikoro.lab.runs.
    game_seeds` gives the agents' seeds; the scalar ``RandomAgent`` draws the same way
    from its own generator)."""

    name = "random"

    def __init__(self, seeds):
        seeds = np.asarray(seeds, dtype=object)
        if seeds.ndim != 2:
            raise MachikoroError("RandomPolicy needs one seed per seat of each game: an "
                                 "(N, P) array")
        self.players = seeds.shape[1]
        self.streams = Streams(seeds.reshape(-1).tolist())

    def __call__(self, batch) -> np.ndarray:
        options = np.zeros(batch.n, dtype=np.int64)
        ids = batch.ids  # the games' own indices (run() sets ended games aside)
        for waiting in batch.decisions().values():
            games = waiting.games
            streams = ids.take(games) * self.players + batch.pending_player[games]
            options[games] = self.streams.below(streams, waiting.counts)
        return options


class SeatPolicies:
    """Seats played by different policies: ``policies[k]`` answers for the seats that
    ``seats[g][p] == k`` names (an ``(N, P)`` array of policy indices, e.g. the lab's
    lineups; rows by the games' indices in the batch, ``batch.ids``). Each policy is asked
    once per step, for every game (a policy with ``takes_only`` true, as
    ``policy(batch, only)``: ``only`` a bool per game, True where it plays the deciding
    seat); its answers are kept where it plays the deciding seat."""

    def __init__(self, policies: list, seats):
        self.policies = list(policies)
        self.seats = np.asarray(seats, dtype=np.int64)

    def __call__(self, batch) -> np.ndarray:
        options = np.zeros(batch.n, dtype=np.int64)
        waiting = np.flatnonzero(batch.pending >= 0)
        if not len(waiting):
            return options
        who = self.seats[batch.ids[waiting], batch.pending_player[waiting]]  # (run():
        # the batch's slots hold its live games, ``ids`` says whose)
        for k, policy in enumerate(self.policies):
            ours = who == k
            if ours.any():
                if getattr(policy, "takes_only", False):  # it answers only its games
                    only = np.zeros(batch.n, dtype=bool)
                    only[waiting[ours]] = True
                    answer = policy(batch, only)
                else:
                    answer = policy(batch)
                options[waiting[ours]] = answer[waiting[ours]]
        return options


def play_batch(batch, policy, max_steps: int | None = None):
    """Step ``batch`` with ``policy`` until every game is over (or ``max_steps``);
    returns the batch."""
    steps = 0
    while not batch.over.all():
        if max_steps is not None and steps >= max_steps:
            break
        batch.step(policy(batch))
        steps += 1
    return batch
