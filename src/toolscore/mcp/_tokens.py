"""Token estimates for what a server puts in a model's context, without a tokenizer.

A BPE tokenizer (the kind chat models use) splits text into words, numbers and punctuation
and splits long words further, and it merges common runs of punctuation (``":"``, ``"},"``).
The estimate follows that: each run of letters costs one token per started 7 letters, each
run of digits one per started 3 digits, each run of other visible characters one per started
2, and white space is free (it rides on the next word). On compact JSON tool definitions that
comes to 3 to 4 characters a token; exact counts depend on the
model's tokenizer.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPToolDef

__all__ = ["estimate_tokens", "tool_definition_tokens"]

_PIECES = re.compile(r"[^\W\d_]+|\d+|(?:[^\w\s]|_)+")


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text`` (0 for empty text, at least 1 otherwise).

    Example:
        >>> estimate_tokens("Get the weather for a city.")
        7
        >>> estimate_tokens("")
        0
    """
    if not text:
        return 0
    pieces = _PIECES.findall(text)
    total = sum(
        math.ceil(len(p) / (3 if p[0].isdigit() else 7 if p[0].isalpha() else 2)) for p in pieces
    )
    return max(1, total)


def tool_definition_tokens(tool: MCPToolDef) -> int:
    """Estimated tokens a tool's definition (name, description, input schema) costs the
    model on every request, serialised compactly as a client sends it.

    Example:
        >>> from toolscore.mcp.client import MCPToolDef
        >>> tool_definition_tokens(MCPToolDef("ping", "Check the server.", {"type": "object"}))
        26
    """
    payload = json.dumps(tool.to_dict(), ensure_ascii=False, separators=(",", ":"))
    return estimate_tokens(payload)
