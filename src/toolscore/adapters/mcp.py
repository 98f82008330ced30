"""The ``mcp`` trace format: MCP JSON-RPC logs: tools/call requests, merged with their responses."""

from toolscore._engine.read.formats import FormatAdapter

__all__ = ["MCPAdapter"]


class MCPAdapter(FormatAdapter):
    """Reads the ``mcp`` format into ``ToolCall`` objects (see the module doc)."""

    format = "mcp"
