"""Estimated judge cost from token usage, for a few well-known models.

Prices are list prices in US dollars per million tokens (input, output) as published by the
vendors (OpenAI, Anthropic, Google) in 2025. They are an estimate for the summary line, not a
bill: unknown models give ``None`` and the summary says "n/a" rather than guessing.
"""

from __future__ import annotations

# model name prefix -> (USD per 1M prompt tokens, USD per 1M completion tokens)
PRICES_PER_MILLION: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "o1-mini": (1.10, 4.40),
    "o1": (15.00, 60.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5": (1.25, 10.00),
    "claude-3-haiku": (0.25, 1.25),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-3-opus": (15.00, 75.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4": (15.00, 75.00),
    "gemini-1.5-flash": (0.075, 0.30),
    "gemini-1.5-pro": (1.25, 5.00),
    "gemini-2.0-flash": (0.10, 0.40),
    "gemini-2.5-flash-lite": (0.10, 0.40),
    "gemini-2.5-flash": (0.30, 2.50),
    "gemini-2.5-pro": (1.25, 10.00),
}


def estimate_cost(
    model: str | None, prompt_tokens: float, completion_tokens: float
) -> float | None:
    """Estimated cost in US dollars, or None when the model's price is not known.

    The longest matching name prefix wins, so dated names (``gpt-4o-2024-08-06``) are priced
    and ``gpt-4o-mini`` is not priced as ``gpt-4o``.

    Example:
        >>> estimate_cost("gpt-4o-mini-2024-07-18", 1_000_000, 0)
        0.15
        >>> estimate_cost("my-local-model", 10, 10) is None
        True
    """
    if not model or (prompt_tokens <= 0 and completion_tokens <= 0):
        return None
    best = price_prefix(model)
    if not best:
        return None
    p_in, p_out = PRICES_PER_MILLION[best]
    return (prompt_tokens * p_in + completion_tokens * p_out) / 1_000_000


def price_prefix(model: str | None) -> str:
    """The key of ``PRICES_PER_MILLION`` that prices ``model`` ("" when none does).

    Example:
        >>> price_prefix("openai/gpt-4o-2024-08-06"), price_prefix("llama3")
        ('gpt-4o', '')
    """
    if not model:
        return ""
    # Azure deployments and proxies often put a vendor prefix in front: "openai/gpt-4o".
    name = model.strip().lower().rsplit("/", 1)[-1]
    return max((p for p in PRICES_PER_MILLION if name.startswith(p)), key=len, default="")
