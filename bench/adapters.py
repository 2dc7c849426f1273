"""Benchmark: the PettingZoo and OpenSpiel adapters against the engine, in one run.

    python bench/adapters.py [--games 300] [--rounds 5] [--players 2] [--variant base]
                             [--json]

The same number of random games three ways, in ``--rounds`` rounds that alternate the sides
(a change of load hits all three), timed in CPU seconds (``time.process_time``):

- the engine: ``play(Game(...), [RandomAgent, ...])``;
- PettingZoo: ``machikoro.adapters.pettingzoo.env()`` (the wrapped environment users get), the loop
  PettingZoo documents (``agent_iter``, ``last()``, a random action from the mask,
  ``step``); every step builds the acting agent's observation and mask;
- OpenSpiel: ``pyspiel.load_game("machikoro")``, chance nodes sampled from
  ``chance_outcomes()``, a random legal action at each decision node.

Reported: turns per CPU second of each (a turn is one player's turn, extra turns
included), steps per second of each adapter (an environment step; an OpenSpiel action,
chance outcomes included), and the engine's turns/s divided by each adapter's (issue 17's
target: at most 5).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

from machikoro import Game, load_ruleset, make_agent, play


def engine_side(rules, players: int, seeds: range) -> tuple[int, int, float]:
    """(turns, steps, CPU seconds) of random games in the engine (steps: decisions)."""
    turns = steps = 0
    start = time.process_time()
    for seed in seeds:
        agents = [make_agent("random", seed * players + s) for s in range(players)]
        game = play(Game(rules, players, seed=seed, max_turns=1000), agents)
        turns += game.turn
        steps += len(game.history)
    return turns, steps, time.process_time() - start


def pettingzoo_side(variant: str, players: int, seeds: range) -> tuple[int, int, float]:
    """(turns, environment steps, CPU seconds) of random games through ``env()``."""
    from machikoro.adapters import pettingzoo

    env = pettingzoo.env(players=players, variant=variant, max_turns=1000)
    turns = steps = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
        turns += env.unwrapped.game.turn
    return turns, steps, time.process_time() - start


def openspiel_side(variant: str, players: int, seeds: range) -> tuple[int, int, float]:
    """(turns, actions, CPU seconds) of random games through pyspiel."""
    import pyspiel

    import machikoro.adapters.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("machikoro", {"players": players, "variant": variant,
                                           "max_turns": 1000})
    turns = steps = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        turns += state.game.turn
    return turns, steps, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per side per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="base")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    rules = load_ruleset(None if args.variant == "base" else args.variant)
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"{rules.name} is for {rules.min_players}-{rules.max_players} players")
    sides = {"engine": lambda seeds: engine_side(rules, args.players, seeds),
             "pettingzoo": lambda seeds: pettingzoo_side(args.variant, args.players, seeds),
             "openspiel": lambda seeds: openspiel_side(args.variant, args.players, seeds)}
    totals = {name: [0, 0, 0.0] for name in sides}
    for name, side in sides.items():  # warm-up: imports, tables, caches
        side(range(10**6, 10**6 + 3))
    for r in range(args.rounds):
        seeds = range(r * args.games, (r + 1) * args.games)
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            turns, steps, seconds = sides[name](seeds)
            total = totals[name]
            total[0] += turns
            total[1] += steps
            total[2] += seconds
    rate = {name: t[0] / t[2] for name, t in totals.items()}
    result = {
        "games": args.games * args.rounds, "players": args.players, "variant": args.variant,
        "turns_per_s": {name: round(v) for name, v in rate.items()},
        "steps_per_s": {name: round(t[1] / t[2]) for name, t in totals.items()},
        "engine_over_adapter": {name: round(rate["engine"] / rate[name], 2)
                                for name in ("pettingzoo", "openspiel")},
        "target": 5.0,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['games']} random games a side, {args.players} players, {args.variant}, "
          f"{args.rounds} rounds (CPU time)")
    for name in sides:
        steps = "" if name == "engine" else f", {result['steps_per_s'][name]:,} steps/s"
        print(f"  {name:<11} {result['turns_per_s'][name]:>9,} turns/s{steps}")
    for name, ratio in result["engine_over_adapter"].items():
        print(f"  engine / {name}: {ratio:.2f} (target: at most 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
