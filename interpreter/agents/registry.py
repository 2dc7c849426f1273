"""Agents by name: ``random``, ``greedy``, the bundled strategies, or a strategy file."""

from __future__ import annotations

from typing import Any

from ..rules.loader import load_ruleset
from .greedy import GreedyAgent
from .random_agent import RandomAgent
from .strategy_files import bundled_strategies, find_strategy, load_strategy

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def agent_names() -> list[str]:
    """The built-in agent names and the bundled strategies (``variants/strategies/``)."""
    return list(AGENTS) + bundled_strategies()


def agent_factory(name: str, rules=None):
    """A callable ``seed -> agent`` for the agent ``name`` (see :func:`make_agent`); a
    strategy file is read and compiled once, here, not once per agent."""
    if name in AGENTS:
        return AGENTS[name]
    path = find_strategy(name)
    if path is None:
        known = ", ".join(agent_names())
        raise ValueError(f"unknown agent '{name}' (known: {known}; or a strategy file path)")
    if rules is None:
        rules = load_ruleset()
    return load_strategy(path, rules).agent


def make_agent(name: str, seed: int | None = None, rules=None) -> Any:
    """A new agent by name, seeded with ``seed``: ``random``, ``greedy``, the name of a
    bundled strategy (``variants/strategies/NAME.yaml``) or the path of a strategy file
    (strategies need ``rules``, the :class:`~machikoro.rules.ruleset.RuleSet` they play).

    Raises :class:`ValueError` naming the known agents for an unknown name, and
    :class:`~machikoro.errors.DataError` for a strategy file with problems.
    """
    return agent_factory(name, rules)(seed)
