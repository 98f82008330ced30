"""An MCP server with poor tool definitions, written with the SDK's low-level ``Server``.

Its schemas are written by hand so that they can be wrong in the ways real servers are:
missing and two-word descriptions, an untyped and an undocumented parameter, a required name
that is not a property, confusable tool names, a bloated description, and a tool that fails on
valid input.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

BLOAT = " ".join(["This tool looks up a user record and returns every field we store."] * 30)

TOOLS = [
    types.Tool(
        name="get_user",
        description="Get user.",
        input_schema={
            "type": "object",
            "properties": {"id": {"type": "integer"}, "fields": {}},
            "required": ["id", "expand"],
        },
    ),
    types.Tool(name="getUser", description=BLOAT, input_schema={"type": "object"}),
    types.Tool(
        name="delete_user",
        description="",
        input_schema={
            "type": "object",
            "properties": {"id": {"type": "integer", "description": "The user id."}},
            "required": ["id"],
        },
    ),
]


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
    if params.name == "delete_user":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="database is read-only")], is_error=True
        )
    return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])


server = Server("sloppy", version="0.0.1", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
