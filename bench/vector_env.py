"""Benchmark: the Gymnasium vector env over the compiled engine against the PettingZoo env,
as ratios measured in one run.

    python bench/vector_env.py [--envs 1000 --envs 10000] [--steps 200] [--games 200]
                               [--rounds 3] [--players 2] [--variant base] [--json]

Random masked actions on every side, timed in CPU seconds (``time.process_time``), in
``--rounds`` rounds that alternate the sides (a change of load hits all of them):

- the vector env: ``machikoro.adapters.vector_env.VectorEnv(num_envs, observation flat, random
  opponents)``, ``--steps`` steps of a uniform legal action per env drawn from
  ``action_masks()`` (a NumPy draw for all envs at once), for each ``--envs``; its steps
  per second are env steps (one learner action of one env), ``num_envs`` per ``step``;
- PettingZoo: ``machikoro.adapters.pettingzoo.env(observation="flat")``, the loop PettingZoo
  documents (``agent_iter``, ``last()``, a random action from ``info["action_mask"]``,
  ``step``) over ``--games`` games: every agent's action is a step;
- the single-agent Gymnasium env: ``SingleAgentEnv(observation="flat", opponents=
  ["random"])``, ``--games`` episodes: a step is a learner action, as the vector env's.

- ``--then COMMIT`` (default :data:`THEN`, the last commit before the batched engine, the
  code issue 18 measured; ``--then none`` leaves it out): the PettingZoo env of that
  commit, as issue 18 measured it ("3.8k steps/s through the PettingZoo environment"):
  its files taken with ``git archive`` into a temporary folder and played in a child
  process (the same loop, over ``env()``, its only observation then a dict with the
  mask), which times itself in CPU seconds and reports to this one; its rounds alternate
  with the others. Later work made the PettingZoo env several times faster (the
  adapters' steps, the engine's own speed), so the two baselines differ.

Reported: steps per CPU second of each, and the vector env's over PettingZoo's today and
over the PettingZoo env of ``--then`` (issue 18's target: at least 50 times "today's
PettingZoo env", the env of the day it was filed), and over the single-agent env's. The
machine may be shared and noisy: only the ratios, measured in the same run, are figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TARGET = 50.0
THEN = "00c36cb"
"""The last commit before the batched engine: the code issue 18 measured its PettingZoo
env on."""
ROOT = Path(__file__).resolve().parents[1]

_THEN_LOOP = """
import json, random, sys, time
import numpy as np
from machikoro import pettingzoo  # (the old commit's path)
players, variant, first, count = json.loads(sys.argv[1])
env = pettingzoo.env(players=players, variant=variant, max_turns=1000)
steps = 0
start = time.process_time()
for seed in range(first, first + count):
    rng = random.Random(seed)
    env.reset(seed=seed)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        steps += 1
print(json.dumps([steps, time.process_time() - start]))
"""


def uniform_legal(masks: np.ndarray, rng) -> np.ndarray:
    """One action per row of ``masks`` (``(envs, actions)`` bools, at least one True a
    row), uniform over the row's legal actions: the k-th True, k drawn below its count."""
    counts = masks.sum(axis=1)
    k = (rng.random(len(masks)) * counts).astype(np.int64)
    return (np.cumsum(masks, axis=1) > k[:, None]).argmax(axis=1)


def vector_side(env, steps: int, rng) -> tuple[int, float]:
    """(env steps, CPU seconds) of ``steps`` steps of random legal actions."""
    start = time.process_time()
    for _ in range(steps):
        env.step(uniform_legal(env.action_masks(), rng))
    return steps * env.num_envs, time.process_time() - start


def then_folder(commit: str) -> Path:
    """A temporary folder holding commit ``commit``'s files, importable as ``machikoro``
    (its ``interpreter`` folder under that name). Raises ``SystemExit`` when git cannot
    give them (a clone without that commit, no git)."""
    folder = Path(tempfile.mkdtemp(prefix="machikoro-then-"))
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(f"--then {commit}: git cannot give that commit's files here "
                         f"({error}); pass --then none to leave it out") from None
    (folder / "machikoro").symlink_to(folder / "interpreter")
    return folder


