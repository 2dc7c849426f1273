"""Benchmark: the compiled engine against the scalar engine, as ratios of CPU time measured
in one run.

    python bench/compiled.py [--sizes 1 1000 20000] [--scalar-games 1000] [--players 2]
                             [--variant harbor+millionaires-row]

Random agents on every side, the base set (or ``--variant``: bundled names joined by ``+``):
the scalar engine plays ``--scalar-games`` games one by one (``Game`` and
``RandomAgent``), the compiled engine (``CompiledGames.play_random``) batches of each
size, one after another, as many as make ``--scalar-games`` games (one batch where the size
is larger): at size 1, ``--scalar-games`` batches of one game each, so that one game's luck
(its length) does not make the figure, as it did until stop 61 (one batch of one game). For
each size: CPU seconds per game (``time.process_time``, each batch's set-up included; the
compiled engine's first compile is made before, and reported apart) and the ratio to the
scalar engine's, and turns per CPU second. The two engines' games are not the same games
(the scalar engine draws from its own generator), so the ratios are per game and per turn. (Until issue 35 this
script measured the NumPy batched engine too: bench/results/compiled.txt.)

The machine may be shared and noisy: only the ratios, measured in the same run, are figures.
Targets (issue 35): >= 50x the scalar engine per game at 1, 1,000 and 100,000 games on the
base set at 2 players; >= 30x on Harbor + Millionaire's Row and Machi Koro 2 at 4 players.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lockstep import rule_set


def scalar_turns(rules, players: int, first: int, count: int) -> tuple[float, int]:
    """``(CPU seconds, turns)`` of ``count`` scalar games with random agents."""
    from machikoro import Game, RandomAgent, play

    start = time.process_time()
    turns = 0
    for i in range(first, first + count):
        game = Game(rules, players, seed=i, max_turns=1000)
        play(game, [RandomAgent(i * 16 + s) for s in range(players)])
        turns += game.turn
    return time.process_time() - start, turns


def compiled_turns(rules, players: int, first: int, count: int) -> tuple[float, int]:
    """``(CPU seconds, turns)`` of one compiled batch of ``count`` games, random agents
    (set-up included)."""
    from machikoro.compiled.games import CompiledGames

    start = time.process_time()
    games = CompiledGames(rules, players, range(first, first + count))
    seeds = np.arange(first, first + count)[:, None] * 16 + np.arange(players)
    games.play_random(seeds)
    return time.process_time() - start, int(games.turns.sum())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 1000, 20000])
    parser.add_argument("--scalar-games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="base")
    args = parser.parse_args(argv)
    rules, players = rule_set(args.variant), args.players
    print(f"{args.variant}, {players} players, random agents")

    start = time.process_time()
    compiled_turns(rules, players, 10**9, 1)  # the first compile (or loading its cache)
    print(f"first compile (or its cache): {time.process_time() - start:.1f} CPU s")
    seconds, turns = scalar_turns(rules, players, 0, args.scalar_games)
    scalar_game = seconds / args.scalar_games
    print(f"scalar engine: {args.scalar_games} games, {turns / seconds:,.0f} turns/s, "
          f"{scalar_game * 1e3:.3f} ms a game")
    print("| games | engine | turns/s | ms a game | x scalar (per game) | x scalar (per turn) |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    for size in args.sizes:
        compiled_turns(rules, players, 0, size)  # (a first batch of this size: allocation)
        batches = max(1, args.scalar_games // size)
        seconds, played = 0.0, 0
        for b in range(batches):
            more, played_now = compiled_turns(rules, players, b * size, size)
            seconds, played = seconds + more, played + played_now
        per_game = seconds / (size * batches)
        print(f"| {size:,} | compiled | {played / seconds:,.0f} | {per_game * 1e3:.4f} | "
              f"{scalar_game / per_game:.1f} | "
              f"{(played / seconds) / (turns / (scalar_game * args.scalar_games)):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
