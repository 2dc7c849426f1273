"""Strategies as data: build priorities with conditions, played by :class:`StrategyAgent`.

A strategy file (``kind: strategy``, ``schema/strategy.schema.json``) lists what to build,
most wanted first, each entry with an optional ``when`` written in the effect language's
condition syntax (``owner has 2 or more ranch and owner has train_station``) and an
optional ``max`` (copies to own at most); an optional ``dice`` list says how many dice to
roll; ``otherwise`` says what to do when no entry applies (``save``, ``greedy``,
``random``). Bundled strategies live in ``variants/strategies/`` and are named by their
file stem (``--agents cheese-factory``).

Conditions are compiled once, when the file loads (:mod:`.strategy_files`), against the
vocabulary of the rule set the strategy plays; a game only calls their
``test(game, seat)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..engine.decision import Decision
from ..engine.game import Game
from .greedy import GreedyAgent

FALLBACKS = ("save", "greedy", "random")


@dataclass(frozen=True)
class Condition:
    """A compiled ``when``: all of ``tests`` must hold; ``text`` is its source."""

    tests: tuple
    text: str = ""

    def test(self, game: Game, seat: int) -> bool:
        """True when every test holds for ``seat`` (the strategy's player) now."""
        for t in self.tests:
            if not t.test(game, seat):
                return False
        return True


ALWAYS = Condition((), "")


@dataclass(frozen=True)
class Priority:
    """One ``build`` entry: build ``card`` (index ``index``) when ``when`` holds and the
    player owns fewer than ``max`` copies (None: no cap)."""

    card: str
    index: int
    when: Condition = ALWAYS
    max: int | None = None


@dataclass(frozen=True)
class DiceRule:
    """One ``dice`` entry: roll ``roll`` dice when ``when`` holds."""

    roll: int
    when: Condition = ALWAYS


@dataclass(frozen=True)
class Strategy:
    """A loaded strategy, compiled against one rule set (``rules``).

    ``key`` is the file stem (the name used with ``--agents``); ``dice`` is None when the
    file has no ``dice`` field (the greedy choice); ``warnings`` lists non-fatal problems.
    """

    key: str
    name: str
    description: str
    build: tuple
    dice: tuple | None
    otherwise: str
    rules: Any = field(compare=False, repr=False)
    file: str = ""
    warnings: tuple = field(default=(), compare=False, repr=False)

    def agent(self, seed: int | None = None) -> StrategyAgent:
        """A new agent playing this strategy (``seed`` seeds its fallback choices)."""
        return StrategyAgent(self, seed)

    def __str__(self) -> str:
        return f"{self.key}: {self.name}"


class StrategyAgent:
    """Plays a :class:`Strategy`.

    - ``build``: the first priority whose card is among the options, whose ``max`` is not
      reached and whose ``when`` holds for the agent's seat; else the ``otherwise``
      fallback (``save``: nothing; ``greedy``: :class:`~machikoro.agents.GreedyAgent`;
      ``random``: any option, uniformly).
    - ``dice``: the first dice rule whose count is allowed and whose ``when`` holds, else
      the fewest dice; without dice rules, the greedy choice.
    - every other decision (reroll, a chosen player, a swap): the greedy choice.
    """

    def __init__(self, strategy: Strategy, seed: int | None = None):
        self.strategy = strategy
        self.name = strategy.key
        self._greedy = GreedyAgent(seed=seed)
        self._random = random.Random(seed).random

    def choose(self, game: Game, decision: Decision) -> Any:
        if decision.card is None:
            if decision.name == "build":
                return self._build(game, decision)
            if decision.name == "dice" and self.strategy.dice is not None:
                return self._dice(game, decision)
        return self._greedy.choose(game, decision)

    def _build(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        seat = decision.player
        town = game.owned[seat]
        for entry in self.strategy.build:
            if entry.card not in options:
                continue
            if entry.max is not None and town[entry.index] >= entry.max:
                continue
            if entry.when.test(game, seat):
                return entry.card
        fallback = self.strategy.otherwise
        if fallback == "greedy":
            return self._greedy.choose(game, decision)
        if fallback == "random":
            return options[int(self._random() * len(options))]
        return None if None in options else options[0]

    def _dice(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        seat = decision.player
        for rule in self.strategy.dice:
            if rule.roll in options and rule.when.test(game, seat):
                return rule.roll
        return min(options)
