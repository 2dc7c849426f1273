"""Benchmark: play N seeded games in one process and report the speed.

    python bench/bench.py [--games N] [--players 2,4] [--agents random,greedy]

Prints, for each (players, agents) pair: games per second, turns per second (a turn is one
player's turn, extra turns included; times are CPU time of this process, time.process_time,
so a busy machine skews them less), average turns per game, and the peak memory of the
process (tracemalloc is not used: it would slow the games; ru_maxrss is read instead).
It also times loading and checking the bundled base set.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from machikoro import Game, load_ruleset, make_agent, play


def bench_load(repeat: int = 5) -> float:
    """Seconds to load, schema-check and compile the bundled base set (best of ``repeat``),
    in a fresh process state for the schema/grammar caches on the first call."""
    from machikoro.data import schemas
    from machikoro.language import parser as effects

    best = float("inf")
    for _ in range(repeat):
        effects.parser.cache_clear()
        schemas.validator.cache_clear()
        schemas._registry.cache_clear()
        start = time.perf_counter()
        load_ruleset()
        best = min(best, time.perf_counter() - start)
    return best


def bench_games(games: int, players: int, agent: str, seed: int = 0) -> dict:
    """Play ``games`` games of ``players`` seats, all ``agent``; return the figures."""
    rules = load_ruleset()
    turns = 0
    start = time.process_time()
    for i in range(games):
        game = Game(rules, players, seed=seed + i, max_turns=2000)
        play(game, [make_agent(agent, (seed + i) * 16 + s) for s in range(players)])
        turns += game.turn
    elapsed = time.process_time() - start
    return {"players": players, "agents": agent, "games": games,
            "seconds": elapsed, "games_per_s": games / elapsed,
            "turns_per_s": turns / elapsed, "turns_per_game": turns / games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per random run")
    parser.add_argument("--greedy-games", type=int, default=200, help="games per greedy run")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--agents", default="random,greedy")
    args = parser.parse_args(argv)
    print(f"load + check + compile the base set: {bench_load() * 1000:.0f} ms (best of 5)")
    for agent in args.agents.split(","):
        for players in (int(p) for p in args.players.split(",")):
            games = args.games if agent == "random" else args.greedy_games
            r = bench_games(games, players, agent)
            print(f"{players} players, {agent:>6}: {r['games']:>6} games in "
                  f"{r['seconds']:6.2f} s = {r['games_per_s']:8.1f} games/s, "
                  f"{r['turns_per_s']:9.0f} turns/s, {r['turns_per_game']:5.1f} turns/game")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    unit = 1 if sys.platform == "darwin" else 1024
    print(f"peak memory (max RSS): {peak * unit / 2**20:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
