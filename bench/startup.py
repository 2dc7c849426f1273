"""Benchmark: whole-process start-up of the command line, as a ratio to ``python -c pass``.

    python bench/startup.py [--runs 21] [--only WORDS] [--json]

Runs, in turn and ``--runs`` times each, ``python -c pass`` and the commands below as a
user types them (the ``machikoro`` script beside this Python), and prints each one's median
wall-clock time and its ratio to ``python -c pass`` (targets of issue 10 beside them), and
its median CPU time (user + system, of the process and of the worker processes it waited
for: ``os.wait4``), that CPU time's ratio to ``python -c pass``'s, and its peak resident
memory (the largest of the process and its workers, each alone; a process smaller than
this script, about 14 MB, reads as this script's size: it is forked from it before it
runs the command):

- ``machikoro --help``;
- ``machikoro play --players 2 --seed 1 --agents random`` with a warm cache of compiled
  rule sets, found as a user's is (below) and in ``$MACHIKORO_CACHE_DIR`` (which skips
  platformdirs and what it imports), and the same with ``--no-cache``;
- ``machikoro validate cards/cafe.yaml`` (one card file, as a pre-commit hook checks it);
- ``machikoro cards``;
- ``machikoro simulate --games 1`` (one greedy game: the lab's fixed cost, issue 17's
  target 0.3 s of CPU time) with the warm cache, and cold: a new empty
  ``$MACHIKORO_CACHE_DIR`` at every run, so the rule set is compiled from the files;
- ``machikoro simulate --games 2 --workers 2`` (a game for each of two worker processes),
  warm and cold;
- ``machikoro compare base harbor --games 1``, warm and cold.

The cache of compiled rule sets is in a temporary folder, found as on a user's machine
(platformdirs, through ``XDG_CACHE_HOME`` on Linux) and warmed by one run before timing;
Python's bytecode cache is left on (``PYTHONDONTWRITEBYTECODE`` is removed for the runs), as
on a user's machine. Output goes to /dev/null.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"--help": 3.0, "play": 4.0}
"""Targets of issue 10: the wall-clock ratio to ``python -c pass``."""
CPU_TARGETS = {"simulate --games 1": 0.3, "simulate --games 1, cold": 0.3}
"""Targets of issue 17: CPU seconds (the fixed cost of a lab command)."""
COLD = ", cold"
"""The label suffix of a run with a new, empty cache folder."""


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
        **lab_commands(machikoro),
    }


def lab_commands(machikoro: list[str]) -> dict[str, list[str]]:
    """The lab's command lines, each warm and cold (a label ending in :data:`COLD`)."""
    lab = {
        "simulate --games 1": machikoro + ["simulate", "--games", "1"],
        "simulate --games 2 --workers 2": machikoro + ["simulate", "--games", "2",
                                                       "--workers", "2"],
        "compare base harbor --games 1": machikoro + ["compare", "base", "harbor",
                                                      "--games", "1"],
    }
    return {f"{label}{cold}": command for label, command in lab.items()
            for cold in ("", COLD)}


def timed(command: list[str], env: dict) -> tuple[float, float, float]:
    """One run of ``command``: its wall-clock seconds, its CPU seconds (user and system, the
    worker processes it waited for included) and its peak resident memory in MB (of its
    largest process: Linux's ``ru_maxrss`` in KB, macOS's in bytes)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=env, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    rss = usage.ru_maxrss / (2**20 if sys.platform == "darwin" else 2**10)
    return wall, usage.ru_utime + usage.ru_stime, rss


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


def measure(runs: int, only: str | None = None) -> dict:
    """Median wall-clock and CPU seconds and peak memory of each command over ``runs``
    rounds, and the ratios of the times to the first command's (``python -c pass``);
    ``only``: the commands whose label starts with one of these comma-separated words."""
    cmds = commands()
    if only:
        words = tuple(w.strip() for w in only.split(","))
        cmds = {label: command for k, (label, command) in enumerate(cmds.items())
                if k == 0 or label.startswith(words)}
    with tempfile.TemporaryDirectory() as cache:
        env = cache_environment(cache)
        envs = {label: env for label in cmds}
        envs["play, $MACHIKORO_CACHE_DIR"] = dict(
            env, MACHIKORO_CACHE_DIR=os.path.join(cache, "override"))
        for label, command in cmds.items():  # warm: the rule-set cache, the bytecode
            timed(command, envs[label])
        times: dict = {label: [] for label in cmds}
        for k in range(runs):
            for n, (label, command) in enumerate(cmds.items()):
                run_env = envs[label]
                if label.endswith(COLD):  # a folder no run has used: nothing cached
                    run_env = dict(run_env, MACHIKORO_CACHE_DIR=os.path.join(
                        cache, "cold", f"{k}-{n}"))
                times[label].append(timed(command, run_env))
    base_wall, base_cpu = (statistics.median(t[i] for t in times["python -c pass"])
                           for i in (0, 1))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    rows = []
    for label, t in times.items():
        wall, cpu, rss = (statistics.median(x[i] for x in t) for i in (0, 1, 2))
        rows.append({"command": label, "median_s": wall, "ratio": wall / base_wall,
                     "target": TARGETS.get(label), "cpu_s": cpu,
                     "cpu_ratio": cpu / base_cpu if base_cpu else None,
                     "cpu_target_s": CPU_TARGETS.get(label), "peak_rss_mb": rss})
    return {"runs": runs, "load_average": load, "commands": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--only", default=None, metavar="WORDS",
                        help="time only the commands whose label starts with one of these "
                             "comma-separated words (e.g. simulate,compare)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    result = measure(args.runs, args.only)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"whole-process start-up, median of {args.runs} runs (load average "
          f"{result['load_average']:.2f}): wall-clock and CPU time, each also as a ratio to "
          "`python -c pass`, and peak resident memory of the largest process")
    print(f"  {'command':<38} {'wall ms':>8} {'ratio':>6}  {'CPU ms':>8} {'ratio':>6}  "
          f"{'peak MB':>7}  targets")
    for row in result["commands"]:
        targets = []
        if row["target"]:
            targets.append(f"wall <= {row['target']:.0f}x")
        if row["cpu_target_s"]:
            targets.append(f"CPU <= {row['cpu_target_s']} s")
        cpu_ratio = "-" if row["cpu_ratio"] is None else f"{row['cpu_ratio']:5.1f}x"
        print(f"  {row['command']:<38} {row['median_s'] * 1000:8.1f} {row['ratio']:5.2f}x  "
              f"{row['cpu_s'] * 1000:8.1f} {cpu_ratio:>6}  {row['peak_rss_mb']:7.1f}  "
              f"{', '.join(targets)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
