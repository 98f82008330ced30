"""MCP servers that misbehave, written with the SDK's ``MCPServer`` API.

``python flaky_servers.py crash`` serves two tools over stdio; ``explode`` writes a last line
to stderr and kills the process. ``python flaky_servers.py hang`` serves ``stall``, which
blocks the server's whole event loop (a sync sleep inside an async tool), so nothing it is
sent afterwards is answered. Both also have ``echo``, which works.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

kind = sys.argv[1] if len(sys.argv) > 1 else "crash"
server = MCPServer(f"flaky-{kind}", version="0.1.0")


@server.tool()
def echo(text: Annotated[str, Field(description="Text to send back.")]) -> str:
    """Send the text back unchanged."""
    return text


if kind == "crash":

    @server.tool()
    def explode(reason: Annotated[str, Field(description="Why to fail.")]) -> str:
        """Fail hard: the process exits in the middle of the call."""
        sys.stderr.write(f"fatal: the explode tool brought the server down ({reason})\n")
        sys.stderr.flush()
        os._exit(3)

else:

    @server.tool()
    async def stall(seconds: Annotated[int, Field(description="How long to wait.")]) -> str:
        """Block the whole server (a synchronous sleep on the event loop)."""
        sys.stderr.write("stall: blocking the event loop\n")
        sys.stderr.flush()
        time.sleep(600)
        return "never"


if __name__ == "__main__":
    print(f"flaky server ({kind}) starting", file=sys.stderr, flush=True)
    server.run()
