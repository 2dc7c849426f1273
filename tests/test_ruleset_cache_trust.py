"""The cache of compiled rule sets under misuse (issue 17): it reads only what the loader
reads (a deep or huge notes file beside a variant is never opened), an entry is checked
against its own SHA-512 before it is unpickled (a flipped bit gives the right rule set or
a recompiled one, never another), a file changed within one tick of its modification time
is still seen, and a cache folder or entry that someone else can write is not used, with
one warning line saying how to fix it."""

from __future__ import annotations

import os
import pickle
import random
import sys
from pathlib import Path

import pytest

import machikoro
from machikoro.cli import main
from machikoro.data import cache as disk
from machikoro.engine.game import Game
from machikoro.rules import loader
from machikoro.rules.loader import load_cached

VARIANT = """kind: variant
name: Dear Station
description: a test variant
extends: base
change:
  train_station:
    cost: {cost}
"""


def _variant(folder: Path, cost: int = 9) -> Path:
    path = folder / "dear.yaml"
    path.write_text(VARIANT.format(cost=cost), "utf-8")
    return path


def _station_cost(rules) -> int:
    return rules.cost[rules.index["train_station"]]


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle"))


def _events(rules) -> list:
    game = Game(rules, 3, seed=4, record=True)
    machikoro.play(game, [machikoro.GreedyAgent(s) for s in range(3)])
    return game.events


@pytest.fixture
def warnings_anew(monkeypatch):
    """The folder warning, printed once per process, as in a new process."""
    monkeypatch.setattr(disk, "_WARNED", [], raising=False)


# ------------------------------------------------------ only what the loader reads, read once

_OPENED: list[str] = []
_WATCHING: list[bool] = []


def _audit(event: str, args: tuple) -> None:
    if _WATCHING and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # inert unless a test watches (hooks cannot be removed)


def _opened_during(action) -> list[str]:
    """The paths of the files ``action()`` opened."""
    _OPENED.clear()
    _WATCHING.append(True)
    try:
        action()
    finally:
        _WATCHING.clear()
    return list(_OPENED)


def test_a_deep_notes_file_beside_a_variant_does_not_break_play(tmp_path, monkeypatch,
                                                                capsys):
    """A 100,000-deep YAML file beside a variant file is no part of its rule set: validate
    says OK, and play (cold, then warm) plays, with no internal error."""
    monkeypatch.setenv("MACHIKORO_CACHE_DIR", str(tmp_path / "cache"))
    data = tmp_path / "data"
    data.mkdir()
    path = _variant(data)
    (data / "notes.yaml").write_text("a: " + "[" * 100_000 + "]" * 100_000 + "\n", "utf-8")
    assert main(["validate", str(path)]) == 0
    for _ in range(2):
        assert main(["play", "--variant", str(path), "--seed", "1", "--agents",
                     "random"]) == 0
        out, err = capsys.readouterr()
        assert "Winner" in out and "internal error" not in out + err, out + err


@pytest.mark.parametrize("notes", ["deep", "huge"])
def test_the_cache_opens_no_file_the_loader_does_not_read(tmp_path, notes):
    """Loading and caching a variant opens its file, the base cards and nothing else
    beside it: not a notes file, however deep or big (6.5 MB), whatever its name."""
    data = tmp_path / "data"
    data.mkdir()
    path = _variant(data)
    text = ("a: " + "[" * 100_000 + "]" * 100_000 if notes == "deep"
            else "- " + "x" * 70 + "\n") * (1 if notes == "deep" else 90_000)
    for name in ("notes.yaml", "zz-more.yml"):
        (data / name).write_text(text, "utf-8")
    opened = _opened_during(lambda: load_cached(str(path), tmp_path / "cache"))
    beside = {Path(p).resolve() for p in opened if Path(p).resolve().parent == data.resolve()}
    assert beside == {path.resolve()}
    assert _station_cost(load_cached(str(path), tmp_path / "cache")) == 9  # and it is found
    warm = _opened_during(lambda: load_cached(str(path), tmp_path / "cache"))
    assert not any(Path(p).name in ("notes.yaml", "zz-more.yml") for p in warm)


def test_a_file_read_by_the_loader_is_read_once_and_recorded_as_read(tmp_path):
    """The entry's record of a file is what the loader read, not a second reading: the
    SHA-512 of the bytes the loader parsed (so a file changed between the two is seen)."""
    from machikoro.data.sources import recording

    data = tmp_path / "data"
    data.mkdir()
    path = _variant(data)
    with recording() as read:
        opened = _opened_during(lambda: machikoro.load_ruleset(str(path)))
    assert [p for p in opened if Path(p).resolve() == path.resolve()] == [str(path)]
    (record,) = [f for f in read.files if f[0] == str(path.resolve())]
    assert record[2:] == (path.stat().st_size, disk.digest(path))


