"""The composite score's weights: defaults, validation, renormalisation."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["DEFAULT_WEIGHTS", "resolve_weights"]

DEFAULT_WEIGHTS: dict[str, float] = {
    "selection_accuracy": 0.4,
    "argument_f1": 0.3,
    "sequence_accuracy": 0.2,
    "redundant_rate": 0.1,
    "required_call_recall": 0.0,
}
"""Keys and default weights. ``selection_accuracy`` is scored as ``tool_f1`` (so missing calls
cost) and ``redundant_rate`` as ``1 - redundant_rate`` (non-redundancy)."""


def resolve_weights(weights: Mapping[str, Any] | None) -> dict[str, float]:
    """Merge custom weights over the defaults and renormalise them to sum to 1.

    Raises:
        TypeError: ``weights`` is not a mapping.
        ValueError: an unknown key, a value that is not a finite number >= 0, or all zero.
    """
    valid = ", ".join(DEFAULT_WEIGHTS)
    if weights is None:
        return dict(DEFAULT_WEIGHTS)
    if not isinstance(weights, Mapping):
        raise TypeError(
            f"weights must be a dict such as {{'argument_f1': 0.5}}, got "
            f"{type(weights).__name__}; valid keys: {valid}"
        )
    unknown = [key for key in weights if key not in DEFAULT_WEIGHTS]
    if unknown:
        raise ValueError(
            f"Unknown weight keys: {', '.join(repr(k) for k in unknown)}; valid keys: {valid}"
        )
    merged = dict(DEFAULT_WEIGHTS)
    for key, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(
                f"weights[{key!r}] must be a non-negative number, got {value!r}; "
                f"valid keys: {valid}"
            )
        if not math.isfinite(value):
            raise ValueError(f"weights[{key!r}] must be a finite number, got {value!r}")
        if value < 0:
            raise ValueError(f"weights[{key!r}] must be non-negative, got {value!r}")
        merged[key] = float(value)
    total = math.fsum(merged.values())
    if total <= 0:
        raise ValueError(
            f"weights sum to zero after merging {dict(weights)!r} with the defaults; "
            f"give at least one of {valid} a positive weight"
        )
    return {key: value / total for key, value in merged.items()}
