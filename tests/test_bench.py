"""bench/bench.py still runs and reports every ratio it promises (docs/speed.md). The
numbers themselves are measured by running it, never asserted here: a tiny run on a shared
machine says nothing about speed."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench.py"


def test_a_tiny_bench_run_reports_each_ratio_as_a_finite_number(tmp_path):
    done = subprocess.run(
        [sys.executable, str(BENCH), "--games", "20", "--greedy-games", "4",
         "--greedy-warmup", "2", "--rounds", "2", "--players", "2", "--sim-games", "16",
         "--skip-workers", "--limit-engine", str(tmp_path / "absent.py"), "--json"],
        capture_output=True, text=True, timeout=300, check=True)
    results = json.loads(done.stdout)
    (engine,) = results["engine"]
    assert engine["players"] == 2 and engine["random_vs_limit"] is None  # no limit engine
    assert math.isfinite(engine["greedy_vs_random"]) and engine["greedy_vs_random"] > 0
    assert len(engine["by_round"]["greedy_vs_random"]) == 2
    assert engine["greedy_cold"]["games"] == 2 and engine["greedy_cold"]["vs_random"] > 0
    # the simulate comparison: both agents (greedy half as many games), each side measured
    # in forks of the process
    assert [(r["agent"], r["games"]) for r in results["simulate"]] == [("random", 16),
                                                                        ("greedy", 8)]
    for r in results["simulate"]:
        assert r["lab_s"] > 0 and r["bare_s"] > 0 and math.isfinite(r["ratio"])
        # two rounds at least, of the lab's chunk (250 games) or less
        assert len(r["by_round"]["ratio"]) == 2 and r["round_games"] * 2 == r["games"]


@pytest.mark.parametrize(("options", "message"), [
    (["--sim-games", "7"], "--sim-games must be 0 (skip) or at least 8"),
    (["--rounds", "0"], "--rounds must be at least 1"),
    (["--games", "3"], "--games must be at least --rounds (10)"),
    (["--greedy-games", "0"], "--greedy-games must be at least --rounds (10)"),
    (["--greedy-warmup", "-1"], "--greedy-warmup must be 0 or more"),
    (["--players", "2,x"], "--players takes player counts separated by commas"),
    (["--players", "5"], "2 to 4 players"),
])
def test_options_that_leave_a_round_without_games_are_refused(options, message):
    done = subprocess.run([sys.executable, str(BENCH), *options], check=False,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_startup_refuses_a_run_count_below_one():
    startup = BENCH.with_name("startup.py")
    done = subprocess.run([sys.executable, str(startup), "--runs", "0"], check=False,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--runs must be at least 1" in done.stderr


ADAPTERS = BENCH.parent / "adapters.py"


def test_a_tiny_adapters_bench_run_reports_each_ratio_as_a_finite_number():
    """bench/adapters.py (issue 17) still runs: engine, PettingZoo and OpenSpiel rates and
    the engine's over each adapter's."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    done = subprocess.run([sys.executable, str(ADAPTERS), "--games", "3", "--rounds", "2",
                           "--json"], capture_output=True, text=True, timeout=300,
                          check=True)
    results = json.loads(done.stdout)
    assert results["games"] == 6 and set(results["turns_per_s"]) == {
        "engine", "pettingzoo", "openspiel"}
    for ratio in results["engine_over_adapter"].values():
        assert math.isfinite(ratio) and ratio > 0


@pytest.mark.parametrize("options", [["--games", "0"], ["--rounds", "0"],
                                     ["--players", "5"]])
def test_the_adapters_bench_refuses_a_run_without_games(options):
    done = subprocess.run([sys.executable, str(ADAPTERS), *options], check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr


COMPILED = BENCH.with_name("compiled.py")


def test_a_tiny_compiled_bench_run_reports_each_engine_and_size(compiled_engine):
    """bench/compiled.py (issue 35) still runs: the scalar engine's rate and a row per
    engine and size."""
    done = subprocess.run([sys.executable, str(COMPILED), "--sizes", "1", "4",
                           "--scalar-games", "3"], capture_output=True, text=True,
                          timeout=600, check=True)
    rows = [line for line in done.stdout.splitlines() if line.startswith(("| 1 |", "| 4 |"))]
    assert len(rows) == 2 and "scalar engine: 3 games" in done.stdout


LOCKSTEP = BENCH.with_name("lockstep.py")


def _lockstep(*options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(LOCKSTEP), "--workers", "1", *options],
                          check=False, capture_output=True, text=True, timeout=600)


