"""Numbers read from outside data (JSON, judge replies, schemas) as finite floats."""

from __future__ import annotations

import math

__all__ = ["finite_float"]


def finite_float(value: float) -> float | None:
    """``value`` as a float, or None when it is none that is finite: infinity, NaN, or an
    integer past the floats (JSON allows 400 digits, where ``float`` raises OverflowError).

    Example:
        >>> finite_float(3), finite_float(float("inf")), finite_float(10**400)
        (3.0, None, None)
    """
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None
