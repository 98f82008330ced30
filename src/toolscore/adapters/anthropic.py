"""The ``anthropic`` trace format.

Anthropic Messages responses or message lists (tool_use blocks).
"""

from toolscore._engine.read.formats import FormatAdapter

__all__ = ["AnthropicAdapter"]


class AnthropicAdapter(FormatAdapter):
    """Reads the ``anthropic`` format into ``ToolCall`` objects (see the module doc)."""

    format = "anthropic"
