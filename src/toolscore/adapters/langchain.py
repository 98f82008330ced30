"""The ``langchain`` trace format.

LangChain / LangGraph message lists and states, and AgentAction dicts.
"""

from toolscore._engine.read.formats import FormatAdapter

__all__ = ["LangChainAdapter"]


class LangChainAdapter(FormatAdapter):
    """Reads the ``langchain`` format into ``ToolCall`` objects (see the module doc)."""

    format = "langchain"
