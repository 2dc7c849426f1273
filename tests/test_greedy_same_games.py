"""Greedy's decisions do not change when its speed does: seeded all-greedy games of five
rule sets replay the logs recorded before the speed work (tests/data/greedy_logs.json,
made by ``bench/greedy_same.py --games 4 --out``; the bench script compares 200 games a
set the same way)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORDED = Path(__file__).resolve().parent / "data" / "greedy_logs.json"


def _same_module():
    spec = importlib.util.spec_from_file_location("greedy_same", ROOT / "bench" / "greedy_same.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SAME = _same_module()
EXPECTED = json.loads(RECORDED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(SAME.SETS))
def test_greedy_plays_every_recorded_game_of_the_rule_set_as_before(name):
    variants, players = SAME.SETS[name]
    found = {name: SAME.play_set(variants, players, len(EXPECTED[name]))}
    assert SAME.differences({name: EXPECTED[name]}, found) == []


def test_the_comparison_sees_a_greedy_that_decides_otherwise(monkeypatch):
    # a shorter horizon changes what greedy builds: the same seeds give other logs
    original = SAME.GreedyAgent.__init__

    def shorter(self, seed=None, horizon=6.0, full=True):
        original(self, seed, horizon=3.0, full=full)

    monkeypatch.setattr(SAME.GreedyAgent, "__init__", shorter)
    name = "base 2p"
    variants, players = SAME.SETS[name]
    found = {name: SAME.play_set(variants, players, len(EXPECTED[name]))}
    assert SAME.differences({name: EXPECTED[name]}, found)
