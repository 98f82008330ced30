"""The ``crewai`` trace format: CrewAI tools_results entries (tool_name, tool_args)."""

from toolscore._engine.read.formats import FormatAdapter

__all__ = ["CrewAIAdapter"]


class CrewAIAdapter(FormatAdapter):
    """Reads the ``crewai`` format into ``ToolCall`` objects (see the module doc)."""

    format = "crewai"
