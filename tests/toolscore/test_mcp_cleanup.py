"""No MCP server outlives the command or the client that started it, on any way out: a server
that never answers, one that ignores SIGTERM, one that writes garbage to stdout, a healthy one
after a successful run, a crash in the middle of a call, a Ctrl-C, an exception in user code,
the recorder; and a stalled Streamable HTTP server ends the command in bounded time.

Every stdio server here (``mcp_servers/family_servers.py``) starts a child of its own and writes
both PIDs to a file; the tests check by PID that both are gone. Real processes throughout: the
``toolscore`` command runs as a subprocess, Ctrl-C is a SIGINT sent to it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")

from mcp_helpers import server_command

from toolscore.mcp import MCPStdioClient

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.name != "posix", reason="process groups and signals are POSIX"),
]

#: Generous bounds: these are limits a correct run stays far below, not measurements.
GONE_WITHIN = 10.0
COMMAND_WITHIN = 60.0
#: The issue's own requirement for a Ctrl-C.
CTRL_C_WITHIN = 5.0

TOOLSCORE = [sys.executable, "-c", "import sys; from toolscore.cli import main; sys.exit(main())"]


def alive(pid: int) -> bool:
    """True while ``pid`` runs (an exited process not yet reaped by its parent does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if not os.path.isdir("/proc"):
        return True  # no way to tell an unreaped exit here: it counts as running
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rsplit(b")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in (b"Z", b"X")


def pids(path: Path, role: str | None = None) -> list[int]:
    """The PIDs written to ``path`` (``role PID`` lines), of one role or all."""
    if not path.exists():
        return []
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [int(pid) for name, pid in rows if role is None or name == role]


def wait_for(path: Path, role: str, count: int = 1, within: float = COMMAND_WITHIN) -> None:
    deadline = time.monotonic() + within
    while len(pids(path, role)) < count:
        assert time.monotonic() < deadline, f"no {role!r} line in {path} within {within:g} s"
        time.sleep(0.05)


def still_running(found: list[int], within: float = GONE_WITHIN) -> list[int]:
    """The PIDs still running after waiting up to ``within`` seconds for all to end."""
    deadline = time.monotonic() + within
    while True:
        running = [pid for pid in found if alive(pid)]
        if not running or time.monotonic() >= deadline:
            return running
        time.sleep(0.05)


def assert_all_gone(path: Path, servers: int = 1) -> None:
    found = pids(path)
    assert len(pids(path, "server")) >= servers and len(pids(path, "child")) >= servers, found
    assert still_running(found) == [], f"still running {GONE_WITHIN:g} s later: {found}"


@pytest.fixture
def pidfile(tmp_path: Path) -> Iterator[Path]:
    """Where the servers write their PIDs; whatever a failing test left running is killed."""
    path = tmp_path / "pids"
    yield path
    for pid in pids(path):
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def family(kind: str, pidfile: Path) -> list[str]:
    return server_command("family_servers", kind, str(pidfile))


def toolscore(*args: str, timeout: float = COMMAND_WITHIN) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TOOLSCORE, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# -- stdio: the command ends, the server and its child are gone --------------------------------


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("silent", "did not finish the MCP handshake within 3 s"),
        ("stubborn", "did not finish the MCP handshake within 3 s"),
        ("garbage", "that are not JSON-RPC (the first: 'Server starting... step 0')"),
    ],
)
def test_a_server_that_never_answers_is_stopped_with_its_child(
    kind: str, says: str, pidfile: Path
) -> None:
    # silent: sleeps; stubborn: it and its child ignore SIGTERM; garbage: logs to stdout.
    done = toolscore("mcp", "test", "--timeout", "3", "--", *family(kind, pidfile))
    assert done.returncode == 2, done.stderr
    assert says in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    if kind == "garbage":
        assert "must write only MCP messages to stdout, its logs to stderr" in done.stderr
    assert_all_gone(pidfile)


