"""The cache of compiled rule sets on disk (issue 10): found when nothing changed, rebuilt
silently when a file it was read from changed, when a file joined its folder, or when the
entry is corrupted; ``--no-cache`` leaves it alone; and the commands that read a cached
rule set import neither JSON Schema, Lark, NumPy nor SciPy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import machikoro
from machikoro.cli import main
from machikoro.data import cache as disk
from machikoro.engine.game import Game
from machikoro.rules.loader import load_cached

VARIANT = """kind: variant
name: Dear Station
description: a test variant
extends: base
change:
  train_station:
    cost: {cost}
"""


def _variant(folder: Path, cost: int) -> Path:
    path = folder / "dear.yaml"
    path.write_text(VARIANT.format(cost=cost), "utf-8")
    return path


def _station_cost(rules) -> int:
    return rules.cost[rules.index["train_station"]]


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle"))


def test_a_cached_rule_set_plays_the_same_games(tmp_path):
    """The second load comes from the entry (the loader is not run) and plays the same
    game for the same seed as the rule set loaded from its files."""
    first = load_cached(None, tmp_path)
    assert len(_entries(tmp_path)) == 1
    again = load_cached(None, tmp_path)
    assert again is not first  # unpickled from the entry, not the loader's memory
    fresh = machikoro.load_ruleset(None)
    games = []
    for rules in (again, fresh):
        game = Game(rules, 3, seed=4, record=True)
        machikoro.play(game, [machikoro.GreedyAgent(s) for s in range(3)])
        games.append(game.events)
    assert games[0] == games[1]


def test_the_folder_keeps_the_most_recent_entries_only(tmp_path, monkeypatch):
    """Past MAX_ENTRIES the least recently written entries go; the newest stay usable."""
    monkeypatch.setattr(disk, "MAX_ENTRIES", 3)
    for k in range(5):  # written one second apart, oldest first
        assert disk.store(("test", str(k)), k, [], [], tmp_path)
        os.utime(disk.entry_path(("test", str(k)), tmp_path), (k + 1, k + 1))
    assert len(_entries(tmp_path)) == 3
    assert [disk.load(("test", str(k)), tmp_path) for k in range(5)] == [None, None, 2, 3, 4]


def test_a_changed_file_makes_the_entry_stale(tmp_path):
    cache, data = tmp_path / "cache", tmp_path / "data"
    data.mkdir()
    path = _variant(data, 9)
    assert _station_cost(load_cached(str(path), cache)) == 9
    _variant(data, 11)
    os.utime(path, ns=(1, 1))  # even an old modification time: the content is hashed
    assert _station_cost(load_cached(str(path), cache)) == 11
    assert len(_entries(cache)) == 1  # the entry was replaced


def test_a_file_joining_the_folder_makes_the_entry_stale(tmp_path, monkeypatch):
    cache, data = tmp_path / "cache", tmp_path / "data"
    data.mkdir()
    path = _variant(data, 9)
    load_cached(str(path), cache)
    (data / "other.yaml").write_text(VARIANT.format(cost=3), "utf-8")
    calls = []
    real = machikoro.rules.loader.load_ruleset
    monkeypatch.setattr(machikoro.rules.loader, "load_ruleset",
                        lambda v: calls.append(v) or real(v))
    load_cached(str(path), cache)
    assert len(calls) == 1  # loaded from the files again
    load_cached(str(path), cache)
    assert len(calls) == 1  # and kept


def test_a_corrupted_entry_is_rebuilt_silently(tmp_path):
    load_cached(None, tmp_path)
    (entry,) = _entries(tmp_path)
    entry.write_bytes(b"\x80\x04not a pickle at all")
    assert disk.load(("ruleset", "x"), tmp_path) is None
    rules = load_cached(None, tmp_path)
    assert rules.ids == machikoro.load_ruleset(None).ids
    assert entry.read_bytes()[:2] != b"\x80\x04n"  # written again
    assert load_cached(None, tmp_path).ids == rules.ids


def test_an_unwritable_cache_folder_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", "utf-8")
    assert load_cached(None, blocker / "cache").ids == machikoro.load_ruleset(None).ids


def test_the_command_line_uses_the_user_cache_unless_no_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MACHIKORO_CACHE_DIR", str(tmp_path))
    assert main(["play", "--seed", "1", "--agents", "random", "--no-cache"]) == 0
    assert _entries(tmp_path) == []
    without = capsys.readouterr().out
    assert main(["play", "--seed", "1", "--agents", "random"]) == 0
    assert len(_entries(tmp_path)) == 1
    assert main(["play", "--seed", "1", "--agents", "random"]) == 0  # from the entry
    out = capsys.readouterr().out
    assert out == without * 2
    assert main(["cards", "--variant", "harbor"]) == 0
    assert len(_entries(tmp_path)) == 2


HEAVY = ("jsonschema", "lark", "numpy", "scipy", "importlib.metadata")


def _imported_after(code: str, cache: Path, modules: tuple = HEAVY) -> set:
    """Which of ``modules`` running ``code`` in a fresh interpreter imports."""
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps([m for m in {modules!r} if m in sys.modules]))")
    env = dict(os.environ, MACHIKORO_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_play_help_and_cards_import_no_heavy_library(tmp_path):
    """``import machikoro.cli``, ``--help`` and, with a warm cache, ``play`` and ``cards``
    import none of JSON Schema, Lark, NumPy, SciPy, nor the package metadata (the agent
    names of entry points are listed only when ``play --help`` prints them); ``validate`` still checks with JSON
    Schema, and ``play --no-cache`` loads with it."""
    run = "from machikoro.cli import main\n"
    assert _imported_after(run, tmp_path) == set()
    assert _imported_after(run + "try:\n    main(['--help'])\nexcept SystemExit:\n    pass",
                           tmp_path, HEAVY + ("machikoro.engine.game",
                                              "machikoro.agents.registry")) == set()
    play = run + "main(['play', '--seed', '1', '--agents', 'random'])"
    assert "jsonschema" in _imported_after(play, tmp_path)  # cold: loaded and checked
    assert _imported_after(play, tmp_path) == set()  # warm
    assert _imported_after(run + "main(['cards'])", tmp_path) == set()
    assert "jsonschema" in _imported_after(
        play.replace("'random'", "'random', '--no-cache'"), tmp_path)
    assert "jsonschema" in _imported_after(run + "main(['validate', 'cards'])", tmp_path)


def test_each_commands_summary_is_its_modules_help():
    """``--help`` lists the commands without importing them: their summaries in
    ``COMMANDS`` must stay the modules' own ``HELP``."""
    from machikoro import cli

    for name, (_, summary) in cli.COMMANDS.items():
        assert summary == cli.command_module(name).HELP, name


