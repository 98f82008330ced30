"""Read MCP server entries from a Claude-Desktop-style configuration file.

The file holds an ``mcpServers`` object; each entry either launches a command
(``command``, ``args``, ``env``, ``cwd``) or names a Streamable HTTP endpoint (``url``,
optional ``headers``)::

    {"mcpServers": {
        "notes": {"command": "python", "args": ["-m", "notes_server"], "env": {"DEBUG": "1"}},
        "remote": {"type": "http", "url": "http://127.0.0.1:8000/mcp"}
    }}
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["MCPServerSpec", "load_mcp_config"]


@dataclass
class MCPServerSpec:
    """One server entry.

    Attributes:
        name: its key under ``mcpServers``.
        command: the command and its arguments (empty for an HTTP server).
        env: extra environment variables for the command.
        url: the Streamable HTTP endpoint (None for a command).
        headers: HTTP headers for the endpoint.
        cwd: the command's working folder, if set.
    """

    name: str
    command: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None


def _strings(value: object, what: str, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ValueError(f"{where}: {what} must be an object of strings")
    return dict(value)


def load_mcp_config(path: str | os.PathLike[str], server: str | None = None) -> MCPServerSpec:
    """The entry named ``server`` (or the only one) of a configuration file.

    Raises:
        FileNotFoundError: the file does not exist.
        ValueError: not JSON, no ``mcpServers``, an unknown or ambiguous server name, or an
            entry without a ``command`` or ``url``; the message names the file and the fix.

    Example:
        >>> import json, tempfile
        >>> f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        >>> _ = f.write(json.dumps({"mcpServers": {"notes": {"command": "python",
        ...     "args": ["-m", "notes"]}}})); f.close()
        >>> load_mcp_config(f.name).command
        ['python', '-m', 'notes']
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: no such MCP configuration file")
    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{p}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict) or not servers:
        raise ValueError(f'{p}: no servers; expected {{"mcpServers": {{"name": {{...}}}}}}')
    names = ", ".join(sorted(servers))
    if server is None:
        if len(servers) > 1:
            raise ValueError(f"{p} defines several servers ({names}); choose one with --server")
        server = next(iter(servers))
    if server not in servers:
        raise ValueError(f"{p} has no server {server!r}; it has: {names}")
    entry = servers[server]
    where = f"{p}: server {server!r}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where} must be an object")
    url = entry.get("url")
    if url is not None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"{where}: url must start with http:// or https://")
        if entry.get("type") == "sse":
            raise ValueError(
                f"{where} uses the old SSE transport; the scorecard speaks Streamable HTTP"
            )
        return MCPServerSpec(
            server, url=url, headers=_strings(entry.get("headers"), "headers", where)
        )
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise ValueError(f'{where} needs a "command" (or a "url" for an HTTP server)')
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError(f"{where}: args must be a list of strings")
    cwd = entry.get("cwd")
    return MCPServerSpec(
        server,
        command=[command, *args],
        env=_strings(entry.get("env"), "env", where),
        cwd=cwd if isinstance(cwd, str) else None,
    )