def test_a_healthy_server_and_its_child_are_gone_after_a_successful_run(pidfile: Path) -> None:
    done = toolscore(
        "mcp", "test", "--timeout", "60", "--cases", "1", "--no-edge-cases",
        "--", *family("healthy", pidfile),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "MCP scorecard: family-healthy 0.1.0" in done.stdout
    assert_all_gone(pidfile)


def test_a_crash_in_the_middle_of_a_call_is_still_a_crash_and_leaves_nothing(
    pidfile: Path,
) -> None:
    # The crashed server's child keeps its stdout open: the crash must be seen anyway.
    done = toolscore(
        "mcp", "test", "--json", "--timeout", "60", "--cases", "1", "--no-edge-cases",
        "--concurrency", "1", "--", *family("crash", pidfile),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = {r["tool"]: r for r in json.loads(done.stdout)["results"]}
    assert results["explode"]["outcome"] == "crashed"
    assert "fatal: explode brought the server down" in results["explode"]["stderr_tail"]
    assert results["echo"]["outcome"] == "ok"
    assert_all_gone(pidfile, servers=2)  # the server that crashed, and the one restarted


@pytest.mark.parametrize(("kind", "waits_for"), [("busy", "call"), ("stubborn", "server")])
def test_ctrl_c_ends_the_command_within_5_s_with_one_line_and_stops_everything(
    kind: str, waits_for: str, pidfile: Path
) -> None:
    # busy: interrupted while a call is in flight; stubborn: while the handshake waits on a
    # server that ignores SIGTERM (only SIGKILL ends it and its child).
    # SIGINT as a terminal delivers it, even when this run was started with it ignored.
    command = subprocess.Popen(
        [*TOOLSCORE, "mcp", "test", "--timeout", "60", "--", *family(kind, pidfile)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        wait_for(pidfile, waits_for)
        time.sleep(0.2)
        sent = time.monotonic()
        command.send_signal(signal.SIGINT)
        _, err = command.communicate(timeout=COMMAND_WITHIN)
        took = time.monotonic() - sent
    finally:
        if command.poll() is None:
            command.kill()
            command.communicate()
    assert command.returncode == 130, err
    assert err == "toolscore mcp: interrupted; every process it started was stopped\n"
    assert took < CTRL_C_WITHIN, f"the command took {took:.1f} s to end after Ctrl-C"
    assert_all_gone(pidfile)


# -- stdio: the client ---------------------------------------------------------------------------


def test_an_exception_in_user_code_inside_the_client_stops_the_server_and_its_child(
    pidfile: Path,
) -> None:
    with (
        pytest.raises(RuntimeError, match="the agent failed"),
        MCPStdioClient(family("healthy", pidfile), timeout=60) as client,
    ):
        assert client.call_tool("echo", {"text": "hi"}).text == "hi"
        raise RuntimeError("the agent failed")
    assert_all_gone(pidfile)


def test_a_restart_stops_the_server_it_replaces_with_its_child(pidfile: Path) -> None:
    with MCPStdioClient(family("healthy", pidfile), timeout=60) as client:
        first = pids(pidfile)
        client.restart()
        assert still_running(first) == [], first
        assert all(alive(pid) for pid in pids(pidfile)[len(first) :])
        assert client.call_tool("echo", {"text": "again"}).text == "again"
    assert_all_gone(pidfile, servers=2)


def test_a_client_never_closed_has_its_server_stopped_when_python_exits(pidfile: Path) -> None:
    script = (
        "import sys; from toolscore.mcp import MCPStdioClient;"
        " MCPStdioClient(sys.argv[1:], timeout=60).start()"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *family("healthy", pidfile)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=COMMAND_WITHIN,
    )
    assert done.returncode == 0, done.stderr
    assert_all_gone(pidfile)


def test_the_recorder_stops_the_server_and_its_child_when_the_session_ends(
    pidfile: Path, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    proxy = [*TOOLSCORE, "mcp", "record", "-o", str(trace), "--", *family("healthy", pidfile)]
    with MCPStdioClient(proxy, timeout=60) as client:
        assert client.call_tool("echo", {"text": "hi"}).text == "hi"
    assert len(trace.read_text().splitlines()) == 2
    assert_all_gone(pidfile)


# -- Streamable HTTP ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["silent", "headers"])
def test_a_stalled_http_server_ends_the_command_in_bounded_time(mode: str, tmp_path: Path) -> None:
    # silent: never answers; headers: opens an event stream, then sends nothing.
    portfile = tmp_path / "port"
    server = subprocess.Popen(
        server_command("stalling_http", mode, str(portfile)),
        stdout=subprocess.PIPE,
        text=True,
    )
    events: list[str] = []
    assert server.stdout is not None
    reader = threading.Thread(target=lambda: events.extend(server.stdout or []), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + COMMAND_WITHIN
        while not portfile.exists() or not portfile.read_text():
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.05)
        url = f"http://127.0.0.1:{portfile.read_text()}/mcp"
        started = time.monotonic()
        done = toolscore("mcp", "test", "--timeout", "3", url)
        took = time.monotonic() - started
        # Nothing left behind: every connection the command opened is closed.
        deadline = time.monotonic() + GONE_WITHIN
        while events.count("closed\n") < events.count("accepted\n"):
            if time.monotonic() >= deadline:
                break
            time.sleep(0.05)
    finally:
        server.kill()
        server.wait()
        reader.join(timeout=10)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"toolscore: error: the MCP server at {url} did not finish the MCP handshake within 3 s\n"
    )
    assert took < 30, f"the command took {took:.1f} s"
    assert events.count("accepted\n") >= 1
    assert events.count("closed\n") == events.count("accepted\n"), events
