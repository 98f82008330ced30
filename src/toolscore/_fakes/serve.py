"""Serve fake tools as a real MCP server: Streamable HTTP on 127.0.0.1, on a thread of its own.

The official ``mcp`` SDK's low-level ``Server`` (raw JSON schemas, as ``openai_tools()`` gives
them) inside uvicorn. The socket is bound and listening before the URL is handed out, and on
exit uvicorn is told to stop, its thread joined and the socket closed: no thread or port is
left behind.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from toolscore._fakes.answer import result_text
from toolscore._fakes.schemas import description, tool_schemas

if TYPE_CHECKING:
    from toolscore._fakes.registration import Registration

__all__ = ["serve_mcp"]


class _Served(Protocol):
    """What the server needs of the fakes (``FakeTools``; no import of it: no circle)."""

    def _registered(self) -> list[Registration]: ...

    async def aoutcome(
        self, tool: str, args: Any, call_id: str | None = None
    ) -> tuple[bool, Any]: ...


_START_TIMEOUT = 10.0
_STOP_TIMEOUT = 10.0


def _build(fakes: _Served) -> Any:
    try:
        import mcp_types as types
        from mcp.server import Server
    except ImportError:
        raise ImportError(
            "serve_mcp() needs the official MCP SDK: pip install 'llm-scorekit[mcp]'"
        ) from None

    async def list_tools(ctx: Any, params: Any) -> Any:
        schemas = tool_schemas(fakes._registered())
        return types.ListToolsResult(
            tools=[
                types.Tool(name=name, description=description(name), input_schema=schema)
                for name, schema in schemas.items()
            ]
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        failed, value = await fakes.aoutcome(params.name, params.arguments or {})
        text = str(value) if failed else result_text(value)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=value if isinstance(value, dict) and not failed else None,
            is_error=failed,
        )

    return Server(
        "toolscore-fakes", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool
    )


@contextmanager
def serve_mcp(fakes: _Served) -> Iterator[str]:
    """Start the server, yield ``http://127.0.0.1:PORT/mcp``, stop it on exit."""
    import uvicorn

    app = _build(fakes).streamable_http_app(host="127.0.0.1")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        config = uvicorn.Config(
            app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1
        )
        server = uvicorn.Server(config)
        failure: list[BaseException] = []

        def run() -> None:
            try:
                asyncio.run(server.serve(sockets=[sock]))
            except BaseException as exc:  # reported to the caller, never lost on the thread
                failure.append(exc)

        thread = threading.Thread(target=run, name="toolscore-fake-mcp", daemon=True)
        thread.start()
        try:
            _wait_started(server, thread, failure)
            yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
        finally:
            server.should_exit = True
            thread.join(_STOP_TIMEOUT)
    finally:
        sock.close()


def _wait_started(server: Any, thread: threading.Thread, failure: list[BaseException]) -> None:
    deadline = time.monotonic() + _START_TIMEOUT
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.002)  # uvicorn sets a flag, no event: a short poll
    if not server.started:
        server.should_exit = True
        thread.join(_STOP_TIMEOUT)
        cause = failure[0] if failure else None
        raise RuntimeError(
            "serve_mcp(): the MCP server did not start"
            + (f": {type(cause).__name__}: {cause}" if cause else " in 10 seconds")
        ) from cause
