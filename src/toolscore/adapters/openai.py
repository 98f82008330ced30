"""The ``openai`` trace format.

OpenAI Chat Completions and Responses API responses, or message lists.
"""

from toolscore._engine.read.formats import FormatAdapter

__all__ = ["OpenAIAdapter"]


class OpenAIAdapter(FormatAdapter):
    """Reads the ``openai`` format into ``ToolCall`` objects (see the module doc)."""

    format = "openai"
