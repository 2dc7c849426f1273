"""Benchmark: one agent against another in 2-player games, seats alternated.

    python bench/agents.py [--agent mcts:200] [--against greedy] [--games 1000] [--workers 2]
                           [--variant FILE] [--seed 0]

Game i seats the agent first when i is even and second when i is odd; game i's dice seed
and the agents' seeds derive from --seed and i, so a run is reproducible whatever the
number of workers. Prints the agent's win rate with its 95% Wilson interval (games capped
by the turn limit count as not won), the win rate in each seat, and the CPU seconds per
game (time.process_time of the worker that played it).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from machikoro import Game, load_ruleset, make_agent, play
from machikoro.lab.runs import game_seed
from machikoro.lab.statistics import wilson


def one_game(args: tuple) -> tuple[int, bool, float, int]:
    """Play game ``index``: (the agent's seat, it won, CPU seconds, turns)."""
    agent, against, variant, seed, index = args
    rules = load_ruleset(variant)
    seat = index % 2
    names = [against, against]
    names[seat] = agent
    players = [make_agent(name, game_seed(seed, index, s), rules) for s, name in enumerate(names)]
    start = time.process_time()
    game = play(Game(rules, 2, seed=game_seed(seed, index), max_turns=1000), players)
    return seat, game.winner == seat, time.process_time() - start, game.turn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="mcts:200")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    jobs = [(args.agent, args.against, args.variant, args.seed, i) for i in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(one_game, jobs, chunksize=4))
    wins = sum(won for _, won, _, _ in results)
    low, high = wilson(wins, len(results))
    print(f"{args.agent} against {args.against}, 2 players, {len(results)} games, seats "
          f"alternated, seed {args.seed}")
    print(f"  {args.agent} wins {wins}/{len(results)} = {wins / len(results):.1%} "
          f"(95% interval {low:.1%} to {high:.1%})")
    for seat in (0, 1):
        mine = [won for s, won, _, _ in results if s == seat]
        print(f"  in seat {seat + 1}: {sum(mine)}/{len(mine)} = {sum(mine) / len(mine):.1%}")
    seconds = sorted(t for _, _, t, _ in results)
    print(f"  CPU seconds per game: mean {sum(seconds) / len(seconds):.2f}, "
          f"max {seconds[-1]:.2f}; turns per game {sum(r[3] for r in results) / len(results):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
