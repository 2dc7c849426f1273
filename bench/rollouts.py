"""Benchmark: the mcts agent against the batched-rollout agent, each against greedy.

    python bench/rollouts.py [--games 200] [--agent mcts:200] [--agent rollouts:64]
                             [--against greedy] [--seed 0] [--json]

Each ``--agent`` plays ``--games`` 2-player base-set games against ``--against``, seats
alternated (game i: the agent first when i is even), the games of the agents interleaved
so that the machine's load falls on all alike; every game's dice and agents' seeds derive
from ``--seed`` and i, so both agents meet the same dice seeds. Reports each agent's win
rate with its 95% Wilson interval and its CPU time (``time.process_time``) per decision
it searched (decisions with more than one option), and the ratio of the agents' CPU per
decision: the question of issue 18 is whether batched rollouts give mcts's strength at
10x less CPU per decision.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from machikoro import Game, load_ruleset, make_agent
from machikoro.lab.runs import game_seed
from machikoro.lab.statistics import wilson


class Timed:
    """An agent whose searched decisions (more than one option) are counted and timed."""

    def __init__(self, agent):
        self.agent, self.decisions, self.cpu = agent, 0, 0.0

    def choose(self, game, decision):
        if len(decision.options) == 1:
            return decision.options[0]
        start = time.process_time()
        answer = self.agent.choose(game, decision)
        self.cpu += time.process_time() - start
        self.decisions += 1
        return answer


def one_game(rules, agent: str, against: str, seed: int, index: int) -> tuple[bool, Timed]:
    """Game ``index``: did ``agent`` win, and its timed wrapper."""
    seat = index % 2
    timed = Timed(make_agent(agent, game_seed(seed, index, seat), rules))
    players = [make_agent(against, game_seed(seed, index, s), rules) for s in range(2)]
    players[seat] = timed
    game = Game(rules, 2, seed=game_seed(seed, index), max_turns=1000)
    while not game.over:
        decision = game.decision()
        game.answer(players[decision.player].choose(game, decision), decision.player)
    return game.winner == seat, timed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agent", action="append")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    agents = args.agent or ["mcts:200", "rollouts:64"]
    if args.games < 1:
        parser.error("--games must be at least 1")
    rules = load_ruleset()
    rows = {a: {"agent": a, "games": 0, "wins": 0, "decisions": 0, "cpu_s": 0.0}
            for a in agents}
    for index in range(args.games):
        for agent in agents:
            won, timed = one_game(rules, agent, args.against, args.seed, index)
            row = rows[agent]
            row["games"] += 1
            row["wins"] += won
            row["decisions"] += timed.decisions
            row["cpu_s"] += timed.cpu
    for row in rows.values():
        low, high = wilson(row["wins"], row["games"])
        row.update(rate=row["wins"] / row["games"], low=low, high=high,
                   cpu_per_decision_ms=1000 * row["cpu_s"] / max(row["decisions"], 1))
    if args.json:
        print(json.dumps(list(rows.values()), indent=2))
        return 0
    print(f"each against {args.against}, 2 players, base set, {args.games} games, seats "
          f"alternated, seed {args.seed}")
    for row in rows.values():
        print(f"  {row['agent']}: wins {row['wins']}/{row['games']} = {row['rate']:.1%} (95% "
              f"interval {row['low']:.1%} to {row['high']:.1%}); "
              f"{row['cpu_per_decision_ms']:.1f} ms CPU per searched decision "
              f"({row['decisions']} decisions)")
    first, *rest = rows.values()
    for row in rest:
        print(f"  CPU per decision, {row['agent']} over {first['agent']}: "
              f"{row['cpu_per_decision_ms'] / first['cpu_per_decision_ms']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
