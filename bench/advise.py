"""Benchmark: the advisor's accuracy at its default budget against a large-budget estimate.

    python bench/advise.py [--positions 30] [--truth-games 100000] [--seed 0] [--json]

Positions from real games: greedy plays seeded games of the bundled rule sets below (each
case in turn), and the position is taken at the first build decision with at least three
options from turn ``8 + 4k`` on (k cycling 0..3). For each position, ``advise`` at its
default budget (2 s of CPU) gives the estimates under test, and ``advise`` with
``--truth-games`` rollouts in all (no time limit, another seed) the reference. Reported:
per position the mean absolute error of the options' win rates and the CPU seconds of
the default run; over all positions the mean of those errors. Target (issue 19): mean
absolute error <= 0.03, each position <= 2 s of CPU.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from machikoro import Game, make_agent
from machikoro.data.bundled import resolve_variant
from machikoro.lab.advise import advise
from machikoro.rules.loader import load_ruleset

CASES = [("base", 2), ("base", 4), ("harbor", 3), ("millionaires-row", 2),
         ("market/hybrid", 3), ("harbor+millionaires-row", 4)]


def rule_set(name: str):
    """The rule set of ``base`` or bundled variant names joined by ``+``."""
    if name == "base":
        return load_ruleset()
    paths = [str(resolve_variant(part)) for part in name.split("+")]
    return load_ruleset(paths if len(paths) > 1 else paths[0])


def position(rules, players: int, seed: int, from_turn: int) -> Game | None:
    """The first build decision with >= 3 options from ``from_turn`` on of a greedy game
    seeded ``seed``, or None when the game ends first."""
    game = Game(rules, players, seed=seed)
    agents = [make_agent("greedy", seed * 16 + s, rules) for s in range(players)]
    while not game.over:
        decision = game.decision()
        if decision.name == "build" and game.turn >= from_turn and len(decision.options) >= 3:
            return game
        game.answer(agents[decision.player].choose(game, decision), decision.player)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--truth-games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    seed = args.seed
    while len(rows) < args.positions:
        name, players = CASES[len(rows) % len(CASES)]
        rules = rule_set(name)
        game = position(rules, players, seed, 8 + 4 * (seed % 4))
        seed += 1
        if game is None:
            continue
        start = time.process_time()
        tested = {e.option: e.rate for e in advise(game, seed=1)}
        cpu = time.process_time() - start
        truth = {e.option: e.rate for e in advise(game, games=args.truth_games, seconds=None,
                                                   seed=2, round_games=args.truth_games)}
        error = sum(abs(tested[o] - truth[o]) for o in truth) / len(truth)
        rows.append({"rules": name, "players": players, "seed": seed - 1, "turn": game.turn,
                     "options": len(truth), "error": error, "cpu_s": cpu})
        if not args.json:
            print(f"{name}, {players} players, game {seed - 1} turn {game.turn}: "
                  f"{len(truth)} options, mean absolute error {error:.3f}, {cpu:.2f} s CPU",
                  flush=True)
    mean = sum(r["error"] for r in rows) / len(rows)
    slowest = max(r["cpu_s"] for r in rows)
    if args.json:
        print(json.dumps({"mean_error": mean, "slowest_cpu_s": slowest, "positions": rows},
                         indent=2))
    else:
        print(f"all: {len(rows)} positions, mean absolute error {mean:.3f} (target <= 0.03), "
              f"slowest {slowest:.2f} s CPU (target <= 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
