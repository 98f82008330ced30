"""MCP servers that start a child process of their own, for the cleanup tests.

``python family_servers.py KIND PIDFILE`` starts a child (``python -c ...`` that sleeps for ten
minutes), waits until the child has written ``child PID`` to PIDFILE, writes ``server PID``
there itself, and then behaves as KIND says:

- ``silent``: never reads or answers anything (a server that hangs before its handshake);
- ``stubborn``: the same, and it and its child ignore SIGTERM (only SIGKILL ends them);
- ``garbage``: writes lines that are not JSON-RPC to stdout, never a protocol message;
- ``healthy``: a working server (the SDK's ``MCPServer``) with one tool, ``echo``;
- ``busy``: ``echo`` and ``slow``, which writes ``call PID`` to PIDFILE and then takes ten
  minutes to answer (the server keeps answering other requests meanwhile);
- ``crash``: ``echo`` and ``explode``, which exits the process in the middle of the call (its
  child is left running, as a real crash leaves it).

The MCP servers exit at once when their stdin closes (they have nothing to save). Every start
appends its own lines, so a server restarted by the scorecard adds a pair each time.
The kinds that never answer import nothing from the SDK (they are ready at once).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

kind, pidfile = sys.argv[1], sys.argv[2]

_CHILD = """
import os, signal, sys, time
if sys.argv[2] == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(sys.argv[1], "a") as f:
    f.write(f"child {os.getpid()}\\n")
time.sleep(600)
"""


def _note(role: str) -> None:
    with open(pidfile, "a") as f:
        f.write(f"{role} {os.getpid()}\n")


def _start_child() -> None:
    before = _count("child")
    subprocess.Popen([sys.executable, "-c", _CHILD, pidfile, kind], stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _count("child") == before and time.monotonic() < deadline:
        time.sleep(0.01)


def _count(role: str) -> int:
    try:
        with open(pidfile) as f:
            return sum(1 for line in f if line.startswith(role + " "))
    except FileNotFoundError:
        return 0


if kind == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
_start_child()
_note("server")

if kind in ("silent", "stubborn"):
    time.sleep(600)
elif kind == "garbage":
    for n in range(600):
        print(f"Server starting... step {n}", flush=True)
        time.sleep(1)
else:
    from typing import Annotated

    import anyio
    from mcp.server.mcpserver import MCPServer
    from pydantic import Field

    server = MCPServer(f"family-{kind}", version="0.1.0")

    @server.tool()
    def echo(text: Annotated[str, Field(description="Text to send back.")]) -> str:
        """Send the text back unchanged."""
        return text

    if kind == "busy":

        @server.tool()
        async def slow(note: Annotated[str, Field(description="Anything.")]) -> str:
            """Answer in ten minutes (the server keeps answering other requests meanwhile)."""
            _note("call")
            await anyio.sleep(600)
            return "done"

    if kind == "crash":

        @server.tool()
        def explode(reason: Annotated[str, Field(description="Why to fail.")]) -> str:
            """Fail hard: the process exits in the middle of the call."""
            sys.stderr.write(f"fatal: explode brought the server down ({reason})\n")
            sys.stderr.flush()
            os._exit(3)

    server.run()
    os._exit(0)  # as soon as stdin closes, like a server with nothing to save
