"""The proof of a batched policy (:func:`check_policy`): both engines in lock-step, every
answer of the policy compared with the scalar agent's in the scalar twin."""

from __future__ import annotations

import numpy as np

from ...records import Record
from ...rules.ruleset import RuleSet
from .fallback import _index_of


class PolicyCheck(Record):
    """What :func:`check_policy` found: the lock-step ``report``
    (:class:`~machikoro.vector.lockstep.LockstepReport`: the engines agreed where it has
    no differences), the ``decisions`` compared, the ``mismatches`` (``(game, turn,
    decision name, the scalar agent's answer, the policy's)``, at most 20 kept),
    ``count`` of them, and ``fallback``: the decisions the policy handed to the scalar
    agent."""

    report: object
    decisions: int
    mismatches: tuple
    count: int
    fallback: int


def check_policy(rules: RuleSet, players: int, seeds, make_policy, make_agent,
                 max_turns: int = 1000) -> PolicyCheck:
    """Play the games of ``seeds`` in both engines in lock-step
    (:func:`~machikoro.vector.lockstep.drive`) with ``make_policy(rules, players,
    seat_seeds)``'s answers, and compare each answer with the one the scalar agent
    ``make_agent(seed)`` (one per seat of each game, seeded ``seat_seeds[g][p] = g * 16 +
    p``) gives in the scalar twin; where they differ, the scalar agent's answer is played
    (so the games go on alike) and the mismatch counted."""
    from ...vector.engine import VectorGames
    from ...vector.lockstep import _Dice, drive, scalar_twin

    seeds = list(seeds)
    n = len(seeds)
    seat_seeds = np.arange(n)[:, None] * 16 + np.arange(players)
    batch = VectorGames(rules, players, seeds, max_turns=max_turns, start=False)
    batch.dice_log = []
    scripts = [_Dice() for _ in range(n)]
    twins = [scalar_twin(batch, g, scripts[g]) for g in range(n)]
    batch.begin()
    policy = make_policy(rules, players, seat_seeds)
    agents: dict = {}
    found: list = []
    compared = [0]

    def checked(b) -> np.ndarray:
        options = np.asarray(policy(b), dtype=np.int64).copy()
        for g in np.flatnonzero(b.pending >= 0).tolist():
            game = twins[g]
            decision = game.pending
            if decision is None:
                continue
            seat = decision.player
            agent = agents.get((g, seat))
            if agent is None:
                agent = agents[g, seat] = make_agent(int(seat_seeds[g, seat]))
            k = _index_of(tuple(decision.options), agent.choose(game, decision))
            compared[0] += 1
            if k != options[g]:
                found.append((g, game.turn, decision.name, decision.options[k],
                              decision.options[int(options[g])]))
                options[g] = k
        return options

    report = drive(batch, twins, scripts, policy=checked)
    fallback = policy.fallback.asked + (policy.greedy.fallback.asked
                                        if hasattr(policy, "greedy") else 0)
    return PolicyCheck(report, compared[0], tuple(found[:20]), len(found), fallback)
