"""The lab commands' fixed cost (issue 17; measured by bench/startup.py): what ``simulate``,
``compare``, ``tournament`` and ``analyze`` import before their first game, and how often
they compile a rule set. SciPy is imported only for Student's t (two paired differences or
more), tqdm only for a bar on a terminal, matplotlib only with ``--plot``, and the rule-set
compiler (Lark, JSON Schema, YAML) only when the cache of compiled rule sets holds no copy;
a rule set is compiled once per command, however many workers play its games."""

from __future__ import annotations

import ast
import multiprocessing
import os
import subprocess
import sys

import pytest

from machikoro.lab import executors
from machikoro.lab.statistics import wilson
from machikoro.rules import loader

HEAVY = ("scipy", "tqdm", "matplotlib", "adjustText", "lark", "jsonschema", "yaml",
         "machikoro.rules.build", "machikoro.language.compiler")
"""What no lab command imports with a warm cache and nothing that needs it (a module named
here came back into the path: bench/startup.py measures what it costs)."""


def _probe(argv: list[str], cache, modules: tuple = HEAVY) -> tuple[list[str], int]:
    """Run ``machikoro ARGV`` in a fresh interpreter (``$MACHIKORO_CACHE_DIR`` = ``cache``,
    stderr not a terminal): which of ``modules`` it imported (the package's doing: not
    imported before it), and how many rule sets were compiled, in it and in its worker
    processes (each call of ``rules.loader.load_into``, which reads, checks and compiles
    the files, counted in a file)."""
    counter = os.path.join(str(cache), "builds.txt")
    probe = (
        "import sys, io, contextlib\nbefore = set(sys.modules)\n"
        "from machikoro.cli import main\nfrom machikoro.rules import loader\n"
        "real = loader.load_into\n"
        "def counted(*args):\n"
        f"    with open({counter!r}, 'a') as f:\n        f.write('built\\n')\n"
        "    return real(*args)\n"
        "loader.load_into = counted\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({argv!r})\n"
        f"print(code, [m for m in {modules!r} if m in sys.modules and m not in before])")
    env = dict(os.environ, MACHIKORO_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, check=True, stdin=subprocess.DEVNULL)
    code, _, imported = done.stdout.strip().splitlines()[-1].partition(" ")
    assert code == "0", done.stderr
    builds = 0
    if os.path.exists(counter):
        with open(counter, encoding="utf-8") as f:
            builds = len(f.readlines())
        os.remove(counter)
    return ast.literal_eval(imported), builds


SIMULATE = ["simulate", "--games", "1"]


def test_simulate_compiles_its_rule_set_once_cold_and_never_warm(tmp_path):
    """Cold, the rule set is compiled once (the command's check and its game share it) and
    stored; warm, it is read from the cache and nothing of the compiler is imported, nor
    SciPy (the Wilson interval is the standard library's), nor tqdm (no terminal)."""
    imported, builds = _probe(SIMULATE, tmp_path, ("scipy", "tqdm"))
    assert (imported, builds) == ([], 1)
    assert _probe(SIMULATE, tmp_path) == ([], 0)


def test_worker_processes_do_not_compile_the_rule_set_again(tmp_path):
    """Forked workers find the parent's compiled rule set, even without the cache."""
    two = ["simulate", "--games", "2", "--workers", "2"]
    assert _probe(two, tmp_path, ("scipy",)) == ([], 1)
    assert _probe(two, tmp_path) == ([], 0)
    assert _probe(two + ["--no-cache"], tmp_path, ("scipy",)) == ([], 1)


def test_compare_compiles_each_rule_set_once_and_imports_scipy_only_for_an_interval(
        tmp_path):
    one = ["compare", "base", "harbor", "--games", "1", "--workers", "2"]
    assert _probe(one, tmp_path, ("scipy",)) == ([], 2)
    assert _probe(one, tmp_path) == ([], 0)
    # a paired interval needs Student's t: SciPy, there and only there
    three = ["compare", "base", "harbor", "--games", "3", "--agents", "random"]
    assert _probe(three, tmp_path, ("scipy",)) == (["scipy"], 0)


def test_tournament_and_analyze_import_neither_scipy_nor_the_compiler_when_warm(tmp_path):
    tournament = ["tournament", "random", "greedy", "--games", "2", "--players", "2"]
    _probe(tournament, tmp_path, ())  # warms the cache
    assert _probe(tournament, tmp_path) == ([], 0)
    _probe(["analyze"], tmp_path, ())
    assert _probe(["analyze"], tmp_path) == ([], 0)
    assert _probe(["analyze", "--no-cache"], tmp_path, ("scipy",)) == ([], 1)


def test_the_wilson_interval_is_scipy_s_without_scipy():
    from scipy.stats import binomtest

    for trials in (*range(1, 60), 99, 1000, 4999, 10**6 + 3):
        for wins in sorted({0, 1, trials // 3, trials // 2, trials - 1, trials}):
            for level in (0.95, 0.9):
                ci = binomtest(wins, trials).proportion_ci(confidence_level=level,
                                                           method="wilson")
                low, high = wilson(wins, trials, level)
                assert low == pytest.approx(float(ci.low), rel=1e-12, abs=1e-15)
                assert high == pytest.approx(float(ci.high), rel=1e-12, abs=1e-15)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 7)[0] == 0.0 and wilson(7, 7)[1] == 1.0


def test_a_worker_started_afresh_loads_through_the_parent_s_cache_setting(tmp_path):
    """A spawned worker (a platform without fork) or a Ray worker does not inherit the
    parent's compiled rule sets: it is given the parent's cache setting, so that it reads
    the copy stored there instead of compiling the files."""
    setting = (True, str(tmp_path))
    spawn = multiprocessing.get_context("spawn")
    with spawn.Pool(1, initializer=executors._start_worker, initargs=(setting,)) as pool:
        assert pool.apply(loader.disk_cache_setting) == setting
    # in a forked worker the setting is already the parent's: its compiled copies stay
    loader.use_disk_cache(True, tmp_path)
    try:
        rules = loader.cached_ruleset(None)
        executors._use_cache(loader.disk_cache_setting())
        assert loader.cached_ruleset(None) is rules
    finally:
        loader.use_disk_cache(False)


def test_the_script_runs_numpy_s_blas_on_one_thread_unless_told_otherwise(monkeypatch,
                                                                          capsys):
    """The commands do no linear algebra: OpenBLAS's threads, started at NumPy's import,
    would only spin (bench/startup.py); a value the user set is kept."""
    import gc

    from machikoro.cli import console_main

    monkeypatch.setattr("sys.argv", ["machikoro", "play", "--players", "x"])
    threshold = gc.get_threshold()
    try:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
        assert console_main() == 2
        assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
        assert console_main() == 2
        assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    capsys.readouterr()
