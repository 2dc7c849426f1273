"""Benchmark: machikoro's speed as ratios measured in one run on one machine.

    python bench/bench.py [--games 6000] [--greedy-games 300] [--greedy-warmup 100]
                          [--players 2,4] [--rounds 10] [--sim-games 4000]
                          [--limit-engine PATH] [--skip-workers] [--json]

1. The engine: ``random`` agents against the limit engine (``../shared/bench/
   limit_engine.py``, a tight hand-written engine of the base game), and ``greedy``
   against machikoro's own ``random``, for each player count, in ``--rounds`` rounds;
   turns per second of CPU time (``time.process_time``; a turn is one player's turn, extra
   turns included). Greedy's warm-up games before the rounds, while its memo fills, are
   timed apart (``--greedy-warmup``).
2. ``simulate``'s own cost: the lab playing games (:func:`machikoro.lab.runs.run_chunk`:
   seeds, seating, records, summary) against the bare engine playing the same games, in
   rounds of the lab's own chunk of 250 games (each side of a round in a fork of the
   process).
3. Two worker processes against one (wall-clock time of the same games), with the load
   average before, since a busy machine cannot show the gain.

The machine may be shared and noisy: every comparison alternates its sides in rounds and
sums each side's time, so a change of load hits both. Targets (issue 10) are printed beside
each ratio. Start-up is measured by ``bench/startup.py``.

Small runs read worse, not only noisier: a chunk of games and a worker process have fixed
costs (a chunk's seeds and summary; starting the processes), large next to a few hundred
games. ``--sim-games 400`` reads the lab's cost a few hundredths higher and two workers'
gain lower than the defaults do.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import platform
import random
import statistics
import sys
import time
import traceback
from pathlib import Path

from machikoro import Game, __version__, load_ruleset, make_agent, play
from machikoro.agents.registry import agent_factory
from machikoro.lab.executors import Executor
from machikoro.lab.runs import RunSpec, game_seed, run_chunk
from machikoro.lab.simulation import CHUNK, play_games
from machikoro.rules.loader import cached_ruleset

ROOT = Path(__file__).resolve().parents[1]
LIMIT_ENGINE = ROOT.parent / "shared" / "bench" / "limit_engine.py"


def load_limit_engine(path: Path):
    """The limit engine's module (its ``play(players, rng) -> turns``), or None."""
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("limit_engine", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def machikoro_games(rules, players: int, agent: str, first: int, count: int) -> tuple:
    """Play games ``first``..``first + count - 1`` (game i seeded i, its agents i * 16 +
    seat): ``(CPU seconds, turns)``."""
    start = time.process_time()
    turns = 0
    for i in range(first, first + count):
        game = Game(rules, players, seed=i, max_turns=2000)
        play(game, [make_agent(agent, i * 16 + s, rules) for s in range(players)])
        turns += game.turn
    return time.process_time() - start, turns


def limit_games(limit, players: int, rng: random.Random, count: int) -> tuple:
    """Play ``count`` games of the limit engine: ``(CPU seconds, turns)``."""
    start = time.process_time()
    turns = sum(limit.play(players, rng) for _ in range(count))
    return time.process_time() - start, turns


def engine_ratios(rules, limit, players: int, games: int, greedy_games: int,
                  rounds: int, warmup: int = 0) -> dict:
    """Turns/s of machikoro's random and greedy agents and of the limit engine, the three
    alternating in ``rounds`` rounds, after ``warmup`` greedy games of other seeds.

    Greedy keeps what it works out about towns in a memo shared by the games of a process
    (:mod:`machikoro.engine.payouts`), which fills over a process's first hundred-odd games:
    those run at about two thirds of the speed of the games after them. The warm-up games
    are timed apart (``greedy_cold``): the rounds measure the speed of a run of thousands of
    games, as ``simulate`` and ``compare`` play them, and the cold figure what a short run
    sees."""
    totals = {"random": [0.0, 0], "greedy": [0.0, 0], "limit": [0.0, 0]}
    by_round: dict = {"random_vs_limit": [], "greedy_vs_random": []}
    cold = machikoro_games(rules, players, "greedy", 10**6, warmup) if warmup else (0.0, 0)
    rng = random.Random(0)
    for r in range(rounds):
        parts = {"random": machikoro_games(rules, players, "random", r * games // rounds,
                                           games // rounds),
                 "greedy": machikoro_games(rules, players, "greedy",
                                           r * greedy_games // rounds, greedy_games // rounds)}
        if limit is not None:
            parts["limit"] = limit_games(limit, players, rng, games // rounds)
        for name, (seconds, turns) in parts.items():
            totals[name][0] += seconds
            totals[name][1] += turns
        speed = {name: turns / seconds for name, (seconds, turns) in parts.items() if seconds}
        if "limit" in speed and "random" in speed:
            by_round["random_vs_limit"].append(speed["random"] / speed["limit"])
        if "greedy" in speed and "random" in speed:
            by_round["greedy_vs_random"].append(speed["greedy"] / speed["random"])
    speed = {name: turns / seconds if seconds else None
             for name, (seconds, turns) in totals.items()}
    return {"players": players, "turns_per_s": speed,
            "random_vs_limit": speed["random"] / speed["limit"] if speed["limit"] else None,
            "greedy_vs_limit": speed["greedy"] / speed["limit"] if speed["limit"] else None,
            "greedy_vs_random": speed["greedy"] / speed["random"], "by_round": by_round,
            "greedy_cold": {"games": warmup, "turns_per_s": cold[1] / cold[0],
                            "vs_random": cold[1] / cold[0] / speed["random"]}
            if cold[0] else None}


def _cpu_in_fork(work, warmup) -> float:
    """CPU seconds (``time.process_time``) of ``work()`` run in a fork of this process, so
    that whatever it leaves behind (greedy's memo) never reaches the next measurement: each
    side of a comparison starts from the same state. ``warmup()`` runs first, untimed: the
    fork's first writes to the pages it shares with this process copy them, a cost of the
    fork and not of the work. Where there is no ``os.fork``, both run here."""
    if not hasattr(os, "fork"):
        warmup()
        start = time.process_time()
        work()
        return time.process_time() - start
    gc.freeze()  # the child's collections leave the parent's objects (and pages) alone
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe and exits
        code = 1
        try:
            os.close(read)
            warmup()
            start = time.process_time()
            work()
            os.write(write, repr(time.process_time() - start).encode())
            code = 0
        except BaseException:  # noqa: BLE001 - reported here, then the child exits
            traceback.print_exc()  # on the parent's stderr: what failed, before it is lost
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    _, status = os.waitpid(child, 0)
    gc.unfreeze()
    if status != 0:
        raise RuntimeError("a measured fork failed (its traceback is above)")
    return float(text)


def simulate_ratio(players: int, agent: str, games: int) -> dict:
    """CPU time of the lab playing ``games`` games (``run_chunk``: seeds from the run's seed,
    seating, per-game records, the summary) over the bare engine playing the same games
    (the same seeds and agents, known beforehand), in an even number of rounds of about the
    lab's own chunk of games (:data:`machikoro.lab.simulation.CHUNK`, 250; at least two
    rounds). A chunk has fixed costs (its seeds, its summary, its Ctrl-C handler), so
    smaller rounds would charge the lab more than ``simulate`` pays.

    Greedy's memo is warmed on other games first, and each side of each round runs in a fork
    of this warmed process (:func:`_cpu_in_fork`): neither side finds the other's games in
    the memo, and both start from the same one. Each side of a round runs twice, and the
    lower time counts (load only ever adds time). (Measured in one process, whichever side
    went second found the games in the memo, and the memo's clearing when full fell on one
    side or the other: greedy's ratio moved by several hundredths from run to run.)"""
    spec = RunSpec(None, players, (agent,) * players, seed=1)
    rules = cached_ruleset(None)  # the lab's own rule set object: the same greedy memo
    factory = agent_factory(agent, rules)
    seeds = [(game_seed(1, i), [game_seed(1, i, s) for s in range(players)])
             for i in range(games)]
    lab = bare = 0.0
    by_round: list = []
    rounds = max(2, games // CHUNK)
    rounds += rounds % 2  # an even number: each side goes first as often as the other
    step = games // rounds

    # the games each fork plays untimed first (_cpu_in_fork), both sides alike: enough for
    # the lab to take every path it takes in the rounds (game_seeds' arrays included)
    far, warmups = 10**6, 8

    def run_lab(r: int) -> float:
        return _cpu_in_fork(lambda: run_chunk(spec, r * step, (r + 1) * step),
                            lambda: run_chunk(spec, far, far + warmups))

    def bare_games(games: list) -> None:
        for seed, agent_seeds in games:
            play(Game(rules, players, seed=seed, max_turns=spec.max_turns),
                 [factory(s) for s in agent_seeds])

    def run_bare(r: int) -> float:
        return _cpu_in_fork(lambda: bare_games(seeds[r * step:(r + 1) * step]),
                            lambda: bare_games(warm))

    warm = [(game_seed(1, i), [game_seed(1, i, s) for s in range(players)])
            for i in range(far, far + warmups)]

    # untimed: greedy's memo (shared by the games of a process) warms up on other games
    for i in range(step):
        play(Game(rules, players, seed=game_seed(2, i), max_turns=spec.max_turns),
             [factory(game_seed(2, i, s)) for s in range(players)])
    for r in range(rounds):
        # each side twice, in the order lab, bare, bare, lab (or the reverse): the lower of
        # its two times, since a burst of load on this shared machine only ever adds time
        first, second = (run_lab, run_bare) if r % 2 == 0 else (run_bare, run_lab)
        a = first(r)
        b = min(second(r), second(r))
        a = min(a, first(r))
        lab_r, bare_r = (a, b) if first is run_lab else (b, a)
        lab += lab_r
        bare += bare_r
        by_round.append(lab_r / bare_r)
    return {"players": players, "agent": agent, "games": step * rounds, "round_games": step,
            "lab_s": lab, "bare_s": bare, "ratio": lab / bare, "by_round": {"ratio": by_round}}


class _NoBar:
    def update(self, n: int) -> None:
        pass


def workers_ratio(games: int, agent: str = "random") -> dict:
    """Wall-clock seconds of ``games`` 2-player games on one worker and on two (the lab's
    local executor), and the load average before."""
    spec = RunSpec(None, 2, (agent, agent), seed=1)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    seconds = {}
    for workers in (1, 2, 1, 2):  # each twice, alternating; the better of the two
        start = time.perf_counter()
        with Executor("local", workers) as executor:
            play_games(spec, 0, games, executor, _NoBar())
        took = time.perf_counter() - start
        seconds[workers] = min(seconds.get(workers, took), took)
    return {"games": games, "load_before": load, "one_s": seconds[1], "two_s": seconds[2],
            "speedup": seconds[1] / seconds[2]}


def _spread(result: dict, ratio: str, games: int | None = None) -> str:
    """`` [N rounds: lowest-highest, median m]`` (``N rounds of G games`` when ``games``
    is given): the ratio's spread over the rounds (each round's sides run back to back, so
    a round is its own small comparison)."""
    values = result.get("by_round", {}).get(ratio) or []
    if len(values) < 2:
        return ""
    rounds = f"{len(values)} rounds" + (f" of {games} games" if games else "")
    return (f" [{rounds}: {min(values):.2f}-{max(values):.2f}, "
            f"median {statistics.median(values):.2f}]")


def _text(results: dict) -> list[str]:
    lines = [(f"machikoro {__version__}, {platform.python_implementation()} "
              f"{platform.python_version()}, {os.cpu_count()} CPUs; CPU time, one core, "
              f"sides alternating in {results['rounds']} round"
              f"{'' if results['rounds'] == 1 else 's'}")]
    for r in results["engine"]:
        speed = r["turns_per_s"]
        limit = (f"limit engine {speed['limit']:9,.0f} turns/s -> random/limit "
                 f"{r['random_vs_limit']:.2f}{_spread(r, 'random_vs_limit')} (target >= 0.5)"
                 if speed["limit"]
                 else "limit engine not found: give its file with --limit-engine PATH")
        lines.append(f"  {r['players']} players: random {speed['random']:8,.0f} turns/s, {limit}")
        lines.append(f"  {r['players']} players: greedy {speed['greedy']:8,.0f} turns/s -> "
                     f"greedy/random {r['greedy_vs_random']:.2f}"
                     f"{_spread(r, 'greedy_vs_random')} (target >= 0.3)"
                     + (f", greedy/limit {r['greedy_vs_limit']:.2f}" if speed["limit"] else "")
                     + (f"; the {r['greedy_cold']['games']} warm-up games before the rounds "
                        f"(memo filling): greedy/random {r['greedy_cold']['vs_random']:.2f}"
                        if r["greedy_cold"] else ""))
    for r in results["simulate"]:
        lines.append(f"  simulate, {r['players']} players, {r['agent']}: {r['games']} games "
                     f"{r['lab_s']:.2f} s, bare engine {r['bare_s']:.2f} s -> "
                     f"{r['ratio']:.3f} x{_spread(r, 'ratio', r['round_games'])} (target <= 1.1)")
    w = results.get("workers")
    if w:
        lines.append(f"  workers: {w['games']} games, 1 worker {w['one_s']:.2f} s, 2 workers "
                     f"{w['two_s']:.2f} s -> {w['speedup']:.2f} x (target >= 1.8 on an idle "
                     f"machine; load average before: {w['load_before']:.2f})")
    return lines


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse (exit 2, argparse's usage error) options that leave a round without games;
    set ``args.player_counts`` from ``--players``."""
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    for option, games in (("--games", args.games), ("--greedy-games", args.greedy_games)):
        if games < args.rounds:
            parser.error(f"{option} must be at least --rounds ({args.rounds}): a game a round")
    if args.greedy_warmup < 0:
        parser.error("--greedy-warmup must be 0 or more")
    if 0 < args.sim_games < 8:
        parser.error("--sim-games must be 0 (skip) or at least 8 (two rounds of greedy games)")
    try:
        args.player_counts = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players takes player counts separated by commas, not {args.players!r}")
    if any(not 2 <= p <= 4 for p in args.player_counts):
        parser.error("--players: the base set is played by 2 to 4 players")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000, help="games per random run")
    parser.add_argument("--greedy-games", type=int, default=300, help="games per greedy run")
    parser.add_argument("--greedy-warmup", type=int, default=100,
                        help="greedy games of other seeds played (and timed apart) before the "
                        "rounds, while greedy's memo fills (0: none)")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--sim-games", type=int, default=4000,
                        help="games of the simulate comparison with random agents (half as "
                        "many with greedy) and of the workers' (0: skip; else at least 8)")
    parser.add_argument("--limit-engine", type=Path, default=LIMIT_ENGINE,
                        help="the limit engine's file (default: ../shared/bench/"
                        "limit_engine.py beside the project's folder); without it the "
                        "random/limit ratio is not measured")
    parser.add_argument("--skip-workers", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    _check(parser, args)
    rules = load_ruleset()
    limit = load_limit_engine(args.limit_engine)
    results: dict = {"rounds": args.rounds, "engine": [], "simulate": []}
    for players in args.player_counts:
        results["engine"].append(engine_ratios(rules, limit, players, args.games,
                                               args.greedy_games, args.rounds,
                                               args.greedy_warmup))
    if args.sim_games:
        for agent in ("random", "greedy"):
            games = args.sim_games if agent == "random" else args.sim_games // 2
            results["simulate"].append(simulate_ratio(2, agent, games))
        if not args.skip_workers:
            results["workers"] = workers_ratio(args.sim_games)
    print(json.dumps(results, indent=2) if args.json else "\n".join(_text(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
