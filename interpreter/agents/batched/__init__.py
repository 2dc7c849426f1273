"""Batched policies of the scalar agents, for the batched engine (:mod:`machikoro.vector`).

A policy is ``policy(batch, only=None) -> options`` (:mod:`machikoro.vector.policies`):
one option index per game of the batch; ``only`` (a bool per game, or None: all) names the
games it answers for (:class:`~machikoro.vector.policies.SeatPolicies` passes the games
where its seats decide).

- :class:`GreedyPolicy` makes the decisions :class:`~machikoro.agents.greedy.GreedyAgent`
  makes, game by game: the dice and the build decisions from the quick look-ahead values,
  computed as arrays (:mod:`machikoro.vector.valuation`); what those cannot say (the full
  valuation of a build where no card pays back within the horizon, a reroll, a choice of a
  card's clause, a town holding a card the arrays cannot value) by the scalar agent itself,
  on that game made a scalar game (:func:`~machikoro.vector.convert.to_game`), one agent
  per seat of each game as the lab gives them.
- :class:`StrategyPolicy` plays a strategy file (:mod:`machikoro.agents.strategy`): its
  phases, build lists and dice rules compiled to array conditions
  (:func:`compile_strategy`, which refuses, naming the construct, what does not fit); its
  reroll and ``choose`` rules by the scalar strategy agent on the game made scalar; what
  it leaves to greedy, by :class:`GreedyPolicy`.

They live here, above :mod:`machikoro.vector`, because they fall back on the scalar
agents. The modules: :mod:`.fallback` (what every policy shares), :mod:`.greedy_policy`,
:mod:`.strategy_policy` and :mod:`.proofs` (:func:`check_policy`).

May import: the scalar agents beside it, the batched engine (:mod:`machikoro.vector`) and
the layers below; imported by the lab's engines (:mod:`machikoro.lab.engines`).
"""

from .expert_policy import ExpertPolicy, batch_features, expert_policy
from .fallback import ScalarFallback
from .greedy_policy import GreedyPolicy, greedy_policy
from .proofs import PolicyCheck, check_policy
from .strategy_policy import StrategyPolicy, compile_strategy, strategy_policy

__all__ = ["ExpertPolicy", "GreedyPolicy", "PolicyCheck", "ScalarFallback", "StrategyPolicy", "batch_features",
           "check_policy", "compile_strategy", "expert_policy", "greedy_policy", "strategy_policy"]
