"""Where the MCP test servers live and how to start the HTTP one."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

SERVERS = Path(__file__).parent / "mcp_servers"
ROOT = Path(__file__).parents[2]
EVERYTHING_JS = Path(
    os.environ.get(
        "SCOREKIT_MCP_EVERYTHING",
        ROOT / ".mcp-node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    )
)


def server_command(name: str, *args: str) -> list[str]:
    """``python tests/toolscore/mcp_servers/NAME.py ARGS``."""
    return [sys.executable, str(SERVERS / f"{name}.py"), *args]


def everything_command() -> list[str] | None:
    """The reference server's command, or None where Node or the package is missing."""
    node = shutil.which("node")
    if node is None or not EVERYTHING_JS.is_file():
        return None
    return [node, str(EVERYTHING_JS), "stdio"]


EVERYTHING_MISSING = (
    "@modelcontextprotocol/server-everything is not installed (.ci/run installs it into"
    " .mcp-node/ where npm exists; or set SCOREKIT_MCP_EVERYTHING to its dist/index.js)"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def http_server() -> Iterator[str]:
    """Start the good server over Streamable HTTP on 127.0.0.1; yield its MCP URL."""
    port = _free_port()
    proc = subprocess.Popen(
        server_command("good_server", "http", str(port)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"the HTTP test server did not start: {err[-500:]}")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


def run_cli(argv: list[str]) -> tuple[int, str]:
    """``toolscore ARGV`` in this process: the exit code and what it printed to stdout."""
    from toolscore.cli import main

    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()
