"""Statistics of the lab: Wilson intervals of proportions, percentiles of histograms, and
running paired differences with Student's t intervals.

The Wilson interval is the standard library's arithmetic (the normal quantile of
:class:`statistics.NormalDist`); only Student's t quantile needs SciPy, imported by
:meth:`Paired.interval` when it has two differences or more: importing ``scipy.stats`` costs
about 0.5 s of CPU time, more than a lab command's whole start-up (bench/startup.py)."""

from __future__ import annotations

import math
from collections import Counter
from statistics import NormalDist

import numpy as np


def wilson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The two-sided Wilson score interval ``(low, high)`` of a proportion of ``successes``
    in ``trials`` at confidence ``level``, without continuity correction: SciPy's
    ``binomtest(successes, trials).proportion_ci(level, method="wilson")``, the same
    formula in the same order (Newcombe 1998), its low end 0 at no success and its high end
    1 when every trial succeeds; (0, 1) for no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    n, p = trials, successes / trials
    z = NormalDist().inv_cdf(0.5 + 0.5 * level)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    low = 0.0 if successes == 0 else center - delta
    high = 1.0 if successes == trials else center + delta
    return (low, high)


def pooled_rates(wins, trials, level: float = 0.95, floor: float = 1e-4,
                 noise: float = 1.0):
    """Partially pooled (empirical Bayes) estimates of ``k`` proportions each measured in
    ``trials`` trials (one number for all, or one per proportion; ``wins``: successes per
    proportion, ``k >= 3``): a beta prior is fitted to them by the method of moments
    (mean: the pooled rate; variance: what the observed rates vary beyond their sampling
    variance, at least ``floor``), and each estimate is its beta posterior's mean, with
    the Wilson ``level`` interval of the posterior's pseudo-counts (near its central
    interval, without importing SciPy, which costs a quarter of the advisor's time
    budget). A proportion measured in few trials moves toward the others; in many trials
    it is its own rate. Returns ``(rates, lows,
    highs)``, arrays of shape ``(k,)``; None where there is nothing to pool (fewer than 3
    proportions, every trial a success or every one a failure, or rates as spread as
    proportions can be; a proportion of no trials gets the prior's mean). ``noise`` is
    the variance of one trial's outcome as a share of the binomial's (1: plain counts;
    below 1: counts adjusted by control variates, whose sampling variance is that much
    lower)."""
    wins = np.asarray(wins, dtype=np.float64)
    trials = np.broadcast_to(np.asarray(trials, dtype=np.float64), wins.shape)
    seen = trials > 0  # (a proportion of no trials gets the prior: its mean, its interval)
    if seen.sum() < 3 or (trials < 0).any():
        return None
    mean = wins.sum() / trials.sum()
    if not 0 < mean < 1:
        return None
    sampling = noise * mean * (1 - mean)  # one trial's variance
    rates = wins[seen] / trials[seen]
    spread = max(float(np.var(rates, ddof=1)) - sampling * float(np.mean(1 / trials[seen])),
                 floor)
    strength = sampling / spread - 1  # the prior's weight, in trials
    if strength <= 0:  # the rates vary as much as proportions can: nothing to pool
        return None
    a, b = wins + mean * strength, trials - wins + (1 - mean) * strength
    bounds = np.array([wilson(x, x + y, level) for x, y in zip(a.tolist(), b.tolist())])
    return a / (a + b), bounds[:, 0], bounds[:, 1]


def histogram_stats(hist: Counter) -> dict:
    """Mean, median, 10th and 90th percentile of a histogram (value -> count), as
    ``numpy.percentile`` (linear interpolation) gives them for the expanded values, but
    computed on the histogram: memory stays the number of distinct values."""
    counts = {value: n for value, n in hist.items() if n > 0}
    if not counts:
        return {"mean": None, "median": None, "p10": None, "p90": None}
    values = np.array(sorted(counts), dtype=np.float64)
    weights = np.array([counts[v] for v in sorted(counts)], dtype=np.int64)
    ends = np.cumsum(weights)  # the sorted expansion holds values[j] at ends[j-1]..ends[j]-1
    total = int(ends[-1])

    def at(k: int) -> float:
        return float(values[np.searchsorted(ends, k, side="right")])

    def percentile(q: float) -> float:
        position = q / 100 * (total - 1)
        low = math.floor(position)
        a, b = at(low), at(min(low + 1, total - 1))
        return a + (b - a) * (position - low)

    return {"mean": float((values * weights).sum() / total), "median": percentile(50),
            "p10": percentile(10), "p90": percentile(90)}


class Paired:
    """Running sums of paired differences (constant memory): count, sum, sum of squares."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, d: float) -> None:
        self.n += 1
        self.total += d
        self.squares += d * d

    def interval(self) -> dict:
        """Mean difference and its 95% interval (Student's t with n - 1 degrees of freedom;
        no interval below two differences); a zero-width interval when every pair has the
        same difference. SciPy (its t quantile) is imported here, from two differences on."""
        n = self.n
        if n == 0:
            return {"diff": None, "ci95": None, "half_width": math.inf}
        mean = self.total / n
        if n < 2:
            return {"diff": mean, "ci95": None, "half_width": math.inf}
        from scipy.special import stdtrit  # what scipy.stats.t.ppf computes, lighter

        var = max(0.0, (self.squares - n * mean * mean) / (n - 1))
        half = float(stdtrit(n - 1, 0.975)) * math.sqrt(var / n)
        return {"diff": mean, "ci95": [mean - half, mean + half], "half_width": half}
