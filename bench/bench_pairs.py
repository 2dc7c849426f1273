"""Benchmark two versions of the code against each other: alternating runs of bench.py.

    python bench/bench_pairs.py --old PYTHON:TREE --new PYTHON:TREE [--pairs 5]
                                [--players 2,4] [--json]

Each pair runs ``TREE/bench/bench.py --skip-workers --sim-games 0 --json --players ...``
once with each version (a Python with that tree installed, e.g. a venv made with ``pip
install -e TREE``), the order alternating from pair to pair, and keeps each run's
greedy/random ratio per player count; prints each side's median and range (``--json``:
the ratios, as ``{"old": {players: [...]}, "new": ...}``). On a shared machine the load
moves both sides' figures from run to run: compare medians of the same pairs only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys


def run(python: str, tree: str, players: str) -> dict:
    """One bench.py run: ``{players: greedy/random ratio}``."""
    out = subprocess.run([python, f"{tree}/bench/bench.py", "--skip-workers", "--sim-games",
                          "0", "--json", "--players", players],
                         capture_output=True, text=True, check=True).stdout
    return {str(e["players"]): e["greedy_vs_random"] for e in json.loads(out)["engine"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="PYTHON:TREE of the old code")
    parser.add_argument("--new", required=True, help="PYTHON:TREE of the new code")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sides = {"old": args.old.split(":", 1), "new": args.new.split(":", 1)}
    ratios: dict = {"old": {}, "new": {}}
    for i in range(args.pairs):
        for side in ("old", "new") if i % 2 == 0 else ("new", "old"):
            for players, ratio in run(*sides[side], args.players).items():
                ratios[side].setdefault(players, []).append(ratio)
    if args.json:
        print(json.dumps(ratios, indent=1))
        return 0
    for side, by in ratios.items():
        for players, values in by.items():
            print(f"{side} {players} players: greedy/random median "
                  f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f}), "
                  f"{len(values)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
