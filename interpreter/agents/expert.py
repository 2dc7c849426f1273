"""The learned agent ``expert``: at each build it values every option by the learned chance
to win of the position just after it (an afterstate: the option built, the turn played to
the next roll), with the rule set's weights (:mod:`.value`); the other decisions (dice,
rerolls, targets, swaps) are greedy's (:class:`~.greedy.GreedyAgent`).

The afterstate is played on a light copy of the game (:meth:`~machikoro.engine.game.Game.
clone`), which stops at the next roll without drawing it: the value sees no dice the game
has not rolled. A finished afterstate is worth 1 to its winner and 0 to the others.
``explore`` (self-play only) answers a build with a uniformly random option that share of
the time.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..engine.decision import Decision
from ..engine.game import Game
from .features import Features, features_for
from .greedy import GreedyAgent
from .value import ValueNet, value_for


def afterstate(game: Game, seat: int, option: Any) -> Game:
    """A light copy of ``game`` with ``option`` answered by ``seat`` and played on to its
    next roll or decision (no dice drawn)."""
    after = game.clone(light=True)
    after.answer(option, seat)
    after.decision()
    return after


class ExpertAgent:
    """The learned agent (see the module text). ``value`` is a :class:`~.value.ValueNet`
    (default: the weights found for the rule set and player count at the first decision;
    :class:`~machikoro.errors.WeightsError` when there are none, or they belong to another
    rule set); ``seed`` seeds ``explore``'s draws and greedy's."""

    name = "expert"

    def __init__(self, seed: int | None = None, explore: float = 0.0,
                 value: ValueNet | None = None):
        self._rng = random.Random(seed)
        self.explore = explore
        self.value = value
        self._greedy = GreedyAgent(seed)
        self._features: Features | None = None

    @staticmethod
    def check(rules, players: int) -> None:
        """Raise :class:`~machikoro.errors.WeightsError` (saying how to train them) unless
        weights for ``rules`` at ``players`` seats are found and fit: what a caller may
        ask before a game starts, rather than at the agent's first decision."""
        value_for(rules, players)

    def _ready(self, game: Game) -> Features:
        features = self._features
        if features is None or features.rules is not game.rules or \
                features.players != game.n:
            if self.value is None or self.value.meta.get("digest") != game.rules.digest:
                self.value = value_for(game.rules, game.n)
            features = self._features = features_for(game.rules, game.n, self.value)
        return features

    def choose(self, game: Game, decision: Decision) -> Any:
        """The build whose afterstate the value rates highest; greedy's answer to any
        other decision."""
        options = decision.options
        if len(options) == 1:
            return options[0]
        if decision.name != "build" or decision.card is not None:
            return self._greedy.choose(game, decision)
        if self.explore and self._rng.random() < self.explore:
            return options[self._rng.randrange(len(options))]
        values = self.afterstate_values(game, decision)
        return options[int(np.argmax(values))]

    def afterstate_values(self, game: Game, decision: Decision) -> np.ndarray:
        """The learned chance to win of ``decision.player`` after each option (a vector,
        one value per option, in order)."""
        features = self._ready(game)
        seat = decision.player
        rows, known = [], {}
        for i, option in enumerate(decision.options):
            after = afterstate(game, seat, option)
            if after.winner is not None:
                known[i] = 1.0 if after.winner == seat else 0.0
                rows.append(np.zeros(features.size, dtype=np.float32))
            else:
                rows.append(features.of(after, seat))
        values = self.value(np.stack(rows))
        for i, v in known.items():
            values[i] = v
        return values


class PositionValue:
    """The learned chance to win of positions between two turns, seen from one seat: the
    value the expert rates its afterstates with (:mod:`.value`), for the positions where
    a rollout stops short of the game's end (:func:`machikoro.lab.advise.advise`'s
    ``cutoff``). ``rules`` at ``players`` seats; ``value`` default: the weights found
    for them. Raises :class:`~machikoro.errors.WeightsError` when none fit.

    A position is seen as an afterstate is (:func:`afterstate`): its next turn started,
    on a light copy, to the roll; the value was trained on such positions of self-play,
    so it is the chance to win with ``expert`` in every seat, read through the weights'
    calibration where they have one (:meth:`~.value.ValueNet.chance`)."""

    def __init__(self, rules, players: int, value: ValueNet | None = None):
        self.value = value_for(rules, players) if value is None else value
        self.features = features_for(rules, players, self.value)

    def of(self, games: list, seat: int) -> np.ndarray:
        """``(len(games),)`` floats, 0 to 1: ``seat``'s chance to win in each game of
        ``games`` (scalar games stopped at the end of a turn: ``decision(
        stop_at_turn_end=True)`` returned None); a finished game is worth 1 to its winner,
        0 to the others."""
        out = np.zeros(len(games), dtype=np.float64)
        rows, live = [], []
        for i, game in enumerate(games):
            if game.winner is not None:
                out[i] = float(game.winner == seat)
                continue
            after = game.clone(light=True)
            after.decision()
            live.append(i)
            rows.append(self.features.of(after, seat))
        if rows:
            out[live] = self.value.chance(np.stack(rows))
        return out
