"""Agents: anything with ``choose(game, decision) -> answer``.

An agent is a plain object; the game never calls anything else on it. ``answer`` must be one
of ``decision.options``. :class:`RandomAgent` picks uniformly; :class:`GreedyAgent` values
options by expected income computed from the rule set's compiled effects (it names no card).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .errors import MachikoroError
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

    Returns the game (over, unless ``max_decisions`` stopped it first). Raises
    :class:`~machikoro.errors.MachikoroError` when ``agents`` does not give one per seat.
    """
    if len(agents) != game.n:
        raise MachikoroError(f"play needs one agent per seat: {game.n} seats, "
                             f"{len(agents)} agents")
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


class GreedyAgent:
    """A generic income-greedy agent; it knows no card, only the compiled rule set.

    - ``build``: completes an affordable victory landmark when it can (the most expensive
      one); otherwise buys the establishment with the best expected income per round
      (:func:`~machikoro.analysis.card_value`, computed through the card's own effect)
      over ``horizon`` rounds, net of its cost, when that is positive; else saves.
    - ``dice``: the count with the higher expected own income.
    - ``reroll``: rerolls when this roll pays it less than a fresh roll is expected to.
    - a choice of player: the richest one; a swap: the one that gains the most expected
      income, or none; any other yes/no: yes.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, horizon: float = 6.0):
        self._random = random.Random(seed)
        self.horizon = horizon

    def choose(self, game: Game, decision: Decision) -> Any:
        from . import analysis

        options = decision.options
        if len(options) == 1:
            return options[0]
        seat = decision.player
        name = decision.name
        if name == "build" and decision.card is None:
            return self._build(game, seat, options)
        if name == "dice" and decision.card is None:
            return max(options, key=lambda k: analysis.expected_roll_income(game, seat, k))
        if name == "reroll" and decision.card is not None:
            now = analysis.roll_income(game, seat, game.total, game.dice_count)[seat]
            fresh = analysis.expected_roll_income(game, seat, game.dice_count)
            if fresh <= now:
                return False
            # options are False/True, or False and dice counts (rules option
            # reroll_same_dice: false): then reroll as many dice as now
            if any(o is True for o in options):
                return True
            return game.dice_count if game.dice_count in options else options[-1]
        seats = [o for o in options if type(o) is int]
        if seats and len(seats) == len(options):
            return max(seats, key=lambda s: (game.coins[s], -s))
        swaps = [o for o in options if isinstance(o, dict)]
        if swaps:
            index = game.rules.index

            def gain(o):
                return (analysis.card_value(game, seat, index[o["take"]])
                        - analysis.card_value(game, seat, index[o["give"]]))

            best = max(swaps, key=gain)
            return best if gain(best) > 0 or None not in options else None
        if True in options:
            return True
        return options[0]

    def _build(self, game: Game, seat: int, options: tuple) -> Any:
        from . import analysis

        rules = game.rules
        victory = set(rules.victory)
        landmarks = [o for o in options if o is not None and rules.index[o] in victory]
        if landmarks:
            return max(landmarks, key=lambda o: rules.cost[rules.index[o]])
        dice_of = {s: analysis.preferred_dice(game, s) for s in range(game.n)}
        best, best_score = None, 0.0
        for option in options:
            if option is None:
                continue
            i = rules.index[option]
            if rules.cards[i].is_landmark:
                continue
            score = analysis.card_value(game, seat, i, dice_of) * self.horizon - rules.cost[i]
            if score > best_score:
                best, best_score = option, score
        return best


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def agent_names() -> list[str]:
    """The built-in agent names and the bundled strategies (``variants/strategies/``)."""
    from .strategy import bundled_strategies

    return list(AGENTS) + bundled_strategies()


def agent_factory(name: str, rules=None):
    """A callable ``seed -> agent`` for the agent ``name`` (see :func:`make_agent`); a
    strategy file is read and compiled once, here, not once per agent."""
    if name in AGENTS:
        return AGENTS[name]
    from .strategy import find_strategy, load_strategy

    path = find_strategy(name)
    if path is None:
        known = ", ".join(agent_names())
        raise ValueError(f"unknown agent '{name}' (known: {known}; or a strategy file path)")
    if rules is None:
        from .ruleset import load_ruleset

        rules = load_ruleset()
    return load_strategy(path, rules).agent


def make_agent(name: str, seed: int | None = None, rules=None) -> Any:
    """A new agent by name, seeded with ``seed``: ``random``, ``greedy``, the name of a
    bundled strategy (``variants/strategies/NAME.yaml``) or the path of a strategy file
    (strategies need ``rules``, the :class:`~machikoro.ruleset.RuleSet` they play).

    Raises :class:`ValueError` naming the known agents for an unknown name, and
    :class:`~machikoro.errors.DataError` for a strategy file with problems.
    """
    return agent_factory(name, rules)(seed)
