"""``FakeTools.serve_mcp()``: a real MCP server over Streamable HTTP, used by the official
client and by toolscore's own client, gone when the block ends."""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any

import pytest

pytest.importorskip("mcp", reason="serve_mcp() needs the mcp extra")

from toolscore import ANY, Regex
from toolscore.fakes import FakeTools, ToolError


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def _refused(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def _fakes() -> FakeTools:
    notes: dict[str, str] = {}

    def create(args: dict[str, Any]) -> dict[str, str]:
        notes[args["title"]] = args.get("body", "")
        return {"id": args["title"]}

    def get(args: dict[str, Any]) -> str:
        if args["id"] not in notes:
            raise ToolError(f"no note {args['id']!r}")
        return notes[args["id"]]

    tools = FakeTools()
    tools.add("create_note", {"title": Regex(".+"), "body": ANY}, handler=create)
    tools.add(
        "get_note",
        handler=get,
        schema={"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
    )
    return tools


def test_the_official_client_lists_and_calls_the_fakes() -> None:
    from mcp import Client

    tools = _fakes()
    before = set(threading.enumerate())
    with tools.serve_mcp() as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")

        async def session() -> tuple[Any, ...]:
            async with Client(url) as client:
                listed = await client.list_tools()
                created = await client.call_tool("create_note", {"title": "t", "body": "b"})
                got = await client.call_tool("get_note", {"id": "t"})
                missing = await client.call_tool("get_note", {"id": "zz"})
                unexpected = await client.call_tool("delete_note", {"id": "t"})
                return listed, created, got, missing, unexpected

        listed, created, got, missing, unexpected = asyncio.run(session())
        port = _port(url)
    schemas = {t.name: t.input_schema for t in listed.tools}
    assert schemas["get_note"]["required"] == ["id"]
    assert schemas["create_note"]["properties"]["title"] == {"type": "string"}
    assert not created.is_error and created.structured_content == {"id": "t"}
    assert (got.is_error, got.content[0].text) == (False, "b")
    assert missing.is_error and missing.content[0].text == "no note 'zz'"
    assert unexpected.is_error
    assert "No fake tool registration matches delete_note(id='t')" in unexpected.content[0].text
    # Calls over MCP land in the record, and the unexpected one fails verify().
    assert [(c.tool, c.is_error) for c in tools.calls] == [
        ("create_note", False),
        ("get_note", False),
        ("get_note", True),
        ("delete_note", True),
    ]
    with pytest.raises(AssertionError, match=r"call #4 delete_note\(id='t'\)"):
        tools.verify()
    # Nothing left behind: no thread, no listening port.
    assert set(threading.enumerate()) <= before
    assert _refused(port)


def test_toolscore_mcp_client_reads_the_fake_server() -> None:
    from toolscore.mcp import MCPHttpClient

    tools = FakeTools()
    tools.add("get_weather", {"city": ANY}, result={"temp_c": 21})
    with tools.serve_mcp() as url, MCPHttpClient(url, timeout=10) as client:
        assert [t.name for t in client.list_tools()] == ["get_weather"]
        result = client.call_tool("get_weather", {"city": "Oslo"})
    assert not result.is_error
    tools.verify()


def test_the_server_stops_when_the_block_raises() -> None:
    tools = FakeTools()
    before = set(threading.enumerate())
    with pytest.raises(RuntimeError, match="agent crashed"), tools.serve_mcp() as url:
        port = _port(url)
        raise RuntimeError("agent crashed")
    assert set(threading.enumerate()) <= before
    assert _refused(port)


def test_toolscore_mcp_test_grades_the_fake_server_end_to_end() -> None:
    import json
    import subprocess
    import sys

    tools = FakeTools()
    tools.add(
        "get_weather",
        {"city": ANY},
        result={"temp_c": 21},
        schema={
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. Oslo"}},
            "required": ["city"],
        },
    )
    before = set(threading.enumerate())
    with tools.serve_mcp() as url:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from toolscore.cli import main; sys.exit(main())",
                "mcp",
                "test",
                url,
                "--json",
                "--cases",
                "1",
                "--timeout",
                "20",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        port = _port(url)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "get_weather" in json.dumps(report)
    # Every scenario the CLI sent went through the fakes and was recorded.
    assert tools.calls and {c.tool for c in tools.calls} == {"get_weather"}
    assert any(
        c.args == {"city": c.args.get("city")} and c.result == {"temp_c": 21} for c in tools.calls
    )
    assert set(threading.enumerate()) <= before
    assert _refused(port)


def test_a_handler_bug_over_mcp_answers_an_error_and_fails_verify() -> None:
    from mcp import Client

    tools = FakeTools()
    tools.add("get_note", handler=lambda args: args["id"])  # KeyError without "id"

    async def session(url: str) -> Any:
        async with Client(url) as client:
            return await client.call_tool("get_note", {"title": "x"})

    with tools.serve_mcp() as url:
        result = asyncio.run(session(url))
    assert result.is_error
    assert result.content[0].text == "The fake's handler raised KeyError: 'id'"
    assert tools.calls[0].error == "KeyError: 'id'"
    with pytest.raises(AssertionError, match=r"call #1 get_note\(title='x'\): KeyError: 'id'"):
        tools.verify()
