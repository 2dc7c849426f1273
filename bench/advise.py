"""Benchmark: the advisor's accuracy at its default budget against a large-budget estimate.

    python bench/advise.py [--positions 30] [--truth-games 100000] [--seed 0]
                           [--workers 1] [--only RULES:PLAYERS ...] [--truth-cache F]
                           [--seeds 1] [--agents greedy] [--cutoff auto]
                           [--engine auto] [--json]

Positions from real games: greedy plays seeded games of the bundled rule sets below (each
case in turn), and the position is taken at the first build decision with at least three
options from turn ``8 + 4k`` on (k cycling 0..3). For each position, ``advise`` at its
default budget (2 s of CPU) gives the estimates under test, and ``advise`` with
``--truth-games`` rollouts in all (no time limit, another seed) the reference. Reported:
per position the mean absolute error of the options' win rates and the CPU seconds of
the default run; over all positions the mean of those errors. Target (issue 19): mean
absolute error <= 0.03, each position <= 2 s of CPU. ``--workers`` answers positions in
that many processes at once (each timing its own CPU); rows print as they finish (then
in that order). ``--only`` measures the positions of some cases (the same positions as
the whole run); ``--truth-cache`` keeps the reference runs (raw wins and games per option)
in a JSON file and reuses them, so that the estimates under test can be measured again
without the hours of reference playouts. ``--seeds N`` runs the default budget N times
per position (other seeds), for an error less noisy than one run's. ``--agents`` names the
agent of every seat of the rollouts, under test and reference alike (default greedy);
``--cutoff`` is the advisor's under test (``auto``, ``end`` or turns: rollouts cut short
and scored by the learned value), the reference's rollouts always play to the end;
``--engine`` the advisor's engine under test (``scalar``: the choice of ``auto`` before
the compiled engine, at the default budget); the reference's is ``auto``, which plays its
large rounds in the compiled engine where its code is compiled on the machine (else in
the scalar engine, many times slower: compile it first, ``--engine compiled`` on one
position).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from machikoro import Game, make_agent
from machikoro.data.bundled import resolve_variant
from machikoro.lab.advise import advise
from machikoro.rules.loader import load_ruleset

CASES = [("base", 2), ("base", 4), ("harbor", 3), ("millionaires-row", 2),
         ("market/hybrid", 3), ("harbor+millionaires-row", 4), ("machi-koro-2", 4),
         ("market/variable", 2)]
"""The rule sets and player counts measured, each bundled rule set at least once."""

STRIDE = 6
"""Case ``c``'s ``r``-th position is from the game seeded ``first_seed + c + STRIDE * r``
(the next free seed after it, ``+ 1000``, when that game ends before the turn): six, the
cases of the first runs, so that their positions stay those of the kept reference runs."""


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


def _picked(count: int, first_seed: int) -> list[tuple]:
    """``(name, players, seed, from_turn)`` of ``count`` positions, the cases in turn
    (seeds: :data:`STRIDE`)."""
    picked = []
    for at in range(count):
        r, c = divmod(at, len(CASES))
        name, players = CASES[c]
        seed = first_seed + c + STRIDE * r
        while True:
            from_turn = 8 + 4 * (seed % 4)
            if position(rule_set(name), players, seed, from_turn) is not None:
                break
            seed += 1000
        picked.append((name, players, seed, from_turn))
    return picked


def measure(task: tuple) -> dict:
    """The row of one position: ``task`` is ``(name, players, seed, from_turn,
    truth_games, truth)``; ``truth`` (or None: played now) maps each option (as text) to
    its reference ``[wins, games]``, the raw rate of the large run."""
    name, players, seed, from_turn, truth_games, agent, cutoff, truth, seeds, engine = task
    game = position(rule_set(name), players, seed, from_turn)
    agents = [agent] * players
    runs = []
    for tested_seed in [1] + list(range(3, seeds + 2)):  # (2: the reference's)
        start = time.process_time()
        tested = {str(e.option): e.rate for e in advise(game, agents, seed=tested_seed,
                                                        cutoff=cutoff, engine=engine)}
        runs.append((tested, time.process_time() - start))
    cpu = max(c for _, c in runs)
    if truth is None:
        truth = {str(e.option): [e.wins, e.games] for e in advise(
            game, agents, games=truth_games, seconds=None, seed=2,
            round_games=truth_games, cutoff=None)}
    error = sum(abs(tested[o] - w / g) for tested, _ in runs
                for o, (w, g) in truth.items()) / (len(truth) * len(runs))
    return {"rules": name, "players": players, "seed": seed, "turn": game.turn,
            "options": len(truth), "error": error, "cpu_s": cpu, "truth": truth,
            "key": _key(task)}


def _key(task: tuple) -> str:
    """A position's key in ``--truth-cache``: rule set, players, seed, turn, games (and
    the agent, where not greedy)."""
    name, players, seed, from_turn, truth_games, agent = task[:6]
    key = f"{name}:{players}:{seed}:{from_turn}:{truth_games}"
    return key if agent == "greedy" else f"{key}:{agent}"


def _cutoff(text: str):
    """``--cutoff``: ``auto``, ``end`` (None) or a whole number of turns."""
    return None if text == "end" else text if text == "auto" else int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--truth-games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", action="append", default=None,
                        help="RULES:PLAYERS: measure only the positions of these cases")
    parser.add_argument("--truth-cache", default=None,
                        help="a JSON file of the reference runs: read where it holds a "
                             "position, written with every position measured")
    parser.add_argument("--seeds", type=int, default=1,
                        help="default-budget runs per position (seeds 1, 3, 4...; 2 is the "
                             "reference's): the error is their mean, the CPU time their most")
    parser.add_argument("--agents", default="greedy",
                        help="the agent of every seat of the rollouts (default greedy)")
    parser.add_argument("--cutoff", type=_cutoff, default="auto",
                        help="the advisor's cut-off under test: auto, end or turns")
    parser.add_argument("--engine", default="auto",
                        choices=("auto", "compiled", "scalar"),
                        help="the advisor's engine under test (default auto); the "
                             "reference's is auto")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if min(args.positions, args.truth_games, args.workers, args.seeds) < 1:
        parser.error("--positions, --truth-games, --workers and --seeds must be at least 1")
    cache = {}
    if args.truth_cache and Path(args.truth_cache).exists():
        cache = json.loads(Path(args.truth_cache).read_text())
    tasks = [p + (args.truth_games, args.agents, args.cutoff)
             for p in _picked(args.positions, args.seed)
             if args.only is None or f"{p[0]}:{p[1]}" in args.only]
    tasks = [t + (cache.get(_key(t)), args.seeds, args.engine) for t in tasks]
    rows = []
    with ProcessPoolExecutor(args.workers) as pool:
        done = as_completed([pool.submit(measure, t) for t in tasks]) \
            if args.workers > 1 else map(measure, tasks)
        for row in done:
            row = row if isinstance(row, dict) else row.result()
            rows.append(row)
            if args.truth_cache:  # kept as each position ends (a long run may stop)
                cache[row.pop("key")] = row.pop("truth")
                Path(args.truth_cache).write_text(json.dumps(cache, indent=1))
            else:
                del row["key"], row["truth"]
            if not args.json:
                print(f"{row['rules']}, {row['players']} players, game {row['seed']} turn "
                      f"{row['turn']}: {row['options']} options, mean absolute error "
                      f"{row['error']:.3f}, {row['cpu_s']:.2f} s CPU", flush=True)
    mean = sum(r["error"] for r in rows) / len(rows)
    slowest = max(r["cpu_s"] for r in rows)
    by_rules: dict = {}
    for r in rows:
        by_rules.setdefault(f"{r['rules']}:{r['players']}", []).append(r["error"])
    if args.json:
        print(json.dumps({"mean_error": mean, "slowest_cpu_s": slowest,
                          "mean_error_by_rules": {k: sum(v) / len(v)
                                                  for k, v in by_rules.items()},
                          "positions": rows}, indent=2))
    else:
        for key, errors in by_rules.items():
            print(f"  {key}: mean absolute error {sum(errors) / len(errors):.3f} over "
                  f"{len(errors)} positions")
        print(f"all: {len(rows)} positions, mean absolute error {mean:.3f} (target <= 0.03), "
              f"slowest {slowest:.2f} s CPU (target <= 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
