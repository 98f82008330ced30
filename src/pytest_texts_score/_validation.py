"""Argument checks of the assertion functions: UsageError for unusable values, UserWarning for
values that make a weak or flaky test.

The rules follow the reference package (targets and bounds in ``[0, 1]``, a warning for a range
that accepts every score, one for a range narrower than ``MINIMAL_EXPECTED_MAX_DELTA`` and one
for more than 50 runs) and close its gaps: aggregated bounds are checked too, NaN and infinities
are rejected, and booleans are not accepted as numbers or run counts.
"""

from __future__ import annotations

import math
import sys
import warnings
from typing import Any

import pytest

#: A recommended minimum for ``max_delta`` or a range width (``api.MINIMAL_EXPECTED_MAX_DELTA``).
MINIMAL_EXPECTED_MAX_DELTA = 0.05

#: More runs than this (question runs x answer runs) draw a cost warning.
MANY_RUNS = 50

_PACKAGE = __name__.rpartition(".")[0]


def _stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside this package.

    Aliases and wrappers add frames, so a fixed level would blame our own code.
    """
    level = 1
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module != _PACKAGE and not module.startswith(_PACKAGE + "."):
            return level
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def warn(message: str) -> None:
    """Issue a ``UserWarning`` attributed to the caller's line, not to this package."""
    warnings.warn(message, UserWarning, stacklevel=_stacklevel())


def check_text(value: Any, name: str) -> str:
    """Return ``value`` if it is a str, else raise a UsageError naming the argument."""
    __tracebackhide__ = True
    if not isinstance(value, str):
        raise pytest.UsageError(
            f"`{name}` must be a str (the text to compare); {type(value).__name__} given."
        )
    return value


def check_score(value: Any, name: str) -> float:
    """Return ``value`` as a float in ``[0, 1]``; raise a UsageError for anything else.

    Example:
        >>> check_score(0.5, "target")
        0.5
    """
    __tracebackhide__ = True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise pytest.UsageError(
            f"`{name}` must be a number in range 0 to 1; {value!r} ({type(value).__name__}) given."
        )
    f = float(value)
    if math.isnan(f):
        raise pytest.UsageError(f"`{name}` must be a number in range 0 to 1; NaN given.")
    if not 0.0 <= f <= 1.0:
        raise pytest.UsageError(f"`{name}` value must be in range 0 to 1; {value} given.")
    return f


def check_target(
    target: Any,
    max_delta: Any,
    minimal_expected_max_delta: float,
    skip_warnings: bool,
) -> tuple[float, float]:
    """Check ``target`` and ``max_delta``; return the score range they define (clipped to
    ``[0, 1]``).

    Raises:
        pytest.UsageError: either value is not a number in ``[0, 1]``.

    Example:
        >>> check_target(0.9, 0.2, 0.05, False)
        (0.7, 1.0)
    """
    __tracebackhide__ = True
    t = check_score(target, "target")
    d = check_score(max_delta, "max_delta")
    if not skip_warnings:
        if t - d <= 0.0 and t + d >= 1.0:
            warn(
                f"The score range defined by `target` ({t}) and `max_delta` ({d}) covers"
                " all possible values ([0, 1]), so this assertion cannot fail; use a smaller"
                " `max_delta`."
            )
        elif d < minimal_expected_max_delta:
            warn(
                f"Given `max_delta` ({d}) is strict: judge scores vary between runs, so the test"
                f" may be flaky; consider at least {minimal_expected_max_delta}."
            )
    low = max(0.0, t - d)
    high = min(1.0, t + d)
    # Float noise (0.9 - 0.2 = 0.7000000000000001) must not move a bound users reason about.
    return round(low, 12), round(high, 12)


def check_range(
    min_score: Any,
    max_score: Any,
    minimal_expected_max_delta: float,
    skip_warnings: bool,
) -> tuple[float, float]:
    """Check ``min_score`` and ``max_score``; return them as floats.

    Raises:
        pytest.UsageError: a bound is not a number in ``[0, 1]`` or ``max_score < min_score``.

    Example:
        >>> check_range(0.5, 0.8, 0.05, False)
        (0.5, 0.8)
    """
    __tracebackhide__ = True
    low = check_score(min_score, "min_score")
    high = check_score(max_score, "max_score")
    if high < low:
        raise pytest.UsageError(
            f"`max_score` ({max_score}) cannot be smaller than `min_score` ({min_score});"
            " swap them."
        )
    if not skip_warnings:
        if low <= 0.0 and high >= 1.0:
            warn(
                "The score range is set to [0, 1], which covers all possible values, so this"
                " assertion cannot fail; narrow `min_score`/`max_score`."
            )
        elif high - low < minimal_expected_max_delta:
            warn(
                f"Range ({high - low:.3f}) is strict: judge scores vary between runs, so the"
                f" test may be flaky; consider at least {minimal_expected_max_delta}."
            )
    return low, high


def check_bound(value: Any, name: str) -> tuple[float, float]:
    """Check the bound of a ``*_min`` (``lower_bound``) or ``*_max`` (``upper_bound``)
    assertion; return its range, ``(lower_bound, 1.0)`` or ``(0.0, upper_bound)``."""
    __tracebackhide__ = True
    bound = check_score(value, name)
    lower = name == "lower_bound"
    if (bound <= 0.0) if lower else (bound >= 1.0):
        warn(
            f"`{name}` is {0 if lower else 1}, so every score passes and this assertion cannot"
            f" fail; {'raise' if lower else 'lower'} `{name}`."
        )
    return (bound, 1.0) if lower else (0.0, bound)


def check_count(value: Any, name: str) -> int:
    """Return ``value`` if it is a positive int (not a bool), else raise a UsageError."""
    __tracebackhide__ = True
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise pytest.UsageError(f"`{name}` must be a positive integer; {value!r} given.")
    return value


def check_runs(
    full_runs: Any,
    each_question_runs: Any,
    *,
    names: tuple[str, str] = ("full_runs", "each_question_runs"),
) -> tuple[int, int]:
    """Check the run counts of an aggregated assertion; warn when there are more than 50 runs.

    Raises:
        pytest.UsageError: a count is not a positive integer (booleans are not counts).

    Example:
        >>> check_runs(5, 1)
        (5, 1)
    """
    __tracebackhide__ = True
    q = check_count(full_runs, names[0])
    a = check_count(each_question_runs, names[1])
    total = q * a
    if total > MANY_RUNS:
        warn(
            f"The total number of runs ({total} = {names[0]} {q} x {names[1]} {a}) is high,"
            " which may result in a long test execution time and increased cost."
        )
    return q, a
