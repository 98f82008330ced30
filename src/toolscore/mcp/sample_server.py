"""A small MCP server with deliberate flaws, for ``toolscore demo`` (needs the ``mcp`` extra).

Run it with ``python -m toolscore.mcp.sample_server`` (stdio), or
``python -m toolscore.mcp.sample_server --http PORT`` (Streamable HTTP on
``http://127.0.0.1:PORT/mcp``). It keeps notes in memory and has a
realistic mix of problems, so its scorecard has something to say:

* ``create_note``, ``list_notes``: clean and working;
* ``find``: works, but its description is two words and its parameter is undocumented;
* ``delete_note``: ``note_id`` has no type (a model has to guess what to send);
* ``export_notes``: always fails, even on valid input.

With ``--truth`` (``build_server(truth=True)``, for ``toolscore demo --truth``) it has one more
tool, ``update_note``, which reports "updated" and changes nothing: only an effect probe
(``toolscore mcp test --probes``) catches it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["build_server", "main"]


def build_server(truth: bool = False) -> Any:
    """The sample server, built with the SDK's low-level ``Server`` (raw schemas on purpose);
    ``truth`` adds ``update_note``, which reports success and changes nothing."""
    import mcp_types as types
    from mcp.server import Server

    notes: dict[int, dict[str, str]] = {}

    def tool(name: str, description: str, properties: Any, required: Any = None) -> types.Tool:
        schema = {"type": "object", "properties": properties}
        if required is not None:
            schema["required"] = required
        return types.Tool(name=name, description=description, input_schema=schema)

    tools = [
        tool(
            "create_note",
            "Create a note with a title and an optional body; returns the new id.",
            {
                "title": {"type": "string", "description": "Title of the note.", "minLength": 1},
                "body": {"type": "string", "description": "Text of the note."},
            },
            ["title"],
        ),
        tool(
            "list_notes",
            "List the notes, newest first, at most `limit` of them.",
            {
                "limit": {
                    "type": "integer",
                    "description": "How many notes to return.",
                    "minimum": 1,
                    "maximum": 100,
                }
            },
            ["limit"],
        ),
        tool("find", "Search notes.", {"q": {"type": "string"}}),
        tool(
            "delete_note",
            "Delete the note with the given id.",
            {"note_id": {"description": "Id of the note to delete."}},
            ["note_id"],
        ),
        tool(
            "export_notes",
            "Export every note as JSON or Markdown.",
            {
                "format": {
                    "type": "string",
                    "enum": ["json", "markdown"],
                    "description": "The export format.",
                }
            },
            ["format"],
        ),
    ]
    if truth:
        tools.append(
            tool(
                "update_note",
                "Change the title of the note with the given id.",
                {
                    "note_id": {"type": "integer", "description": "Id of the note."},
                    "title": {"type": "string", "description": "The new title."},
                },
                ["note_id", "title"],
            )
        )

    def text(message: str, error: bool = False) -> types.CallToolResult:
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=message)], is_error=error
        )

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        args = params.arguments or {}
        if params.name == "create_note":
            title = args.get("title")
            if not isinstance(title, str) or not title:
                return text("title must be a non-empty string", error=True)
            note_id = len(notes) + 1
            notes[note_id] = {"title": title, "body": str(args.get("body", ""))}
            return text(f"created note {note_id}")
        if params.name == "list_notes":
            limit = args.get("limit")
            if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100:
                return text("limit must be an integer from 1 to 100", error=True)
            titles = [n["title"] for _, n in sorted(notes.items(), reverse=True)][:limit]
            return text("\n".join(titles) or "no notes")
        if params.name == "find":
            query = str(args.get("q", "")).lower()
            hits = [n["title"] for n in notes.values() if query in n["title"].lower()]
            return text("\n".join(hits) or "nothing found")
        if params.name == "delete_note":
            notes.pop(args.get("note_id"), None)  # type: ignore[arg-type]
            return text("deleted")
        if params.name == "update_note" and truth:
            return text(f"updated note {args.get('note_id')}")  # and changes nothing
        if params.name == "export_notes":
            return text("export failed: no storage backend configured", error=True)
        return text(f"unknown tool {params.name!r}", error=True)

    return Server(
        "notes-sample",
        version="1.0.0",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _serve_http(server: Any, port: int) -> None:
    """Serve Streamable HTTP on 127.0.0.1:``port`` (0: a free port), saying when it is ready.

    The socket listens before the line is printed, so a client that starts on that line (a
    script, a CI step, the docs) connects at once, whatever the port.
    """
    import socket

    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise SystemExit(
            f"sample_server: cannot listen on 127.0.0.1:{port}: {exc.strerror}"
        ) from None
    sock.listen(128)
    app = server.streamable_http_app(host="127.0.0.1")
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    print(f"notes-sample MCP server ready at {url} (Streamable HTTP; Ctrl-C stops it)", flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


def main(argv: list[str] | None = None) -> None:
    """Serve over stdio until the client closes the connection, or over Streamable HTTP on
    127.0.0.1 with ``--http PORT`` until stopped."""
    import sys

    import anyio
    from mcp.server.stdio import stdio_server

    args = sys.argv[1:] if argv is None else argv
    truth = "--truth" in args
    args = [a for a in args if a != "--truth"]
    server = build_server(truth)
    if args[:1] == ["--http"] and len(args) == 2:
        _serve_http(server, int(args[1]))
        return

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    main()