def test_a_file_joining_a_variant_folder_makes_the_entry_stale(tmp_path):
    """A folder that is a variant (``include_folder: true``) reads every card file in it:
    a card file joining it changes the rule set."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "variant.yaml").write_text(VARIANT.format(cost=9) + "include_folder: true\n",
                                       "utf-8")
    before = load_cached(str(data), tmp_path / "cache")
    (data / "bakery.yaml").write_text(
        (machikoro.data.bundled.data_dir("cards") / "bakery.yaml").read_text("utf-8")
        .replace("cost: 1", "cost: 4"), "utf-8")
    after = load_cached(str(data), tmp_path / "cache")
    assert before.cost[before.index["bakery"]] == 1
    assert after.cost[after.index["bakery"]] == 4


def test_a_file_changed_within_its_modification_times_tick_is_seen(tmp_path):
    """A file rewritten with the same size and the same modification time (as within one
    tick of a coarse file-system clock) is hashed, not trusted by its stamp."""
    data = tmp_path / "data"
    data.mkdir()
    path = _variant(data, 9)
    assert _station_cost(load_cached(str(path), tmp_path / "cache")) == 9
    stamp = path.stat().st_mtime_ns
    _variant(data, 7)
    os.utime(path, ns=(stamp, stamp))
    assert _station_cost(load_cached(str(path), tmp_path / "cache")) == 7


# ----------------------------------------------------------------- an entry checks itself

def test_a_flipped_bit_anywhere_in_an_entry_is_never_another_rule_set(tmp_path):
    """Each of 1,500 single-bit flips spread over an entry: the entry is refused, or gives
    the very rule set stored, never a different one."""
    key = ("test", "harbor")
    stored = machikoro.load_ruleset("harbor")
    assert disk.store(key, stored, [], [], tmp_path)
    (entry,) = _entries(tmp_path)
    good = entry.read_bytes()
    reference = pickle.dumps(disk.load(key, tmp_path))
    picker = random.Random(17)
    positions = sorted(picker.sample(range(len(good)), min(1500, len(good))))
    different = []
    for at in positions:
        flipped = bytearray(good)
        flipped[at] ^= 1 << picker.randrange(8)
        entry.write_bytes(bytes(flipped))
        found = disk.load(key, tmp_path)
        if found is not None and pickle.dumps(found) != reference:
            different.append(at)
    assert different == [], f"{len(different)} flips loaded another value"


def test_a_corrupted_rule_set_entry_is_recompiled_to_the_right_rule_set(tmp_path):
    path = _variant(tmp_path, 9)
    load_cached(str(path), tmp_path / "cache")
    (entry,) = _entries(tmp_path / "cache")
    data = bytearray(entry.read_bytes())
    at = data.rfind(b"Dear Station")
    data[at] ^= 0x20  # "dear Station": still a valid pickle
    entry.write_bytes(bytes(data))
    rules = load_cached(str(path), tmp_path / "cache")
    assert rules.name == "Dear Station"
    assert _events(rules) == _events(machikoro.load_ruleset(str(path)))
    assert b"Dear Station" in entry.read_bytes()  # written again


# ------------------------------------------------------------ the folder must be the user's

def test_a_cache_folder_others_can_write_is_not_used_and_said_once(tmp_path, monkeypatch,
                                                                   capsys, warnings_anew):
    """A group- or world-writable cache folder is neither read nor written; one line on
    standard error says why and how to fix it, once per process; the command works."""
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv("MACHIKORO_CACHE_DIR", str(folder))
    play = ["play", "--seed", "1", "--agents", "random"]
    assert main(play + ["--no-cache"]) == 0
    expected = capsys.readouterr().out
    for _ in range(2):
        assert main(play) == 0
    out, err = capsys.readouterr()
    assert out == expected * 2
    assert err.count("\n") == 1 and err.startswith("machikoro: warning: "), err
    assert str(folder) in err and f"chmod go-w {folder}" in err
    assert _entries(folder) == []
    folder.chmod(0o700)  # fixed: used again, silently
    assert main(play) == 0 and main(play) == 0
    assert len(_entries(folder)) == 1 and capsys.readouterr().err == ""


def test_an_entry_planted_in_a_group_writable_folder_is_not_read(tmp_path, monkeypatch,
                                                                 warnings_anew, capsys):
    folder = tmp_path / "cache"
    path = _variant(tmp_path, 9)
    load_cached(str(path), folder)
    folder.chmod(0o775)
    calls = []
    real = loader.load_ruleset
    monkeypatch.setattr(loader, "load_ruleset", lambda v: calls.append(v) or real(v))
    assert _station_cost(load_cached(str(path), folder)) == 9
    assert calls == [str(path)]  # loaded from the files: the entry was not read
    assert "can be written by other users" in capsys.readouterr().err


def test_an_entry_others_can_write_is_not_read_and_is_replaced(tmp_path, warnings_anew,
                                                               capsys):
    folder = tmp_path / "cache"
    key = ("test", "x")
    assert disk.store(key, "value", [], [], folder)
    (entry,) = _entries(folder)
    entry.chmod(0o666)
    assert disk.load(key, folder) is None
    err = capsys.readouterr().err
    assert "entry" in err and f"chmod go-w {entry}" in err
    assert disk.store(key, "value", [], [], folder)
    assert entry.stat().st_mode & 0o777 == 0o600
    assert disk.load(key, folder) == "value"


def test_a_cache_folder_of_another_user_is_not_used(tmp_path, monkeypatch, warnings_anew,
                                                    capsys):
    folder = tmp_path / "cache"
    path = _variant(tmp_path, 9)
    load_cached(str(path), folder)
    monkeypatch.setattr(os, "getuid", lambda: folder.stat().st_uid + 1)
    assert disk.load(("ruleset",), folder) is None
    assert not disk.store(("test", "y"), 1, [], [], folder)
    assert _station_cost(load_cached(str(path), folder)) == 9
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "belongs to another user" in err
    assert "MACHIKORO_CACHE_DIR" in err


def test_a_new_cache_folder_is_made_for_its_user_alone(tmp_path):
    folder = tmp_path / "new" / "cache"
    assert disk.store(("test", "z"), 1, [], [], folder)
    assert folder.stat().st_mode & 0o077 == 0
    (entry,) = _entries(folder)
    assert entry.stat().st_mode & 0o077 == 0
