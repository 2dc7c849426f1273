"""Benchmark: how much the learned agent's strength depends on its training seed. One
``machikoro train`` command run with each of several seeds, and each result played against
the same opponents on the same games (bench/expert.py's games: seats rotated, game i's
seeds from ``--eval-seed`` and i, whatever the weights).

    python bench/train_seeds.py --seeds 1 3 4 5 [--variant V] [--players 2]
                                [--train "--rounds 4 --games 6000 ..."] [--folder DIR]
                                [--against cheese-factory] [--games 1000] [--eval-seed 0]
                                [--workers 2] [--out FILE]

Seed S's weights are trained into ``DIR/seed-S.npz`` (default DIR: ``bench/results/
train-seeds``, not kept in git) by ``machikoro train --players P [--variant V] TRAIN
--check 0 --calibrate 0 --workers 1 --seed S``; ``--train`` defaults to the command of the
bundled weights of the base set at 2 players (weights/README.md). A train run is the same
for the same seed and worker count, so a file already there whose recorded command has
the same options (in any order; ``--out`` aside) is played as it is, and said so. Each
file is played from a folder of its own named by ``MACHIKORO_WEIGHTS`` (under the name
the agent looks for), in a fresh pool of ``--workers`` processes.

Prints a line per seed and opponent (wins, the 95% Wilson interval, CPU seconds of its
training as recorded), then per opponent the mean, the standard deviation and the range
of the seeds' win rates. ``--out`` appends the lines to a file as well
(bench/results/train-seeds.txt is made so).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from expert import _rules, append_lines, check_opponents, games_against
from train_bundled import OPTIONS

from machikoro.agents.value import read_weights, weights_name
from machikoro.lab.statistics import wilson

ROOT = Path(__file__).resolve().parent.parent


def bundled_options() -> str:
    """``train``'s options for the bundled weights of the base set at 2 players
    (bench/train_bundled.py's), their seed and calibration aside (each run gives its own
    seed; a seed's strength needs no calibration)."""
    words, kept = OPTIONS[("base", 2)], []
    for i in range(0, len(words), 2):
        if words[i] not in ("--seed", "--calibrate"):
            kept += words[i:i + 2]
    return shlex.join(kept)


def options(command: str) -> set:
    """The ``(option, value)`` pairs of a ``machikoro train`` command line, ``--out``
    aside: two commands with the same pairs train the same weights."""
    words = shlex.split(command)
    pairs, i = set(), 0
    while i < len(words):
        if words[i].startswith("--"):
            value = words[i + 1] if i + 1 < len(words) and not \
                words[i + 1].startswith("--") else ""
            if words[i] != "--out":
                pairs.add((words[i], value))
            i += 2 if value else 1
        else:
            i += 1
    return pairs


def train(seed: int, args) -> Path:
    """Seed ``seed``'s weights in ``args.folder``: trained there, or the file already
    there when its recorded command has the same options."""
    Path(args.folder).mkdir(parents=True, exist_ok=True)
    path = Path(args.folder) / f"seed-{seed}.npz"
    command = (["machikoro", "train", "--players", str(args.players)] +
               (["--variant", args.variant] if args.variant else []) +
               shlex.split(args.train) +
               ["--check", "0", "--calibrate", "0", "--workers", "1", "--seed", str(seed),
                "--out", str(path)])
    if path.is_file():
        made = read_weights(path).meta.get("command", "")
        if options(made) == options(shlex.join(command)):
            print(f"  seed {seed}: {path} made by the same command, played as it is",
                  flush=True)
            return path
    print(f"  seed {seed}: {shlex.join(command)}", flush=True)
    done = subprocess.run([sys.executable, "-m", "machikoro", *command[1:]], check=False,
                          stdout=subprocess.DEVNULL)
    if done.returncode:
        sys.exit(f"train_seeds: seed {seed}: machikoro train stopped with exit status "
                 f"{done.returncode} (its message above); nothing played")
    return path


def played(path: Path, against: str, args) -> tuple[int, int]:
    """``(wins, games)`` of the weights at ``path`` against ``against``."""
    rules = _rules(args.variant)
    folder = Path(args.folder) / f"play-{path.stem}"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, folder / weights_name(rules, args.players))
    os.environ["MACHIKORO_WEIGHTS"] = str(folder)  # (the pool's processes inherit it)
    results = games_against(args.variant, args.players, against, args.eval_seed, args.games,
                            args.workers)
    return sum(r[0] for r in results), len(results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", required=True)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--train", default=bundled_options())
    parser.add_argument("--folder", default=str(ROOT / "bench" / "results" / "train-seeds"))
    parser.add_argument("--against", default="cheese-factory")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--eval-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    rules = _rules(args.variant)
    check_opponents(args.against.split(","), rules, "train_seeds.py")
    lines = [(f"expert trained with seeds {' '.join(map(str, args.seeds))} on {rules.name}, "
              f"{args.players} players: machikoro train {args.train}; {args.games} games "
              f"each, seats rotated, seed {args.eval_seed}")]
    print(lines[0], flush=True)
    paths = {seed: train(seed, args) for seed in args.seeds}
    for against in args.against.split(","):
        rates = []
        for seed, path in paths.items():
            wins, games = played(path, against, args)
            low, high = wilson(wins, games)
            cpu = read_weights(path).meta.get("cpu_seconds", float("nan"))
            rates.append(wins / games)
            lines.append(f"  seed {seed} against {against}: {wins}/{games} = "
                         f"{wins / games:.1%} (95% {low:.1%}-{high:.1%}); trained in "
                         f"{cpu:.0f} CPU s")
            print(lines[-1], flush=True)
        spread = statistics.stdev(rates) if len(rates) > 1 else float("nan")
        lines.append(f"  against {against}: mean {np.mean(rates):.1%}, standard deviation "
                     f"{spread:.1%} over {len(rates)} seeds, from {min(rates):.1%} to "
                     f"{max(rates):.1%}")
        print(lines[-1], flush=True)
    append_lines(args.out, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
