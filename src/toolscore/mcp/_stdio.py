"""The stdio transport of :class:`~toolscore.mcp.client.MCPStdioClient`: a server that never
outlives its client.

The server starts in a session, hence a process group, of its own, so everything it starts
(a child, a shell's command, ``npx``'s node) can be found and stopped with it, and a Ctrl-C in
the terminal reaches the client only. :class:`ProcessGroup` stops a group from any thread:
SIGTERM to every member, SIGKILL to what is left after a grace period. The transport stops the
server the way the MCP specification asks (close its stdin, wait, then signal) and then the
rest of its group, also when the server itself already exited (a healthy server's child
survives it otherwise). The client repeats the last step synchronously after its event loop
ended, and every group still alive when the interpreter exits is stopped then: neither a hung
loop nor an interrupted close can leave a server running.

A server that exits while a child it started keeps its stdout open ends the session anyway
(the child would keep the pipe from reaching end-of-file). Lines on stdout that are not
JSON-RPC are not passed on; they are counted and the first is kept for messages.

POSIX only: on Windows the client uses the SDK's own transport, which puts the server in a
Job Object.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

__all__ = [
    "STDIN_GRACE_SECONDS",
    "TERM_GRACE_SECONDS",
    "ProcessGroup",
    "Spawned",
    "StdoutNoise",
    "stdio_transport",
    "stop_groups",
]

#: Seconds a server has to exit by itself once its stdin is closed (then it gets SIGTERM).
STDIN_GRACE_SECONDS = 2.0
#: Seconds between SIGTERM and SIGKILL.
TERM_GRACE_SECONDS = 2.0
#: Seconds to wait for the kernel to end processes after SIGKILL.
_KILL_WAIT_SECONDS = 1.0
#: Seconds a server that exited is given to let its stdout reach end-of-file by itself.
_EOF_WAIT_SECONDS = 0.5
_POLL_SECONDS = 0.05
_PROC = "/proc"


def _group_of(pid: int) -> tuple[str, int] | None:
    """``(state, process group)`` of ``pid`` from ``/proc`` (Linux), None once it is gone."""
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return fields[0].decode("ascii", "replace"), int(fields[2])
    except (OSError, IndexError, ValueError):
        return None


def _members(pgid: int) -> set[int] | None:
    """The PIDs in process group ``pgid`` from ``/proc`` (Linux), or None where there is none."""
    try:
        pids = [int(name) for name in os.listdir(_PROC) if name.isdigit()]
    except OSError:
        return None
    return {pid for pid in pids if (info := _group_of(pid)) is not None and info[1] == pgid}


class ProcessGroup:
    """Process group ``pgid``: a server started as a session leader (its pid is ``pgid``)
    and all it started."""

    def __init__(self, pgid: int) -> None:
        self.pgid = pgid
        self._gone = False
        self._known: set[int] = {pgid}

    def _runs(self, pid: int) -> bool:
        info = _group_of(pid)
        return info is not None and info[1] == self.pgid and info[0] not in ("Z", "X")

    def alive(self) -> bool:
        """True while a member of the group runs (exited members not yet reaped do not count)."""
        if self._gone:
            return False
        try:
            os.killpg(self.pgid, 0)
        except ProcessLookupError:
            self._gone = True  # a group id is never signalled again once it is free
            return False
        except PermissionError:
            return True  # some member is not ours to signal: it still runs
        if any(self._runs(pid) for pid in self._known):
            return True
        # Only exited members are known: look for members started since the last look.
        members = _members(self.pgid)
        if members is None:
            return True  # no /proc: the group exists, so something of it may run
        self._known = members
        return any(self._runs(pid) for pid in members)

    def signal(self, sig: int) -> None:
        """Send ``sig`` to every member (nothing when the group is gone)."""
        if self._gone:
            return
        try:
            os.killpg(self.pgid, sig)
        except ProcessLookupError:
            self._gone = True
        except PermissionError:
            pass


def stop_groups(groups: Sequence[ProcessGroup], grace: float = TERM_GRACE_SECONDS) -> bool:
    """Stop several groups at once (SIGTERM, ``grace`` seconds, SIGKILL); True when all are gone.

    Blocks the calling thread for at most ``grace`` plus about a second.
    """
    live = [g for g in groups if g.alive()]
    for group in live:
        group.signal(signal.SIGTERM)
    if _wait_gone(live, grace):
        return True
    for group in live:
        group.signal(signal.SIGKILL)
    return _wait_gone(live, _KILL_WAIT_SECONDS)


def _wait_gone(groups: Sequence[ProcessGroup], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while True:
        if not any(g.alive() for g in groups):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_SECONDS)


#: Every server group this process started and has not seen end (stopped at exit), and the
#: lock of every set of groups.
_LIVE: set[ProcessGroup] = set()
_LOCK = threading.Lock()


@atexit.register
def _stop_live() -> None:
    with _LOCK:
        groups = list(_LIVE)
        _LIVE.clear()
    if groups:
        stop_groups(groups, 1.0)


@dataclass
class StdoutNoise:
    """Lines a server wrote to stdout that are not JSON-RPC messages."""

    count: int = 0
    first: str = ""

    def note(self, line: bytes) -> None:
        if not self.count:
            text = " ".join(line.decode("utf-8", "replace").split())
            self.first = text if len(text) <= 80 else text[:79] + "…"
        self.count += 1

    def describe(self) -> str:
        """What a message adds about these lines ("" when there were none)."""
        if not self.count:
            return ""
        return (
            f"; it wrote {self.count} line(s) to stdout that are not JSON-RPC (the first:"
            f" {self.first!r}): a stdio server must write only MCP messages to stdout, its logs"
            " to stderr"
        )


@dataclass
class Spawned:
    """What the transport tells its client about the server it started."""

    groups: set[ProcessGroup] = field(default_factory=set)
    noise: StdoutNoise = field(default_factory=StdoutNoise)

    def add(self, group: ProcessGroup) -> None:
        with _LOCK:
            self.groups.add(group)
            _LIVE.add(group)

    def stop(self, grace: float = TERM_GRACE_SECONDS) -> None:
        """Stop every group this client started that still runs (from any thread)."""
        with _LOCK:
            groups = list(self.groups)
        stop_groups(groups, grace)
        with _LOCK:
            for group in groups:
                if not group.alive():
                    self.groups.discard(group)
                    _LIVE.discard(group)


@contextlib.asynccontextmanager
async def stdio_transport(
    command: Sequence[str],
    env: Mapping[str, str],
    cwd: str | None,
    errlog: IO[str],
    spawned: Spawned,
) -> AsyncIterator[Any]:
    """Start ``command`` in a process group of its own and yield the SDK's pair of streams.

    On the way out, also when cancelled: stdin is closed, the server gets
    :data:`STDIN_GRACE_SECONDS` to exit, then its whole group is stopped (SIGTERM, SIGKILL).
    """
    import anyio
    import mcp_types
    from mcp.client.stdio import get_default_environment
    from mcp.shared.message import SessionMessage

    process = await anyio.open_process(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=errlog,
        cwd=cwd,
        env={**get_default_environment(), **env},
        start_new_session=True,
    )
    # No await until the group is known to the client: a cancellation here would leak it.
    group = ProcessGroup(process.pid)
    spawned.add(group)
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    read_send, read_receive = anyio.create_memory_object_stream[Any](0)
    write_send, write_receive = anyio.create_memory_object_stream[Any](0)
    reading = anyio.CancelScope()
    reached_eof = anyio.Event()
    gone = (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError)

    async def read_stdout() -> None:
        buffer = b""
        async with read_send:
            with reading, contextlib.suppress(*gone):
                async for chunk in stdout:
                    *lines, buffer = (buffer + chunk).split(b"\n")
                    for line in lines:
                        if not line.strip():
                            continue
                        try:
                            message = mcp_types.jsonrpc_message_adapter.validate_json(
                                line, by_name=False
                            )
                        except ValueError:
                            spawned.noise.note(line)
                            continue
                        await read_send.send(SessionMessage(message))
            reached_eof.set()

    async def stop_reading() -> None:
        """End the session even if a child of the server holds its stdout open."""
        with anyio.move_on_after(_EOF_WAIT_SECONDS):
            await reached_eof.wait()
        reading.cancel()

    async def write_stdin() -> None:
        async with write_receive:
            try:
                async for item in write_receive:
                    data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await stdin.send((data + "\n").encode("utf-8"))
            except gone:
                await stop_reading()  # the server stopped reading: it exited or is exiting

    async def watch_exit() -> None:
        while process.returncode is None:
            await anyio.sleep(_POLL_SECONDS * 5)
        await stop_reading()

    async def shut_down() -> None:
        with contextlib.suppress(*gone):
            await stdin.aclose()
        with anyio.move_on_after(STDIN_GRACE_SECONDS):
            while process.returncode is None:
                await anyio.sleep(_POLL_SECONDS)
        # Also after the server exited: what it started is still in its group.
        await anyio.to_thread.run_sync(spawned.stop)
        reading.cancel()
        with contextlib.suppress(*gone):
            await stdout.aclose()
        with anyio.move_on_after(_KILL_WAIT_SECONDS):
            await process.wait()  # reaps it, and closes the subprocess transport
        for stream in (read_send, read_receive, write_send, write_receive):
            stream.close()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(read_stdout)
        tasks.start_soon(write_stdin)
        tasks.start_soon(watch_exit)
        try:
            yield read_receive, write_send
        finally:
            with anyio.CancelScope(shield=True):
                await shut_down()
            tasks.cancel_scope.cancel()
