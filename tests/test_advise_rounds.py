"""The advisor's rounds under a time budget (:func:`machikoro.lab.advise._rounds`), on a
clock that advances with every rollout played: rounds of equal rollouts per option grow
while the time left holds them, a last round of single rollouts goes to the options whose
rates are the least certain when no whole round fits, the rounds stop within the share of
the budget they may take, and the compiled engine, looked for once at the first round large
enough for it, plays the large rounds in one batch where it is found. Pooled estimates take
rollouts that differ by option."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from machikoro.lab import advise as advise_module
from machikoro.lab.advise import _neediest, _rounds, _sized
from machikoro.lab.statistics import pooled_rates

RATES = [0.1, 0.5, 0.45, 0.9, 0.3]
COST = 0.004  # CPU seconds a rollout


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _fake(clock: _Clock, calls: list):
    """Rollouts that cost COST each on ``clock`` and win the first ``rate`` share."""
    def rollouts(per: int, seed: int, only=None):
        chosen = range(len(RATES)) if only is None else only
        calls.append((per, None if only is None else list(only)))
        wins = np.zeros(len(RATES), dtype=np.int64)
        turns = np.zeros(len(RATES))
        for i in chosen:
            wins[i] = round(RATES[i] * per)
            turns[i] = per  # (one turn a rollout)
            clock.now += COST * per
        return wins, turns, None, wins.astype(float)
    return rollouts


def _parts(calls: list, option: int) -> list:
    """The rollouts ``option`` played in each run of consecutive calls for it alone (a
    round of the scalar engine plays an option's rollouts in chunks, one after another),
    or in a call for every option (``only`` None)."""
    parts, last = [], None
    for at, (per, only) in enumerate(calls):
        if only is None or only == [option]:
            if last == at - 1 and only is not None and calls[last][1] is not None:
                parts[-1] += per
            else:
                parts.append(per)
            last = at
    return parts


def test_a_last_round_of_single_rollouts_fills_the_time_left(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(advise_module.time, "process_time", clock)
    calls: list = []
    wins, turns, played, luck, _ = _rounds(_fake(clock, calls), len(RATES), 100_000, 1.0, 0,
                                        1 << 20, 0.001, 0.0, None)
    # rounds of the scalar engine option by option: 1, then eightfold, then what the time
    # left holds: (0.85 - 9 x 0.02) / 0.02 = 33, then single rollouts
    k = len(RATES)
    assert all(only is not None and len(only) == 1 for _, only in calls)
    assert all(per <= advise_module.CHUNK for per, _ in calls)  # a look at the clock each
    chunks = [8, 8, 8, 8, 1]  # (33 in chunks of at most CHUNK)
    assert [per for per, _ in calls[:(2 + len(chunks)) * k]] == [1] * k + [8] * k + chunks * k
    assert [only[0] for _, only in calls[:k]] == list(range(k))
    assert [only[0] for _, only in calls[2 * k:7 * k]] == [i for i in range(k) for _ in chunks]
    last = calls[7 * k:]
    assert last and all(per == 1 for per, _ in last)
    assert clock.now <= advise_module._KEPT * 1.0 + 1e-9  # within the rounds' share
    assert clock.now > advise_module._KEPT * 1.0 - COST * len(RATES)  # little left over
    assert played.max() - played.min() == 1
    assert set(np.flatnonzero(played == played.max())) == {only[0] for _, only in last}
    assert np.array_equal(turns, played)  # every round's rollouts counted
    assert np.all(wins <= played)
    assert luck is None


def test_without_partial_rounds_every_option_has_the_same_rollouts(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(advise_module.time, "process_time", clock)
    calls: list = []
    _, _, played, _, _ = _rounds(_fake(clock, calls), len(RATES), 100_000, 1.0, 0, 1 << 20,
                              0.001, 0.0, 0)  # (the compiled engine alone)
    assert all(only is None for _, only in calls)
    assert len(set(played.tolist())) == 1


def test_a_round_of_the_scalar_engine_alone_stops_at_the_budget_whatever_its_size(
        monkeypatch):
    """A rule set the compiled engine cannot play: a round of hundreds of rollouts plays
    option by option too (in chunks), and stops at the budget."""
    clock = _Clock()
    monkeypatch.setattr(advise_module.time, "process_time", clock)
    calls: list = []
    _, _, played, _, _ = _rounds(_fake(clock, calls), len(RATES), 100_000, 10.0, 0, 1 << 20,
                              0.001, 0.0, None)
    assert max(_parts(calls, 0)) >= 300  # (a round of 352 an option, at the pace)
    assert all(only is not None for _, only in calls)
    assert clock.now <= advise_module._KEPT * 10.0 + COST * 512 + 1e-9
    assert played.min() >= 1 + 8 + 64  # the rounds before it whole


def test_a_first_round_longer_than_the_budget_stops_at_it(monkeypatch):
    """Options that take more than the budget to play once each: the first round stops
    option by option at the rounds' share of the budget; the options left have none."""
    clock = _Clock()
    monkeypatch.setattr(advise_module.time, "process_time", clock)
    calls: list = []
    monkeypatch.setattr(sys.modules[__name__], "COST", 0.3)
    _, _, played, _, _ = _rounds(_fake(clock, calls), len(RATES), 100_000, 1.0, 0, 1 << 20,
                              0.001, 0.0, None)
    assert played.tolist() == [1, 1, 1, 0, 0]  # 0.9 s > 0.85 s after the third
    assert [only for _, only in calls] == [[0], [1], [2]]


def test_a_round_that_would_overrun_stops_at_the_budget(monkeypatch):
    """A round sized on a faster round before it: its options are played one by one up to
    the budget, the others keep the rollouts they had."""
    clock = _Clock()
    monkeypatch.setattr(advise_module.time, "process_time", clock)
    calls: list = []
    fake = _fake(clock, calls)

    def slowing(per, seed, only=None):  # rollouts after the second round cost 4 times more
        if len(calls) >= 2 * len(RATES):
            clock.now += 3 * COST * per * len(only)
        return fake(per, seed, only)
    _, _, played, _, _ = _rounds(slowing, len(RATES), 100_000, 1.0, 0, 1 << 20, 0.001, 0.0,
                              None)
    # the round of 33, sized on the round of 8's pace: 0.53 s an option at 4 times the
    # cost, in chunks of 0.128 s; after the first option (at 0.71 s) two chunks of the
    # second start before 0.85 s and end before 0.97 s; then the clock is past 0.85 s
    assert played.tolist() == [42, 25, 9, 9, 9]
    assert clock.now <= advise_module._ENDS * 1.0


@pytest.mark.parametrize(("seconds", "third"), [(10.0, 64), (2.0, 51), (0.9, 29)])
def test_a_first_batched_round_is_sized_for_the_compiled_engine_at_its_slowest(
        monkeypatch, seconds, third):
    """The round after scalar rounds that would go to the compiled engine (here from 256
    rollouts in all) is sized at _SWITCH of the scalar pace: with time enough it stays
    eightfold (64 an option); with less, the largest scalar round instead (51 x 5 < 256),
    with less still, what the time holds at the scalar pace."""
    clock = _Clock()
    monkeypatch.setattr(advise_module.time, "process_time", clock)
    calls: list = []
    _rounds(_fake(clock, calls), len(RATES), 100_000, seconds, 0, 1 << 20, 0.001, 0.0, 256)
    assert _parts(calls, 0)[:3] == [1, 8, third]


@pytest.mark.parametrize("found", [True, False])
def test_the_compiled_engine_is_looked_for_once_before_the_first_large_round(monkeypatch,
                                                                            found):
    """Rounds of 5, 40 and 320 rollouts, the compiled engine from 40 on: it is looked for
    (the switch) once, after the first round; found, it plays the large rounds whole in
    one call; not found, they play in the scalar engine, option by option in chunks."""
    clock = _Clock()
    monkeypatch.setattr(advise_module.time, "process_time", clock)
    calls: list = []
    looked: list = []

    def switch() -> bool:
        looked.append(len(calls))
        return found

    k = len(RATES)
    _, _, played, _, _ = _rounds(_fake(clock, calls), k, 73 * k, 100.0, 0, 1 << 20,
                                 0.001, 0.0, 8 * k, switch)
    assert looked == [k]  # (once, after the first round's k single-option calls)
    assert played.tolist() == [73] * k
    later = calls[k:]
    if found:
        assert later == [(8, None), (64, None)]
    else:
        assert all(only is not None and per <= advise_module.CHUNK for per, only in later)
        assert _parts(later, 0) == [8, 64]


def test_an_unplayed_option_gets_the_prior():
    rates, lows, highs = pooled_rates(np.array([2, 9, 14, 0]), np.array([20, 20, 20, 0]))
    assert np.all(np.isfinite(rates))
    assert rates[3] == pytest.approx(25 / 60)  # the pooled mean
    assert lows[3] < rates[3] < highs[3]


def test_the_neediest_options_are_those_nearest_even_odds():
    wins = np.array([1, 10, 9, 18, 6])  # of 20 each
    assert _neediest(wins, 20, 2) == [1, 2]
    assert _neediest(wins, 20, 3) == [1, 2, 4]
    assert _neediest(np.array([5, 5, 5]), 10, 2) == [0, 1]  # the first of equals


def test_pooled_rates_take_trials_per_option():
    wins = np.array([2, 5, 9, 14, 20])
    same = pooled_rates(wins, 25)
    each = pooled_rates(wins, np.full(5, 25))
    assert np.allclose(same[0], each[0])
    rates, lows, highs = pooled_rates(np.array([2, 5, 9, 14, 21]), np.array([25, 25, 25, 25, 26]))
    raw = np.array([2, 5, 9, 14, 21]) / np.array([25, 25, 25, 25, 26])
    mean = 51 / 126
    assert np.all(np.minimum(raw, mean) <= rates + 1e-12)
    assert np.all(rates <= np.maximum(raw, mean) + 1e-12)
    assert np.all((lows < rates) & (rates < highs))
    with pytest.raises(ValueError):
        pooled_rates(np.array([1, 2, 3]), np.array([5, 5]))


def test_the_next_round_is_sized_for_its_engine():
    """(per, last, k, left, elapsed, scalar pace, batched from 256): the same engine at the
    last round's pace; a first batched round at 0.6 of it; a batched round after one only
    when the last one's time fits, else the largest scalar round the time holds; where
    every round is batched, at 0.8 of the last one's pace."""
    assert _sized(64, 8, 5, 1.0, 0.5, 16.0, 256) == 16  # scalar: 8 / 0.5 s x 1 s
    assert _sized(512, 16, 10, 4.0, 1.0, 16.0, 256) == 38  # first batched: 0.6 x 64
    assert _sized(512, 16, 10, 2.0, 1.0, 16.0, 256) == 25  # 0.6 x 32 < 25.6: scalar
    assert _sized(512, 100, 10, 1.5, 1.0, 40.0, 256) == 150  # batched again: its time fits
    assert _sized(512, 100, 10, 0.5, 1.0, 40.0, 256) == 20  # it does not: scalar, 0.5 x 40
    # every round batched: at 0.8 of the last one's pace (64 / 0.2 s x 1.4 s = 448)
    assert _sized(512, 64, 10, 1.4, 0.2, 0.0, 0) == 358
