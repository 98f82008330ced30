"""The one rounding rule for scores in every output of both packages: failure messages, the
pytest summary, the commands, the reports, ``--json``.

A score (a number in [0, 1] that rates something: a score, a metric, a rate, an accuracy,
precision, recall, F1, an answer, a similarity, and their means, spreads and quantiles) is
rounded to 4 decimal places: as text with all four (``0.5000``, ``0.6667``, ``1.0000``), as a
percentage with two (``96.00%``, the same digits), as a number in a JSON report the same
rounded value (``0.6667``). A bound or threshold reads as it was given (``0.9``, ``0.875``).
One exception, so that no output contradicts itself: a score compared with a bound, or an
answer counted as below 1, gets the digits that tell it apart when 4 decimals would read the
same (``0.99996 < 1``, never ``1.0000 < 1``). Data files meant for further computation (per-row
results, baselines, Toolscore-format reports) keep full precision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "SCORE_DECIMALS",
    "format_bound",
    "format_percent",
    "format_score",
    "round_score",
    "rounded_scores",
]

#: Decimal places every output rounds a score to.
SCORE_DECIMALS = 4


def round_score(value: float) -> float:
    """The number an output carries for a score.

    Example:
        >>> round_score(0.9958695719844358)
        0.9959
        >>> round_score(1)
        1.0
    """
    return round(float(value), SCORE_DECIMALS)


def _text(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def format_score(value: float, other: float | None = None) -> str:
    """A score as text; with ``other`` (a bound, or 1 for an answer), never reading the same as
    ``other`` unless it is equal.

    Example:
        >>> format_score(0.5), format_score(2 / 3), format_score(1.0)
        ('0.5000', '0.6667', '1.0000')
        >>> format_score(0.99996, 1.0), format_score(0.99996)
        ('0.99996', '1.0000')
    """
    text = _text(value, SCORE_DECIMALS)
    if other is None or value == other or text != _text(other, SCORE_DECIMALS):
        return text
    for decimals in range(SCORE_DECIMALS + 1, 13):
        text = _text(value, decimals)
        if text != _text(other, decimals):
            return text
    return repr(value)


def format_percent(value: float) -> str:
    """A score as a percentage, with the digits :func:`format_score` shows.

    Example:
        >>> format_percent(0.96), format_percent(2 / 3), format_percent(1)
        ('96.00%', '66.67%', '100.00%')
    """
    return f"{float(value):.{SCORE_DECIMALS - 2}%}"


def format_bound(value: float) -> str:
    """A bound as the user wrote it (a bound is not a score: it is not rounded to 4 places).

    Example:
        >>> format_bound(0.8), format_bound(1), format_bound(0.875)
        ('0.8', '1.0', '0.875')
    """
    text = f"{float(value):.12f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


_SCORE_KEYS = frozenset({"score", "precision", "recall", "f1", "answer"})


def rounded_scores(value: Any) -> Any:
    """A JSON-ready copy of ``value`` whose scores (numbers under ``score``, ``precision``,
    ``recall``, ``f1`` and ``answer``, at any depth) are rounded by :func:`round_score`.

    Example:
        >>> rounded_scores({"f1": 0.99586957, "runs": [{"recall": 0.99354999}], "n": 3})
        {'f1': 0.9959, 'runs': [{'recall': 0.9935}], 'n': 3}
    """
    if isinstance(value, Mapping):
        return {
            k: (
                round_score(v)
                if k in _SCORE_KEYS and isinstance(v, (int, float)) and not isinstance(v, bool)
                else rounded_scores(v)
            )
            for k, v in value.items()
        }
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [rounded_scores(v) for v in value]
    return value
