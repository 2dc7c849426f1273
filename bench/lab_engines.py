"""Benchmark: ``machikoro simulate`` with the scalar engine and with the batched engine (the
compiled one).

    python bench/lab_engines.py [--games 20000] [--case base:2]
                                [--case harbor+millionaires-row:4] [--workers 1]
                                [--agents random] [--batch N]
                                [--bookkeeping-games 20000] [--json]

For each case (``base`` or bundled variant names joined by ``+``, and a player count),
``machikoro simulate --agents A --games G`` is run as a command (``--agents``, default
``random``: any agents the compiled engine plays), once with ``--engine scalar`` and once
with ``--engine vector``: its wall time and its CPU time (user
and system, of the command and of its worker processes: ``resource.getrusage`` of the
children), and their ratios. The command's whole cost counts: start-up, seeds, the games,
the statistics and the report; the compiled code must be compiled on the machine before
(a first compile takes minutes and would be counted: run it twice).

``--bookkeeping-games`` also measures the lab's bookkeeping of one batch of that many
batched games (base set, 2 players): counting them one record at a time
(``Summary.add``, as the scalar engine's games are counted) against counting the batch's
arrays at once (``Summary.add_batch``), in CPU time, beside the CPU time of playing the
batch. It is why the batched path fills its summary from arrays.

The machine may be shared and noisy: only ratios measured in the same run are figures.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np


def rusage_children() -> float:
    """CPU seconds (user + system) of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate(case: str, players: int, games: int, engine: str, workers: int,
             batch: int | None, agents: str = "random") -> dict:
    """Run ``machikoro simulate`` once: wall and CPU seconds, and its report's turns."""
    variants = [] if case == "base" else [a for v in case.split("+")
                                          for a in ("--variant", v)]
    command = [sys.executable, "-m", "machikoro", "simulate", *variants, "--players",
               str(players), "--agents", agents, "--games", str(games), "--engine",
               engine, "--workers", str(workers), "--json"]
    if batch is not None and engine == "vector":
        command += ["--batch", str(batch)]
    cpu, wall = rusage_children(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall, cpu = time.perf_counter() - wall, rusage_children() - cpu
    report = json.loads(done.stdout)
    assert report["engine"] == engine, report["engine"]
    return {"engine": engine, "wall_s": wall, "cpu_s": cpu,
            "mean_turns": report["turns"]["mean"], "games": report["games"]}


def bookkeeping(games: int) -> dict:
    """CPU seconds of one batch of ``games`` batched games (base set, 2 players): playing
    it, counting its records one by one, counting its arrays at once."""
    from machikoro.compiled.games import CompiledGames
    from machikoro.lab import engines
    from machikoro.lab.runs import RunSpec, game_seeds
    from machikoro.lab.summary import Summary
    from machikoro.rules.loader import cached_ruleset

    rules = cached_ruleset(None)
    seeds = np.array(game_seeds(0, 0, games, 2), dtype=np.int64)
    CompiledGames(rules, 2, [0], max_turns=1)  # (the code loaded, not timed)
    start = time.process_time()
    batch = CompiledGames(rules, 2, seeds[:, 0], keep_builds=True)
    engines.play_compiled(batch, ("random",), np.zeros((games, 2), dtype=np.int64),
                          seeds[:, 1:])
    played = time.process_time() - start
    spec = RunSpec(None, 2, ("random", "random"), 0)
    seated = np.zeros((games, 2), dtype=np.int64)
    start = time.process_time()
    arrays = engines.batch_arrays(batch, seated, ("random",))
    at_once = Summary(2, spec.agents)
    at_once.add_batch(arrays, rules.ids, rules.victory)
    array_s = time.process_time() - start
    start = time.process_time()
    records = engines.batch_records(arrays, rules.ids, 0, seeds[:, 0],
                                    [("random", "random")] * games)
    landmarks = frozenset(rules.ids[i] for i in rules.victory)
    one_by_one = Summary(2, spec.agents)
    for record in records:
        one_by_one.add(record, landmarks)
    records_s = time.process_time() - start
    assert vars(one_by_one) == vars(at_once)
    return {"games": games, "play_s": played, "records_and_add_s": records_s,
            "add_batch_s": array_s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--case", action="append", default=None,
                        help="RULESET:PLAYERS (default: base:2 and harbor+millionaires-row:4)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--batch", type=int, default=None)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--bookkeeping-games", type=int, default=20_000,
                        help="games of the bookkeeping measure (0: skip it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.bookkeeping_games < 0:
        parser.error("--games and --workers must be at least 1, --bookkeeping-games 0 or more")
    cases = args.case or ["base:2", "harbor+millionaires-row:4"]
    results: dict = {"games": args.games, "workers": args.workers, "agents": args.agents,
                     "cases": []}
    for case in cases:
        name, _, players = case.rpartition(":")
        runs = [simulate(name, int(players), args.games, engine, args.workers, args.batch,
                         args.agents) for engine in ("scalar", "vector")]
        scalar, vector = runs
        results["cases"].append({
            "case": name, "players": int(players), "runs": runs,
            "cpu_ratio": scalar["cpu_s"] / vector["cpu_s"],
            "wall_ratio": scalar["wall_s"] / vector["wall_s"]})
    if args.bookkeeping_games:
        results["bookkeeping"] = bookkeeping(args.bookkeeping_games)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"simulate --agents {args.agents} --games {args.games} --workers {args.workers}")
    for c in results["cases"]:
        print(f"\n{c['case']}, {c['players']} players")
        for r in c["runs"]:
            print(f"  --engine {r['engine']:<7} wall {r['wall_s']:7.1f} s   CPU "
                  f"{r['cpu_s']:7.1f} s   (mean {r['mean_turns']:.1f} turns a game)")
        print(f"  scalar / vector: {c['cpu_ratio']:.1f}x CPU, {c['wall_ratio']:.1f}x wall")
    if "bookkeeping" in results:
        b = results["bookkeeping"]
        print(f"\nbookkeeping of one batch of {b['games']} games (base, 2 players), CPU: "
              f"playing it {b['play_s']:.2f} s; records and Summary.add one by one "
              f"{b['records_and_add_s']:.2f} s; Summary.add_batch {b['add_batch_s']:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
