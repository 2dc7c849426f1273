"""Statistics of the lab: Wilson intervals of proportions, percentiles of histograms, and
running paired differences with Student's t intervals."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np


def wilson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (scipy's ``binomtest``); (0, 1) for no
    trials."""
    if trials <= 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest

    ci = binomtest(successes, trials).proportion_ci(confidence_level=level, method="wilson")
    return (float(ci.low), float(ci.high))


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
        """Mean difference and its 95% interval (t distribution); a zero-width interval
        when every pair has the same difference."""
        from scipy.stats import t

        n = self.n
        if n == 0:
            return {"diff": None, "ci95": None, "half_width": math.inf}
        mean = self.total / n
        if n < 2:
            return {"diff": mean, "ci95": None, "half_width": math.inf}
        var = max(0.0, (self.squares - n * mean * mean) / (n - 1))
        half = float(t.ppf(0.975, n - 1)) * math.sqrt(var / n)
        return {"diff": mean, "ci95": [mean - half, mean + half], "half_width": half}
