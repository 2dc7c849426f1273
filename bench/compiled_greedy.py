"""Benchmark and proof: greedy in the compiled engine against the scalar greedy, as ratios
of CPU time measured in one run, and the greedy-same proof over many games.

    python bench/compiled_greedy.py [--variant base] [--players 2] [--games 200]
                                    [--scalar-games 200] [--check 0]
    python bench/compiled_greedy.py --check-all 100

Greedy in every seat. The scalar engine plays ``--scalar-games`` games one by one
(``Game`` and ``GreedyAgent``); the compiled engine one batch of ``--games`` games
(:func:`machikoro.agents.compiled_policies.play_greedy`: the compiled greedy answers every
waiting game at once, then the games play on to their next decision). For each: CPU
seconds per game (``time.process_time``; the first compile made before, reported apart)
and the ratio. ``--check N`` plays N more games of each in lock-step
(:func:`~machikoro.agents.compiled_policies.check_greedy`) and prints the differences
(there must be none). ``--check-all N`` runs that check alone on every rule set and player
count of ``bench/lockstep.py``'s cases (N games times the case's weight).

Target (issue 35): >= 20x the scalar greedy on every bundled rule set, the same decisions.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lockstep import CASES, rule_set


def scalar_games(rules, players: int, count: int) -> tuple[float, int]:
    """``(CPU seconds, turns)`` of ``count`` scalar games, greedy in every seat."""
    from machikoro.agents.greedy import GreedyAgent
    from machikoro.engine.game import Game

    start = time.process_time()
    turns = 0
    for seed in range(count):
        game = Game(rules, players, seed=seed, max_turns=1000)
        agents = [GreedyAgent(seed * 16 + s) for s in range(players)]
        while (decision := game.decision()) is not None:
            game.answer(agents[decision.player].choose(game, decision), decision.player)
        turns += game.turn
    return time.process_time() - start, turns


def compiled_games(rules, players: int, first: int, count: int) -> tuple[float, int]:
    """``(CPU seconds, turns)`` of one compiled batch of ``count`` greedy games."""
    from machikoro.agents.compiled_policies import play_greedy
    from machikoro.compiled.games import CompiledGames

    start = time.process_time()
    games = play_greedy(CompiledGames(rules, players, range(first, first + count)))
    return time.process_time() - start, int(games.turns.sum())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="base")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--scalar-games", type=int, default=200)
    parser.add_argument("--check", type=int, default=0)
    parser.add_argument("--check-all", type=int, default=0)
    args = parser.parse_args(argv)
    if args.check_all:
        return check_all(args.check_all)
    rules, players = rule_set(args.variant), args.players
    print(f"{args.variant}, {players} players, greedy in every seat")
    seconds, _ = compiled_games(rules, players, 10**6, 2)
    print(f"first compile (or its cache) and two games: {seconds:.1f} CPU s")
    scalar, scalar_turns = scalar_games(rules, players, args.scalar_games)
    compiled, compiled_turns = compiled_games(rules, players, 0, args.games)
    per_scalar, per_compiled = scalar / args.scalar_games, compiled / args.games
    print(f"scalar engine: {args.scalar_games} games, {1000 * per_scalar:.3f} ms a game, "
          f"{scalar_turns / args.scalar_games:.1f} turns a game")
    print(f"compiled engine: {args.games} games, {1000 * per_compiled:.3f} ms a game, "
          f"{compiled_turns / args.games:.1f} turns a game")
    print(f"compiled / scalar: {per_scalar / per_compiled:.1f}x per game")
    if args.check:
        from machikoro.agents.compiled_policies import check_greedy

        start = time.process_time()
        report = check_greedy(rules, players, range(args.check))
        print(f"greedy-same check: {report.games} games, {report.decisions} decisions "
              f"({', '.join(f'{k} {v}' for k, v in report.asked.items())}), "
              f"{len(report.differences)} differences, "
              f"{time.process_time() - start:.0f} CPU s")
        for difference in report.differences[:5]:
            print(f"  {difference}")
        return 1 if report.differences else 0
    return 0


def check_all(count: int) -> int:
    """The greedy-same check on every case of ``bench/lockstep.py`` (``count`` games
    times its weight); 1 when any game differs."""
    from machikoro.agents.compiled_policies import check_greedy

    games = decisions = differences = 0
    start = time.process_time()
    for name, players, weight in CASES:
        report = check_greedy(rule_set(name), players, range(weight * count))
        games, decisions = games + report.games, decisions + report.decisions
        differences += len(report.differences)
        print(f"{name}, {players} players: {report.games} games, {report.decisions} "
              f"decisions, {len(report.differences)} differences", flush=True)
        for difference in report.differences[:3]:
            print(f"  {difference}")
    print(f"all: {games} games, {decisions} decisions, {differences} differences, "
          f"{time.process_time() - start:.0f} CPU s")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
