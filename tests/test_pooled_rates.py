"""Pooled (empirical Bayes) estimates of the advisor's options
(:func:`machikoro.lab.statistics.pooled_rates`): each estimate lies between its own rate
and the pooled one, in the same order, inside its interval; it moves less the more trials
it has; and over many positions drawn from known rates it is nearer the truth than the
raw rates are."""

from __future__ import annotations

import numpy as np

from machikoro.lab.statistics import pooled_rates


def test_estimates_move_toward_the_pooled_rate_keeping_their_order():
    wins = np.array([2, 5, 9, 14, 20])
    rates, lows, highs = pooled_rates(wins, 25)
    raw, mean = wins / 25, wins.sum() / (25 * len(wins))
    assert np.all(np.minimum(raw, mean) <= rates + 1e-12)
    assert np.all(rates <= np.maximum(raw, mean) + 1e-12)
    assert np.all(np.diff(rates) > 0)  # the order of the wins
    assert np.all((lows < rates) & (rates < highs))
    assert abs(rates[0] - raw[0]) > 0.01  # a real pull on the extremes


def test_many_trials_keep_their_own_rates():
    wins = np.array([2000, 2600, 3000, 3900])
    rates, _, _ = pooled_rates(wins, 10_000)
    assert np.allclose(rates, wins / 10_000, atol=0.002)


def test_nothing_to_pool_gives_none():
    assert pooled_rates([3, 4], 10) is None  # fewer than three
    assert pooled_rates([0, 0, 0], 10) is None  # every trial lost
    assert pooled_rates([10, 10, 10], 10) is None  # every trial won
    assert pooled_rates([0, 10, 0, 10], 10) is None  # as spread as proportions can be


def test_pooled_estimates_are_nearer_the_truth_than_raw_rates():
    rng = np.random.default_rng(19)
    raw_error = pooled_error = 0.0
    for _ in range(400):
        truth = rng.uniform(0.2, 0.45, size=int(rng.integers(4, 30)))
        trials = int(rng.integers(5, 60))
        wins = rng.binomial(trials, truth)
        pooled = pooled_rates(wins, trials)
        estimate = wins / trials if pooled is None else pooled[0]
        raw_error += np.abs(wins / trials - truth).mean()
        pooled_error += np.abs(estimate - truth).mean()
    assert pooled_error < 0.8 * raw_error
