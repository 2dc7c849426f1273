"""Calibrate the bundled weights (weights/): for each file, ``expert`` self-play games fit
the map from its value to a chance to win (:func:`machikoro.lab.training.calibration`),
written into the file's ``meta["calibration"]`` (its arrays and their SHA-256 unchanged).

    python bench/calibrate_weights.py [--games 200] [--seed 0] [--workers 1]
                                      [--only base,harbor] [--dry-run]

Prints one line per file: the positions, the mean value against the share of those
positions' builders that won, and the map. The map rises with the value, so ``expert``
chooses as before; the advisor's playouts cut short read it (docs/advise.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from train_bundled import RULE_SETS, jobs

from machikoro.agents.value import read_weights
from machikoro.data.bundled import resolve_variant
from machikoro.lab.training import calibration
from machikoro.rules.loader import load_cached

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default=None, help="rule sets, comma-separated")
    parser.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    for name, variants, players, file in jobs(only):
        path = ROOT / "weights" / file
        if not path.exists():
            print(f"{file} ({name}, {players} players): no file", flush=True)
            continue
        rules = load_cached([resolve_variant(v) for v in RULE_SETS[name]] or None)
        value = read_weights(path)
        start = time.process_time()
        found = calibration(rules, players, value, args.games, args.seed, args.workers)
        print(f"{file} ({name}, {players} players): {found['positions']:,} positions of "
              f"{found['games']} games, mean value {found['value']:.3f}, won "
              f"{found['won']:.3f}; scale {found['scale']:.3f}, shift {found['shift']:+.3f} "
              f"({time.process_time() - start:.0f} CPU s)", flush=True)
        if not args.dry_run:
            value.meta["calibration"] = found
            value.save(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
