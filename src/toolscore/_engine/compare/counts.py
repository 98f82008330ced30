"""Argument units: how one aligned pair of calls agrees, and precision / recall / F1.

Counting (micro-averaged over the alignment):

* each expected argument of a paired call is one unit of recall, each actual argument of a
  paired call one unit of precision; a unit agrees when the same name holds a value that the
  comparison rule accepts;
* "no arguments" is itself one unit: ``{}`` against ``{}`` agrees, ``{}`` against
  ``{"x": 1}`` does not;
* an expected call with ``args=None`` ("do not check") counts one agreeing unit when paired;
* a missed expected call loses all its units (``max(1, len(args))``) on the recall side;
* extra actual calls are not counted here (tool precision and the redundancy rate count them).

With no units at all (``[]`` against ``[]``) precision, recall and F1 are 1.0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolscore._engine.compare.rule import values_match

__all__ = ["ArgumentCount", "count_pair", "missed_units", "prf", "units"]


@dataclass(frozen=True)
class ArgumentCount:
    """Agreeing units and the units on each side for one pair of calls."""

    agree: int
    expected: int
    actual: int

    @property
    def all_ok(self) -> bool:
        """Every unit on both sides agrees."""
        return self.agree == self.expected == self.actual


def count_pair(
    expected_args: dict[str, Any] | None,
    actual_args: dict[str, Any] | None,
    strict: bool = False,
    named_only: bool = False,
) -> ArgumentCount:
    """Count agreeing argument units for one expected call paired with one actual call.

    ``named_only`` (used by ``expect()``): arguments the expectation does not name are not
    counted on the actual side.
    """
    if expected_args is None:
        return ArgumentCount(1, 1, 1)
    actual_args = actual_args or {}
    agree = present = 0
    for name, value in expected_args.items():
        if name in actual_args:
            present += 1
            if values_match(value, actual_args[name], strict):
                agree += 1
    return units(len(expected_args), len(actual_args), agree, present, named_only)


def units(expected: int, actual: int, agree: int, present: int, named_only: bool) -> ArgumentCount:
    """The units of a pair whose ``expected`` and ``actual`` arguments share ``present``
    names, ``agree`` of them with values the rule accepts (the counting rule above, for every
    way of comparing values)."""
    if not expected:
        return ArgumentCount(1, 1, 1) if not actual else ArgumentCount(0, 1, actual)
    if not actual:
        return ArgumentCount(0, expected, 1)
    return ArgumentCount(agree, expected, max(present, 1) if named_only else actual)


def missed_units(expected_args: dict[str, Any] | None) -> int:
    """Recall units lost when an expected call has no partner."""
    return len(expected_args) if expected_args else 1


def prf(agree: int, expected: int, actual: int) -> tuple[float, float, float]:
    """Precision, recall and F1 from unit counts (1.0 for an empty side)."""
    precision = agree / actual if actual else 1.0
    recall = agree / expected if expected else 1.0
    if agree == expected == actual:
        return 1.0, 1.0, 1.0
    total = precision + recall
    f1 = 2 * precision * recall / total if total else 0.0
    return precision, recall, f1
