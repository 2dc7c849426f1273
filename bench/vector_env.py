"""Benchmark: the Gymnasium vector env over the batched engine against the PettingZoo env,
as ratios measured in one run.

    python bench/vector_env.py [--envs 1000 --envs 10000] [--steps 200] [--games 200]
                               [--rounds 3] [--players 2] [--variant base] [--json]

Random masked actions on every side, timed in CPU seconds (``time.process_time``), in
``--rounds`` rounds that alternate the sides (a change of load hits all of them):

- the vector env: ``machikoro.vector_env.VectorEnv(num_envs, observation flat, random
  opponents)``, ``--steps`` steps of a uniform legal action per env drawn from
  ``action_masks()`` (a NumPy draw for all envs at once), for each ``--envs``; its steps
  per second are env steps (one learner action of one env), ``num_envs`` per ``step``;
- PettingZoo: ``machikoro.pettingzoo.env(observation="flat")``, the loop PettingZoo
  documents (``agent_iter``, ``last()``, a random action from ``info["action_mask"]``,
  ``step``) over ``--games`` games: every agent's action is a step;
- the single-agent Gymnasium env: ``SingleAgentEnv(observation="flat", opponents=
  ["random"])``, ``--games`` episodes: a step is a learner action, as the vector env's.

Reported: steps per CPU second of each, and the vector env's over PettingZoo's (issue 18's
target: at least 50) and over the single-agent env's. The machine may be shared and noisy:
only the ratios, measured in the same run, are figures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

TARGET = 50.0


def vector_side(env, steps: int, rng) -> tuple[int, float]:
    """(env steps, CPU seconds) of ``steps`` steps of random legal actions."""
    start = time.process_time()
    for _ in range(steps):
        masks = env.action_masks()
        env.step((rng.random(masks.shape) * masks).argmax(axis=1))
    return steps * env.num_envs, time.process_time() - start


def pettingzoo_side(variant: str, players: int, seeds: range) -> tuple[int, float]:
    """(environment steps, CPU seconds) of random games through ``env(observation=
    "flat")``."""
    from machikoro import pettingzoo

    env = pettingzoo.env(players=players, variant=variant, max_turns=1000,
                         observation="flat")
    steps = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _ in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
            steps += 1
    return steps, time.process_time() - start


def single_side(variant: str, players: int, seeds: range) -> tuple[int, float]:
    """(learner steps, CPU seconds) of random episodes of ``SingleAgentEnv``."""
    from machikoro import pettingzoo

    env = pettingzoo.SingleAgentEnv(players=players, variant=variant, opponents=["random"],
                                    observation="flat")
    steps = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        _, info = env.reset(seed=seed)
        while True:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
    return steps, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, action="append",
                        help="num_envs of a vector env (repeat; default 1000 and 10000)")
    parser.add_argument("--steps", type=int, default=200, help="vector env steps a round")
    parser.add_argument("--games", type=int, default=200,
                        help="PettingZoo games (and single-agent episodes) a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="base")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = args.envs or [1000, 10000]
    if min(sizes) < 1 or args.steps < 1 or args.games < 1 or args.rounds < 1:
        parser.error("--envs, --steps, --games and --rounds must be at least 1")
    from machikoro.vector_env import VectorEnv

    rng = np.random.default_rng(0)
    envs = {}
    for n in sizes:
        env = envs[n] = VectorEnv(n, args.players, args.variant)
        env.reset(seed=0)
        vector_side(env, 20, rng)  # warm-up: tables, the decisions' paths, restarts
    pettingzoo_side(args.variant, args.players, range(10**6, 10**6 + 3))
    single_side(args.variant, args.players, range(10**6, 10**6 + 3))
    totals = {name: [0, 0.0] for name in [f"vector:{n}" for n in sizes] +
              ["pettingzoo", "single"]}
    for r in range(args.rounds):
        seeds = range(r * args.games, (r + 1) * args.games)
        sides = [(f"vector:{n}", lambda env=envs[n]: vector_side(env, args.steps, rng))
                 for n in sizes]
        sides += [("pettingzoo", lambda seeds=seeds: pettingzoo_side(args.variant,
                                                                    args.players, seeds)),
                  ("single", lambda seeds=seeds: single_side(args.variant, args.players,
                                                             seeds))]
        for name, side in (sides if r % 2 == 0 else reversed(sides)):
            steps, seconds = side()
            totals[name][0] += steps
            totals[name][1] += seconds
    rate = {name: steps / seconds for name, (steps, seconds) in totals.items()}
    result = {
        "players": args.players, "variant": args.variant, "rounds": args.rounds,
        "steps_per_s": {name: round(v) for name, v in rate.items()},
        "over_pettingzoo": {n: round(rate[f"vector:{n}"] / rate["pettingzoo"], 1)
                            for n in sizes},
        "over_single_agent_env": {n: round(rate[f"vector:{n}"] / rate["single"], 1)
                                  for n in sizes},
        "target": TARGET,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{args.players} players, {args.variant}, random masked actions, {args.rounds} "
          f"rounds (CPU time)")
    print(f"  PettingZoo env(flat)           {result['steps_per_s']['pettingzoo']:>11,} "
          "steps/s (every agent's step)")
    print(f"  SingleAgentEnv(flat, random)   {result['steps_per_s']['single']:>11,} "
          "steps/s (learner steps)")
    for n in sizes:
        print(f"  VectorEnv num_envs={n:<10,} {result['steps_per_s'][f'vector:{n}']:>11,} "
              f"steps/s: {result['over_pettingzoo'][n]}x PettingZoo (target >= {TARGET:g}),"
              f" {result['over_single_agent_env'][n]}x SingleAgentEnv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
