"""Benchmark: one batch of the lab's games on the compiled engine and on the NumPy engine.

    python bench/batch_engines.py [--case base:2:greedy,greedy:4000] [--seed 7] [--json]

For each case (``RULES:PLAYERS:AGENTS:GAMES``: ``base`` or bundled variant names joined by
``+``, the agents of the seats joined by ``,``), the games ``0..GAMES-1`` of a ``simulate
--engine vector --seats rotate`` run are played as one batch
(:func:`machikoro.lab.engines.run_batch`) on each batched engine, its code loaded before
(a batch of 20 games first), and its CPU time (``time.process_time``) is reported with the
ratio NumPy / compiled. Both engines play the same games: their summaries must be equal,
or the run stops. It is what :func:`machikoro.lab.engines.on_compiled` rests on
(docs/vector.md, "Two batched engines").

The machine may be shared and noisy: only ratios measured in the same run are figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

CASES = ("base:2:greedy,greedy:4000", "harbor:3:greedy,greedy,greedy:1000",
         "millionaires-row:2:greedy,greedy:2000",
         "harbor+millionaires-row:4:greedy,greedy,greedy,greedy:600",
         "base:2:expert,greedy:1000", "harbor:2:expert,greedy:500",
         "base:2:cheese-factory,greedy:4000", "base:2:cheese-factory,landmark-rush:4000",
         "harbor:3:furniture-factory,greedy,greedy:1000", "base:2:greedy!cafe,greedy:4000")


def _variant(name: str):
    from machikoro.data.bundled import resolve_variant

    if name == "base":
        return None
    paths = tuple(str(resolve_variant(part)) for part in name.split("+"))
    return paths if len(paths) > 1 else paths[0]


def measure(case: str, seed: int) -> dict:
    """One case on both engines: CPU seconds each and their ratio."""
    from machikoro.lab import engines
    from machikoro.lab.runs import RunSpec

    name, players, agents, games = case.split(":")
    spec = RunSpec(_variant(name), int(players), tuple(agents.split(",")), seed, 1000,
                   engine="vector", seats="rotate")
    real = engines.on_compiled
    found = {}
    try:
        for engine, compiled in (("compiled", True), ("numpy", False)):
            engines.on_compiled = lambda *args, on=compiled: on
            engines.run_batch(spec, 0, 20)  # (the code loaded)
            began = time.process_time()
            summary, _ = engines.run_batch(spec, 0, int(games))
            found[engine] = (time.process_time() - began, vars(summary))
    finally:
        engines.on_compiled = real
    if found["compiled"][1] != found["numpy"][1]:
        sys.exit(f"{case}: the two engines played different games")
    compiled, numpy = found["compiled"][0], found["numpy"][0]
    return {"case": case, "compiled_s": compiled, "numpy_s": numpy,
            "numpy_over_compiled": numpy / compiled}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", action="append", help="RULES:PLAYERS:AGENTS:GAMES "
                        "(repeatable; default: the cases of CASES)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    rows = []
    for case in args.case or CASES:
        rows.append(measure(case, args.seed))
        if not args.json:
            row = rows[-1]
            print(f"{case:58} compiled {row['compiled_s']:6.2f} s  NumPy "
                  f"{row['numpy_s']:6.2f} s  NumPy/compiled {row['numpy_over_compiled']:5.2f}",
                  flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
