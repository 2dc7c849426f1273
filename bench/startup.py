"""Benchmark: whole-process start-up of the command line, as a ratio to ``python -c pass``.

    python bench/startup.py [--runs 21] [--json]

Runs, in turn and ``--runs`` times each, ``python -c pass`` and the commands below as a
user types them (the ``machikoro`` script beside this Python), and prints each one's median
wall-clock time and its ratio to ``python -c pass`` (targets of issue 10 beside them), and
the same for its CPU time (user + system of the child process, which other processes on a
loaded machine do not change):

- ``machikoro --help``;
- ``machikoro play --players 2 --seed 1 --agents random`` with a warm cache of compiled
  rule sets, found as a user's is (below) and in ``$MACHIKORO_CACHE_DIR`` (which skips
  platformdirs and what it imports), and the same with ``--no-cache``;
- ``machikoro validate cards/cafe.yaml`` (one card file, as a pre-commit hook checks it);
- ``machikoro cards``.

The cache of compiled rule sets is in a temporary folder, found as on a user's machine
(platformdirs, through ``XDG_CACHE_HOME`` on Linux) and warmed by one run before timing;
Python's bytecode cache is left on (``PYTHONDONTWRITEBYTECODE`` is removed for the runs), as
on a user's machine. Output goes to /dev/null.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"--help": 3.0, "play": 4.0}


def commands() -> dict[str, list[str]]:
    """The command lines timed, by label."""
    script = Path(sys.executable).with_name("machikoro")
    machikoro = [str(script)] if script.is_file() else [sys.executable, "-m", "machikoro"]
    play = machikoro + ["play", "--players", "2", "--seed", "1", "--agents", "random"]
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "--help": machikoro + ["--help"],
        "play": play,
        "play, $MACHIKORO_CACHE_DIR": play,
        "play --no-cache": play + ["--no-cache"],
        "validate cards/cafe.yaml": machikoro + ["validate", str(ROOT / "cards" / "cafe.yaml")],
        "cards": machikoro + ["cards"],
    }


def timed(command: list[str], env: dict) -> tuple[float, float]:
    """Wall-clock seconds and CPU seconds (user + system) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                   check=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cache_environment(cache: str) -> dict:
    """The environment of the runs: the rule-set cache in the folder ``cache``, found as a
    user's is (platformdirs, through ``XDG_CACHE_HOME`` on Linux; elsewhere, where
    platformdirs ignores that variable, ``MACHIKORO_CACHE_DIR``, which skips platformdirs),
    and Python's bytecode cache on."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("MACHIKORO_CACHE_DIR", None)
    if sys.platform.startswith("linux"):
        env["XDG_CACHE_HOME"] = cache
    else:
        env["MACHIKORO_CACHE_DIR"] = cache
    return env


def measure(runs: int) -> dict:
    """Median seconds (wall-clock and CPU) of each command over ``runs`` rounds, and their
    ratios to the first's."""
    cmds = commands()
    with tempfile.TemporaryDirectory() as cache:
        env = cache_environment(cache)
        envs = {label: env for label in cmds}
        envs["play, $MACHIKORO_CACHE_DIR"] = dict(
            env, MACHIKORO_CACHE_DIR=os.path.join(cache, "override"))
        for label, command in cmds.items():  # warm: the rule-set cache, the bytecode
            timed(command, envs[label])
        times: dict = {label: [] for label in cmds}
        cpus: dict = {label: [] for label in cmds}
        for _ in range(runs):
            for label, command in cmds.items():
                elapsed, cpu = timed(command, envs[label])
                times[label].append(elapsed)
                cpus[label].append(cpu)
    base = statistics.median(times["python -c pass"])
    cpu_base = statistics.median(cpus["python -c pass"])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"runs": runs, "load_average": load, "commands": [
        {"command": label, "median_s": statistics.median(t),
         "ratio": statistics.median(t) / base, "cpu_s": statistics.median(cpus[label]),
         "cpu_ratio": statistics.median(cpus[label]) / cpu_base,
         "target": TARGETS.get(label)} for label, t in times.items()]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    result = measure(args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"whole-process start-up, median of {args.runs} runs (load average "
          f"{result['load_average']:.2f}), ratio to `python -c pass`: wall-clock, CPU")
    for row in result["commands"]:
        target = f" (target <= {row['target']:.0f}x)" if row["target"] else ""
        print(f"  {row['command']:<28} {row['median_s'] * 1000:7.1f} ms  "
              f"{row['ratio']:5.2f}x   CPU {row['cpu_s'] * 1000:7.1f} ms  "
              f"{row['cpu_ratio']:5.2f}x{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
