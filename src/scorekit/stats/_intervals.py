"""95 % intervals of an aggregate of run scores, and the borderline test that asks for more runs.

- mean (and average): the Student t-interval ``mean ± t(0.975, n-1) · s / sqrt(n)``;
- median, min and max: a bootstrap percentile interval, drawn from the *sorted* run scores with
  a fixed seed, so the same scores always give the same interval (whatever their order).

With one run there is no spread to measure: the interval is None.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: t(0.975, df) for df = 1..30; beyond, a Cornish-Fisher expansion (error < 1e-4).
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
_Z975 = 1.959963984540054
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 20240522


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom.

    Example:
        >>> t975(4), round(t975(100), 3)
        (2.7764, 1.984)
    """
    if df < 1:
        raise ValueError(f"df must be >= 1; got {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def _stat(name: str, values: Sequence[float]) -> float:
    if name == "median":
        return float(statistics.median(values))
    if name == "min":
        return float(min(values))
    if name == "max":
        return float(max(values))
    return math.fsum(values) / len(values)


def bootstrap_interval(scores: Sequence[float], aggregation: str) -> tuple[float, float] | None:
    """The bootstrap percentile 95 % interval of ``aggregation`` (median, min or max).

    Example:
        >>> bootstrap_interval([0.5, 0.7, 0.6, 0.9, 0.8], "median")
        (0.5, 0.9)
        >>> bootstrap_interval([0.9, 0.8, 0.7, 0.6, 0.5], "median")
        (0.5, 0.9)
    """
    if len(scores) < 2:
        return None
    ordered = sorted(float(s) for s in scores)
    rng = random.Random(BOOTSTRAP_SEED)
    n = len(ordered)
    draws = sorted(
        _stat(aggregation, [ordered[rng.randrange(n)] for _ in range(n)])
        for _ in range(BOOTSTRAP_SAMPLES)
    )
    low = draws[int(0.025 * BOOTSTRAP_SAMPLES)]
    high = draws[math.ceil(0.975 * BOOTSTRAP_SAMPLES) - 1]
    return (low, high)


def t_interval(scores: Sequence[float]) -> tuple[float, float] | None:
    """The t-interval (95 %) of the mean of ``scores``, cut to ``[0, 1]`` (scores never leave
    it, so an interval that did would promise values no run can have).

    Example:
        >>> low, high = t_interval([0.6, 0.7, 0.8])
        >>> round(low, 4), round(high, 4)
        (0.4516, 0.9484)
    """
    n = len(scores)
    if n < 2:
        return None
    mean = math.fsum(scores) / n
    half = t975(n - 1) * statistics.stdev(scores) / math.sqrt(n)
    return (max(0.0, mean - half), min(1.0, mean + half))


@dataclass(frozen=True)
class AggregateStats:
    """What the reports show of an aggregated assertion's run scores."""

    mean: float
    stdev: float | None
    interval: tuple[float, float] | None

    def describe(self, aggregation: str) -> str:
        """``95% interval of the mean 0.4516-0.9484 (t, sample sd 0.1)``."""
        sd = "n/a" if self.stdev is None else f"{self.stdev:.4g}"
        if self.interval is None:
            return f"no interval with one run (sample sd {sd})"
        how = "t" if aggregation == "mean" else "bootstrap"
        low, high = self.interval
        return f"95% interval of the {aggregation} {low:.4g}-{high:.4g} ({how}, sample sd {sd})"


def aggregate_stats(scores: Sequence[float], aggregation: str) -> AggregateStats:
    """Mean, sample standard deviation and the 95 % interval of ``aggregation``.

    Example:
        >>> aggregate_stats([0.6, 0.7, 0.8], "mean").stdev
        0.1
    """
    values = [float(s) for s in scores]
    mean = math.fsum(values) / len(values)
    stdev = round(statistics.stdev(values), 12) if len(values) > 1 else None
    if aggregation == "mean":
        return AggregateStats(mean, stdev, t_interval(values))
    return AggregateStats(mean, stdev, bootstrap_interval(values, aggregation))


def straddles(interval: tuple[float, float] | None, low: float, high: float) -> bool:
    """True when the interval crosses a bound of ``[low, high]`` (the verdict is not clear).

    A bound at 0 or 1 is never crossed (no score lies beyond it), so an interval reaching past
    it does not count.

    Example:
        >>> straddles((0.55, 0.75), 0.7, 1.0), straddles((0.72, 1.05), 0.7, 1.0)
        (True, False)
    """
    if interval is None:
        return False
    a, b = interval
    return (low > 0.0 and a < low < b) or (high < 1.0 and a < high < b)
