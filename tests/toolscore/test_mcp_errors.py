"""What a user sees when an MCP server, its address or an argument is wrong: the client's
argument checks, calls on a client that is not connected, a URL nobody listens on, the
``toolscore mcp`` commands' error paths, and the recorder fed junk lines."""

from __future__ import annotations

import io
import json
import socket
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")

from mcp_helpers import run_cli as run
from mcp_helpers import server_command

from toolscore.mcp import MCPError, MCPHttpClient, MCPStdioClient
from toolscore.mcp.recorder import MCPRecorder


def closed_url() -> str:
    """An MCP URL on a loopback port that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/mcp"


# -- the client -------------------------------------------------------------------------------


@pytest.mark.parametrize("timeout", [0, -1.5, True])
def test_a_timeout_that_is_not_a_positive_number_is_refused(timeout: object) -> None:
    with pytest.raises(ValueError, match=r"timeout must be a number of seconds > 0, got "):
        MCPStdioClient(["server"], timeout=timeout)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", ["python server.py", [], ["python", 1]])
def test_a_command_that_is_not_a_list_of_strings_is_refused(command: object) -> None:
    with pytest.raises(ValueError, match=r"command must be a non-empty list of strings"):
        MCPStdioClient(command)  # type: ignore[arg-type]
    if not isinstance(command, list) or not command:
        with pytest.raises(ValueError, match=r"command must be a non-empty list of strings"):
            MCPRecorder(command, "trace.jsonl")  # type: ignore[arg-type]


def test_a_url_must_be_http() -> None:
    with pytest.raises(ValueError, match=r"url must start with http:// or https://, got 'ftp://h'"):
        MCPHttpClient("ftp://h")


def test_a_client_that_was_never_started_says_so() -> None:
    client = MCPStdioClient(["server"])
    assert client.ping() is False  # a probe answers "not alive" instead of raising
    with pytest.raises(MCPError, match=r"the client is not started \(call start\(\)\)"):
        client.list_tools()
    with pytest.raises(MCPError, match=r"the client is not started"):
        client.call_tool("anything", {})


@pytest.mark.parametrize("headers", [None, {"Authorization": "Bearer t"}])
def test_a_url_nobody_listens_on_cannot_be_connected(headers: dict[str, str] | None) -> None:
    url = closed_url()
    with pytest.raises(MCPError) as info:
        MCPHttpClient(url, headers, timeout=5).start()
    assert str(info.value).startswith(f"the MCP server at {url} could not be connected (")


def test_a_started_client_cannot_be_started_again_and_an_unknown_tool_is_a_tool_error() -> None:
    with MCPStdioClient(server_command("good_server"), timeout=10) as client:
        with pytest.raises(MCPError, match="the client is already started"):
            client.start()
        assert client.ping()
        assert client.server_instructions == "Weather look-ups by city."
        answer = client.call_tool("no_such_tool", {})
    assert answer.is_error
    assert "no_such_tool" in answer.text


# -- toolscore mcp ... ------------------------------------------------------------------------


def test_an_unreachable_url_exits_2_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    url = closed_url()
    code, _ = run(["mcp", "lint", "--timeout", "5", "--header", "Authorization: Bearer t", url])
    err = capsys.readouterr().err
    assert code == 2
    assert f"the MCP server at {url} could not be connected" in err
    assert "Bearer" not in err  # a header's value (often a key) is never shown


def test_record_says_when_the_server_cannot_be_started(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(["mcp", "record", "-o", str(tmp_path / "t.jsonl"), "--", "/nonexistent/srv"])
    err = capsys.readouterr().err
    assert code == 2
    assert "cannot start /nonexistent/srv" in err


def test_lint_json_lists_each_issue_with_its_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(["mcp", "lint", "--json", "--", *server_command("sloppy_server")])
    issues = json.loads(text)
    assert code == 1
    untyped = [i for i in issues if i["rule"] == "param-untyped"]
    assert untyped and untyped[0]["tool"] == "get_user" and untyped[0]["severity"] == "error"
    assert all(set(i) >= {"tool", "rule", "severity", "message", "fix"} for i in issues)


def test_ci_appends_the_scorecard_to_the_step_summary_and_fails_on_blocking_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, text = run(["mcp", "test", "--ci", "--", *server_command("sloppy_server")])
    err = capsys.readouterr().err
    assert code == 1
    assert "blocking problem(s) (--ci)" in err
    written = summary.read_text()
    assert written.startswith("earlier step\n# MCP scorecard: sloppy 0.0.1")
    assert "MCP scorecard: sloppy 0.0.1" in text


def test_ci_passes_a_clean_server_and_a_report_that_cannot_be_written_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    quick = ["--cases", "1", "--no-edge-cases", "--", *server_command("good_server")]
    code, _ = run(["mcp", "test", "--ci", *quick])
    assert code == 0
    folder = tmp_path / "card.json"
    folder.mkdir()  # a folder where the report file should go
    code, _ = run(["mcp", "test", "-o", str(folder), *quick])
    err = capsys.readouterr().err
    assert code == 2
    assert f"-o {folder}: cannot write (" in err


# -- the recorder -----------------------------------------------------------------------------

# A stand-in server: answers every request (alone or in a batch) with a result that echoes
# its method, id "s" with a JSON-RPC error, and also sends a notification and an answer to
# an id nobody asked for.
_ECHO_SERVER = r"""
import json, sys
def answer(m):
    if m.get("id") == "s":
        return {"jsonrpc": "2.0", "id": "s", "error": {"code": -32602, "message": "bad"}}
    return {"jsonrpc": "2.0", "id": m["id"], "result": {"echo": m["method"]}}
