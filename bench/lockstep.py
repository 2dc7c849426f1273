"""Lock-step agreement of the compiled engine with the scalar engine over many games.

    python bench/lockstep.py [--engine compiled] [--games 100000] [--workers 2]
                             [--batch 500] [--mutate] [--part K/M] [--json]
                             [--combine FILE ...]

Plays ``--games`` games, spread over every bundled rule set and player count below (each
case's share of the games in proportion to its weight), in both engines in lock-step
(:func:`machikoro.compiled.lockstep.run_lockstep`: the same dice and the same random
answers, every decision's options and the whole state compared after every step; until
issue 35 removed it, ``--engine batched`` checked the NumPy engine so), in batches of
``--batch`` games on ``--workers`` processes, and prints the games, turns and decisions
checked per rule set and every difference found (exit 1 if any). ``--mutate`` plants a bug
in the engine checked first (every coin action's amount is one more in its tables) and
must find differences: it checks
that the check can fail (exit 0 when it does).

``--part K/M`` plays only the K-th of M interleaved shares of the batches (K from 1), so
that a run can be split over sessions or machines with the same seeds as the whole run;
``--combine`` adds up the ``--json`` outputs of the parts and reports them as one run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

CASES = [  # (rule set, players, weight)
    ("base", 2, 6), ("base", 3, 3), ("base", 4, 3),
    ("house/mall-gives-2", 2, 1), ("house/no-amusement-park-on-build-turn", 3, 1),
    ("house/radio-tower-18", 2, 1), ("house/start-with-5-coins", 4, 1),
    ("house/station-costs-2", 2, 1), ("house/sushi-bar-costs-2", 3, 1),
    ("harbor", 2, 2), ("harbor", 4, 2), ("harbor", 5, 1),
    ("millionaires-row", 2, 2), ("millionaires-row", 4, 2),
    ("market/variable", 3, 2), ("market/hybrid", 4, 2),
    ("harbor+millionaires-row", 3, 2), ("harbor+millionaires-row", 5, 1),
    ("harbor+millionaires-row+market/variable", 4, 2),
    ("millionaires-row+market/hybrid", 2, 1), ("harbor+market/hybrid", 5, 1),
    ("machi-koro-2", 2, 2), ("machi-koro-2", 3, 2), ("machi-koro-2", 4, 2),
    ("machi-koro-2", 5, 2),
]


def rule_set(name: str):
    """The rule set of ``base`` or bundled variant names joined by ``+``."""
    from machikoro.data.bundled import resolve_variant
    from machikoro.rules.loader import load_ruleset

    if name == "base":
        return load_ruleset()
    paths = [str(resolve_variant(part)) for part in name.split("+")]
    return load_ruleset(paths if len(paths) > 1 else paths[0])


def one_batch(args: tuple) -> dict:
    """Play one batch in lock-step: its counts and differences (as text)."""
    name, players, first, count, mutate, _ = args
    return compiled_batch(name, players, first, count, mutate)


def compiled_batch(name: str, players: int, first: int, count: int, mutate: bool) -> dict:
    """One batch of the compiled engine in lock-step (see :func:`one_batch`)."""
    from machikoro.compiled import tables as tb
    from machikoro.compiled.games import tables_for
    from machikoro.compiled.lockstep import run_lockstep

    rules = rule_set(name)
    tables = None
    if mutate:  # every coin action's amount one more, in the compiled tables alone
        tables = tables_for(rules, players)
        clauses = tables.clauses.copy()
        coins = clauses[:, tb.CLAUSE_FIELDS.index("op")] == tb.COINS
        clauses[coins, tb.CLAUSE_FIELDS.index("n")] += 1
        tables = tables._replace(clauses=clauses)
    start = time.process_time()
    report = run_lockstep(rules, players, range(first, first + count),
                          answer_seed=first * 7919, tables=tables)
    return {"rules": name, "players": players, "games": report.games,
            "turns": report.turns, "decisions": report.decisions,
            "differences": [str(d) for d in report.differences],
            "asked": report.asked, "cpu_s": time.process_time() - start}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("compiled",), default="compiled")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--mutate", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--part", default="1/1", help="K/M: the K-th of M shares")
    parser.add_argument("--combine", nargs="+", metavar="FILE",
                        help="add up the --json outputs of parts")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.batch < 1:
        parser.error("--games, --workers and --batch must be at least 1")
    try:
        part, parts = (int(x) for x in args.part.split("/"))
    except ValueError:
        parser.error(f"--part {args.part!r}: expected K/M, two whole numbers")
    if not 1 <= part <= parts:
        parser.error(f"--part {args.part}: K must be 1 to M")
    if args.combine:
        return report(*combined(args.combine), args)
    total_weight = sum(w for _, _, w in CASES)
    jobs = []
    for k, (name, players, weight) in enumerate(CASES):
        games = max(1, round(args.games * weight / total_weight))
        for first in range(0, games, args.batch):
            jobs.append((name, players, 10_000_000 * k + first,
                         min(args.batch, games - first), args.mutate, args.engine))
    jobs = jobs[part - 1::parts]
    totals: dict = {}
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for result in pool.map(one_batch, jobs):
            add(totals, result)
    return report(totals, time.perf_counter() - start, args)


def combined(paths: list) -> tuple[dict, float]:
    """The totals of several ``--json`` outputs, per rule set and player count, and the
    parts' wall-clock seconds added up."""
    totals: dict = {}
    wall = 0.0
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            run = json.load(handle)
        wall += run["wall_s"]
        for case in run["cases"]:
            add(totals, case)
    return totals, wall


def add(totals: dict, result: dict) -> None:
    """Add one batch's (or one part's case's) counts to ``totals``."""
    row = totals.setdefault((result["rules"], result["players"]), {
        "games": 0, "turns": 0, "decisions": 0, "differences": [], "asked": {},
        "cpu_s": 0.0})
    for field in ("games", "turns", "decisions", "cpu_s"):
        row[field] += result[field]
    row["differences"] += result["differences"]
    for name, count in result["asked"].items():
        row["asked"][name] = row["asked"].get(name, 0) + count


def report(totals: dict, wall: float, args) -> int:
    """Print the totals (text or ``--json``); the exit status."""
    differences = sum(len(r["differences"]) for r in totals.values())
    if args.json:
        print(json.dumps({"wall_s": wall, "differences": differences, "cases": [
            {"rules": n, "players": p, **r} for (n, p), r in totals.items()]}, indent=2))
    else:
        for (name, players), row in totals.items():
            print(f"{name}, {players} players: {row['games']:,} games, {row['turns']:,} "
                  f"turns, {row['decisions']:,} decisions: {len(row['differences'])} "
                  f"differences")
            for line in row["differences"][:3]:
                print(f"    {line}")
        games = sum(r["games"] for r in totals.values())
        decisions = sum(r["decisions"] for r in totals.values())
        where = f"{len(args.combine)} parts" if args.combine else f"{args.workers} workers"
        print(f"all ({args.engine} engine): {games:,} games, {decisions:,} decisions "
              f"compared: {differences} "
              f"differences ({wall:,.0f} s on {where})")
    if args.mutate:
        return 0 if differences else 1
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
