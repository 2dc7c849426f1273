"""``machikoro train`` on the compiled engine (:mod:`machikoro.lab.compiled_training`):
without exploration its rounds are the NumPy engine's rounds to the last number (the
same games, the same recorded afterstates, labels and steps), its strength check gives
the NumPy engine's wins, a run is the same whatever the workers, and ``train`` plays it."""

from __future__ import annotations

import numpy as np
import pytest

from machikoro.agents.value import value_for
from machikoro.data.bundled import resolve_variant
from machikoro.lab import batched_training as bt
from machikoro.lab import compiled_training as ct
from machikoro.rules.loader import cached_ruleset

pytestmark = pytest.mark.usefixtures("compiled_engine")


@pytest.fixture
def weights_dir(tmp_path, monkeypatch):
    folder = tmp_path / "weights"
    monkeypatch.setenv("MACHIKORO_WEIGHTS", str(folder))
    return folder


@pytest.mark.parametrize("variant,learning", [(None, False), ("harbor", True)])
def test_without_exploring_the_rounds_are_the_numpy_engine_s(variant, learning):
    # the first round (greedy seats) and a later one (the expert, greedy, the previous
    # weights and the bundled strategies): the same positions in the same order
    rules = cached_ruleset(None if variant is None else str(resolve_variant(variant)))
    value = value_for(rules, 2) if learning else None
    compiled = ct.self_play_compiled(rules, 2, 24, value, None, 0.0, seed=5)
    numpy = bt.self_play_batched(rules, 2, 24, value, None, 0.0, seed=5)
    assert len(compiled[0]) > 300
    for a, b in zip(compiled, numpy):
        assert np.array_equal(a, b)


def test_a_round_is_the_same_whatever_the_workers_and_says_each_builders_next(monkeypatch):
    monkeypatch.setattr(bt, "CHUNK", 10)  # (compiled_training reads it from there)
    monkeypatch.setattr(ct, "CHUNK", 10)
    rules = cached_ruleset(None)
    one = ct.self_play_compiled(rules, 2, 30, None, None, 0.3, seed=8, workers=1)
    two = ct.self_play_compiled(rules, 2, 30, None, None, 0.3, seed=8, workers=2)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
    x, y, steps = one
    nexts = np.flatnonzero(steps) + steps[steps > 0]
    assert (nexts < len(x)).all() and (y[steps > 0] == y[nexts]).all()
    assert (steps == 0).sum() == 2 * 30  # one last position per seat of each game
    other = ct.self_play_compiled(rules, 2, 30, None, None, 0.3, seed=9, workers=1)
    assert len(other[0]) != len(x) or not np.array_equal(other[0], x)


def test_the_strength_check_wins_the_numpy_engine_s_games():
    rules = cached_ruleset(None)
    value = value_for(rules, 2)
    compiled = ct.strength_compiled(rules, 2, value, 40, seed=3)
    assert compiled == bt.strength_batched(rules, 2, value, 40, seed=3)
    assert compiled["games"] == 40 and compiled["wins"] > 20  # (the expert beats greedy)


def test_train_plays_machi_koro_2_on_the_compiled_engine(weights_dir, capsys):
    from machikoro.agents.value import read_weights, weights_name
    from machikoro.cli import main

    code = main(["train", "--variant", "machi-koro-2", "--engine", "vector", "--games", "20",
                 "--rounds", "1", "--nets", "1", "--epochs", "2", "--check", "8",
                 "--calibrate", "0", "--workers", "1", "--seed", "2"])
    said = capsys.readouterr()
    assert code == 0 and "vector engine" in said.err, said.err
    rules = cached_ruleset(str(resolve_variant("machi-koro-2")))
    meta = read_weights(weights_dir / weights_name(rules, 2)).meta
    assert meta["engine"] == "vector" and meta["strength"]["games"] == 8
