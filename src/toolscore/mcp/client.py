"""Talk to an MCP server through the official ``mcp`` SDK: stdio or Streamable HTTP.

:class:`MCPStdioClient` launches a server command and speaks over its stdin/stdout;
:class:`MCPHttpClient` connects to a Streamable HTTP endpoint. Both negotiate the protocol
version with the server (the SDK's ``auto`` mode: the modern ``server/discover`` probe, falling
back to the ``initialize`` handshake), and both are synchronous: the SDK's async session runs on
a private event-loop thread owned by the client.

Every call has a timeout. A call that outlives it raises :class:`MCPTimeoutError`; a server
that exits or drops the connection raises :class:`MCPServerExitedError` carrying the tail of
its stderr. Neither can hang the caller: the SDK's read timeout is backed by a hard deadline
of our own.

A stdio server never outlives its client: it runs in a process group of its own, and on every
way out (``close()``, the end of a ``with`` block, an exception or a Ctrl-C in it, a failed
start, a restart) its stdin is closed, and after a grace period the server and everything it
started get SIGTERM, then SIGKILL (see :mod:`toolscore.mcp._stdio`). A Ctrl-C skips the grace
period for stdin.

Over 400 lines: one client whose methods share the connection's life (start, calls,
restart, close on every way out); the loop thread is ``scorekit.runtime.LoopThread`` and the
stdio process group is ``toolscore.mcp._stdio``.

Example:
    >>> import sys
    >>> with MCPStdioClient([sys.executable, "-m", "toolscore.mcp.sample_server"]) as client:
    ...     names = [tool.name for tool in client.list_tools()]
    ...     result = client.call_tool("create_note", {"title": "Groceries"})
    >>> names[0], result.is_error
    ('create_note', False)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Any, TypeVar

from scorekit.runtime import LoopTask, LoopThread
from toolscore.mcp._stdio import Spawned, StdoutNoise, stdio_transport
from toolscore.mcp.content import content_to_text

__all__ = [
    "MCPClient",
    "MCPError",
    "MCPHttpClient",
    "MCPServerExitedError",
    "MCPStdioClient",
    "MCPTimeoutError",
    "MCPToolDef",
    "MCPToolResult",
]

T = TypeVar("T")

#: Characters of the server's stderr kept for messages.
STDERR_TAIL_CHARS = 2000
#: Pages of ``tools/list`` followed before a server that paginates forever is given up on.
MAX_TOOL_PAGES = 100
#: Seconds a session may take to end before it is cancelled, then before its loop thread is
#: abandoned (the server is stopped from the calling thread then).
_CLOSE_SECONDS = 10.0
#: Extra seconds our own deadline gives the SDK's read timeout to fire first.
_GRACE_SECONDS = 2.0


class MCPError(Exception):
    """An MCP server could not be reached or broke the protocol."""


class MCPTimeoutError(MCPError):
    """A request got no answer within its timeout."""


class MCPServerExitedError(MCPError):
    """The server exited or closed the connection; ``stderr_tail`` holds its last words."""

    def __init__(self, message: str, stderr_tail: str = "") -> None:
        super().__init__(message)
        self.stderr_tail = stderr_tail


@dataclass
class MCPToolDef:
    """A tool a server advertises.

    Attributes:
        name: the tool's name.
        description: its description ("" when the server gives none).
        input_schema: the JSON Schema of its arguments, as the server sent it.
        title: a display title, if any.
        output_schema: the JSON Schema of its structured output, if any.
        annotations: behaviour hints (``readOnlyHint``, ``destructiveHint``...), if any.
        task_support: ``"required"`` when the tool can only run as a task (then the scorecard
            does not call it), ``"optional"``, or None.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    title: str | None = None
    output_schema: dict[str, Any] | None = None
    annotations: dict[str, Any] | None = None
    task_support: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The definition as a client sends it to a model (name, description, inputSchema)."""
        return {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
        }


@dataclass
class MCPToolResult:
    """What one ``tools/call`` returned.

    Attributes:
        content: the result's content items as plain dicts (for a JSON-RPC error: the error
            object ``{"code", "message"}``).
        is_error: the server flagged the result as an error, or answered with a JSON-RPC error.
        raw: the whole result (or error) as plain JSON data.
        duration: seconds the call took, measured here.
        structured: the result's ``structuredContent``, if any.
    """

    content: Any
    is_error: bool
    raw: dict[str, Any]
    duration: float
    structured: Any = None

    @property
    def text(self) -> str:
        """The result as the text a client shows a model (see :func:`content_to_text`)."""
        return content_to_text(self.content)


def _dump(model: Any) -> Any:
    if hasattr(model, "model_dump"):
        return model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return model


def _tool_def(tool: Any) -> MCPToolDef:
    data = _dump(tool)
    schema = data.get("inputSchema")
    execution = data.get("execution")
    return MCPToolDef(
        name=str(data.get("name", "")),
        description=str(data.get("description") or ""),
        input_schema=schema if isinstance(schema, dict) else {},
        title=data.get("title"),
        output_schema=data.get("outputSchema"),
        annotations=data.get("annotations"),
        task_support=execution.get("taskSupport") if isinstance(execution, dict) else None,
    )


@dataclass
class _Connection:
    """One live session: the loop it runs on, the SDK client, and how to end it."""

    loop: LoopThread
    client: Any
    closing: asyncio.Event
    session: LoopTask
    lost: list[BaseException] = field(default_factory=list)
    #: Calls in flight (cancelled when the client closes under them).
    calls: set[concurrent.futures.Future[Any]] = field(default_factory=set)
    closed: bool = False


class MCPClient:
    """The common part of the stdio and HTTP clients (use one of those).

    Args:
        timeout: seconds each request may take (a call may override it).
        connect_timeout: seconds to start the server and negotiate (default: ``timeout``).
        protocol: ``"auto"`` (negotiate: modern discovery, else the initialize handshake),
            ``"legacy"`` (initialize handshake only), or a modern protocol version to pin.
    """

    transport_name = "mcp"

    def __init__(
        self,
        *,
        timeout: float = 30.0,
        connect_timeout: float | None = None,
        protocol: str = "auto",
    ) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r}")
        self.timeout = float(timeout)
        self.connect_timeout = float(connect_timeout) if connect_timeout else self.timeout
        self.protocol = protocol
        self._conn: _Connection | None = None
        self._lock = threading.RLock()
        self._generation = 0
        #: ``serverInfo`` of the last handshake (``name``, ``version``, ...).
        self.server_info: dict[str, Any] = {}
        #: The protocol version the server and this client agreed on.
        self.protocol_version: str | None = None
        #: The server's ``instructions`` (sent to the model with every session), or None.
        self.server_instructions: str | None = None
        #: The server's capabilities as plain JSON data.
        self.server_capabilities: dict[str, Any] = {}

    # -- what subclasses provide -------------------------------------------------------
    def _transport(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:
        """The server, in a few words, for messages."""
        return "the MCP server"

    def stderr_tail(self, limit: int = STDERR_TAIL_CHARS) -> str:
        """The last ``limit`` characters the server wrote to stderr ("" when unknown)."""
        return ""

    def _reset_stderr(self) -> None:
        """Forget what an earlier run of the server wrote (stderr, noise on stdout)."""

    def _stop_servers(self) -> None:
        """Stop every process this client started that still runs (a no-op for HTTP)."""

    # -- lifecycle -----------------------------------------------------------------------
    def __enter__(self) -> MCPClient:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._close(interrupted=exc_type is not None and not issubclass(exc_type, Exception))

    @property
    def generation(self) -> int:
        """How many times the server was (re)started by this client."""
        return self._generation

    @property
    def connected(self) -> bool:
        """True while a session is open and its connection was not lost."""
        conn = self._conn
        return conn is not None and not conn.lost and not conn.session.finished.done()

    def start(self) -> dict[str, Any]:
        """Start (or connect to) the server and negotiate; returns ``server_info``.

        Raises:
            MCPError: the SDK is missing, the server cannot be started or reached, or the
                handshake failed (the message quotes the server's stderr tail).
            MCPTimeoutError: the handshake took longer than ``connect_timeout``.
        """
        try:
            import mcp  # noqa: F401
        except ImportError:
            raise MCPError(
                "the MCP scorecard needs the mcp SDK: pip install 'llm-scorekit[mcp]'"
            ) from None
        with self._lock:
            if self._conn is not None:
                raise MCPError(f"{self.describe()}: the client is already started")
            self._reset_stderr()
            self._generation += 1
            loop = LoopThread(f"toolscore-mcp-{self._generation}")
            ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
            session = loop.start_task(self._serve(ready))
            try:
                client, closing = ready.result(timeout=self.connect_timeout + _GRACE_SECONDS)
            except BaseException as exc:
                interrupted = isinstance(exc, (KeyboardInterrupt, SystemExit))
                try:
                    if interrupted:
                        self._stop_servers()  # at once: whoever waits is being interrupted
                    loop.cancel(session)
                    self._stop_loop(loop, session)
                finally:
                    self._stop_servers()  # whatever the loop could not stop
                if interrupted:
                    raise
                raise self._connect_error(exc) from None
            conn = _Connection(loop, client, closing, session)
            self._conn = conn

            def _ended(_: concurrent.futures.Future[None]) -> None:
                conn.lost.append(ConnectionError("the session ended"))

            session.finished.add_done_callback(_ended)
            self._read_session(client)
            return self.server_info

    def close(self) -> None:
        """End the session and stop the server (bounded in time; safe to call twice).

        A stdio server's stdin is closed; if it has not exited within 2 s, it and every
        process it started get SIGTERM, and SIGKILL 2 s later. What the server started is
        stopped also when the server exited by itself.
        """
        self._close(interrupted=False)

    def _close(self, interrupted: bool) -> None:
        """``close()``; ``interrupted`` (a Ctrl-C, an exit): stop the server first, at once."""
        try:
            if interrupted:
                self._stop_servers()  # before the lock: a start in another thread then fails
            with self._lock:
                conn, self._conn = self._conn, None
            if conn is None:
                return
            conn.closed = True
            for call in list(conn.calls):
                call.cancel()
            with contextlib.suppress(RuntimeError):
                conn.loop.loop.call_soon_threadsafe(conn.closing.set)
            self._stop_loop(conn.loop, conn.session)
        finally:
            self._stop_servers()

    def restart(self) -> dict[str, Any]:
        """Stop the server and start it again (after a crash or a hang)."""
        self.close()
        return self.start()

    def _stop_loop(self, loop: LoopThread, session: LoopTask) -> None:
        """Wait for the session to end (cancel it if it does not), then stop its loop."""
        with contextlib.suppress(Exception):
            session.finished.result(timeout=_CLOSE_SECONDS)
        if not session.finished.done():
            loop.cancel(session)
            with contextlib.suppress(Exception):
                session.finished.result(timeout=_CLOSE_SECONDS)
        loop.stop()

    async def _serve(self, ready: concurrent.futures.Future[Any]) -> None:
        import mcp_types
        from mcp import Client

        from toolscore import __version__

        closing = asyncio.Event()
        # No cancel scope may wrap the entry alone (the SDK's task groups must close in the
        # order they opened): the caller's deadline on ``ready`` bounds the handshake instead.
        client = Client(
            self._transport(),
            mode=self.protocol,
            read_timeout_seconds=self.timeout,
            cache=None,  # every request must reach the server: it is what is being tested
            client_info=mcp_types.Implementation(name="toolscore", version=str(__version__)),
        )
        try:
            async with client:
                ready.set_result((client, closing))
                await closing.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
                return
            raise

    def _read_session(self, client: Any) -> None:
        session = client.session
        info = session.server_info
        self.server_info = _dump(info) if info is not None else {}
        self.protocol_version = session.protocol_version
        self.server_instructions = session.instructions
        caps = session.server_capabilities
        self.server_capabilities = _dump(caps) if caps is not None else {}

    # -- errors ---------------------------------------------------------------------------
    def _tail_note(self) -> str:
        tail = self.stderr_tail().strip()
        return f"; its stderr ends with:\n{tail}" if tail else ""

    def _exited(self, message: str) -> MCPServerExitedError:
        return MCPServerExitedError(message + self._tail_note(), self.stderr_tail())

    def _connect_error(self, exc: BaseException) -> MCPError:
        if isinstance(exc, MCPError):
            return exc
        if isinstance(exc, (TimeoutError, concurrent.futures.TimeoutError)):
            return MCPTimeoutError(
                f"{self.describe()} did not finish the MCP handshake within"
                f" {self.connect_timeout:g} s{self._tail_note()}"
            )
        if isinstance(exc, (FileNotFoundError, PermissionError)):
            return MCPError(f"cannot start {self.describe()}: {exc}")
        inner = getattr(exc, "exceptions", None)  # an exception group from the SDK's tasks
        if isinstance(inner, tuple) and inner:
            return self._connect_error(inner[0])
        detail = " ".join(str(exc).split()) or type(exc).__name__
        return self._exited(f"{self.describe()} could not be connected ({detail})")

    def _call_error(
        self, exc: BaseException, what: str, timeout: float, conn: _Connection
    ) -> MCPError:
        import anyio
        from mcp.shared.exceptions import MCPError as SDKError

        code = exc.code if isinstance(exc, SDKError) else None
        closed = (ConnectionError, EOFError, anyio.ClosedResourceError, anyio.BrokenResourceError)
        if conn.closed:
            return MCPError(f"{self.describe()}: the client was closed during {what}")
        if isinstance(exc, (TimeoutError, concurrent.futures.TimeoutError)) or code == -32001:
            return MCPTimeoutError(
                f"{self.describe()} did not answer {what} within {timeout:g} s{self._tail_note()}"
            )
        gone = bool(conn.lost) or code == -32000
        if gone or isinstance(exc, closed):
            # The SDK's session outlives a dead server (it waits to be closed), so the call
            # that finds the server gone marks this connection lost: ``connected`` is False
            # from now on, before any other thread may call it (the harness relies on that).
            conn.lost.append(exc)
            time.sleep(0.05)  # let the last stderr lines land before quoting them
            return self._exited(
                f"{self.describe()} closed the connection during {what} (it exited or crashed)"
            )
        detail = " ".join(str(exc).split()) or type(exc).__name__
        return MCPError(f"{self.describe()}: {what} failed: {detail}")

    # -- requests -------------------------------------------------------------------------
    def _run(
        self, make: Callable[[Any], Awaitable[T]], what: str, timeout: float | None = None
    ) -> T:
        limit = self.timeout if timeout is None else float(timeout)
        conn = self._conn
        if conn is None:
            raise MCPError(f"{self.describe()}: the client is not started (call start())")
        if conn.lost or conn.session.finished.done():
            raise self._exited(f"{self.describe()} is no longer connected")

        async def guarded() -> T:
            import anyio

            with anyio.fail_after(limit + _GRACE_SECONDS / 2):
                return await make(conn.client)

        future = conn.loop.submit(guarded())
        conn.calls.add(future)
        try:
            return future.result(timeout=limit + _GRACE_SECONDS)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise self._call_error(TimeoutError(), what, limit, conn) from None
        except MCPError:
            raise
        except BaseException as exc:
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                future.cancel()
                raise
            raise self._call_error(exc, what, limit, conn) from None
        finally:
            conn.calls.discard(future)

    def ping(self, timeout: float | None = None) -> bool:
        """True when the server answers within ``timeout`` (default: 2 s or less).

        The probe is a ``tools/list`` request: the protocol's ``ping`` is gone from
        2026-07-28 on, and every server answers ``tools/list``.
        """
        limit = min(self.timeout, 2.0) if timeout is None else timeout
        try:
            self._run(lambda c: c.list_tools(), "a liveness probe (tools/list)", limit)
        except MCPError:
            return False
        return True

    def list_tools(self) -> list[MCPToolDef]:
        """Every tool the server advertises, following pagination.

        Raises:
            MCPError: transport or protocol failure, or endless pagination.
            MCPTimeoutError: a page took longer than ``timeout``.
        """
        tools: list[MCPToolDef] = []
        cursor: str | None = None
        seen: set[str] = set()
        for _ in range(MAX_TOOL_PAGES):

            def fetch(c: Any, cur: str | None = cursor) -> Awaitable[Any]:
                return c.list_tools(cursor=cur) if cur else c.list_tools()  # type: ignore[no-any-return]

            page = self._run(fetch, "tools/list")
            tools.extend(_tool_def(t) for t in page.tools)
            cursor = page.next_cursor
            if not cursor:
                return tools
            if cursor in seen:
                raise MCPError(
                    f"{self.describe()} repeated the tools/list cursor {cursor!r}; stopped"
                    " following its pagination"
                )
            seen.add(cursor)
        raise MCPError(
            f"{self.describe()} returned more than {MAX_TOOL_PAGES} pages of tools; stopped"
        )

    def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None = None, timeout: float | None = None
    ) -> MCPToolResult:
        """Call a tool; a tool error or a JSON-RPC error comes back as ``is_error=True``.

        Raises:
            MCPTimeoutError: no answer within ``timeout`` (default: the client's).
            MCPServerExitedError: the server exited or closed the connection meanwhile.
            MCPError: another transport or protocol failure.
        """
        from mcp.shared.exceptions import MCPError as SDKError

        limit = self.timeout if timeout is None else float(timeout)
        args = dict(arguments or {})
        started = time.perf_counter()

        async def call(client: Any) -> Any:
            try:
                return await client.call_tool(name, args, read_timeout_seconds=limit)
            except SDKError as exc:
                if exc.code in (-32000, -32001):
                    raise
                return exc  # the server answered with a JSON-RPC error: a result, not a failure

        answer = self._run(call, f"tools/call {name!r}", limit)
        duration = time.perf_counter() - started
        if isinstance(answer, SDKError):
            error = _dump(answer.error)
            return MCPToolResult(error, True, {"error": error}, duration)
        raw = _dump(answer)
        return MCPToolResult(
            content=raw.get("content", []),
            is_error=bool(raw.get("isError", False)),
            raw=raw,
            duration=duration,
            structured=raw.get("structuredContent"),
        )


class MCPStdioClient(MCPClient):
    """A server launched as a command, spoken to over its stdin and stdout.

    The server starts in a process group of its own, and it and everything it started are
    stopped whenever the client stops it (see :meth:`MCPClient.close`), also after a failed
    start, a timeout, an exception or a Ctrl-C; any still running when Python exits are
    stopped then.

    Args:
        command: the command and its arguments, e.g. ``["python", "server.py"]``.
        env: variables added to the server's environment (the SDK passes a safe default
            environment: ``PATH``, ``HOME``... , not every variable of this process).
        cwd: the server's working folder.
        timeout: seconds each request may take.
        connect_timeout: seconds to start and negotiate (default: ``timeout``).
        protocol: ``"auto"``, ``"legacy"`` or a modern protocol version (see :class:`MCPClient`).
    """

    transport_name = "stdio"

    def __init__(
        self,
        command: Sequence[str],
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        timeout: float = 30.0,
        *,
        connect_timeout: float | None = None,
        protocol: str = "auto",
    ) -> None:
        if isinstance(command, str) or not command or not all(isinstance(c, str) for c in command):
            raise ValueError(
                f"command must be a non-empty list of strings like ['python', 'server.py'],"
                f" got {command!r}"
            )
        super().__init__(timeout=timeout, connect_timeout=connect_timeout, protocol=protocol)
        self.command = list(command)
        self.env = dict(env or {})
        self.cwd = os.fspath(cwd) if cwd is not None else None
        # Kept for the client's life: every restart of the server writes its stderr here.
        self._stderr: IO[str] = tempfile.TemporaryFile(  # noqa: SIM115
            "w+", encoding="utf-8", errors="replace"
        )
        self._spawned = Spawned()

    def describe(self) -> str:
        shown = " ".join(self.command)
        return f"the MCP server `{shown if len(shown) <= 80 else shown[:77] + '...'}`"

    def _transport(self) -> Any:
        if sys.platform == "win32":  # pragma: no cover - the SDK's Job Object stops the tree
            from mcp import StdioServerParameters
            from mcp.client.stdio import stdio_client

            params = StdioServerParameters(
                command=self.command[0], args=self.command[1:], env=self.env or None, cwd=self.cwd
            )
            return stdio_client(params, errlog=self._stderr)  # type: ignore[arg-type]
        return stdio_transport(self.command, self.env, self.cwd, self._stderr, self._spawned)

    def _reset_stderr(self) -> None:
        self._spawned.noise = StdoutNoise()
        with contextlib.suppress(OSError, ValueError):
            self._stderr.seek(0)
            self._stderr.truncate()

    def _stop_servers(self) -> None:
        self._spawned.stop()

    def _tail_note(self) -> str:
        return self._spawned.noise.describe() + super()._tail_note()

    def stderr_tail(self, limit: int = STDERR_TAIL_CHARS) -> str:
        try:
            fd = self._stderr.fileno()
            size = os.fstat(fd).st_size
            start = max(0, size - limit * 4)
            data = os.pread(fd, size - start, start)
        except (OSError, ValueError):
            return ""
        return data.decode("utf-8", errors="replace")[-limit:]

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._stderr.close()


class MCPHttpClient(MCPClient):
    """A server reached over Streamable HTTP.

    Args:
        url: the MCP endpoint, e.g. ``http://127.0.0.1:8000/mcp``.
        headers: HTTP headers sent with every request (e.g. ``Authorization``).
        timeout: seconds each request may take.
        connect_timeout: seconds to connect and negotiate (default: ``timeout``).
        protocol: ``"auto"``, ``"legacy"`` or a modern protocol version (see :class:`MCPClient`).
    """

    transport_name = "streamable-http"

    def __init__(
        self,
        url: str,
        headers: Mapping[str, str] | None = None,
        timeout: float = 30.0,
        *,
        connect_timeout: float | None = None,
        protocol: str = "auto",
    ) -> None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"url must start with http:// or https://, got {url!r}")
        super().__init__(timeout=timeout, connect_timeout=connect_timeout, protocol=protocol)
        self.url = url
        self.headers = dict(headers or {})

    def describe(self) -> str:
        return f"the MCP server at {self.url}"

    def _transport(self) -> Any:
        from mcp.client.streamable_http import streamable_http_client

        if not self.headers:
            return streamable_http_client(self.url)
        return _http_with_headers(self.url, self.headers)


@contextlib.asynccontextmanager
async def _http_with_headers(url: str, headers: dict[str, str]) -> AsyncIterator[Any]:
    """The Streamable HTTP transport over an HTTP client that sends ``headers`` (and is
    closed with the transport: the SDK closes only clients it made itself)."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with (
        create_mcp_http_client(headers=headers) as http,
        streamable_http_client(url, http_client=http) as streams,
    ):
        yield streams
