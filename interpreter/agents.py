"""Agents: anything with ``choose(game, decision) -> answer``.

An agent is a plain object; the game never calls anything else on it. ``answer`` must be one
of ``decision.options``. :class:`RandomAgent` picks uniformly; :class:`GreedyAgent` values
options by expected income computed from the rule set's compiled effects (it names no card).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .game import Decision, Game


class Agent(Protocol):
    """The agent interface: answer one decision of ``game`` with one of its options."""

    def choose(self, game: Game, decision: Decision) -> Any: ...


class RandomAgent:
    """Uniformly random over the legal options, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self._random = random.Random(seed).random

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        return options[int(self._random() * len(options))]


def play(game: Game, agents: list, max_decisions: int | None = None) -> Game:
    """Play ``game`` to the end, asking ``agents[seat]`` every decision of that seat.

    Returns the game (over, unless ``max_decisions`` stopped it first).
    """
    decide = [agent.choose for agent in agents]
    answer = game.answer
    next_decision = game.decision
    count = 0
    while True:
        decision = next_decision()
        if decision is None:
            return game
        answer(decide[decision.player](game, decision))
        count += 1
        if max_decisions is not None and count >= max_decisions:
            return game
