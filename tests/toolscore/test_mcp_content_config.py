"""What a tool result's content becomes as text, and reading a Claude-Desktop-style config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

mcp_types = pytest.importorskip("mcp.types", reason="the mcp extra is not installed")

from toolscore.mcp.config import MCPServerSpec, load_mcp_config  # noqa: E402
from toolscore.mcp.content import content_to_text  # noqa: E402


def test_every_kind_of_sdk_content_item_gets_a_text_form_in_order() -> None:
    content = [
        mcp_types.TextContent(type="text", text="2 files"),
        mcp_types.EmbeddedResource(
            type="resource",
            resource=mcp_types.TextResourceContents(uri="file:///a.txt", text="alpha"),
        ),
        mcp_types.EmbeddedResource(
            type="resource",
            resource=mcp_types.BlobResourceContents(
                uri="file:///b.pdf", blob="AAAA", mimeType="application/pdf"
            ),
        ),
        mcp_types.ResourceLink(type="resource_link", uri="file:///c.csv", name="c.csv"),
        mcp_types.ImageContent(type="image", data="AAAA", mimeType="image/png"),
        mcp_types.AudioContent(type="audio", data="AAAA", mimeType="audio/wav"),
    ]
    assert content_to_text(content).split("\n") == [
        "2 files",
        "[resource file:///a.txt]",
        "alpha",
        "[binary resource file:///b.pdf (application/pdf)]",
        "[resource link file:///c.csv c.csv]",
        "[image (image/png)]",
        "[audio (audio/wav)]",
    ]


def test_items_without_optional_parts_and_unknown_items() -> None:
    content = (
        {"type": "resource", "resource": {"uri": "mem://x", "blob": "AA"}},
        {"type": "resource_link", "uri": "mem://y"},
        {"type": "image", "data": "AA"},
        {"type": "resource", "resource": "not an object"},
        {"type": "video", "uri": "mem://z"},
        "a bare string item",
        {"type": "text"},
    )
    # The unknown, the malformed and the non-dict items are skipped; a text item without
    # text is an empty line.
    assert (
        content_to_text(content) == "[binary resource mem://x]\n[resource link mem://y]\n[image]\n"
    )


def test_a_string_an_error_object_and_nothing() -> None:
    assert content_to_text("plain") == "plain"
    assert content_to_text({"code": -32602, "message": "Unknown tool: nope"}) == (
        "Unknown tool: nope"
    )
    assert content_to_text({"code": -1}) == ""
    assert content_to_text(None) == ""
    assert content_to_text(42) == ""
    assert content_to_text([]) == ""


def _config(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_command_entry_and_an_http_entry(tmp_path: Path) -> None:
    path = _config(
        tmp_path,
        {
            "mcpServers": {
                "notes": {
                    "command": "python",
                    "args": ["-m", "notes"],
                    "env": {"DEBUG": "1"},
                    "cwd": "/srv/notes",
                },
                "remote": {"type": "http", "url": "https://x.test/mcp", "headers": {"A": "b"}},
            }
        },
    )
    assert load_mcp_config(path, "notes") == MCPServerSpec(
        "notes", command=["python", "-m", "notes"], env={"DEBUG": "1"}, cwd="/srv/notes"
    )
    assert load_mcp_config(path, "remote") == MCPServerSpec(
        "remote", url="https://x.test/mcp", headers={"A": "b"}
    )
    with pytest.raises(ValueError, match=r"several servers \(notes, remote\); choose one"):
        load_mcp_config(path)
    with pytest.raises(ValueError, match=r"has no server 'other'; it has: notes, remote"):
        load_mcp_config(path, "other")


def test_a_file_written_by_a_windows_editor_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"mcpServers": {"a": {"command": "a"}}}).encode())
    assert load_mcp_config(path) == MCPServerSpec("a", command=["a"])


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("python", r"server 'a' must be an object"),
        ({"url": "ftp://x"}, r"url must start with http:// or https://"),
        ({"url": "http://x/sse", "type": "sse"}, r"old SSE transport"),
        ({"url": "http://x", "headers": {"A": 1}}, r"headers must be an object of strings"),
        ({"args": ["x"]}, r'needs a "command" \(or a "url" for an HTTP server\)'),
        ({"command": ""}, r'needs a "command"'),
        ({"command": "a", "args": "-m x"}, r"args must be a list of strings"),
        ({"command": "a", "env": ["DEBUG=1"]}, r"env must be an object of strings"),
    ],
)
def test_a_bad_entry_is_named_with_what_to_fix(tmp_path: Path, entry: object, message: str) -> None:
    path = _config(tmp_path, {"mcpServers": {"a": entry}})
    with pytest.raises(ValueError, match=message) as info:
        load_mcp_config(path)
    assert str(path) in str(info.value)


def test_a_missing_or_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such MCP configuration file"):
        load_mcp_config(tmp_path / "absent.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"mcpServers": {', encoding="utf-8")
    with pytest.raises(ValueError, match=r"not valid JSON \(.* at line 1\)"):
        load_mcp_config(bad)
    for data in ([], {"mcpServers": {}}, {"servers": {"a": {"command": "a"}}}):
        with pytest.raises(ValueError, match="no servers; expected"):
            load_mcp_config(_config(tmp_path, data))
