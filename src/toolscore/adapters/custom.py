"""The ``custom`` trace format: plain lists of {"tool": name, "args": {...}} (or under "calls")."""

from toolscore._engine.read.formats import FormatAdapter

__all__ = ["CustomAdapter"]


class CustomAdapter(FormatAdapter):
    """Reads the ``custom`` format into ``ToolCall`` objects (see the module doc)."""

    format = "custom"
