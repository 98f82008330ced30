"""Number types for the command lines' ``argparse`` options, shared by every command.

Their messages do not name the option: ``argparse`` puts ``argument --flag:`` in front, so
``--min-mean 2`` reads ``argument --min-mean: expected a number between 0 and 1, got 2``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["unit_interval", "whole_number"]


def unit_interval(text: str) -> float:
    """A finite number between 0 and 1, both included.

    Example:
        >>> unit_interval("0.25")
        0.25
        >>> unit_interval("1.5")
        Traceback (most recent call last):
        argparse.ArgumentTypeError: expected a number between 0 and 1, got 1.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text}")
    return value


def whole_number(minimum: int) -> Callable[[str], int]:
    """A type for whole numbers of at least ``minimum``.

    Example:
        >>> whole_number(1)("3")
        3
        >>> whole_number(1)("0")
        Traceback (most recent call last):
        argparse.ArgumentTypeError: expected a whole number >= 1, got 0
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {text}")
        return value

    return parse
