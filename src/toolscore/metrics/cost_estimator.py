"""Rough LLM cost estimates: tokens from text length, prices from the shared price table.

The price table is ``scorekit``'s (list prices per million tokens, matched by the longest
model-name prefix, so ``gpt-4o-mini`` is not priced as ``gpt-4o``). An unknown model is an
error, not a guess.

Example:
    >>> calculate_llm_cost("gpt-4o-mini", input_tokens=1_000_000, output_tokens=0)
    0.15
    >>> format_cost(0.0042), format_cost(1.234)
    ('$0.0042', '$1.23')
"""

from __future__ import annotations

import json
import math
from typing import Any

from scorekit.report import PRICES_PER_MILLION, estimate_cost

__all__ = [
    "calculate_cost_savings",
    "calculate_llm_cost",
    "estimate_json_tokens",
    "estimate_tokens",
    "estimate_trace_cost",
    "format_cost",
]

_CHARS_PER_TOKEN = 4  # English text averages about four characters per token
_INPUT_SHARE = 0.7  # a tool-calling exchange is mostly prompt and context


def estimate_tokens(text: str) -> int:
    """About one token per four characters; at least one for any non-empty text.

    Example:
        >>> estimate_tokens(""), estimate_tokens("hello"), estimate_tokens("x" * 400)
        (0, 1, 100)
    """
    if not isinstance(text, str):
        raise TypeError(f"estimate_tokens(text) takes a string, got {type(text).__name__}")
    return max(1, len(text) // _CHARS_PER_TOKEN) if text else 0


def estimate_json_tokens(data: Any) -> int:
    """:func:`estimate_tokens` of ``data`` written as JSON."""
    return estimate_tokens(json.dumps(data, default=str))


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number of tokens >= 0, got {value!r}")
    return value


def calculate_llm_cost(model: str, input_tokens: int = 0, output_tokens: int = 0) -> float:
    """The list price in US dollars of ``input_tokens`` prompt and ``output_tokens``
    completion tokens on ``model``.

    Raises:
        ValueError: the model is not in the price table (the message lists the known
            prefixes), or a token count is negative.
    """
    inputs, outputs = _count(input_tokens, "input_tokens"), _count(output_tokens, "output_tokens")
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"model must be a model name such as 'gpt-4o-mini', got {model!r}")
    # No tokens cost nothing, but the model must still be known: price one token to check.
    cost = estimate_cost(model, inputs if inputs or outputs else 1, outputs)
    if cost is not None:
        return cost if inputs or outputs else 0.0
    known = ", ".join(sorted(PRICES_PER_MILLION))
    raise ValueError(f"no price known for model {model!r}; known model prefixes: {known}")


def estimate_trace_cost(trace_data: Any, model: str = "gpt-4o-mini") -> float:
    """Estimated cost of sending a trace's text through ``model`` (70% prompt, 30% output).

    Args:
        trace_data: a trace (dict or list; items that are strings count as text).
        model: the model whose prices apply.
    """
    if isinstance(trace_data, list):
        tokens = sum(
            estimate_tokens(item) if isinstance(item, str) else estimate_json_tokens(item)
            for item in trace_data
        )
    else:
        tokens = estimate_json_tokens(trace_data)
    inputs = math.floor(tokens * _INPUT_SHARE)
    return calculate_llm_cost(model, inputs, tokens - inputs)


def format_cost(cost: float) -> str:
    """Dollars with four decimals below one cent, two from there on."""
    if isinstance(cost, bool) or not isinstance(cost, (int, float)) or not math.isfinite(cost):
        raise ValueError(f"cost must be a finite number of dollars, got {cost!r}")
    return f"${cost:.4f}" if abs(cost) < 0.01 else f"${cost:.2f}"


def calculate_cost_savings(baseline_cost: float, optimized_cost: float) -> dict[str, Any]:
    """What an optimisation saves: ``absolute_savings`` (dollars), ``percentage_savings``
    (of the baseline; 0 when the baseline is 0) and ``formatted_savings``.

    Example:
        >>> calculate_cost_savings(2.0, 1.5)["formatted_savings"]
        '$0.50 (25.0% reduction)'
    """
    saved = baseline_cost - optimized_cost
    share = saved / baseline_cost * 100 if baseline_cost > 0 else 0.0
    return {
        "absolute_savings": saved,
        "percentage_savings": share,
        "formatted_savings": f"{format_cost(saved)} ({share:.1f}% reduction)",
    }
