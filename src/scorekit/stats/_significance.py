"""Two small significance tests for baseline comparisons, without scipy.

* :func:`welch_less` - one-sided Welch t-test: is the mean of ``new`` below that of ``old``?
  The t distribution's CDF comes from the regularized incomplete beta function (a continued
  fraction evaluated by the modified Lentz method).
* :func:`fisher_less` - one-sided Fisher exact test on two pass counts: did ``new`` pass less
  often than ``old``? A sum over the hypergeometric distribution.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["fisher_less", "student_t_cdf", "welch_less"]

_EPS = 1e-14
_TINY = 1e-300


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        # The even step's coefficient, then the odd one's.
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + aa / c
            c = c if abs(c) > _TINY else _TINY
            step = d * c
            h *= step
        if abs(step - 1.0) < _EPS:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t distribution with ``df`` degrees of freedom.

    Example:
        >>> round(student_t_cdf(2.015, 5), 3)
        0.95
        >>> student_t_cdf(0.0, 3)
        0.5
    """
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def _mean_var(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, var


def welch_less(old: Sequence[float], new: Sequence[float]) -> float:
    """One-sided p-value of Welch's t-test for "the mean of ``new`` is below ``old``'s".

    Raises:
        ValueError: fewer than two values in either sample.

    Example:
        >>> round(welch_less([0.9, 0.92, 0.88, 0.91], [0.7, 0.72, 0.69, 0.71]), 6)
        2e-06
        >>> welch_less([0.5, 0.6, 0.7], [0.5, 0.6, 0.7])
        0.5
    """
    if len(old) < 2 or len(new) < 2:
        raise ValueError("welch_less needs at least two values in each sample")
    m1, v1 = _mean_var(old)
    m2, v2 = _mean_var(new)
    se2 = v1 / len(old) + v2 / len(new)
    if se2 == 0.0:
        return 0.0 if m2 < m1 else (0.5 if m2 == m1 else 1.0)
    t = (m1 - m2) / math.sqrt(se2)
    df = se2**2 / ((v1 / len(old)) ** 2 / (len(old) - 1) + (v2 / len(new)) ** 2 / (len(new) - 1))
    return 1.0 - student_t_cdf(t, df)


def fisher_less(old_passed: int, old_runs: int, new_passed: int, new_runs: int) -> float:
    """One-sided p-value of Fisher's exact test for "``new`` passes less often than ``old``".

    The probability, with the margins of the 2x2 table fixed, of ``new`` passing at most
    ``new_passed`` times.

    Raises:
        ValueError: a count below 0 or passes above runs.

    Example:
        >>> round(fisher_less(10, 10, 3, 10), 6)
        0.001548
        >>> fisher_less(5, 10, 5, 10) > 0.5
        True
    """
    if not (0 <= old_passed <= old_runs and 0 <= new_passed <= new_runs):
        raise ValueError("fisher_less needs 0 <= passed <= runs for both runs")
    total_passed = old_passed + new_passed
    total = old_runs + new_runs
    denom = math.comb(total, total_passed)
    low = max(0, total_passed - old_runs)
    p = sum(
        math.comb(new_runs, k) * math.comb(old_runs, total_passed - k)
        for k in range(low, new_passed + 1)
    )
    return min(1.0, p / denom)
