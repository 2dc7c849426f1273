"""Batched rollouts from a scalar position: each option of the pending decision played out
to the end of the game many times at once in the batched engine.

:func:`option_rollouts` makes ``len(options) * games`` copies of the position
(:func:`~machikoro.vector.convert.from_game`: each copy rolls its own dice and reshuffles
the market decks, so no copy knows the real game's future), answers the decision with
option ``i`` in the ``i``-th group of copies, plays every copy to its end with a batched
policy for every seat (default: uniform random answers, as the ``random`` agent), and
counts, per option, the copies the deciding seat won. This is flat Monte Carlo: the
estimate of each option is the win rate of the policy that plays on, not of best play.

With a ``cut`` (a turn count and a learned value of positions), a copy stops at the
end of the deciding seat's first turn that ends at that count or later, and counts as the
value's chance for that seat: a rollout cut short (:func:`machikoro.lab.advise.advise`'s
``cutoff``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.game import Game
from ..errors import MachikoroError
from .convert import from_game
from .policies import RandomPolicy


@dataclass(frozen=True)
class OptionRollouts:
    """The rollouts of one option: ``option`` (the value, as in ``Decision.options``),
    ``games`` played, ``wins`` of the deciding seat, ``capped`` (games stopped by the turn
    cap: not won), and ``turns`` (their mean length from the position, in turns, the turn
    under way counted as one). With a ``cut`` (:func:`option_rollouts`), ``values`` is
    the sum of its values (0 to 1) over the games it stopped and ``squares`` the sum of
    their squares (both 0.0 without)."""

    option: object
    games: int
    wins: int
    capped: int
    turns: float
    values: float = 0.0
    squares: float = 0.0

    @property
    def rate(self) -> float:
        """The deciding seat's win rate over this option's games (0 to 1)."""
        return self.wins / self.games


def option_rollouts(game: Game, games: int, seed: int, policy=None,
                    max_turns: int | None = None, cut=None) -> list[OptionRollouts]:
    """Play ``games`` rollouts (a whole number >= 1) of each option of ``game``'s pending
    decision in one batch (see the module text), seeded from ``seed`` (the same seed, the
    same rollouts); ``policy(batch, seeds)`` makes the batched policy for every seat
    (default :class:`~machikoro.vector.policies.RandomPolicy` on ``seeds``, an ``(N, P)``
    array); ``max_turns`` caps each rollout's game (default: the game's own cap);
    ``cut`` (optional) is ``(stop, leaf)``: a game stops, held between two turns, at the
    end of the deciding seat's first turn that ends with its turn count at ``stop`` or
    more, and ``leaf(batch, games, seat)`` gives that seat's chance to win in each game
    of ``games`` (an index array of the batch, held so), a float array (0 to 1) read
    into each option's ``values``. Returns
    one :class:`OptionRollouts` per option, in the decision's order; ``game`` is left as
    it was.

    Raises :class:`~machikoro.errors.MachikoroError` for a game with no pending decision
    or a bad ``games``, and :class:`~machikoro.errors.VectorUnsupported` for a rule set or
    position the batched engine cannot play (use the scalar engine then)."""
    if type(games) is not int or games < 1:
        raise MachikoroError(f"rollouts: games per option must be a whole number >= 1, "
                             f"not {games!r}")
    decision = game.decision()
    if decision is None:
        raise MachikoroError("rollouts: the game waits at no decision")
    k, players = len(decision.options), game.n
    n = k * games
    seeds = np.arange(n, dtype=np.int64) + (seed % (1 << 40)) * (1 << 20)
    batch = from_game(game, n, seeds.tolist(),
                      max_turns=game.max_turns if max_turns is None else max_turns)
    batch.hold_turns = cut is not None  # (from the answer on: held at each turn's end)
    batch.step(np.repeat(np.arange(k, dtype=np.int64), games))  # group i answers option i
    seat_seeds = seeds[:, None] * players + np.arange(players)
    playing = RandomPolicy(seat_seeds) if policy is None else policy(batch, seat_seeds)
    values = np.zeros(n, dtype=np.float64)
    if cut is None:
        batch.run(playing)
        stopped = np.zeros(n, dtype=bool)
    else:
        stopped = _play_to(batch, playing, cut[0], decision.player)
        if stopped.any():
            values[stopped] = cut[1](batch, np.flatnonzero(stopped), decision.player)
    won = (batch.winner == decision.player).reshape(k, games)
    capped = ((batch.winner < 0) & ~stopped).reshape(k, games)
    turns = (batch.turn - game.turn).reshape(k, games)
    values = values.reshape(k, games)
    return [OptionRollouts(option, games, int(won[i].sum()), int(capped[i].sum()),
                           float(turns[i].mean()), float(values[i].sum()),
                           float((values[i] ** 2).sum()))
            for i, option in enumerate(decision.options)]


def _play_to(batch, policy, stop: int, seat: int) -> np.ndarray:
    """Play every game of ``batch`` with ``policy`` to its end or to the end of ``seat``'s
    first turn that ends with the game's turn count at ``stop`` or more, where it is held
    between the two turns (``hold_turns``). Returns where a game was held so (a bool per
    game)."""
    players = batch.players
    batch.hold_turns = True  # (set before the first answer: held from its turn's end on)
    stopped = np.zeros(batch.n, dtype=bool)
    while True:
        batch.run(policy)
        held = np.flatnonzero(batch.held & ~stopped)
        if not len(held):
            return stopped
        current = batch.current[held]  # (moved on at the turn's end, unless it plays again)
        last = np.where(batch.extra_turn[held], current, (current - 1) % players)
        ends = (batch.turn[held] >= stop) & (last == seat)
        stopped[held[ends]] = True
        batch.go_on(held[~ends])