print(json.dumps({"jsonrpc": "2.0", "method": "notifications/message"}), flush=True)
print(json.dumps({"jsonrpc": "2.0", "id": 99, "result": {}}), flush=True)
print("server banner, not JSON", flush=True)
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if isinstance(m, list):
        print(json.dumps([answer(x) for x in m if isinstance(x, dict)]), flush=True)
    elif isinstance(m, dict) and "id" in m:
        print(json.dumps(answer(m)), flush=True)
print("bye", file=sys.stderr, flush=True)
"""


def test_the_recorder_keeps_completed_tools_calls_and_skips_everything_else(
    tmp_path: Path,
) -> None:
    def call(request_id: object, name: str) -> dict[str, object]:
        params = {"name": name, "arguments": {"n": 1}}
        return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}

    client_lines = [
        "not json",
        json.dumps([call(1, "first"), 7]),  # a batch with a junk member
        json.dumps("a bare string"),
        json.dumps(call(True, "bool_id")),  # a bool is no JSON-RPC id
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json.dumps(call("s", "second")),
    ]
    stdin = io.BytesIO("".join(line + "\n" for line in client_lines).encode())
    stdout, stderr = io.BytesIO(), io.BytesIO()
    trace = tmp_path / "out" / "trace.jsonl"
    recorder = MCPRecorder([sys.executable, "-c", _ECHO_SERVER], trace)
    assert recorder.run(stdin=stdin, stdout=stdout, stderr=stderr) == 0
    assert recorder.calls_recorded == 2
    messages = [json.loads(line) for line in trace.read_text().splitlines()]
    assert [m.get("id") for m in messages] == [1, 1, "s", "s"]
    assert messages[0]["params"]["name"] == "first"
    assert messages[1]["result"] == {"echo": "tools/call"}
    assert messages[3]["error"]["message"] == "bad"
    assert all(m["duration"] >= 0 for m in messages[1::2])
    relayed = stdout.getvalue().decode().splitlines()
    assert relayed[2] == "server banner, not JSON"  # relayed unchanged
    assert len(relayed) == 3 + 4  # 3 unsolicited lines, then one answer per answered line
    assert stderr.getvalue() == b"bye\n"
