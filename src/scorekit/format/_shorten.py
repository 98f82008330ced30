"""Shortening a text for a one-line message (errors, failure evidence)."""

from __future__ import annotations

__all__ = ["shorten"]


def shorten(text: str, width: int) -> str:
    """Flatten white space and cut ``text`` to ``width`` characters, marking the cut.

    Example:
        >>> shorten("a  b\\nc", 10)
        'a b c'
        >>> shorten("abcdefghij", 6)
        'abcde…'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
