"""The distribution of one score over a dataset, in memory that does not grow with the rows.

Scores live in ``[0, 1]`` and repeat a lot (a tool-call score is a ratio of small counts), so
the values are counted exactly while there are at most 4,096 distinct ones; quantiles, mean and
histogram are then exact and do not depend on how the rows were batched. Past that the counts
move into 10,000 equal bins and quantiles are exact to within half a bin (0.00005).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["QUANTILES", "ScoreDistribution"]

#: The quantiles a summary reports.
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
EXACT_LIMIT = 4096
BINS = 10_000
HISTOGRAM_BINS = 20
#: Values buffered before they are folded into the counts.
PENDING = 16_384

FloatArray = npt.NDArray[np.float64]


class ScoreDistribution:
    """Count, mean, spread, quantiles and a histogram of values in ``[0, 1]``.

    Example:
        >>> d = ScoreDistribution()
        >>> d.add(np.array([0.0, 0.5, 1.0, 1.0]))
        >>> d.count, d.mean, d.quantile(0.5), d.minimum, d.maximum
        (4, 0.625, 0.75, 0.0, 1.0)
    """

    def __init__(self) -> None:
        self._count = 0
        self._exact: dict[float, int] | None = {}
        self._bins: npt.NDArray[np.int64] | None = None
        self._sum: list[float] = []  # partial sums (binned mode)
        self._squares: list[float] = []
        self._minimum: float | None = None
        self._maximum: float | None = None
        self._pending: list[FloatArray] = []
        self._pending_size = 0

    def add(self, values: FloatArray) -> None:
        """Add finite values (NaN marks a row without this score and is left out).

        Values are folded in :data:`PENDING` at a time: a run adds a batch of 512 per score
        column, and each fold costs a few NumPy calls whatever its size.
        """
        self._pending.append(values)
        self._pending_size += int(values.size)
        if self._pending_size >= PENDING:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            pending = self._pending
            self._pending, self._pending_size = [], 0
            self._fold(pending[0] if len(pending) == 1 else np.concatenate(pending))

    @property
    def count(self) -> int:
        """How many values were added."""
        self._flush()
        return self._count

    @property
    def minimum(self) -> float | None:
        """The smallest value, or None without values."""
        self._flush()
        return self._minimum

    @property
    def maximum(self) -> float | None:
        """The largest value, or None without values."""
        self._flush()
        return self._maximum

    def _fold(self, values: FloatArray) -> None:
        values = values[~np.isnan(values)]
        if values.size == 0:
            return
        self._count += int(values.size)
        low, high = float(values.min()), float(values.max())
        self._minimum = low if self._minimum is None else min(self._minimum, low)
        self._maximum = high if self._maximum is None else max(self._maximum, high)
        if self._exact is not None:
            uniq, counts = np.unique(values, return_counts=True)
            exact = self._exact
            for v, c in zip(uniq.tolist(), counts.tolist(), strict=True):
                exact[v] = exact.get(v, 0) + c
            if len(exact) > EXACT_LIMIT:
                self._to_bins()
            return
        assert self._bins is not None
        np.add.at(self._bins, _bin_index(values), 1)
        self._sum.append(math.fsum(values.tolist()))
        self._squares.append(math.fsum((values * values).tolist()))

    def _exact_arrays(self) -> tuple[FloatArray, npt.NDArray[np.int64]]:
        assert self._exact is not None
        values = np.fromiter(self._exact.keys(), dtype=np.float64)
        counts = np.fromiter(self._exact.values(), dtype=np.int64)
        return values, counts

    def _to_bins(self) -> None:
        values, counts = self._exact_arrays()
        self._bins = np.zeros(BINS, dtype=np.int64)
        np.add.at(self._bins, _bin_index(values), counts)
        self._sum = [math.fsum((values * counts).tolist())]
        self._squares = [math.fsum((values * values * counts).tolist())]
        self._exact = None

    @property
    def exact(self) -> bool:
        """True while quantiles are exact (at most 4,096 distinct values so far)."""
        self._flush()
        return self._exact is not None

    @property
    def mean(self) -> float | None:
        """The mean, or None without values."""
        if not self.count:
            return None
        return self._total(squares=False) / self.count

    @property
    def std(self) -> float | None:
        """The population standard deviation, or None without values."""
        mean = self.mean
        if mean is None:
            return None
        return math.sqrt(max(self._total(squares=True) / self.count - mean * mean, 0.0))

    def _total(self, squares: bool) -> float:
        self._flush()
        if self._exact is not None:
            power = 2 if squares else 1
            return math.fsum(v**power * c for v, c in self._exact.items())
        return math.fsum(self._squares if squares else self._sum)

    def _sorted(self) -> tuple[FloatArray, npt.NDArray[np.int64]]:
        self._flush()
        if self._exact is not None:
            values, counts = self._exact_arrays()
            order = np.argsort(values)
            return values[order], counts[order]
        assert self._bins is not None
        nonzero = np.nonzero(self._bins)[0]
        centres = (nonzero + 0.5) / BINS
        return centres.astype(np.float64), self._bins[nonzero]

    def quantile(self, q: float) -> float | None:
        """The ``q`` quantile with linear interpolation between order statistics (NumPy's
        default method), or None without values."""
        if not self.count:
            return None
        values, counts = self._sorted()
        cum = np.cumsum(counts)
        h = (self.count - 1) * q
        lo, hi = math.floor(h), math.ceil(h)
        v_lo = float(values[np.searchsorted(cum, lo + 1)])
        v_hi = float(values[np.searchsorted(cum, hi + 1)])
        value = v_lo + (h - lo) * (v_hi - v_lo)
        assert self.minimum is not None and self.maximum is not None
        return min(max(value, self.minimum), self.maximum)

    def histogram(self, bins: int = HISTOGRAM_BINS) -> list[int]:
        """Counts in ``bins`` equal bins over ``[0, 1]`` (1.0 falls in the last one)."""
        out = np.zeros(bins, dtype=np.int64)
        self._flush()
        if self._exact is not None:
            values, counts = self._exact_arrays()
            np.add.at(out, np.clip((values * bins).astype(np.int64), 0, bins - 1), counts)
        else:
            assert self._bins is not None
            index = np.arange(BINS) * bins // BINS
            np.add.at(out, index, self._bins)
        return [int(c) for c in out]

    def to_dict(self) -> dict[str, Any]:
        """Plain numbers: count, mean, std, min, the quantiles, max, histogram, exact."""
        return {
            "count": self.count,
            "mean": self.mean,
            "std": self.std,
            "min": self.minimum,
            **{f"p{round(q * 100):02d}": self.quantile(q) for q in QUANTILES},
            "max": self.maximum,
            "histogram": self.histogram(),
            "exact": self.exact,
        }


def _bin_index(values: FloatArray) -> npt.NDArray[np.int64]:
    return np.clip((values * BINS).astype(np.int64), 0, BINS - 1)
