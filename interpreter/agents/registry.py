"""Agents by name: ``random``, ``greedy``, ``mcts`` (``mcts:N`` for N simulations per
decision), ``rollouts`` (``rollouts:N``: N batched rollouts per option), the bundled
strategies, or a strategy file."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from importlib import import_module

from ..data.bundled import data_dir
from ..rules.loader import load_ruleset

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

# strategy files are read with the loader's schema checks and the effect grammar (JSON
# Schema, Lark): imported when a strategy is asked for, not with the built-in agents

AGENTS: dict[str, Any] = {
    "random": ".random_agent:RandomAgent", "greedy": ".greedy:GreedyAgent",
    "mcts": ".mcts:MCTSAgent", "rollouts": ".rollout_agent:RolloutAgent",
    "expert": ".expert:ExpertAgent"}
"""Agents by name: the built-in ones and those given to :func:`register_agent`. A value is
the agent's maker, or for a built-in agent not made yet the ``module:class`` (in this
package) that holds it, imported when first made (start-up: ``greedy`` and ``mcts`` import
the look-ahead engine, which ``play --agents random`` never needs). An agent class with a
``budget`` attribute (the name of a keyword of its constructor) also takes ``NAME:N``, N a
whole number >= 1."""


ENTRY_POINT_GROUP = "machikoro.agents"
"""The entry-point group through which an installed package adds agents by name."""


def register_agent(name: str, make: Callable[..., Any]) -> None:
    """Make ``make`` (an agent class, or any callable taking the seed, an int or None, as
    its one argument and returning an agent) known by ``name`` to :func:`make_agent`, ``--agents`` and the lab, in this process.

    Raises :class:`ValueError` for a name that is not lower-case letters, digits, ``-`` and
    ``_`` or that a built-in agent already has.
    """
    if not name or not all(c.isalnum() or c in "-_" for c in name) or name != name.lower():
        raise ValueError(f"agent name {name!r}: use lower-case letters, digits, '-' and '_'")
    if name in ("random", "greedy", "mcts", "rollouts", "expert"):
        raise ValueError(f"agent name {name!r} is a built-in agent's")
    AGENTS[name] = make


def _maker(name: str) -> Callable[..., Any]:
    """The maker of agent ``name`` (a key of :data:`AGENTS`), its module imported now."""
    maker = AGENTS[name]
    if isinstance(maker, str):
        module, _, attribute = maker.partition(":")
        maker = AGENTS[name] = getattr(import_module(module, __package__), attribute)
    return maker


def _installed(name: str) -> None:
    """Register the agent an installed package declares as ``name`` in the
    ``machikoro.agents`` entry-point group, if one does (loaded on first use)."""
    from importlib.metadata import entry_points  # not with the module: start-up

    for point in entry_points(group=ENTRY_POINT_GROUP, name=name):
        try:
            make = point.load()
        except Exception as exc:  # any failure of another package's import
            raise ValueError(f"agent '{name}' ({point.value}, installed by a package) does "
                             f"not load: {type(exc).__name__}: {exc}") from exc
        register_agent(name, make)
        return


def _budgeted(name: str):
    """``NAME:N`` for an agent with a budget: its factory with that budget; else None."""
    base, sep, text = name.partition(":")
    if not sep or base not in AGENTS:
        return None
    agent = _maker(base)
    keyword = getattr(agent, "budget", None)
    if keyword is None:
        raise ValueError(f"agent '{base}' takes no budget (':{text}')")
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"'{name}': the budget after ':' must be a whole number >= 1")
    return partial(agent, **{keyword: int(text)})


def _stoppable(make, agent_class, stop):
    """``make`` (an agent's maker) with ``stop`` given to it, when ``agent_class`` is
    interruptible."""
    keyword = getattr(agent_class, "interruptible", None)
    return make if stop is None or keyword is None else partial(make, **{keyword: stop})


def agent_names() -> list[str]:
    """The built-in agent names (``mcts[:N]`` for one with a budget) and the bundled
    strategies (``variants/strategies/``)."""
    from importlib.metadata import entry_points  # not with the module: start-up

    installed = [p.name for p in entry_points(group=ENTRY_POINT_GROUP) if p.name not in AGENTS]
    return [f"{name}[:N]" if getattr(_maker(name), "budget", None) else name
            for name in list(AGENTS)] + sorted(installed) + _bundled_strategies()


def _bundled_strategies() -> list[str]:
    """The bundled strategies' names, as ``strategy_files.bundled_strategies`` lists them,
    without importing what reads them (the help text of every command lists them)."""
    try:
        folder = data_dir("variants") / "strategies"
    except FileNotFoundError:
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file())


def agent_factory(name: str, rules=None, stop=None):
    """A callable ``seed -> agent`` for the agent ``name`` (see :func:`make_agent`); a
    strategy file is read and compiled once, here, not once per agent.

    ``stop`` (None, or a callable ``() -> bool``) is given to an interruptible agent: one
    whose class names, in its ``interruptible`` attribute, the keyword of its constructor
    that takes it (``mcts``). Such an agent checks it during a decision and answers with
    what it has found when it returns True (a time limit per move). Other agents ignore it:
    they answer without searching, or within their budget.
    """
    if "!" in name:  # NAME!CARD: NAME forbidden the card (restricted play)
        from .restricted import restricted_factory, split_name

        return restricted_factory(name, agent_factory(split_name(name)[0], rules, stop), rules)
    if name.partition(":")[0] not in AGENTS:
        _installed(name.partition(":")[0])
    if name in AGENTS:
        return _stoppable(_maker(name), _maker(name), stop)
    budgeted = _budgeted(name)
    if budgeted is not None:
        return _stoppable(budgeted, budgeted.func, stop)
    from .strategy_files import find_strategy, load_strategy

    path = find_strategy(name)
    if path is None:
        known = ", ".join(agent_names())
        raise ValueError(f"unknown agent '{name}' (known: {known}; or a strategy file path)")
    if rules is None:
        rules = load_ruleset()
    return load_strategy(path, rules).agent


def strategy_of(name: str, rules=None):
    """The :class:`~machikoro.agents.strategy.Strategy` the agent ``name`` stands for (a
    bundled strategy or a strategy file), compiled for ``rules`` (default: the base set);
    None for a built-in agent or a name that is no strategy. Raises
    :class:`~machikoro.errors.DataError` for a strategy file with problems."""
    if name in AGENTS or name.partition(":")[0] in AGENTS:
        return None
    from .strategy_files import find_strategy, load_strategy

    path = find_strategy(name)
    return None if path is None else load_strategy(path, rules or load_ruleset())


def make_agent(name: str, seed: int | None = None, rules=None) -> Any:
    """A new agent by name, seeded with ``seed``: ``random``, ``greedy``, ``mcts`` or
    ``mcts:N`` (N simulations per decision), ``expert``, the name of a bundled strategy
    (``variants/strategies/NAME.yaml``) or the path of a strategy file (strategies need
    ``rules``, the :class:`~machikoro.rules.ruleset.RuleSet` they play); any of them
    followed by ``!CARD`` (repeatable) is that agent forbidden to build the establishment
    ``CARD`` (:mod:`.restricted`).

    Raises :class:`ValueError` naming the known agents for an unknown name, and
    :class:`~machikoro.errors.DataError` for a strategy file with problems.
    """
    return agent_factory(name, rules)(seed)
