"""Record the tool calls between any MCP client and a stdio server, as a trace file.

:class:`MCPRecorder` stands where the client launches the server (an IDE's or an agent's MCP
settings): it starts the real server and relays every byte both ways unchanged, the server's
stderr included. Each ``tools/call`` request and the response with its id are appended to the
trace file as JSON Lines the moment the response arrives (the response line also carries the
measured ``duration`` in seconds), so a session that ends abruptly still leaves every
completed call on disk.

The file is the ``mcp`` trace format ``toolscore eval`` reads::

    toolscore mcp record -o session.jsonl -- python my_server.py
    toolscore eval gold.json session.jsonl
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

__all__ = ["MCPRecorder"]

_EXIT_SECONDS = 10.0


def _messages(line: bytes) -> list[dict[str, Any]]:
    try:
        decoded = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested past the recursion limit
        return []
    batch = decoded if isinstance(decoded, list) else [decoded]  # a list is a JSON-RPC batch
    return [m for m in batch if isinstance(m, dict)]


def _key(request_id: Any) -> str | None:
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        return None
    return json.dumps(request_id)


class MCPRecorder:
    """A transparent stdio proxy that writes ``tools/call`` traffic to a trace file.

    Args:
        command: the server's command and arguments.
        output: the trace file (JSON Lines; created or replaced when :meth:`run` starts).
        env: extra environment variables for the server.
        cwd: the server's working folder.

    Attributes:
        calls_recorded: completed calls written so far.

    Example:
        >>> import io, os, sys, tempfile
        >>> trace = os.path.join(tempfile.mkdtemp(), "session.jsonl")
        >>> rec = MCPRecorder([sys.executable, "-c", "import sys; sys.stdin.read()"], trace)
        >>> rec.run(stdin=io.BytesIO(b""), stdout=io.BytesIO(), stderr=io.BytesIO())
        0
    """

    def __init__(
        self,
        command: Sequence[str],
        output: str | os.PathLike[str],
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        if isinstance(command, str) or not command:
            raise ValueError(
                f"command must be a non-empty list of strings like ['python', 'server.py'],"
                f" got {command!r}"
            )
        self.command = list(command)
        self.output = Path(output)
        self.env = dict(env or {})
        self.cwd = cwd
        self.calls_recorded = 0
        self._pending: dict[str, tuple[float, dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._file: IO[str] | None = None

    def _client_line(self, line: bytes) -> None:
        for message in _messages(line):
            key = _key(message.get("id"))
            if message.get("method") == "tools/call" and key is not None:
                with self._lock:
                    self._pending[key] = (time.perf_counter(), message)

    def _server_line(self, line: bytes) -> None:
        for message in _messages(line):
            if "method" in message or not ("result" in message or "error" in message):
                continue
            key = _key(message.get("id"))
            with self._lock:
                pending = self._pending.pop(key, None) if key is not None else None
                if pending is None or self._file is None:
                    continue
                started, request = pending
                response = {**message, "duration": round(time.perf_counter() - started, 6)}
                self._file.write(json.dumps(request, ensure_ascii=False) + "\n")
                self._file.write(json.dumps(response, ensure_ascii=False) + "\n")
                self._file.flush()
                self.calls_recorded += 1

    def run(
        self,
        stdin: IO[bytes] | None = None,
        stdout: IO[bytes] | None = None,
        stderr: IO[bytes] | None = None,
    ) -> int:
        """Relay one session until the client closes its side or the server exits; returns
        the server's exit code.

        Raises:
            OSError: the server command cannot be started.
        """
        client_in = stdin if stdin is not None else sys.stdin.buffer
        client_out = stdout if stdout is not None else sys.stdout.buffer
        log = stderr if stderr is not None else sys.stderr.buffer
        self.output.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.output.open("w", encoding="utf-8")
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **self.env},
            cwd=self.cwd,
        )
        assert process.stdin and process.stdout and process.stderr
        server_in, server_out, server_err = process.stdin, process.stdout, process.stderr

        def forward() -> None:
            try:
                for line in iter(client_in.readline, b""):
                    self._client_line(line)
                    server_in.write(line)
                    server_in.flush()
            except (OSError, ValueError):
                pass  # the server went away; the main loop notices
            finally:
                with contextlib.suppress(OSError):
                    server_in.close()

        def pass_stderr() -> None:
            with contextlib.suppress(OSError, ValueError):
                for line in iter(server_err.readline, b""):
                    log.write(line)
                    log.flush()

        threads = [
            threading.Thread(target=forward, daemon=True, name="mcp-record-in"),
            threading.Thread(target=pass_stderr, daemon=True, name="mcp-record-err"),
        ]
        for thread in threads:
            thread.start()
        try:
            for line in iter(server_out.readline, b""):
                client_out.write(line)
                client_out.flush()
                self._server_line(line)
        except (OSError, ValueError):
            pass  # the client stopped reading: stop the server below
        finally:
            with contextlib.suppress(OSError):
                server_in.close()
            try:
                code = process.wait(timeout=_EXIT_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                code = process.wait()
            threads[1].join(timeout=2.0)
            with self._lock:
                file, self._file = self._file, None
            file.close()
        return code