def test_scenario_reads_its_rule_sets_through_the_cache_for_that_command_only(
        tmp_path, monkeypatch, capsys):
    from machikoro.rules import loader

    monkeypatch.setenv("MACHIKORO_CACHE_DIR", str(tmp_path))
    cases = str(Path(__file__).parent / "cases")
    loader.use_disk_cache(False)
    assert main(["scenario", cases, "--no-cache"]) == 0
    assert _entries(tmp_path) == []
    assert main(["scenario", cases]) == 0
    assert _entries(tmp_path)
    assert capsys.readouterr().out.count("all cases pass") == 2
    assert loader._DISK["on"] is False  # other loads of the process read the files


def test_an_entry_is_read_back_without_the_c_unpickler_too(tmp_path):
    """The cache reads with ``_pickle.load`` (start-up); a Python without that accelerator
    reads the same entry through :mod:`pickle`."""
    probe = ("import sys\nsys.modules['_pickle'] = None  # as if CPython had no accelerator\n"
             "from machikoro.data import cache\n"
             f"folder = {str(tmp_path)!r}\n"
             "assert cache.store(('k',), {'value': [1, 2]}, [], [], folder)\n"
             "print(cache.load(('k',), folder), cache._unpickle.__module__)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["{'value':", "[1,", "2]}", "pickle"]
    assert disk._unpickle.__module__ == "_pickle"  # this CPython's: the C function
