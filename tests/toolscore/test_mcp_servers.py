"""The scorecard against real servers started here: good, sloppy, crashing, hanging, over HTTP,
and the official reference server (where Node and the package are installed)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys

import pytest

pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")

from mcp_helpers import (
    EVERYTHING_MISSING,
    everything_command,
    http_server,
    server_command,
)

from toolscore.mcp import (
    MCPError,
    MCPHttpClient,
    MCPServerExitedError,
    MCPStdioClient,
    MCPTimeoutError,
    build_fix_list,
    grade_meets,
    score_server,
    scorecard_to_json,
    scorecard_to_markdown,
)


def test_a_good_server_gets_an_a_with_every_happy_path_passing() -> None:
    with MCPStdioClient(server_command("good_server"), timeout=10) as client:
        assert client.server_info == {"name": "weather-good", "version": "2.1.0"}
        assert client.protocol_version  # negotiated, whichever it is
        assert client.server_instructions == "Weather look-ups by city."
        card = score_server(client, seed=5)
    assert [t.name for t in card.tools] == ["get_weather", "convert_temperature"]
    assert card.happy_pass_rate == 1.0
    assert card.edge_resilience_rate == 1.0
    assert card.lint == []
    assert card.grade == "A"
    # the server validates its arguments: out-of-range and wrong-type input is rejected
    outcomes = {
        r.scenario.description: r.outcome for r in card.results if r.scenario.kind == "edge"
    }
    assert outcomes["'days' above the maximum 7"] == "rejected"
    assert outcomes["wrong type for 'city'"] == "rejected"


def test_a_sloppy_server_is_graded_down_with_the_reasons_listed() -> None:
    with MCPStdioClient(server_command("sloppy_server"), timeout=10) as client:
        card = score_server(client)
    rules = {(i.tool, i.rule) for i in card.lint}
    assert {
        ("get_user", "description-short"),
        ("get_user", "param-untyped"),
        ("get_user", "required-unknown"),
        ("getUser", "tokens-large"),
        ("getUser", "schema-loose"),
        ("delete_user", "description-missing"),
        ("getUser, get_user", "name-confusable"),
    } <= rules
    delete = [r for r in card.results if r.scenario.tool == "delete_user"]
    assert all(not r.ok for r in delete if r.scenario.kind == "happy")
    assert not grade_meets(card.grade, "B")
    fixes = build_fix_list(card)
    assert fixes[0].tool == "delete_user" and fixes[0].priority == 0
    assert "read-only" in fixes[0].problem


def test_a_crash_fails_its_scenario_with_the_stderr_tail_and_the_rest_still_runs() -> None:
    with MCPStdioClient(server_command("flaky_servers", "crash"), timeout=10) as client:
        card = score_server(client, cases_per_tool=2, include_edge_cases=False, concurrency=2)
    explode = [r for r in card.results if r.scenario.tool == "explode"]
    crashed = [r for r in explode if r.outcome == "crashed"]
    assert crashed and all(not r.ok for r in crashed)
    assert "fatal: the explode tool brought the server down" in crashed[0].stderr_tail
    echo_happy = [
        r for r in card.results if r.scenario.tool == "echo" and r.scenario.kind == "happy"
    ]
    assert echo_happy and all(r.ok for r in echo_happy)
    assert card.restarts >= 1
    report = scorecard_to_json(card)
    assert any("fatal" in r.get("stderr_tail", "") for r in report["results"])


def test_a_call_that_finds_the_server_gone_marks_the_client_disconnected() -> None:
    # The SDK's session outlives a dead server; the harness decides from ``connected`` whether
    # a retry would meet another call's crash, so the crash must show there at once.
    with MCPStdioClient(server_command("flaky_servers", "crash"), timeout=10) as client:
        assert client.connected
        with pytest.raises(MCPServerExitedError):
            client.call_tool("explode", {"reason": "test"})
        assert not client.connected
        with pytest.raises(MCPServerExitedError, match="no longer connected"):
            client.call_tool("echo", {"text": "hi"})
        generation = client.generation
        client.restart()
        assert client.connected and client.generation == generation + 1
        assert client.call_tool("echo", {"text": "hi"}).text == "hi"


def test_a_server_that_keeps_crashing_is_given_up_on_after_the_restart_budget() -> None:
    with MCPStdioClient(server_command("flaky_servers", "crash"), timeout=10) as client:
        card = score_server(client, concurrency=1, max_restarts=1)
    outcomes = [r.outcome for r in card.results if r.scenario.tool == "explode"]
    assert outcomes.count("crashed") == 2
    assert "skipped" in outcomes
    skipped = [r for r in card.results if r.outcome == "skipped"]
    assert all(not r.ok and "restart" in r.detail for r in skipped)


def test_a_hung_server_is_cut_off_by_the_timeout_and_restarted() -> None:
    with MCPStdioClient(
        server_command("flaky_servers", "hang"), timeout=1.0, connect_timeout=10
    ) as client:
        card = score_server(client, cases_per_tool=1, include_edge_cases=False, max_restarts=2)
    stall = [r for r in card.results if r.scenario.tool == "stall"]
    assert [r.outcome for r in stall] == ["timeout"]
    assert stall[0].duration == 1.0
    assert "blocking the event loop" in stall[0].stderr_tail
    echo = [r for r in card.results if r.scenario.tool == "echo"]
    assert echo and all(r.outcome in ("ok", "timeout") for r in echo)


def test_client_errors_name_the_server_and_what_happened() -> None:
    # The short timeout is the call's; starting a Python server may take longer on a busy
    # machine (or under coverage), so the handshake gets its own.
    client = MCPStdioClient(
        server_command("flaky_servers", "hang"), timeout=0.5, connect_timeout=10
    )
    with client, pytest.raises(MCPTimeoutError, match=r"tools/call 'stall' within 0\.5 s"):
        client.call_tool("stall", {"seconds": 1})
    with MCPStdioClient(server_command("flaky_servers", "crash"), timeout=5) as client:
        with pytest.raises(MCPServerExitedError, match="closed the connection") as info:
            client.call_tool("explode", {"reason": "test"})
        assert "(test)" in info.value.stderr_tail
    with pytest.raises(MCPError, match="cannot start"):
        MCPStdioClient(["/nonexistent/server-binary"], timeout=5).start()
    with pytest.raises(MCPError, match=r"could not be connected|did not finish"):
        MCPStdioClient(
            [sys.executable, "-c", "import sys; print('bye', file=sys.stderr)"], timeout=5
        ).start()


def test_a_server_over_streamable_http_on_loopback() -> None:
    with http_server() as url, MCPHttpClient(url, {"X-Test": "1"}, timeout=10) as client:
        assert client.transport_name == "streamable-http"
        card = score_server(client, cases_per_tool=2)
        answer = client.call_tool("convert_temperature", {"value": 100, "to": "fahrenheit"})
    assert answer.text == "212.0"
    assert card.grade == "A" and card.happy_pass_rate == 1.0
    assert scorecard_to_json(card)["transport"] == "streamable-http"


@pytest.mark.skipif(everything_command() is None, reason=EVERYTHING_MISSING)
def test_the_reference_server_lists_every_tool_and_gets_a_grade() -> None:
    command = everything_command()
    assert command is not None
    # A short timeout cuts its 10-second demo operation (a timeout, not a crash); the
    # benchmark runs it with the default timeout.
    with MCPStdioClient(command, timeout=3) as client:
        names = [t.name for t in client.list_tools()]
        card = score_server(client, cases_per_tool=2)
    report = json.loads(json.dumps(scorecard_to_json(card)))
    assert [t["name"] for t in report["tools"]] == names
    assert {"echo", "get-sum", "trigger-long-running-operation"} <= set(names)
    assert report["grade"] in "ABCDF" and 0.0 <= report["score"] <= 1.0
    sums = [r for r in report["results"] if r["tool"] == "get-sum" and r["kind"] == "happy"]
    assert sums and all(r["ok"] for r in sums)
    assert "# MCP scorecard: mcp-servers/everything" in scorecard_to_markdown(card)


def test_the_sample_server_over_http_says_where_it_is_ready() -> None:
    # --http 0 picks a free port; the one line it prints is the URL a client can use at once.
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolscore.mcp.sample_server", "--http", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        ready = re.fullmatch(
            r"notes-sample MCP server ready at (http://127\.0\.0\.1:(\d+)/mcp)"
            r" \(Streamable HTTP; Ctrl-C stops it\)\n",
            line,
        )
        assert ready is not None and int(ready[2]) > 0, (line, proc.poll())
        with MCPHttpClient(ready[1], {}, timeout=10) as client:
            assert [t.name for t in client.list_tools()][:2] == ["create_note", "list_notes"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_the_sample_server_says_why_it_cannot_listen() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "toolscore.mcp.sample_server", "--http", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.startswith(f"sample_server: cannot listen on 127.0.0.1:{port}: "), (
        done.stderr
    )
