"""The ``gemini`` trace format: Gemini responses (candidates[].content.parts[].functionCall)."""

from toolscore._engine.read.formats import FormatAdapter

__all__ = ["GeminiAdapter"]


class GeminiAdapter(FormatAdapter):
    """Reads the ``gemini`` format into ``ToolCall`` objects (see the module doc)."""

    format = "gemini"