def then_side(folder: Path, players: int, variant: str, seeds: range) -> tuple[int, float]:
    """(environment steps, CPU seconds, as the child timed them) of random games through
    the PettingZoo env of the commit in ``folder``."""
    env = dict(os.environ, PYTHONPATH=str(folder),
               MACHIKORO_CACHE_DIR=str(folder / ".cache"))
    done = subprocess.run(
        [sys.executable, "-c", _THEN_LOOP,
         json.dumps([players, variant, seeds.start, len(seeds)])],
        capture_output=True, text=True, env=env, cwd=str(folder), check=False)
    if done.returncode:
        raise SystemExit(f"the PettingZoo env of --then failed:\n{done.stderr[-2000:]}")
    steps, seconds = json.loads(done.stdout.splitlines()[-1])
    return steps, seconds


def pettingzoo_side(variant: str, players: int, seeds: range) -> tuple[int, float]:
    """(environment steps, CPU seconds) of random games through ``env(observation=
    "flat")``."""
    from machikoro.adapters import pettingzoo

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
    from machikoro.adapters import pettingzoo

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
    parser.add_argument("--then", default=THEN,
                        help=f"the commit whose PettingZoo env is the issue's baseline "
                             f"(default {THEN}; 'none': leave it out)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = args.envs or [1000, 10000]
    if min(sizes) < 1 or args.steps < 1 or args.games < 1 or args.rounds < 1:
        parser.error("--envs, --steps, --games and --rounds must be at least 1")
    from machikoro.adapters.vector_env import VectorEnv

    rng = np.random.default_rng(0)
    envs = {}
    for n in sizes:
        env = envs[n] = VectorEnv(n, args.players, args.variant)
        env.reset(seed=0)
        vector_side(env, 20, rng)  # warm-up: tables, the decisions' paths, restarts
    pettingzoo_side(args.variant, args.players, range(10**6, 10**6 + 3))
    single_side(args.variant, args.players, range(10**6, 10**6 + 3))
    then = None if args.then == "none" else then_folder(args.then)
    try:
        return _run(args, sizes, envs, rng, then)
    finally:
        if then is not None:
            shutil.rmtree(then, ignore_errors=True)


def _run(args, sizes: list, envs: dict, rng, then: Path | None) -> int:
    """The rounds and the report of :func:`main`."""
    if then is not None:  # warm-up: the commit's rule-set cache made
        then_side(then, args.players, args.variant, range(10**6, 10**6 + 3))
    names = [f"vector:{n}" for n in sizes] + ["pettingzoo", "single"]
    totals = {name: [0, 0.0] for name in names + (["then"] if then else [])}
    for r in range(args.rounds):
        seeds = range(r * args.games, (r + 1) * args.games)
        sides = [(f"vector:{n}", lambda env=envs[n]: vector_side(env, args.steps, rng))
                 for n in sizes]
        sides += [("pettingzoo", lambda seeds=seeds: pettingzoo_side(args.variant,
                                                                    args.players, seeds)),
                  ("single", lambda seeds=seeds: single_side(args.variant, args.players,
                                                             seeds))]
        if then is not None:
            sides.append(("then", lambda seeds=seeds: then_side(then, args.players,
                                                                args.variant, seeds)))
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
        "then": args.then,
        "over_pettingzoo_then": {n: round(rate[f"vector:{n}"] / rate["then"], 1)
                                 for n in sizes} if then else None,
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
    if then:
        print(f"  PettingZoo env() of {args.then:<9} {result['steps_per_s']['then']:>11,} "
              "steps/s (every agent's step; the issue's baseline)")
    for n in sizes:
        against = f", {result['over_pettingzoo_then'][n]}x PettingZoo of {args.then} " \
            f"(target >= {TARGET:g})" if then else ""
        print(f"  VectorEnv num_envs={n:<10,} {result['steps_per_s'][f'vector:{n}']:>11,} "
              f"steps/s: {result['over_pettingzoo'][n]}x PettingZoo today{against}, "
              f"{result['over_single_agent_env'][n]}x SingleAgentEnv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