def test_the_lockstep_bench_in_parts_adds_up_to_the_whole_run(tmp_path, compiled_engine_only):
    """Parts of a run play the same games as the whole run, and --combine adds them up."""
    whole = _lockstep("--games", "20", "--batch", "3", "--json")
    assert whole.returncode == 0, whole.stderr
    parts = []
    for k in (1, 2):
        done = _lockstep("--games", "20", "--batch", "3", "--part", f"{k}/2", "--json")
        assert done.returncode == 0, done.stderr
        parts.append(tmp_path / f"part{k}.json")
        parts[-1].write_text(done.stdout)
    added = _lockstep("--combine", *map(str, parts), "--json")
    cases = {(c["rules"], c["players"]): (c["games"], c["turns"], c["decisions"])
             for c in json.loads(added.stdout)["cases"]}
    assert cases == {(c["rules"], c["players"]): (c["games"], c["turns"], c["decisions"])
                     for c in json.loads(whole.stdout)["cases"]}
    assert json.loads(added.stdout)["differences"] == 0


def test_the_lockstep_bench_catches_its_planted_mutation(compiled_engine_only):
    done = _lockstep("--games", "25", "--batch", "5", "--mutate")
    assert done.returncode == 0, done.stdout  # 0: the planted bug was found
    assert " 0 differences (" not in done.stdout.splitlines()[-1]


def test_a_tiny_strength_table_run_prints_a_row_per_agent(compiled_engine):
    """bench/strength_table.py (issue 32: the strength table of docs/agents.md) runs: a
    row per agent of the ladder, its rating and its CPU per decision, on a rule set (its
    ladder plays the compiled engine: balance's --engine auto)."""
    script = Path(__file__).resolve().parents[1] / "bench" / "strength_table.py"
    done = subprocess.run([sys.executable, str(script), "--rulesets", "base", "--games", "2",
                           "--cpu-games", "1", "--ladder", "random,greedy"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines()
            if line.startswith(("| greedy |", "| random |"))]
    assert len(rows) == 2 and "| +0 |" in rows[0] + rows[1]


def test_a_tiny_pool_run_prints_the_experts_share_against_greedy(compiled_engine):
    """bench/strength_table.py --pool-games (issue 32: the 4-player pools): one expert
    against three greedy per rule set, a rate with its interval out of the games played,
    beside the fair share; ``--games 0`` plays the pools alone."""
    script = Path(__file__).resolve().parents[1] / "bench" / "strength_table.py"
    done = subprocess.run([sys.executable, str(script), "--rulesets", "base", "--games", "0",
                           "--pool-games", "8"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    row = [line for line in done.stdout.splitlines() if line.startswith("| base |")]
    assert len(row) == 1 and " of 8 | 25% |" in row[0], done.stdout
    assert "| rating |" not in done.stdout  # no ladder was played


@pytest.mark.parametrize("search", ["builds", "dice"])
def test_a_tiny_expert_search_run_plays_its_games_to_a_rate(search):
    """bench/expert_search.py (issue 32: a search over the listed outcomes of a roll on
    top of the learned value, docs/agents.md) plays its searching expert against the
    plain one to the end of every game, and prints the rate with its interval."""
    script = Path(__file__).resolve().parents[1] / "bench" / "expert_search.py"
    done = subprocess.run([sys.executable, str(script), "--search", search, "--games", "2",
                           "--workers", "1", "--candidates", "2"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    assert f"with the {search} search" in line and "/2 = " in line and "(95% " in line


def test_a_tiny_train_seeds_run_trains_each_seed_once_and_plays_it(tmp_path):
    """bench/train_seeds.py (issue 32: how much the expert's strength depends on its
    training seed) trains a file per seed, plays each against the opponent on the same
    games with a rate per seed and a summary; run again, it plays the files it finds made
    by the same command instead of training them again, and trains a changed command."""
    script = Path(__file__).resolve().parents[1] / "bench" / "train_seeds.py"
    tiny = "--rounds 1 --games 30 --nets 1 --epochs 3 --engine scalar"
    command = [sys.executable, str(script), "--seeds", "1", "2", "--train", tiny,
               "--games", "2", "--workers", "1", "--against", "greedy",
               "--folder", str(tmp_path), "--out", str(tmp_path / "out.txt")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.glob("seed-*.npz")) == ["seed-1.npz", "seed-2.npz"]
    rates = [line for line in done.stdout.splitlines() if line.startswith("  seed ") and
             " against greedy: " in line]
    assert len(rates) == 2 and all("/2 = " in line and "(95% " in line for line in rates)
    assert "over 2 seeds" in done.stdout and "over 2 seeds" in (tmp_path / "out.txt").read_text()
    again = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("made by the same command, played as it is") == 2
    assert [line for line in again.stdout.splitlines() if line.startswith("  seed ") and
            " against greedy: " in line] == rates
    spec = importlib.util.spec_from_file_location("train_seeds", script)
    bench = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(script.parent))
    try:
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(script.parent))
    made = "machikoro train --players 2 --seed 1 --games 30 --nets 1 --out a.npz"
    assert bench.options(made) == bench.options(
        "machikoro train --nets 1 --games 30 --players 2 --seed 1 --out b.npz")
    for other in ("--games 31 --nets 1 --players 2 --seed 1",
                  "--games 30 --nets 1 --players 2 --seed 2",
                  "--games 30 --nets 1 --players 2 --seed 1 --rounds 2"):
        assert bench.options(made) != bench.options("machikoro train " + other)
